"""Where a claim sits in the output and which context sentence it rests on, for the review page.

The judge returns claims as its own sentences, not as offsets: the page finds them again by the
longest runs of words they share with the output (letter by letter in scripts written without
spaces), and a claim's evidence by the sentence its reason quotes, else the context sentence
sharing most of its words. A claim found nowhere is listed, not marked at a guess.
"""

from __future__ import annotations

from functools import lru_cache

import regex

# a word, or one letter of a script written without spaces (Chinese, Japanese, Thai...)
_SPACELESS = r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}\p{Tibetan}]"
_LETTER = rf"[[\p{{L}}\p{{N}}]--{_SPACELESS}]"
_TOKEN = regex.compile(rf"{_SPACELESS}\p{{M}}*|{_LETTER}[{_LETTER}\p{{M}}]*", regex.VERSION1)
# up to a full stop that ends it: "4.99" and "e.g." inside a sentence do not
_SENTENCE = regex.compile(r"(?:[^\n.!?。！？؟।]|[.!?](?=[^\s.!?]))+(?:[.!?。！？؟।]+|$)")
_SPACELESS_RE = regex.compile(_SPACELESS)
_QUOTE = regex.compile(r"“([^”]{3,})”")
_BRIDGE = 3  # at most this many unmatched words between two runs of a claim: one mark
MIN_COVERED = 0.5  # a claim is located when its runs cover more than this share of its words
SHARED = 0.4  # a claim rests on the context sentence sharing most of its words, at least this share

Token = tuple[str, int, int]  # casefolded word, start, end


def tokens(text: str) -> list[Token]:
    return [(m.group().casefold(), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def claim_spans(claim: str, output: list[Token]) -> list[tuple[int, int]]:
    """The character spans of the output that say the claim, [] unless more than half its words are found.

    Longest common runs first, each run kept only near the first one (a claim is said in one
    place), runs of one word only once a longer run anchored the claim."""
    want = [t[0] for t in tokens(claim)]
    if not want or not output:
        return []
    runs = _common_runs(want, [t[0] for t in output])
    if runs:  # after the anchor, the runs nearest to it first
        anchor = runs[0][2]
        runs[1:] = sorted(runs[1:], key=lambda r: (-r[0], abs(r[2] - anchor)))
    used_claim: set[int] = set()
    used_out: set[int] = set()
    picked: list[tuple[int, int]] = []  # output token ranges [start, end)
    for length, ci, oj in runs:
        if length == 1 and not picked and len(want) > 2:
            break
        if length == 1 and len(want[ci]) == 1:  # one letter of Chinese, Thai...: too common to place a claim
            continue
        if picked and not (picked[0][0] - len(want) <= oj and oj + length <= picked[0][1] + len(want)):
            continue
        if used_claim.intersection(range(ci, ci + length)) or used_out.intersection(range(oj, oj + length)):
            continue
        used_claim.update(range(ci, ci + length))
        used_out.update(range(oj, oj + length))
        picked.append((oj, oj + length))
    if len(used_claim) <= MIN_COVERED * len(want):
        return []
    merged: list[list[int]] = []
    for start, end in sorted(picked):
        if merged and start - merged[-1][1] <= _BRIDGE:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(output[s][1], output[e - 1][2]) for s, e in merged]


def _common_runs(want: list[str], have: list[str]) -> list[tuple[int, int, int]]:
    """Every maximal run of words shared by the claim and the output as (length, claim start,
    output start), longest first; cost proportional to the matching word pairs, not to len × len."""
    where: dict[str, list[int]] = {}
    for j, word in enumerate(have):
        where.setdefault(word, []).append(j)
    runs = []
    previous: dict[int, int] = {}
    for i, word in enumerate(want + [""]):
        current = {j: previous.get(j - 1, 0) + 1 for j in where.get(word, [])} if word else {}
        runs += [(n, i - n, j - n + 1) for j, n in previous.items() if current.get(j + 1) is None]
        previous = current
    return sorted(runs, key=lambda r: (-r[0], r[2], r[1]))


@lru_cache(maxsize=1024)
def sentences(passage: str) -> tuple[tuple[int, int], ...]:
    """The sentences of a context passage as spans, without their surrounding blanks."""
    spans = []
    for m in _SENTENCE.finditer(passage):
        text = m.group()
        start = m.start() + len(text) - len(text.lstrip())
        end = m.end() - (len(text) - len(text.rstrip()))
        if end > start:
            spans.append((start, end))
    return tuple(spans)


def evidence(claim: str, reason: str, context: list[str]) -> tuple[int, int, int] | None:
    """(passage, start, end) of the context the claim rests on: the sentence of the last quote of
    the reason found in the context (the label verdicts quote their evidence last), else the sentence
    sharing most words with the claim (at least two and 40 % of them)."""
    for quote in reversed(_QUOTE.findall(reason)):
        pattern = regex.compile(r"\s+".join(regex.escape(w) for w in quote.split()), regex.IGNORECASE)
        for p, passage in enumerate(context):
            found = pattern.search(passage)
            if found:  # the whole sentence, when the quote is a part of it ("30 days")
                start, end = next(((a, b) for a, b in sentences(passage) if a <= found.start() < b),
                                  (found.start(), found.end()))
                return p, start, max(end, found.end())
    words = terms(claim)
    best, best_shared = None, 0
    for p, passage in enumerate(context):
        for start, end in sentences(passage):
            shared = len(words & terms(passage[start:end]))
            if shared > best_shared:
                best, best_shared = (p, start, end), shared
    return best if best_shared >= max(min(2, len(words)), SHARED * len(words)) else None


@lru_cache(maxsize=4096)  # a context's sentences are compared with every claim of the output
def terms(text: str) -> frozenset[str]:
    """The words of a text, and in scripts without spaces the pairs of adjacent letters (one
    letter says little: 的, の)."""
    found = tokens(text)
    pairs = {a[0] + b[0] for a, b in zip(found, found[1:]) if a[2] == b[1] and len(a[0]) == len(b[0]) == 1}
    return frozenset({t[0] for t in found if len(t[0]) > 1 or not _SPACELESS_RE.match(t[0])} | pairs)
