"""Shared by the review page's browser tests: headless chromium, and reading the DOM it dumps."""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium")


def browse(url: str, *flags: str, tmp: Path) -> str:
    """chromium's output for the URL: with --dump-dom, the DOM once the page's script ran."""
    profile = tmp / f"profile-{len(list(tmp.glob('profile-*')))}"
    assert CHROMIUM is not None
    done = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                           f"--user-data-dir={profile}", *flags, url], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


class Dom(HTMLParser):
    """What the dumped DOM shows: the root's attributes, the page's text (not its script or style),
    and per result card its classes, whether it is hidden, its text, its marks (where, verdict class,
    text), its claims and its sparkline."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.root: dict[str, str | None] = {}
        self.cards: list[dict[str, Any]] = []
        self.text: list[str] = []
        self._zone: str | None = None  # "out" or "ctx" inside a text block of a card
        self._mark: list[Any] | None = None
        self._claim: list[str] | None = None
        self._card: dict[str, Any] | None = None
        self._code = False  # inside <script> or <style>: not the page's text
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag in ("script", "style"):
            self._code = True
        if tag == "html":
            self.root = a
        elif tag == "article":
            self._card = {"id": a["id"], "class": classes, "hidden": "hidden" in a, "text": [], "marks": [],
                          "claims": [], "spark": None, "tip": []}
            self.cards.append(self._card)
        elif self._card is None:
            return
        elif tag == "div" and "txt" in classes:
            self._zone = "out" if "out" in classes else "ctx"
        elif tag == "mark":
            self._mark = [self._zone, classes[0], ""]
            self._card["marks"].append(self._mark)
        elif tag == "li" and "data-n" in a:
            self._claim = []
        elif tag == "polyline":
            self._card["spark"] = a["points"]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._code = False
        if tag == "article":
            self._card = None
        elif tag == "div":
            self._zone = None
        elif tag == "mark":
            self._mark = None
        elif tag == "li" and self._claim is not None and self._card is not None:
            self._card["claims"].append(" ".join(" ".join(self._claim).split()))
            self._claim = None

    def handle_data(self, data: str) -> None:
        if self._code:
            return
        self.text.append(data)
        if self._card is not None:
            self._card["text"].append(data)
            if self.lasttag == "title":
                self._card["tip"].append(data)
        if self._mark is not None:
            self._mark[2] += data
        if self._claim is not None:
            self._claim.append(data)

    def card(self, test: str) -> dict[str, Any]:
        """The one card of this test id (with its label, if any)."""
        found = [c for c in self.cards if name(c) == test]
        assert len(found) == 1, [name(c) for c in self.cards]
        return found[0]

    def words(self) -> str:
        return " ".join(" ".join(self.text).split())


def words(card: dict[str, Any]) -> str:
    """A card's texts, one space between elements."""
    return " ".join(" ".join(card["text"]).split())


def name(card: dict[str, Any]) -> str:
    """A card's test column: after its outcome badges, up to the scorer."""
    found = re.search(r"(\S+::\S+(?: \[[^\]]*\])?) (?:faithfulness|hallucination)", words(card))
    return found.group(1) if found else ""


def open_page(path: Path, tmp: Path, fragment: str = "") -> Dom:
    return Dom(browse(path.as_uri() + fragment, "--dump-dom", tmp=tmp))



def png_size(path: Path) -> tuple[int, int]:
    width, height = struct.unpack(">II", path.read_bytes()[16:24])
    return width, height


PHONE = '''<!doctype html><html><body style="margin:0">
<iframe id="page" src="{src}" style="border:0;width:390px;height:844px"></iframe>
<script>
document.getElementById("page").onload = function () {{
  var root = this.contentDocument.documentElement;
  document.body.setAttribute("data-widths", root.scrollWidth + " " + root.clientWidth);
}};
</script></body></html>'''
