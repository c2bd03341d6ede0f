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


def test_a_quote_is_cut_to_the_width_the_line_leaves_it_and_never_to_one_word():
    reason = "not supported (P 0.12 < 0.60); nearest: “Ambalajı açılmış, kullanılmış veya hasar görmüş ürünler iade " \
             "edilmez.” (passage 2)"
    shown = shorten(reason, 100)
    assert shown == ("not supported (P 0.12 < 0.60); nearest: “Ambalajı açılmış, kullanılmış veya hasar…” "
                     "(passage 2)") and width(shown) <= 100  # the quote cut, the words after it kept
    tight = shorten("x" * 90 + " nearest: “Ambalajı açılmış ürünler iade edilmez.” and more after it", 110)
    assert tight == "x" * 90 + " nearest:…"  # no room for the quote: cut before it, not after “Ambalajı
