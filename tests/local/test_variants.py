"""Kernel variants: which one a CPU gets, the proof before use, its fallback, and the cache key.

The choice is tested on real /proc/cpuinfo flag sets of several CPUs. The proof runs real child
processes: a variant folder whose llama_cpp dies of SIGILL (or exits, or hangs) at import stands
for a build this CPU cannot run, and the fallback to the portable build is then served by the
fake judge server (tests/local/fake_judge_server.py). The last test forces the real avx512
build on this machine when it lacks AVX-512, and skips where that build is not installed.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pytest_llmfaith import Judge, JudgeCache, JudgeConfig
from pytest_llmfaith.errors import ConfigError
from pytest_llmfaith.judge.question import request_key
from pytest_llmfaith.local import kernels, local_command, runtime
from pytest_llmfaith.local.kernels import (
    AVX512,
    PORTABLE,
    Choice,
    Cpu,
    Variant,
    choose,
    flags_id,
    identity,
    read_proof,
    replay_hint,
    this_cpu,
    usable_variants,
)
from pytest_llmfaith.local.launcher import ensure_server_state, run_files, runtime_identity, shutdown_server
from pytest_llmfaith.local.weights import DEFAULT_MODEL_SHA256, LocalModel, sidecar_path
from pytest_llmfaith.processes.files import stat_line

COMMON = ("fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 "
          "ht syscall nx pdpe1gb rdtscp lm constant_tsc pni pclmulqdq ssse3 fma cx16 sse4_1 sse4_2 movbe "
          "popcnt aes xsave avx f16c rdrand hypervisor lahf_lm abm fsgsbase bmi1 avx2 smep bmi2 erms")
CPUS = {  # /proc/cpuinfo "flags" lines, trimmed to the instruction sets that matter here
    "sapphire rapids xeon (AMX)": COMMON + " avx512f avx512dq avx512ifma avx512cd avx512bw avx512vl avx512_bf16"
    " avx512vbmi avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg avx512_vpopcntdq avx_vnni"
    " amx_bf16 avx512_fp16 amx_tile amx_int8",
    "zen 4 epyc": COMMON + " avx512f avx512dq avx512ifma avx512cd avx512bw avx512vl avx512_bf16 avx512vbmi"
    " avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg avx512_vpopcntdq",
    "zen 5 epyc": COMMON + " avx_vnni avx512_bf16 avx512f avx512dq avx512ifma avx512cd avx512bw avx512vl"
    " avx512vbmi avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg avx512_vpopcntdq avx512_vp2intersect",
    "haswell": COMMON,
    "zen 3 epyc (this kind of machine)": COMMON + " sha_ni clzero vaes vpclmulqdq",
    "skylake-sp xeon (AVX-512, no VNNI)": COMMON + " avx512f avx512dq avx512cd avx512bw avx512vl",
    "cascade lake xeon (VNNI, no BF16)": COMMON + " avx512f avx512dq avx512cd avx512bw avx512vl avx512_vnni",
    "ice lake xeon (VNNI, VBMI, no BF16)": COMMON + " avx512f avx512dq avx512cd avx512bw avx512vl avx512vbmi"
    " avx512_vnni avx512_vbmi2",
}
CHOSEN = {"sapphire rapids xeon (AMX)": "avx512", "zen 4 epyc": "avx512", "zen 5 epyc": "avx512"}


@pytest.mark.parametrize("cpu", list(CPUS))
def test_the_variant_a_cpu_gets(cpu: str) -> None:
    names = [v.name for v in usable_variants(CPUS[cpu].split())]
    assert names == ([CHOSEN[cpu]] if cpu in CHOSEN else []) + ["portable"]


def test_no_variant_compiles_amx_or_native_code_and_portable_keeps_its_wheel() -> None:
    for variant in (PORTABLE, AVX512):
        assert {"-DGGML_AMX_TILE=OFF", "-DGGML_AMX_INT8=OFF", "-DGGML_AMX_BF16=OFF", "-DGGML_NATIVE=OFF"} <= \
            set(variant.flags)
        assert not any("AMX" in flag and flag.endswith("=ON") for flag in variant.flags)
    assert {"-DGGML_AVX512=ON", "-DGGML_AVX512_VNNI=ON", "-DGGML_AVX512_BF16=ON"} <= set(AVX512.flags)
    assert "-DGGML_AVX512=OFF" in PORTABLE.flags
    assert flags_id(PORTABLE.flags) == "27da23351598"  # the wheel kept since the portable build shipped


def test_this_cpu_reads_the_first_processor(tmp_path: Path) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text(f"processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Platinum 8480+\nflags\t\t: "
                       f"{CPUS['sapphire rapids xeon (AMX)']}\n\nprocessor\t: 1\nmodel name\t: other\nflags\t: fpu\n")
    cpu = this_cpu(cpuinfo)
    assert cpu.model == "Intel(R) Xeon(R) Platinum 8480+" and {"amx_tile", "avx512_vnni"} <= cpu.flags
    assert this_cpu(tmp_path / "missing") == Cpu("unknown", frozenset())  # macOS, Windows: portable only


# -- the proof and its fallback, with variant folders that stand for builds this CPU cannot run --------

DIES = "import os, signal, pathlib\n{mark}os.kill(os.getpid(), signal.SIGILL)\n"
MARK = "pathlib.Path({log!r}).open('a').write('imported\\n')\n"


@pytest.fixture
def variant_home(fake_build: Callable[[Variant, str], Path], tmp_path: Path,
                 monkeypatch: pytest.MonkeyPatch) -> Callable[[str], Path]:
    """A private user cache with a portable build that imports and is never called; call the result
    with a llama_cpp/__init__.py body to install it as the avx512 variant (the log file it returns
    counts the imports of `{mark}` bodies)."""
    monkeypatch.delenv("LLMFAITH_LOCAL_VARIANT", raising=False)

    def install(body: str) -> Path:
        log = tmp_path / "imports.log"
        fake_build(AVX512, body.format(mark=MARK.format(log=str(log))))
        return log

    fake_build(PORTABLE, "")
    return install


@pytest.mark.skipif(sys.platform == "win32", reason="reads POSIX signals in the exit status")
def test_a_variant_that_crashes_its_proof_falls_back_once_and_stays_portable(
        variant_home: Callable[[str], Path], fake_model: LocalModel, monkeypatch: pytest.MonkeyPatch) -> None:
    imports = variant_home(DIES)
    monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", "avx512")
    choice = choose(fake_model.path)
    assert choice.variant is PORTABLE
    assert choice.label() == (
        "portable kernels: the avx512 kernels failed their proof on this CPU (its tiny generation was killed "
        f"by SIGILL); LLMFAITH_LOCAL_VARIANT=portable skips them, `{runtime.INSTALL_COMMANDS}` proves them again")
    assert "\n" not in choice.label()  # one line
    assert choose(fake_model.path) == choice and imports.read_text() == "imported\n"  # stamped: not again
    assert read_proof(AVX512, this_cpu()) == kernels.Proof(ok=False, how="its tiny generation was killed by SIGILL")
    other = Cpu("Another CPU", this_cpu().flags)  # a home folder shared by another machine proves again
    assert read_proof(AVX512, other) is None


@pytest.mark.parametrize(("body", "timeout", "how", "stamped"), [
    ("import time\ntime.sleep(30)\n", 1.0, "its tiny generation did not answer one question within 1 s", True),
    ("raise SystemExit(3)\n", 60.0, "its tiny generation exited with code 3", False),
    ("", 60.0, "its tiny generation exited with code 1", False),  # a llama_cpp without Llama: an ImportError
])
def test_an_exit_or_a_hang_fails_the_proof_too_but_only_a_hang_is_stamped(
        variant_home: Callable[[str], Path], fake_model: LocalModel, monkeypatch: pytest.MonkeyPatch,
        body: str, timeout: float, how: str, stamped: bool) -> None:
    """An exit with an error may be the model file's fault (a bad GGUF), not the kernels': the
    next process proves them again instead of keeping them off until the next install; this
    one keeps the failure."""
    variant_home(body)
    monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", "avx512")
    monkeypatch.setattr(kernels, "PROOF_TIMEOUT", timeout)
    choice = choose(fake_model.path)
    assert choice.variant is PORTABLE and f"failed their proof on this CPU ({how})" in str(choice.note)
    assert kernels.stamp_path(AVX512, this_cpu()).exists() is stamped
    assert choose(None) == choice  # the whole process agrees: its server's files are found by `stop`
    assert read_proof(AVX512, this_cpu()) == kernels.Proof(ok=False, how=how)


def test_forcing_and_what_the_choice_says(variant_home: Callable[[str], Path], fake_model: LocalModel,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", "avx512")
    missing = choose(fake_model.path)
    assert missing.variant is PORTABLE and "LLMFAITH_LOCAL_VARIANT=avx512, but the avx512 kernels are not " \
        f"installed ({AVX512.folder()})" in str(missing.note)
    imports = variant_home(DIES)
    monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", "portable")
    assert choose(fake_model.path) == Choice(PORTABLE)  # nothing to say, nothing proven
    monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", " AUTO ")
    if not AVX512.missing(this_cpu().flags):
        pytest.skip("this CPU runs the avx512 kernels, so auto would prove them")
    assert choose(fake_model.path) == Choice(PORTABLE) and not imports.exists()  # this CPU cannot run it
    monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", "native")
    with pytest.raises(ConfigError, match="LLMFAITH_LOCAL_VARIANT='native' is not a kernel variant.*Fix: set it "
                                          "to one of auto, avx512, portable"):
        choose(fake_model.path)


# -- the server runs the chosen variant, and only its clients share it ----------------------------------

@pytest.fixture
def stop_variants(fake_runtime: Callable[[str], None], fake_model: LocalModel,
                  monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Afterwards, `stop` as each variant's user would: it finds the server of its variant."""
    yield
    for name in ("avx512", "portable"):
        monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", name)
        shutdown_server(fake_model, force=True)


@pytest.mark.skipif(sys.platform == "win32", reason="reads POSIX signals in the exit status")
def test_a_judge_whose_variant_crashes_its_proof_still_scores_and_says_why(
        variant_home: Callable[[str], Path], fake_runtime: Callable[[str], None], fake_model: LocalModel,
        stop_variants: None, monkeypatch: pytest.MonkeyPatch) -> None:
    variant_home(DIES)
    monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", "avx512")
    loads: list[str] = []
    judge = Judge(JudgeConfig(model=f"local:{fake_model.path}", retries=0), JudgeCache(None, "off"))
    judge.progress = Loads(loads)
    answer, _ = judge.ask("claims", [{"role": "user", "content": "hello"}], None, "v1")
    assert answer == "ok"
    assert loads == [f"{fake_model.name} (portable kernels: the avx512 kernels failed their proof on this CPU "
                     f"(its tiny generation was killed by SIGILL); LLMFAITH_LOCAL_VARIANT=portable skips them, "
                     f"`{runtime.INSTALL_COMMANDS}` proves them again)"] * 2
    judge.close()


def test_the_server_of_a_variant_imports_its_llama_cpp_and_is_not_shared_with_portable(
        variant_home: Callable[[str], Path], fake_runtime: Callable[[str], None], fake_model: LocalModel,
        stop_variants: None, monkeypatch: pytest.MonkeyPatch) -> None:
    variant_home("")  # a llama_cpp the fake server imports and never calls
    monkeypatch.setattr("pytest_llmfaith.local.launcher.runtime_identity", runtime_identity)  # the real one
    if runtime_identity(PORTABLE) is None:
        pytest.skip("llama-cpp-python is not installed: no runtime identity")
    assert runtime_identity(AVX512) != runtime_identity(PORTABLE)
    state = ensure_server_state(fake_model, choice=Choice(AVX512))
    log = run_files(fake_model, AVX512).log_of(state.pid).read_text()
    assert f"llama_cpp from {AVX512.folder()}" in log
    assert ensure_server_state(fake_model, choice=Choice(PORTABLE)).pid != state.pid


def test_a_server_given_a_folder_without_llama_cpp_refuses_to_run_the_venvs(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", "import sys; from pathlib import Path; "
                           "from pytest_llmfaith.local.server import use_llama_cpp_from; "
                           "use_llama_cpp_from(Path(sys.argv[1]))", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    if "No module named 'llama_cpp'" in done.stderr:
        pytest.skip("llama-cpp-python is not installed in this venv")
    assert done.returncode != 0 and f"not from the kernel variant in {tmp_path}" in done.stderr


class Loads:
    """A progress sink that keeps what the "loading the offline judge model" line names."""

    def __init__(self, names: list[str]) -> None:
        self.names = names

    @contextlib.contextmanager
    def call(self, step: str, index: int, total: int) -> Iterator[None]:
        yield

    def judge_loading(self, model: str, seconds: float | None) -> None:
        self.names.append(model)


# -- the cache key, and replay ----------------------------------------------------------------------------

def test_portable_keys_are_todays_and_another_variants_answers_are_not_served(
        variant_home: Callable[[str], Path], fake_model: LocalModel, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", "portable")
    for model in ("local", f"local:{fake_model.path}"):
        assert identity(model) == Judge(JudgeConfig(model=model)).identity  # today's key, recordings valid
    assert identity("local") == f"local:{DEFAULT_MODEL_SHA256}"

    request = Judge(JudgeConfig(model=f"local:{fake_model.path}")).question(
        "verdicts", [{"role": "user", "content": "Is the claim supported?"}], None, "v1").request
    variant_home("")
    monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", "avx512")
    fast = identity(f"local:{fake_model.path}", prove=False)  # a replay: the variant a run would use
    assert fast == f"local:{fake_model.sha256}+avx512"
    cache = JudgeCache(tmp_path / "judge-cache", mode="use")
    cache.set(request_key({**request, "model": identity(f"local:{fake_model.path}", prove=False)}), {"text": "fast"})
    monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", "portable")
    portable = identity(f"local:{fake_model.path}", prove=False)
    assert cache.get(request_key({**request, "model": portable})) is None  # not served to portable
    cache.set(request_key({**request, "model": portable}), {"text": "portable"})
    monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", "avx512")
    assert cache.get(request_key({**request, "model": fast})) == {"text": "fast"}
    cache.close()


def test_a_replay_miss_on_another_variant_names_it_and_the_way_to_replay_portable_answers() -> None:
    hint = replay_hint(f"local:{DEFAULT_MODEL_SHA256}+avx512")
    assert "avx512 kernels" in hint and "LLMFAITH_LOCAL_VARIANT=portable" in hint
    assert replay_hint(f"local:{DEFAULT_MODEL_SHA256}") == ""


def test_a_replay_proves_nothing(variant_home: Callable[[str], Path], fake_model: LocalModel,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    imports = variant_home(DIES)
    monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", "avx512")
    assert identity(f"local:{fake_model.path}", prove=False).endswith("+avx512")
    assert not imports.exists()  # no child process ran the variant
    assert identity(f"local:{fake_model.path}").endswith(fake_model.sha256)  # a scoring run proves it: portable
    assert identity(f"local:{fake_model.path}", prove=False).endswith(fake_model.sha256)  # and replay reads that


# -- install ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("cpu", ["haswell", "cascade lake xeon (VNNI, no BF16)"])
def test_install_builds_the_portable_kernels_alone_on_a_cpu_without_avx512_vnni_and_bf16_and_says_why(
        cpu: str, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("LLMFAITH_LOCAL_VARIANT", raising=False)
    monkeypatch.setattr(runtime, "this_cpu", lambda: Cpu("Test CPU", frozenset(CPUS[cpu].split())))
    assert runtime.variant_to_build() is PORTABLE
    said = capfd.readouterr().err.strip().splitlines()
    assert len(said) == 1 and said[0].startswith("no faster kernels for this CPU (Test CPU)")
    assert "avx512 needs" in said[0] and "avx512_bf16" in said[0]


def test_install_builds_the_best_variant_or_the_forced_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LLMFAITH_LOCAL_VARIANT", raising=False)
    monkeypatch.setattr(runtime, "this_cpu", lambda: Cpu("Zen 4", frozenset(CPUS["zen 4 epyc"].split())))
    assert runtime.variant_to_build() is AVX512
    monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", "portable")
    assert runtime.variant_to_build() is PORTABLE
    monkeypatch.setattr(runtime, "this_cpu", lambda: Cpu("Haswell", frozenset(CPUS["haswell"].split())))
    monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", "avx512")
    assert runtime.variant_to_build() is AVX512  # forced: built, then its proof decides


class Installs:
    """`local install` with its slow parts recorded instead of run: which flags are compiled,
    which folders filled, and what the proof of each variant says."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, cpu: str, proofs: dict[str, bool],
                 tmp_path: Path) -> None:
        self.compiled: list[str] = []
        self.checked: list[str] = []
        self.proven: list[str] = []
        self.proofs = proofs
        self.wheels = tmp_path / "wheels"
        monkeypatch.delenv("LLMFAITH_LOCAL_VARIANT", raising=False)
        monkeypatch.setattr(runtime, "this_cpu", lambda: Cpu("Test CPU", frozenset(CPUS[cpu].split())))
        monkeypatch.setattr(runtime, "ensure_wheel", self.ensure_wheel)
        monkeypatch.setattr(runtime, "install_wheel", lambda wheel: None)
        monkeypatch.setattr(local_command, "prove", self.prove)
        monkeypatch.setattr("pytest_llmfaith.local.local_command.install_weights", lambda proven: 0)
        monkeypatch.setattr("pytest_llmfaith.local.check.main", lambda model, variant: self.checked.append(
            variant.name) or 0)
        monkeypatch.setattr(runtime, "install_target", self.install_target)

    def ensure_wheel(self, flags: tuple[str, ...], kernels: str) -> Path:
        name = next(v.name for v in (AVX512, PORTABLE) if v.flags == flags)
        wheel = self.wheels / name / "llama_cpp_python-0.3.36-py3-none-linux_x86_64.whl"
        if not wheel.exists():  # kept per machine: a second install compiles nothing
            self.compiled.append(name)
            wheel.parent.mkdir(parents=True)
            wheel.write_text(name)
        return wheel

    def install_target(self, wheel: Path, folder: Path) -> None:
        (folder / "llama_cpp").mkdir(parents=True, exist_ok=True)
        (folder / "llama_cpp" / "__init__.py").write_text("")
        (folder / runtime.INSTALLED_FROM).write_text(stat_line(wheel))

    def prove(self, variant: Variant, model: Path) -> kernels.Proof:
        self.proven.append(variant.name)
        return kernels.Proof(ok=self.proofs[variant.name], how="" if self.proofs[variant.name] else "SIGILL")


@pytest.mark.parametrize(("cpu", "proofs", "compiled", "checked"), [
    ("zen 4 epyc", {"avx512": True}, ["avx512"], []),  # one compile, proven: the first hour's case
    ("zen 4 epyc", {"avx512": False}, ["avx512", "portable"], ["portable"]),  # the proof fails: portable too
    ("haswell", {}, ["portable"], ["portable"]),
])
def test_install_compiles_once_the_kernels_this_cpu_runs_and_portable_only_where_they_fail(
        fake_build: Callable[[Variant, str], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        cpu: str, proofs: dict[str, bool], compiled: list[str], checked: list[str]) -> None:
    installs = Installs(monkeypatch, cpu, proofs, tmp_path)
    assert local_command.install([]) == 0
    assert (installs.compiled, installs.checked) == (compiled, checked)
    assert [v.name for v in (AVX512, PORTABLE) if v.installed()] == compiled
    stamp = stat_line(AVX512.folder() / runtime.INSTALLED_FROM)
    again = Installs(monkeypatch, cpu, proofs, tmp_path)  # a second install: nothing compiled or replaced
    assert local_command.install([]) == 0
    assert again.compiled == [] and stat_line(AVX512.folder() / runtime.INSTALLED_FROM) == stamp


# -- the real avx512 build on a CPU without AVX-512 -------------------------------------------------------

def real_avx512_folder() -> Path:
    """The avx512 variant installed in this user's real cache (before any test redirects it)."""
    return AVX512.folder()


REAL_AVX512 = real_avx512_folder()
SUITE = """
def test_output(llm_judge):
    llm_judge.assert_faithful("The meeting is on Tuesday.", ["The team meeting is on Tuesday at 10:00."],
                              min_score=0.5)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="reads POSIX signals in the exit status")
def test_the_real_avx512_build_dies_of_sigill_here_and_the_run_scores_on_portable(
        real_model: LocalModel, pytester: pytest.Pytester, tmp_path: Path) -> None:
    if not (REAL_AVX512 / "llama_cpp" / "__init__.py").is_file():
        pytest.skip(f"the avx512 variant is not installed ({REAL_AVX512}); on a machine without AVX-512 "
                    f"`LLMFAITH_LOCAL_VARIANT=avx512 {runtime.INSTALL_COMMANDS}` builds it (once, minutes)")
    if not AVX512.missing(this_cpu().flags):
        pytest.skip("this CPU runs AVX-512: the avx512 build cannot crash here")
    cache = tmp_path / "cache"
    (cache / "pytest-llmfaith" / "variants").mkdir(parents=True)
    (cache / "pytest-llmfaith" / "variants" / REAL_AVX512.name).symlink_to(REAL_AVX512)  # its own stamps
    models = tmp_path / "models"  # the real weights, linked: a server of this test's own, which it starts
    models.mkdir()
    (models / real_model.path.name).symlink_to(real_model.path)
    (models / sidecar_path(real_model.path).name).write_bytes(sidecar_path(real_model.path).read_bytes())
    pytester.makepyfile(test_suite=SUITE)
    env = {"XDG_CACHE_HOME": str(cache), "LLMFAITH_MODEL_DIR": str(models), "LLMFAITH_LOCAL_VARIANT": "avx512",
           "LLMFAITH_IDLE_TIMEOUT": "5"}
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():
            patch.setenv(name, value)
        result = pytester.runpytest_subprocess("--llm-judge-model=local", "--llm-cache=off",
                                               "--llm-report=report.json", "-p", "no:cacheprovider")
    out = result.stdout.str()
    assert result.ret == 0, out
    lines = [line for line in out.splitlines() if "loading the offline judge model" in line]
    assert len(lines) == 1, out
    assert "(portable kernels: the avx512 kernels failed their proof on this CPU (its tiny generation was " \
        "killed by SIGILL); LLMFAITH_LOCAL_VARIANT=portable skips them" in lines[0]
    report = json.loads((pytester.path / "report.json").read_text())
    assert [r["outcome"] for r in report["results"]] == ["PASS"]  # scored, by the portable kernels


def test_a_replay_on_a_variant_machine_misses_portable_recordings_and_says_how_to_replay_them(
        variant_home: Callable[[str], Path], fake_runtime: Callable[[str], None], fake_model: LocalModel,
        stop_variants: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_llmfaith.errors import CacheMissError

    def judge(mode: str) -> Judge:
        return Judge(JudgeConfig(model=f"local:{fake_model.path}", retries=0), JudgeCache(tmp_path / "c", mode))

    messages = [{"role": "user", "content": "hello"}]
    monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", "portable")
    recording = judge("use")
    assert recording.ask("claims", messages, None, "v1")[0] == "ok"  # recorded with the portable kernels
    recording.close()
    imports = variant_home(DIES)  # installed here, never proven: a replay keys by it, proving nothing
    monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", "auto" if not AVX512.missing(this_cpu().flags) else "avx512")
    with pytest.raises(CacheMissError, match=r"runs its avx512 kernels here.*LLMFAITH_LOCAL_VARIANT=portable"):
        judge("replay").ask("claims", messages, None, "v1")
    assert not imports.exists()
    monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", "portable")
    assert judge("replay").ask("claims", messages, None, "v1")[0] == "ok"
