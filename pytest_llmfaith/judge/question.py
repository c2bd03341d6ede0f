"""A question to the judge, passed whole from the lookups to the asking: what is asked, of which
model, the schema its answer must fit, and the cache key that everything deciding the answer gives it."""

from __future__ import annotations

import functools
import hashlib
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, Field, model_validator

from pytest_llmfaith.errors import redact_data
from pytest_llmfaith.judge.backend import CompletionRequest, JudgeConfig
from pytest_llmfaith.judge.stores import Entry, StoredAnswer

T = TypeVar("T", bound=BaseModel)
Messages = list[dict[str, str]]

TOP_LOGPROBS = 20
CACHE_FORMAT = 1  # in every key: a new format makes every stored answer a miss


class NextToken(BaseModel):
    """A one-token answer as top log probabilities. A recording keeps only P(yes), which decides."""

    top: dict[str, float] = Field(default_factory=dict)
    p_yes: float | None = Field(default=None, ge=0.0, le=1.0)

    @model_validator(mode="after")
    def _probabilities(self) -> NextToken:
        if not self.top and self.p_yes is None:
            raise ValueError("a one-token answer needs its top tokens or its P(yes)")
        return self


def p_yes(answer: NextToken) -> float:
    """P(yes) / (P(yes) + P(no)) over the answer's first token, whatever its case or spacing; a
    recording keeps it alone."""
    if answer.p_yes is not None:
        return answer.p_yes
    mass = {"yes": 0.0, "no": 0.0}
    for token, logprob in answer.top.items():
        word = token.strip().lower()
        if word in mass:
            mass[word] += math.exp(logprob)
    total = mass["yes"] + mass["no"]
    return mass["yes"] / total if total > 0 else 0.5


# What a reviewer reads of a request in a recording (`StoredAnswer.asked`): the data it was
# about, not the instructions.

SHOWN_CONTEXT_CHARS = 400  # what a reviewer needs to see of the context, not all of it
DATA_TAGS = ("input", "output", "claims", "claim", "context")


def _between(text: str, tag: str) -> str | None:
    found = re.findall(rf"<{tag}>\n(.*?)\n</{tag}>", text, re.DOTALL)
    return found[-1] if found else None  # the last: a prompt's worked example comes first


def _short(text: str, limit: int = SHOWN_CONTEXT_CHARS) -> str:
    """Part of the file format (not wording.shorten): a change would rewrite every recording."""
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more chars]"


def summarise(messages: list[dict[str, str]]) -> dict[str, Any]:
    """What a reviewer needs to see of a request: the data it was about, not the instructions.
    The fenced sections of the scorers' prompts, or the claim and question of a label prompt."""
    text = messages[-1]["content"] if messages else ""
    asked: dict[str, Any] = {}
    for tag in DATA_TAGS:
        value = _between(text, tag)
        if value is None:
            continue
        if tag in ("claims", "claim"):  # the output's words a verdict is about, in their sentence
            try:
                found = json.loads(value)
            except ValueError:
                found = value
            words = [c.get("words", c) if isinstance(c, dict) else c for c in (found if tag == "claims" else [found])]
            asked[tag] = words if tag == "claims" else words[0]
            continue
        asked[tag] = _short(value) if tag == "context" else value
    if not asked:  # a label prompt: Document / Claim / question
        for name, pattern in (("context", r"Document:\n(.*?)\n\n(?:Sentence|Text):"),
                              ("claim", r"\nWords to check: (.*?)\n")):
            if found := re.search(pattern, text, re.DOTALL):
                asked[name] = _short(found.group(1)) if name == "context" else found.group(1)
        asked["question"] = text.strip().splitlines()[-1] if text.strip() else ""
    return asked


@functools.cache
def schema_json(schema: type[BaseModel]) -> dict[str, Any]:
    """A schema's JSON Schema, built once: it is most of the cost of a cache hit otherwise."""
    return schema.model_json_schema()


def request_key(request: dict[str, Any]) -> str:
    """Canonical JSON (the same request, the same text), hashed. surrogatepass: a lone surrogate still
    gets a key (unchanged bytes for valid text)."""
    text = json.dumps({"cache_format": CACHE_FORMAT, **request}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Question(Generic[T]):
    """Made by the judge that asks it (`Judge.question`), with the model and api base as keys name them."""

    config: JudgeConfig
    model: str  # the backend's identity: a local model is named by its weights
    api_base: str | None  # None where the backend leaves it out of the key
    step: str  # named in messages and progress, kept with the answer
    messages: Messages
    schema: type[T] | None  # None: a text answer
    prompt_version: str
    sample: int = 0  # > 0: another independent sample of the same answer (votes)
    check: Callable[[T], None] | None = None  # raises ValueError: the answer is asked again

    @property
    def request(self) -> dict[str, Any]:
        """Everything that decides the answer, nothing else: what the key is computed from."""
        temperature, seed = self.config.sampling(self.sample)
        request: dict[str, Any] = {
            "model": self.model, "api_base": self.api_base, "messages": self.messages,
            "schema": schema_json(self.schema) if self.schema else None, "temperature": temperature,
            "seed": seed, "max_tokens": self.config.max_tokens, "prompt_version": self.prompt_version,
        }
        if self.sample:  # sample 0 keeps the key it had before votes existed: old caches stay valid
            request["sample"] = self.sample
        if self.schema is NextToken:
            request.update(schema=None, max_tokens=1, logprobs=TOP_LOGPROBS)
        return request

    @functools.cached_property
    def key(self) -> str:
        return request_key(self.request)

    def completion(self, conversation: Messages) -> CompletionRequest:
        """The request to send, for the question or a re-ask of it (`conversation`)."""
        temperature, seed = self.config.sampling(self.sample)
        shape: dict[str, Any] = {}
        if self.schema is NextToken:
            shape = {"top_logprobs": TOP_LOGPROBS}
        elif self.schema is not None:
            shape = {"json_schema": schema_json(self.schema), "schema_name": self.schema.__name__}
        return CompletionRequest(step=self.step, messages=conversation, temperature=temperature, seed=seed,
                                 max_tokens=self.config.max_tokens, **shape)

    def validate(self, data: Any) -> T | str:
        """The answer as the schema's instance (or text); raises when it is not one."""
        if self.schema is None:
            if not isinstance(data, str):
                raise TypeError("expected text")
            return data
        answer = self.schema.model_validate(data)
        if self.check is not None:
            self.check(answer)
        return answer

    def entry(self, raw: Any, usage: dict[str, int], cost: float | None, recorded_by: str = "") -> Entry:
        """The answer as the stores keep it, redacted: also answers stored before answers were
        redacted on arrival."""
        asked, answer = redact_data((summarise(self.messages), raw), [self.config.api_key_env])
        stored = StoredAnswer(step=self.step, model=self.config.model, prompt_version=self.prompt_version,
                              sample=self.sample, asked=asked, answer=answer, usage=usage, cost_usd=cost)
        label = p_yes(NextToken.model_validate(stored.answer)) if self.schema is NextToken else None
        return Entry(stored, recorded_by, label)
