"""A scriptable OpenAI-compatible judge on 127.0.0.1, for tests and benchmarks.

It answers the plugin's own prompts the way a careful judge would, from a script of facts:
- claims step: the claims of an output are `claims[output]` if scripted (a string is a claim whose
  words are itself; a dict gives "claim" and "words"), else its sentences;
- the narrow questions: a sentence states its numbers as facts unless it is in `labels_only`; it
  states a fact unless it is in `not_facts` or in an output
  scripted to make no claims (`claims[output] = []`); it says no more than the claims quoted from
  it unless it is in `says_more`; the context gives an amount, and names
  every token it is asked about unless one is in `unnamed`, and gives a number for what a claim says
  it is unless the number is in `unnamed`;
- verdicts are keyed by the output's words they are about: a claim in `supported` is backed by
  the context, one in `contradicted` contradicts
  it, anything else is not mentioned; each scorer's labels follow from that (`labels` overrides
  the label of a claim verbatim, e.g. "Yes."; for the hallucination scorer it is the "supported" label;
  `votes` gives a claim one label per sample, picked by the request's seed: none = sample 0;
  `changing` gives a claim the next of its labels at every request, as a judge that is not
  deterministic does);
- label requests (logprobs): P(yes) follows the same script, or `p_supported[claim]` (`p_fact[sentence]`
  for the facts question) when given.
It can also misbehave on request (`fail`): delay, 429 with Retry-After, 500 (with a scripted
message), 401 echoing the key it was sent, a 200 whose body is an error, no choices, an answer cut
at the token limit, malformed JSON, wrong schema, wrong verdict count, empty body, dropped
connection, no logprobs for a label request, a 200 whose verdict reasons quote the Authorization
header it was sent (`echo_key`), and plausible lies: no claims, an extra claim
(`text`, e.g. a fact copied from the context), the first verdict repeated for all, the first
verdict given for another statement (`restate`: `text`, judged as the script judges it). It records
every request (with its arrival time, `t`, in time.monotonic() seconds).
It tells the steps apart by the request's structure (logprobs, response_format, data tags), never
by prompt wording, so a prompt edit breaks no test. `ScriptedJudge` is the script and its answers
without HTTP; tests/fake_transport.py answers with it in process.

Run it standalone for benchmarks: `python tests/judge_server.py --port 8765 --latency 0.3`.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

FAULTS = ("delay", "429", "500", "401", "error_200", "no_choices", "length", "malformed", "nested", "wrong_schema",
          "wrong_count", "empty_body", "empty_content", "drop", "fenced", "no_claims", "extra_claim",
          "repeat_first", "no_logprobs", "restate", "echo_key")


@dataclass
class Fault:
    kind: str
    step: str | None = None
    times: int = 1
    seconds: float = 0.0
    message: str = ""  # what the server says in its error body (500, error_200)
    text: str = ""  # the claim an extra_claim fault adds; the statement a restate fault judges


@dataclass
class Script:
    claims: dict[str, list[Any]] = field(default_factory=dict)
    not_facts: set[str] = field(default_factory=set)  # sentences the fact question answers "no" for
    labels_only: set[str] = field(default_factory=set)  # sentences whose numbers are labels ("### Step 2"), no facts
    says_more: set[str] = field(default_factory=set)  # sentences that state a fact the claims quoted from them do not
    changes: set[str] = field(default_factory=set)  # claims (words) whose sentence says more that changes them
    unnamed: set[str] = field(default_factory=set)  # tokens the specifics question answers "no" for
    supported: set[str] = field(default_factory=set)
    contradicted: set[str] = field(default_factory=set)
    labels: dict[str, str] = field(default_factory=dict)
    votes: dict[str, list[str]] = field(default_factory=dict)  # claim -> label of sample 0, 1, ...
    p_supported: dict[str, float] = field(default_factory=dict)  # claim -> P(yes) to "is it supported?"
    p_contradicted: dict[str, float] = field(default_factory=dict)  # claim -> P(yes) to "does it contradict?"
    p_evidence: dict[str, float] = field(default_factory=dict)  # claim -> P(yes) shown only the evidence (else
    # as "is it supported?")
    p_fact: dict[str, float] = field(default_factory=dict)  # sentence -> P(yes) to "does it state a fact?"; tokens
    # as asked (“oslo”) -> P(yes) to "does the document give them?"; a claim's words -> P(yes) to "changed?"
    changing: dict[str, list[str]] = field(default_factory=dict)  # claim -> its label in turn, one per request
    asked: dict[str, int] = field(default_factory=dict)  # claim -> verdict requests so far (for `changing`)
    reason_text: str = '{"reason": "scripted reason"}'
    latency: float = 0.0
    prompt_tokens: int = 0  # the prompt tokens every answer reports (its price, for a priced model); 0: ~chars/4


def _between(text: str, tag: str) -> str | None:
    found = re.findall(rf"<{tag}>\n(.*?)\n</{tag}>", text, re.DOTALL)
    return found[-1] if found else None  # the last: a prompt's worked example comes first


def _sentences(text: str) -> list[str]:
    """As the scorer reads them ("am 12. Juni" is no sentence end): the default claims are whole sentences."""
    from pytest_llmfaith.text.sentences import sentences

    return list(sentences(text.strip()))


def step_of(body: dict[str, Any]) -> str:
    """The step a request is for, read from its structure, never from prompt wording: a label
    question asks for logprobs; the reason is the one answer asked as plain text (no
    response_format); a JSON answer is the claims step by its schema's name where the provider
    enforces one, else by its data: an <output> to split, and no context or claim to judge."""
    if body.get("logprobs"):
        question, _ = label_question(body.get("messages", []))
        return _QUESTION_STEPS.get(question, "verdicts")
    response_format = body.get("response_format")
    if not response_format:
        return "reason"
    name = (response_format.get("json_schema") or {}).get("name")
    if name:
        if name == "NarrowAnswer":
            return _QUESTION_STEPS[label_question(body.get("messages", []))[0]]
        return "claims" if name == "ClaimsAnswer" else "verdicts"
    question, _ = label_question(body.get("messages", []))
    if question in _QUESTION_STEPS:
        return _QUESTION_STEPS[question]
    user = _user(body.get("messages", []))
    judged = any(_between(user, tag) is not None for tag in ("context", "claims", "claim"))
    return "claims" if _between(user, "output") is not None and not judged else "verdicts"


# the narrow questions' fields of a verdict
_NARROW_FIELDS = ("states_fact", "changed", "specifics", "states_numbers", "same_role")
_QUESTION_STEPS = {"fact": "facts", "more": "facts", "changed": "facts", "specifics": "names", "amount": "names",
                   "role": "names", "numbers": "facts"}


def _claim_item(text: str) -> Any:
    """A claim as the scorers fence it (JSON: its words and sentence), or as a custom scorer does (text)."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _user(messages: list[dict[str, str]]) -> str:
    return messages[1]["content"] if len(messages) > 1 else ""  # a re-ask appends after it


def _asked(messages: list[dict[str, str]]) -> list[dict[str, str]]:
    """The conversation up to the question, before any re-ask: past the facts and "changed?"
    questions' worked examples (the package's own, so an edit there moves both sides)."""
    from pytest_llmfaith.scorers.questions import CHANGED_SHOTS, FACT_EXAMPLES, FACT_SYSTEM

    changed = len(messages) > 1 and messages[1]["content"].startswith(CHANGED_SHOTS[0][0])
    examples = (2 * len(FACT_EXAMPLES) if messages and messages[0]["content"] == FACT_SYSTEM
                else 2 * len(CHANGED_SHOTS) if changed else 0)
    return messages[:2 + examples]


def label_key(user: str, schema: dict[str, Any] | None = None) -> str:
    """The key a verdict's label goes under ("verdict", or the hallucination scorer's
    "supported"): the schema's own where the request carries it, else the one the requested JSON
    format gives the labels to (`"<key>": "yes" | ...`)."""
    if schema:
        for properties in [schema.get("properties", {}),
                           *(d.get("properties", {}) for d in schema.get("$defs", {}).values())]:
            keys = [k for k in properties if k not in ("statement", "reason", "verdicts", *_NARROW_FIELDS)]
            if keys:
                return keys[0]
    found = [k for k in re.findall(r'"(\w+)": "yes" \|', user) if k not in _NARROW_FIELDS]
    return found[-1] if found else "verdict"


def _label_questions() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The yes/no questions, as patterns made from the package's own templates as they are now (a
    wording edit there moves both sides): which question a request asks, and what it is about."""
    from pytest_llmfaith.scorers import labels, questions

    def pattern(template: str) -> re.Pattern[str]:
        parts = re.split(r"\{(\w+)\}", template)  # literal, name, literal, name, ...
        return re.compile("".join(re.escape(p) if i % 2 == 0 else f"(?P={p})" if p in parts[1:i:2] else f"(?P<{p}>.*?)"
                                  for i, p in enumerate(parts)), re.DOTALL)

    return (("supported", pattern(labels.SUPPORT)), ("contradicted", pattern(labels.CONTRADICT)),
            ("evidence", pattern(labels.EVIDENCE)),  # after SUPPORT, whose text it would match too
            ("fact", pattern(questions.FACT)), ("more", pattern(questions.MORE)),
            ("changed", pattern(questions.CHANGED)), ("specifics", pattern(questions.SPECIFICS)),
            ("amount", pattern(questions.AMOUNT)), ("role", pattern(questions.ROLE)),
            ("role", pattern(questions.INSTEAD)),
            ("numbers", pattern(questions.NUMBERS)))


def label_question(messages: list[dict[str, str]]) -> tuple[str, str]:
    """(the question: "supported", "contradicted", "fact", "more" or "named", what it is about: the
    words, the sentence or the tokens) of a yes/no request, in label or JSON form."""
    text = messages[-1]["content"] if messages else ""
    text = re.sub(r' Answer with JSON only: \{.*\}$', "", text)
    for question, pattern in _label_questions():
        match = pattern.fullmatch(text)
        if match:
            names = pattern.groupindex
            about = ("claim" if "claim" in names else "sentence" if question == "numbers"
                     else "tokens" if "tokens" in names else "said" if question == "amount" else "sentence")
            return question, match[about]
    return "", ""


class ScriptedJudge:
    """The script, the queued faults and the requests seen, and the answers they make; the HTTP
    server below and the in-process fake transport (fake_transport.py) both answer with it."""

    def __init__(self) -> None:
        self.script = Script()
        self.faults: list[Fault] = []
        self.requests: list[dict[str, Any]] = []
        self.wrong_at: int | None = None  # the one answer, counted from 1 in the order given, to get wrong
        self.given: list[str] = []  # the answers given so far: a claim listed, a verdict, a narrow field, a label
        self._lock = threading.Lock()

    # -- scripting ------------------------------------------------------------------------
    def reset(self) -> None:
        with self._lock:
            self.script, self.faults, self.requests = Script(), [], []
            self.wrong_at, self.given = None, []

    def wrong_answers_that_pass(self, passes: Callable[[], bool]) -> list[str]:
        """Promise 2, swept: `passes()` (does the judged answer pass?) once with every answer as
        scripted, then once per answer given with that one wrong. What each wrong answer that
        passed was: the answers given, in order, it marked."""
        self.wrong_at, self.given = None, []
        assert not passes(), "the script's correct answers passed an unfaithful answer"
        passed = []
        for k in range(1, len(self.given) + 1):
            self.wrong_at, self.given = k, []
            if passes():
                passed.append(" | ".join(f"WRONG {a}" if i == k else a for i, a in enumerate(self.given, 1)))
        self.wrong_at = None
        return passed

    def truthful(self, answer: str) -> bool:
        """Notes one answer given; False for the one the script gets wrong (`wrong_at`): a claim
        left out of the list, a label or narrow "yes" turned round, a P(yes) read as 1 - P."""
        with self._lock:
            self.given.append(answer)
            return len(self.given) != self.wrong_at

    def facts(self, supported: list[str] = (), contradicted: list[str] = (),  # type: ignore[assignment]
              claims: dict[str, list[Any]] | None = None, labels: dict[str, str] | None = None,
              votes: dict[str, list[str]] | None = None, p_supported: dict[str, float] | None = None,
              changing: dict[str, list[str]] | None = None, not_facts: list[str] = (),  # type: ignore[assignment]
              unnamed: list[str] = (), says_more: list[str] = (),  # type: ignore[assignment]
              p_fact: dict[str, float] | None = None, changes: list[str] = (),  # type: ignore[assignment]
              labels_only: list[str] = (), p_contradicted: dict[str, float] | None = None,  # type: ignore[assignment]
              p_evidence: dict[str, float] | None = None) -> None:
        self.script.not_facts |= set(not_facts)
        self.script.labels_only |= set(labels_only)
        self.script.says_more |= set(says_more)
        self.script.changes |= set(changes)
        self.script.unnamed |= set(unnamed)
        self.script.supported |= set(supported)
        self.script.contradicted |= set(contradicted)
        self.script.claims.update(claims or {})
        self.script.labels.update(labels or {})
        self.script.votes.update(votes or {})
        self.script.p_supported.update(p_supported or {})
        self.script.p_contradicted.update(p_contradicted or {})
        self.script.p_evidence.update(p_evidence or {})
        self.script.p_fact.update(p_fact or {})
        self.script.changing.update(changing or {})

    def fail(self, kind: str, step: str | None = None, times: int = 1, seconds: float = 0.0,
             message: str = "", text: str = "") -> None:
        assert kind in FAULTS, kind
        self.faults.append(Fault(kind, step, times, seconds, message, text))

    def calls(self, step: str | None = None) -> list[dict[str, Any]]:
        return [r for r in self.requests if step is None or r["step"] == step]

    # -- answering ------------------------------------------------------------------------
    def take_fault(self, step: str) -> Fault | None:
        with self._lock:
            for fault in self.faults:
                if fault.step in (None, step) and fault.times > 0:
                    fault.times -= 1
                    return fault
        return None

    def answer(self, step: str, messages: list[dict[str, str]], sample: int = 0,
               schema: dict[str, Any] | None = None) -> dict[str, Any] | str:
        """The scripted answer to a claims, verdicts or reason request; the claims and the output
        are read from the data tags, the label's key from the schema or the requested format."""
        user = _user(messages)
        if step == "claims":
            output = _between(user, "output") or ""
            return {"claims": [c for c in self.script.claims.get(output, _sentences(output))
                               if self.truthful(f"claim {c!r}")]}
        if step == "reason":
            return self.script.reason_text
        if step in ("facts", "names"):
            question, about = label_question(_asked(messages))
            return {"answer": "yes" if self.says_yes(question, about) == self.truthful(f"{question} {about!r}")
                    else "no"}
        key = label_key(user, schema)
        one = _between(user, "claim")
        items = [_claim_item(one)] if one is not None else json.loads(_between(user, "claims") or "[]")
        claims = [item["words"] if isinstance(item, dict) else item for item in items]
        verdicts = [{"statement": c, "reason": f"scripted: {self.scripted(c)}",
                     key: self.told(c, self.label(c, sample)), **self.narrow(item)} for c, item in zip(claims, items)]
        return verdicts[0] if one is not None else {"verdicts": verdicts}

    def told(self, claim: str, label: str) -> str:
        """A verdict as given: the scripted one, or the other side of it where it is the wrong answer."""
        return label if self.truthful(f"verdict {claim!r}") else "no" if label == "yes" else "yes"

    def scripted(self, words: str) -> str:
        """The script's key for the output's words a verdict is about: scripts write claims as
        sentences, with their full stop; the words come without it."""
        keys = (self.script.supported | self.script.contradicted | set(self.script.labels) | set(self.script.votes)
                | set(self.script.p_supported) | set(self.script.changing) | self.script.not_facts
                | set(self.script.p_fact) | self.script.changes)
        if words in keys:
            return words
        return next((k for k in keys if k.rstrip(".!?。！？ ") == words.rstrip(".!?。！？ ")), words)

    def states_fact(self, sentence: str) -> bool:
        """Yes, unless scripted as no, or a sentence of an output scripted to make no claims (a
        consistent judge)."""
        silent = (out for out, claims in self.script.claims.items() if not claims)
        return sentence not in self.script.not_facts and not any(sentence in _sentences(out) for out in silent)

    def named(self, tokens: str) -> bool:
        return not any(f"“{t}”" in tokens for t in self.script.unnamed)

    def says_yes(self, question: str, about: str) -> bool:
        """The scripted answer to a narrow question about a sentence, a claim's words or tokens."""
        if question == "fact":
            return self.states_fact(about)
        if question == "more":
            return about in self.script.says_more
        if question == "changed":
            return self.scripted(about) in self.script.changes
        if question == "amount":
            return not any(token in about for token in self.script.unnamed)
        if question == "numbers":
            return about not in self.script.labels_only
        return self.named(about)

    def narrow(self, item: Any) -> dict[str, str]:
        """The narrow questions' fields of a verdict: the same script as their label forms."""
        from pytest_llmfaith.scorers.questions import ASKED_BY

        if not isinstance(item, dict):
            return {"states_fact": "yes", "changed": "no", "specifics": "yes", "states_numbers": "yes",
                    "same_role": "yes"}
        sentence = item.get("sentence", item.get("words", ""))
        checked = item.get("already_checked")
        fact = True if checked is None else self.says_yes("more", sentence) if checked else self.states_fact(sentence)
        tokens = ", ".join(f"“{t}”" for t in item.get("not_in_context", []))
        said = {"states_fact": fact,
                "changed": checked is None and self.says_yes("changed", item.get("words", "")),
                "specifics": self.named(tokens),
                "states_numbers": item.get("words", "") not in self.script.labels_only,
                "same_role": self.named(", ".join(f"“{t}”" for t in item.get("other_role", [])))}
        # only a field its item asks is an answer given (and may be the wrong one)
        return {name: "yes" if yes == (ASKED_BY[name] not in item or self.truthful(f"{name} {sentence!r}")) else "no"
                for name, yes in said.items()}

    def content(self, answer: dict[str, Any] | str, fault: Fault | None, authorization: str = "") -> str:
        """The answer as the judge writes it, spoilt as the fault asks: broken JSON, the wrong
        shape, plausible lies. `authorization` is the header an echo_key fault quotes."""
        kind = fault.kind if fault else None
        text = fault.text if fault else ""
        content = answer if isinstance(answer, str) else json.dumps(answer)
        data: dict[str, Any] = answer if isinstance(answer, dict) else {}
        claims, verdicts = data.get("claims"), data.get("verdicts")
        if kind == "malformed":
            content = '{"claims": ["unterminated'
        elif kind == "nested":  # valid JSON, deeper than Python reads
            content = '{"claims": ' + "[" * 100_000 + "]" * 100_000 + "}"
        elif kind == "wrong_schema":
            content = json.dumps({"items": ["not", "what", "was", "asked"]})
        elif kind == "wrong_count" and verdicts is not None:
            content = json.dumps({"verdicts": verdicts[:-1] or verdicts * 2})
        elif kind == "no_claims" and claims is not None:
            content = json.dumps({"claims": []})
        elif kind == "extra_claim" and claims is not None:
            content = json.dumps({"claims": [*claims, text]})
        elif kind == "restate" and verdicts is not None:
            label = next(k for k in verdicts[0] if k not in ("statement", "reason", *_NARROW_FIELDS))
            content = json.dumps({"verdicts": [{**verdicts[0], "statement": text, label: self.label(text)},
                                               *verdicts[1:]]})
        elif kind == "repeat_first" and verdicts is not None:
            content = json.dumps({"verdicts": verdicts[:1] * len(verdicts)})
        elif kind == "echo_key" and verdicts is not None:
            content = json.dumps({"verdicts": [{**v, "reason": f"{v['reason']} (asked with {authorization})"}
                                               for v in verdicts]})
        elif kind == "empty_content":
            content = ""
        elif kind == "fenced":
            content = f"Sure! Here is the JSON:\n```json\n{content}\n```\nHope that helps."
        elif kind == "length":
            content = content[: len(content) // 2]
        return content

    def next_token(self, messages: list[dict[str, str]]) -> dict[str, float]:
        """A label request (logprobs, one token): P(yes) from the script, as top logprobs."""
        question, claim = label_question(messages)
        claim = self.scripted(claim)
        if question in ("fact", "specifics", "changed", "role") and claim in self.script.p_fact:
            p_yes = self.script.p_fact[claim]
        elif question in _QUESTION_STEPS:
            p_yes = 0.95 if self.says_yes(question, claim) else 0.05
        elif question == "evidence" and claim in self.script.p_evidence:
            p_yes = self.script.p_evidence[claim]
        elif question in ("supported", "evidence") and claim in self.script.p_supported:
            p_yes = self.script.p_supported[claim]
        elif question in ("supported", "evidence"):
            p_yes = 0.95 if claim in self.script.supported else 0.05 if claim in self.script.contradicted else 0.1
        else:
            p_yes = self.script.p_contradicted.get(claim, 0.95 if claim in self.script.contradicted else 0.1)
        p_yes = p_yes if self.truthful(f"P({question}) {claim!r}") else 1 - p_yes
        return {"Yes": math.log(p_yes * 0.9), "yes": math.log(p_yes * 0.1), "No": math.log(1 - p_yes)}

    def label(self, claim: str, sample: int = 0) -> str:
        claim = self.scripted(claim)
        if claim in self.script.changing:
            with self._lock:
                turn = self.script.asked[claim] = self.script.asked.get(claim, 0) + 1
            return self.script.changing[claim][(turn - 1) % len(self.script.changing[claim])]
        if claim in self.script.votes:
            return self.script.votes[claim][sample]
        if claim in self.script.labels:
            return self.script.labels[claim]
        if claim in self.script.supported:
            return "yes"
        return "no" if claim in self.script.contradicted else "unsure"


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: object, client_address: object) -> None:
        """A client that gave up (the timeout tests' litellm) is no error of the judge's: no traceback."""
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


class JudgeServer(ScriptedJudge):
    """Start with `with JudgeServer() as judge:`; `judge.url` is the api base."""

    def __init__(self, port: int = 0) -> None:
        super().__init__()
        server = self
        handler = type("Handler", (_Handler,), {"judge": server})
        self.httpd = _QuietServer(("127.0.0.1", port), handler)
        self.httpd.daemon_threads = True
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> JudgeServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class _Handler(BaseHTTPRequestHandler):
    judge: JudgeServer
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # else delayed ACKs add ~50 ms to every answer on loopback

    def log_message(self, *args: Any) -> None:  # keep test output clean
        pass

    def do_GET(self) -> None:
        self._send(200, {"object": "list", "data": [{"id": "test-judge", "object": "model"}]})

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        messages = body.get("messages", [])
        step = step_of(body)
        headers = {k.lower(): v for k, v in self.headers.items()}
        self.judge.requests.append({"step": step, "body": body, "headers": headers, "t": time.monotonic()})
        fault = self.judge.take_fault(step)
        if self.judge.script.latency:
            time.sleep(self.judge.script.latency)
        kind = fault.kind if fault else None
        if kind == "delay":
            time.sleep(fault.seconds)  # type: ignore[union-attr]
        if kind == "drop":
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if kind == "429":
            return self._send(429, {"error": {"message": "rate limited", "type": "rate_limit_error"}},
                              {"Retry-After": str(fault.seconds or 0),  # type: ignore[union-attr]
                               "retry-after-ms": str(int(fault.seconds * 1000))})  # type: ignore[union-attr]
        if kind in ("500", "error_200"):
            error = {"message": fault.message or "internal error", "type": "server_error"}  # type: ignore[union-attr]
            return self._send(500 if kind == "500" else 200, {"error": error})
        if kind == "401":  # like servers that echo the rejected key
            key = self.headers.get("Authorization", "").removeprefix("Bearer ")
            return self._send(401, {"error": {"message": f"Incorrect API key provided: {key}",
                                              "type": "invalid_request_error"}})
        if kind == "empty_body":
            return self._send_raw(200, b"")
        if body.get("logprobs"):
            return self._send_next_token(body, kind)
        schema = ((body.get("response_format") or {}).get("json_schema") or {}).get("schema")
        answer = self.judge.answer(step, messages, sample=body.get("seed") or 0, schema=schema)
        content = self.judge.content(answer, fault, self.headers.get("Authorization", ""))
        prompt_chars = self.judge.script.prompt_tokens * 4 or sum(len(m.get("content") or "") for m in messages)
        choice = {"index": 0, "finish_reason": "length" if kind == "length" else "stop",
                  "message": {"role": "assistant", "content": content}}
        self._send(200, {
            "id": "chatcmpl-test", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model", "test-judge"),
            "choices": [] if kind == "no_choices" else [choice],
            "usage": {"prompt_tokens": prompt_chars // 4, "completion_tokens": len(content) // 4,
                      "total_tokens": prompt_chars // 4 + len(content) // 4},
        })

    def _send_next_token(self, body: dict[str, Any], kind: str | None) -> None:
        top = sorted(self.judge.next_token(body["messages"]).items(), key=lambda kv: -kv[1])
        entries = [{"token": t, "logprob": lp, "bytes": None} for t, lp in top]
        logprobs = None if kind == "no_logprobs" else {"content": [{**entries[0], "top_logprobs": entries}]}
        self._send(200, {
            "id": "chatcmpl-test", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model", "test-judge"),
            "choices": [{"index": 0, "finish_reason": "length", "logprobs": logprobs,
                         "message": {"role": "assistant", "content": entries[0]["token"]}}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 1, "total_tokens": 101},
        })

    def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        self._send_raw(status, json.dumps(payload).encode(), headers)

    def _send_raw(self, status: int, data: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds added to every answer")
    args = parser.parse_args()
    with JudgeServer(args.port) as judge:
        judge.script.latency = args.latency
        print(judge.url, flush=True)
        threading.Event().wait()


if __name__ == "__main__":
    main()
