"""An agent suite for benchmarks/offline_speed.py: the travel agent's run of benchmarks/agent_answers.py
(four tool calls, JSON results, one failed call), with four faithful and four unfaithful final
answers, each judged from the run object as a test would. Scores are what is measured, not pass or
fail: the unfaithful answers fail their assertion by design."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from agent_answers import FAITHFUL, UNFAITHFUL, run_of  # noqa: E402

ANSWERS = FAITHFUL[:4] + UNFAITHFUL[:4]


@pytest.mark.parametrize("answer", ANSWERS)
def test_answer(answer, llm_judge):
    run = run_of(answer)
    llm_judge.faithfulness(run)
    llm_judge.hallucination(run)
