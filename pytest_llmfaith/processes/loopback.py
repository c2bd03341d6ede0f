"""Requests to a process of ours on 127.0.0.1: http.client, which never goes through a proxy
setting, and is already imported by whoever talks HTTP (urllib.request is a dozen modules more)."""

from __future__ import annotations

import json

# This machine's names for itself: a judge there is never reached through a proxy (the hosted
# transport adds its host to NO_PROXY), so these hosts in NO_PROXY change no relay's call.
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


class LoopbackError(OSError):
    """An answer with a status other than 2xx."""

    def __init__(self, status: int, body: bytes) -> None:
        super().__init__(f"HTTP {status}: {body[:200].decode(errors='replace')}")
        self.status = status
        self.body = body


def exchange(port: int, path: str, method: str = "GET", headers: dict[str, str] | None = None,
             body: bytes | None = None, timeout: float = 5) -> tuple[int, bytes]:
    """One request; the answer's status and body. A connection that fails or times out, or an
    answer that is not HTTP, raises OSError (TimeoutError for the timeout, which holds for the
    connect and each read): callers need not import http.client."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    except http.client.HTTPException as err:  # a process that died mid-answer, or is not ours
        raise ConnectionError(f"not an HTTP answer: {type(err).__name__}: {err}") from err
    finally:
        connection.close()


def request_json(port: int, path: str, method: str = "GET", headers: dict[str, str] | None = None,
                 body: bytes | None = None, timeout: float = 5) -> dict[str, object]:
    """One JSON request; an answer other than 2xx raises LoopbackError."""
    status, data = exchange(port, path, method, headers, body, timeout)
    if not 200 <= status < 300:
        raise LoopbackError(status, data)
    payload = json.loads(data)
    if not isinstance(payload, dict):
        raise ValueError("unexpected answer")
    return payload
