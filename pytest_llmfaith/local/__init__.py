"""The embedded offline judge: a GGUF model served on 127.0.0.1 as an OpenAI-compatible API.

The judge resolves a model string with `resolve_local_model` (no llama_cpp import, no
network), keys its cache with `identity` (the weights' hash and the kernel variant), and only
when a call is not cached asks `ensure_server` for the api base of the one shared server
(started on demand; see launcher.py for why one per machine). Importing this
package never imports llama_cpp or litellm.
"""

from __future__ import annotations

from pytest_llmfaith.local.kernels import identity, replay_hint
from pytest_llmfaith.local.launcher import ensure_server, shutdown_server
from pytest_llmfaith.local.models import LocalModel, resolve_local_model

__all__ = ["LocalModel", "ensure_server", "identity", "replay_hint", "resolve_local_model", "shutdown_server"]
