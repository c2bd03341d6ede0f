"""What reading an agent's run costs an assertion, beside a plain string output.

An assertion given a run first reads it (pytest_llmfaith.agent_runs.judged: SDK objects to plain
data, the steps, the tool results as passages); given a string it only checks the arguments.
This times `judged(...)` per call (perf_counter_ns, median and p95 in microseconds) for
  - a plain string with its context (today's path),
  - one small run (a question, one tool call with a JSON result, the answer) in each format,
    as dicts and as the SDK's own objects where the SDK is installed (the dev extra),
  - a long run: 50 tool calls with JSON results of ~2 KB each (200 messages), dicts and SDK objects,
and, for scale, one fully cached score of the same answer (Faithfulness.run, every judge step a
cache hit, against the loopback judge): what a cached re-run pays per assertion anyway.

    .venv/bin/python benchmarks/agent_runs.py [--iterations 2000]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "agents"))
from _common import header, judge, machine  # noqa: E402

from pytest_llmfaith.agent_runs import judged  # noqa: E402


def per_call_us(fn: Callable[[], Any], iterations: int, warmup: int = 20) -> list[float]:
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(iterations):
        start = time.perf_counter_ns()
        fn()
        samples.append((time.perf_counter_ns() - start) / 1000)
    return samples


def line(name: str, samples: list[float], base: float | None = None) -> None:
    median = statistics.median(samples)
    p95 = sorted(samples)[int(len(samples) * 0.95)]
    extra = f"  (+{median - base:8.1f} us beside a string)" if base is not None else ""
    print(f"  {name:<52} median {median:9.1f} us   p95 {p95:9.1f} us{extra}")


def long_chat(sdk: bool) -> list[Any]:
    """200 messages: 50 rounds of a question, a call, a ~2 KB JSON result and an answer."""
    rows = [{"id": i, "title": f"Ticket {i}", "status": "open", "body": "Backup failed overnight. " * 3}
            for i in range(12)]
    messages: list[Any] = []
    for n in range(50):
        call = {"role": "assistant", "content": None, "tool_calls": [{"id": f"call_{n}", "type": "function",
                "function": {"name": "tickets", "arguments": json.dumps({"page": n})}}]}
        answer = {"role": "assistant", "content": f"Page {n} has 12 open tickets."}
        if sdk:
            from openai.types.chat import ChatCompletionMessage

            call, answer = ChatCompletionMessage.model_validate(call), ChatCompletionMessage.model_validate(answer)
        messages += [{"role": "user", "content": f"Open tickets on page {n}?"}, call,
                     {"role": "tool", "tool_call_id": f"call_{n}", "content": json.dumps(rows)}, answer]
    return messages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=2000)
    args = parser.parse_args()
    import runs  # tests/agents/runs.py: the same run in every format

    header("Reading an agent's run, per assertion")
    print(machine())
    n = args.iterations
    string = per_call_us(lambda: judged(runs.ANSWER, [runs.PASSAGE], runs.QUESTION), n)
    line("plain string + context (today's path)", string)
    base = statistics.median(string)
    builders: dict[str, Callable[[], Any]] = {
        "openai chat, dicts": runs.openai_chat,
        "openai chat, SDK objects": lambda: runs.openai_chat(sdk=True),
        "openai responses, dicts": runs.openai_responses,
        "openai responses, SDK items + Response": lambda: runs.openai_responses(sdk=True),
        "anthropic, dicts": runs.anthropic,
        "anthropic, SDK Message + blocks": lambda: runs.anthropic(sdk=True),
        "langchain messages": runs.langchain,
        "pydantic-ai run result": runs.pydantic_ai_result,
        "openai agents RunResult": runs.openai_agents_result,
    }
    for name, build in builders.items():
        try:
            run = build()
        except ImportError as error:  # the SDK is not installed (the dev extra has it)
            print(f"  {name:<52} skipped: {error}")
            continue
        line(name, per_call_us(lambda run=run: judged(run), n), base)
    for sdk in (False, True):
        run = long_chat(sdk)
        line(f"200 messages, 50 JSON results ({'SDK objects' if sdk else 'dicts'})",
             per_call_us(lambda run=run: judged(run), max(n // 20, 50), warmup=5), base)

    print("\nFor scale: one score whose every judge step is a cache hit (Faithfulness.run, loopback judge)")
    try:
        from pytest_llmfaith import Faithfulness, Judge, JudgeCache, JudgeConfig

        with judge() as server, tempfile.TemporaryDirectory() as tmp:
            server.facts(supported=["Zorblat Corp employs 40 people.", "Its office is on Mars."])
            scorer = Faithfulness(Judge(JudgeConfig(model="openai/test-judge", api_base=server.url),
                                        JudgeCache(Path(tmp), "use")))
            scorer.run(runs.ANSWER, [runs.PASSAGE])  # fills the cache
            line("cached score of the answer", per_call_us(lambda: scorer.run(runs.ANSWER, [runs.PASSAGE]), 300))
    except Exception as error:  # the scorers may be mid-change; the figures above stand alone
        print(f"  n/a: {type(error).__name__}: {error}")


if __name__ == "__main__":
    main()
