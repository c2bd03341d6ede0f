"""The library path (README: "As a library, outside pytest") scores without importing pytest, and
a local model works from `pytest_llmfaith.Judge` alone (it picks the offline judge's backend)."""

from __future__ import annotations

import json
import subprocess
import sys

from judge_server import JudgeServer

SCORE_OUTSIDE_PYTEST = """
import json, sys
from pytest_llmfaith import Faithfulness, Judge, JudgeCache, JudgeConfig

judge = Judge(JudgeConfig(model="openai/test-judge", api_base=sys.argv[1]), JudgeCache(None, "off"))
result = Faithfulness(judge).run("Backups are kept for 90 days. They are encrypted.",
                                 ["Backups are kept for 90 days."])
print(json.dumps({"score": result.score, "pytest": sorted(m for m in sys.modules
                                                           if m == "pytest" or m.startswith("_pytest"))}))
"""

LOCAL_IDENTITY = """
from pytest_llmfaith import Judge, JudgeConfig
print(Judge(JudgeConfig(model="local")).identity)
"""


def _python(code: str, *args: str) -> str:
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_the_library_path_scores_without_importing_pytest(server: JudgeServer) -> None:
    server.facts(supported=["Backups are kept for 90 days."])
    found = json.loads(_python(SCORE_OUTSIDE_PYTEST, server.url))
    assert found == {"score": 0.5, "pytest": []}


def test_a_local_model_is_keyed_by_its_weights_from_the_public_judge(monkeypatch) -> None:
    """By its weights, and by the kernels this CPU runs (+avx512 on an AVX-512 machine)."""
    from pytest_llmfaith.local.kernels import VARIANT_ENV, choose
    from pytest_llmfaith.local.weights import DEFAULT_MODEL_SHA256, default_model_path

    weights = default_model_path()
    variant = choose(weights if weights.is_file() else None).variant
    suffix = "" if variant.portable else f"+{variant.name}"
    assert _python(LOCAL_IDENTITY) == f"local:{DEFAULT_MODEL_SHA256}{suffix}"
    monkeypatch.setenv(VARIANT_ENV, "portable")
    assert _python(LOCAL_IDENTITY) == f"local:{DEFAULT_MODEL_SHA256}"


def test_the_core_judge_without_the_offline_judge_names_the_fix() -> None:
    code = ("from pytest_llmfaith.judge.client import Judge\nfrom pytest_llmfaith.judge.backend import JudgeConfig\n"
            "try:\n    Judge(JudgeConfig(model='local')).identity\nexcept Exception as err:\n    print(repr(err))")
    said = _python(code)
    assert "ConfigError" in said and "Fix:" in said and "from pytest_llmfaith import Judge" in said
