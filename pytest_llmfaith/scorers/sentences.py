"""The output's sentences, and which of them state facts that no extracted claim covers.

A judge that drops a sentence at the claims step drops whatever error it holds: a small judge
turned a 5-sentence summary into 1-2 claims, and the wrong sentence was never checked. So every
sentence that states a fact must be covered by a claim; one that is not becomes a claim itself,
in the output's own words. Questions, greetings, refusals and statements about the assistant
are not facts (the spec's "no claims" rule).
"""

from __future__ import annotations

import re

_SPLIT = re.compile(r"(?<=[.!?])[\"”')\]]*\s+|\n+\s*(?:[-*•]|\d+[.)])?\s*")
_NOT_FACT = re.compile(
    r"""^(?:
        .*\?$                                                      # a question
      | (?:hi|hello|hey|thanks|thank\ you|you'?re\ welcome|good\ (?:morning|afternoon|evening))\b.*
      | (?:i\ hope\ (?:this|that)\ helps|hope\ (?:this|that)\ helps|let\ me\ know|feel\ free|happy\ to\ help
         |is\ there\ anything\ else|anything\ else\ i\ can)\b.*
      | (?:sorry,?\ )?i\ (?:do\ not|don'?t|could\ not|couldn'?t|cannot|can'?t|am\ not\ able|was\ not\ able|am\ unable)
        \ (?:know|find|tell|say|answer|help|see|access|confirm|determine)\b.*    # a refusal
      | (?:sorry,?\ )?i'?m\ (?:not\ sure|unable|sorry)\b.*
      | (?:i\ am|i'?m)\ (?:an?\ )?(?:ai|assistant|language\ model|chatbot|bot)\b.*   # about the assistant
      | as\ an\ (?:ai|assistant|language\ model)\b.*
      | (?:the\ )?(?:provided\ )?(?:documents?|context|sources?)\ (?:do(?:es)?\ not|don'?t)\ (?:say|mention|contain|state|cover)\b.*
      | there\ is\ no\ information\b.*
    )$""",
    re.IGNORECASE | re.VERBOSE,
)
_NUMBER = re.compile(r"\d[\d,.]*")
_BULLET = re.compile(r"^(?:[-*•]|\d+[.)])\s+")


def sentences(text: str) -> list[str]:
    return [_BULLET.sub("", s.strip()) for s in _SPLIT.split(text.strip()) if s and s.strip()]


def words(text: str) -> set[str]:
    """Content words: what two texts about the same fact share, whatever the wording."""
    return {w for w in re.findall(r"\w+", text.lower()) if len(w) > 3 or w.isdigit()}


def numbers(text: str) -> set[str]:
    return {n.rstrip(".,").replace(",", "") for n in _NUMBER.findall(text)}


def states_fact(sentence: str) -> bool:
    """Whether a sentence can be true or false about the world (not a question, greeting,
    refusal or remark about the assistant)."""
    return bool(words(sentence)) and not _NOT_FACT.match(sentence.strip())


def is_fragment(claim: str) -> bool:
    """'Hourglass', 'January 23, 2019': too short to be true or false on its own."""
    return len(claim.split()) < 3


def uncovered(output: str, claims: list[str]) -> list[str]:
    """The fact-stating sentences of `output` whose words and numbers no claim carries."""
    claimed = [(words(c), numbers(c)) for c in claims]
    missing = []
    for sentence in filter(states_fact, sentences(output)):
        wanted, digits = words(sentence), numbers(sentence)
        near = [(w, n) for w, n in claimed if len(w & wanted) >= max(1, len(wanted) // 3)]
        got_words = set().union(*(w for w, _ in near)) if near else set()
        got_numbers = set().union(*(n for _, n in near)) if near else set()
        if len(got_words & wanted) < 0.6 * len(wanted) or not digits <= got_numbers:
            missing.append(sentence)
    return missing
