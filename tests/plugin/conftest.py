"""Every test here runs the plugin in inner pytest runs (pytester) against the loopback judge."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _inner_run_environment(litellm_warmed_up: None, clean_env: None) -> None:
    """litellm warmed up in this process and a clean environment (tests/conftest.py), for every test."""
