"""Fixtures for the offline judge's tests.

Fast tests run everywhere with tiny fake chunks and a fake engine. Tests marked by the
`real_model` fixture need llama-cpp-python and the installed weights: they skip when those
are absent, unless LLMFAITH_REQUIRE_LOCAL=1 (set it in CI) turns the skip into a failure.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_llmfaith.errors import LocalJudgeUnavailable
from pytest_llmfaith.local.kernels import PORTABLE, Variant, choose
from pytest_llmfaith.local.weights import LocalModel, resolve_local_model
from pytest_llmfaith.settings import DEFAULT_IDLE_TIMEOUT


@pytest.fixture(autouse=True)
def _warm_offline_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """The offline judge's server stays up its default time after a run, for the next one (the
    suite's conftest.py ends the relays with their runs: LLMFAITH_IDLE_TIMEOUT=0)."""
    monkeypatch.setenv("LLMFAITH_IDLE_TIMEOUT", str(DEFAULT_IDLE_TIMEOUT))


@pytest.fixture(scope="session")
def real_model() -> LocalModel:
    """The installed default model, resolved before any test redirects the model folder."""
    try:
        variant = choose(None).variant
        if not variant.installed():
            raise LocalJudgeUnavailable(f"llama-cpp-python is not installed ({variant.name} kernels, "
                                        f"{variant.folder()})")
        return resolve_local_model("local")
    except LocalJudgeUnavailable as exc:
        if os.environ.get("LLMFAITH_REQUIRE_LOCAL") == "1":
            pytest.fail(f"LLMFAITH_REQUIRE_LOCAL=1 but the offline judge is unavailable: {exc}")
        pytest.skip(f"offline judge not installed: {exc}")


@pytest.fixture(scope="session")
def machine_variant(real_model: LocalModel) -> str:
    """The kernel variant this machine's runs use (read before any test moves the user cache)."""
    return choose(real_model.path).variant.name


@pytest.fixture
def model_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty private model folder, so no test touches the user's real cache."""
    folder = tmp_path / "models"
    monkeypatch.setenv("LLMFAITH_MODEL_DIR", str(folder))
    monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", "portable")  # no kernel proof with a test's fake model
    return folder


@pytest.fixture
def make_chunks(tmp_path: Path) -> Callable[[list[bytes]], list[Path]]:
    """Write the given byte strings as chunk files, in order."""

    def make(contents: list[bytes]) -> list[Path]:
        folder = tmp_path / "chunks"
        folder.mkdir(exist_ok=True)
        paths = []
        for index, data in enumerate(contents, start=1):
            path = folder / f"part{index:02d}.bin"
            path.write_bytes(data)
            paths.append(path)
        return paths

    return make


@pytest.fixture
def fake_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[Variant, str], Path]:
    """A private user cache; call the result to put a llama_cpp package with a given
    `__init__.py` in a variant's folder there."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))

    def build(variant: Variant, body: str = "") -> Path:
        package = variant.folder() / "llama_cpp"
        package.mkdir(parents=True, exist_ok=True)
        (package / "__init__.py").write_text(body)
        return package

    return build


@pytest.fixture
def fake_runtime(model_dir: Path, fake_build: Callable[[Variant, str], Path],
                 monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """The launcher starts tests/local/fake_judge_server.py (no llama.cpp, no weights), in a
    private model folder and user cache with a portable build that imports and is never called;
    call the result to switch the runtime identity, as another checkout."""
    from pytest_llmfaith.local import launcher

    fake_build(PORTABLE, "")
    monkeypatch.setattr(launcher, "SERVER_MODULE", "fake_judge_server")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(Path(__file__).parent),
                                                                   os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("LLMFAITH_IDLE_TIMEOUT", "30")

    def use(runtime: str) -> None:
        monkeypatch.setattr(launcher, "runtime_identity", lambda variant=None: runtime)

    use("runtime-a")
    return use


@pytest.fixture
def fake_model(model_dir: Path, tmp_path: Path) -> LocalModel:
    """A GGUF-looking file: enough for `local:PATH` and for the fake server, which never reads it."""
    path = tmp_path / "fake.gguf"
    path.write_bytes(b"GGUF" + b"\0" * 64)
    return resolve_local_model(f"local:{path}")


@pytest.fixture
def offline_server(engine: Callable[[dict[str, Any]], dict[str, Any]], serve_engine: Callable[..., Any]) -> Any:
    """The offline judge's server in this process, on the module's `engine` fixture."""
    return serve_engine(engine)


@pytest.fixture
def serve_engine() -> Iterator[Callable[[Callable[[dict[str, Any]], dict[str, Any]]], Any]]:
    """Serve an engine (llama_cpp's kwargs in, its completion out) in this process, on the offline
    judge's own server (model "fake-model"); call the result with the engine, get the server."""
    from pytest_llmfaith.local.server import OfflineServer

    servers: list[OfflineServer] = []

    def serve(engine: Callable[[dict[str, Any]], dict[str, Any]]) -> OfflineServer:
        servers.append(OfflineServer(engine, name="fake-model", sha256="ab" * 32, idle_timeout=60))
        threading.Thread(target=servers[-1].serve_forever, daemon=True).start()
        return servers[-1]

    yield serve
    for server in servers:
        server.stop("the test is over")
        server.server_close()
