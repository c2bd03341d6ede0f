"""Checks on what the judge returns, so that a misbehaving judge can never turn into a pass.

A judge (small local ones especially) may copy facts from the context into the claims, drop a
sentence, repeat one verdict for every claim, or find no claims in an output that plainly states
facts. Claims not taken from the output are dropped and every fact-stating sentence is covered
(`ClaimsCheck.from_output`, `uncovered`); the other checks raise ValueError with what was wrong,
and the judge's bounded re-ask loop sends that text back to the judge and ends in a JudgeError
when the answer never gets right.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from typing import Any, NamedTuple

# A real claim is the output's words, lightly rearranged: the paraphrased atomic claims with
# resolved pronouns of benchmarks/labelled_set.jsonl share >= 0.8 of their content words with
# their output (most share all). One word swapped in three ("The store is closed on Sundays" for
# "open on Sundays") is 0.67 and is rejected: the re-ask asks for the output's own words.
MIN_SHARED_WORDS = 0.7

_STOPWORDS = frozenset("""
a an the and or but if of to in on at by for with from as into onto about than then that this these
those there here it its it's they them their he him his she her we our us you your i me my is are was
were be been being has have had do does did will would can could shall should may might must not no
so such which who whom whose what when where why how also very just only all any each both some
""".split())
_MONTHS = ("jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "oct", "nov", "dec")  # not "may": a verb too
_MONTH_NAMES = ("january", "february", "march", "april", "june", "july", "august", "sept", "september",
                "october", "november", "december", *_MONTHS)
_NUMBER_WORDS = {w: str(i) for i, words in enumerate((
    (), ("one", "first", "once"), ("two", "second", "twice"), ("three", "third"), ("four", "fourth"),
    ("five", "fifth"), ("six", "sixth"), ("seven", "seventh"), ("eight", "eighth"), ("nine", "ninth"),
    ("ten", "tenth"), ("eleven", "eleventh"), ("twelve", "twelfth"))) for w in words}
_NUMBER = re.compile(r"\d+(?:,\d{3}(?!\d))*(?:\.\d+)?")
_MONTH = re.compile(r"\b(" + "|".join(_MONTH_NAMES) + r")\b")


def _stem(word: str) -> str:
    for suffix in ("'s", "’s", "ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def content_words(text: str) -> set[str]:
    """The words that carry meaning (stop words dropped, light stemming), numbers normalised."""
    words = {_stem(w) for w in re.findall(r"[^\W\d_]+(?:['’][^\W\d_]+)?", text.lower()) if w not in _STOPWORDS}
    return words | numbers(text)


def canonical_number(raw: str) -> str:
    value = raw.replace(",", "")
    if "." in value:
        value = value.rstrip("0").rstrip(".")
    return re.sub(r"^0+(?=\d)", "", value)  # "007" is 7, "0.5" stays


def numbers(text: str) -> set[str]:
    """Numbers, amounts and dates as one canonical form each: "1,200" and "1200.0" are "1200",
    "fifth" and "5th" are "5", "Oct" and "October" are "oct"."""
    found = {canonical_number(raw) for raw in _NUMBER.findall(text)}
    words = re.findall(r"[a-z]+", text.lower())
    months = {m[:3] for m in _MONTH.findall(text.lower())}
    return found | {_NUMBER_WORDS[w] for w in words if w in _NUMBER_WORDS} | months


_QUALIFIER_KINDS = {"about": "about", "around": "about", "approximately": "about", "roughly": "about",
                    "nearly": "about", "almost": "about", "exactly": "exactly", "precisely": "exactly",
                    "over": "over", "above": "over", "more than": "over", "at least": "over",
                    "under": "under", "below": "under", "less than": "under", "fewer than": "under",
                    "at most": "under", "up to": "under"}
_QUALIFIED = re.compile(r"(?:\b(" + "|".join(_QUALIFIER_KINDS) + r")\s+)?[$€£]?(?<![\d.,])(" + _NUMBER.pattern + ")",
                        re.IGNORECASE)


_APPROXIMATE = re.compile(r"\b(?:" + "|".join(q for q, kind in _QUALIFIER_KINDS.items() if kind == "about")
                          + r")\s+([$€£]?)(?<![\d.,])(" + _NUMBER.pattern + ")", re.IGNORECASE)


def qualified_numbers(text: str) -> set[tuple[str, str]]:
    """Each number with how the text qualifies it: "exactly $20M" is ("exactly", "20"), "about
    1,200" is ("about", "1200"), a bare 2004 is ("", "2004"). "About $20M" for "exactly $20M" is
    another claim (Mastra's mixed-precision case), though its number is the output's."""
    return {(_QUALIFIER_KINDS[q.lower()] if q else "", canonical_number(n)) for q, n in _QUALIFIED.findall(text)}


def approximates(approximate: str, exact: str) -> bool:
    """A reasonable approximation (the spec: "about 1,200" for 1,234): the exact number rounded
    at the approximation's own last digit ("1,2|00"), and at most 3 % off it. "About $10M" for
    $10.5M rounds but is 5 % off (Mastra calls that a hallucination); "about 80" for 48.7 and
    "around 2010" for 2004 do not round."""
    a, m = Decimal(canonical_number(approximate)), Decimal(canonical_number(exact))
    if a == m:
        return True
    if m == 0 or abs(a - m) > abs(m) * Decimal("0.03"):
        return False
    place = a.normalize().as_tuple().exponent  # 1200 -> 2 (hundreds), 49 -> 0, 1.5 -> -1
    assert isinstance(place, int)  # finite: canonical numbers are digits
    return m.quantize(Decimal(1).scaleb(place), rounding=ROUND_HALF_UP) == a


_CARDINALS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
_DURATION = re.compile(r"\b(\d+(?:\.\d+)?|" + "|".join(_CARDINALS) + r")[\s-]+(minute|hour|day|week|month|year)s?\b",
                       re.IGNORECASE)
_LENGTHS = {"minute": ("time", 1), "hour": ("time", 60), "day": ("time", 1440), "week": ("time", 10080),
            "month": ("months", 1), "year": ("months", 12)}  # a month is no fixed number of days


def _length(match: re.Match[str]) -> tuple[str, Decimal]:
    """A duration as (kind, length in the kind's unit): "two weeks" and "14 days" are equal."""
    count, unit = match[1].lower(), match[2].lower()
    kind, size = _LENGTHS[unit]
    return kind, Decimal(str(_CARDINALS.index(count) + 1) if count in _CARDINALS else count) * size


_MONTH_WORD = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
               r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
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
    """The context's sentences with their content words: read once per context, not several times
    per claim (evidence for the support and contradiction prompts, the reason, dated years)."""
    return tuple((s, frozenset(content_words(s))) for item in context for s in sentences(item))


@lru_cache(maxsize=32)
def _context_terms(context: tuple[str, ...]) -> _ContextTerms:
    """What claims are restated in: read once per context, not once per claim."""
    text = " ".join(context)
    lengths: dict[tuple[str, Decimal], str] = {}
    for match in _DURATION.finditer(text):
        lengths.setdefault(_length(match), match[0])
    said: dict[str, str] = {}
    for raw in _NUMBER.findall(text):
        said.setdefault(canonical_number(raw), raw)
    dates: dict[str, list[tuple[str, frozenset[str]]]] = {}
    for sentence, words in sentence_words(context):
        for match in _DATED_YEAR.finditer(sentence):
            dates.setdefault(match[1], []).append((match[0], words))
    return _ContextTerms(lengths, said, dates)


def in_context_terms(claim: str, context: Sequence[str]) -> tuple[str, list[str]] | None:
    """The claim with its amounts and dates written as the context writes them, and what was
    rewritten: a duration the context gives in other units ("two weeks" for "14 days"), a
    reasonable approximation ("around 1,200" for "1,234") and a year the context dates more
    precisely ("in 2021" for "in September 2021"). None when nothing needed rewriting. The spec
    allows all three; a small judge reads them as "not stated" (P(yes) 0.42 -> 0.92 for the
    backups answer of the labelled set). Each version says at least what the claim says, so
    its support is the claim's; asked about the context's own terms, the judge checks the rest
    of the claim as usual."""
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


_PRONOUNS = re.compile(r"\b(he|him|his|himself|she|her|hers|herself)\b", re.IGNORECASE)


def pronouns(text: str) -> set[str]:
    """Gendered pronouns: a claim that says "her grandchildren" where the output says "his" has
    swapped the subject (FactCC's pronoun swap), yet shares every content word with it."""
    return {p.lower() for p in _PRONOUNS.findall(text)}


class _Signs(NamedTuple):
    words: frozenset[str]
    numbers: frozenset[str]
    qualified: frozenset[tuple[str, str]]
    pronouns: frozenset[str]


@lru_cache(maxsize=32)
def _signs(output: str) -> _Signs:
    """What claims are checked against, read once per output, not once per claim."""
    return _Signs(frozenset(content_words(output)), frozenset(numbers(output)),
                  frozenset(qualified_numbers(output)), frozenset(pronouns(output)))


def check_claim(claim: str, output: str) -> None:
    """Raise unless the claim's numbers and dates are the output's, qualified as the output does
    ("exactly", "about", "over"), its gendered pronouns are the output's, and it is mostly its
    words."""
    said = _signs(output)
    missing = sorted(numbers(claim) - said.numbers)
    if missing:
        raise ValueError(f"the claim {claim!r} is not taken from the OUTPUT: it has {', '.join(missing)}, "
                         "which the OUTPUT does not say; list only claims the OUTPUT makes, with its own "
                         "numbers and dates")
    regendered = sorted(pronouns(claim) - said.pronouns)
    if regendered:
        raise ValueError(f"the claim {claim!r} is not taken from the OUTPUT: it says {', '.join(regendered)}, "
                         "which the OUTPUT never does; keep the OUTPUT's own he, she, his and her")
    requalified = sorted(f"{q} {n}".strip() for q, n in qualified_numbers(claim) - said.qualified)
    if requalified:
        raise ValueError(f"the claim {claim!r} is not taken from the OUTPUT: it says {', '.join(requalified)}, "
                         "which the OUTPUT qualifies otherwise; keep the OUTPUT's own \"exactly\", \"about\", "
                         "\"over\" and \"up to\"")
    words = content_words(claim)
    if words and len(words & said.words) / len(words) < MIN_SHARED_WORDS:
        raise ValueError(f"the claim {claim!r} is not taken from the OUTPUT; list only claims the "
                         "OUTPUT makes, in its own words, never facts from elsewhere")


# -- does an output state facts? ------------------------------------------------------------
# Only what is about the assistant or the documents themselves, never words that a claim about
# the world can contain ("We do not have data centres in Asia", "stores no information about
# you"): a claim that matched by mistake would be dropped from the verdicts, a false pass.
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


_SPLIT = re.compile(r"(?<=[.!?])[\"”')\]]*\s+")
_BULLET = re.compile(r"^(?:[-*•]|\d+[.)])\s+")


def sentences(text: str) -> list[str]:
    """Sentences and list items, without their bullets."""
    lines = (_BULLET.sub("", line.strip()) for line in text.splitlines())
    return [s.strip() for line in lines for s in _SPLIT.split(line) if s.strip()]


def states_fact(sentence: str) -> bool:
    if is_non_fact(sentence):
        return False
    words = sentence.split()
    return bool(re.search(r"\d", sentence) or any(w[:1].isupper() and w != "I" for w in words[1:])
                or (len(words) >= 3 and _FINITE_VERB.search(sentence)))


def states_facts(output: str) -> bool:
    """Cheap and conservative: does some sentence look like a statement of fact?

    Questions, refusals ("I don't know", "I could not find that in the documents"), greetings
    and sentences about the assistant ("I can help with billing") are not facts. A sentence is
    a fact when it has a digit, a proper noun (a capital inside the sentence) or a finite verb.
    Only used to re-ask a judge that found no claims, so a miss costs little.
    """
    return any(map(states_fact, sentences(output)))


# -- claims that leave a sentence out -------------------------------------------------------
def is_fragment(claim: str) -> bool:
    """'Hourglass', 'January 23, 2019': too short to be true or false on its own."""
    return len(claim.split()) < 3


def uncovered(output: str, claims: Sequence[str]) -> list[str]:
    """The fact-stating sentences of `output` whose words and numbers no claim carries.

    A judge that drops a sentence at the claims step drops whatever error it holds (a small
    judge turned a 5-sentence summary into 1-2 claims), so such a sentence becomes a claim
    itself, in the output's own words.
    """
    claimed = [(content_words(c), numbers(c)) for c in claims]
    anywhere: set[str] = set().union(*(w for w, _ in claimed))
    missing = []
    # every sentence but the patterns of is_non_fact: a fact without a sign of being one (no
    # number, name or common verb: "The app stores no location data") must not go unjudged
    for sentence in (s for s in sentences(output) if content_words(s) and not is_non_fact(s)):
        wanted, digits = content_words(sentence), numbers(sentence)
        near = [(w, n) for w, n in claimed if len(w & wanted) >= max(1, len(wanted) // 3)]
        got_words: set[str] = set().union(*(w for w, _ in near))
        got_numbers: set[str] = set().union(*(n for _, n in near))
        if (len(got_words & wanted) < 0.6 * len(wanted) or not digits <= got_numbers
                or any(dropped(clause, anywhere) for clause in clauses(sentence))):
            missing.append(sentence)
    return missing


_CLAUSE = re.compile(r"[,;:()]|\s(?:and|but|while|whereas|which|who|because|although)\s", re.IGNORECASE)


def clauses(sentence: str) -> list[str]:
    return [part for part in _CLAUSE.split(sentence) if part.strip()]


def dropped(clause: str, claimed_words: set[str]) -> bool:
    """A clause of two or more content words, most of which no claim carries: "may have
    international offices" left out of "The company was founded in 1995 and may have
    international offices" (the sentence as a whole is 3/5 covered, enough on its own)."""
    words = content_words(clause)
    return len(words) >= 2 and len(words & claimed_words) < len(words) / 2


class ClaimsCheck:
    """The claims step's check and filter: a factual output is not left without claims, and only
    claims taken from the output are used.

    An empty claim list for an output that states facts is rejected once, so the judge is
    re-asked with the reason; a second empty list is accepted (its sentences are then judged).
    Because the check runs on cached answers too, a stored empty list is re-asked once per run
    instead of being served: a judge that failed once is not trusted forever. A claim that is not
    the output's (a number it does not say, mostly other words) is dropped, not re-asked: the
    answer stays cacheable, and the sentence it came from is judged in the output's own words.
    """

    def __init__(self, output: str, reask_empty: bool = True) -> None:
        self.output = output
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
        return not is_fragment(claim) and not is_non_fact(claim)


def is_non_fact(sentence: str) -> bool:
    """A question, refusal ("I don't know."), greeting or remark about the assistant: never a
    claim, whatever the judge listed. (Only these patterns: a claim is never dropped for lacking
    a sign of being a fact, which would hide the claim from the verdicts.)"""
    if sentence.rstrip().endswith("?"):
        return True
    # "Sure, the plan costs $8." starts like a pleasantry but states a number: a fact (if a
    # refusal with a number is judged instead, it fails, the safe side)
    return not re.search(r"\d", sentence) and bool(_NOT_A_FACT.search(sentence))


def same_statements(claims: Sequence[str]) -> Callable[[Any], None]:
    """Verdicts are matched to claims by position: each echoed statement must be its own claim.

    An empty statement is allowed (the one-claim-per-call answers do not echo it). A statement
    that differs in wording still matches when its claim is the one it shares most words with.
    """
    keys = [normalise(c) for c in claims]
    words = [set(k.split()) for k in keys]

    def closeness(statement: set[str], i: int) -> float:
        return len(statement & words[i]) / max(len(statement | words[i]), 1)

    def check(answer: Any) -> None:
        verdicts = answer.verdicts
        if len(verdicts) != len(claims):
            raise ValueError(f"expected exactly {len(claims)} verdicts (one per claim, in order), got {len(verdicts)}")
        for i, verdict in enumerate(verdicts):
            said = normalise(verdict.statement)
            if not said or said == keys[i]:
                continue
            scores = [closeness(set(said.split()), j) for j in range(len(claims))]
            if scores[i] < 0.5 or any(s >= scores[i] for j, s in enumerate(scores) if j != i):
                raise ValueError(f"verdict {i + 1} is about {verdict.statement!r}, but claim {i + 1} is "
                                 f"{claims[i]!r}: give one verdict per claim, in the order given, "
                                 "copying each claim into \"statement\"")

    return check
