"""Where no compiler is, `local install` takes xllamacpp's prebuilt runtime from PyPI, proves it,
and a run scores on it, saying so in its loading line (issue 35.4). The real install command
runs with an empty PATH (no cc, no c++) and a private user cache; only the weights are linked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_llmfaith.local import runtime
from pytest_llmfaith.local.kernels import PREBUILT
from pytest_llmfaith.local.weights import LocalModel, sidecar_path


def test_what_a_compile_lacks_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.delenv("CXX", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(runtime, "_built_with", lambda env: "")  # not this Python's own compiler either
    assert runtime.build_tools_missing() == "no C or C++ compiler on PATH"
    compiler = tmp_path / "g++"
    compiler.write_text("#!/bin/sh\n")
    compiler.chmod(0o755)
    assert runtime.build_tools_missing() == "no C compiler on PATH"
    monkeypatch.setenv("CC", str(compiler))  # CC names one that is not on PATH
    assert runtime.build_tools_missing() is None


def test_a_compiler_named_in_sysconfig_counts_and_windows_asks_for_msvc(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.delenv("CXX", raising=False)
    for name in ("x86_64-linux-gnu-gcc", "x86_64-linux-gnu-g++"):  # on no list: as Python was built
        (tmp_path / name).write_text("#!/bin/sh\n")
        (tmp_path / name).chmod(0o755)
    monkeypatch.setattr(runtime, "_built_with", lambda env: {"CC": "x86_64-linux-gnu-gcc",
                                                             "CXX": "x86_64-linux-gnu-g++"}[env])
    assert runtime.build_tools_missing() is None
    monkeypatch.setattr(sys, "platform", "win32")  # a run that pretends to be Windows
    monkeypatch.setenv("ProgramFiles(x86)", str(tmp_path))
    assert runtime.build_tools_missing() == "no MSVC (Visual Studio's C++ build tools)"
    vswhere = tmp_path / "Microsoft Visual Studio" / "Installer" / "vswhere.exe"
    vswhere.parent.mkdir(parents=True)
    vswhere.write_text("")
    assert runtime.build_tools_missing() is None


def test_without_a_kept_wheel_or_a_compiler_install_chooses_the_prebuilt_runtime(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("LLMFAITH_LOCAL_VARIANT", raising=False)
    monkeypatch.setattr(runtime, "build_tools_missing", lambda: "no C++ compiler on PATH")
    assert runtime.variant_to_build() is PREBUILT
    assert capfd.readouterr().err.startswith("no C++ compiler on PATH, so the offline judge takes xllamacpp's "
                                             "prebuilt runtime from PyPI")
    kept = runtime.wheel_folder(flags=runtime.usable_variants(runtime.this_cpu().flags)[0].flags)
    kept.mkdir(parents=True)
    (kept / "llama_cpp_python-0.3.36-py3-none-linux_x86_64.whl").write_text("")
    assert runtime.variant_to_build() is not PREBUILT  # compiled before: installing it needs no compiler


SUITE = """
def test_output(llm_judge):
    llm_judge.assert_faithful("The meeting is on Tuesday.", ["The team meeting is on Tuesday at 10:00."],
                              min_score=0.5)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="xllamacpp's wheel is fetched for this platform; Linux here")
def test_without_a_compiler_install_takes_the_prebuilt_runtime_and_a_run_scores_on_it(
        real_model: LocalModel, pytester: pytest.Pytester, tmp_path: Path) -> None:
    models = tmp_path / "models"  # the real weights, linked: a server of this test's own
    models.mkdir()
    (models / real_model.path.name).symlink_to(real_model.path)
    (models / sidecar_path(real_model.path).name).write_bytes(sidecar_path(real_model.path).read_bytes())
    (tmp_path / "empty").mkdir()
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "LLMFAITH_MODEL_DIR": str(models),
           "PATH": str(tmp_path / "empty"), "LLMFAITH_IDLE_TIMEOUT": "5"}
    base = {k: v for k, v in os.environ.items() if k not in ("CC", "CXX", "LLMFAITH_LOCAL_VARIANT")}
    done = subprocess.run([sys.executable, "-m", "pytest_llmfaith", "local", "install"], env={**base, **env},
                          capture_output=True, text=True, timeout=900)
    unreachable = done.returncode != 0 and "pip could not install" in done.stderr
    if unreachable and os.environ.get("LLMFAITH_REQUIRE_LOCAL") != "1":
        pytest.skip(f"xllamacpp could not be fetched from the package index: {done.stderr[-500:]}")
    assert done.returncode == 0, done.stderr
    said = done.stderr
    assert "no C or C++ compiler on PATH, so the offline judge takes xllamacpp's prebuilt runtime" in said
    assert "runtime works: model loaded" in said and "AVX2 = 1" in said, said
    assert "compiling" not in said

    pytester.makepyfile(test_suite=SUITE)
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():
            patch.setenv(name, value)
        patch.delenv("LLMFAITH_LOCAL_VARIANT", raising=False)
        result = pytester.runpytest_subprocess("--llm-judge-model=local", "--llm-cache=off",
                                               "--llm-report=report.json", "-p", "no:cacheprovider")
    out = result.stdout.str()
    assert result.ret == 0, out
    lines = [line for line in out.splitlines() if "loading the offline judge model" in line]
    assert len(lines) == 1 and "(xllamacpp's prebuilt kernels: no compiled runtime here" in lines[0], out
    report = json.loads((pytester.path / "report.json").read_text())
    assert [r["outcome"] for r in report["results"]] == ["PASS"]
