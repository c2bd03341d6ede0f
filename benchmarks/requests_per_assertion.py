"""What one assertion costs a hosted JSON judge: requests, sequential rounds and prompt characters,
for outputs of 1 to 20 claims, beside DeepEval's FaithfulnessMetric on the same outputs.

Ours: `Faithfulness` in this process, cache off, through litellm to the loopback judge of
tests/judge_server.py (over HTTP; it records every request); the judge answers as a correct judge
would (every sentence a supported claim). Each request waits for the one before it, so rounds are
requests. Run it in any checkout (a worktree of an older commit gives the "before" column).

DeepEval: `--deepeval PYTHON` runs this file again under another interpreter that has deepeval
installed (its own venv: `python3 -m venv /tmp/deval && /tmp/deval/bin/pip install deepeval`), with
a model object that records every prompt DeepEval builds and answers with its own schema, a
correct judge's answer (every claim supported). No network either way.

    .venv/bin/python benchmarks/requests_per_assertion.py [--deepeval /tmp/deval/bin/python] [--sizes 1,2,3,5,8,12,20]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

TOPICS = ["battery", "screen", "hinge", "speaker", "camera", "charger", "keyboard", "fan", "port", "case"]
SHORT = (3, 2, 8)  # the three plain outputs: 3, 2 and 8 claims


def case(claims: int) -> tuple[str, list[str]]:
    """An output of `claims` sentences, each one fact, and a context of two passages that give them."""
    sentences = [f"The {TOPICS[k % len(TOPICS)]} of model M{claims} is rated {claims * 3 + k} units."
                 for k in range(claims)]
    half = max(1, claims // 2)
    return " ".join(sentences), [" ".join(sentences[:half]), " ".join(sentences[half:]) or "No more ratings."]


MIXED = [  # answers as users write them: greetings, a name the context never writes, a sentence of two facts
    ("Hello! The battery of model M3 is rated 9 units, and its screen is rated 10 units. Can I help with anything "
     "else?", ["The battery of model M3 is rated 9 units. The screen of model M3 is rated 10 units."],
     ["Hello!", "Can I help with anything else?"]),
    ("Our Oslo store sells model M3. The hinge of model M3 is rated 11 units.",
     ["The hinge of model M3 is rated 11 units. Model M3 is sold online only."], []),
    ("Thanks for asking! Model M3 ships from Bergen in 2 days, and its charger is rated 14 units.",
     ["Model M3 ships in 2 days. The charger of model M3 is rated 14 units."], ["Thanks for asking!"]),
]


def mixed() -> list[list[str]]:
    """The prompt texts of one faithfulness assertion per MIXED answer, judged by a correct judge."""
    sys.path.insert(0, str(Path(__file__).parent))
    from _common import judge

    from pytest_llmfaith import Faithfulness, Judge
    from pytest_llmfaith.judge.backend import JudgeConfig
    from pytest_llmfaith.judge.cache import JudgeCache

    found = []
    with judge() as server, tempfile.TemporaryDirectory() as folder:
        for output, context, greetings in MIXED:
            server.reset()
            server.facts(supported=[s for s in context[0].split(". ")], not_facts=greetings)
            config = JudgeConfig(model="openai/test-judge", api_base=server.url)
            Faithfulness(Judge(config, JudgeCache(Path(folder), "off"))).run(output, context)
            found.append([m.get("content") or "" for r in server.requests for m in r["body"]["messages"]])
    return found


def ours(sizes: list[int]) -> dict[int, list[str]]:
    """The prompt texts of one faithfulness assertion per size, one a message."""
    sys.path.insert(0, str(Path(__file__).parent))
    from _common import judge

    from pytest_llmfaith import Faithfulness, Judge
    from pytest_llmfaith.judge.backend import JudgeConfig
    from pytest_llmfaith.judge.cache import JudgeCache

    found = {}
    with judge() as server, tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            output, context = case(size)
            server.reset()
            server.facts(supported=output.split(". "))
            config = JudgeConfig(model="openai/test-judge", api_base=server.url)
            Faithfulness(Judge(config, JudgeCache(Path(folder), "off"))).run(output, context)
            found[size] = [m.get("content") or "" for r in server.requests for m in r["body"]["messages"]]
    return found


def deepeval(sizes: list[int]) -> dict[int, list[str]]:
    """DeepEval's FaithfulnessMetric on the same outputs, its prompts recorded (run under its venv)."""
    from deepeval.metrics import FaithfulnessMetric
    from deepeval.models import DeepEvalBaseLLM
    from deepeval.test_case import LLMTestCase

    class Recorder(DeepEvalBaseLLM):  # type: ignore[misc]
        def __init__(self) -> None:
            self.prompts: list[str] = []
            self.units: list[str] = []

        def load_model(self) -> None:
            return None

        def get_model_name(self) -> str:
            return "recorder"

        def generate(self, prompt: str, schema=None):  # type: ignore[no-untyped-def]
            self.prompts.append(prompt)
            fields = schema.model_fields
            if "truths" in fields:
                return schema(truths=list(self.units))
            if "claims" in fields:
                return schema(claims=list(self.units))
            if "verdicts" in fields:
                verdict = fields["verdicts"].annotation.__args__[0]
                return schema(verdicts=[verdict(verdict="yes", reason=None) for _ in self.units])
            return schema(reason="Every claim is supported.")

        async def a_generate(self, prompt: str, schema=None):  # type: ignore[no-untyped-def]
            return self.generate(prompt, schema)

    found = {}
    for size in sizes:
        output, context = case(size)
        model = Recorder()
        model.units = output.split(". ")
        metric = FaithfulnessMetric(model=model, async_mode=False, include_reason=True)
        metric.measure(LLMTestCase(input="What are the ratings?", actual_output=output, retrieval_context=context))
        found[size] = model.prompts
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,2,3,5,8,12,20")
    parser.add_argument("--deepeval", help="a Python that has deepeval installed")
    parser.add_argument("--only-deepeval", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sizes = sorted({int(s) for s in args.sizes.split(",")} | set(SHORT))
    if args.only_deepeval:
        print(json.dumps(deepeval(sizes), ensure_ascii=False))
        return
    mine = {size: _figures(texts, requests) for size, (texts, requests) in _with_requests(ours(sizes)).items()}
    theirs: dict[int, tuple[int, int, int]] = {}
    if args.deepeval:
        done = subprocess.run([args.deepeval, __file__, "--only-deepeval", "--sizes", args.sizes],
                              capture_output=True, text=True, check=True)
        prompts = json.loads(done.stdout.strip().splitlines()[-1])
        theirs = {int(k): _figures(v, len(v)) for k, v in prompts.items()}
    print("claims | requests | rounds | prompt chars | prompt tokens" + (
        " | DeepEval requests | chars | tokens | tokens, ours/theirs" if theirs else ""))
    for size in sizes:
        requests, chars, tokens = mine[size]
        row = f"{size:6} | {requests:8} | {requests:6} | {chars:12,} | {tokens:13,}"
        if theirs:
            asked, read, paid = theirs[size]
            row += f" | {asked:17} | {read:5,} | {paid:6,} | {tokens / paid:.2f}x"
        print(row)
    line = "short answers (" + ", ".join(map(str, SHORT)) + " claims), per assertion: " + _mean(mine)
    if theirs:
        ratio = sum(mine[s][2] for s in SHORT) / sum(theirs[s][2] for s in SHORT)
        line += f"; DeepEval {_mean(theirs)}; prompt tokens ours/DeepEval {ratio:.2f}x"
    print(line)
    answers = [_figures(texts, requests) for texts, requests in _with_requests(dict(enumerate(mixed()))).values()]
    print("answers as users write them (a greeting, a name the context never writes, two facts in a sentence): "
          + "; ".join(f"{r} requests, {c:,} chars, {t:,} tokens" for r, c, t in answers)
          + f"; mean {sum(r for r, _, _ in answers) / len(answers):.2f} requests, "
          + f"{sum(t for _, _, t in answers) / len(answers):,.0f} tokens")


def _with_requests(found: dict[int, list[str]]) -> dict[int, tuple[list[str], int]]:
    """Our messages, with the number of requests they came in (each starts with a system message)."""
    from pytest_llmfaith.scorers.claims import CLAIMS_SYSTEM

    return {size: (texts, sum(t == CLAIMS_SYSTEM or t.startswith(("You check claims", "You answer one", "You are a "))
                              for t in texts)) for size, texts in found.items()}


def _figures(texts: list[str], requests: int) -> tuple[int, int, int]:
    """(requests, prompt characters, prompt tokens: cl100k, the tokenizer litellm ships)."""
    import litellm

    return requests, sum(len(t) for t in texts), sum(litellm.token_counter(model="gpt-4", text=t) for t in texts)


def _mean(figures: dict[int, tuple[int, int, int]]) -> str:
    requests, chars, tokens = (sum(figures[s][k] for s in SHORT) / len(SHORT) for k in range(3))
    return f"{requests:.2f} requests, {chars:,.0f} prompt chars, {tokens:,.0f} prompt tokens"


if __name__ == "__main__":
    main()
