"""A tiny real service on the kit (processes/service.py and serving.py), for the kit's own tests:
`python -m tiny_service --dir DIR [--own-folder] [--idle-timeout S] [--ready-after S] [--never-ready]
[--exit-at-start CODE]`.

GET /health says its pid; POST /work?seconds=S answers after S seconds (a request in flight);
POST /shutdown stops it. `--ready-after` serves that much later (a slow start, as the relay's
litellm import), `--never-ready` never writes its state, `--exit-at-start` exits at once.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from pytest_llmfaith.processes.children import started_at
from pytest_llmfaith.processes.loopback import request_json
from pytest_llmfaith.processes.service import Service, ServiceFiles, ServiceState
from pytest_llmfaith.processes.serving import ServiceHandler, ServiceServer


class TinyState(ServiceState):
    name: str


def tiny_files(directory: Path, own_folder: bool = False) -> ServiceFiles[TinyState]:
    return ServiceFiles(TinyState, folder=directory if own_folder else None, state=directory / "tiny.json",
                        lock=directory / "tiny.lock", leases=directory / "tiny.leases.json",
                        starting=directory / "tiny.pid", log=directory / "tiny.log")


def healthy(state: TinyState) -> bool:
    try:
        return request_json(state.port, "/health")["pid"] == state.pid
    except (OSError, ValueError):
        return False


def tiny(directory: Path, *flags: str, own_folder: bool = False,
         start_timeout: float = 60.0) -> tuple[Service[TinyState], list[str]]:
    """The service in `directory`, and the arguments that start it with `flags`."""
    args = ["--dir", str(directory), *(["--own-folder"] if own_folder else []), *flags]
    return Service(tiny_files(directory, own_folder), "tiny_service", healthy, start_timeout), args


class TinyServer(ServiceServer[TinyState]):
    def __init__(self, files: ServiceFiles[TinyState] | None, idle_timeout: float) -> None:
        super().__init__(_Handler, files, idle_timeout=idle_timeout, idle_reason=f"idle for {idle_timeout:g} s")


class _Handler(ServiceHandler):
    server: TinyServer

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802
        self.send_json(200, json.dumps({"pid": os.getpid()}).encode())

    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        url = urlparse(self.path)
        if url.path == "/shutdown":
            self.send_json(200, b'{"status": "stopping"}')
            self.server.stop("asked to")
        elif url.path == "/work":
            with self.server.busy():
                time.sleep(float(parse_qs(url.query)["seconds"][0]))
            self.send_json(200, b'{"done": true}')
        else:
            self.send_json(404, b"{}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="tiny_service")
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--own-folder", action="store_true")
    parser.add_argument("--idle-timeout", type=float, default=60.0)
    parser.add_argument("--ready-after", type=float, default=0.0)
    parser.add_argument("--never-ready", action="store_true")
    parser.add_argument("--exit-at-start", type=int, default=None)
    args = parser.parse_args()
    print("starting", flush=True)
    if args.exit_at_start is not None:
        print(f"exiting with code {args.exit_at_start}", flush=True)
        sys.exit(args.exit_at_start)
    time.sleep(args.ready_after)
    files = tiny_files(args.dir, args.own_folder)
    server = TinyServer(files, args.idle_timeout)
    if args.never_ready:
        server.serve_forever()
    server.serve(TinyState(pid=os.getpid(), started=started_at(os.getpid()), port=server.port, name="tiny"),
                 f"serving on 127.0.0.1:{server.port}")


if __name__ == "__main__":
    main()
