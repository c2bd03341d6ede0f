"""One profile per language, as data: its unit of comparison, its number convention, and the
lists that tolerate (function words, particles, endings) or read what only a list can (number
words, months, listed negations and comparisons). A language without lists reads by its script.
Why each: docs/languages.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from pytest_llmfaith.text.scripts import SPACELESS

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
ENGLISH_CARDINALS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                     "twelve")
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
    number_words=_counted(*(f"{cardinal}|{more}" for cardinal, more in zip(ENGLISH_CARDINALS, (
        "first|once", "second|twice", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
        "eleventh", "twelfth")))),
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
LISTED = (ENGLISH, GERMAN, SPANISH, FRENCH)  # the Latin-script languages told apart by their function words


@cache
def by_script(script: str) -> Language:
    """A language without lists: n-grams only. Cached: one object per script, since caches key on it."""
    spaceless = script in SPACELESS
    comma = script in ("LATIN", "CYRILLIC", "GREEK")  # most languages of these scripts write "3,5"
    return Language(script.lower(), f"{script.title()}-script", "bigram" if spaceless else "trigram",
                    0.5 if spaceless else 0.6, decimal_comma=comma, spaced=not spaceless,
                    ending=2 if spaceless else 3)


def named(code: str) -> Language:
    return _NAMED[code]
