"""`python -m pytest_llmfaith check [options] [items.jsonl]`: the judge self-check without pytest.

Configured like a pytest run (these flags, then the LLMFAITH_* environment), so it checks the
judge the tests will use, through the same cache.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from pytest_llmfaith.errors import LLMFaithError
from pytest_llmfaith.selfcheck.judge_check import ITEM_FORMAT, run_check
from pytest_llmfaith.settings import resolve

# flag -> the settings option it sets
FLAGS = {"--model": "llm_judge_model", "--api-base": "llm_judge_api_base", "--verdicts": "llm_judge_verdicts",
         "--votes": "llm_judge_votes", "--cache": "llm_cache", "--cache-dir": "llm_cache_dir",
         "--min-accuracy": "llm_judge_min_accuracy"}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pytest_llmfaith check",
        description="Score the judge on a labelled set: balanced accuracy per scorer and the kinds it "
                    "gets wrong. Exit 1 when it scores below --min-accuracy or cannot answer.",
        epilog=f"ITEMS (default: the set shipped with the package): {ITEM_FORMAT}. Unset options come "
               "from the LLMFAITH_* environment variables, as in a pytest run.")
    parser.add_argument("items", nargs="?", type=Path, help="a JSONL file of labelled items")
    for flag, name in FLAGS.items():
        parser.add_argument(flag, dest=name, metavar=name.removeprefix("llm_").upper())
    args = vars(parser.parse_args(argv))
    try:
        settings = resolve(args.get, lambda _: None, os.environ, Path.cwd())
    except ValueError as err:
        parser.error(str(err))
    from pytest_llmfaith.wiring import JudgeRun

    run = JudgeRun(settings)
    try:
        report = run_check(run, args["items"], settings.judge_min_accuracy)
    except LLMFaithError as err:  # no judge configured, a bad items file
        print(err, file=sys.stderr)
        return 2
    finally:
        run.close()
    print("\n".join(report.lines()))
    if report.problem:
        print(report.problem, file=sys.stderr)
        return 1
    return 0
