"""How a line quotes text (wording.py): by display width, never through a word (issue 34.5)."""

from __future__ import annotations

import pytest

from pytest_llmfaith.wording import error_line, shorten, width


@pytest.mark.parametrize("text, limit, shown", [
    ("担当は田中さくらさんで、営業部に所属しています。", 20, "担当は田中…"),  # never "田中さくらさ…"
    ("The quick brown fox jumps over the lazy dog", 20, "The quick brown fox…"),
    ("株式会社ノルトリヒトの田中です", 16, "株式会社…"),
    ("short", 10, "short"),
])
def test_quotes_are_cut_by_display_width_never_through_a_word(text, limit, shown):
    assert shorten(text, limit) == shown and width(shorten(text, limit)) <= limit


def test_an_error_line_ends_with_the_command_its_message_ends_with():
    message = ("the weights are not installed (looked for /m.gguf). Install them with:\n"
               "    python -m pytest_llmfaith local install")
    assert error_line(message) == ("the weights are not installed (looked for /m.gguf). Install them with: "
                                   "python -m pytest_llmfaith local install")
