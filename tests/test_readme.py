"""The README's promises that code can check: its options table is the plugin's options."""

from __future__ import annotations

import re
from pathlib import Path

from pytest_llmfaith.settings import OPTIONS

README = Path(__file__).resolve().parent.parent / "README.md"


def _table_rows() -> dict[str, tuple[str, str]]:
    rows = {}
    for line in README.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0].startswith("`--llm"):
            flag = re.match(r"`(--[a-z-]+)", cells[0])
            assert flag, line
            rows[flag.group(1)] = (cells[1].strip("`"), cells[2].strip("`"))
    return rows


def test_the_options_table_lists_every_option_with_its_ini_key_and_variable():
    rows = _table_rows()
    assert sorted(rows) == sorted(o.flag for o in OPTIONS)
    for option in OPTIONS:
        assert rows[option.flag] == (option.name, option.env), option.flag


def test_the_readme_stays_a_five_minute_read():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 300
