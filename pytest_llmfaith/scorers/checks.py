"""Checks on what the judge returns, so that a misbehaving judge can never turn into a pass.

Claims not taken from the output are dropped and uncovered sentences become claims; the other
checks raise ValueError, whose text the judge's bounded re-ask loop sends back to the judge.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from typing import Any, NamedTuple

from pytest_llmfaith.text.align import changes
from pytest_llmfaith.text.language import (
    canonical_number,
    carried,
    clauses,
    compared_form,
    gram_size,
    head,
    is_fragment,
    language_of,
    markers,
    names,
    number_spans,
    numbers,
    qualified_numbers,
    units,
    word_units,
    words,
)
from pytest_llmfaith.text.names import states_anchors
from pytest_llmfaith.text.profiles import ENGLISH, ENGLISH_CARDINALS, Language
from pytest_llmfaith.text.scripts import same_writing
from pytest_llmfaith.text.sentences import sentences

__all__ = ["canonical_number", "clauses", "is_fragment", "numbers", "qualified_numbers", "sentences"]

def content_words(text: str, lang: Language | None = None) -> set[str]:
    """Stemmed content words in English, character n-grams elsewhere, read as `lang`."""
    return units(text, lang)


_APPROXIMATE = re.compile(r"\b(?:" + "|".join(q for q, kind in ENGLISH.comparisons.items() if kind == "about")
                          + r")\s+([$€£]?)(?<![\d.,])(\d+(?:,\d{3}(?!\d))*(?:\.\d+)?)", re.IGNORECASE)


def approximates(approximate: str, exact: str) -> bool:
    """The spec's "about 1,200" for 1,234: rounds to the approximation's last digit and is at most
    3 % off (Mastra calls "about $10M" for $10.5M a hallucination)."""
    a, m = Decimal(canonical_number(approximate)), Decimal(canonical_number(exact))
    if a == m:
        return True
    if m == 0 or abs(a - m) > abs(m) * Decimal("0.03"):
        return False
    place = a.normalize().as_tuple().exponent  # 1200 -> 2 (hundreds), 49 -> 0, 1.5 -> -1
    assert isinstance(place, int)  # finite: canonical numbers are digits
    return m.quantize(Decimal(1).scaleb(place), rounding=ROUND_HALF_UP) == a


_DURATION = re.compile(r"\b(\d+(?:\.\d+)?|" + "|".join(ENGLISH_CARDINALS)
                       + r")[\s-]+(minute|hour|day|week|month|year)s?\b", re.IGNORECASE)
_LENGTHS = {"minute": ("time", 1), "hour": ("time", 60), "day": ("time", 1440), "week": ("time", 10080),
            "month": ("months", 1), "year": ("months", 12)}  # a month is no fixed number of days


def _length(match: re.Match[str]) -> tuple[str, Decimal]:
    """A duration as (kind, length in the kind's unit): "two weeks" and "14 days" are equal."""
    count, unit = match[1].lower(), match[2].lower()
    kind, size = _LENGTHS[unit]
    return kind, Decimal(str(ENGLISH_CARDINALS.index(count) + 1) if count in ENGLISH_CARDINALS else count) * size


_MONTH_WORD = rf"(?:{'|'.join(sorted([*ENGLISH.months, 'may'], key=len, reverse=True))})\.?"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_YEAR = r"(?:1[5-9]|20)\d\d"
_DATED_YEAR = re.compile(rf"\b(?:{_DAY}\s+{_MONTH_WORD}|{_MONTH_WORD}(?:\s+{_DAY},?)?)\s+({_YEAR})\b", re.IGNORECASE)
_IN_YEAR = re.compile(rf"\b(in|during)\s+({_YEAR})\b(?![,.]?\d)", re.IGNORECASE)


class _ContextTerms(NamedTuple):
    lengths: dict[tuple[str, Decimal], str]  # durations by length, as first written
    numbers: dict[str, str]  # numbers by value, as first written
    dates: dict[str, list[tuple[str, frozenset[str]]]]  # year -> its dates with a month, and their sentence's words


@lru_cache(maxsize=32)
def sentence_words(context: tuple[str, ...]) -> tuple[tuple[str, frozenset[str]], ...]:
    """Cached: read once per context, not several times per claim (evidence, reason, dated years)."""
    lang = context_language(context)
    return tuple((s, frozenset(content_words(s, lang))) for item in context for s in sentences(item))


def context_language(context: Sequence[str]) -> Language:
    """The language a context is read in; its claims are compared with it in that language too."""
    return language_of(" ".join(context))


@lru_cache(maxsize=32)
def _context_terms(context: tuple[str, ...]) -> _ContextTerms:
    """What claims are restated in: read once per context, not once per claim."""
    text = " ".join(context)
    lengths: dict[tuple[str, Decimal], str] = {}
    for match in _DURATION.finditer(text):
        lengths.setdefault(_length(match), match[0])
    said: dict[str, str] = {}
    for start, end, value in number_spans(text, ENGLISH):
        said.setdefault(value, text[start:end])
    dates: dict[str, list[tuple[str, frozenset[str]]]] = {}
    for sentence, read in sentence_words(context):
        for match in _DATED_YEAR.finditer(sentence):
            dates.setdefault(match[1], []).append((match[0], read))
    return _ContextTerms(lengths, said, dates)


def in_context_terms(claim: str, context: Sequence[str]) -> tuple[str, list[str]] | None:
    """The claim with durations, approximations and years written as the context writes them (the
    spec allows them; a small judge reads them as "not stated"), or None. Each version says at
    least what the claim says, so its support is the claim's. English only."""
    if context_language(context) is not ENGLISH:
        return None
    terms = _context_terms(tuple(context))
    shown: list[str] = []

    def duration(match: re.Match[str]) -> str:
        same = terms.lengths.get(_length(match))
        if same is None or same.lower() == match[0].lower():
            return match[0]
        shown.append(f"“{match[0]}” = “{same}”")
        return same

    def approximation(match: re.Match[str]) -> str:
        close = [raw for number, raw in terms.numbers.items() if approximates(match[2], number)]
        if not close:
            return match[0]
        wanted = Decimal(canonical_number(match[2]))
        exact = match[1] + min(close, key=lambda raw: abs(Decimal(canonical_number(raw)) - wanted))
        shown.append(f"“{match[0]}” ≈ “{exact}”")
        return exact

    def dated(match: re.Match[str]) -> str:
        found = terms.dates.get(match[2])
        if not found:
            return match[0]
        wanted = content_words(claim)
        date = max(found, key=lambda candidate: len(wanted & candidate[1]))[0]  # the first of the closest
        shown.append(f"“{match[2]}” → “{date}”")
        if re.search(r"\d", date[:-4]):  # a day before the year: "on May 28, 1937", not "in"
            return ("On " if match[1][0].isupper() else "on ") + date
        return f"{match[1]} {date}"

    version = _IN_YEAR.sub(dated, _APPROXIMATE.sub(approximation, _DURATION.sub(duration, claim)))
    return (version, shown) if shown else None


def normalise(text: str) -> str:
    """Case, spacing, quotes and end punctuation do not make two statements different."""
    return " ".join(re.findall(r"\w+(?:[.,:]\w+)*", text.lower()))


def distinct(claims: Sequence[str]) -> list[str]:
    """The claims without blanks and without repeats (a repeated claim would count twice)."""
    seen: set[str] = set()
    kept = []
    for claim in (c.strip() for c in claims):
        key = normalise(claim)
        if key and key not in seen:
            seen.add(key)
            kept.append(claim)
    return kept


COMMON = 64
"""Units held by more texts are not looked up (a rarer one finds the same texts): keeps comparisons linear."""


class UnitIndex:
    """Texts sharing `t` units without comparing every pair: prefix filtering on the (n - t + 1)
    rarest units, as in similarity joins. Exact for outputs of up to COMMON sentences or claims."""

    def __init__(self, texts: Sequence[frozenset[str]]) -> None:
        self.texts = texts
        self.holders: dict[str, list[int]] = {}
        for i, found in enumerate(texts):
            for unit in found:
                self.holders.setdefault(unit, []).append(i)

    def candidates(self, wanted: set[str] | frozenset[str], at_least: int = 1) -> set[int]:
        """The texts that may share `at_least` units with `wanted`."""
        rarest = sorted(wanted, key=lambda u: len(self.holders.get(u, ())))[: max(len(wanted) - at_least + 1, 0)]
        rare = [u for u in rarest if len(self.holders.get(u, ())) <= COMMON] or rarest[:1]
        return {i for unit in rare for i in self.holders.get(unit, ())}

    def sharing(self, wanted: set[str] | frozenset[str], at_least: int) -> list[int]:
        """The texts that share `at_least` (>= 1) units with `wanted`, in order."""
        return sorted(i for i in self.candidates(wanted, at_least) if len(self.texts[i] & wanted) >= at_least)


_PRONOUNS = re.compile(r"\b(he|him|his|himself|she|her|hers|herself)\b", re.IGNORECASE)


def pronouns(text: str, lang: Language = ENGLISH) -> set[str]:
    """A swapped pronoun ("her" for "his") shares every content word, so it is checked apart.
    English only (German "sie" is both "she" and "they")."""
    return {p.lower() for p in _PRONOUNS.findall(text)} if lang is ENGLISH else set()


class _Clause(NamedTuple):
    units: frozenset[str]
    markers: frozenset[str]
    sentence_markers: frozenset[str]


class _Signs(NamedTuple):
    lang: Language
    words: frozenset[str]
    numbers: frozenset[str]
    qualified: frozenset[tuple[str, str]]
    pronouns: frozenset[str]
    clauses: tuple[_Clause, ...]
    clause_index: UnitIndex


@lru_cache(maxsize=32)
def _signs(output: str) -> _Signs:
    """What claims are checked against, read once per output, not once per claim."""
    lang = language_of(output)
    found = []
    for sentence in sentences(output):
        said = markers(sentence, lang)
        found += [_Clause(frozenset(units(c, lang)), markers(c, lang), said) for c in clauses(sentence, lang)]
    return _Signs(lang, frozenset(units(output, lang)), frozenset(numbers(output, lang)),
                  frozenset(qualified_numbers(output, lang)), frozenset(pronouns(output, lang)), tuple(found),
                  UnitIndex([c.units for c in found]))


def _restated_clause(claim_units: set[str], claim_markers: frozenset[str], said: _Signs) -> _Clause | None:
    """The output's clause a claim restates: the one sharing most of its units (on a tie, one
    whose negation and comparisons the claim keeps)."""
    found = [said.clauses[i] for i in sorted(said.clause_index.candidates(claim_units))]
    best = max(found, default=None, key=lambda c: (len(c.units & claim_units), c.markers <= claim_markers))
    return best if best is not None and best.units & claim_units else None


def _changed_markers(claim: str, said: _Signs) -> list[str]:
    """The negations and comparisons a claim adds to, or removes from, the clause it restates:
    "does not employ 40 people" or "employs 40 people or more" for "employs 40 people"."""
    claim_units, claim_markers = units(claim, said.lang), markers(claim, said.lang)
    source = _restated_clause(claim_units, claim_markers, said)
    if source is None:
        return []
    added = claim_markers - source.sentence_markers
    removed = source.markers - claim_markers
    return [f"adds “{m}”" for m in sorted(added)] + [f"leaves out “{m}”" for m in sorted(removed)]


def check_claim(claim: str, output: str) -> None:
    """Raise unless the claim's numbers, qualifiers, negations, pronouns and most of its words are the output's."""
    said = _signs(output)
    lang = said.lang
    if not same_writing(claim, output):
        raise ValueError(f"the claim {claim!r} is not taken from the OUTPUT: the OUTPUT is written in "
                         f"{lang.name}; list its claims in its own language and words")
    missing = sorted(numbers(claim, lang) - said.numbers)
    if missing:
        raise ValueError(f"the claim {claim!r} is not taken from the OUTPUT: it has {', '.join(missing)}, "
                         "which the OUTPUT does not say; list only claims the OUTPUT makes, with its own "
                         "numbers and dates")
    regendered = sorted(pronouns(claim, lang) - said.pronouns)
    if regendered:
        raise ValueError(f"the claim {claim!r} is not taken from the OUTPUT: it says {', '.join(regendered)}, "
                         "which the OUTPUT never does; keep the OUTPUT's own he, she, his and her")
    requalified = sorted(f"{q} {n}".strip() for q, n in qualified_numbers(claim, lang) - said.qualified)
    if requalified:
        raise ValueError(f"the claim {claim!r} is not taken from the OUTPUT: it says {', '.join(requalified)}, "
                         "which the OUTPUT qualifies otherwise; keep the OUTPUT's own \"exactly\", \"about\", "
                         "\"over\" and \"up to\"")
    changed = _changed_markers(claim, said) or changes(claim, output)
    if changed:
        raise ValueError(f"the claim {claim!r} is not taken from the OUTPUT: it {' and '.join(changed)}, "
                         "which changes what the OUTPUT says; keep the OUTPUT's own words next to its numbers, its "
                         "negations and its comparisons")
    words = units(claim, lang)
    if words and len(words & said.words) / len(words) < lang.min_shared:
        raise ValueError(f"the claim {claim!r} is not taken from the OUTPUT; list only claims the "
                         "OUTPUT makes, in its own words, never facts from elsewhere")


# -- does an output state facts? ------------------------------------------------------------
# Only phrases about the assistant or the documents, never words a claim about the world can
# contain: a claim matched by mistake would be dropped from the verdicts, a false pass.
_NOT_A_FACT = re.compile(
    r"\bi (?:do not|don't|did not|didn't|could not|couldn't|cannot|can't|am unable to|"
    r"was unable to|am not able to|have no|don't have|do not have) (?:know|find|found|answer|help|say|"
    r"information|access|data|details|sure)"
    r"|\b(?:not|isn't|is not|wasn't) (?:in|mentioned in|covered by|part of) the (?:documents?|context|sources?)"
    r"|^(?:the )?(?:provided )?(?:documents?|context|sources?) (?:do(?:es)? not|don't) (?:say|mention|contain|cover)\b"
    r"|^(?:hello|hi|hey|good (?:morning|afternoon|evening)|thanks?|thank you|you're welcome|welcome|"
    r"sorry|please|feel free|let me know|happy to help|glad to help|sure|of course|okay|ok)\b"
    r"|^(?:i|i'm|i am|i'd|i'll|i've|as an? (?:ai|assistant|language model))\b",
    re.IGNORECASE,
)
_FINITE_VERB = re.compile(r"\b(?:is|are|was|were|has|have|had|will|can|must|does|did|costs?|takes?|[a-z]{3,}ed)\b",
                          re.IGNORECASE)


def states_fact(sentence: str, lang: Language | None = None) -> bool:
    lang = lang or language_of(sentence)
    if is_non_fact(sentence, lang):
        return False
    if lang is not ENGLISH:  # no verb list here: any text may state a fact (a re-ask costs little)
        return any(c.isalnum() for c in sentence)
    words = sentence.split()
    return bool(re.search(r"\d", sentence) or any(w[:1].isupper() and w != "I" for w in words[1:])
                or (len(words) >= 3 and _FINITE_VERB.search(sentence)))


def states_facts(output: str) -> bool:
    """Cheap and conservative: only used to re-ask a judge that found no claims, so a miss costs little."""
    lang = language_of(output)
    return any(states_fact(s, lang) for s in sentences(output))


def is_non_fact(sentence: str, lang: Language | None = None) -> bool:
    """Never a claim, whatever the judge listed. Only these patterns: dropping a claim for lacking
    a sign of fact would hide it from the verdicts. Refusals are English only."""
    if sentence.rstrip().endswith(("?", "？", "؟")):
        return True
    lang = lang or language_of(sentence)
    # "Sure, the plan costs $8." starts like a pleasantry but states a number: a fact (if a
    # refusal with a number is judged instead, it fails, the safe side)
    return lang is ENGLISH and not re.search(r"\d", sentence) and bool(_NOT_A_FACT.search(sentence))


# -- claims that leave a sentence out, or repeat another ------------------------------------
def _covered(sentence: str, wanted: frozenset[str], own: set[str], got: set[str], lang: Language) -> bool:
    """Most of its units, most of its own units (so "red widgets" is not covered by "blue widgets"),
    and every number and name."""
    return (len(got & wanted) >= 0.6 * len(wanted) and len(got & own) >= 0.6 * len(own)
            and numbers(sentence, lang) <= got and all(carried(n, got, lang) for n in names(sentence, lang)))


def uncovered(output: str, claims: Sequence[str]) -> list[str]:
    """Sentences no claim carries: a dropped sentence would drop whatever error it holds, so it is
    judged itself, in the output's words."""
    lang = language_of(output)
    claimed = [frozenset(units(c, lang)) for c in claims]
    anywhere: set[str] = set().union(*claimed)
    # not states_fact: a fact without a sign of one ("The app stores no location data") must be judged
    found = [(s, frozenset(units(s, lang))) for s in sentences(output) if not is_non_fact(s, lang)]
    found = [(s, wanted) for s, wanted in found if wanted]
    near = _near_claims([wanted for _, wanted in found], claimed)
    heads = _heads(claims, lang)
    spread: dict[str, int] = {}
    for _, wanted in found:
        for unit in wanted:
            spread[unit] = spread.get(unit, 0) + 1
    missing = []
    for (sentence, wanted), close in zip(found, near):
        got: set[str] = set().union(*(claimed[i] for i in close))
        own = {u for u in wanted if spread[u] == 1}
        if not _covered(sentence, wanted, own, got, lang) or _bare_span(sentence, got, heads, lang) or any(
                dropped(clause, anywhere, lang) for clause in clauses(sentence, lang)):
            missing.append(sentence)
    return missing


def _heads(claims: Sequence[str], lang: Language) -> set[str]:
    """A word whose ending a claim changed (Korean "있으며" for "있다") shares only its head."""
    return {head(w, lang) for c in claims for w in words(c, lang)} if gram_size(lang) > 1 else set()


def _bare_span(sentence: str, got: set[str], heads: set[str], lang: Language) -> bool:
    """A run of letters no claim carries: in n-gram languages a share of units misses a dropped span.
    Changed endings and prefixes are tolerated."""
    size = gram_size(lang)
    if not size:  # English: its own words decide (`_covered`)
        return False
    least = lead = size  # a whole short word; a prefix (Arabic ال, Hebrew ו), none in bigram scripts
    if size == 2:
        lead = 1  # "银色飞机" for "飞机", 국제공항 for 공항: no prefix
    for word in words(sentence, lang):
        if not word_units(word, lang):
            continue
        form = compared_form(word, lang)
        for start, end in _bare_runs(form, got, head(word, lang) in heads, size):
            ending = start > 0 and end == len(form) and end - start <= lang.ending
            prefix = start == 0 and end < len(form) and end - start <= lead
            if end - start >= least and not (ending or prefix):
                return True
    return False


def _bare_runs(form: str, got: set[str], headed: bool, size: int) -> list[tuple[int, int]]:
    """The runs of a word's letters in none of the claims' units (n-grams, or short words whole)
    and not its head, if a claim's word has it (`headed`)."""
    covered = [False] * len(form)
    if headed:
        covered[: size - 1] = [True] * min(size - 1, len(form))
    for i in range(len(form)):
        for k in range(1, size + 1):
            if i + k <= len(form) and form[i:i + k] in got:
                covered[i:i + k] = [True] * k
    runs, start = [], None
    for i, done in enumerate([*covered, True]):
        if not done and start is None:
            start = i
        elif done and start is not None:
            runs.append((start, i))
            start = None
    return runs


def _near_claims(sentence_units: Sequence[frozenset[str]], claimed: Sequence[frozenset[str]]) -> list[set[int]]:
    """Claims sharing a third of a sentence's units, or half of their own (a short claim of a long sentence)."""
    by_claim, by_sentence = UnitIndex(claimed), UnitIndex(sentence_units)
    near = [set(by_claim.sharing(wanted, max(1, len(wanted) // 3))) for wanted in sentence_units]
    for i, found in enumerate(claimed):
        for s in by_sentence.sharing(found, max(1, (len(found) + 1) // 2)):
            near[s].add(i)
    return near


def dropped(clause: str, claimed_words: set[str], lang: Language | None = None) -> bool:
    """A clause most of whose content no claim carries: a sentence can be covered enough as a whole without it."""
    lang = lang or language_of(clause)
    found = units(clause, lang)
    content = [w for w in words(clause, lang) if word_units(w, lang)] + sorted(numbers(clause, lang))
    return len(content) >= 1 and len(found & claimed_words) < len(found) / 2


def _repeats(small: frozenset[str], large: frozenset[str], lang: Language) -> bool:
    """All units, or 90 % in n-gram languages, where a restated clause changes a few at its joins."""
    need = 1.0 if lang.unit == "word" else 0.9
    return len(small & large) >= need * len(small)


def without_repeats(claims: Sequence[str], output: str) -> list[str]:
    """Keep the fuller claim, so one supported fact is not counted several times. Function words
    count here: "Company A leads" is not in "Company B leads"."""
    lang = language_of(output)
    read = [(frozenset(units(c, lang, every_word=True)), markers(c, lang)) for c in claims]
    index = UnitIndex([found for found, _ in read])
    kept = []
    for i, (found, said) in enumerate(read):
        need = max(1, int(len(found) * (1.0 if lang.unit == "word" else 0.9)))
        fuller = [j for j in index.sharing(found, need) if j != i and read[j][1] == said
                  and _repeats(found, read[j][0], lang) and numbers(claims[i], lang) <= numbers(claims[j], lang)
                  and (len(read[j][0]) > len(found) or (len(read[j][0]) == len(found) and j < i))]
        if not fuller:
            kept.append(claims[i])
    return kept


class ClaimsCheck:
    """An empty list for a factual output is re-asked once (cached ones too: a judge that failed
    once is not trusted forever). A claim not from the output is dropped, not re-asked, so the
    answer stays cacheable; its sentence is judged in the output's words."""

    def __init__(self, output: str, reask_empty: bool = True) -> None:
        self.output = output
        self.language = language_of(output)
        self.reask_empty = reask_empty and states_facts(output)

    def __call__(self, answer: Any) -> None:
        if not distinct(answer.claims) and self.reask_empty:
            self.reask_empty = False
            raise ValueError('the OUTPUT states facts but "claims" is empty; list each factual claim '
                             "it makes (an empty list only if it makes none)")

    def from_output(self, claim: str) -> bool:
        try:
            check_claim(claim, self.output)
        except ValueError:
            return False
        return not is_fragment(claim, self.language) and not is_non_fact(claim, self.language)

    def claims(self, answered: Sequence[str]) -> list[str]:
        """The judge's claims that are the output's, each fact once, then every uncovered sentence.
        Where no refusal patterns are listed (any language but English), the judge's own answer of
        no claims counts for an output that gives no number and no name: a refusal or a greeting."""
        if not distinct(answered) and self.language is not ENGLISH and not states_anchors(self.output):
            return []
        kept = without_repeats([c for c in distinct(answered) if self.from_output(c)], self.output)
        return kept + uncovered(self.output, kept)


def _statement_differs(statement: str, claim: str, lang: Language) -> bool:
    """"400 people" is another claim than "40 people", however close the words."""
    said = units(statement, lang)
    return (numbers(statement, lang) != numbers(claim, lang) or markers(statement, lang) != markers(claim, lang)
            or not all(carried(n, said, lang) for n in names(claim, lang, first=True)))


def same_statements(claims: Sequence[str]) -> Callable[[Any], None]:
    """Verdicts match claims by position, so each echoed statement must be its own claim (empty is
    allowed: one-claim-per-call answers do not echo it)."""
    keys = [normalise(c) for c in claims]
    lang = language_of(" ".join(claims))
    read = [units(c, lang) for c in claims]

    def closeness(statement: set[str], i: int) -> float:
        return len(statement & read[i]) / max(len(statement | read[i]), 1)

    def check(answer: Any) -> None:
        verdicts = answer.verdicts
        if len(verdicts) != len(claims):
            raise ValueError(f"expected exactly {len(claims)} verdicts (one per claim, in order), got {len(verdicts)}")
        for i, verdict in enumerate(verdicts):
            said = normalise(verdict.statement)
            if not said or said == keys[i]:
                continue
            statement = units(verdict.statement, lang)
            scores = [closeness(statement, j) for j in range(len(claims))]
            if (scores[i] < 0.5 or any(s >= scores[i] for j, s in enumerate(scores) if j != i)
                    or _statement_differs(verdict.statement, claims[i], lang)):
                raise ValueError(f"verdict {i + 1} is about {verdict.statement!r}, but claim {i + 1} is "
                                 f"{claims[i]!r}: give one verdict per claim, in the order given, "
                                 "copying each claim into \"statement\"")

    return check
