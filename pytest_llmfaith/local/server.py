"""A minimal OpenAI-compatible chat server on 127.0.0.1 serving one GGUF model, on the kit for
background services, in stdlib HTTP. One generation at a time: the model and its KV cache are
single-user, which also keeps prefixes warm.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pytest_llmfaith.local.engine import LlamaEngine
from pytest_llmfaith.local.launcher import ServerState, server_files
from pytest_llmfaith.local.prebuilt_engine import XllamaEngine
from pytest_llmfaith.processes.children import started_at
from pytest_llmfaith.processes.service import ServiceFiles
from pytest_llmfaith.processes.serving import ServiceHandler, ServiceServer

Engine = Callable[[dict[str, Any]], dict[str, Any]]
"""Takes llama_cpp `create_chat_completion` keyword arguments, returns its completion dict."""

DEFAULT_MAX_TOKENS = 1024
ENGINES = ("llama_cpp", "xllamacpp")  # --engine: the runtime's module, LlamaEngine's or XllamaEngine's


class BadRequest(ValueError):
    """The request cannot be served as sent; becomes an HTTP 400."""


class _TextPart(BaseModel):
    model_config = ConfigDict(extra="ignore")
    type: str = "text"
    text: str = ""


class ChatMessage(BaseModel):
    model_config = ConfigDict(extra="ignore")
    role: str
    content: str | list[_TextPart] | None = None

    def text(self) -> str:
        if isinstance(self.content, list):
            return "".join(part.text for part in self.content if part.type == "text")
        return self.content or ""


class ChatRequest(BaseModel):
    """The subset of an OpenAI chat request the judge uses; other fields are ignored."""

    model_config = ConfigDict(extra="ignore")
    model: str | None = None
    messages: list[ChatMessage] = Field(min_length=1)
    temperature: float = Field(0.0, ge=0)
    top_p: float | None = None
    seed: int | None = None
    max_tokens: int | None = Field(None, gt=0)
    max_completion_tokens: int | None = Field(None, gt=0)
    stop: str | list[str] | None = None
    response_format: dict[str, Any] | None = None
    stream: bool = False
    logprobs: bool = False
    top_logprobs: int | None = Field(None, ge=0, le=20)


def to_llama_kwargs(request: ChatRequest) -> dict[str, Any]:
    """Map an OpenAI chat request onto llama_cpp's `create_chat_completion` arguments."""
    if request.stream:
        raise BadRequest("streaming is not supported by the offline judge server")
    kwargs: dict[str, Any] = {
        "messages": [{"role": m.role, "content": m.text()} for m in request.messages],
        "temperature": request.temperature,
        "max_tokens": request.max_completion_tokens or request.max_tokens or DEFAULT_MAX_TOKENS,
    }
    if request.top_p is not None:
        kwargs["top_p"] = request.top_p
    if request.seed is not None:
        kwargs["seed"] = request.seed
    if request.stop:
        kwargs["stop"] = request.stop
    if request.logprobs:
        kwargs["logprobs"] = True
        kwargs["top_logprobs"] = request.top_logprobs or 5
    response_format = _response_format(request.response_format)
    if response_format is not None:
        kwargs["response_format"] = response_format
    return kwargs


def _response_format(spec: dict[str, Any] | None) -> dict[str, Any] | None:
    if spec is None or spec.get("type") == "text":
        return None
    kind = spec.get("type")
    if kind == "json_object":
        schema = spec.get("schema")
        return {"type": "json_object", **({"schema": schema} if schema else {})}
    if kind == "json_schema":
        schema = (spec.get("json_schema") or {}).get("schema")
        if not isinstance(schema, dict):
            raise BadRequest("response_format json_schema needs json_schema.schema (an object)")
        return {"type": "json_object", "schema": schema}
    raise BadRequest(f"unsupported response_format type: {kind!r}")


class OfflineServer(ServiceServer[ServerState]):
    """HTTP server holding the engine and the generation lock (the kit keeps its idle clock)."""

    def __init__(
        self,
        engine: Engine,
        *,
        name: str,
        sha256: str,
        idle_timeout: float,
        files: ServiceFiles[ServerState] | None = None,
        port: int = 0,
        runtime: str = "",
    ) -> None:
        super().__init__(_Handler, files, idle_timeout=idle_timeout, port=port, idle_reason=(
            f"no lease and no request for {idle_timeout:g} s (--llm-idle-timeout, LLMFAITH_IDLE_TIMEOUT)"))
        self.engine = engine
        self.name = name
        self.sha256 = sha256
        self.runtime = runtime  # checked by clients in /health: see launcher.runtime_identity
        self._generation = threading.Lock()

    def complete(self, request: ChatRequest) -> dict[str, Any]:
        kwargs = to_llama_kwargs(request)
        with self._generation:
            result = self.engine(kwargs)
        result["model"] = request.model or self.name
        return result


class _Handler(ServiceHandler):
    server: OfflineServer

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        with self.server.busy():
            if self.path == "/health":
                self._send(200, {"status": "ok", "pid": os.getpid(), "model": self.server.name,
                                 "sha256": self.server.sha256, "runtime": self.server.runtime})
            elif self.path == "/v1/models":
                self._send(200, {"object": "list", "data": [
                    {"id": self.server.name, "object": "model", "created": 0, "owned_by": "local"}]})
            else:
                self._error(404, f"no such endpoint: GET {self.path}")

    def do_POST(self) -> None:  # noqa: N802
        with self.server.busy():
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.path == "/shutdown":
                self._send(200, {"status": "stopping"})
                self.server.stop("shutdown asked (its last lease given up, or `local stop`)")
            elif self.path == "/v1/chat/completions":
                self._chat(body)
            else:
                self._error(404, f"no such endpoint: POST {self.path}")

    def _chat(self, body: bytes) -> None:
        try:
            request = ChatRequest.model_validate_json(body)
            result = self.server.complete(request)
        except ValidationError as exc:
            self._error(400, f"invalid chat request: {exc.errors(include_url=False)}")
        except ValueError as exc:  # BadRequest, context overflow, schema llama.cpp cannot compile
            self._error(400, str(exc))
        except Exception as exc:  # noqa: BLE001 - the client must get an answer, not a reset
            self._error(500, f"generation failed: {type(exc).__name__}: {exc}")
        else:
            self._send(200, result)

    def _error(self, status: int, message: str) -> None:
        kind = "invalid_request_error" if status < 500 else "server_error"
        self._send(status, {"error": {"message": message, "type": kind, "code": status}})

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        self.send_json(status, json.dumps(payload, default=str).encode())


def engine_for(module: str) -> Callable[[Path, int, int], Engine]:
    """The engine that runs the runtime `module` (looked up at the call: a test's stand-in counts)."""
    return XllamaEngine if module == "xllamacpp" else LlamaEngine


def use_llama_cpp_from(folder: Path, module: str = "llama_cpp") -> None:
    """Import the runtime (llama_cpp, or xllamacpp) from `folder` (a kernel variant), not from the
    venv; an error if it is not there, so a server never runs other kernels than its runtime identity says."""
    sys.path.insert(0, str(folder))
    runtime = importlib.import_module(module)

    loaded = Path(runtime.__file__ or "").resolve()
    if not loaded.is_relative_to(folder.resolve()):
        raise ImportError(f"{module} was loaded from {loaded}, not from the kernel variant in {folder}")
    print(f"{module} from {folder}", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m pytest_llmfaith.local.server")
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--sha256", required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--run-dir", type=Path, required=True)
    parser.add_argument("--idle-timeout", type=float, required=True)  # the launcher's: the run's --llm-idle-timeout
    parser.add_argument("--n-ctx", type=int, default=8192)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--runtime", default="")
    parser.add_argument("--engine", choices=ENGINES, default="llama_cpp",
                        help="llama-cpp-python (built here) or xllamacpp (prebuilt, where no compiler is)")
    parser.add_argument("--llama-cpp-path", type=Path, default=None,
                        help="a kernel variant's folder, searched for the engine's runtime before the venv")
    args = parser.parse_args(argv)

    files = server_files(args.sha256, args.run_dir, args.runtime)
    started = time.monotonic()
    try:
        if args.llama_cpp_path is not None:
            use_llama_cpp_from(args.llama_cpp_path, args.engine)
        engine = engine_for(args.engine)(args.model, args.n_ctx, args.threads)
    except Exception as exc:  # noqa: BLE001 - one clear line in the log, read by the launcher
        print(f"cannot load {args.model}: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        raise SystemExit(1) from None
    print(f"loaded {args.model} in {time.monotonic() - started:.1f}s", flush=True)
    server = OfflineServer(engine, name=args.name, sha256=args.sha256,
                           idle_timeout=args.idle_timeout, files=files, runtime=args.runtime)
    server.serve(ServerState(pid=os.getpid(), started=started_at(os.getpid()), port=server.port,
                             sha256=args.sha256, name=args.name, model_path=args.model),
                 f"serving on 127.0.0.1:{server.port}")


if __name__ == "__main__":
    main()
