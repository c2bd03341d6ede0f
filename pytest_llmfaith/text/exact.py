"""Exact comparisons of texts, in any script and language: where the output says a quoted
stretch, which of its tokens the context never writes, and which context sentences share the
most characters with it. Nothing here knows a word of any language: Unicode normalisation,
case, white space and quote marks are folded, and every other character must match.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import lru_cache

import regex

from pytest_llmfaith.text.sentences import sentences

ELLIPSIS = regex.compile(r"\s*(?:…|\.\.\.)\s*")
"""Between the separate stretches of one quote ("Acme … in Oslo")."""
_SAME_MARKS = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "`": "'", "´": "'", "“": '"', "”": '"', "„": '"',
                             "«": '"', "»": '"', "‐": "-", "‑": "-", "–": "-", "—": "-"})
_SPACE = regex.compile(r"\s+")
_EDGES = " \t\n.,;:!?。、，！？؟\"'()[]「」"  # a stretch may be quoted with or without them
_SPACELESS = r"\p{Han}\p{Hiragana}\p{Katakana}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}\p{Tibetan}"
_SPACED = rf"[[\p{{L}}\p{{M}}\p{{N}}]--[{_SPACELESS}]]"
_TOKEN = regex.compile(rf"[{_SPACELESS}]+|{_SPACED}+(?:[.,']{_SPACED}+)*", regex.VERSION1)
_IS_SPACELESS = regex.compile(rf"[{_SPACELESS}]")
_IS_SPACED = regex.compile(_SPACED, regex.VERSION1)
Span = tuple[int, int]


@lru_cache(maxsize=512)
def folded(text: str) -> tuple[str, tuple[int, ...]]:
    """The text as compared (NFKC, case-folded, one space for any white space, one form of each quote
    mark and dash), and for each of its characters the offset in `text` it came from."""
    out: list[str] = []
    where: list[int] = []
    for i, char in enumerate(text):
        for piece in unicodedata.normalize("NFKC", char).casefold().translate(_SAME_MARKS):
            if piece.isspace():
                if not out or out[-1] == " ":
                    continue
                piece = " "
            out.append(piece)
            where.append(i)
    return "".join(out), tuple(where)


def fold(text: str) -> str:
    return _SPACE.sub(" ", folded(text)[0]).strip()


def stretches(words: str) -> list[str]:
    """The separate stretches of a quote, without the marks around them ("Acme … in Oslo" is two)."""
    return [s for s in (p.strip(_EDGES) for p in ELLIPSIS.split(words)) if _TOKEN.search(s)]


def locate(words: str, text: str, start: int = 0) -> list[Span] | None:
    """Where `text` says each stretch of `words` (at or after the character `start`, each stretch
    after the one before), as character spans of `text`; None if a stretch (or the whole quote,
    when it has no letter or digit) is not there. A quote found whole is not split at an ellipsis
    it holds ("Wait... what?"). A stretch starts and ends where a word does ("compatible" is not
    found in "incompatible"). A quote whose words are all the text's, in its order, but with
    words of the text left out between them, is found as those stretches, as if their gaps had
    been marked "…" (at most MAX_STRETCHES, in one sentence): the left-out words are then the
    judge's to read."""
    body, where = folded(text)
    begin = next((k for k, offset in enumerate(where) if offset >= start), len(body))
    whole = next((w for w in (words.strip(), words.strip(_EDGES)) if fold(w) and _find(body, fold(w), begin) >= 0),
                 None)
    spans = _in_turn([whole] if whole is not None else stretches(words), body, begin)
    if spans is not None:
        return [(where[a], where[b - 1] + 1) for a, b in spans]
    gapped = _in_order(tokens(words), body, begin) if whole is None else None
    found = None if gapped is None else [(where[a], where[b - 1] + 1) for a, b in gapped]
    return found if found is not None and len(sentences_of(found, text)) == 1 else None


MAX_STRETCHES = 3
"""A quote's words found with more gaps than this are no quote of the text, but words it happens to use."""
INF = float("inf")


def _in_turn(parts: list[str], body: str, begin: int) -> list[Span] | None:
    """Each part found whole, each after the one before, as spans of `body`."""
    spans = []
    for part in parts:
        wanted = fold(part)
        at = _find(body, wanted, begin) if wanted else -1
        if at < 0 or not _TOKEN.search(wanted):
            return None
        spans.append((at, at + len(wanted)))
        begin = at + len(wanted)
    return spans or None


def _find(body: str, wanted: str, begin: int) -> int:
    """The first place of `wanted` in `body` from `begin` that starts and ends where a word does
    (in a script written with spaces; any place in one without)."""
    at = body.find(wanted, begin)
    while at >= 0:
        inside = (at > 0 and _IS_SPACED.match(body[at - 1]) and _IS_SPACED.match(wanted[0])) or \
                 (at + len(wanted) < len(body) and _IS_SPACED.match(body[at + len(wanted)])
                  and _IS_SPACED.match(wanted[-1]))
        if not inside:
            return at
        at = body.find(wanted, at + 1)
    return -1


def _in_order(wanted: list[str], body: str, begin: int) -> list[Span] | None:
    """The tokens `wanted`, each one of `body`'s whole tokens, in order, in the fewest stretches
    of consecutive tokens (the first such on a tie); None past MAX_STRETCHES."""
    found = [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(body, begin)]
    if not wanted or not found:
        return None
    # cost[j]: fewest stretches for the tokens so far, the last one matched at found[j]
    cost: list[float] = [1.0 if token == wanted[0] else INF for _, _, token in found]
    back: list[list[int]] = []
    for token in wanted[1:]:
        step, came, best, best_at = [INF] * len(found), [-1] * len(found), INF, -1
        for j, (_, _, here) in enumerate(found):
            if here == token:
                if j and cost[j - 1] < INF and cost[j - 1] <= best + 1:
                    step[j], came[j] = cost[j - 1], j - 1
                elif best < INF:
                    step[j], came[j] = best + 1, best_at
            if j and cost[j - 1] < best:  # a gap after found[j - 1]: only before a later token
                best, best_at = cost[j - 1], j - 1
        back.append(came)
        cost = step
    last = min(range(len(found)), key=lambda j: cost[j])
    if cost[last] > MAX_STRETCHES:
        return None
    chain = [last]
    for came in reversed(back):
        chain.append(came[chain[-1]])
    chain.reverse()
    spans = [(found[chain[0]][0], found[chain[0]][1])]
    for before, j in zip(chain, chain[1:]):
        spans[-1:] = [(spans[-1][0], found[j][1])] if j == before + 1 else [spans[-1], (found[j][0], found[j][1])]
    return spans



@lru_cache(maxsize=256)
def sentence_spans(text: str) -> tuple[tuple[str, Span], ...]:
    """The text's sentences (text/sentences.py) with where each stands in it."""
    found, start = [], 0
    for sentence in sentences(text):
        at = text.find(sentence, start)
        if at < 0:  # a sentence joined across a line break: found by its first line
            at = text.find(sentence.split(" ", 1)[0], start)
        at = max(at, start)
        found.append((sentence, (at, at + len(sentence))))
        start = at + len(sentence)
    return tuple(found)


def sentences_of(spans: Sequence[Span], text: str) -> list[int]:
    """The indexes of the sentences of `text` that the spans touch, in order."""
    return [i for i, (_, (start, end)) in enumerate(sentence_spans(text))
            if any(a < end and start < b for a, b in spans)]


_WORD_CHAR = regex.compile(r"[\p{L}\p{M}\p{N}]")


def left_bare(text: str, span: Span, quoted: Sequence[Span]) -> bool:
    """Whether a letter or digit of `text[span]` stands outside every quoted span: words no claim
    quotes ("It is not true that", a "not" between two quotes)."""
    start, end = span
    covered = [False] * (end - start)
    for a, b in quoted:
        for i in range(max(a, start), min(b, end)):
            covered[i - start] = True
    return any(not covered[i - start] and _WORD_CHAR.match(text[i]) for i in range(start, end))


def tokens(text: str) -> list[str]:
    """Runs of letters and digits ("1,200" and "O'Brien" whole), each run of a script written
    without spaces whole."""
    return _TOKEN.findall(fold(text))


@lru_cache(maxsize=64)
def _written(context: tuple[str, ...]) -> tuple[frozenset[str], str]:
    text = "\n".join(fold(c) for c in context)
    found = _TOKEN.findall(text)
    return frozenset(found) | {_bare(t) for t in found}, text


def _bare(token: str) -> str:
    """"U.K." as "UK", "O'Brien" as "OBrien": the marks inside a token are not its letters."""
    return token.replace(".", "").replace(",", "").replace("'", "")


_NAMED = regex.compile(r"\p{Lu}|\p{Lt}|\p{N}")


def _naming(token: str, original: str) -> bool:
    """A token that can be a name or a number: in a script with case, one written with a capital or
    a digit; in a script without case, any."""
    return bool(_NAMED.search(original)) or not any(c.lower() != c.upper() for c in original)


def unwritten(words: str, context: Sequence[str]) -> list[str]:
    """The tokens of `words` that can be names or numbers (`_naming`) and that the context never
    writes: a spaced token not as a token of the context, a run of a script without spaces by its
    stretches no two-character piece of the context covers. What they stand for is the judge's
    question, never this function's."""
    written, text = _written(tuple(context))
    missing: list[str] = []
    for original in _TOKEN.findall(unicodedata.normalize("NFKC", words).translate(_SAME_MARKS)):
        token = original.casefold()
        if not _naming(token, original):
            continue
        if _IS_SPACELESS.match(token):
            missing += _uncovered(token, text)
        elif token not in written and _bare(token) not in written:
            missing.append(token)
    return list(dict.fromkeys(missing))


def _uncovered(run: str, text: str) -> list[str]:
    """The stretches of a spaceless run that no two characters of the context cover."""
    if run in text:
        return []
    covered = [False] * len(run)
    for i in range(len(run) - 1):
        if run[i:i + 2] in text:
            covered[i] = covered[i + 1] = True
    if len(run) == 1:
        covered[0] = run in text
    found, start = [], None
    for i, done in enumerate([*covered, True]):
        if not done and start is None:
            start = i
        elif done and start is not None:
            found.append(run[start:i])
            start = None
    return found


def _grams(text: str) -> frozenset[str]:
    """Character pieces of each token: pairs in scripts written without spaces, triples elsewhere."""
    found: set[str] = set()
    for token in tokens(text):
        n = 2 if _IS_SPACELESS.match(token) else 3
        padded = token if n == 2 else f" {token} "
        found.update(padded[i:i + n] for i in range(max(len(padded) - n + 1, 1)))
    return frozenset(found)


@lru_cache(maxsize=32)
def _context_sentences(context: tuple[str, ...]) -> tuple[tuple[str, frozenset[str]], ...]:
    return tuple((s, _grams(s)) for item in context for s in sentences(item))


def nearest_sentences(text: str, context: Sequence[str], count: int, share: float = 0.0) -> list[str]:
    """The `count` context sentences sharing the most character pieces with `text` (at least
    `share` of its pieces that are not in every sentence, as a product's name is), in context order."""
    found = _context_sentences(tuple(context))
    everywhere = frozenset.intersection(*(g for _, g in found)) if len(found) > 1 else frozenset()
    wanted = _grams(text) - everywhere
    best = sorted(range(len(found)), key=lambda i: -len(wanted & found[i][1]))[:count]
    return [found[i][0] for i in sorted(best)
            if wanted & found[i][1] and len(wanted & found[i][1]) >= share * len(wanted)]


_QUOTED = regex.compile(r"[“\"«„‘']([^“”\"«»„‘’']{4,})[”\"»“’']")


def quoted_sentence(reason: str, context: Sequence[str]) -> str:
    """The context sentence holding a stretch the reason quotes, exactly; "" if it quotes none."""
    for match in _QUOTED.finditer(reason):
        wanted = fold(match[1])
        for sentence, _ in _context_sentences(tuple(context)):
            if wanted and wanted in fold(sentence):
                return sentence
    return ""


_AMOUNT = regex.compile(rf"(?P<before>[^\w\s])?(?P<number>\d(?:[\d.,\u00a0\u202f]*\d)?)\s?"
                        rf"(?P<after>[{_SPACELESS}]|%|[[\p{{L}}\p{{M}}]--[{_SPACELESS}]]+)?", regex.VERSION1)


@lru_cache(maxsize=256)
def amounts(text: str) -> tuple[tuple[str, str, str], ...]:
    """Each number with what it counts, exactly as written (folded): (number, unit, the text of
    both). The unit is a symbol right before the number ("$", "€"), else the token right after it
    ("people", "Liter", "名"); a number with neither has none and is left out. Cached: a context
    is read for every supported claim, and again on every cached re-run."""
    found = []
    for match in _AMOUNT.finditer(fold(text)):
        unit = match["before"] or match["after"]
        if unit:
            shown = match["before"] + match["number"] if match["before"] else match[0].strip()
            found.append((match["number"], unit, shown))
    return tuple(found)


def other_amounts(words: str, context: Sequence[str]) -> list[tuple[str, list[str]]]:
    """The amounts of `words` whose number the context never writes with that unit, while it writes
    the unit with other numbers: ("5,3 liter", ["3,5 liter"]). Whether they are the same amount is
    the judge's question (an approximation, another unit of the same size)."""
    said = [a for c in context for a in amounts(c)]
    pairs = []
    for number, unit, shown in amounts(words):
        others = [s for n, u, s in said if u == unit]
        if others and not any(n == number for n, u, _ in said if u == unit):
            pairs.append((shown, list(dict.fromkeys(others))))
    return pairs
