"""Identifiers: what only code writes, marked by its own characters. A lower-case identifier is no
name by its capitals, yet "timeout_s" beside the context's "timeout_ms" is as plainly not given, so
code asks about it whole where the context never writes it whole; what it stands for is the judge's
question."""

from __future__ import annotations

import regex

_SPACE = regex.compile(r"\s+")

_IDENTIFIER = regex.compile(
    r"`([^`\s](?:[^`\n]{0,58}[^`\s])?)`"  # a code span (no space inside its backticks: "` quoted '" is none)
    r"|(?<![\w/@.:-])(?:https?://|www\.)[^\s<>\"'`]*[^\s<>\"'`.,;:!?)\]]"  # a web address
    r"|(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+"  # an e-mail address
    r"|(?<![\w-])--?[A-Za-z](?:[\w-]*\w)?(?![\w-])"  # a command-line option ("-lrb-" is none)
    r"|(?<![\w/:.])(?:~|\.{1,2})?(?:/[\w.-]*[\w-])+/?"  # a path from a root or a folder
    r"|(?<![\w.])_*[A-Za-z][A-Za-z0-9]*(?:_+[A-Za-z0-9]+)+_*(?:\(\))?"  # snake_case, UPPER_CASE
    r"|(?<![\w.])[a-z_][a-z0-9_]+(?:\.[a-z0-9_]+)*\.[a-z0-9_]{2,}(?:\(\))?(?!\w)"  # a file, module or host
    r"|(?<![\w.])[a-z_]\w*\(\)"  # a call
    r"|(?<![\w.-])[A-Za-z][A-Za-z0-9.]*(?:-[A-Za-z0-9.]*[A-Za-z0-9])+(?<=\d[A-Za-z0-9.-]*)(?![\w-])", regex.ASCII)
    # a name a hyphen joins to a number, from a letter ("gpt-4o-mini", "claude-3-haiku"; "30-day" is none)
"""Its own characters (an underscore, "--", "@", "/", a dot inside a word, "()") or backticks mark
an identifier, so no word of prose is one. A dot between letters makes one only between pieces of
two letters or more ("config.yaml", "os.path"; "e.g.", "m.in." and "p.ej." are abbreviations), and
a hyphen only where a digit is in it and a letter starts it ("gpt-4o-mini"; "30-day" and
"well-known" are words of prose)."""


def identifiers(text: str) -> list[tuple[str, tuple[int, int]]]:
    """Each identifier the text writes (`_IDENTIFIER`), as written, with its span."""
    return [(match.group(1) or match.group(), match.span()) for match in _IDENTIFIER.finditer(text)
            if (match.group(1) or match.group()).strip()]


def written_whole(name: str, text: str) -> bool:
    """Whether a folded text writes the folded identifier whole: not inside a longer one ("timeout_s"
    is not in "timeout_seconds", "gpt-4o" not in "gpt-4o-mini"), a call by its name ("get_user()" is
    in "get_user(id)"), an address with or without its last slash."""
    wanted = _SPACE.sub(" ", name).strip().rstrip("/")
    if wanted.endswith("()"):  # a call by its name, with its brackets where the name is a word of prose
        wanted = wanted[:-2] + ("" if regex.search(r"[_.]", wanted) else "(")
    end = "" if wanted.endswith("(") else r"(?![\w]|[-.]\w)"
    return bool(regex.search(rf"(?<!\w|\w[-.]){regex.escape(wanted)}{end}", _SPACE.sub(" ", text)))
