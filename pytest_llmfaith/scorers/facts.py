"""Does an output state facts? Refusals, greetings and questions are not claims; English by its
patterns, every other language by the judge's own answer (checks.ClaimsCheck)."""

from __future__ import annotations

import re

from pytest_llmfaith.text.language import language_of
from pytest_llmfaith.text.profiles import ENGLISH, Language
from pytest_llmfaith.text.sentences import sentences

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
