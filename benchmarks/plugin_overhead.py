"""What installing pytest-llmfaith costs a suite that never uses it.

A generated 200-test suite with no llmfaith assertions runs N times with the plugin on and N times
with `-p no:llmfaith` (interleaved, after one warm-up each); it prints the median wall time of
each, the ratio and the difference. Then, for the same suite:
- `python -X importtime` cumulative cost of importing the plugin module (pytest already loaded,
  as it is when pytest loads the plugin), median over repeats, and the modules it drags in;
- that litellm and pydantic are not in sys.modules after importing the plugin, nor
  after a whole in-process pytest run of the suite (with socket creation made to raise);
- that the run wrote no files besides the test files, and printed nothing extra.

    .venv/bin/python benchmarks/plugin_overhead.py [--repeats 15] [--tests 200] [--import-repeats 15]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from _common import (
    PYTHON,
    all_files,
    clean_env,
    header,
    machine,
    median,
    pytest_run,
    spread,
    summary_line,
    use_pycache_prefix,
    write_suite,
)

HEAVY = ("litellm", "pydantic")
BASE_ARGS = ["-q", "-p", "no:cacheprovider"]


def suite_files(n_tests: int, per_file: int = 20) -> dict[str, str]:
    """An ordinary suite: plain asserts, a fixture, parametrisation; no llmfaith anywhere."""
    files: dict[str, str] = {
        "conftest.py": textwrap.dedent("""\
            import pytest

            @pytest.fixture
            def numbers():
                return list(range(10))
            """),
    }
    made = 0
    index = 0
    while made < n_tests:
        count = min(per_file, n_tests - made)
        body = ["import pytest", ""]
        plain = count - count // 4
        for i in range(plain):
            body += [f"def test_plain_{i}(numbers):",
                     f"    assert sum(numbers) + {i} == {45 + i}", ""]
        params = count - plain
        if params:
            body += [f"@pytest.mark.parametrize('x', range({params}))",
                     "def test_param(x):", "    assert x * 2 == x + x", ""]
        files[f"test_mod_{index:02d}.py"] = "\n".join(body)
        made += count
        index += 1
    return files


def timed_runs(suite: Path, repeats: int, n_tests: int) -> tuple[list[float], list[float]]:
    on: list[float] = []
    off: list[float] = []
    for warm in (True, False):  # one warm-up of each (writes __pycache__), then interleaved
        for _ in range(1 if warm else repeats):
            for sink, extra in ((on, []), (off, ["-p", "no:llmfaith"])):
                wall, proc = pytest_run(suite, [*BASE_ARGS, *extra])
                if f"{n_tests} passed" not in proc.stdout:
                    raise SystemExit(f"unexpected outcome: {summary_line(proc)}")
                if not warm:
                    sink.append(wall)
    return on, off


def import_cost(repeats: int, **env: str) -> tuple[list[float], list[float], list[str]]:
    """Cumulative microseconds of `pytest_llmfaith.plugin.hooks` (its package included) with pytest
    already imported; also of pytest itself, for scale; and the new non-llmfaith modules."""
    plugin_us: list[float] = []
    pytest_us: list[float] = []
    code = "import pytest; import pytest_llmfaith.plugin.hooks"
    subprocess.run([PYTHON, "-c", code], env=clean_env(**env), check=True)  # warm-up: writes .pyc
    for _ in range(repeats):
        proc = subprocess.run([PYTHON, "-X", "importtime", "-c", code], capture_output=True,
                              text=True, env=clean_env(**env), check=True)
        cumulative: dict[str, int] = {}
        for line in proc.stderr.splitlines():
            match = re.match(r"import time:\s+(\d+)\s+\|\s+(\d+)\s+\|(\s*)(\S+)", line)
            if match and not match.group(3)[1:].startswith(" "):  # top-level imports only
                cumulative[match.group(4)] = int(match.group(2))
        plugin_us.append(cumulative.get("pytest_llmfaith", 0) + cumulative.get("pytest_llmfaith.plugin.hooks", 0))
        pytest_us.append(cumulative.get("pytest", 0))
    probe = textwrap.dedent("""\
        import sys
        import pytest
        before = set(sys.modules)
        import pytest_llmfaith.plugin.hooks
        print(" ".join(sorted(m for m in set(sys.modules) - before if not m.startswith("pytest_llmfaith"))))
        """)
    new = subprocess.run([PYTHON, "-c", probe], capture_output=True, text=True, env=clean_env(),
                         check=True).stdout.split()
    return plugin_us, pytest_us, new


def heavy_modules_after_import() -> list[str]:
    code = ("import sys, pytest, pytest_llmfaith.plugin.hooks; "
            f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    return subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, env=clean_env(),
                          check=True).stdout.split()


def heavy_modules_after_run(suite: Path) -> tuple[int, list[str], str]:
    """A whole pytest run in one process, plugin on, sockets forbidden; then look at sys.modules."""
    code = textwrap.dedent(f"""\
        import socket, sys
        class NoSocket(socket.socket):
            def __init__(self, *a, **k):
                raise OSError("benchmark: the plugin opened a socket")
        socket.socket = NoSocket
        import pytest
        rc = pytest.main({[*BASE_ARGS, "-p", "llmfaith"]!r})
        print("HEAVY:" + " ".join(m for m in {HEAVY!r} if m in sys.modules))
        print("PLUGIN:" + str(any(m.startswith("pytest_llmfaith") for m in sys.modules)))
        sys.exit(rc)
        """)
    proc = subprocess.run([PYTHON, "-c", code], cwd=suite, capture_output=True, text=True, env=clean_env())
    heavy = [line[6:].split() for line in proc.stdout.splitlines() if line.startswith("HEAVY:")]
    loaded = [line[7:] for line in proc.stdout.splitlines() if line.startswith("PLUGIN:")]
    return proc.returncode, heavy[0] if heavy else ["(probe failed)"], loaded[0] if loaded else "?"


def written_files(root: Path, files: dict[str, str]) -> tuple[set[str], set[str], set[str], bool]:
    """Fresh copies of the suite: (1) plugin on, no bytecode: every file must be a test file;
    (2) plugin on vs off with bytecode (to the prefix): the same files must appear in the suite.
    Also compare the terminal output of the three runs."""
    outputs: dict[str, str] = {}
    sets: dict[str, set[str]] = {}
    for name, extra, env in (("nobytecode", [], clean_env(PYTHONDONTWRITEBYTECODE="1")),
                             ("on", [], clean_env()), ("off", ["-p", "no:llmfaith"], clean_env())):
        suite = root / f"fresh_{name}"
        written = {str(p.relative_to(suite)) for p in write_suite(suite, files)}
        _, proc = pytest_run(suite, [*BASE_ARGS, *extra], env=env)
        outputs[name] = re.sub(r" in [\d.]+s", " in Ts", proc.stdout)
        sets[name] = all_files(suite) - written
        shutil.rmtree(suite)
    same_output = outputs["on"] == outputs["off"] == outputs["nobytecode"]
    return sets["nobytecode"], sets["on"], sets["off"], same_output


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20, help="timed runs of each variant")
    parser.add_argument("--tests", type=int, default=200, help="tests in the generated suite")
    parser.add_argument("--import-repeats", type=int, default=15, help="python -X importtime runs")
    args = parser.parse_args()
    print(f"plugin_overhead: {machine()}")
    files = suite_files(args.tests)

    with tempfile.TemporaryDirectory(prefix="llmfaith-bench-") as tmp:
        root = Path(tmp)
        use_pycache_prefix(root / "pycache")
        suite = root / "suite"
        write_suite(suite, files)

        header(f"{args.tests}-test suite without llmfaith: pytest {' '.join(BASE_ARGS)}")
        on, off = timed_runs(suite, args.repeats, args.tests)
        print(f"plugin on           : {spread(on)}")
        print(f"-p no:llmfaith      : {spread(off)}")
        m_on, m_off = median(on), median(off)
        print(f"ratio on/off        : {m_on / m_off:.3f} (of medians); {min(on) / min(off):.3f} (of minimums)")
        print(f"difference          : {(m_on - m_off) * 1000:+.1f} ms per run (medians); "
              f"{(min(on) - min(off)) * 1000:+.1f} ms (minimums)")

        header("import cost (python -X importtime, pytest already imported)")
        plugin_us, pytest_us, new = import_cost(args.import_repeats)
        source_us, _, _ = import_cost(args.import_repeats, PYTHONDONTWRITEBYTECODE="1",
                                      PYTHONPYCACHEPREFIX=str(root / "empty-pycache"))
        print(f"pytest_llmfaith.plugin.hooks cumulative, with .pyc     : {spread(plugin_us, 'ms', 1e-3, 2)}")
        print(f"  the same compiled from source (no .pyc)        : {spread(source_us, 'ms', 1e-3, 2)}")
        print(f"pytest itself, with .pyc, for scale              : {spread(pytest_us, 'ms', 1e-3, 1)}")
        print(f"modules the plugin adds beyond pytest_llmfaith.*: {len(new)}"
              + (f" ({', '.join(new[:20])}{' ...' if len(new) > 20 else ''})" if new else ""))

        header("invisibility checks")
        heavy = heavy_modules_after_import()
        print(f"after `import pytest_llmfaith.plugin.hooks`: {'OK, none of' if not heavy else 'FAIL, loaded:'} "
              f"{', '.join(heavy or HEAVY)} {'in sys.modules' if not heavy else ''}".rstrip())
        rc, heavy_run, loaded = heavy_modules_after_run(suite)
        print(f"after a whole in-process run (plugin loaded: {loaded}, exit {rc}, sockets forbidden): "
              + ("OK, none of " + ", ".join(HEAVY) + " in sys.modules" if not heavy_run
                 else "FAIL, loaded: " + ", ".join(heavy_run)))
        nobyte, with_on, with_off, same_output = written_files(root, files)
        print("files written, plugin on, PYTHONDONTWRITEBYTECODE=1: "
              + ("none besides the test files (OK)" if not nobyte else f"FAIL: {sorted(nobyte)}"))
        extra = with_on - with_off
        print(f"files written in the suite with bytecode on: plugin on {len(with_on)}, off {len(with_off)}; "
              f"only with the plugin: {sorted(extra) if extra else 'none (OK)'}")
        print(f"terminal output identical on vs off: {'yes (OK)' if same_output else 'NO'}")
        if heavy or heavy_run or nobyte or extra or not same_output or rc != 0:
            sys.exit(1)


if __name__ == "__main__":
    main()
