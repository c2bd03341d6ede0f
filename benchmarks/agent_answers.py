"""A travel-booking support agent's answers, judged as a new user would: 15 faithful and 15
unfaithful final answers to one run of three tools (flight search, a booking with a signed
manage-URL, the refund policy, and a lookup that fails), each judged by assert_faithful and
assert_not_hallucinated in a real pytest run. It prints each answer's two scores, which answers a
threshold pair passes, and the judge calls and seconds per assertion: the figures behind the
agent thresholds in docs/testing-agents.md.

The run is written as OpenAI chat messages: every SDK's run gives the same passages (tests/agents
show it for Google GenAI, LangGraph and the Agents SDK), hence the same judge requests and scores.

    .venv/bin/python benchmarks/agent_answers.py [--model local] [--cache-dir DIR] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
JWT = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJib29raW5nIjoiUVg3SzJQIiwiZXhwIjoxNzgxMjM0NTY3fQ."
       "c2lnbmF0dXJlLW5vdC1hLXNlY3JldC1mb3ItdGVzdHM")
CALLS = [
    ("search_flights", {"origin": "OSL", "destination": "BCN", "date": "2026-06-12"},
     {"flights": [{"flight": "SK4705", "departs": "07:10", "arrives": "11:05", "price_eur": 189, "stops": 0},
                  {"flight": "DY1872", "departs": "13:45", "arrives": "19:20", "price_eur": 142, "stops": 1,
                   "via": "CPH"}]}),
    ("get_booking", {"ref": "QX7K2P"},
     {"booking": "QX7K2P", "passenger": "Ingrid Dahl", "flight": "SK4705", "date": "2026-06-12", "seat": "14C",
      "checked_bags": 1, "fare": "Light", "status": "confirmed",
      "manage_url": f"https://book.example.com/manage?token={JWT}"}),
    ("refund_policy", {"fare": "Light"},
     "Light fares are non-refundable. Airport taxes (31 EUR on this route) are refunded on request. "
     "Changes cost 60 EUR plus any fare difference."),
    ("get_booking", {"ref": "ZZ9999"}, "Error: booking ZZ9999 not found"),
]
FAITHFUL = [
    "SK4705 leaves Oslo at 07:10 and arrives at 11:05; it costs 189 EUR and has no stops.",
    "The cheapest flight is DY1872 at 142 EUR, with one stop in CPH.",
    "Your booking QX7K2P is confirmed for 12 June 2026 on SK4705, seat 14C.",
    "You have one checked bag on booking QX7K2P.",
    "Light fares are non-refundable, but you can ask for the airport taxes of 31 EUR back.",
    "Changing your flight costs 60 EUR plus any fare difference.",
    "DY1872 departs at 13:45 and lands at 19:20.",
    "I could not find a booking ZZ9999.",
    "Hi Ingrid! Your seat on SK4705 is 14C. Have a nice trip!",
    "Both flights are on 2026-06-12: SK4705 for 189 EUR and DY1872 for 142 EUR.",
    "SK4705 is a direct flight, while DY1872 stops in CPH.",
    "The booking QX7K2P is in the name of Ingrid Dahl.",
    "Airport taxes on this route are 31 EUR, and they are refunded on request.",
    "Your booking is on a Light fare, which is non-refundable.",
    "The 13:45 flight, DY1872, costs 142 EUR.",
]
UNFAITHFUL = [
    "SK4705 leaves at 07:10 and costs 149 EUR.",
    "The cheapest flight is SK4705 at 189 EUR.",
    "Your booking QX7K2P is confirmed for 14 June 2026 on SK4705.",
    "You have two checked bags on booking QX7K2P.",
    "Light fares are fully refundable.",
    "Changing your flight is free of charge.",
    "DY1872 is a direct flight.",
    "Your seat on SK4705 is 12C.",
    "Airport taxes of 70 EUR are refunded on request.",
    "DY1872 departs at 15:45 and lands at 19:20.",
    "The booking QX7K2P is in the name of Ingrid Berg.",
    "SK4705 arrives at 11:05 and includes a free meal.",
    "Your booking QX7K2P has been cancelled.",
    "Changes cost 40 EUR plus any fare difference.",
    "DY1872 stops in Stockholm on the way.",
]
PAIRS = [(0.5, 0.5), (0.6, 0.4), (0.7, 0.3), (0.8, 0.2), (1.0, 0.0)]


def run_of(answer: str) -> list[dict[str, object]]:
    """The agent's run as OpenAI chat messages, ending with `answer`."""
    messages: list[dict[str, object]] = [{"role": "user", "content": "Can you help with my trip to Barcelona?"}]
    for i, (name, args, result) in enumerate(CALLS):
        call = f"call_{i}"
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": call, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]})
        messages.append({"role": "tool", "tool_call_id": call,
                         "content": result if isinstance(result, str) else json.dumps(result)})
    messages.append({"role": "assistant", "content": answer})
    return messages


SUITE = '''
import json
import pytest
from pytest_llmfaith import llm_judge  # noqa: F401  (the fixture)

CASES = json.loads({cases!r})

@pytest.mark.parametrize("i", range(len(CASES)))
def test_answer(i, llm_judge):
    run = CASES[i]
    llm_judge.faithfulness(run)
    llm_judge.hallucination(run)
'''


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="local")
    parser.add_argument("--api-base", help="an OpenAI-compatible judge server (e.g. tests/judge_server.py)")
    parser.add_argument("--cache-dir", type=Path, help="a judge cache to reuse (default: a fresh one, cold)")
    parser.add_argument("--json", type=Path, help="write each answer's scores here")
    args = parser.parse_args()
    answers = [(True, a) for a in FAITHFUL] + [(False, a) for a in UNFAITHFUL]
    with tempfile.TemporaryDirectory() as folder:
        suite = Path(folder) / "test_agent_answers.py"
        suite.write_text(SUITE.replace("from pytest_llmfaith import llm_judge  # noqa: F401  (the fixture)\n", "")
                         .format(cases=json.dumps([run_of(a) for _, a in answers])))
        report = Path(folder) / "report.json"
        cache = args.cache_dir or Path(folder) / "cache"
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pytest", str(suite), "-q", "-p", "no:cacheprovider",
                        f"--llm-judge-model={args.model}", f"--llm-cache-dir={cache}", "--llm-cache=use",
                        f"--llm-report={report}", "-o", "llm_baseline=",
                        *([f"--llm-judge-api-base={args.api_base}"] if args.api_base else [])], cwd=folder)
        seconds = time.perf_counter() - started
        results = json.loads(report.read_text())["results"]
    scores: dict[int, dict[str, float]] = {}
    calls = 0
    for entry in results:
        i = int(re.search(r"\[(\d+)\]", entry["test_id"])[1])  # type: ignore[index]
        scores.setdefault(i, {})[entry["result"]["scorer"]] = entry["result"]["score"]
        calls += sum(not c["cached"] for c in entry["result"]["judge_calls"])
    print("answer | faithful? | faithfulness | hallucination")
    for i, (faithful, answer) in enumerate(answers):
        print(f"{i:2} | {'yes' if faithful else 'no ':3} | {scores[i]['faithfulness']:.2f} | "
              f"{scores[i]['hallucination']:.2f} | {answer}")
    print("\nthresholds (min faithfulness, max hallucination) | faithful answers passing | unfaithful failing")
    for low, high in PAIRS:
        ok = [scores[i]["faithfulness"] >= low and scores[i]["hallucination"] <= high for i in range(len(answers))]
        good = sum(ok[i] for i, (f, _) in enumerate(answers) if f)
        caught = sum(not ok[i] for i, (f, _) in enumerate(answers) if not f)
        print(f"{low:.1f} / {high:.1f} | {good}/{len(FAITHFUL)} | {caught}/{len(UNFAITHFUL)}")
    n = 2 * len(answers)
    print(f"\n{n} assertions: {calls} judge calls, {calls / n:.1f} an assertion; {seconds:.0f} s, "
          f"{seconds / n:.1f} s an assertion (cold unless --cache-dir held answers)")
    if args.json:
        args.json.write_text(json.dumps({"scores": scores, "calls": calls, "seconds": seconds}, indent=1))


if __name__ == "__main__":
    sys.exit(main())
