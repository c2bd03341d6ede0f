"""The embedded offline judge: a GGUF model served on 127.0.0.1 as an OpenAI-compatible API.

Importing this package never imports llama_cpp or litellm; the judge core reaches it only
through port.py.
"""

from __future__ import annotations

from pytest_llmfaith.local.kernels import identity, replay_hint
from pytest_llmfaith.local.launcher import ensure_server, shutdown_server
from pytest_llmfaith.local.models import LocalModel, resolve_local_model

__all__ = ["LocalModel", "ensure_server", "identity", "replay_hint", "resolve_local_model", "shutdown_server"]
