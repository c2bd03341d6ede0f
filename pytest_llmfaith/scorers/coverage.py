"""Claims that leave a sentence out, or repeat another: a dropped sentence would drop whatever
error it holds, so it is judged itself; a repeated fact would count twice."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_llmfaith.scorers.facts import is_non_fact
from pytest_llmfaith.text.language import (
    carried,
    clauses,
    compared_form,
    gram_size,
    head,
    language_of,
    markers,
    names,
    numbers,
    units,
    word_units,
    words,
)
from pytest_llmfaith.text.profiles import Language
from pytest_llmfaith.text.sentences import sentences

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


def _covered(sentence: str, wanted: frozenset[str], own: set[str], got: set[str], lang: Language) -> bool:
    """Most of its units, most of its own units (so "red widgets" is not covered by "blue widgets"),
    and every number and name."""
    return (len(got & wanted) >= 0.6 * len(wanted) and len(got & own) >= 0.6 * len(own)
            and numbers(sentence, lang) <= got and all(carried(n, got, lang) for n in names(sentence, lang)))


def uncovered(output: str, claims: Sequence[str]) -> list[str]:
    """Sentences no claim carries: a dropped sentence would drop whatever error it holds, so it is
    judged itself, in the output's words."""
    lang = language_of(output)
    claimed = [units(c, lang) for c in claims]
    anywhere: set[str] = set().union(*claimed)
    # not states_fact: a fact without a sign of one ("The app stores no location data") must be judged
    found = [(s, units(s, lang)) for s in sentences(output) if not is_non_fact(s, lang)]
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
    read = [(units(c, lang, every_word=True), markers(c, lang)) for c in claims]
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
