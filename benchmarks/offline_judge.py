"""Measure the offline judge: load time, seconds per verdict call, peak memory, verdict accuracy.

Runs the labelled set (benchmarks/labelled_set.jsonl) one claim per call against the local
server, with the gold claims of each item, in two modes: faithfulness (yes / no / unsure:
supported / contradicted / not in the context) and hallucination (yes = made up). It reports
per-claim accuracy and, from those verdicts, how many items get exactly the spec's score.
This isolates the verdict step; it does not run claim extraction (that is the scorers' job).

    python benchmarks/offline_judge.py [--model local|local:/path.gguf] [--json out.json]

It uses the shared server like any judge client (two llama.cpp processes on 2 cores would slow
each other down several-fold), takes a lease, and releases it at the end: the server then stops
unless another process still uses it. The load time is read from the server's log, so run
`python -m pytest_llmfaith local stop` first for a fresh load; seconds per call include any
queueing behind other users of the server at the same time, so measure on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from pytest_llmfaith.local.launcher import ensure_server, run_files, shutdown_server
from pytest_llmfaith.local.weights import LocalModel, resolve_local_model

HERE = Path(__file__).resolve().parent
NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))

# Verdict before reason: measured 41/55 right against 39/55 with the reason first (and faster);
# it is also the order llama.cpp's grammar gives a schema whose only required field is verdict.
SCHEMA = {
    "type": "object",
    "properties": {
        "verdict": {"type": "string", "enum": ["yes", "no", "unsure"]},
        "reason": {"type": "string"},
    },
    "required": ["verdict", "reason"],
    "additionalProperties": False,
}
HALLUCINATION_SCHEMA = {
    **SCHEMA,
    "properties": {"verdict": {"type": "string", "enum": ["yes", "no"]}, "reason": {"type": "string"}},
}
SYSTEM = {
    "faithfulness": (
        "You verify one claim against a context. Use only the context, never your own "
        "knowledge, even for well-known facts.\n"
        'verdict "yes": the context explicitly states the claim (a rounded number or a less '
        "precise date that agrees with the context counts as stated).\n"
        'verdict "no": the claim directly contradicts the context.\n'
        'verdict "unsure": the context does not mention it, or the claim is speculative '
        "(may, might, probably, possibly) or a subjective judgement the context does not make.\n"
        "Give the verdict, then a one-sentence reason."
    ),
    "hallucination": (
        "You decide whether one claim is a hallucination with respect to a context. Use only "
        "the context, never your own knowledge, even for well-known facts.\n"
        'verdict "yes" (hallucination): the claim contradicts the context, is not supported '
        "by it, speculates about facts the context does not contain, or makes a subjective "
        "judgement (leading, brilliant, made history) the context does not make.\n"
        'verdict "no" (not a hallucination): the context supports the claim, including a '
        "reasonable numeric approximation, a less precise date, or speculative wording "
        "about a fact that IS in the context.\n"
        "Give the verdict, then a one-sentence reason."
    ),
}


class Call(BaseModel):
    """One verdict call, as measured."""

    item: str
    kind: str
    mode: str
    claim: str
    expected: str
    got: str
    seconds: float
    prompt_tokens: int
    first_of_context: bool


def round2(x: float) -> float:
    return math.floor((x + 1e-9) * 100 + 0.5) / 100


def judge(base: str, mode: str, context: list[str], claim: str) -> tuple[str, float, int]:
    body = {
        "model": "local",
        "temperature": 0,
        "seed": 0,
        "max_tokens": 160,
        "messages": [
            {"role": "system", "content": SYSTEM[mode]},
            {"role": "user", "content": "Context:\n" + ("\n".join(context) or "(empty)")
             + f"\n\nClaim: {claim}"},
        ],
        "response_format": {"type": "json_schema", "json_schema": {
            "name": "verdict", "strict": True,
            "schema": HALLUCINATION_SCHEMA if mode == "hallucination" else SCHEMA}},
    }
    request = urllib.request.Request(base + "/chat/completions", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    started = time.monotonic()
    with NO_PROXY.open(request, timeout=600) as response:
        answer = json.loads(response.read())
    seconds = time.monotonic() - started
    verdict = json.loads(answer["choices"][0]["message"]["content"])["verdict"]
    return verdict, seconds, int(answer["usage"]["prompt_tokens"])


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def run(model: LocalModel, items: list[dict[str, Any]]) -> dict[str, Any]:
    try:
        return _measure(model, items)
    finally:
        shutdown_server(model)


def _measure(model: LocalModel, items: list[dict[str, Any]]) -> dict[str, Any]:
    started = time.monotonic()
    base = ensure_server(model)
    start_seconds = time.monotonic() - started
    files = run_files(model)
    state = files.read()
    assert state is not None
    calls: list[Call] = []
    for mode in ("faithfulness", "hallucination"):
        for item in items:
            for index, gold in enumerate(item["claims"]):
                expected = gold["faithfulness"] if mode == "faithfulness" else (
                    "yes" if gold["hallucination"] else "no")
                got, seconds, tokens = judge(base, mode, item["context"], gold["claim"])
                calls.append(Call(item=item["id"], kind=item["kind"], mode=mode, claim=gold["claim"],
                                  expected=expected, got=got, seconds=seconds,
                                  prompt_tokens=tokens, first_of_context=index == 0))
                print(f"{mode[:5]} {item['id']:<28} {expected:>6} {got:>6} {seconds:6.2f}s "
                      f"{tokens:5d} tok", file=sys.stderr, flush=True)
    return summarise(items, calls, start_seconds, files.log_of(state.pid).read_text(), peak_rss_mb(state.pid))


def summarise(items: list[dict[str, Any]], calls: list[Call], start_seconds: float, log: str,
              peak_mb: float) -> dict[str, Any]:
    def median(selected: list[Call]) -> float | None:
        return round(statistics.median(c.seconds for c in selected), 2) if selected else None

    def latency(low: int, high: int) -> dict[str, float | None]:
        band = [c for c in calls if low <= c.prompt_tokens < high]
        return {"first_claim_s": median([c for c in band if c.first_of_context]),
                "later_claim_s": median([c for c in band if not c.first_of_context]),
                "calls": len(band)}

    load_line = next((line for line in log.splitlines() if line.startswith("loaded ")), "")
    result: dict[str, Any] = {
        "ensure_server_s": round(start_seconds, 2),
        "model_load_s": float(load_line.rsplit(" in ", 1)[-1].rstrip("s")) if load_line else None,
        "peak_rss_mb": round(peak_mb),
        "median_s_per_call": median(calls),
        "latency_by_prompt_tokens": {"<250": latency(0, 250), "250-700": latency(250, 700),
                                     ">=700": latency(700, 10**6)},
    }
    gold_h = {(item["id"], g["claim"]): g["hallucination"] for item in items for g in item["claims"]}
    # A hallucination verdict read off the 3-way faithfulness verdict: "yes" (supported) means
    # not made up, anything else means made up. Measured because small models handle the
    # inverted polarity of "yes = hallucination" badly.
    derived = [c.model_copy(update={"got": "no" if c.got == "yes" else "yes",
                                    "expected": "yes" if gold_h[(c.item, c.claim)] else "no"})
               for c in calls if c.mode == "faithfulness"]
    for name, mine, score_key in (
        ("faithfulness", [c for c in calls if c.mode == "faithfulness"], "faithfulness"),
        ("hallucination", [c for c in calls if c.mode == "hallucination"], "hallucination"),
        ("hallucination_from_faithfulness_verdicts", derived, "hallucination"),
    ):
        result[name] = _accuracy(items, mine, score_key)
    faith = [c for c in calls if c.mode == "faithfulness"]
    binary = sum((c.got == "yes") == (c.expected == "yes") for c in faith)
    result["faithfulness"]["supported_vs_not_accuracy"] = round(binary / len(faith), 3)
    result["misses"] = [f"{c.mode}: {c.item}: {c.claim!r} expected {c.expected}, got {c.got}"
                        for c in calls if c.got != c.expected]
    return result


def _accuracy(items: list[dict[str, Any]], mine: list[Call], score_key: str) -> dict[str, Any]:
    """Per-claim accuracy, per kind, and items whose score (from these verdicts) is exact."""
    exact_items = 0
    for item in items:
        verdicts = [c.got for c in mine if c.item == item["id"]]
        if not verdicts:
            exact_items += 1  # 0 claims: the score is 0 by rule, no judge call
            continue
        exact_items += round2(sum(v == "yes" for v in verdicts) / len(verdicts)) == item[score_key]
    by_kind: dict[str, list[int]] = {}
    for c in mine:
        by_kind.setdefault(c.kind, [0, 0])
        by_kind[c.kind][0] += c.got == c.expected
        by_kind[c.kind][1] += 1
    return {
        "claims": len(mine),
        "verdict_accuracy": round(sum(c.got == c.expected for c in mine) / len(mine), 3),
        "items_with_exact_score": f"{exact_items}/{len(items)}",
        "by_kind": {k: f"{ok}/{n}" for k, (ok, n) in sorted(by_kind.items())},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="local")
    parser.add_argument("--set", type=Path, default=HERE / "labelled_set.jsonl")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    items = [json.loads(line) for line in args.set.read_text().splitlines() if line.strip()]
    result = run(resolve_local_model(args.model), items)
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
