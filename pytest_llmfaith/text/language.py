"""How a text is read for the claim checks in any language: sentences, comparison units, numbers, markers.

Each language is compared by what is stable in it (English stemmed words, other alphabets
trigrams, spaceless scripts and Korean bigrams); word lists apply only to their own language,
never English rules elsewhere. Why: docs/languages.md.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Literal

from pytest_llmfaith.text.scripts import SPACELESS, main_script, script_counts
from pytest_llmfaith.text.sentences import sentences

Unit = Literal["word", "trigram", "bigram"]

_EN_STOPWORDS = frozenset("""
a an the and or but if of to in on at by for with from as into onto about than then that this these
those there here it its it's they them their he him his she her we our us you your i me my is are was
were be been being has have had do does did will would can could shall should may might must not no
so such which who whom whose what when where why how also very just only all any each both some
""".split())


@dataclass(frozen=True, eq=False)  # one object per language: hashed by identity, for the caches
class Language:
    """One language's (or script's) rules. Lists left empty are not checked in that language."""

    code: str  # "en", "de", ..., or a script for languages without lists: "latin", "cyrillic", ...
    name: str  # for notes: "German", "Korean", "Latin-script text"
    unit: Unit
    min_shared: float  # the share of a claim's units that must be its output's
    decimal_comma: bool = False  # "3,5" is three and a half; "1.234" and "1 234" are 1234
    stopwords: frozenset[str] = frozenset()
    negations: tuple[str, ...] = ()  # regex alternatives; any of them makes a clause negative
    comparisons: dict[str, str] = field(default_factory=dict)  # phrase before a number -> kind
    after_number: dict[str, str] = field(default_factory=dict)  # phrase after a number -> kind
    number_words: dict[str, str] = field(default_factory=dict)
    months: dict[str, str] = field(default_factory=dict)  # month name -> the English 3-letter key
    function_chars: str = ""  # spaceless scripts: particles that separate words (は, 的)
    particles: tuple[str, ...] = ()  # Korean: endings stripped from a word before comparing
    min_words: int = 3  # fewer (spaced scripts) or fewer than 4 letters (spaceless): a fragment
    spaced: bool = True
    conjunctions: tuple[str, ...] = ()  # words that start a clause ("and", "und", "y")
    suffixes: tuple[str, ...] = ()  # inflections stripped from a counted unit ("Tagen" -> "Tag")
    hedges: tuple[str, ...] = ()  # regex alternatives of speculation ("may", "vielleicht", "可能")
    clause_breaks: tuple[str, ...] = ()  # regexes where a clause ends without a word: Korean "-고 "
    letters: str = ""  # letters that tell this language from the other listed ones (ä, ñ, ç)
    ending: int = 3  # letters of a word's ending a claim may change ("Tagen"/"Tag", 습니다/다)
    noun_capitals: bool = False  # every noun is capitalised (German): a capital does not mark a name

    @property
    def looser(self) -> str | None:
        """What is checked less strictly than English here, for the note on a score (None: English)."""
        if self.code == "en":
            return None
        missing = [what for what, present in (("number words", self.number_words), ("month names", self.months),
                                              ("negations", self.negations), ("qualifiers", self.comparisons),
                                              ("hedges", self.hedges)) if not present]
        missing += ["gendered pronouns", "refusal and greeting patterns", "evaluative words",
                    "durations and dates restated in the context's terms"]
        units = {"trigram": "character trigrams", "bigram": "character bigrams"}.get(self.unit, "words")
        return (f"{self.name} text checked more loosely than English: claims compared by {units} "
                f"(a claim keeps {self.min_shared:.0%} of them); not read: {', '.join(missing)}")


def _months(*names: str) -> dict[str, str]:
    keys = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
    return {name: keys[i] for i, group in enumerate(names) for name in group.split("|") if name}


def _counted(*groups: str) -> dict[str, str]:
    return {w: str(i + 1) for i, group in enumerate(groups) for w in group.split("|")}


_OVER, _UNDER, _ABOUT, _EXACTLY = "over", "under", "about", "exactly"

# min_shared: a real claim is the output's words lightly rearranged; one word swapped in three is
# rejected. N-grams keep less of a paraphrase. Measured: benchmarks/README.md, round 7.
ENGLISH = Language(
    "en", "English", "word", 0.7, stopwords=_EN_STOPWORDS,
    negations=(r"\bnot\b", r"\bno\b", r"\bnever\b", r"\bnone\b", r"\bnothing\b", r"\bneither\b", r"\bnor\b",
               r"\bwithout\b", r"\w+n['’]t\b", r"\bcannot\b"),
    comparisons={"about": _ABOUT, "around": _ABOUT, "approximately": _ABOUT, "roughly": _ABOUT, "nearly": _ABOUT,
                 "almost": _ABOUT, "exactly": _EXACTLY, "precisely": _EXACTLY, "over": _OVER, "above": _OVER,
                 "more than": _OVER, "at least": _OVER, "under": _UNDER, "below": _UNDER, "less than": _UNDER,
                 "fewer than": _UNDER, "at most": _UNDER, "up to": _UNDER},
    after_number={"or more": _OVER, "or over": _OVER, "or above": _OVER, "or less": _UNDER,
                  "or fewer": _UNDER, "or under": _UNDER},
    number_words=_counted("one|first|once", "two|second|twice", "three|third", "four|fourth", "five|fifth",
                          "six|sixth", "seven|seventh", "eight|eighth", "nine|ninth", "ten|tenth",
                          "eleven|eleventh", "twelve|twelfth"),
    months=_months("january|jan", "february|feb", "march|mar", "april|apr", "", "june|jun", "july|jul",
                   "august|aug", "september|sept|sep", "october|oct", "november|nov", "december|dec"),
    conjunctions=("and", "but", "while", "whereas", "which", "who", "because", "although"),
    suffixes=("'s", "’s", "ing", "ed", "es", "s"),
    hedges=(r"\b(?:may|might|could|possibly|perhaps|probably|likely|potentially|maybe)\b",),
)
GERMAN = Language(
    "de", "German", "trigram", 0.6, decimal_comma=True, noun_capitals=True,
    stopwords=frozenset("""der die das den dem des ein eine einen einem einer eines und oder aber für mit von zu
    zum zur im in am an auf aus bei nach seit über unter vor ist sind war waren wird werden wurde wurden hat haben
    hatte es er sie wir ihr ich sich sein seine ihre dass als auch noch nur so wie nicht kein keine sehr""".split()),
    letters="äöüß",
    negations=(r"\bnicht\b", r"\bkein\w*", r"\bnie\b", r"\bniemals\b", r"\bohne\b", r"\bweder\b"),
    comparisons={"etwa": _ABOUT, "ungefähr": _ABOUT, "rund": _ABOUT, "circa": _ABOUT, "ca.": _ABOUT,
                 "fast": _ABOUT, "genau": _EXACTLY, "über": _OVER, "mehr als": _OVER, "mindestens": _OVER,
                 "unter": _UNDER, "weniger als": _UNDER, "höchstens": _UNDER, "bis zu": _UNDER},
    after_number={"oder mehr": _OVER, "oder weniger": _UNDER},
    number_words=_counted("eins|erste|ersten|einmal", "zwei|zweite|zweiten", "drei|dritte|dritten", "vier|vierte",
                          "fünf|fünfte", "sechs|sechste", "sieben|siebte", "acht|achte", "neun|neunte",
                          "zehn|zehnte", "elf|elfte", "zwölf|zwölfte"),
    months=_months("januar", "februar", "märz", "april", "mai", "juni", "juli", "august", "september",
                   "oktober", "november", "dezember"),
    conjunctions=("und", "aber", "während", "weil", "obwohl", "sondern"),
    suffixes=("en", "e", "n", "s"),
    hedges=(r"\b(?:könnte\w*|vielleicht|möglicherweise|wahrscheinlich|eventuell|vermutlich)\b",),
)
SPANISH = Language(
    "es", "Spanish", "trigram", 0.6, decimal_comma=True,
    stopwords=frozenset("""el la los las un una unos unas y o pero de del al en con por para sin sobre es son
    fue fueron era está están ha han hay tiene tienen que se su sus lo como más también muy""".split()),
    letters="ñ¿¡",
    negations=(r"\bno\b", r"\bnunca\b", r"\bjamás\b", r"\bningun\w*", r"\bnada\b", r"\bni\b", r"\bsin\b"),
    comparisons={"aproximadamente": _ABOUT, "unos": _ABOUT, "unas": _ABOUT, "cerca de": _ABOUT, "casi": _ABOUT,
                 "exactamente": _EXACTLY, "más de": _OVER, "al menos": _OVER, "por lo menos": _OVER,
                 "menos de": _UNDER, "hasta": _UNDER, "como máximo": _UNDER},
    after_number={"o más": _OVER, "o menos": _UNDER},
    number_words=_counted("uno|primero|primera", "dos|segundo|segunda", "tres|tercero|tercera", "cuatro|cuarto",
                          "cinco|quinto", "seis|sexto", "siete|séptimo", "ocho|octavo", "nueve|noveno",
                          "diez|décimo", "once", "doce"),
    months=_months("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre|setiembre",
                   "octubre", "noviembre", "diciembre"),
    conjunctions=("y", "e", "pero", "mientras", "porque", "aunque", "que"),
    suffixes=("es", "s"),
    hedges=(r"\b(?:podría\w*|quizás?|tal vez|posiblemente|probablemente|puede que)\b",),
)
FRENCH = Language(
    "fr", "French", "trigram", 0.6, decimal_comma=True,
    stopwords=frozenset("""le la les un une des du de d l et ou mais à au aux en dans par pour avec sur est sont
    était a ont été qui que se sa son ses leur leurs ce cette il elle ils elles nous vous plus aussi très""".split()),
    letters="àâçèêëîïôœùû",
    negations=(r"\bne\b", r"\bn['’]", r"\bpas\b", r"\bjamais\b", r"\baucun\w*", r"\brien\b", r"\bsans\b"),
    comparisons={"environ": _ABOUT, "près de": _ABOUT, "presque": _ABOUT, "exactement": _EXACTLY,
                 "plus de": _OVER, "au moins": _OVER, "moins de": _UNDER, "au plus": _UNDER, "jusqu'à": _UNDER},
    after_number={"ou plus": _OVER, "ou moins": _UNDER},
    number_words=_counted("premier|première", "deux|deuxième|second|seconde", "trois|troisième", "quatre|quatrième",
                          "cinq|cinquième", "six|sixième", "sept|septième", "huit|huitième", "neuf|neuvième",
                          "dix|dixième", "onze", "douze"),
    months=_months("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
                   "octobre", "novembre", "décembre"),
    conjunctions=("et", "mais", "tandis", "parce", "bien", "qui"),
    suffixes=("es", "s", "x"),
    hedges=(r"\b(?:pourrai\w*|peut-être|probablement|possiblement|sans doute)",),
)
KOREAN = Language(
    "ko", "Korean", "bigram", 0.5, min_words=2,
    negations=(r"않", r"못", r"없", r"아니", r"안\s"),
    comparisons={"약": _ABOUT, "대략": _ABOUT, "최소": _OVER, "적어도": _OVER, "최대": _UNDER},
    hedges=(r"아마", r"가능성", r"지도 모르"),
    after_number={"이상": _OVER, "초과": _OVER, "이하": _UNDER, "미만": _UNDER, "가량": _ABOUT, "정도": _ABOUT},
    # the longest first: "에서" before "에", "으로" before "로"
    clause_breaks=(r"(?<=고)\s(?!있|계)", r"(?<=며)\s", r"(?<=지만)\s", r"(?<=는데)\s", r"(?<=어서)\s", r"(?<=아서)\s"),
    particles=("에서는", "에게서", "으로는", "에서", "에게", "으로", "부터", "까지", "께서", "한테", "은", "는", "이",
               "가", "을", "를", "의", "에", "로", "와", "과", "도", "만"),
)
CHINESE = Language(
    "zh", "Chinese", "bigram", 0.5, spaced=False, ending=2, function_chars="的了是在和与及也都而并于由把被对",
    negations=(r"不", r"没", r"無", r"无", r"未(?!来)", r"非(?!常)"),  # not in 未来 (future), 非常 (very)
    comparisons={"约": _ABOUT, "大约": _ABOUT, "近": _ABOUT, "超过": _OVER, "至少": _OVER, "不到": _UNDER,
                 "最多": _UNDER},
    after_number={"以上": _OVER, "以下": _UNDER, "左右": _ABOUT},
    hedges=(r"可能", r"也许", r"或许", r"大概"),
)
JAPANESE = Language(
    "ja", "Japanese", "bigram", 0.5, spaced=False, ending=2, function_chars="はがをにのでともへやか、",
    negations=(r"ない", r"ません", r"なかった", r"ず(?=[、。にも])", r"無い", r"非(?!常)"),
    comparisons={"約": _ABOUT, "およそ": _ABOUT, "少なくとも": _OVER, "最大": _UNDER},
    after_number={"以上": _OVER, "超": _OVER, "以下": _UNDER, "未満": _UNDER, "ほど": _ABOUT, "程度": _ABOUT},
    hedges=(r"かもしれ", r"可能性", r"おそらく", r"たぶん"),
)
ARABIC = Language(
    "ar", "Arabic", "trigram", 0.6,
    stopwords=frozenset("""في من إلى على عن مع و أو ثم هو هي هذا هذه ذلك التي الذي كان كانت أن إن قد فيه فيها له
    لها وله ولها به بها منه منها عليه عليها عنه عنها""".split()),  # with "in it", "to it": فيها, لها
    negations=(r"(?<!\w)لا(?!\w)", r"(?<!\w)لم(?!\w)", r"(?<!\w)لن(?!\w)", r"(?<!\w)ليس\w*",
               r"(?<!\w)غير(?!\w)", r"(?<!\w)بدون(?!\w)"),
    comparisons={"حوالي": _ABOUT, "نحو": _ABOUT, "تقريبا": _ABOUT, "أكثر من": _OVER, "على الأقل": _OVER,
                 "أقل من": _UNDER, "حتى": _UNDER},
    after_number={"أو أكثر": _OVER, "أو أقل": _UNDER},
    hedges=(r"(?<!\w)ربما(?!\w)", r"(?<!\w)قد(?!\w)", r"(?<!\w)يحتمل(?!\w)"),
    conjunctions=("لكن", "بينما", "لأن"),
    clause_breaks=(r"\s(?=و[^\W\d_]{2,})",),  # "و" ("and") written onto the next word
)
HEBREW = Language(
    "he", "Hebrew", "trigram", 0.6,
    stopwords=frozenset("של את על עם הוא היא זה זו אשר כי גם או".split()),
    negations=(r"(?<!\w)לא(?!\w)", r"(?<!\w)אין(?!\w)", r"(?<!\w)אינ\w*", r"(?<!\w)בלי(?!\w)", r"(?<!\w)ללא(?!\w)"),
    comparisons={"כ-": _ABOUT, "בערך": _ABOUT, "לפחות": _OVER, "יותר מ": _OVER, "פחות מ": _UNDER, "עד": _UNDER},
    after_number={"ומעלה": _OVER, "או יותר": _OVER, "או פחות": _UNDER},
    hedges=(r"(?<!\w)אולי(?!\w)", r"(?<!\w)ייתכן(?!\w)", r"(?<!\w)כנראה(?!\w)"),
    conjunctions=("אבל", "בעוד", "כי"),
    clause_breaks=(r"\s(?=ו[^\W\d_]{2,})",),  # "ו" ("and") written onto the next word
)
_NAMED = {lang.code: lang for lang in (ENGLISH, GERMAN, SPANISH, FRENCH, KOREAN, CHINESE, JAPANESE, ARABIC, HEBREW)}
_LISTED = (ENGLISH, GERMAN, SPANISH, FRENCH)  # the Latin-script languages told apart by their function words


SHORT = 7
"""Longer ASCII text without any listed function word is not read as English: such English hardly occurs."""


FUNCTION_SHARE = 0.1
"""Minimum share of function words: one "on" in fourteen Finnish words does not make it English."""


@cache
def _by_script(script: str) -> Language:
    """A language without lists: n-grams only. Cached: one object per script, since caches key on it."""
    spaceless = script in SPACELESS
    comma = script in ("LATIN", "CYRILLIC", "GREEK")  # most languages of these scripts write "3,5"
    return Language(script.lower(), f"{script.title()}-script", "bigram" if spaceless else "trigram",
                    0.5 if spaceless else 0.6, decimal_comma=comma, spaced=not spaceless,
                    ending=2 if spaceless else 3)


@lru_cache(maxsize=256)
def language_of(text: str) -> Language:
    """The language whose rules read `text`: by its main script, then (Latin) by function words."""
    scripts = script_counts(text)
    main = main_script(text)
    if main is None:
        return ENGLISH
    if main in ("HAN", "HIRAGANA", "KATAKANA") and scripts["HIRAGANA"] + scripts["KATAKANA"]:
        return JAPANESE  # kanji with kana; kanji alone are Chinese
    if main in ("HAN", "HANGUL", "ARABIC", "HEBREW"):
        return {"HAN": CHINESE, "HANGUL": KOREAN, "ARABIC": ARABIC, "HEBREW": HEBREW}[main]
    return _latin_language(text) if main == "LATIN" else _by_script(main)


def _latin_language(text: str) -> Language:
    """By function words; Latin text with too few (Turkish, Finnish...) gets no lists, never English ones."""
    words = Counter(w for w in re.findall(r"[^\W\d_]+", text.casefold()) if len(w) > 1)  # not "i" of "İ"
    hits = {lang.code: sum(n / _sharing(w) for w, n in words.items() if w in lang.stopwords) for lang in _LISTED}
    short = sum(words.values()) <= SHORT
    if not any(hits.values()) and short:  # "Nordlicht beschäftigt 40 Mitarbeiter."
        hits = {lang.code: sum(n for w, n in words.items() if set(w) & set(lang.letters)) for lang in _LISTED}
    best = max(hits, key=lambda code: (hits[code], code == "en"))
    if hits[best] == 0:  # "Acme employs 40 people.": too short to lack English function words by chance
        return ENGLISH if text.isascii() and short else _by_script("LATIN")
    if not short and hits[best] < FUNCTION_SHARE * sum(words.values()):  # Finnish "on" is not English
        return _by_script("LATIN")
    return ENGLISH if hits["en"] >= hits[best] else _NAMED[best]


@lru_cache(maxsize=4096)
def _sharing(word: str) -> int:
    """How many listed languages have `word` as a function word: "la" counts half for Spanish and French."""
    return sum(word in lang.stopwords for lang in _LISTED)


def named(code: str) -> Language:
    return _NAMED[code]


# -- numbers --------------------------------------------------------------------------------
_GROUP_SPACE = "\u00a0\u202f\u2009"  # no-break, narrow no-break and thin spaces group digits anywhere
_DOT_DECIMAL = re.compile(rf"\d{{1,3}}(?:[,{_GROUP_SPACE}]\d{{3}}(?!\d))+(?:\.\d+)?|\d+(?:\.\d+)?")
_COMMA_DECIMAL = re.compile(rf"\d{{1,3}}(?:[. {_GROUP_SPACE}]\d{{3}}(?![\d,.]\d))+(?:,\d+)?|\d+(?:[,.]\d+)?")


@lru_cache(maxsize=1024)
def ascii_digits(text: str) -> str:
    """Full-width (１２３) and other scripts' digits (٣) as ASCII, the Arabic separators as . and ,."""
    text = unicodedata.normalize("NFKC", text).replace("\u066b", ".").replace("\u066c", ",")
    if text.isascii():
        return text
    return "".join(str(unicodedata.decimal(c)) if c.isdecimal() and not c.isascii() else c for c in text)


def number_pattern(lang: Language) -> re.Pattern[str]:
    return _COMMA_DECIMAL if lang.decimal_comma else _DOT_DECIMAL


@lru_cache(maxsize=4096)
def canonical_number(raw: str, lang: Language = ENGLISH) -> str:
    """One spelling per value in the text's convention: "1,200" (English) and "1.200" (German) are
    "1200", "3,5" (German) is "3.5", "007" is "7"."""
    value = re.sub(f"[{_GROUP_SPACE} ]", "", raw)
    if lang.decimal_comma:
        grouped = re.fullmatch(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?", value)
        value = value.replace(".", "") if grouped else value
        value = value.replace(",", ".")
    else:
        value = value.replace(",", "")
    if "." in value:
        value = value.rstrip("0").rstrip(".")
    return re.sub(r"^0+(?=\d)", "", value)


def number_spans(text: str, lang: Language) -> list[tuple[int, int, str]]:
    """Each number of `text` (ASCII digits) with where it is and its canonical value."""
    return [(m.start(), m.end(), canonical_number(m[0], lang)) for m in number_pattern(lang).finditer(text)]


def numbers(text: str, lang: Language | None = None) -> set[str]:
    """One canonical form per number, amount and date ("1,200" = "1200.0", "fifth" = "5th")."""
    lang = lang or language_of(text)
    digits = ascii_digits(text)
    found = {value for _, _, value in number_spans(digits, lang)}
    if lang.number_words or lang.months:
        words = re.findall(r"[^\W\d_]+", digits.casefold())
        found |= {lang.number_words[w] for w in words if w in lang.number_words}
        found |= {lang.months[w] for w in words if w in lang.months}
    return found


# -- units of comparison --------------------------------------------------------------------
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def stem(word: str, lang: Language) -> str:
    """The word without one inflection of its language's list ("widgets" -> "widget")."""
    for suffix in lang.suffixes:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def grams(text: str, n: int) -> set[str]:
    return {text} if len(text) <= n else {text[i:i + n] for i in range(len(text) - n + 1)}


def _strip_particle(word: str, lang: Language) -> str:
    for particle in lang.particles:
        if word.endswith(particle) and len(word) > len(particle):
            return word[: -len(particle)]
    return word


def gram_size(lang: Language) -> int:
    """The length of the character n-grams an n-gram language is compared by (0: words)."""
    return {"trigram": 3, "bigram": 2}.get(lang.unit, 0)


def compared_form(word: str, lang: Language) -> str:
    """A word as its n-grams are taken from: lower case, without its Korean particle."""
    word = word.casefold()
    return _strip_particle(word, lang) if lang.unit == "bigram" else word


def head(word: str, lang: Language) -> str:
    """The first n-1 letters, which a changed ending leaves alone; a Hangul syllable loses its final
    consonant, which conjugation changes (합니다 / 한다)."""
    first = compared_form(word, lang)[: gram_size(lang) - 1]
    return "".join(chr(0xAC00 + (ord(c) - 0xAC00) // 28 * 28) if "\uac00" <= c <= "\ud7a3" else c for c in first)


def word_units(word: str, lang: Language, every_word: bool = False) -> set[str]:
    """The units one word (or, in a spaceless script, one run of letters) is compared by; none for
    a function word unless `every_word`."""
    if word.casefold() in lang.stopwords and not every_word:
        return set()
    if lang.unit == "word":
        return {stem(word.casefold(), lang)}
    return grams(compared_form(word, lang), gram_size(lang))


def words(text: str, lang: Language) -> list[str]:
    """The words of `text`; in a spaceless script, the runs of letters between its particles."""
    found = _WORD.findall(ascii_digits(text))
    if lang is not ENGLISH:  # elision: "l'entreprise" is "entreprise" (English keeps "it's" whole)
        found = [part for w in found for part in re.split("['’]", w) if part]
    if lang.spaced or not lang.function_chars:
        return found
    return [part for w in found for part in re.split(f"[{re.escape(lang.function_chars)}]+", w) if part]


def units(text: str, lang: Language | None = None, every_word: bool = False) -> set[str]:
    """Comparable units with numbers; `every_word` keeps function words ("Company A" vs "Company B")."""
    lang = lang or language_of(text)
    found: set[str] = set()
    for word in words(text, lang):
        found |= word_units(word, lang, every_word)
    return found | numbers(text, lang)


def carried(word: str, have: set[str] | frozenset[str], lang: Language) -> bool:
    """Most units suffice in n-gram languages: a compound spelled out loses the trigrams at its joins."""
    wanted = word_units(word, lang)
    if not wanted:
        return True
    share = len(wanted & have) / len(wanted)
    return share >= (1.0 if lang.unit == "word" else 0.75)


def names(text: str, lang: Language, first: bool = False) -> list[str]:
    """Capitalised words; a sentence's first word only if `first`, as it is capitalised anyway."""
    found = []
    for sentence in sentences(text):
        found += [w for w in words(sentence, lang)[0 if first else 1:]
                  if w[:1].isupper() and w.casefold() not in lang.stopwords]
    return found


# -- negation and comparison markers ----------------------------------------------------------
@lru_cache(maxsize=64)
def _marker_patterns(lang: Language) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None,
                                               re.Pattern[str] | None]:
    def alternatives(phrases: list[str]) -> str:
        return "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))

    negation = re.compile("|".join(lang.negations), re.IGNORECASE) if lang.negations else None
    start = r"(?<!\w)" if lang.spaced else ""  # spaceless scripts write "は約300人"
    before = re.compile(rf"{start}({alternatives(list(lang.comparisons))})\s*[$€£¥₩]?\s*(?=\d)",
                        re.IGNORECASE) if lang.comparisons else None
    after = re.compile(rf"\d[^\W\d]{{0,3}}\s*[%]?\s*(?:[^\W\d]+\s+)?({alternatives(list(lang.after_number))})",
                       re.IGNORECASE) if lang.after_number else None
    return negation, before, after


def markers(text: str, lang: Language | None = None) -> frozenset[str]:
    """Negation and comparisons: "does not employ 40" says otherwise than "employs 40" with the same words."""
    lang = lang or language_of(text)
    negation, before, after = _marker_patterns(lang)
    digits = ascii_digits(text)
    found = {"not"} if negation and negation.search(digits) else set()
    if before:
        found |= {lang.comparisons[m.lower()] for m in before.findall(digits)}
    if after:
        found |= {lang.after_number[m.lower()] for m in after.findall(digits)}
    return frozenset(found)


def qualified_numbers(text: str, lang: Language | None = None) -> set[tuple[str, str]]:
    """(qualifier, number) pairs: "about 1,200" is ("about", "1200"), a bare 2004 is ("", "2004")."""
    lang = lang or language_of(text)
    digits = ascii_digits(text)
    _, before, _ = _marker_patterns(lang)
    qualified = {m.end(): lang.comparisons[m[1].lower()] for m in before.finditer(digits)} if before else {}
    return {(qualified.get(start, ""), value) for start, _, value in number_spans(digits, lang)}


_CLAUSE_MARKS = r"[;()，、；：（）،؛]|(?<!\d)[,:]|[,:](?!\d)"  # not inside "1,200", "3,5" or "9:00"


@lru_cache(maxsize=64)
def _clause_pattern(lang: Language) -> re.Pattern[str]:
    words = "|".join(re.escape(w) for w in lang.conjunctions)
    breaks = [_CLAUSE_MARKS, *([rf"\s(?:{words})\s"] if words else []), *lang.clause_breaks]
    return re.compile("|".join(breaks), re.IGNORECASE)


def clauses(sentence: str, lang: Language | None = None) -> list[str]:
    """A sentence's clauses: split at commas and the like, and before its language's conjunctions."""
    lang = lang or language_of(sentence)
    return [part for part in _clause_pattern(lang).split(sentence) if part and part.strip()]


def is_fragment(claim: str, lang: Language) -> bool:
    """'Hourglass', 'January 23, 2019', '東京': too short to be true or false on its own."""
    if lang.spaced:
        return len(claim.split()) < lang.min_words
    return sum(c.isalnum() for c in claim) < 4
