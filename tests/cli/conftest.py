"""Every test here runs the command line or the plugin against the loopback judge, with a clean environment."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _inner_run_environment(litellm_warmed_up: None, clean_env: None) -> None:
    """litellm warmed up in this process and a clean environment (tests/conftest.py), for every test."""
