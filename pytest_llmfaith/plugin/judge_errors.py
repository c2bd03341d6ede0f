"""How a judge error shows in pytest: a JUnit <error> (infrastructure, not a verdict on the code),
and a traceback that ends at the user's llmfaith call."""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType

import pytest

PACKAGE_DIR = str(Path(__file__).parents[1]) + os.sep  # frames in it are the plugin's


def hide_plugin_frames(excinfo: pytest.ExceptionInfo[BaseException]) -> None:
    """End the traceback at the user's llmfaith call: with `pytest -l` the plugin's frames would
    print locals holding the API key. Cut from the exception itself, so no traceback style shows them."""
    tb: TracebackType | None = excinfo.tb
    last_user: TracebackType | None = None
    while tb is not None and not tb.tb_frame.f_code.co_filename.startswith(PACKAGE_DIR):
        last_user, tb = tb, tb.tb_next
    if tb is not None and last_user is not None:
        last_user.tb_next = None
        excinfo.traceback = type(excinfo.traceback)(excinfo.tb)


def junit_error(config: pytest.Config, report: pytest.TestReport) -> None:
    """pytest's JUnit writer files every failed call as a <failure>; a judge error is an <error>
    (infrastructure, not a verdict on the code), so its element is renamed once written.

    pytest has no public way to say so: this reaches its writer through `_pytest.junitxml.xml_key`.
    A pytest without it, or whose writer is shaped otherwise, leaves the <failure> as it is: the
    terminal still says ERROR (tests/plugin/test_faults.py shows both)."""
    try:
        from _pytest.junitxml import xml_key
    except ImportError:
        return
    xml = config.stash.get(xml_key, None)
    if xml is None:
        return
    try:
        nodes = [node for node in xml.node_reporter(report).nodes if node.tag == "failure"]
        counts = xml.stats
        counts["failure"], counts["error"] = counts["failure"] - len(nodes), counts["error"] + len(nodes)
    except (AttributeError, KeyError, TypeError):
        return
    for node in nodes:
        node.tag = "error"
        node.set("message", report.llmfaith_error)
