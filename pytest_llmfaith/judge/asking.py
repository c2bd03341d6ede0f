"""Asking the judge until its answer is valid: a bounded re-ask that shows the judge what was wrong.

An answer cut off by the token limit is not asked again (it would be cut again), and the last
invalid answer is shown in the error, redacted.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Generic

from pydantic import ValidationError

from pytest_llmfaith.errors import JudgeError, redact, redact_data
from pytest_llmfaith.judge.backend import JudgeConfig, Transport
from pytest_llmfaith.judge.question import NextToken, Question, T
from pytest_llmfaith.wording import shorten

SHOWN_ANSWER_CHARS = 300  # of a judge's answer in an error message: enough to see what went wrong


@dataclass(frozen=True)
class Asked(Generic[T]):
    answer: T | str  # validated
    raw: Any  # the answer as JSON (or text), redacted: what the stores keep
    usage: dict[str, int]  # over every attempt
    cost: float | None
    attempts: int


def extract_json(text: str) -> Any:
    """Parse a JSON answer that may be wrapped in code fences or prose. The answer as it is first:
    its strings may quote an output's own fences ("```json"), which are no wrapping."""
    body = text.strip()
    candidates = [body, *(m.group(1).strip() for m in re.finditer(r"```(?:json)?\s*(.*?)```", body, re.DOTALL))]
    start, end = body.find("{"), body.rfind("}")
    if start != -1 and end > start:
        candidates.append(body[start : end + 1])
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except ValueError:
            continue
        except RecursionError:
            raise ValueError("the answer is JSON nested deeper than can be read") from None
    raise ValueError("the answer is not JSON")


def ask_until_valid(transport: Transport, question: Question[T]) -> Asked[T]:
    config = question.config
    conversation = list(question.messages)
    tokens = {"prompt_tokens": 0, "completion_tokens": 0}
    cost: float | None = None
    problem = ""
    text = ""
    names = [config.api_key_env]
    for attempt in range(1, config.reasks + 2):
        reply = transport.complete(question.completion(conversation))
        # a one-token answer is its alternatives as NextToken
        text = json.dumps({"top": reply.top_logprobs}) if question.schema is NextToken else reply.text
        for name in tokens:
            tokens[name] += reply.usage.get(name) or 0
        if reply.cost is not None:
            cost = (cost or 0.0) + reply.cost
        try:
            # redacted as it arrives: the scorer, the stores and replay all see the same answer
            raw = redact_data(text if question.schema is None else extract_json(text), names)
            if question.schema is None and not text.strip():
                raise ValueError("the answer is empty")
            return Asked(question.validate(raw), raw, tokens, cost, attempt)
        except (ValueError, ValidationError) as err:
            if reply.finish_reason == "length":  # asked again, it would be cut again
                raise _cut_off(config, question.step, text) from None
            problem = _describe(err)
        conversation = [
            *question.messages,
            {"role": "assistant", "content": text},
            {"role": "user", "content": f"That answer was invalid: {problem}. Reply again with "
             "only the JSON object, in exactly the requested format."},
        ]
    raise JudgeError(redact(
        f"llmfaith: judge {config.model} gave no valid answer at step '{question.step}' after "
        f"{config.reasks + 1} attempts: {problem}. Last answer: {shorten(text, SHOWN_ANSWER_CHARS)!r}. "
        "Fix: use a stronger judge model (--llm-judge-model), or check that the server "
        "returns the JSON it is asked for.", names))


def _cut_off(config: JudgeConfig, step: str, text: str) -> JudgeError:
    limit = f"max_tokens={config.max_tokens}" if config.max_tokens else "the server's default limit"
    return JudgeError(redact(
        f"llmfaith: judge {config.model}'s answer at step '{step}' was cut off by the token "
        f"limit ({limit}) before it was complete: {shorten(text, SHOWN_ANSWER_CHARS)!r}. Fix: raise the limit with "
        "--llm-judge-max-tokens=N (ini llm_judge_max_tokens, env LLMFAITH_JUDGE_MAX_TOKENS).", [config.api_key_env]))


def _describe(err: Exception) -> str:
    if isinstance(err, ValidationError):
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "answer"
        return f"{where}: {first['msg']}"
    return str(err)
