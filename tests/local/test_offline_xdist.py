"""A cold offline run under xdist, in fresh interpreters: its workers judge through the shared
server (the fake one, tests/local/fake_judge_server.py) with the standard library, and none of
them imports litellm (5-7 s each) to do it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from plugin_helpers import gone

from pytest_llmfaith.local.weights import LocalModel

pytest.importorskip("xdist")

SUITE = '''
import pytest
from pytest_llmfaith import assert_faithful

CTX = ["Acme was founded in 2003.", "Acme is based in Oslo."]

@pytest.mark.parametrize("i", range(4))
def test_grounded(i):
    assert_faithful("Acme was founded in 2003. Acme is based in Oslo.", CTX)

def test_invented():
    assert_faithful("Acme was founded in 2003. Acme is based on Mars.", CTX)
'''
# Every process of the run starts the fake server, and notes what it imported.
CONFTEST = '''
import json, sys
from pytest_llmfaith.local import launcher

launcher.SERVER_MODULE = "fake_judge_server"
launcher.runtime_identity = lambda variant=None: "runtime-a"

def pytest_unconfigure(config):
    name = config.workerinput["workerid"] if hasattr(config, "workerinput") else "controller"
    with open(f"modules-{name}.json", "w") as fh:
        modules = ("litellm", "pytest_llmfaith.local.local_transport")
        json.dump({module: module in sys.modules for module in modules}, fh)
'''


def test_a_cold_offline_run_under_xdist_never_imports_litellm(
        pytester: pytest.Pytester, fake_runtime: Callable[[str], None], fake_model: LocalModel,
        model_dir: Path) -> None:
    pytester.makepyfile(test_offline=SUITE)
    pytester.makeconftest(CONFTEST)
    result = pytester.runpytest_subprocess("-n", "2", "-p", "no:cacheprovider", "--llm-cache=off",
                                           f"--llm-judge-model=local:{fake_model.path}", timeout=600)
    result.assert_outcomes(passed=4, failed=1)
    seen = {path.stem: json.loads(path.read_text()) for path in pytester.path.glob("modules-*.json")}
    assert seen == {"modules-controller": {"litellm": False, "pytest_llmfaith.local.local_transport": False},
                    "modules-gw0": {"litellm": False, "pytest_llmfaith.local.local_transport": True},
                    "modules-gw1": {"litellm": False, "pytest_llmfaith.local.local_transport": True}}, seen
    logs = sorted((model_dir / "run").glob("server-*.*.log"))
    assert len(logs) == 1  # one server for both workers
    assert all(gone(int(log.name.split(".")[-2])) for log in logs)  # the last lease given up stopped it
