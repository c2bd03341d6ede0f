"""Exact comparisons of texts, in any script and language: where the output says a quoted
stretch, which of its tokens the context never writes, and which context sentences share the
most characters with it. Nothing here knows a word of any language: Unicode normalisation,
case, white space and quote marks are folded, and every other character must match.
"""

from __future__ import annotations

import functools
import unicodedata
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from difflib import SequenceMatcher
from functools import cached_property, lru_cache
from itertools import combinations, islice, takewhile
from os.path import commonprefix
from typing import Literal, NamedTuple, TypeVar

import regex

from pytest_llmfaith.text import bound_words, extreme_words, joining_words, records
from pytest_llmfaith.text.dates import MONTHS, WEEKDAYS, Time, month_names, times
from pytest_llmfaith.text.identifiers import identifiers, written_whole
from pytest_llmfaith.text.negation_words import (
    CAN,
    CONDITIONS,
    EVERY,
    HEDGES,
    NEGATION,
    as_words,
    hedges,
    negated_form,
    negations,
    of_a_sense,
    opposite_senses,
)
from pytest_llmfaith.text.number_words import PAIR_WORDS, RANK_SUFFIX, THE, Count, counts_in_words, ordinals_in_words
from pytest_llmfaith.text.sentences import after_title, sentences

ELLIPSIS = regex.compile(r"\s*(?:…|\.\.\.)\s*")
"""Between the separate stretches of one quote ("Acme … in Oslo")."""
_SAME_MARKS = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "`": "'", "´": "'", "“": '"', "”": '"', "„": '"',
                             "«": '"', "»": '"', "‐": "-", "‑": "-", "–": "-", "—": "-", "٪": "%"})
_SIGNS = str.maketrans({"™": None, "℠": None})
"""Trade mark signs: NFKC writes them as letters ("Cloud™" as "CloudTM"), a word no context writes."""
_SPACE = regex.compile(r"\s+")
_EDGES = " \t\n.,;:!?。、，！？؟\"'()[]「」"  # a stretch may be quoted with or without them
_SPACELESS = r"\p{Han}\p{Hiragana}\p{Katakana}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}\p{Tibetan}"
_SPACED = rf"[[\p{{L}}\p{{M}}\p{{N}}]--[{_SPACELESS}]]"
_TOKEN = regex.compile(rf"[{_SPACELESS}]+|[[\p{{L}}\p{{N}}]--[{_SPACELESS}]]{_SPACED}*(?:[.,']{_SPACED}+)*",
                       regex.VERSION1)
"""A token starts with a letter or digit: a mark alone is none (the variation selector of "✈️")."""
_IS_SPACELESS = regex.compile(rf"[{_SPACELESS}]")
_IS_SPACED = regex.compile(_SPACED, regex.VERSION1)
_IS_WORD = regex.compile(r"[\p{L}\p{M}\p{N}]")
Span = tuple[int, int]


@lru_cache(maxsize=512)
def folded(text: str) -> tuple[str, tuple[int, ...]]:
    """The text as compared (NFKC, case-folded, one space for any white space, one form of each quote
    mark and dash), and for each of its characters the offset in `text` it came from."""
    out: list[str] = []
    where: list[int] = []
    for i, char in enumerate(text):
        for piece in unicodedata.normalize("NFKC", char.translate(_SIGNS)).casefold().translate(_SAME_MARKS):
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
    judge's to read. Spaces beside punctuation are read as the text writes them first, then as
    if neither side wrote them: a tokenized text's "month 's", "# 500k" and "Oslo , Norway" are the
    words "month's", "#500k" and "Oslo, Norway" (spaces between letters or digits always count)."""
    body, where = folded(text)
    return (_located(words, text, start, body, where, fold)
            or _located(words, text, start, *_squeezed(body, where), lambda w: _squeezed(fold(w))[0]))


def _located(words: str, text: str, start: int, body: str, where: Sequence[int],
             norm: Callable[[str], str]) -> list[Span] | None:
    """`locate` on `body` (the text folded, `where` its offsets), with `words` folded by `norm`."""
    begin = next((k for k, offset in enumerate(where) if offset >= start), len(body))
    whole = next((w for w in (words.strip(), words.strip(_EDGES)) if norm(w) and _find(body, norm(w), begin) >= 0),
                 None)
    spans = _in_turn([norm(w) for w in ([whole] if whole is not None else stretches(words))], body, begin)
    if spans is not None:
        return [(where[a], where[b - 1] + 1) for a, b in spans]
    gapped = _in_order(_TOKEN.findall(norm(words)), body, begin) if whole is None else None
    found = None if gapped is None else [(where[a], where[b - 1] + 1) for a, b in gapped]
    return found if found is not None and len(sentences_of(found, text)) == 1 else None


def _squeezed(body: str, where: Sequence[int] = ()) -> tuple[str, tuple[int, ...]]:
    """`body` without the spaces that stand beside a character that is no letter or digit, and
    the offsets of what is kept (`where` of them, or their own)."""
    keep = [i for i, char in enumerate(body) if char != " " or
            (0 < i < len(body) - 1 and _IS_WORD.match(body[i - 1]) and _IS_WORD.match(body[i + 1]))]
    return "".join(body[i] for i in keep), tuple(where[i] if where else i for i in keep)


MAX_STRETCHES = 3
"""A quote's words found with more gaps than this are no quote of the text, but words it happens to use."""
INF = float("inf")


def _in_turn(parts: list[str], body: str, begin: int) -> list[Span] | None:
    """Each part (folded) found whole, each after the one before, as spans of `body`."""
    spans = []
    for wanted in parts:
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


_BARE = regex.compile(r"[\p{L}\p{M}\p{N}\p{S}]|[-‐-―−](?=\s*\p{N})")
"""What a reader takes as meaning: letters, digits, and symbols (❌, ≠, €, a minus sign before a number)."""


def left_bare(text: str, span: Span, quoted: Sequence[Span]) -> bool:
    """Whether a letter, digit or symbol of `text[span]` stands outside every quoted span: words no
    claim quotes ("It is not true that", a "not" between two quotes, ❌ before a line)."""
    start, end = span
    covered = [False] * (end - start)
    for a, b in quoted:
        for i in range(max(a, start), min(b, end)):
            covered[i - start] = True
    return any(not covered[i - start] and _BARE.match(text, i) for i in range(start, end))


def tokens(text: str) -> list[str]:
    """Runs of letters and digits ("1,200" and "O'Brien" whole), each run of a script written
    without spaces whole."""
    return _TOKEN.findall(fold(text))


@lru_cache(maxsize=64)
def _written(context: tuple[str, ...]) -> tuple[frozenset[str], str]:
    """The context's tokens, and each number written apart from the letters after it written
    together too: "100 MB" writes the code 100MB, "seat 14 C" 14C."""
    text = "\n".join(fold(c) for c in _as_written(context))
    found = _TOKEN.findall(text) + _TOKEN.findall(_DIGIT_THEN_LETTER.sub(r"\1\2", text))
    stems = [_stem(t) for item in _as_written(context) for t in _TOKEN.findall(item)]
    return frozenset(found) | {_bare(t) for t in found} | frozenset(stems), text


_DIGIT_THEN_LETTER = regex.compile(r"(\d)[ \u00a0\u202f]+(\p{L})")


def _bare(token: str) -> str:
    """"U.K." as "UK", "O'Brien" as "OBrien": the marks inside a token are not its letters."""
    return token.replace(".", "").replace(",", "").replace("'", "")


_GLUED = regex.compile(r"([\p{Latin}\p{N}]+)[\p{L}--\p{Latin}][\p{L}\p{M}--\p{Latin}]*",
                       regex.VERSION1)
"""A Latin name, a code or a number with letters of another script glued on: a Korean particle
("SK4705는", "CPH를", "Ingrid는", "142유로이고"), a Tamil case ending ("SK4705இல்")."""


def _clitic(piece: str, before: str = "") -> bool:
    """A piece an apostrophe joins to a word ("d'", "'s", "'in"): short and in small letters ("O'"
    is none), or one capital starting a word in small letters ("L'hôtel", not "O'Brien")."""
    return len(piece) <= 4 and piece.islower() or (len(piece) == 1 and piece.isupper() and before[:1].islower())


def _stem(original: str) -> str:
    """The token as code compares it with names and values, folded: without a clitic an apostrophe
    joins to it ("SK4705'in", "CPH'de", "d'Ingrid", "Ingrid's"; `_clitic`), nor another script's
    letters glued to it (`_GLUED`). The same token in the answer and the context, whatever its ending."""
    pieces = original.split("'")
    kept = [piece for i, piece in enumerate(pieces) if not _clitic(piece, "".join(pieces[i + 1:i + 2]))]
    word = kept[0] if len(pieces) > 1 and len(kept) == 1 else original
    glued = _GLUED.fullmatch(word)
    return fold(glued.group(1) if glued else word)


def _forms(token: str) -> tuple[str, ...]:
    """A token of the text as written, as `_bare` and as `_stem`, folded: any of them finds it."""
    return fold(token), fold(_bare(token)), _stem(token)


_CASED_CAPITAL = regex.compile(r"\p{Lu}|\p{Lt}")


def _has_digit(token: str) -> bool:
    return any(map(str.isdigit, token))


def _asked_about(original: str, starts: bool) -> bool:
    """Whether the judge is asked about a token the context never writes: one with a digit, a
    capital (`_capital`) or a script without case. Which tokens are asked costs questions, never an
    outcome: the question says that words which are no name or number do not matter, so "It" or
    "は" asked is answered yes by a correct judge."""
    return _capital(original, starts) or _has_digit(original) or \
        not any(c.lower() != c.upper() for c in original)


def _capital(original: str, starts: bool) -> bool:
    """A capital in the token (where `starts`, not its first letter: writing systems with case
    capitalise it there whatever the word)."""
    return bool(_CASED_CAPITAL.search(original[1:] if starts else original))


_UNIT_SYMBOL = regex.compile(r"[\p{Sc}%‰‱٪°]")
"""A unit written as a symbol: a currency, a percent or a degree sign ("€5" beside "£5", "5%"
beside "5 EUR"). A token like a word: asked about where the context never writes it."""


_PER = regex.compile(
    # English, German, French, Spanish, Italian, Portuguese, Dutch, Russian
    r"(?<=\d[\p{L}\p{Sc}%.,\s]{0,12})(?<![\p{L}\p{M}])(?:per|a|an|each|every|pro|je|par|por|al|à la|a la|la|ao|à|"
    r"за|в|/)\s*"
    r"(?P<period>day|night|week|month|year|hour|minute|second|person|guest|adult|child|room|stay|trip|user|seat|"
    r"ticket|item|km|mile|kg|tag|nacht|woche|monat|jahr|minuto|"
    r"stunde|gast|zimmer|aufenthalt|jour|nuit|semaine|mois|an|année|heure|personne|chambre|séjour|día|noche|"
    r"semana|mes|año|hora|persona|habitación|estancia|giorno|notte|settimana|mese|anno|ora|camera|soggiorno|dia|"
    r"noite|pessoa|quarto|estadia|dag|week|maand|jaar|uur|persoon|kamer|сутки|ночь|неделю|месяц|год|час|человека|"
    r"номер)(?![\p{L}\p{M}])", regex.IGNORECASE)
"""What an amount is counted per, after its number: "150 EUR per night", "pro Woche", "par
personne", "за ночь", "$40/day". A word like a name: asked about where the context never writes it
("per week" beside "per night"); not "a room" with no number before it."""


_STARTS = regex.compile(r"(?:^|[.!?。！？؟…]\s*|\s…\s*)[\"'“‘«(\[]*$")
"""Before a token that starts a stretch or a sentence: nothing, an end mark, or an ellipsis."""


def _starts(text: str, at: int) -> bool:
    """Whether the token at `at` starts a sentence or a stretch (`_STARTS`), not after a title ("Dr. Marie")."""
    return bool(_STARTS.search(text, 0, at)) and not after_title(text[max(0, at - 12):at])


def unwritten(words: str, context: Sequence[str], at_starts: bool = True) -> list[str]:
    """The tokens of `words` the context never writes and the judge is asked about (`_asked_about`,
    a month's name in a date and a day of the week's, whatever their case, and a unit symbol,
    `_UNIT_SYMBOL`):
    a number by its value in any digit script and grouping (`numbers`), another spaced token as a
    token of the context, a run of a script without spaces by its stretches no two-character
    piece of the context covers. What they stand for is the judge's question, never this
    function's. `at_starts=False` leaves out a token whose one capital starts a sentence or a
    stretch ("Berg booked the flight", "We open at 9"): a name or any word, as code sees it."""
    written, text = _written(tuple(context))
    missing = numbers_not_written(words, context)
    marked = unicodedata.normalize("NFKC", words.translate(_SIGNS))
    normal = marked.translate(_SAME_MARKS)  # one mark for one: a backtick becomes an apostrophe
    plain = _ascii_digits(normal)
    whole = [span for span, _ in times(plain)] + [(n.start, n.end) for n in numbers(normal) if n.scale]
    months = [start for start, _ in month_names(plain)]  # "12 juillet", "am 12. Juli": asked whatever its case
    days = _weekdays(tuple(context))
    counts = _counts(tuple(context))
    counted = {count.start: count for count in _counts_of(normal) if not _IS_SPACELESS.match(normal, count.start)}
    ranked = {rank.start: rank for rank in ordinals_in_words(normal)}
    placed = words_in_numbers_places(words, context)
    named = identifiers(marked)
    missing += [name for name, _ in named if not written_whole(fold(name), text)]
    whole += [span for _, span in named]
    for match in _TOKEN.finditer(normal):
        original = match.group()
        if any(a <= match.start() < b for a, b in whole):
            continue  # read with its time, number ("pm" of 7:20 pm, "Mrd." of 2,5 Mrd.) or identifier, whole
        token = original.casefold()
        starts = not at_starts and _starts(normal, match.start())
        day = WEEKDAYS.get(token)  # a day the context names in no form
        named_day = match.start() in months or (day is not None and day not in days)
        if count := counted.get(match.start()):
            missing += _unwritten_count(normal, count, tuple(context))
        if (rank := ranked.get(match.start())) and _unwritten_rank(rank.value, rank.also_a_word, tuple(context)):
            missing.append(fold(normal[rank.start:rank.end]))
        in_a_count = any(c.start <= match.start() < c.end and c.value in counts for c in counted.values()) or any(
            r.start <= match.start() < r.end and r.value in counts | _ranks(tuple(context)) for r in ranked.values())
        asked = named_day or _asked_about(original, starts) or (fold(original) in placed and not in_a_count)
        if not asked or (_has_digit(original) and _is_number_token(original)):
            continue
        if _IS_SPACELESS.match(token):
            missing += _uncovered(_in_digits(token, counts, text), text)
        elif token not in written and _bare(token) not in written and _stem(original) not in written \
                and not _elided(original, written):
            missing.append(token)
    missing += [symbol for symbol in _UNIT_SYMBOL.findall(normal) if fold(symbol) not in text]
    missing += [per for match in _PER.finditer(normal) if (per := fold(match["period"])) not in written]
    missing = list(dict.fromkeys(missing + _mixed_names(normal, tuple(context))))
    return _as_names(missing, normal, tuple(context))


def _as_names(missing: list[str], words: str, context: tuple[str, ...]) -> list[str]:
    """A name with a word the context never writes, and one of a name of the context, asked as the
    whole name too: "Ingrid Bergs" or "Марии Ивановой" word by word is "given" (each word another
    form of a name of the context), though the context gives no such person; the word stays asked
    alone ("Mini" of "AquaBrew Mini" beside "AquaBrew Pro" is plainly not given). The name runs from
    its first to its last word that is asked or of a name ("Ingrid Bergs" of "Ingrid Bergs Platz")."""
    names, asked = _context_names(context), set(missing)
    wholes = []
    for found in _names_of(words):
        ends = [i for i, word in enumerate(found) if word in asked or names.holds(word)]
        run = found[ends[0]:ends[-1] + 1] if ends else ()
        if len(run) > 1 and any(word in asked for word in run) and any(names.holds(word) for word in run):
            wholes.append(" ".join(run))
    return list(dict.fromkeys([*missing, *wholes]))


_JOINED = " \u00a0\u202f-"
"""What joins the words of one name: a space of any width, a hyphen ("Dahl-Berg")."""
MAX_NAME_WORDS = 6
"""Words of a name at most: a longer run of capitals is a heading in title case, and is read as none."""


@lru_cache(maxsize=64)
def _names_of(text: str) -> tuple[tuple[str, ...], ...]:
    """The runs of two to MAX_NAME_WORDS words written with a capital first and joined by one
    `_JOINED`, folded: the names a text writes whole ("Ingrid Dahl", "Grand Hotel Oslo"; a code such
    as "B21" is none). An ending ends a name ("Creem's Kurt B. Riley", "Ingrid Dahl은 Tromsø로":
    `_stem`). Cached: `unwritten` reads them twice."""
    runs: list[list[str]] = [[]]
    end, ended = -1, False
    for match in _TOKEN.finditer(text):
        word = match.group()
        capital = (word[0].isupper() or word[0].istitle()) and not _has_digit(word)
        if not (capital and runs[-1] and not ended and match.start() == end + 1 and text[end] in _JOINED):
            runs.append([])
        stem = _stem(word)
        if capital:
            runs[-1].append(stem)
        end, ended = match.end(), not fold(word).endswith(stem)
    return tuple(tuple(run) for run in runs if 1 < len(run) <= MAX_NAME_WORDS)


@dataclass(frozen=True)
class _Names:
    """The names a context writes whole (`_names_of`), read once per context."""

    lower: frozenset[str]  # its words written in lower case somewhere: common words, never a name
    homes: dict[str, frozenset[int]]  # each word of a name: which names hold it
    starts: frozenset[str]  # the first four letters of each word of a name of four or more

    def holds(self, word: str) -> bool:
        """A word of a name, in any inflection as far as a shared start of four letters tells
        ("Bergs" of Berg, "Ивановой" of Иванова): only which words are asked together hangs on it."""
        return word in self.homes or (len(word) >= 4 and word[:4] in self.starts)


@lru_cache(maxsize=64)
def _context_names(context: tuple[str, ...]) -> _Names:
    homes: dict[str, set[int]] = {}
    for n, run in enumerate(run for item in _as_written(context) for run in _names_of(item)):
        for word in run:
            homes.setdefault(word, set()).add(n)
    lower = frozenset(fold(t) for item in _as_written(context) for t in _TOKEN.findall(item) if t == t.lower())
    return _Names(lower, {w: frozenset(ns) for w, ns in homes.items()},
                  frozenset(w[:4] for w in homes if len(w) >= 4))


def _mixed_names(words: str, context: tuple[str, ...]) -> list[str]:
    """Names of the words made of two names of the context ("Ingrid Berg" beside "Ingrid Dahl" and
    "Karin Berg"; "Hotel Bristol Oslo" beside "Hotel Bristol" and "Grand Hotel Oslo"): every word is
    written, so no token is unwritten, yet the context never writes two of them in one name. Asked,
    as a token the context never writes is: a correct judge answers whether it gives the name in
    any form ("Ms Dahl" is no mix: "Ms" is of no name of the context)."""
    names = _context_names(context)
    found = []
    for run in _names_of(words):
        known = [w for w in run if w not in names.lower and w in names.homes]
        if any(not names.homes[a] & names.homes[b] for a, b in combinations(known, 2)):
            found.append(" ".join(run[run.index(known[0]):]))  # from its first word of a name: not "The"
    return found


def _elided(token: str, written: frozenset[str]) -> bool:
    """"d'Ingrid", "Ingrid's", "dell'Acme": a word the context writes, with a clitic an apostrophe
    joins to it (short and lower-case: "O'Brien" is no "Brien")."""
    pieces = token.split("'")
    return len(pieces) > 1 and any(fold(piece) in written and all(j == i or _clitic(other) for j, other in
                                                                   enumerate(pieces)) for i, piece in enumerate(pieces))


def words_in_numbers_places(words: str, context: Sequence[str]) -> frozenset[str]:
    """The tokens of the words that stand between the two words the context writes around one of
    its numbers ("four" of "Acme has four offices" beside "Acme has 5 offices"): a number written
    as a word, or another word in a number's place, whatever its case. Which, the judge reads."""
    places = _number_places(tuple(context))
    return frozenset(item for stretch in stretches(words) or [words] for mine in [_pattern(stretch)]
                     for at, item in enumerate(mine)
                     if isinstance(item, str) and all(_beside(mine, at)) and _beside(mine, at) in places)


@lru_cache(maxsize=64)
def _number_places(context: tuple[str, ...]) -> frozenset[tuple[str, str]]:
    """The words right before and after each number of the context ("has", "offices")."""
    return frozenset(_beside(place.pattern, at) for place in _places(context)
                     for at, item in enumerate(place.pattern) if isinstance(item, Number))


@lru_cache(maxsize=64)
def _weekdays(context: tuple[str, ...]) -> frozenset[int]:
    """The days of the week the context names, in any form (`WEEKDAYS`)."""
    return frozenset(day for token in _written(context)[0] if (day := WEEKDAYS.get(token)) is not None)


@lru_cache(maxsize=64)
def _counts(context: tuple[str, ...]) -> frozenset[int]:
    """The whole numbers the context writes, in digits or in words (`counts_in_words`)."""
    digits = {int(value) for value in _context_values(context).values if value.isdigit()}
    return frozenset(digits) | _counted_in_words(context)


@lru_cache(maxsize=64)
def _counted_in_words(context: tuple[str, ...]) -> frozenset[int]:
    """The values of the context's counts in words: a number of the words with one is written."""
    return frozenset(count.value for item in context for count in _counts_of(item) if count.value)


_SCALED = regex.compile(r"[\s-]+(\p{L}+)")


@lru_cache(maxsize=64)
def _ranks(context: tuple[str, ...]) -> frozenset[int]:
    """The ordinals the context writes, in words (`ordinals_in_words`) or digits ("3rd", "2e")."""
    in_digits = {int(found[1]) for item in context for found in _RANK_DIGITS.finditer(_ascii_digits(item))}
    return frozenset(in_digits) | {rank.value for item in context for rank in ordinals_in_words(item)}


_RANK_DIGITS = regex.compile(rf"(?<![\d.,])(\d{{1,4}})(?={RANK_SUFFIX.pattern})")


def _unwritten_rank(value: int, also_a_word: bool, context: tuple[str, ...]) -> bool:
    """Whether the judge is asked about an ordinal ("finished third" beside "first"): where the
    context writes its value in no form, as a count or an ordinal. One that is also a common word
    ("second", "andra") only where the context writes another ordinal: a rank is at stake there."""
    ranks = _ranks(context)
    return value not in _counts(context) | ranks and (not also_a_word or bool(ranks - {value}))


def _counts_of(text: str) -> list[Count]:
    """The counts `text` writes in words, but one a scale word multiplies ("two million"), which
    is read as a number is (`_SCALE_WORDS`)."""
    return [count for count in counts_in_words(text)
            if not ((after := _SCALED.match(text, count.end)) and after[1].casefold() in _SCALE_WORDS)]


def numbers_not_written(text: str, context: Sequence[str]) -> list[str]:
    """The numbers of `text` (as it writes them) whose value the context never writes with the
    decimal places they have ("3.1" beside "3.10"), with a scale word never with that word ("1.5
    million" beside 1,500,000 or "1.5 billion"), or with a unit word the context never writes where
    it writes the value with another ("40 miles" beside "40 km"); and its times of day the context
    never writes as they are written ("7:20 pm" beside 07:20, though it writes 7 and 20). A whole
    number the context writes in words is written ("22" beside "twenty-two"). Whether another form
    says the same is the judge's question."""
    written = _context_values(tuple(context))
    timed = times(_ascii_digits(text))
    tokens = _written(tuple(context))[0]
    in_words = {str(count) for count in _counted_in_words(tuple(context))}
    numbers_left = []
    for n in numbers(text):
        if any(a <= n.start < b for (a, b), _ in timed):
            continue
        ranked = {str(rank) for rank in _ranks(tuple(context))} if RANK_SUFFIX.match(text, n.end) else set()
        if not written.has(n) and not (not n.scale and len(n.forms) == 1 and n.forms <= in_words | ranked) and \
                n.shown not in _bounds_made_true(text, tuple(context)):
            numbers_left.append(n.shown)
        elif unit := _another_unit(text, n, tuple(context), tokens):
            numbers_left.append(n.shown + unit)
    return numbers_left + [text[a:b] for (a, b), time in timed if time not in written.times]


_UNIT_WORD = regex.compile(rf"[ \u00a0\u202f]?([[\p{{L}}\p{{M}}]--[{_SPACELESS}]]+)(?![\p{{L}}\p{{M}}\p{{N}}])",
                           regex.VERSION1)
"""A word right after a number, or written onto it ("40 miles", "40km", "5,000달러"): the unit, if it has one."""


def _unit_of(text: str, number: Number) -> str:
    """The word after a number, or its scale word ("5억" is 5 with the word 억); none after a scale
    written on the digits ("40k")."""
    if number.scale:
        return number.scale if number.scale in _SCALE_WORDS else ""
    return _word_after(text, number.end)


MIN_UNIT_WORD = 3
"""Letters of the word after a count in words that makes it a unit: "two months", not "two of" or
"twice a day"."""


def _word_after(text: str, end: int) -> str:
    found = _UNIT_WORD.match(text, end)
    return fold(found[1]) if found else ""


def _same_unit(one: str, other: str) -> bool:
    """The same word, or one with an ending the other lacks ("mile", "miles"; "년", "년에"): a letter
    alone only in a script without case ("m" is not "miles"). Hangul writes a particle onto the
    counter ("명이", "명의"): there the first syllable is the unit."""
    if _HANGUL.match(one) and _HANGUL.match(other):
        return one[0] == other[0]
    short, long = sorted((one, other), key=len)
    return one == other or long.startswith(short) and (len(short) >= 2 or short.lower() == short.upper())


_HANGUL = regex.compile(r"\p{Hangul}")


def _another_unit(text: str, number: Number, context: tuple[str, ...], tokens: frozenset[str]) -> str:
    """The word after a number whose value the context writes, where that word is none the
    context writes and the context writes the value with another word after it ("40 miles" beside
    "40 km"): a unit moved, which a wrong verdict would pass. Whether it is another unit is the
    judge's question ("40 people" beside "40 employees" is not). The word as written, with the
    space before it; "" if none."""
    theirs = set().union(*(units for form, units in _context_values(context).units.items() if form in number.forms),
                         *(units for value, units in _units_of_counts(context).items() if str(value) in number.forms))
    return _moved_unit(text, number.end, _unit_of(text, number), theirs, tokens)


def _moved_unit(text: str, end: int, unit: str, theirs: Collection[str], tokens: frozenset[str]) -> str:
    """`_another_unit` of a number or a count in words that ends at `end`, with the word `unit`
    after it where the context writes the value with `theirs` after it."""
    if not unit or unit in tokens or not theirs or any(_same_unit(unit, u) for u in theirs):
        return ""
    found = _UNIT_WORD.match(text, end)
    return found.group() if found else ""


@lru_cache(maxsize=64)
def _units_of_counts(context: tuple[str, ...]) -> dict[int, frozenset[str]]:
    """The words after the context's counts in words, per value ("two years": {2: {"years"}})."""
    units: dict[int, set[str]] = {}
    for item in context:
        for count in _counts_of(item):
            if count.value and len(unit := _word_after(item, count.end)) >= MIN_UNIT_WORD:
                units.setdefault(count.value, set()).add(unit)
    return {value: frozenset(words) for value, words in units.items()}


_WORD_BEFORE = regex.compile(r"(\p{L}+)\s+$")


def _unwritten_count(text: str, count: Count, context: tuple[str, ...]) -> list[str]:
    """What the judge is asked of a count in words: the count, where the context writes its value
    in no form (or code reads none); the count and the word after it, where the context writes
    its value only with other words after it ("two months" beside "two years" or "2 years": a unit
    moved). The units of a count the context writes only in another language's words are not
    compared ("five offices" beside "fünf Büros"), and "the two" of what the context says "both"
    of is written."""
    said = fold(text[count.start:count.end])
    written, body = _written(context)
    the = _WORD_BEFORE.search(text, 0, count.start)
    if count.value == 2 and the and the[1].casefold() in THE and PAIR_WORDS & written:
        return []  # "los dos" beside "ambos": the two the context names
    if count.value is None:
        return [] if written_whole(said, body) else [said]
    if count.value not in _counts(context):
        return [said]
    after = _word_after(text, count.end)
    if len(after) < MIN_UNIT_WORD or after in written:
        return []
    theirs = set(_context_values(context).units.get(str(count.value), frozenset()))
    if (in_words := _units_of_counts(context).get(count.value)) and written_whole(said, body):
        theirs |= in_words
    unit = _moved_unit(text, count.end, after, theirs, written)
    return [fold(said + unit)] if unit else []


def _in_digits(run: str, counts: frozenset[int], text: str) -> str:
    """A spaceless run with its counts in numerals that the context writes (`counts`) only in
    another form, in digits: "二十二人" beside "22人" is covered as "22人" is ("一人の" beside
    "一人の" stays as it is)."""
    for count in reversed(counts_in_words(run)):
        if count.value in counts and run[count.start:count.end] not in text:
            run = run[:count.start] + str(count.value) + run[count.end:]
    return run


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
    """The context's sentences, and the records of its data (`records.parts`): evidence of one line
    ("flight": "SK4705") hides the price beside it, and the whole passage reads every record again."""
    return tuple((s, _grams(s)) for item in context for s in records.parts(item))


class _Place(NamedTuple):
    """A context sentence or record, as code compares words with it: read once per context."""

    pattern: list[str | Number]
    tokens: frozenset[str]  # its folded tokens, bare too
    values: frozenset[str]  # its numbers' values
    valued: tuple[tuple[str | Number, tuple[str, str], str], ...]  # each value, `_beside` it, and its `_kind`
    words: frozenset[str]  # a record's field values in small letters (`_field_words`); none of a sentence
    fields: dict[str, str]  # a record's tokens of its field values, each with its field (`_fields`); none of a sentence


@lru_cache(maxsize=32)
def _places(context: tuple[str, ...]) -> tuple[_Place, ...]:
    return tuple(_place(part, record, _prose_words(context)) for part, record in _parts(context))


MIN_PROSE_WORD = 4
"""Letters of a word in small letters that may be what a sentence says of its thing (`_prose_words`)."""


@lru_cache(maxsize=32)
def _prose_words(context: tuple[str, ...]) -> frozenset[str]:
    """Words in small letters, of MIN_PROSE_WORD letters or more, that one sentence of prose alone
    writes: what it says of its thing ("sales" of "Anna Berg leads sales. Lars Holm leads
    marketing."), compared across sentences and clauses as a record's field values are
    (`_given_apart`). A word several sentences write tells nothing."""
    return frozenset(word for word, count in _sentences_writing(context).items()
                     if count == 1 and word.islower() and len(word) >= MIN_PROSE_WORD and not _has_digit(word))


MAX_FRAME_SENTENCES = 3
"""Sentences of prose that may write a word that frames a value (`_a_frame_in_common`): "leads" of
"Anna Berg leads sales. Lars Holm leads marketing.", not "been", which most sentences write."""


@lru_cache(maxsize=32)
def _sentences_writing(context: tuple[str, ...]) -> Counter[str]:
    """How many sentences of prose write each token, as written (folded only where no capital is)."""
    return Counter(word for part, record in _parts(context) if not record
                   for word in {token if not token.islower() else fold(token) for token in _TOKEN.findall(part)})


@lru_cache(maxsize=32)
def _parts(context: tuple[str, ...]) -> tuple[tuple[str, bool], ...]:
    """Each record and sentence of the context (`records.parts`), and whether it is a record: the
    texts of `_places`, in their order."""
    return tuple((part, part in data) for item in context for data in [records.data(item)]
                 for part in records.parts(item))


def _place(sentence: str, record: bool, prose_words: frozenset[str]) -> _Place:
    pattern = _pattern(sentence)
    names, words = _names_in(sentence), _field_words(sentence) if record else frozenset()
    fields = _fields(sentence) if record else {}
    valued = [(value, _beside(pattern, at), _kind(value, names, words if record else prose_words))
              for at, value in enumerate(map(_or_code, pattern))]
    return _Place(pattern, frozenset(t for token in _TOKEN.findall(sentence) for t in _forms(token)),
                  frozenset(v for n in numbers(sentence) for v in n.values),
                  tuple((value, side, kind) for value, side, kind in valued if kind is not None), words, fields)


_PARALLEL_MARKS = regex.compile(r"[;；]")
"""What parts the clauses of a sentence that gives two things their values side by side ("The CEO
is Anna Berg; the CFO is Lars Holm"): a semicolon; a comma only where each part opens with names of
its own (`_side_by_side`). Not a colon or a bracket, which tie a value to its label ("Ingrid Dahl
(14C)", "Oslo office: 40 people")."""
_COMMA = regex.compile(r"[,，](?!\d)")
OPENING_TOKENS = 2
"""Tokens of a part after a comma read for the names it opens with: "Aktie B fiel", "while DY1872"."""


def _side_by_side(sentence: str) -> list[str]:
    """The clauses of a sentence of prose: its parts between semicolons, each parted again at its
    commas where every part opens (in its first OPENING_TOKENS tokens) with a name or code (or, the
    first, with a capital) and no two open with the same ones: "Aktie A stieg um 5 %, Aktie B fiel
    um 3 %", "SK4705 is direct, while DY1872 stops in CPH". A comma that goes on with one thing's
    values ("costs 25 EUR, includes 2 TB and adds SSO", "Acme, founded in 1997, employs 40
    people") parts nothing."""
    named: set[str] | None = None
    clauses = []
    for clause in _PARALLEL_MARKS.split(sentence):
        parts = _COMMA.split(clause)
        if len(parts) < 2:
            clauses.append(clause)
            continue
        if named is None:
            first = _TOKEN.search(sentence)
            named = set(_names_in(sentence)) | (
                {_stem(first.group())} if first and _CASED_CAPITAL.match(first.group()) else set())
        openers = [frozenset(stem for token in _TOKEN.findall(part)[:OPENING_TOKENS] if (stem := _stem(token)) in named
                             or (_has_digit(token) and not _is_number_token(token))) for part in parts]
        side_by_side = all(openers) and len(set(openers)) == len(openers)
        clauses += parts if side_by_side else [clause]
    return [clause for clause in clauses if clause.strip()]


@lru_cache(maxsize=32)
def _clause_places(context: tuple[str, ...]) -> tuple[tuple[_Place, ...], tuple[bool, ...]]:
    """The places of `_places` and the clauses of each sentence of prose (`_side_by_side`),
    and whether each settles a value written in it: a clause, not its whole sentence. "The CEO is
    Anna Berg; the CFO is Lars Holm" writes Lars Holm only with the CFO; "Anna Berg runs sales; she
    joined in 2019" still names her where another value of 2019's kind is asked about."""
    places: list[_Place] = []
    settles: list[bool] = []
    for place, (part, record) in zip(_places(context), _parts(context)):
        clauses = [] if record else _side_by_side(part)
        split = len(clauses) > 1
        places += [place, *(_place(clause, False, _prose_words(context)) for clause in clauses if split)]
        settles += [not split, *(True for _ in clauses if split)]
    return tuple(places), tuple(settles)


@lru_cache(maxsize=64)
def _record_words(context: tuple[str, ...]) -> frozenset[str]:
    """Every record's field values in small letters (`_field_words`)."""
    return frozenset().union(*(place.words for place in _places(context)))


_KINDS = ("number", "code", "name", "word")  # in the order a stretch's values are asked about


def _kind(value: str | Number, names: Collection[str], words: Collection[str]) -> str | None:
    """What a value is, as code compares values across records: a number, a code (a token with a
    digit, "22A"), a name (one of `names`), a word (one of `words`: a record's field value in small
    letters, `_field_words`), or none of them."""
    if isinstance(value, Number):
        return "number"
    if _has_digit(value):
        return "code"
    return "name" if value in names else "word" if value in words else None


_FIELD_VALUE = regex.compile(r"""^\s*"?([^":\n]{1,40})"?\s*:\s*"?([^"\n:]+?)"?,?\s*$""", regex.MULTILINE)
MAX_FIELD_WORDS = 3
"""Words a record's field value may have for its words to be values ("kosher", "window seat"); more is text."""


def _field_words(record: str) -> frozenset[str]:
    """The words in small letters of a record's short field values ("status": "cancelled", "meal:
    kosher"), and its values in a script without case or spaces ("田中太郎", "大阪": `_spaceless_value`):
    values code compares across records as it does names, though no capital shows them."""
    found = [_TOKEN.findall(m.group(2)) for m in _FIELD_VALUE.finditer(record)]
    return frozenset(fold(t) for words in found if len(words) <= MAX_FIELD_WORDS for t in words
                     if (t == t.lower() and t != t.upper() and not _has_digit(t)) or _spaceless_value(t))


_KANA_ONLY = regex.compile(r"[\p{Hiragana}ー]+")
MAX_SPACELESS_VALUE = 12
"""Characters a record's value in a script without spaces may have for code to find it inside a run: more is text."""


def _spaceless_value(token: str) -> bool:
    """A field value of a script without spaces that names something: two or more characters, not
    only kana ("あり", "なし" are words of any sentence), at most MAX_SPACELESS_VALUE."""
    return bool(_IS_SPACELESS.match(token)) and 2 <= len(token) <= MAX_SPACELESS_VALUE \
        and not _KANA_ONLY.fullmatch(token)


@lru_cache(maxsize=64)
def _spaceless_values(context: tuple[str, ...]) -> regex.Pattern[str] | None:
    """The records' values in a script without spaces, as one pattern that finds them inside a run
    of that script ("田中太郎さんは東京に住んでいます" holds 田中太郎 and 東京), the longest first."""
    values = sorted((w for w in _record_words(context) if _spaceless_value(w)), key=len, reverse=True)
    return regex.compile("|".join(map(regex.escape, values))) if values else None


def _split(token: str, values: regex.Pattern[str] | None) -> list[str]:
    """A folded token; a run of a script without spaces, split around the records' values in it."""
    if values is None or not _IS_SPACELESS.match(token):
        return [token]
    pieces, at = [], 0
    for match in values.finditer(token):
        pieces += [token[at:match.start()], match.group()]
        at = match.end()
    return [piece for piece in [*pieces, token[at:]] if piece]


def _fields(record: str) -> dict[str, str]:
    """Each token of a record's field values, in each of its forms (`_forms`), with its field's
    name: which of the record's values a word of the claim is ("Tromsø" a city, "Karin" a passenger)."""
    return {form: fold(m.group(1)) for m in _FIELD_VALUE.finditer(record)
            for token in _TOKEN.findall(m.group(2)) for form in _forms(token)}


def _names_in(text: str) -> frozenset[str]:
    """The tokens of the text without digits that are names as code sees them (`_capital`; no part
    of a date, `_dated`), folded."""
    normal = unicodedata.normalize("NFKC", text.translate(_SIGNS)).translate(_SAME_MARKS)
    found = [m for m in _TOKEN.finditer(normal) if _CASED_CAPITAL.search(m.group()) and not _has_digit(m.group())]
    dated = _dated(normal) if found else frozenset()
    return frozenset(_stem(m.group()) for m in found if m.start() not in dated
                     and _capital(m.group(), _starts(normal, m.start())))


def _dated(text: str) -> frozenset[int]:
    """Where the text's tokens that name a date start, no thing: a day of the week, a month's name
    in a date (`month_names`: "October 6", not "Jan Kowalski") and the numbers beside it."""
    months = {start for start, _ in month_names(_ascii_digits(text))}
    found = list(_TOKEN.finditer(text))
    named = [m.start() in months or fold(m.group()) in WEEKDAYS for m in found]
    return frozenset(m.start() for k, m in enumerate(found)
                     if named[k] or (m.group().isdecimal() and any(
                         beside.start() in months for beside in found[max(k - 1, 0):k + 2])))


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


_SEPARATORS = ".,'’\u066b\u066c\u00a0\u202f\u2009"
_NUMBER = regex.compile(
    rf"(?<!{_SPACED}|[_.,])(?P<sign>[-\u2212\u2012\u2013](?=[.,]?\d))?(?P<lead>[.,](?=\d))?"
    r"(?P<core>\d{1,3}(?:[ \u00a0\u202f\u2009]\d{3})+(?:[.,\u066b]\d+)?(?!\d)|\d+(?:[" + _SEPARATORS + r"]\d+)*)"
    rf"(?P<suffix>{_SPACED}+)?", regex.VERSION1)
_SCALES = {"k": ("1000",), "m": ("1000000", "1"), "mn": ("1000000",), "b": ("1000000000",),
           "bn": ("1000000000",)}
"""Suffixes written onto digits that scale them ("40k", "1.5M"): a value that is never certain
(5m may be five metres), so it only ever makes a number count as written, never decides."""
_SCALE_WORDS = frozenset("""thousand thousands tausend mille mila mil duizend tusen tusind tysiąc tysiące tysięcy
тысяча тысячи тысяч тыс bin ribu tuhatta 千 천 万 萬 만 lakh lakhs million millions mio millionen millón millones
milione milioni milhão milhões miljoen miljon miljoner millioner milion miliony milionów миллион миллиона миллионов
млн milyon juta miljoonaa crore crores 亿 億 억 milliard milliards milliarde milliarden mrd miliardo miliardi miljard
miljarder miliard miliardy miliardów миллиард миллиарда миллиардов млрд milyar miliar billion billions bilhão
bilhões billón billones bilione bilioni trillion trillions 兆 조 nghìn ngàn triệu tỷ""".split())
"""Words after a number that scale it ("1.5 million", "2,5 Mrd.", "3万"): read with their number,
which is then written only where the context writes the same digits with the same word. Whether
1.5 million is 1,500,000 is the judge's question; a word missing here costs nothing but the
stricter reading ("1.5 million" beside "1.5 billion" asked about, though 1.5 is written)."""
_SCALE_AFTER = regex.compile(r"[ \u00a0\u202f]?([千万萬亿億兆천만억조])|[ \u00a0\u202f](\p{L}+)(\.)?(?!\p{L})")
_EXPONENT = regex.compile(r"[eE]([+-]?\d{1,3})(?![\p{L}\p{N}])")
"""Scientific notation after the digits: "1e6" is a million, not 1 beside the context's 1,000,000."""
_FULL_WIDTH = str.maketrans("，．－", ",.-")
_MARKER = regex.compile(r"[\[【]\^?\d+(?:\s*[,\-–]\s*\d+)*(?:[\]】]|$)|\d\ufe0f?\u20e3")
"""A reference marker (unclosed at the end, where a stretch's edge trims the "]"), or a keycap
list marker ("2️⃣")."""


@dataclass(frozen=True)
class Number:
    """A number as the text writes it, and the values it can have: one, or two where its locale is
    not certain ("1,234" is 1234 or 1.234), or itself where it is no number ("3.11.7")."""

    start: int
    end: int
    shown: str
    forms: frozenset[str]  # the values with the decimal places written ("3.10", "1.500"; 142.0 is 142)
    scaled: bool  # a scale suffix or word, or a year cut short ("'97"): its value is not certain
    scale: str = ""  # the scale as written ("k", "millones"): beside the same scale, the digits compare exactly

    @cached_property
    def values(self) -> frozenset[str]:
        """By value: 3.10 is 3.1, for comparing roles and roundings."""
        return frozenset(_plain(Decimal(form)) if _is_decimal(form) else form for form in self.forms)

    @property
    def code(self) -> str:
        """As a code, where a scale letter is glued on ("12B", "3K": a seat or a room as well as 12
        billion), else ""."""
        return fold(self.shown) if self.scale in _SCALES else ""

    @property
    def decimals(self) -> list[Decimal]:
        found = []
        for value in self.values:
            try:
                found.append(Decimal(value))
            except InvalidOperation:
                pass
        return found


def _ascii_digits(text: str) -> str:
    """The text with every decimal digit of any script as its ASCII digit, one character for one."""
    return "".join(str(unicodedata.decimal(c)) if c.isdecimal() and not c.isascii() else c
                   for c in text).translate(_FULL_WIDTH)


def _plain(value: Decimal) -> str:
    return format(value.normalize(), "f") if value else "0"


def _form(value: Decimal) -> str:
    """The value with the decimal places it is written with: "3.10" is no "3.1" (a version, or a
    locale's "1,500" beside 1.5), though "142.0" is "142"."""
    return _plain(value) if value == value.to_integral_value() else format(value, "f")


def _is_decimal(text: str) -> bool:
    return bool(regex.fullmatch(r"-?\d+(?:\.\d+)?", text))


def _core_forms(core: str) -> frozenset[str]:
    """The values digits with separators can have, in any locale, as `_form`s: grouping by space,
    NBSP, narrow NBSP, thin space or apostrophe is certain; a lone "," or "." before exactly three
    digits is either grouping or a decimal mark, so both."""
    text = regex.sub(r"[ \u00a0\u202f\u2009'’\u066c]", "", core).replace("\u066b", "\x00")
    if "\x00" in text:
        text = text.replace(".", "").replace(",", "").replace("\x00", ".")
        return frozenset({_form(Decimal(text))}) if text.count(".") == 1 else frozenset({core})
    marks = [c for c in text if c in ".,"]
    if not marks:
        return frozenset({_form(Decimal(text))})
    groups = regex.split(r"[.,]", text)
    if len(set(marks)) == 2:
        decimal_mark = marks[-1]
        if marks.count(decimal_mark) != 1 or any(len(g) != 3 for g in groups[1:-1]) or len(groups[0]) > 3:
            return frozenset({core})
        whole, fraction = text.rsplit(decimal_mark, 1)
        return frozenset({_form(Decimal(whole.replace(".", "").replace(",", "") + "." + fraction))})
    if len(marks) > 1:
        grouped = len(groups[0]) <= 3 and all(len(g) == 3 for g in groups[1:])
        return frozenset({_form(Decimal("".join(groups)))}) if grouped else frozenset({core})
    whole, fraction = groups
    as_decimal = _form(Decimal(f"{whole}.{fraction}"))
    if len(fraction) == 3 and len(whole) <= 3 and whole != "0":
        return frozenset({as_decimal, _form(Decimal(whole + fraction))})
    return frozenset({as_decimal})


@lru_cache(maxsize=256)
def numbers(text: str) -> tuple[Number, ...]:
    """Every number the text writes with digits, by value: any digit script, any locale's grouping
    (NBSP and narrow NBSP too), a sign, a scale suffix ("40k"), a scale word read with it ("1.5
    million", "2,5 Mrd.": what it means is the judge's question). Units are words. Digits with a
    capital glued on are a code, no number: seat 12C is not the 12 of 2026-06-12, nor 14C a 14 in
    the context. A reference marker ("[1]", "[^2]", "[1, 3]", "【4】") names a source and a keycap ("2️⃣") a list
    item, no number; two digits after an apostrophe ("'97", "the ’90s") are a year cut short, so,
    like a scale, never certain."""
    found: list[Number] = []
    plain = _ascii_digits(text)
    markers = [m.span() for m in _MARKER.finditer(plain)]
    for match in _NUMBER.finditer(plain):
        if any(a <= match.start() < b for a, b in markers) or (found and match.start() < found[-1].end):
            continue  # a reference ("[1]"): which source, not how many; an exponent's digits ("e-3")
        suffix = (match["suffix"] or "").casefold()
        scales = _SCALES.get(suffix)
        forms = _core_forms(f"0{match['lead']}{match['core']}" if match["lead"] else match["core"])
        if exponent := _EXPONENT.match(plain, match.end("core")):  # "1e6", "2.5E+06": the value, never decided
            forms = frozenset(_form(Decimal(v).scaleb(int(exponent[1]))) for v in forms if _is_plain(v)) or forms
            found.append(Number(match.start(), exponent.end(), text[match.start():exponent.end()],
                                _signed(forms, match["sign"]), True, ""))
            continue
        if not scales and suffix not in _SCALE_WORDS and _CASED_CAPITAL.search(match["suffix"] or ""):
            continue  # a code ("12C", "5G"): compared as written, as "SK4705" is
        scale, end = (suffix, match.end()) if scales or suffix in _SCALE_WORDS else ("", match.end("core"))
        word = None if match["suffix"] else _SCALE_AFTER.match(plain, end)
        if word and (word[1] or word[2]).casefold() in _SCALE_WORDS:  # "1.5 million", "2,5 Mrd.", "3万"
            scale = (word[1] or word[2]).casefold()
            end = word.end(3) if word[3] and len(word[2]) <= 4 else word.end(2) if word[2] else word.end(1)
        if scales:
            forms = frozenset(_form(Decimal(v) * Decimal(s)) for v in forms for s in scales if _is_plain(v))
        forms = _signed(forms, match["sign"])
        clipped = match.start() > 0 and plain[match.start() - 1] in "'’" and len(match["core"]) == 2
        clipped |= bool(match["suffix"]) and match["suffix"][0].isnumeric() and not match["suffix"][0].isdecimal()
        found.append(Number(match.start(), end, text[match.start():end], forms, bool(scale) or clipped, scale))
    return tuple(found)


def _is_plain(form: str) -> bool:
    """A value `_core_forms` read, not the text it kept as written ("3.11.7")."""
    return form.replace(".", "", 1).isdigit()


def _signed(forms: frozenset[str], sign: str | None) -> frozenset[str]:
    return frozenset(v if not sign or v.startswith("-") or not v[:1].isdigit() else f"-{v}" for v in forms)


def _is_number_token(token: str) -> bool:
    """A token `numbers` reads from its first digit ("1997년", "40k"): compared by value, not as
    written; a code ("12C") is compared as written."""
    found = numbers(token)
    return bool(found) and found[0].start == 0


class _Written(NamedTuple):
    """What the context writes with digits, as code compares it."""

    values: frozenset[str]  # every number's values
    scaled: dict[str, frozenset[str]]  # per scale as written ("million", "k", ""), the forms written with it
    times: frozenset[Time]  # its times of day, as written
    units: dict[str, frozenset[str]]  # per form, the words written right after it ("40 km": "km")

    def has(self, number: Number) -> bool:
        """By value, with its decimal places ("3.1" is not written by "3.10"); a number with a
        scale word only with that word, and one without only by one without ("1.5" is not written
        by "1.5 million")."""
        found = (self.scaled.get(number.scale, frozenset()) if number.scale in _SCALE_WORDS
                 else frozenset().union(*(v for k, v in self.scaled.items() if k not in _SCALE_WORDS)))
        return bool(number.forms & found)


def _as_written(context: tuple[str, ...]) -> tuple[str, ...]:
    """Each passage, or the records of one that is data (`records.data`): a CSV row's cells are its values."""
    return tuple("\n".join(records.data(item)) or item for item in context)


@lru_cache(maxsize=64)
def _context_values(context: tuple[str, ...]) -> _Written:
    context = _as_written(context)
    found = [(item, n) for item in context for n in numbers(item)]
    scaled: dict[str, set[str]] = {}
    units: dict[str, set[str]] = {}
    for item, n in found:
        scaled.setdefault(n.scale, set()).update(n.forms)
        for form in n.forms:
            units.setdefault(form, set()).update(u for u in [_unit_of(item, n)] if u)
    return _Written(frozenset(v for _, n in found for v in n.values), {k: frozenset(v) for k, v in scaled.items()},
                    frozenset(time for item in context for _, time in times(_ascii_digits(item))),
                    {k: frozenset(v) for k, v in units.items()})


_BOUND = regex.compile(r"[<>≤≥≦≧≲≳≈≃~∼±]|(?<=\d)\+")
"""A sign that makes a number a bound or an approximation: "<50 ms" beside "42 ms" or "<42 ms",
"30+ people" beside "45 people", "~185 EUR" beside "189 EUR" say no other value, whatever the
digits: never decided by code."""


def _pattern(text: str) -> list[str | Number]:
    """The text as its folded tokens, unit symbols ("5 %" is not 0.05 in the same role) and bounds
    (`_BOUND`), each number in its place as a `Number`."""
    found = numbers(text)
    items: list[tuple[int, str | Number]] = [(n.start, n) for n in found]
    for match in [*_TOKEN.finditer(text), *_UNIT_SYMBOL.finditer(text), *_BOUND.finditer(text)]:
        if not any(n.start <= match.start() < n.end for n in found) and not _is_number_token(match.group()):
            items.append((match.start(), _stem(match.group())))
    return [item for _, item in sorted(items, key=lambda pair: pair[0])]


_MARKED = regex.compile(rf"[{_SPACELESS}\p{{Hangul}}]")
"""A run that may hold a bound's mark inside it, with a counter or a particle ("40人以上", "이상의")."""


def _hedged(pattern: list[str | Number], at: int) -> bool:
    """Whether the number at `at` is written as a bound or an estimate: a bound sign, or a word or
    mark of `bound_words` near it on its side of any other number ("more than 40", "40 or more",
    "約40人", "40명 이상"), so that another value beside the same words may be true with it."""
    return (any(_bounds(word, bound_words.BEFORE, bound_words.MARKS_BEFORE, before=True)
                for word in _words_to_a_number(reversed(pattern[:at]), bound_words.BEFORE_REACH))
            or any(_bounds(word, bound_words.AFTER, bound_words.MARKS_AFTER, before=False)
                   for word in _words_to_a_number(pattern[at + 1:], bound_words.AFTER_REACH)))


def _words_to_a_number(items: Iterable[str | Number], reach: int) -> list[str]:
    return [item for item in takewhile(lambda item: isinstance(item, str), islice(items, reach))
            if isinstance(item, str)]


def _bounds(word: str, words: frozenset[str], marks: tuple[str, ...], before: bool) -> bool:
    """Whether the word is a bound: a sign, one of `words`, or a run holding one of `marks` at its
    end (`before` the number) or start, a counter of up to MARK_REACH characters from it."""
    reach = bound_words.MARK_REACH
    return bool(_BOUND.fullmatch(word) or word in words or (_MARKED.search(word) and any(
        mark in (word[-len(mark) - reach:] if before else word[:len(mark) + reach]) for mark in marks)))


MIN_ROLE_WORDS = 2
"""Words, besides its numbers, that a stretch must share with a context sentence, in order and
unbroken, for its numbers to stand in the same role as the context's ("founded in #")."""


def _rounds_to(said: Decimal, other: Decimal) -> bool:
    """Whether `said` is `other` rounded at its own last significant digit (1,200 for 1,234; 2000 for
    1997; 1.2 for 1.23), a tie at the units or finer either way: Python writes 3.25 as "3.2" and 4.55
    as "4.5" (`f"{x:.1f}"`) and round(188.5) as 188 (not 40 for 45, nor "3.000,00" for 3.500,00,
    whose zeros may be written digits). An approximation the judge reads, never a difference code
    decides."""
    exponent = int(said.normalize().as_tuple().exponent)
    try:
        if exponent <= 0:
            return abs(other - said) * 2 <= Decimal(1).scaleb(exponent)
        return other.quantize(Decimal(1).scaleb(exponent), rounding=ROUND_HALF_UP) == said
    except InvalidOperation:  # more digits than Decimal's precision holds: not decided by code
        return True


def _beside(pattern: list[str | Number], at: int) -> tuple[str, str]:
    """The words right before and after the item at `at` ("" at an edge or beside another number)."""
    before = pattern[at - 1] if at > 0 else ""
    after = pattern[at + 1] if at + 1 < len(pattern) else ""
    return (before if isinstance(before, str) else ""), (after if isinstance(after, str) else "")


def _a_side_in_common(one: tuple[str, str], other: tuple[str, str]) -> bool:
    """The same word before, or the same word after (`_beside`)."""
    return bool((one[0] and one[0] == other[0]) or (one[1] and one[1] == other[1]))


def _a_frame_in_common(one: tuple[str, str], other: tuple[str, str], context: tuple[str, ...]) -> bool:
    """The same words on both sides (`_beside`), or on one the same word of MIN_PROSE_WORD letters
    or more that few sentences write (MAX_FRAME_SENTENCES): what a word of prose needs to stand in
    another's place ("leads sales" and "leads marketing", "is cold in" and "is mild in"), where
    "has" or "been" beside it is in most sentences."""
    written = _sentences_writing(context)
    return one == other or any(a == b and len(a) >= MIN_PROSE_WORD and written[a] <= MAX_FRAME_SENTENCES
                               for a, b in zip(one, other))


def _shown_with(pattern: list[str | Number], at: int) -> str:
    item = pattern[at]
    before, after = _beside(pattern, at)
    return " ".join(t for t in (before, item.shown if isinstance(item, Number) else item, after) if t)


def numbers_beside_the_same_words(words: str, context: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Each number of `words` whose value the context never writes, with the context's numbers
    written beside a word it has beside it ("employs 40 people": ["employs 400 people"]): what the
    judge compares, as amounts, never code. A word is compared exactly; none is taken for a unit."""
    written = _context_values(tuple(context)).values
    theirs = [(place.pattern, i) for place in _places(tuple(context))
              for i, item in enumerate(place.pattern) if isinstance(item, Number)]
    found = []
    for stretch in stretches(words) or [words]:
        mine = _pattern(stretch)
        for at, item in enumerate(mine):
            if not isinstance(item, Number) or item.values & written or _hedged(mine, at):
                continue  # "more than 40" beside "more than 45" is no other amount for a correct judge
            before, after = _beside(mine, at)
            others = [_shown_with(p, i) for p, i in theirs if _a_side_in_common(_beside(p, i), (before, after))]
            if others:
                found.append((_shown_with(mine, at), list(dict.fromkeys(others))))
    return found


def _differs(said: Number, other: Number) -> bool:
    """Two numbers code can tell apart: no value in common, neither scaled (or both by the same
    scale: "3,5 millones" is not "5,3 millones"), `said` no rounding of `other`, neither a short
    form of the other (`_short_form`), and not the same runs of digits ("12.6." beside "12.06.") nor
    one time of day on two clocks ("5.30" beside "17.30")."""
    uncertain = (said.scaled or other.scaled) and not (said.scale and said.scale == other.scale)
    return not (uncertain or said.values & other.values or not said.decimals or not other.decimals
                or _digit_groups(said) == _digit_groups(other) or _one_time(said, other)
                or any(_rounds_to(s, o) or _short_form(s, o) or _short_form(o, s)
                       for s in said.decimals for o in other.decimals))


def _digit_groups(number: Number) -> tuple[int, ...]:
    """The runs of digits between its marks, as numbers: "12.6" and "12.06" are (12, 6), the same
    day and month written with and without zeros, whatever their values as decimals."""
    return tuple(int(run) for run in regex.findall(r"\d+", _ascii_digits(number.shown)))


def _one_time(one: Number, other: Number) -> bool:
    """Hours and minutes written with a mark ("5.30", "17.30"): the same minutes, and hours that may be
    one on two clocks (`_other_clock`)."""
    a, b = _digit_groups(one), _digit_groups(other)
    return len(a) == len(b) == 2 and a[1] == b[1] < 60 and (_other_clock(a[0], b[0]) or _other_clock(b[0], a[0]))


def _short_form(short: Decimal, full: Decimal) -> bool:
    """Whether `short` may be `full` written another common way: a year by its last two digits
    ("born in 90" for 1990, "2023/24"), or an hour on another clock (`_other_clock`)."""
    if short != short.to_integral_value() or full != full.to_integral_value() or short < 0:
        return False
    return (short < 100 and 1000 <= full < 10000 and full % 100 == short) or _other_clock(int(short), int(full))


def _other_clock(short: int, full: int) -> bool:
    """An hour on a 12-hour clock ("closes at 5" for 17), or midnight as 0 and as 24 ("24:00", "00:00")."""
    return (short <= 12 and full == short + 12) or (short == 0 and full == 24)


@dataclass(frozen=True)
class OtherValue:
    """A number of the words where every place of the context writing the same words around it
    (at least MIN_ROLE_WORDS, unbroken and in order) gives another value."""

    said: str  # the number as the words write it
    other: str  # the value the context writes in its place
    written: tuple[str, ...]  # where one that differs is written elsewhere, the stretch's numbers the context writes
    contradicted: bool  # exact in fact: decided by code, never asked
    """Only where the context writes the said value nowhere and each place differs in that one
    number alone, by `_differs` (no rounding of it): a list gives one thing several values with
    fewer words ("had 40 employees in 2020 and 55 in 2024"), and a place that differs in every
    number ("40 … in 2020" for "55 … in 2024") may be another fact: only the judge reads those."""
    apart: bool = False  # given for another thing (`_given_apart`): `other` is what the context gives for the words'
    ordered: bool = False  # an extreme or comparison the context's values go against (`_beaten`, `_misordered`)
    negated: bool = False  # words the context writes only the other way (`_negated`): `other` is how
    hedged: bool = False  # of those, words the context writes only more weakly ("may be delayed", "some rooms")


MOVED_WORDS = (2, 3)
"""Words on one side of a number that must be the context's words on that side of another number,
and never of this one, for it to count as moved there (`_moved`): two, or three where two stand by
both ("llega a las 7" beside "sale a las 7 y llega a las 11")."""


@lru_cache(maxsize=64)
def _numbers_by_words(context: tuple[str, ...]) -> dict[tuple[int, tuple[str, ...]], tuple[Number | str, ...]]:
    """Per side (-1 before, 1 after) and the MOVED_WORDS words there, the numbers and the months and
    days by name (`_named_time`) the context's prose writes so (a record's words beside a value are
    its keys: `_fields_swapped` reads those)."""
    found: dict[tuple[int, tuple[str, ...]], list[Number | str]] = {}
    for place, (part, record) in zip(_places(context), _parts(context)):
        if record:
            continue
        clauses = _CLAUSE_CUTS.split(part)
        for pattern in map(_pattern, clauses) if len(clauses) > 1 else [place.pattern]:
            for at, item in enumerate(pattern):
                if (value := item if isinstance(item, Number) else _named_time(pattern, at)) is not None:
                    for side, words in _sides(pattern, at):
                        found.setdefault((side, words), []).append(value)
    return {key: tuple(value) for key, value in found.items()}


@lru_cache(maxsize=64)
def _named_times(context: tuple[str, ...]) -> frozenset[str]:
    """The months and days by name `_numbers_by_words` holds."""
    return frozenset(time for value in _numbers_by_words(context).values() for time in value if isinstance(time, str))


_MAY_BEFORE = frozenset("in of since until from by mid early late this next last".split())
"""Words after which "may" is the month ("in May"), which is otherwise a word of what may be so."""


def _named_time(pattern: list[str | Number], at: int) -> str | None:
    """The month or the day of the week a word of a pattern names, as "month 4" or "day 0", or None:
    "March", "märz", "lundi"; "may" only after `_MAY_BEFORE` or before a number."""
    word = pattern[at]
    if not isinstance(word, str):
        return None
    if (day := WEEKDAYS.get(word)) is not None:
        return f"day {day}"
    month = MONTHS.get(word)
    if month is None or word == "may" and not (at and pattern[at - 1] in _MAY_BEFORE or isinstance(
            pattern[at + 1] if at + 1 < len(pattern) else None, Number)):
        return None
    return f"month {month}"


_CLAUSE_CUTS = regex.compile(r"[;()\[\]{}—–、，；：]|[,:](?!\d)|\s-\s")
"""Where the words around a number end: at a clause's marks (`_CLAUSE_MARKS`), not at a comma
or a colon before a digit ("1,200", "09:05")."""


def _sides(pattern: list[str | Number], at: int) -> list[tuple[int, tuple[str, ...]]]:
    """The MOVED_WORDS words right before and right after the item at `at`, where all are words."""
    sides = [(side, pattern[max(0, at - n):at] if side < 0 else pattern[at + 1:at + 1 + n])
             for n in MOVED_WORDS for side in (-1, 1)]
    return [(side, tuple(word for word in words if isinstance(word, str))) for side, words in sides
            if len(words) in MOVED_WORDS and all(isinstance(word, str) for word in words)]


def _year_like(number: Number) -> bool:
    """Four digits a year may be: a year moved is another year ("went public in 1997" for 2005), not
    a day a date writes without its year ("on April 9 in Albuquerque" beside "April 9, 2011 in …")."""
    return not number.scaled and any(v.isdigit() and 1000 <= int(v) < 3000 for v in number.values)


def _moved(words: str, context: tuple[str, ...]) -> tuple[OtherValue, ...]:
    """Numbers of the words that the context writes, but where the words around one are, it writes
    another number and never this one: "Acme went public in 1997" beside "Acme was founded in 1997
    and went public in 2005"; "Il museo chiude alle 9" beside "apre alle 9 e chiude alle 17"; and so
    a month or a day by name ("The race is in March" beside "Check-in opens in March and the race is
    in May"). The whole stretch need not be the context's words (`_other_values`): two words on one
    side are."""
    written, beside, named = _context_values(context).values, _numbers_by_words(context), _named_times(context)
    found = []
    clauses = [clause for stretch in stretches(words) or [words] for clause in _CLAUSE_CUTS.split(stretch)]
    for clause, pattern in ((clause, _pattern(clause)) for clause in clauses):
        for at, item in enumerate(pattern):
            value = item if isinstance(item, Number) else _named_time(pattern, at)
            if value is None or not (value.values & written if isinstance(value, Number) else value in named):
                continue
            for side, around in _sides(pattern, at):
                given = beside.get((side, around), ())
                theirs = [n for n in given if _of_a_kind(n, value)]
                if theirs and not any(_the_same(n, value) for n in given):
                    shown = value.shown if isinstance(value, Number) else next(
                        (token for token in _TOKEN.findall(clause) if _stem(token) == item), str(item))
                    found.append(OtherValue(shown, _shown(theirs[0]), (shown,), False))
                    break
    return tuple(found)


def _of_a_kind(one: Number | str, other: Number | str) -> bool:
    """Two numbers both years or neither, or two months, or two days of the week (`_named_time`)."""
    if isinstance(one, Number) and isinstance(other, Number):
        return _year_like(one) == _year_like(other)
    return isinstance(one, str) and isinstance(other, str) and one.split()[0] == other.split()[0]


def _the_same(one: Number | str, other: Number | str) -> bool:
    if isinstance(one, Number) and isinstance(other, Number):
        return bool(one.values & other.values)
    return one == other


def _shown(value: Number | str) -> str:
    """A value of `_numbers_by_words` as a question shows it: a number as written, a month or a day
    by its name in English."""
    if isinstance(value, Number):
        return value.shown
    kind, index = value.split()
    return (_MONTH_WORDS if kind == "month" else _DAY_WORDS)[int(index)]


_MONTH_WORDS = "January February March April May June July August September October November December".split()
_DAY_WORDS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()


_Key = str | frozenset[str]
"""An item of a pattern as `_swapped` compares it: a word as folded, a number by its values."""


@lru_cache(maxsize=256)
def _swapped(words: str, context: tuple[str, ...]) -> tuple[OtherValue, ...]:
    """Two names or codes of the words in each other's places: "The flight goes from Barcelona to
    Oslo" beside "… from Oslo to Barcelona", "Beta acquired Acme in 2019" beside "Acme acquired
    Beta in 2019", "Lars Holm reports to Anna Berg": from the word before the first to the word
    after the second, the words are a sentence of the context's prose with the two exchanged, and
    never one as they are. Two named as one ("Acme and Beta merged", `joining_words`) are not
    asked about, nor are words that say the same the other way round ("Beta was acquired by Acme")."""
    named, (places, holding) = _only_capitalised(context), _prose_keys(context)
    found: list[OtherValue] = []
    for stretch in stretches(words) or [words]:
        pattern = _pattern(stretch)
        anchors, maybe = _anchors(stretch, context)
        keys = [_key(item) for item in pattern]
        runs = _runs(keys, set(anchors), {word for word in maybe if word in named}, places, holding)
        for (a, a_end), (b, b_end) in combinations(runs, 2):
            if b == a_end or (b == a_end + 1 and keys[a_end] in joining_words.JOINING):
                continue  # named as one: "Oslo, Bergen", "Acme and Beta"
            start, end = max(a - 1, 0), min(b_end + 1, len(keys))
            exchanged = keys[start:a] + keys[b:b_end] + keys[a_end:b] + keys[a:a_end] + keys[b_end:end]
            both = [places[k] for k in holding.get(keys[a], frozenset()) & holding.get(keys[b], frozenset())]
            if any(_holds(place, exchanged) for place in both) and not any(
                    _holds(place, keys[start:end]) for place in both):
                one, other = " ".join(map(str, pattern[a:a_end])), " ".join(map(str, pattern[b:b_end]))
                found += [OtherValue(one, other, (one,), False), OtherValue(other, one, (other,), False)]
    return tuple(found)


_CASED = regex.compile(r"[\p{Lu}\p{Ll}\p{Lt}]")
_ENDS = _EDGES + "।॥《》"
MIN_FRAME_CHARACTERS = 2
"""Characters a claim in a script without case must share with a context sentence before and after
what it gives in another's place (`_replaced`): "田中さんは" and "に住んでいます"; twice as many
before it where it ends both ("王伟住在" of "王伟住在北京")."""


_CLAUSE_BREAK = regex.compile(r"[।॥]|(?<=\p{Thai})\s+(?=\p{Thai})")
"""Where a sentence ends that text/sentences.py leaves whole: a danda, a space between Thai words."""


@lru_cache(maxsize=64)
def _caseless_sentences(context: tuple[str, ...]) -> tuple[str, ...]:
    """The context's sentences with no letter of a script with case, folded, without end marks."""
    return tuple(text for item in context for sentence, _ in sentence_spans(item)
                 for part in _CLAUSE_BREAK.split(fold(sentence))
                 if (text := part.strip(_ENDS)) and not _CASED.search(text))


@lru_cache(maxsize=256)
def _replaced(words: str, context: tuple[str, ...]) -> tuple[OtherValue, ...]:
    """In a script without case, where code sees no names, what the words give in the place of
    what a context sentence gives, between the same characters before and after, where the
    context writes it elsewhere: "大阪" of "田中さんは大阪に住んでいます" beside "田中さんは東京に住ん
    でいます。佐藤さんは大阪に住んでいます。", "부산에" of "김민수는 부산에 산다", "北京" of "王伟住在北京".
    A run of one script is given whole (a particle after it too, in Korean); Han characters one
    by one, which Chinese writes without a mark between words."""
    body = _written(context)[1]
    found: list[OtherValue] = []
    for stretch in stretches(words) or [words]:
        said = fold(stretch).strip(_ENDS)
        if not said or _CASED.search(said) or said in body:
            continue
        for sentence in _caseless_sentences(context):
            start, end, at_the_end = _differing(said, sentence)
            mine, theirs = said[start:len(said) - end], sentence[start:len(sentence) - end]
            framed = end >= MIN_FRAME_CHARACTERS or (at_the_end and start >= 2 * MIN_FRAME_CHARACTERS)
            value = mine.strip()
            if start >= MIN_FRAME_CHARACTERS and framed and value and theirs and value in body and mine not in sentence:
                found.append(OtherValue(value, theirs.strip(), (value,), False, apart=True))
    return tuple(found)


def _differing(one: str, other: str) -> tuple[int, int, bool]:
    """The characters two texts share at their start and at their end, where what differs is a
    whole run of a script (a character alone in Chinese and Thai, which mark no word's end), and
    whether they differ at their very ends."""
    start = len(commonprefix([one, other]))
    end = min(len(commonprefix([one[::-1], other[::-1]])), len(one) - start, len(other) - start)
    at_the_end = end == 0
    while 0 < start and _same_run(one[start - 1], one[start] if start < len(one) else ""):
        start -= 1
    while 0 < end and _same_run(one[len(one) - end], one[len(one) - end - 1]):
        end -= 1
    return start, end, at_the_end


def _same_run(one: str, other: str) -> bool:
    """Two characters of one run of a script that marks words apart: "부산" and "에", "サ" and "ン"."""
    return bool(one and other and not one.isspace() and not other.isspace() and _script(one) == _script(other)
                and _script(one) not in ("Han", "Thai"))


def _script(char: str) -> str:
    return next((name for name, pattern in _SCRIPTS if pattern.match(char)), "other")


_SCRIPTS = [(name, regex.compile(rf"\p{{{name}}}")) for name in (
    "Han", "Hiragana", "Katakana", "Hangul", "Thai", "Arabic", "Hebrew", "Devanagari", "Bengali", "Tamil")]


def _named_as_one(stretch: str, anchors: list[str], maybe: list[str],
                  context: tuple[str, ...]) -> list[list[frozenset[str]]]:
    """The names and codes of the stretch that it names as one, each group as the tokens of each
    name: "Acme and Beta", "Ingrid Dahl, Karin Berg und Lars Holm" (apart by a comma or a joining
    word alone); a word that may be a name, as `_runs` reads it ("Acme" starting "Acme and Beta")."""
    places, holding = _prose_keys(context)
    keys = [_key(item) for item in _pattern(stretch)]
    groups: list[list[tuple[int, int]]] = []
    coded = [isinstance(key, str) and _has_digit(key) for key in keys]
    for run in _runs(keys, set(anchors), set(maybe) & _only_capitalised(context), places, holding):
        last = groups[-1][-1] if groups else None
        if last and (last[1] == run[0] or (last[1] + 1 == run[0] and keys[last[1]] in joining_words.JOINING)) and (
                coded[last[0]] == coded[run[0]]):  # "SK4705 and DY1872", not "CPH y DY1872 es directo"
            groups[-1].append(run)
        else:
            groups.append([run])
    return [[frozenset(str(key) for key in keys[a:b]) for a, b in group] for group in groups if len(group) > 1]


def _runs(keys: list[_Key], names: set[str], maybe: set[str], places: tuple[tuple[_Key, ...], ...],
          holding: dict[_Key, frozenset[int]]) -> list[tuple[int, int]]:
    """Where the keys write a name or a code, as (start, end) of each run of them. A word that may
    be a name (`maybe`: "Beta acquired …") is one alone, or with the names after it where the
    context writes them together ("Ingrid Dahl", not "The Bergen office" beside "The Oslo office")."""
    runs: list[tuple[int, int]] = []
    for at, key in enumerate(keys):
        name = isinstance(key, str) and (key in names or _has_digit(key))
        if name and runs and runs[-1][1] == at:
            runs[-1] = (runs[-1][0], at + 1)
        elif name or (key in maybe and not (at + 1 < len(keys) and keys[at + 1] in names and not any(
                _holds(places[k], keys[at:at + 2]) for k in holding.get(key, frozenset())))):
            runs.append((at, at + 1))
    return runs


def _key(item: str | Number) -> _Key:
    return item.values if isinstance(item, Number) else item


@lru_cache(maxsize=32)
def _prose_keys(context: tuple[str, ...]) -> tuple[tuple[tuple[_Key, ...], ...], dict[_Key, frozenset[int]]]:
    """The keys of each sentence of the context's prose, and for each key the sentences holding it."""
    places = tuple(tuple(map(_key, place.pattern)) for place, (_, record) in zip(_places(context), _parts(context))
                   if not record)
    holding: dict[_Key, set[int]] = {}
    for k, place in enumerate(places):
        for key in place:
            holding.setdefault(key, set()).add(k)
    return places, {key: frozenset(ks) for key, ks in holding.items()}


def _holds(sequence: Sequence[object], part: Sequence[object]) -> bool:
    """Whether `part` stands in `sequence`, unbroken."""
    return any(list(sequence[at:at + len(part)]) == list(part) for at in range(len(sequence) - len(part) + 1))


_KEY_VALUE = regex.compile(r"""^\s*"?([^"\n:{}\[\]]{1,40}?)"?\s*:\s*"?([^"\n{}\[\]]+?)"?,?\s*$""", regex.MULTILINE)
"""A record's field, in the layouts `records.data` hands back: its key, then its value (a time's colon too)."""
_KEY_GAPS = regex.compile(r"[_\-.\s]+|(?<=\p{Ll})(?=\p{Lu})")


class _Field(NamedTuple):
    """A record's field, as a claim may name it and give its value."""

    words: frozenset[str]  # the words of its key that no other key of its record has ("out" of check_out)
    values: frozenset[str]  # its numbers' values, its times as `_time_key`s, the words of a short value
    shown: str  # its value as written
    key: str  # its key as written ("price_eur")


def _time_key(time: Time) -> str:
    return f"{time[0] % 12 if time[2] else time[0]}:{time[1]:02d}{time[2]}"


def _values_shown(text: str) -> list[tuple[str, str]]:
    """(as written, the value) of each time of day of the text, whole ("09:05", not 9 and 5, as
    `_time_key`), and each of its other numbers' values."""
    return [(text[start:end], value) for start, end, value in _values_at(text)]


def _values_at(text: str) -> list[tuple[int, int, str]]:
    """(start, end, the value) of `_values_shown`."""
    timed = times(_ascii_digits(text))
    return [(a, b, _time_key(time)) for (a, b), time in timed] + [
        (n.start, n.end, v) for n in numbers(text) for v in n.values
        if not any(a <= n.start < b for (a, b), _ in timed)]


def _blocks(passage: str) -> list[str]:
    """Runs of two or more "key: value" lines or sentences in a passage that is no data as a whole
    ("Check-in: 14:00" and "Check-out: 11:00" of one booking a tool wrote as text, a spec sheet's
    "Speed: 25 km/h. Range: 40 km."): each one thing's fields."""
    found: list[list[str]] = [[]]
    for line in records.parts(passage):
        field = _KEY_VALUE.fullmatch(line)
        if field and len(field.group(2).split()) <= records.MAX_WORDS:
            found[-1].append(line)
        elif found[-1]:
            found.append([])
    return ["\n".join(lines) for lines in found if len(lines) > 1]


_BRACKETED = regex.compile(r"[(（]([^()（）\n]{1,80})[)）]")
_HOLDER_ENDS = regex.compile(r"[;!?\n—–\"“”«»()（）]|[,:.](?!\d)")
_CLAUSE_END = regex.compile(r"[ \u00a0]?[%‰\p{Sc}]?(?:\s*(?:[.,;!?)]|$)|\s+(\p{L}+))")


def _ends_clause(text: str, at: int) -> bool:
    """Whether a number ending at `at` ends its clause, or stands before a joining word, a sign
    such as "%" or "€" after it: in a list, after a name, it has the unit of the one before ("… 40 people
    and Beta 25."), or none ("Anna joined in 2019 and Lars in 2021", "Acme grew 12% and Beta 5%";
    not "founded in 1997 and went public in 2005", whose second value has no name)."""
    end = _CLAUSE_END.match(text, at)
    return end is not None and (end.group(1) is None or fold(end.group(1)) in joining_words.JOINING)
_ELIDED_VERB = regex.compile(r"\s[—–]\s*$")
"""A dash right before a value stands for the verb ("тариф B — 10 USD"): no clause's end."""
MAX_HOLDER_WORDS = 3
"""Words (besides small ones of up to three letters) before a value that name what it is of:
"Ingrid Dahl (seat 14C)", "the Oslo office (40 staff)"."""


MAX_BRACKETED = 12
"""Things with a value in brackets in one paragraph at most for it to be a record: more is prose."""


def _bracketed(passage: str) -> list[list[tuple[str, str]]]:
    """What each paragraph of a passage gives in brackets after two or more things, as a record of
    (the thing, the value): "Ingrid Dahl (seat 14C) and Karin Berg (seat 22A)", "Alice (30) and Bob
    (35)". The thing is the words before the bracket back to a clause's mark or a joining word
    (`joining_words`); where those are a value alone and the bracket holds no digit, the bracket
    names the thing: "€12.50 (adults), €6.25 (children)"."""
    found = []
    for paragraph in passage.split("\n") if "(" in passage or "（" in passage else ():
        pairs = []
        for bracket in _BRACKETED.finditer(paragraph):
            holder = _holder(paragraph, bracket.start())
            value = bracket.group(1).strip()
            if 0 < len(holder) <= 2 and _values_shown(holder[0]) and not any(c.isdigit() for c in value):
                pairs.append((value, " ".join(holder)))
            elif holder and len(value.split()) <= records.MAX_WORDS:
                pairs.append((" ".join(holder), value))
        if 1 < len({holder for holder, _ in pairs}) and len(pairs) <= MAX_BRACKETED:
            found.append(pairs)
    return found


def _holder(text: str, at: int) -> list[str]:
    """The words before `at` that name what a value there is of: back to a clause's mark or a
    joining word, at most MAX_HOLDER_WORDS besides short small words ("Ingrid Dahl (seat 14C)", "…
    and the Pro plan 25 USD", "El vuelo IB3170 sale a las 07:10")."""
    clause = _HOLDER_ENDS.split(_ELIDED_VERB.sub("", text[max(0, at - 120):at]))[-1].split()
    joined = [i for i, word in enumerate(clause) if word.casefold() in joining_words.JOINING]
    words = clause[joined[-1] + 1 if joined else 0:]
    counted = [i for i, word in enumerate(words) if not (word.islower() and len(word) <= 3)]  # "a las", "at"
    return words[counted[-MAX_HOLDER_WORDS] if len(counted) > MAX_HOLDER_WORDS else 0:]


def _listed(sentence: str) -> list[list[tuple[str, str]]]:
    """What a sentence of prose gives two or more things with one unit word, or a time of day each,
    as a record of (the thing, the value): "The Basic plan costs 10 USD a month, the Pro plan 25
    USD" is {"Basic plan costs": "10 USD", "the Pro plan": "25 USD"}. Only an order's checks read
    these (`_order_records`)."""
    by_unit: dict[str, list[tuple[str, str]]] = {}
    timed = times(_ascii_digits(sentence))
    for (start, end), _ in timed:  # "SK4705 leaves at 07:10 and DY1872 at 13:45": times of day, one kind
        if holder := _holder(sentence, start):
            by_unit.setdefault(":", []).append((" ".join(holder), sentence[start:end]))
    for code in _codes(sentence):  # "Ingrid Dahl booked seat 14C and Karin Berg seat 22A": codes after one word
        if holder := _holder(sentence, code.start()):
            by_unit.setdefault("code " + fold(holder[-1]), []).append((" ".join(holder), code.group()))
    last = ""
    for number in (n for n in numbers(sentence) if not any(a <= n.start < b for (a, b), _ in timed)):
        holder = _holder(sentence, number.start)
        unit: str | None = _unit_of(sentence, number)
        if not unit or fold(unit) in joining_words.JOINING:  # "… and Beta 25.", "Anna joined in 2019 and Lars in 2021"
            named = any(map(_names_a_thing, holder))
            ends = named and not any(map(_is_number_token, holder)) and _ends_clause(sentence, number.end)
            unit = (last or "") if ends else None
        if unit is not None and holder:
            end = after.end() if unit and (after := _UNIT_WORD.match(sentence, number.end)) else number.end
            by_unit.setdefault(unit, []).append((" ".join(holder), sentence[number.start:end].strip()))
        last = unit or last
    return [pairs for pairs in by_unit.values() if len({holder for holder, _ in pairs}) > 1]


@lru_cache(maxsize=64)
def _order_records(context: tuple[str, ...]) -> tuple[tuple[_Field, ...], ...]:
    """`_record_fields`, then the lists of the context's prose (`_lists`): what an extreme or a
    comparison orders. Those come last, so a record's place is the same in both."""
    return _record_fields(context) + _lists(context)


@lru_cache(maxsize=256)
def _lists(context: tuple[str, ...]) -> tuple[tuple[_Field, ...], ...]:
    """The lists of the context's prose (`_listed`), as records."""
    return tuple(_fields_of(pairs) for part, record in _parts(context) if not record for pairs in _listed(part))


_OTHER_DIGITS = regex.compile(r"[^\P{Nd}0-9]")


@lru_cache(maxsize=256)
def _writing(context: tuple[str, ...], value: str) -> tuple[str, ...]:
    """The context's items that may write a value as written (by its last two digits, or any digit
    of another script): one search each before a long context's sentences are read for it."""
    digits = regex.findall(r"\d+", _ascii_digits(value))
    probe = digits[-1][-2:] if digits else ""
    return tuple(item for item in context if probe in item or _OTHER_DIGITS.search(item))


@lru_cache(maxsize=64)
def _record_fields(context: tuple[str, ...]) -> tuple[tuple[_Field, ...], ...]:
    """Each record of the context (`records.data`, a Markdown table's rows, `_blocks`,
    `_bracketed`) as its fields with a value to compare."""
    found = []
    for item in context:
        held = [[(m.group(1), m.group(2)) for m in _KEY_VALUE.finditer(record)]
                for record in records.data(item) or records.table_rows(item) or _blocks(item)]
        found += [_fields_of(record) for record in held + _bracketed(item)]
    return tuple(found)


def _fields_of(record: list[tuple[str, str]]) -> tuple[_Field, ...]:
    """A record's (key, value) pairs as its fields with a value to compare."""
    pairs = [(frozenset(_stem(w) for i, w in enumerate(_KEY_GAPS.split(key.strip()))
                        if len(w) > 1 or _letter_name(w, i)), value.strip(), key.strip()) for key, value in record]
    fields = [_Field(key - frozenset().union(*(k for k, _, _ in pairs if k is not key)),
                     frozenset(v for _, v in _values_shown(value)) | _value_words(value), value, written)
              for key, value, written in pairs]
    return tuple(field for field in fields if field.values and field.words)


def _letter_name(word: str, at: int) -> bool:
    """A capital letter alone after another word names a thing ("Plan A", "Option B", "gate C");
    first, it may be an article ("A room costs …"), and a small one is a word ("a month")."""
    return at > 0 and len(word) == 1 and word.isupper()


def _holders(context: tuple[str, ...]) -> dict[str, tuple[tuple[int, _Field], ...]]:
    """Per value of `_Field.values`, the records (by their place in `_record_fields`) and fields that hold it."""
    return _fields_by_word(context, False)


def _keyed(context: tuple[str, ...]) -> dict[str, tuple[tuple[int, _Field], ...]]:
    """Per word of `_Field.words`, the records of `_order_records` and fields whose keys hold it
    ("nord" of "Hotel Nord: 120 EUR")."""
    return _fields_by_word(context, True)


@lru_cache(maxsize=128)
def _fields_by_word(context: tuple[str, ...], of_keys: bool) -> dict[str, tuple[tuple[int, _Field], ...]]:
    found: dict[str, list[tuple[int, _Field]]] = {}
    for at, record in enumerate(_order_records(context) if of_keys else _record_fields(context)):
        for field in record:
            for word in field.words if of_keys else field.values:
                found.setdefault(word, []).append((at, field))
    return {word: tuple(held) for word, held in found.items()}


def _value_kind(value: str) -> str:
    """A time ("9:05"), a number ("189") or a word ("osl") of `_Field.values`: a field gives a value of its kind."""
    return "time" if ":" in value else "number" if _is_plain(value.lstrip("-")) else "word"


def _value_words(value: str) -> frozenset[str]:
    """The words of a field's value of up to MAX_FIELD_WORDS words with no number: a code, a name
    or a word ("OSL", "Ingrid Dahl", "confirmed"); a number's words are its unit ("25 km/h")."""
    found = _TOKEN.findall(value)
    if not found and fold(value) in _YES | _NO:  # a table's tick or cross ("❌"): a value of yes or no
        return frozenset([fold(value)])
    return frozenset(map(_stem, found)) if len(value.split()) <= MAX_FIELD_WORDS and not any(
        map(_is_number_token, found)) else frozenset()


MIN_STEM = 4
"""Letters two words must both have, and share up to five of, to name one field ("departs" names
"departure", "nights" "night"): the key's word in another form."""


def _names_field(tokens: frozenset[str], field: _Field) -> bool:
    return any(word in tokens or any(min(len(word), len(t)) >= MIN_STEM and word[:5] == t[:5] for t in tokens)
               for word in field.words)


def _fields_swapped(words: str, context: tuple[str, ...]) -> tuple[OtherValue, ...]:
    """Values of the words that a record gives only under another field than the one the words name:
    "SK4705 departs at 09:05" beside {"departs": "07:10", "arrives": "09:05"}, "Shipping costs 45 EUR"
    beside {"total_eur": 45, "shipping_eur": 5}. A field is named by a word of its key that no other
    key of its record has, in any form that shares five letters ("check-out" names check_out, not
    check_in), whose own value the words do not give too ("departs at 07:10 and lands at 09:05" gives
    09:05 to no field it names). Never decided (the words may name it otherwise): asked, with what
    the field gives."""
    found, fields_of, index = [], _record_fields(context), _holders(context)
    for clause in _clauses_of(words):
        tokens = frozenset(_stem(t) for t in _TOKEN.findall(clause))
        said = _values_shown(clause) + [(_stem(t), _stem(t)) for t in _TOKEN.findall(clause) if not _is_number_token(t)]
        values = {value for _, value in said}
        given = {value for value in values for _, field in index.get(value, ())
                 if _names_field(tokens, field)}  # each under a field the words name
        for shown, value in said:
            holders = index.get(value, ())
            if not holders or value in given:
                continue
            if _value_kind(value) == "word" and given:
                continue  # a word beside a value the words give its field: what it is about ("Ingrid Dahl asked
                # for a vegetarian meal"), not a value given to a field
            other = next((f for at, _ in holders for f in fields_of[at] if not f.values & values  # its own not said
                          and any(_value_kind(v) == _value_kind(value) for v in f.values) and _names_field(tokens, f)),
                         None)
            if other is not None:
                found.append(OtherValue(shown, other.shown, (shown,), False, True))
    return tuple(found)


def _beaten(words: str, context: tuple[str, ...]) -> tuple[OtherValue, ...]:
    """Values of a clause that says an extreme (`extreme_words`) that the context writes, where it
    writes a value of the same kind beyond it for another thing: "The cheapest flight is SK4705 at
    189 EUR" beside records giving DY1872 142 EUR under the same key, "The earliest flight leaves at
    13:45" beside one leaving at 07:10; "… the lowest at 40 EUR" beside "Plan A costs 40 EUR, plan B
    30 EUR". Never decided (the extreme may be of a smaller set: "the cheapest direct flight"):
    asked, with the value beyond it. A clause with a negation asks nothing ("is not the cheapest")."""
    found = []
    for clause in _clauses_of(words):
        amounts, hours = extreme_words.extreme(clause), extreme_words.extreme(clause, of_times=True)
        if not (amounts or hours) or NEGATION.search(fold(clause)):  # "is not the cheapest": the other way
            continue
        timed = times(_ascii_digits(clause))
        said = [(hours, clause[a:b], minutes, _time_peers(_time_key(time), context)) for (a, b), time in timed
                if hours and (minutes := _minutes(_time_key(time))) is not None]
        said += [(amounts, n.shown, n.decimals[0], _peers(n, _unit_of(clause, n), context)) for n in numbers(clause)
                 if amounts and len(n.decimals) == 1 and not any(a <= n.start < b for (a, b), _ in timed)]
        for way, shown, value, peers in said:
            beyond = [peer for peer, other in peers if (other < value if way == "least" else other > value)]
            if beyond:
                found.append(OtherValue(shown, beyond[0], (shown,), False, apart=True, ordered=True))
        if not said and (extreme := extreme_words.extreme_kind(clause)):
            found += _beaten_by_name(clause, *extreme, context)
    return tuple(found)


def _beaten_by_name(clause: str, way: str, kind: str, context: tuple[str, ...]) -> list[OtherValue]:
    """The thing a clause that says an extreme without its value names, where the context gives
    another thing a value of that kind beyond its own: "The cheapest flight is SK4705" beside
    records giving SK4705 189 EUR and DY1872 142 EUR under one key ("DY1872: 142" the value
    beyond), "The cheapest hotel is Hotel Nord" beside "Hotel Nord: 120 EUR" and "Hotel Sol: 95
    EUR". Only a word that names one record with a value of the kind, or one field of it by its key."""
    tokens, fields_of, keys, found = _clause_stems(clause), _order_records(context), _fields_by_key(context), []
    for _, written, stem, things in _named_things(clause, context):
        rows = {at for at, key in things if key is None and any(_value_of(f, kind, tokens) is not None
                                                                for f in fields_of[at])}
        keyed = [(at, key) for at, key in things if key is not None and _value_of(key, kind, tokens, True) is not None]
        if len(rows) + len(keyed) != 1:
            continue
        if rows:
            (at,) = rows
            holder = next(f for held, f in _holders(context).get(stem, ()) if held == at)
            peers = [(f, [(other, g) for other, g in keys.get(f.words, ()) if other != at]) for f in fields_of[at]]
        else:
            ((at, field),) = keyed
            holder, peers = None, [(field, [(at, g) for g in fields_of[at] if g is not field])]
        valued = [(f, v, [(other, g, w) for other, g in others
                          if (w := _value_of(g, kind, tokens, not rows)) is not None])
                  for f, others in peers if (v := _value_of(f, kind, tokens, not rows)) is not None]
        beaten = _named_first(tokens, [(f, [(other, g) for other, g, w in others
                                            if (w < v if way == "least" else w > v)])
                                       for f, v, others in valued if others])
        if beaten and all(beaten):
            other, g = beaten[0][0]
            name = _name_under(holder, fields_of[other]) if holder else g.key
            found.append(OtherValue(written, f"{name}: {g.shown}", (written,), False, apart=True, ordered=True))
    return found


def _name_under(holder: _Field, record: tuple[_Field, ...]) -> str:
    """What a record gives under the key another record's name is held under ("DY1872" under "flight")."""
    return next((f.shown for f in record if f.words == holder.words), "")


def _given_in_a_list(words: str, context: tuple[str, ...]) -> tuple[OtherValue, ...]:
    """Values of the words that a list of the context's prose (`_listed`) gives another thing than
    the one the words name: "Beta employs 40 people" beside "Acme employs 40 people and Beta 25",
    "DY1872 leaves at 07:10" beside "SK4705 leaves at 07:10 and DY1872 at 13:45". A thing is named
    by a word of its holder, written with a capital or a digit, that no other holder of the list
    has. Never decided (the words may say another fact, a sum, a change): asked, with what the list
    gives the thing the words name."""
    found = []
    for clause in _clauses_of(words):
        tokens = _clause_stems(clause)
        said = _values_shown(clause) + [(code.group(), _stem(code.group())) for code in _codes(clause)]
        values = {value for _, value in said}
        for fields in dict.fromkeys(fields for shown, _ in said for fields in _lists(_writing(context, shown))):
            named = [f for f in fields if _holder_names(f) & tokens]
            if not named or any(f.values & values for f in named):
                continue
            other = next((shown for shown, value in said for f in fields if f not in named and value in f.values), None)
            if other is not None:
                found.append(OtherValue(other, f"{named[0].key}: {named[0].shown}", (other,), False, apart=True))
    return tuple(found)


def _codes(text: str) -> list[regex.Match[str]]:
    """The tokens of digits and letters that are no number with a unit ("14C", "B12"): compared as written."""
    return [m for m in _TOKEN.finditer(text) if any(c.isdigit() for c in m.group())
            and any(c.isalpha() for c in m.group()) and not _is_number_token(m.group())]


def _holder_names(field: _Field) -> frozenset[str]:
    """The words of a list's holder that name its thing: written with a capital or a digit ("Oslo"
    of "The Oslo office has")."""
    return frozenset(stem for word in _TOKEN.findall(field.key) if _names_a_thing(word)
                     and (stem := _stem(word)) in field.words)


def _opposed(words: str, context: tuple[str, ...]) -> tuple[OtherValue, ...]:
    """An extreme, or the first or the last, that the words give a value with, where every place of
    the context that gives that value such a word gives the other way's: "The last train leaves at
    05:50" beside "The first train leaves at 05:50", "The lowest temperature was 31 °C" beside "The
    highest temperature was 31 °C". Never decided (both may hold: "the first and only train"):
    asked, with the context's word. A clause with a negation asks nothing."""
    found = []
    for clause in (clause for clause in _clauses_of(words) if not negations(fold(clause))):  # "не менее 4" bounds
        for value, way, kind, said, shown in _valued_extremes(clause):
            theirs = _extremes_by_value(_writing(context, shown)).get(value, ())
            if theirs and all(k == kind and w != way for w, k, _ in theirs):
                found.append(OtherValue(said, theirs[0][2], (said,), False, apart=True, ordered=True))
    return tuple(found)


_Way = Literal["otherwise", "hedged", "same"]


@lru_cache(maxsize=256)
def _negated(words: str, context: tuple[str, ...]) -> tuple[OtherValue, ...]:
    """A clause of the words that the context writes only the other way: with a negation the words
    leave out, or without the one they write, or with a word of the other sense, and nowhere as
    they do: "Breakfast is included" beside "Breakfast is not included", "The ticket is
    refundable" beside "non-refundable", "Wi-Fi is available" beside "unavailable", "Kahvaltı
    dahil" beside "Kahvaltı dahil değil", "房价包括早餐" beside "房价不包括早餐", "The museum is open"
    beside "The museum is closed", "DY1872 is refundable" beside a record's "refundable": false,
    "Your booking is confirmed" beside "status": "cancelled"; or only more weakly ("The flight is
    delayed" beside "The flight may be delayed", "All rooms" beside "Some rooms", "Breakfast is
    free" beside "… if you book directly"). Never decided (the rest of the context may say it
    otherwise): asked, with the context's words. And where no clause writes it any of these ways,
    one word a whole clause writes in the place of the context's, every other word the same, that
    the context writes nowhere (`_one_word_for_another`): asked, told the context's word."""
    found: list[OtherValue] = []
    wholes = {whole.strip(_ENDS) for stretch in stretches(words) or [words] for whole in _negated_clauses(stretch)}
    for clause in dict.fromkeys(c.strip(_ENDS) for stretch in stretches(words) or [words]
                                for whole in _negated_clauses(stretch) for c in [whole, *_joined_parts(whole)]):
        mine = _Clause.of(clause)
        near = _near_clauses(mine, context)
        ways = {way: theirs for theirs in near if (way := _negated_otherwise(mine, theirs)) is not None}
        given = ways.get("otherwise", ways.get("hedged")) if "same" not in ways else None
        other = given.text if given else "" if ways else _field_negated(clause, mine, context)
        if other and all(value.other != other for value in found):  # a part of a clause found whole: once
            found.append(OtherValue(clause, other, (clause,), False, apart=True, negated=True,
                                    hedged=bool(given) and "otherwise" not in ways))
        elif not ways and clause in wholes and (swap := next((pair for theirs in near if (
                pair := _one_word_for_another(mine, theirs, _written(context)[0]))), None)):  # not "… budget" of "of"
            said = next((token for token in _TOKEN.findall(clause) if fold(token) == swap[0]), swap[0])
            found.append(OtherValue(said, swap[1], (said,), False, apart=True))
    return tuple(found)


def _one_word_for_another(mine: _Clause, theirs: _Clause, written: frozenset[str]) -> tuple[str, str] | None:
    """The one word of `mine` that `theirs` writes another in the place of, every other word the
    same and neither clause negating or hedging, where the context writes that word nowhere: "The
    hotel is 200 metres from the station" beside "… from the beach" (mine's, theirs), or None."""
    if mine.negating or theirs.negating or mine.hedging or theirs.hedging:
        return None
    ops = SequenceMatcher(None, mine.tokens, _as_forms_of(theirs.tokens, mine.tokens), autojunk=False).get_opcodes()
    changed = [op for op in ops if op[0] != "equal"]
    if len(changed) != 1 or changed[0][0] != "replace" or changed[0][2] - changed[0][1] != 1 \
            or changed[0][4] - changed[0][3] != 1 or len(mine.tokens) - 1 < MIN_ROLE_WORDS:
        return None
    word, other = mine.tokens[changed[0][1]], theirs.tokens[changed[0][3]]
    if min(len(word), len(other)) <= MAX_SMALL_WORD or word in written or _has_digit(word) or _has_digit(other):
        return None
    return word, other


_NEGATED_CUTS = regex.compile(r"[;—–、，；]|,(?!\d)|\s-\s|\n")
"""Where `_negated` cuts clauses: `_CLAUSE_CUTS` but at a colon, so "Breakfast: not included" is
one, and at a bracket, which it reads past (`_ASIDE`)."""
_ASIDE = regex.compile(r"\s*[(\[{（][^()\[\]{}（）]*[)\]}）]")
_CONTRASTING = frozenset("but however whereas aber doch jedoch sondern mais pero sino ma però mas porém maar men ale "
                         "но однако ama fakat tetapi".split())
"""Words that set one clause against the next: "includes a seat but comes without checked baggage"."""
_JOINS = joining_words.JOINING | _CONTRASTING
_JOINED_AT = regex.compile(r"\s(?:" + "|".join(map(regex.escape, sorted(_JOINS, key=len, reverse=True))) + r")\s",
                           regex.IGNORECASE)


def _joined_parts(clause: str) -> list[str]:
    """The parts of a clause that joining or contrasting words join, where each is two tokens or
    more: "Breakfast is included and parking is free" says "Breakfast is included" beside "Breakfast
    is not included"; "die Kartusche jedoch nicht" is no "die Kartusche" (its "nicht" is elided)."""
    parts = _JOINED_AT.split(clause)
    return parts if len(parts) > 1 and all(len(_TOKEN.findall(part)) >= MIN_ROLE_WORDS for part in parts) else []


_COMMA_ASIDE = regex.compile(r",\s*(?:[\p{L}\p{M}'’-]+\s*){1,2},(?!\d)")
"""One or two words set off by commas, read without the commas too: "however" of "Breakfast,
however, is not included", "возможно" of "Рейс, возможно, задержится"."""


def _negated_clauses(text: str) -> list[str]:
    """The clauses `_negated` compares, without their asides: "Airport taxes (31 EUR on this route)
    are refunded on request" is "Airport taxes are refunded on request", and "Frühstück ist,
    leider, nicht inbegriffen" is cut at its commas and read without them too."""
    text = _ASIDE.sub("", text)
    whole = [text, _COMMA_ASIDE.sub(lambda aside: f" {aside.group().strip(', ')}", text)] \
        if _COMMA_ASIDE.search(text) else [text]
    return list(dict.fromkeys(clause for one in whole for clause in _with_joined(_NEGATED_CUTS.split(one))
                              if _TOKEN.search(clause)))


def _with_joined(pieces: list[str]) -> list[str]:
    """Pieces of a clause cut at its marks, each that a joining or contrasting word starts read with
    the one before it too ("groß, aber nicht erstattungsfähig" says the room is not refundable), and
    one beside a piece that a condition or an account starts or ends only with it: "If you pay by
    card, a 2% fee applies" says no fee applies outright, nor "Kritiker behaupten, die Brücke sei
    unsicher" that the bridge is unsafe."""
    read = list(pieces)
    for k, piece in enumerate(pieces[:-1]):
        ends = _TOKEN.findall(piece)
        if ends and any(CONDITIONS.fullmatch(word.casefold()) for word in (ends[0], ends[-1])):
            read[k + 1] = f"{piece.rstrip()} {pieces[k + 1].lstrip()}"
    if len(pieces) > 1 and (ends := _TOKEN.findall(pieces[-1])) and CONDITIONS.fullmatch(ends[0].casefold()):
        read[-2] = f"{read[-2].rstrip()} {pieces[-1].lstrip()}"  # "…, if you book directly"
    joined = [f"{before.rstrip()} {piece.lstrip()}" for before, piece in zip(read, pieces[1:])
              if (first := _TOKEN.match(piece.lstrip())) and first.group().casefold() in _JOINS]
    return read + joined


MAX_CHANGED_WORDS = 1
"""Words of a clause, besides a negation, that another may write otherwise and still be the same
words negated: "has a pool" of "has no pool", "je" of "není", "sisältyy" of "ei sisälly"."""
MAX_ADDED_WORDS = 2
"""Words besides a negation that a clause may add between the words it shares: "does" and "charge"
of "does not charge" beside "charges"."""


class _Clause(NamedTuple):
    """A clause as `_negated` compares it: its tokens (a script without spaces by its characters),
    which of them negate (`negation_words.NEGATION`), which are a negation and nothing else ("not",
    "pas", "değil"; not "n'ouvre"), which say it more weakly (`negation_words.HEDGES`), and whether
    it says it only under a condition or by someone's account (`negation_words.CONDITIONS`)."""

    text: str
    tokens: tuple[str, ...]
    negating: frozenset[int]
    negations: frozenset[int]
    hedging: frozenset[int]
    framing: frozenset[int]

    @property
    def qualifying(self) -> frozenset[int]:
        """The tokens that say how far the rest is so, which no limit counts as words changed."""
        return self.negating | self.hedging

    @staticmethod
    @lru_cache(maxsize=4096)
    def of(text: str) -> _Clause:
        body = _clause_body(text)
        tokens: list[str] = []
        starts: list[int] = []
        for match in _TOKEN.finditer(body):
            token, at = match.group(), match.start()
            pieces = list(token) if _IS_SPACELESS.match(token) else [token]
            tokens += pieces
            starts += [at + k for k in range(len(pieces))] if len(pieces) > 1 else [at]
        ends = [at + len(token) for at, token in zip(starts, tokens)]
        negating: set[int] = set()
        whole: set[int] = set()
        for a, b in negations(body):
            held = range(bisect_right(ends, a), bisect_left(starts, b))  # the tokens it overlaps
            negating.update(held)
            whole.update(i for i in held if a <= starts[i] and ends[i] <= b)
        hedging = {i for a, b in hedges(body) for i in range(bisect_right(ends, a), bisect_left(starts, b))}
        framing = {i for match in CONDITIONS.finditer(body)
                   for i in range(bisect_right(ends, match.start()), bisect_left(starts, match.end()))}
        return _Clause(text, tuple(tokens), frozenset(negating - hedging), frozenset(whole - hedging),
                       frozenset(hedging), frozenset(framing))  # "かもしれません" hedges, and negates nothing


def _clause_body(text: str) -> str:
    """`fold` without its offsets, in one pass over the whole text: what `_negated` compares."""
    folded = unicodedata.normalize("NFKC", text.translate(_SIGNS)).casefold().translate(_SAME_MARKS)
    return as_words(_SPACE.sub(" ", folded))


MAX_SMALL_WORD = 4
"""Letters of a word that may stand for another in a clause negated ("a" of "has a pool" beside
"has no pool", "je" beside "není", "does" of "does not charge"); a longer one may be of the other
sense outside `negation_words`' pairs ("n'ouvre pas" beside "est fermé" says the same), so it must
share a stem with the word it faces."""


def _negated_otherwise(mine: _Clause, theirs: _Clause) -> _Way | None:
    """How `theirs` writes the tokens of `mine`: the other way, with a negation the other does not
    have, or a word of the other sense (`negation_words.opposite_senses`) where it has none; only
    more weakly, as what may be so or of some, where mine says it firmly ("hedged"); the same way,
    with every word of mine; or in other words (None): all but MAX_CHANGED_WORDS of mine, in order,
    with at most MAX_ADDED_WORDS more between them, each word one side writes for another of the
    other's small, of the same stem or of the other sense, and the negations and hedges between
    them, or right before or after."""
    ops = SequenceMatcher(None, mine.tokens, _as_forms_of(theirs.tokens, mine.tokens), autojunk=False).get_opcodes()
    shared = [op for op in ops if op[0] == "equal"]
    if not shared:
        return None
    held = sum(i2 - i1 for _, i1, i2, _, _ in shared)
    first, last = ops.index(shared[0]), ops.index(shared[-1])
    negated = [False, False]
    hedged = [False, False]
    changed = [0, 0]
    small = 0  # small words of mine at an edge the context does not write: no limit, but not the same words
    parted: set[int] = set()  # the context's words of another part, between the shared ones: not the same words
    flipped = False  # a word of the other sense, "open" for "closed": a negation of its own
    for k, (tag, i1, i2, j1, j2) in enumerate(ops):
        if tag == "equal":
            continue
        opposed = [(i, j) for i in range(i1, i2) for j in range(j1, j2)  # "after that" may be what was before
                   if opposite_senses(mine.tokens[i], theirs.tokens[j], between=k > first)]
        mine_at = [i for i in range(i1, i2) if all(i != a for a, _ in opposed)]
        theirs_at = [j for j in range(j1, j2) if all(j != b for _, b in opposed)]
        if any(map(_is_number_token, (mine.tokens[i] for i in mine_at))) and any(
                map(_is_number_token, (theirs.tokens[j] for j in theirs_at))):
            return None  # another number: another fact, which the checks of numbers read
        lessened = sum(mine.tokens[i] in _LESS for i in mine_at) + sum(theirs.tokens[j] in _LESS for j in theirs_at)
        flipped ^= bool(opposed) and lessened % 2 == 0  # "less expensive" is "cheaper"
        if not first < k < last:  # before or after the shared words: the context's only next to them
            ends = j2 == len(theirs.tokens) and j2 - 1 in theirs.negating  # a negation that ends it: "있지 않습니다"
            near = [j for j in ([j2 - 1] if k < first else [j1, j2 - 1] if ends else [j1]) if j in theirs_at]
            negated[0] = negated[0] or any(i in mine.negating or any(
                negated_form(mine.tokens[i], theirs.tokens[j]) for j in near) for i in mine_at)
            negated[1] = negated[1] or any(j in theirs.negating or any(
                negated_form(theirs.tokens[j], mine.tokens[i]) for i in mine_at) for j in near)
            hedged[0] = hedged[0] or any(i in mine.hedging or mine.tokens[i] in CAN for i in mine_at)
            hedged[1] = hedged[1] or any(j in theirs.hedging for j in near)
            content = _changed(mine, [i for i in mine_at if theirs_at or len(mine.tokens[i]) > MAX_SMALL_WORD],
                               [theirs.tokens[j] for j in theirs_at])  # not "the" of a subject named before
            if content and (opposed or any(i in mine.negating for i in mine_at)):
                return None  # what the words negate the context never writes: "… are also not allowed"
            changed[0] += content
            small += _changed(mine, mine_at, [theirs.tokens[j] for j in theirs_at]) - content \
                + _loosely(mine, mine_at, [theirs.tokens[j] for j in theirs_at])
            if not _a_word_for_a_word(mine, mine_at, [theirs.tokens[j] for j in theirs_at], edge=True):
                return None  # another subject: "Parking is free" beside "Wi-Fi is not free"
            continue
        for side, (one, at, other, facing) in enumerate(((mine, mine_at, theirs, theirs_at),
                                                         (theirs, theirs_at, mine, mine_at))):
            past = _past_joins(one, at)  # the context's words before a join are its other part's: "large but not"
            negated[side] = negated[side] or any(i in one.negating or any(
                negated_form(one.tokens[i], other.tokens[j]) for j in facing) for i in past)
            counted = past if side else at
            hedged[side] = hedged[side] or any(i in one.hedging or not side and one.tokens[i] in CAN for i in counted)
            parted.update(j for j in at if j not in counted)
            changed[side] += _changed(one, counted, [other.tokens[j] for j in facing])
            small += 0 if side else _loosely(one, counted, [other.tokens[j] for j in facing])
            if not _a_word_for_a_word(one, counted, [other.tokens[j] for j in facing
                                                     if j not in other.negations | other.hedging]):
                return None
    if changed[0] > MAX_CHANGED_WORDS or changed[1] > MAX_ADDED_WORDS \
            or held < MIN_ROLE_WORDS - (flipped and not changed[0]):  # beside its other sense: "Парковка платная"
        return None
    if negated[0] != (negated[1] != flipped):
        return "otherwise"
    of_all = any(token in EVERY for token in mine.tokens) and not any(token in EVERY for token in theirs.tokens)
    if (hedged[1] or of_all or _framed(theirs, shared[0][3], shared[-1][4], parted)) and not (
            hedged[0] or mine.framing):  # "in every room" beside "only in Room 12"
        return "hedged"
    return None if changed[0] or small or parted else "same"  # the same way: every word of mine


def _framed(theirs: _Clause, start: int, end: int, parted: set[int]) -> bool:
    """Whether a condition or an account (`_Clause.framing`) frames the context's tokens from `start`
    to `end`: one of theirs, or one before or after them with no joining word between ("Breakfast is
    free if you book directly"; not the "if" of "City are fourth and will be ahead if they win")."""
    joins = [j for j, token in enumerate(theirs.tokens) if token in _JOINS]
    return any(not (j in parted or any(j < k < start for k in joins) or any(end <= k < j for k in joins))
               for j in theirs.framing)


def _past_joins(one: _Clause, at: list[int]) -> list[int]:
    """The tokens at `at` after the last joining or contrasting word among them: a negation before
    it is another part's ("The fare is non-refundable but changeable" says "The fare is changeable")."""
    joins = [k for k, i in enumerate(at) if one.tokens[i] in _JOINS]
    return at[joins[-1] + 1:] if joins else at


_LESS = frozenset("less weniger moins menos meno minder mindre mniej менее".split())
"""Words that turn a word of one sense to the other: "less expensive" is "cheaper"."""


def _changed(one: _Clause, at: Iterable[int], facing: list[str]) -> int:
    """Words of `one` at `at` that the limits count: no negation, hedge or word of all, and no other
    form of a word they face ("śniadaniem" beside "śniadania")."""
    return sum(i not in one.qualifying and one.tokens[i] not in EVERY
               and not any(_same_stem(one.tokens[i], word) for word in facing) for i in at)


def _loosely(one: _Clause, at: Iterable[int], facing: list[str]) -> int:
    """Words of `one` at `at` that `_changed` does not count for a stem they share with a word they
    face, but that are no form of it (`_a_form_of`): "weekends" beside "weekdays" is no limit, and
    not the same words either."""
    return sum(i not in one.qualifying and one.tokens[i] not in EVERY and not any(
        _a_form_of(one.tokens[i], word) or one.tokens[i] == word for word in facing) and any(
        _same_stem(one.tokens[i], word) for word in facing) for i in at)


def _a_word_for_a_word(one: _Clause, at: Iterable[int], words: list[str], edge: bool = False) -> bool:
    """Whether the words of `one` at `at` that are no negation alone may stand for `words` (the
    other clause's, negations left out) as the same words negated: none faces them, or each is
    small or shares a stem with one of them, or, at the `edge` of the shared words, they are one
    small word ("it" of "it is not paid" may be what "Overtime is paid" names: `MAX_SMALL_WORD`)."""
    alone = not words or edge and len(words) == 1 and len(words[0]) <= MAX_SMALL_WORD
    return alone or all(len(one.tokens[i]) <= MAX_SMALL_WORD or one.tokens[i] in _BE | EVERY
                        or any(_same_stem(one.tokens[i], word) for word in words)
                        for i in at if i not in one.negations | one.hedging)


_BE = frozenset("being been were sein sind waren gewesen être sont était ser estar está son están essere sono stato "
                "estava zijn waren vara varit være været być jest był była było быть есть был была было".split())
"""Forms of "be" longer than a small word, which may stand for another ("potrebbe essere cancellato"
beside "è cancellato")."""


def _same_stem(one: str, other: str) -> bool:
    """Two forms of one word ("charges", "charge"; "sisältyy", "sisälly"; "n'est", "est"; "available",
    "unavailable"; "있지", "있습니다", a Hangul syllable a stem): a shared start of half the shorter
    (after an elision), or one the other negated."""
    one, other = one.rsplit("'", 1)[-1], other.rsplit("'", 1)[-1]
    shared = len(commonprefix([one, other]))
    least = 1 if _HANGUL.match(one) else 2
    return shared >= max(least, min(len(one), len(other)) / 2) or negated_form(one, other) or negated_form(other, one)


_HANGUL = regex.compile(r"\p{Hangul}")


def _near_clauses(mine: _Clause, context: tuple[str, ...]) -> list[_Clause]:
    """The context's clauses that hold all but MAX_CHANGED_WORDS of the tokens of `mine` that do not
    negate or hedge, or of those but one word of a sense or of all ("included" of "included in"
    beside "excluded from", "ze" of "ze śniadaniem" beside "bez śniadania", "todas"): any that
    `_negated_otherwise` compares, each in any of its forms (`_a_form_of`); found by the rarest of
    those the context writes."""
    clauses, held, index, starts = _clause_index(context)
    plain = frozenset(token for i, token in enumerate(mine.tokens) if i not in mine.qualifying)
    forms = {token: [word for word in starts.get(token[:MIN_FORM_LETTERS], ()) if word == token
                     or _a_form_of(token, word)] for token in plain}
    found: set[int] = set()
    for dropped in [None, *(token for token in plain if of_a_sense(token, between=True) or token in EVERY)]:
        tokens = plain - {dropped}
        rarest = sorted(tokens, key=lambda token: (sum(len(index[form]) for form in forms[token]), token))
        found.update(k for token in rarest[:MAX_CHANGED_WORDS + 1] for form in forms[token] for k in index[form]
                     if _holds_nearly(tokens, held[k], forms) and (
                         dropped is None or any(_written_otherwise(dropped, other) for other in held[k] - plain)))
    return [_Clause.of(clauses[k]) for k in sorted(found)]


def _holds_nearly(tokens: frozenset[str], held: frozenset[str], forms: dict[str, list[str]]) -> bool:
    """Whether `held` writes all but MAX_CHANGED_WORDS of `tokens`, each in one of its `forms`."""
    gone = tokens - held
    return len(gone) <= MAX_CHANGED_WORDS or sum(
        not any(form in held for form in forms[token]) for token in gone) <= MAX_CHANGED_WORDS


MIN_FORM_LETTERS, MIN_FORM_SHARE = 4, 0.6
"""Of the longer of two words, the share that must be their shared start, of MIN_FORM_LETTERS or
more, for one to be a form of the other ("plan" of "plans", "habitación" of "habitaciones"; not "port" of
"portugal")."""


@lru_cache(maxsize=8192)
def _a_form_of(one: str, other: str) -> bool:
    """Whether two words are forms of one (`MIN_FORM_SHARE`), and neither the other negated."""
    shared = len(commonprefix([one, other]))
    return shared >= MIN_FORM_LETTERS and shared >= MIN_FORM_SHARE * max(len(one), len(other)) and not (
        negated_form(one, other) or negated_form(other, one))


def _as_forms_of(tokens: tuple[str, ...], mine: tuple[str, ...]) -> tuple[str, ...]:
    """`tokens` with each that is another form of one of `mine` written as that one: "Several plans
    include SSO" beside "Every plan includes SSO" shares three words, not one."""
    written = dict.fromkeys(mine)
    return tuple(token if token in written else next((word for word in written if _a_form_of(token, word)), token)
                 for token in tokens)


@lru_cache(maxsize=4096)
def _written_otherwise(word: str, other: str) -> bool:
    """Whether a clause's `other` may be `word` of the words written otherwise: of the other sense,
    another form, or a hedge for a word of all ("algunas" for "todas")."""
    return opposite_senses(word, other) or _same_stem(word, other) or word in EVERY and bool(HEDGES.fullmatch(other))


@lru_cache(maxsize=64)
def _clause_index(context: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[frozenset[str], ...],
                                                     dict[str, tuple[int, ...]], dict[str, tuple[str, ...]]]:
    """The context's clauses (`_negated_clauses` of each sentence or record), the tokens of each (a
    script without spaces by its characters), per token the clauses that hold it, and per first
    MIN_FORM_LETTERS letters the tokens that start so (where another form of a word is found)."""
    clauses = tuple(dict.fromkeys(c.strip(_ENDS) for part, _ in _parts(context) for whole in _negated_clauses(part)
                                  for c in [whole, *_joined_parts(whole)]))
    held = tuple(frozenset(piece for token in _TOKEN.findall(_clause_body(clause))
                           for piece in (token if _IS_SPACELESS.match(token) else [token])) for clause in clauses)
    index: dict[str, list[int]] = {}
    for k, tokens in enumerate(held):
        for token in tokens:
            index.setdefault(token, []).append(k)
    starts: dict[str, list[str]] = {}
    for token in index:
        starts.setdefault(token[:MIN_FORM_LETTERS], []).append(token)
    return clauses, held, {token: tuple(at) for token, at in index.items()}, {
        start: tuple(words) for start, words in starts.items()}


_YES = frozenset("true yes ja oui sí si sim tak да evet ✓ ✔ ✅ ☑".split())
_NO = frozenset("false no nein non não nie нет hayır ❌ ✗ ✘ ✖ 🚫 ⛔".split())
"""A field's value that says yes or no: JSON's booleans, the words, and a table's ticks and crosses."""


def _field_negated(clause: str, mine: _Clause, context: tuple[str, ...]) -> str:
    """A record's field that gives the other way than the clause says, in every record the clause
    names a value of (where it names none, in every record with such a field): a field of yes or no
    whose key the clause names ("refundable": false), or a state (`_state_otherwise`). The field as
    the record writes it, or ""."""
    tokens = _clause_stems(clause)
    fields = [(named, field) for named, field in _fields_beside(context, True) if _names_field(tokens, field)]
    negated = bool(mine.negating) or any(negated_form(t, w) for t in tokens for _, field in fields for w in field.words)
    held = [field for named, field in fields if named & tokens] or [field for _, field in fields]
    if held and all((fold(field.shown) in _YES) == negated for field in held):
        return f"{held[0].key}: {held[0].shown}"
    return _state_otherwise(tokens, mine, context)


def _state_otherwise(tokens: frozenset[str], mine: _Clause, context: tuple[str, ...]) -> str:
    """A record's field whose value is a state the clause negates, or one of the other sense of a
    word of the clause that the context writes nowhere ("status": "cancelled" beside "is
    confirmed"; a word given to another record is asked as that, `_given_apart`), in every record
    the clause names by another value than a state of that field: the field, or ""."""
    plain = [t for i, t in enumerate(mine.tokens) if i not in mine.negating]
    unwritten_words = [t for t in plain if t not in _written(context)[0]]
    negated_words = [mine.tokens[i] for i in range(len(mine.tokens)) if i not in mine.negating and any(
        -NEGATED_BEFORE <= i - at <= NEGATED_AFTER for at in mine.negating)]
    fields = _fields_beside(context, False)
    states: dict[str, frozenset[str]] = {}
    for _, field in fields:
        states[field.key] = states.get(field.key, frozenset()) | field.values
    named = [field for values, field in fields if values & (tokens - states[field.key])]  # not by "confirmed"
    held = [field for field in named or [field for _, field in fields]
            if any(opposite_senses(t, w, between=False) for t in unwritten_words for w in _states(field))
            or any(_same_stem(t, w) and of_a_sense(w) for t in negated_words for w in _states(field))]
    otherwise = [field for field in held if bool(mine.negating) != any(
        opposite_senses(t, w, between=False) for t in plain for w in _states(field))]
    return f"{held[0].key}: {held[0].shown}" if held and len(otherwise) == len(held) else ""


def _states(field: _Field) -> list[str]:
    """The words of a field's value as `_negated` compares them: "on_time" one word."""
    return _TOKEN.findall(as_words(fold(field.shown)))


NEGATED_AFTER = 2
"""Words after a negation that it may negate ("not" of "is not delayed"): the rest of the clause
names what is negated ("Booking QX7K2P is not …")."""
NEGATED_BEFORE = 1
"""Words before a negation that it may negate ("gecikmeli değil", "遅れていない")."""


@lru_cache(maxsize=128)
def _fields_beside(context: tuple[str, ...], yes_or_no: bool) -> tuple[tuple[frozenset[str], _Field], ...]:
    """The fields of the context's records whose value is yes or no, or else words alone (a state,
    a name: `_value_words`), each with its record's other values."""
    return tuple((frozenset().union(*(other.values for other in record if other is not field)), field)
                 for record in _record_fields(context) for field in record
                 if (fold(field.shown) in _YES | _NO) == yes_or_no
                 and (yes_or_no or all(_value_kind(value) == "word" for value in field.values)))


@lru_cache(maxsize=64)
def _extremes_by_value(context: tuple[str, ...]) -> dict[str, list[tuple[str, str, str]]]:
    """Per value the context's sentences give with an extreme's words (`_valued_extremes`), those."""
    found: dict[str, list[tuple[str, str, str]]] = {}
    for sentence in (s for item in context for s in records.parts(item)):
        for value, way, kind, said, _ in _valued_extremes(sentence):
            found.setdefault(value, []).append((way, kind, said))
    return found


def _valued_extremes(text: str) -> list[tuple[str, str, str, str, str]]:
    """(value, way, kind, the words as written, the value as written) of each value of a text with
    an extreme's words, or the first's or the last's (`extreme_words.extremes_at`): the last such
    words between the value before and it, else the first between it and the next ("the first
    train leaves at 05:50 and the last at 23:40")."""
    said = extreme_words.extremes_at(text)
    if not said:
        return []
    values = sorted(_values_at(text))
    found = []
    for i, (start, end, value) in enumerate(values):
        before = [s for s in said if (values[i - 1][1] if i else 0) <= s[2].start() < start]
        after = [s for s in said if end <= s[2].start() < (values[i + 1][0] if i + 1 < len(values) else len(text))]
        if near := (before[-1:] or after[:1]):
            way, kind, match = near[0]
            found.append((value, way, kind, match.group(), text[start:end]))
    return found


def _misordered(words: str, context: tuple[str, ...]) -> tuple[OtherValue, ...]:
    """Comparisons of a clause between two things the context's records give a value of the same
    kind to, where the values go the other way: "SK4705 is cheaper than DY1872" beside records
    giving 189 and 142 EUR under one key, "DY1872 leaves earlier than SK4705", "SK4705 has more
    stops than DY1872" (the words name the field), "Hotel Sol is dearer than Hotel Nord" beside
    "Hotel Nord: 120 EUR" and "Hotel Sol: 95 EUR". Never decided (the comparison may be of another
    value or set: "cheaper with bags"): asked, with the values the context gives. A clause with a
    negation ("is not cheaper than") asks nothing: it says the other order, for the verdict to read."""
    found = []
    for clause in (clause for stretch in stretches(words) or [words] for clause in _compared_clauses(stretch)
                   if not NEGATION.search(fold(clause))):  # "is not cheaper than": the other way
        for comparison in extreme_words.comparisons(clause):
            pairs = _compared(clause, comparison, context)
            if pairs and all(v >= w if comparison.way == "least" else v <= w for (_, v), (_, w) in pairs):
                said = clause[comparison.start:comparison.end]
                found.append(OtherValue(said, "; ".join(f"{one}, {other}" for (one, _), (other, _) in pairs),
                                        (said,), False, apart=True, ordered=True))
    return tuple(found)


def _compared_clauses(stretch: str) -> list[str]:
    """The clauses of a stretch, one that ends with a comparison's words kept with the next where
    that starts with what they are followed by: "SK4705 дешевле, чем DY1872"."""
    found: list[str] = []
    for clause in _CLAUSE_CUTS.split(stretch):
        if found and extreme_words.THAN.match(clause) and any(
                c.end == len(found[-1].rstrip()) for c in extreme_words.comparisons(found[-1])):
            found[-1] += ", " + clause
        else:
            found.append(clause)
    return found


def _compared(clause: str, comparison: extreme_words.Comparison, context: tuple[str, ...]
              ) -> list[tuple[tuple[str, Decimal], tuple[str, Decimal]]]:
    """("the thing: its value" as the context gives it, the value) of the two things a comparison
    orders, where the context gives each one value of the comparison's kind (`_value_of`): records
    named by the clause's words with a field under the same key ("flight": "SK4705", "price_eur":
    189), or two fields of one record whose keys name them ("Hotel Nord: 120 EUR"). The thing
    named first is compared with the next one named after the comparison's words, or before them
    where the language names it there (`Comparison.than_before`)."""
    tokens, fields_of, before = _clause_stems(clause), _order_records(context), comparison.than_before
    named = _named_things(clause, context)
    for at, written, stem, mine in (n for n in named if before or n[0] < comparison.start):
        for _, other_written, other_stem, theirs in (n for n in named if n[0] > at and (
                n[0] < comparison.end if before else n[0] >= comparison.end)):
            pairs: set[tuple[str, _Field, str, _Field, bool]] = set()
            for (one, key), (other, other_key) in ((m, t) for m in mine for t in theirs):
                if key is None and other_key is None and one != other:  # two rows, one key
                    pairs |= {(_name_of(one, stem, written, context), f,
                               _name_of(other, other_stem, other_written, context), g, False)
                              for f in fields_of[one] for g in fields_of[other] if f.words == g.words}
                elif key is not None and other_key is not None and one == other and key is not other_key:
                    pairs.add((key.key, key, other_key.key, other_key, True))  # two keys of one record
            kind = comparison.kind
            valued = [(f, ((f"{one}: {f.shown}", v), (f"{other}: {g.shown}", w)))
                      for one, f, other, g, keyed in sorted(pairs, key=lambda pair: pair[1].shown)
                      if (v := _value_of(f, kind, tokens, keyed)) is not None
                      and (w := _value_of(g, kind, tokens, keyed)) is not None]
            if valued:
                return _named_first(tokens, valued)
    return []


_Valued = TypeVar("_Valued")


def _named_first(tokens: frozenset[str], valued: list[tuple[_Field, _Valued]]) -> list[_Valued]:
    """What is found of the fields the words name, where they name any ("leaves" names no "departs"), else of all."""
    return [found for f, found in valued if _names_field(tokens, f)] or [found for _, found in valued]


def _clauses_of(words: str) -> list[str]:
    """The clauses of each stretch of the words (`_CLAUSE_CUTS`): what an order's or a list's checks read."""
    return [clause for stretch in stretches(words) or [words] for clause in _CLAUSE_CUTS.split(stretch)]


def _names_a_thing(word: str) -> bool:
    """A word with a capital or a digit: a name or a code, as a list's holder writes its thing."""
    return any(c.isupper() or c.isdigit() for c in word)


def _clause_stems(clause: str) -> frozenset[str]:
    return frozenset(_stem(t) for t in _TOKEN.findall(clause))


def _value_of(field: _Field, kind: str, tokens: frozenset[str], keyed: bool = False) -> Decimal | None:
    """A field's one value of a kind of `extreme_words`, by value: a time of day in minutes; an
    amount of money, where its key or unit is money (`_PRICED`); any number of a field the clause's
    `tokens` name ("stops" of "more stops"), or, where its key names a thing (`keyed`: "Oslo has"
    of "Oslo has 40 staff, Bergen 25 staff"), whose unit they name ("more staff"). Else None."""
    if kind == "time":
        return next((m for v in field.values if (m := _minutes(v)) is not None), None)
    amounts = _amounts_written(field.shown)
    if kind == "price":
        fits = _priced(field.key, field.shown)
    else:
        fits = bool(_unit_words(field.shown) & tokens) if keyed else _names_field(tokens, field)
    return amounts[0] if len(amounts) == 1 and fits else None


def _unit_words(value: str) -> frozenset[str]:
    return frozenset(_stem(t) for t in _TOKEN.findall(value) if not _is_number_token(t))


@lru_cache(maxsize=8192)
def _priced(key: str, value: str) -> bool:
    return bool(_PRICED.search(key + " " + value))


@lru_cache(maxsize=8192)
def _amounts_written(value: str) -> tuple[Decimal, ...]:
    """Cached: an extreme compares a record's value with every other record's under its key."""
    return tuple(d for n in numbers(value) for d in n.decimals)


def _named_things(clause: str, context: tuple[str, ...]
                  ) -> list[tuple[int, str, str, frozenset[tuple[int, _Field | None]]]]:
    """(where, as written, stemmed, what it names) of each word of a clause that names records by a
    value (a row's name: (record, None)) or fields by a key ((record, field): "Nord" of "Hotel Nord: 120 EUR")."""
    index, keyed = _holders(context), _keyed(context)
    found: list[tuple[int, str, str, frozenset[tuple[int, _Field | None]]]] = []
    tokens = [m for m in _TOKEN.finditer(clause) if not _is_number_token(m.group())]  # a value names nothing
    for match in (m for i, m in enumerate(tokens) if len(m.group()) > 1 or _letter_name(m.group(), i)):
        stem = _stem(match.group())
        things: frozenset[tuple[int, _Field | None]] = frozenset(
            {(at, None) for at, _ in index.get(stem, ())} | set(keyed.get(stem, ())))
        if things:
            found.append((match.start(), match.group(), stem, things))
    return found


def _name_of(record: int, stem: str, written: str, context: tuple[str, ...]) -> str:
    """A thing as its record writes it ("DY1872" of "DY1872'den"), or as the words do."""
    return next((field.shown for held, field in _holders(context).get(stem, ()) if held == record), written)


_PRICED = regex.compile(r"pric|cost|fare|fee|eur|usd|gbp|chf|nok|sek|dkk|pln|czk|jpy|kr\b|€|\$|£|¥|preis|prix|"
                        r"precio|prezzo|preço|prijs|pris|cen[ay]|цен|цін|fiyat|hinta|harga|価格|料金|价格|가격",
                        regex.IGNORECASE)
"""A field of an amount of money, by a word of its key or the unit of its value: what "cheaper" orders."""


def _peers(number: Number, unit: str, context: tuple[str, ...]) -> list[tuple[str, Decimal]]:
    """The numbers of the same kind as one the context writes, as written and by value: under the
    same key in its other records, or with the same unit word in the same sentence of its prose."""
    keys, peers = _fields_by_key(context), []
    for at, field in _holders(context).get(next(iter(number.values)), ()) if len(number.values) == 1 else ():
        peers += [peer for other, f in keys.get(field.words, ()) if other != at for peer in numbers(f.shown)]
    if unit:
        peers += [peer for group in _amounts(context).get(unit, ()) if any(number.values & n.values for n in group)
                  for peer in group if not number.values & peer.values]
    return [(peer.shown, value) for peer in peers for value in peer.decimals]


def _time_peers(key: str, context: tuple[str, ...]) -> list[tuple[str, Decimal]]:
    """The times of day under the same key as one in the context's other records (`_time_key`)."""
    keys = _fields_by_key(context)
    return [(f.shown, minutes) for at, field in _holders(context).get(key, ()) for other, f in keys.get(field.words, ())
            if other != at for value in f.values if (minutes := _minutes(value)) is not None]


def _minutes(key: str) -> Decimal | None:
    """Minutes after midnight of a time of day on the 24-hour clock (`_time_key`); None for another value."""
    hours, colon, minutes = key.partition(":")
    return Decimal(int(hours) * 60 + int(minutes)) if colon and hours.isdigit() and minutes.isdigit() else None


@lru_cache(maxsize=64)
def _fields_by_key(context: tuple[str, ...]) -> dict[frozenset[str], tuple[tuple[int, _Field], ...]]:
    """Per key's words, the records (by their place in `_record_fields`) and fields under it."""
    found: dict[frozenset[str], list[tuple[int, _Field]]] = {}
    for at, record in enumerate(_record_fields(context)):
        for field in record:
            found.setdefault(field.words, []).append((at, field))
    return {key: tuple(held) for key, held in found.items()}


@lru_cache(maxsize=64)
def _amounts(context: tuple[str, ...]) -> dict[str, tuple[tuple[Number, ...], ...]]:
    """Per unit word, the numbers each sentence of the context's prose writes with it, where it
    writes two or more ("Plan A costs 40 EUR, plan B 30 EUR")."""
    found: dict[str, list[tuple[Number, ...]]] = {}
    for sentence in (part for part, record in _parts(context) if not record):
        by_unit: dict[str, list[Number]] = {}
        for number in numbers(sentence):
            if unit := _unit_of(sentence, number):
                by_unit.setdefault(unit, []).append(number)
        for unit, group in by_unit.items():
            if len(group) > 1:
                found.setdefault(unit, []).append(tuple(group))
    return {unit: tuple(groups) for unit, groups in found.items()}


def other_values(words: str, context: Sequence[str]) -> tuple[OtherValue, ...]:
    """Per stretch of the words, a number whose role places all give another value:
    ("1999", "1997") for "founded in 1999" where the context says "founded in 1997" and nowhere
    "founded in 1999"; a value the context writes only for something else (`_given_apart`), only
    beside other words (`_moved`), or only under another field of a record (`_fields_swapped`);
    names in each other's places (`_swapped`, `_replaced`); an extreme with a value beyond it (`_beaten`);
    words the context writes only the other way or more weakly, or with one word of its own in the
    place of one the context never writes (`_negated`)."""
    found: dict[tuple[str, str], OtherValue] = {}
    for value in _other_values(words, tuple(context)) + _given_apart(words, tuple(context)):
        found.setdefault((value.said, value.other), value)  # one place may show both ways
    said = {fold(value.said) for value in found.values()}
    checks = (_moved, _fields_swapped, _swapped, _replaced, _given_in_a_list, _beaten, _misordered, _opposed,
              _negated)
    for value in (value for check in checks for value in check(words, tuple(context))):
        # a value the checks above found is theirs ("12M" of "room 12M"), and a clause that holds a
        # value found otherwise, but a number or code given to another thing, is asked about that
        # ("Le musée ferme à 9 h" beside "… ouvre à 9 h et ferme à 18 h": “9”, not the clause;
        # "cancelled" given to another booking; "The lowest temperature was 31 °C" beside "The
        # highest …": the extreme)
        if fold(value.said) not in said and not (value.negated and any(
                fold(other.said) in fold(value.said) for other in found.values()
                if not other.apart or other.ordered or not any(map(str.isdigit, other.said)))):
            said.add(fold(value.said))
            found[(value.said, value.other)] = value
    return tuple(found.values())


@lru_cache(maxsize=256)
def _other_values(words: str, context: tuple[str, ...]) -> tuple[OtherValue, ...]:
    """Cached: every question of one assertion reads it again for the same item."""
    written = _context_values(context).values
    found = []
    for stretch in stretches(words) or [words]:
        pattern = _pattern(stretch)
        slots = [i for i, item in enumerate(pattern) if isinstance(item, Number)]
        if not slots or len(pattern) - len(slots) < MIN_ROLE_WORDS:
            continue
        said = [item for item in pattern if isinstance(item, Number)]
        matches = [(theirs, at) for theirs, at, _ in _same_words(pattern, context)]
        places = [[item for item in theirs[at:at + len(pattern)] if isinstance(item, Number)] for theirs, at in matches]
        other = [[k for k, (mine, theirs) in enumerate(zip(said, place)) if not mine.values & theirs.values]
                 for place in places]
        if not places or not all(other):
            continue
        differing = [[k for k in ks if _differs(said[k], place[k])] for ks, place in zip(other, places)]
        # a number at the stretch's end, or one word before it, is pinned only where the context's
        # ends there too: "closes at 5 pm" beside "closes at 17" is a word after it that may be a
        # unit, and "150 EUR each" or "86 degrees Fahrenheit" a unit with more after it
        near_end = any(isinstance(item, Number) for item in pattern[-2:])
        open_edges = any((isinstance(pattern[0], Number) and at > 0) or (near_end and at + len(pattern) < len(theirs))
                         for theirs, at in matches)
        bound = any(isinstance(item, str) and _BOUND.fullmatch(item) for item in pattern)  # "<50" of "<42" too
        hedged = any(_hedged(pattern, slots[k]) or _hedged(theirs, at + slots[k])  # "more than 40" beside "… 45"
                     for (theirs, at), ks in zip(matches, other) for k in ks)
        alone = not (open_edges or bound or hedged) and all(
            len(diff) == 1 == len(ks) and not said[diff[0]].values & written for diff, ks in zip(differing, other))
        k = other[0][0]
        moved = any(said[j].values & written for ks in other for j in ks)  # a value the context has elsewhere
        found.append(OtherValue(said[k].shown, places[0][k].shown,
                                tuple(n.shown for n in said if moved and n.values & written), alone))
    return tuple(found)


def _same_words(pattern: list[str | Number], context: tuple[str, ...]) -> list[tuple[list[str | Number], int, str]]:
    """Each place of the context that writes the pattern's words, in order and unbroken, with a
    number wherever it has one: (that place's pattern, where the words start in it, its text)."""
    patterns = (place.pattern for place in _places(context))
    return [(theirs, at, text) for theirs, (text, _) in zip(patterns, _parts(context))
            for at in range(len(theirs) - len(pattern) + 1)
            if all(isinstance(theirs[at + i], Number) if isinstance(mine, Number) else theirs[at + i] == mine
                   for i, mine in enumerate(pattern))]


@lru_cache(maxsize=256)
def _bounds_made_true(words: str, context: tuple[str, ...]) -> frozenset[str]:
    """The numbers of the words written as a bound (`bound_words.way`) that the context's bound
    makes true: "more than 400" where every place with the same words around it (at least
    MIN_ROLE_WORDS) writes "more than 450", and the words' other numbers as they are. Never in a
    sentence with a negation on either side ("does not hold more than 450"). Written, as a
    number the context writes is: a correct judge's literal "no, it never gives 400" failed it."""
    found = set()
    for stretch in stretches(words) or [words]:
        pattern = _pattern(stretch)
        said = [item for item in pattern if isinstance(item, Number)]
        ways = [bound_words.way(fold(stretch[max(0, n.start - 40):n.start]), fold(stretch[n.end:n.end + 40]))
                for n in said]
        if not any(ways) or len(pattern) - len(said) < MIN_ROLE_WORDS or NEGATION.search(fold(stretch)):
            continue
        places = [[item for item in theirs[at:at + len(pattern)] if isinstance(item, Number)]
                  for theirs, at, text in _same_words(pattern, context) if not NEGATION.search(fold(text))]
        for k, (number, way) in enumerate(zip(said, ways)):
            if way and places and all(_beyond(place[k], number, way) and all(
                    j == k or other.values & place[j].values for j, other in enumerate(said)) for place in places):
                found.add(number.shown)
    return frozenset(found)


def _beyond(theirs: Number, mine: Number, way: str) -> bool:
    """Whether every value of the context's bound lies beyond every value of the words' own, `way`."""
    return bool(theirs.decimals and mine.decimals) and all(
        (t > m) if way == "more" else (t < m) for t in theirs.decimals for m in mine.decimals)


def _anchors(stretch: str, context: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """(names, names that only may be) of the stretch that the context writes. Names, as code sees
    them (`_asked_about`: "SK4705", "14C", "Dahl"; no capital that only starts a sentence); and the
    words that start it or stand by an apostrophe ("Ingrid sits in 22A", "Ingrid's seat",
    "d'Ingrid") where the context writes them with a capital: a name or any word, so they may find
    another thing's place, never settle a value. The words of a date are no name (`_dated`: "On
    October 6, 1995" is no place of "Why October 6th matters … In 1969"). A record's value in a
    script without spaces is a name inside a run too (`_split`)."""
    written, capitals = _written(context)[0], _capitalised(context)
    fields, values = _record_words(context), _spaceless_values(context)
    normal = unicodedata.normalize("NFKC", stretch.translate(_SIGNS)).translate(_SAME_MARKS)
    names, maybe = [], []
    dated = _dated(normal)
    for match in _TOKEN.finditer(normal):
        token, starts = match.group(), _starts(normal, match.start())
        if match.start() in dated:
            continue
        if _asked_about(token, starts) and _stem(token) in written:
            names.append(_stem(token))
        if len(run := _split(fold(token), values)) > 1:
            names += [piece for piece in run if piece in fields]  # "田中太郎" of "田中太郎さんは"
        pieces = token.split("'")
        maybe += [_stem(piece) for piece in [token] * starts + pieces * (len(pieces) > 1) if _stem(piece) in capitals]
    return names, maybe


@lru_cache(maxsize=64)
def _capitalised(context: tuple[str, ...]) -> frozenset[str]:
    """The context's tokens written with a capital first, anywhere: a name's, or a sentence's first word's."""
    return frozenset(_stem(token) for item in _as_written(context) for token in _TOKEN.findall(item)
                     if _CASED_CAPITAL.match(token))


@lru_cache(maxsize=32)
def _only_capitalised(context: tuple[str, ...]) -> frozenset[str]:
    """Of `_capitalised`, the tokens the context never writes in small letters: a name even where
    it only starts sentences ("Acme makes bicycles."), where "She" is a word."""
    small = {unicodedata.normalize("NFKC", token).casefold() for item in _as_written(context)
             for token in _TOKEN.findall(item) if token.islower()}
    return _capitalised(context) - small


@lru_cache(maxsize=256)
def _given_apart(words: str, context: tuple[str, ...]) -> tuple[OtherValue, ...]:
    """Values of the words (a number, a code such as "22A", or a name) that the context writes only
    apart from a name or code of the words, while a sentence or record with that name writes another
    value of the kind beside the same word: "SK4705 costs 142 EUR" beside the records {"flight":
    "SK4705", "price_eur": 189} and {"flight": "DY1872", "price_eur": 142}, "Dahl sits in 22A" beside
    "Ingrid Dahl: seat 14C. Karin Berg: seat 22A.", "Dahl flies to Tromsø" beside "Ingrid Dahl: to
    Bergen. Karin Berg: to Tromsø." (a name as code sees one, `_capital`, written with a capital in
    the context: a value swapped between records, every word of it written), "Booking QX7K2P has
    been cancelled" beside {"ref": "QX7K2P", "status": "confirmed"} and {"ref": "LM3N8R", "status":
    "cancelled"} (a word in small letters, only as a record's field value: `_field_words`). A name
    written both with the value and apart from it ("EUR") tells nothing, nor does the other value
    itself ("rated 9 units, and its screen is rated 10 units": two facts); one written with the
    value settles it.
    Never decided by code (a pronoun may name the subject where the value is written): the judge is
    asked, as of a value in another role."""
    (places, settles), capitals, fields = _clause_places(context), _capitalised(context), _record_words(context)
    prose, named = _prose_words(context), _only_capitalised(context)
    homes, values, found = _context_names(context).homes, _spaceless_values(context), []
    for stretch in stretches(words) or [words]:
        anchors, maybe = _anchors(stretch, context)
        runs, together = _names_of(stretch), _named_as_one(stretch, anchors, maybe, context)
        apart: dict[str, list[OtherValue]] = {kind: [] for kind in _KINDS}
        pattern = [piece for item in map(_or_code, _pattern(stretch))
                   for piece in (_split(item, values) if isinstance(item, str) else [item])]
        mentioned, clauses = {item for item in pattern if isinstance(item, str)}, _clauses(stretch, values)
        for item in pattern:
            kind = _kind(item, capitals, fields | prose)
            if kind is None or (kind in ("code", "name") and item not in anchors):
                continue
            own = {fold(t) for t in tokens(item.shown)} if isinstance(item, Number) else _own_name(item, runs, homes)
            writes = [_writes(place, item) for place in places]
            with_it = [place for place, has, settling in zip(places, writes, settles) if has and settling]
            beside = {side for p in with_it for theirs, side, _ in p.valued if _same_value(theirs, item)}
            of_prose = item in prose and item not in fields  # a word as code sees no value: held to more
            in_common = functools.partial(_a_frame_in_common, context=context) if of_prose else _a_side_in_common
            others = [(p, theirs) for p, has in zip(places, writes) if not has for theirs, side, k in p.valued
                      if k == kind and (kind == "number" or theirs != item) and any(in_common(side, b) for b in beside)]
            rivals = {theirs if isinstance(theirs, str) else fold(theirs.shown) for _, theirs in others}
            names = [o for o in dict.fromkeys(anchors + maybe) if o not in own and o not in rivals and not (
                any(o in p.tokens for p in with_it) and any(o in p.tokens for p, _ in others))]
            given = {o for o in names if o in anchors and any(o in p.tokens for p in with_it)}
            if given:  # a name of the words is written with the value: given for it, and for no other
                owners = [run for group in together if any(given & run for run in group) for run in group]
                shared = [o for o in names if any(o in run for run in owners if not given & run)]
                again = sum(x in given for x in pattern) > sum(len(given & run) for run in owners)
                if not shared or again or sum(_kind(x, capitals, fields) == kind and not any(x in run for run in owners)
                                     for x in pattern) > 1:
                    continue  # nor named as one with another ("Acme and Beta both employ 55 people"), one
                    # value for all, and named apart again ("of A and B only B"): values in turn ("… go to
                    # Bergen and Tromsø") are `_out_of_order`'s
                names = shared
            kin = _kin(rivals, homes) if rivals & mentioned else set()
            if isinstance(item, str) and kin and all(
                    _with_a_rival(clause, at, kin, own) for clause in clauses for at, forms in enumerate(clause)
                    for o in names if o in forms and any(o in p.tokens for p, _ in others)):
                continue  # the words name the other thing too ("Ingrid to Bergen, Karin to Tromsø", "SK4705
                # is direct, while DY1872 stops in CPH"), and what finds its place stands with it
                # (`_with_a_rival`; "SK4705 stops in CPH, unlike DY1872", "SK4705 stops in CPH and DY1872 is
                # direct" are asked): `_out_of_turn` reads the rest
            finders = [o for o in names if o in anchors or o in named] if of_prose else names  # no "She"
            other = next((theirs for p, theirs in others if any(o in p.tokens for o in finders)), None)
            if other is not None:
                shown = item.shown if isinstance(item, Number) else item
                apart[kind].append(
                    OtherValue(shown, other.shown if isinstance(other, Number) else other, (shown,), False, True))
        # a code only where no number is ("22A", not "SK4705" of "costs 142"), a name where neither is, a
        # word where none is
        found += next((apart[kind] for kind in _KINDS if apart[kind]), []) or _out_of_turn(
            pattern, anchors, _places(context), lambda item: _kind(item, capitals, fields)) or _out_of_order(
            [item for item in pattern if isinstance(item, str) and _kind(item, capitals, fields)], _places(context))
    return tuple(found)


def _own_name(word: str, runs: tuple[tuple[str, ...], ...], homes: dict[str, frozenset[int]]) -> set[str]:
    """The word and the other words of its name: "Dahl" is no other name of "Ingrid". Of the run of
    capitals the word stands in, those the context writes in one name with it, or neither in a
    name of more words: "Ingrid Dahl Tromsø'ya gidiyor" beside "Ingrid Dahl" names Tromsø apart."""
    run = next((run for run in runs if word in run), ())
    mine = homes.get(word, frozenset())
    return {word, *(w for w in run if homes.get(w, frozenset()) & mine or not (mine or w in homes))}


_CLAUSE_MARKS = regex.compile(r"[,;:()\[\]{}—–、，；：]|\s-\s")


def _clauses(stretch: str, values: regex.Pattern[str] | None) -> list[list[frozenset[str]]]:
    """Each part of the stretch between commas, semicolons, colons, brackets and dashes, as its
    tokens in order, each as the forms that find it (`_forms`; a run of a script without spaces
    split around the records' `values` in it)."""
    return [[frozenset(_forms(piece)) for token in _TOKEN.findall(part) for piece in _split(fold(token), values)]
            for part in _CLAUSE_MARKS.split(stretch)]


def _kin(rivals: set[str], homes: dict[str, frozenset[int]]) -> set[str]:
    """The rivals and the words the context writes in one name with one of them ("karin" of "berg")."""
    return rivals | {word for word, held in homes.items() if any(held & homes.get(r, frozenset()) for r in rivals)}


MAX_JOINED = 3
"""Characters of the one word that may join two things named one after the other, named as one."""


def _as_one(between: list[frozenset[str]]) -> bool:
    """Whether the tokens between two things named one after the other name them as one: none
    ("SK4705와 DY1872"), or one word of at most MAX_JOINED characters ("SK4705 and DY1872",
    "SK4705和DY1872", "SK4705とDY1872"; "SK4705は直行便でDY1872" joins two clauses)."""
    return not between or (len(between) == 1 and min(map(len, between[0])) <= MAX_JOINED)


def _with_a_rival(clause: list[frozenset[str]], at: int, rivals: set[str], mine: set[str]) -> bool:
    """Whether the word at `at`, which finds another thing's place, stands with that thing in its
    clause: of the words' thing (`mine`, the words of its name) and its rivals, the one its clause
    names last before it is a rival ("SK4705 is direct and DY1872 stops in CPH", "SK4705는
    직항편이고 DY1872는 CPH를 경유합니다"; not "SK4705 stops in CPH and DY1872 is direct"), or none
    is named before it and a rival after ("In CPH, only DY1872 stops": the language's order, the
    verdict's to read), unless the words' thing is named right before that rival, the two as one
    (`_as_one`: "Ingrid Dahl and Karin Berg both go to Tromsø"). A word of a rival's own name
    stands with it ("Karin" of "… and Karin Berg's is cancelled": `_kin`)."""
    if clause[at] & rivals:
        return True
    named: list[tuple[int, int, bool]] = []  # (first token, last token, a rival's?) of each name before it
    for k, forms in enumerate(clause[:at]):
        rival = bool(forms & rivals)
        if named and (rival or forms & mine) and named[-1][1] == k - 1 and named[-1][2] == rival:
            named[-1] = (named[-1][0], k, rival)
        elif rival or forms & mine:
            named.append((k, k, rival))
    if len(named) > 1 and named[-1][2] and not named[-2][2] and _as_one(clause[named[-2][1] + 1:named[-1][0]]):
        return False  # both named as one ("SK4705 and DY1872 both stop in CPH", "SK4705和DY1872都在CPH经停")
    return named[-1][2] if named else any(forms & rivals for forms in clause[at:])


_OWNERS = {"number": ("code", "name"), "code": ("name",), "word": ("code", "name")}
"""Whose values, as `_out_of_turn` pairs them: a price or a count is a flight's or a person's, a seat
a person's, a status a booking's."""


def _out_of_turn(pattern: list[str | Number], anchors: list[str], places: tuple[_Place, ...],
                 kind_of: Callable[[str | Number], str | None]) -> list[OtherValue]:
    """Values of a stretch that names two or more things, each given to another of them: "SK4705
    costs 142 EUR and DY1872 costs 189 EUR" beside records giving 189 to SK4705 and 142 to DY1872,
    "Ingrid Dahl has seat 22A and Karin Berg has seat 14C". Each value is written with a name of the
    words, so none is given apart; but the things they are written with come in another order than
    the values: each value's owner is the name of the words written with it in the context (not
    with every value: "EUR"), at its place in the words nearest the value, and owners and values
    go in the same turn whatever the language's order ("189 EUR for SK4705 and 142 EUR for
    DY1872", "SK4705 and DY1872 cost 189 and 142 EUR"). A sentence that names a thing again out of
    turn costs a question a correct judge answers yes. `pattern`: the stretch's, codes as codes
    (`_or_code`); `kind_of`: `_kind` with the context's names and field words."""
    found: list[OtherValue] = []
    for kind, owner_kinds in _OWNERS.items():
        subjects = [(at, item) for at, item in enumerate(pattern)
                    if isinstance(item, str) and item in anchors and kind_of(item) in owner_kinds]
        values = [(at, item, {n for p in places if _writes(p, item) for _, n in subjects if n in p.tokens})
                  for at, item in enumerate(pattern) if kind_of(item) == kind]
        values = [value for value in values if value[2]]
        common = set.intersection(*(names for *_, names in values)) if values else set()
        owned = [(item, min((abs(where - at), where) for where, n in subjects if n in names - common)[1])
                 for at, item, names in values if names - common]
        for (one, first), (two, second) in combinations(owned, 2):  # in the words' order
            if first > second:
                shown = [v.shown if isinstance(v, Number) else v for v in (one, two)]
                found += [OtherValue(shown[0], shown[1], (shown[0],), False),  # the words write both: no instead
                          OtherValue(shown[1], shown[0], (shown[1],), False)]
    return found


def _out_of_order(words: list[str], places: tuple[_Place, ...]) -> list[OtherValue]:
    """Values of two fields of records that the words give in another order each: "Ingrid Dahl goes
    to Tromsø and Karin Berg to Bergen" beside bookings giving Bergen to Ingrid Dahl and Tromsø to
    Karin Berg, "田中太郎さんは東京、佐藤花子さんは大阪です". Names or words as values, whose owner
    no kind tells (`_out_of_turn` pairs a value with a code or a name): per field, the records in
    the order the words first name one of their values, the same order in any two fields
    ("Ingrid Dahl and Karin Berg go to Bergen and Tromsø", "Unlike Karin Berg, who goes to
    Tromsø, Ingrid Dahl goes to Bergen" ask nothing). A value several records write tells nothing.
    `words`: the stretch's codes, names and words, in order."""
    orders: dict[str, list[int]] = {}
    shown: dict[tuple[str, int], str] = {}
    for word in words:
        held = [k for k, place in enumerate(places) if word in place.fields]
        field = places[held[0]].fields[word] if len(held) == 1 else ""
        if field and held[0] not in (order := orders.setdefault(field, [])):
            order.append(held[0])
            shown[field, held[0]] = word
    found = []
    for first, second in combinations(orders, 2):  # in the order the words first name a value of each
        both = [k for k in orders[first] if k in orders[second]]
        for one, two in combinations(both, 2):
            if orders[second].index(one) > orders[second].index(two):
                said, other = shown[second, one], shown[second, two]
                found += [OtherValue(said, other, (said,), False), OtherValue(other, said, (other,), False)]
    return found


def _or_code(item: str | Number) -> str | Number:
    """A number with a scale letter glued on as the code it may be: seat 22B beside seat 14C."""
    return item.code or item if isinstance(item, Number) else item


def _writes(place: _Place, value: str | Number) -> bool:
    return bool(value.values & place.values) if isinstance(value, Number) else value in place.tokens


def _same_value(one: str | Number, other: str | Number) -> bool:
    if isinstance(one, Number) and isinstance(other, Number):
        return bool(one.values & other.values)
    return one == other


def values_in_other_roles(words: str, context: Sequence[str]) -> list[str]:
    """The numbers of the words that the context writes, but never beside the same words, and the
    numbers, codes, names and records' words it writes only apart from the words' names
    (`other_values`): the judge reads whether it gives them for what the words say (a second
    answer, never code)."""
    return list(dict.fromkeys(n for o in other_values(words, context) if not o.contradicted for n in o.written))


def needs_a_firm_yes(words: str, context: Sequence[str]) -> bool:
    """Whether the words say an extreme or a comparison that the context's values go the other way
    of (`_beaten`, `_misordered`, `_opposed`), or what it writes only the other way (`_negated`):
    where `questions.role_line` holds the offline answer to ORDER_AT."""
    return any(o.ordered or o.negated for o in other_values(words, context))


def values_given_instead(words: str, context: Sequence[str]) -> list[str]:
    """What the context gives for the things the words name, where the words give them a value it
    writes only for something else (`_given_apart`): "189" for "SK4705 costs 142 EUR"."""
    return list(dict.fromkeys(o.other for o in other_values(words, context) if o.apart))


def contradicted_number(words: str, context: Sequence[str], sentence: str = "") -> tuple[str, str] | None:
    """(as the words write it, as the context does) of a number code decides is contradicted: pinned
    in the words and again in their whole `sentence`, where a word outside them may change its role
    ("tickets cost 21 euros" of "Three child tickets cost 21 euros" beside "Child tickets cost 7
    euros": 3 × 7, for the judge to read, as it reads the words in their sentence)."""
    found = next((o for o in other_values(words, context) if o.contradicted), None)
    if found and sentence and not any(o.contradicted and o.said == found.said for o in other_values(sentence, context)):
        return None
    return (found.said, found.other) if found else None
