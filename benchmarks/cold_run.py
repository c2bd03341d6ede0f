"""Cold runs (cache off) against a loopback judge with a set latency: what one assertion costs.

A generated suite of N assertions (assert_faithful and assert_not_hallucinated alternating; each
output has C sentences, which the loopback judge returns as its claims, all supported) runs with
--llm-cache=off, for --llm-judge-verdicts=all (one verdict call for all claims) and =one (a call
per claim, sent concurrently). Per assertion it prints:
  - judge calls (requests the server received / N), by step;
  - sequential round-trips, two ways: from the server's clock (seconds during which at least one
    request was in flight / latency; exact) and from the wall time of the judge phase (first
    request to last answer, / latency; adds the client's own time between calls);
  - prompt characters sent (message contents of the recorded requests), and request body bytes
    (messages plus the response schema and options);
and the total wall time of the run (median over repeats; it includes pytest start-up and
litellm's import, 3.5-5 s on an idle core), with the share of it spent before the judge's first
request and outside the judge wait (no request in flight, from the server's clock). The runs
are serial (no xdist); `--relay on` (the default) sends their calls through the judge relay,
`--relay off` calls litellm in the test process; `--before` runs both side by side. With the relay,
each repeat is a cold run (every relay stopped first: the run starts one, which imports litellm)
then a warm one (it finds that relay up), and the wall times of the two are printed apart; the
runs get a private TMPDIR, so only their own relays are stopped.

    .venv/bin/python benchmarks/cold_run.py [--latency 0.2] [--assertions 10] [--claims 3] [--repeats 3]
                                            [--relay on|off] [--before]
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
from collections import Counter
from pathlib import Path

from _common import (
    busy_seconds,
    clean_env,
    clear_requests,
    header,
    judge,
    judge_args,
    judge_shares,
    machine,
    median,
    prompt_chars,
    pytest_run,
    spread,
    stop_relays,
    summary_line,
    write_suite,
)

BASE = ["-q", "-p", "no:cacheprovider"]
TOPICS = ["battery", "screen", "hinge", "speaker", "camera", "charger", "keyboard", "fan"]


def case(i: int, claims: int) -> tuple[str, list[str]]:
    sentences = [f"The {TOPICS[k % len(TOPICS)]} of model M{i} is rated {i * 3 + k} units." for k in range(claims)]
    context = [" ".join(sentences[: max(1, claims // 2)]), " ".join(sentences[max(1, claims // 2):]) or "n/a",
               f"Model M{i} was released in spring."]
    return " ".join(sentences), context


def suite_files(n: int, claims: int) -> dict[str, str]:
    lines = ["from pytest_llmfaith import assert_faithful, assert_not_hallucinated", ""]
    for i in range(n):
        output, context = case(i, claims)
        check = (f"assert_faithful({output!r}, {context!r}, min_score=0.7)" if i % 2 == 0
                 else f"assert_not_hallucinated({output!r}, {context!r}, max_score=0.3)")
        lines += [f"def test_answer_{i}():", f"    {check}", ""]
    return {"test_answers.py": "\n".join(lines)}


def facts(n: int, claims: int) -> list[str]:
    out: list[str] = []
    for i in range(n):
        out += re.split(r"(?<=\.)\s+", case(i, claims)[0])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.2, help="seconds the judge takes per answer")
    parser.add_argument("--assertions", type=int, default=10)
    parser.add_argument("--claims", type=int, default=3, help="sentences (claims) per output")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--relay", choices=("on", "off"), default="on", help="--llm-judge-relay of the runs")
    parser.add_argument("--before", action="store_true", help="run with the relay on and off, side by side")
    args = parser.parse_args()
    relays = ["off", "on"] if args.before else [args.relay]
    n, latency = args.assertions, args.latency
    print(f"cold_run: {machine()}")
    rows = []
    with tempfile.TemporaryDirectory(prefix="llmfaith-bench-") as tmp, judge(latency) as server:
        root = Path(tmp)
        (root / "tmp").mkdir()
        env = clean_env(TMPDIR=str(root / "tmp"))  # the runs' relays, and only theirs, are in there
        suite = root / "suite"
        write_suite(suite, suite_files(n, args.claims))
        server.facts(supported=facts(n, args.claims))
        for mode, relay in [(m, r) for m in ("all", "one") for r in relays]:
            header(f"--llm-judge-verdicts={mode}, --llm-judge-relay={relay}, --llm-cache=off, {n} assertions "
                   f"x {args.claims} claims, judge latency {latency:g} s")
            temperatures = ("cold", "warm") if relay == "on" else ("cold",)
            walls: dict[str, list[float]] = {t: [] for t in temperatures}
            shares: dict[str, list[tuple[float, float]]] = {t: [] for t in temperatures}
            busy: list[float] = []
            spans: list[float] = []
            requests: list[dict] = []
            footer = ""
            for _ in range(args.repeats):
                stop_relays(env)
                for temperature in temperatures:
                    clear_requests(server)
                    started = time.monotonic()
                    wall, proc = pytest_run(suite, [*BASE, *judge_args(server.url, "off"),
                                                    f"--llm-judge-verdicts={mode}", f"--llm-judge-relay={relay}"],
                                            env=env)
                    if f"{n} passed" not in proc.stdout:
                        raise SystemExit(f"unexpected outcome: {summary_line(proc)}")
                    walls[temperature].append(wall)
                    shares[temperature].append(judge_shares(server, latency, started, wall))
                    busy.append(busy_seconds(server, latency))
                    times = [r["t"] for r in server.requests]
                    spans.append(max(times) + latency - min(times))
                    requests = list(server.requests)
                    footer = next((line for line in proc.stdout.splitlines() if line.startswith("llmfaith:")), "")
            steps = Counter(r["step"] for r in requests)
            chars = sum(prompt_chars(r) for r in requests)
            chars_by_step: Counter[str] = Counter()
            for r in requests:
                chars_by_step[r["step"]] += prompt_chars(r)
            body = sum(len(json.dumps(r["body"])) for r in requests)
            rt_server = median(busy) / latency / n if latency else float("nan")
            rt_wall = median(spans) / latency / n if latency else float("nan")
            for temperature in temperatures:
                before_first, not_waiting = (median([share[k] for share in shares[temperature]]) for k in (0, 1))
                wall = median(walls[temperature])
                print(f"wall time ({temperature} run) : {spread(walls[temperature])}; {before_first:.0%} before the "
                      f"first judge request, {not_waiting:.0%} ({not_waiting * wall:.2f} s) outside the judge wait")
                rows.append((f"{mode}/{relay}/{temperature}", len(requests) / n, rt_server, rt_wall, chars / n,
                             body / n, wall, median(spans), before_first, not_waiting))
            print(f"judge phase wall time : {spread(spans)} (first request to last answer)")
            print(f"plugin footer         : {footer}")
            print(f"judge calls / assertion           : {len(requests) / n:.2f} "
                  f"({', '.join(f'{k} {v / n:.2f}' for k, v in sorted(steps.items()))})")
            print(f"sequential round-trips / assertion: {rt_server:.2f} (judge busy time / latency); "
                  f"{rt_wall:.2f} (judge phase wall time / latency, includes the client's own time)")
            print(f"prompt characters / assertion     : {chars / n:,.0f} "
                  f"({', '.join(f'{k} {v / n:,.0f}' for k, v in sorted(chars_by_step.items()))}); "
                  f"request bodies {body / n:,.0f} bytes")
        stop_relays(env)
    header(f"summary per assertion (latency {latency:g} s, {n} assertions, {args.claims} claims each)")
    print(f"{'verdicts/relay':<19} {'calls':>6} {'round-trips':>12} {'(by wall)':>10} {'prompt chars':>13} "
          f"{'body bytes':>11} {'run wall s':>11} {'judge phase s':>14} {'before 1st':>11} {'outside wait':>13}")
    for mode, calls, rt, rtw, chars, body, wall, span, before_first, not_waiting in rows:
        print(f"{mode:<19} {calls:>6.2f} {rt:>12.2f} {rtw:>10.2f} {chars:>13,.0f} {body:>11,.0f} "
              f"{wall:>11.2f} {span:>14.2f} {before_first:>11.0%} {not_waiting:>13.0%}")
    print("(run wall time includes pytest start-up and litellm's import, in the test process or the relay)")


if __name__ == "__main__":
    main()
