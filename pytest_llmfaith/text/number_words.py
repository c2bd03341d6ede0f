"""Counts written as words ("four offices", "twenty-five offices", "zweiundzwanzig Büros", "treinta
y dos tiendas", "двадцать пять человек") and their values. Which words are numbers is a fact of a
language: code uses their values only to find the count the context writes in another form (22
beside "twenty-two": not asked) and to ask about every other count, never to decide one. A count
the context writes in no form, neither in digits nor in words of any language here, is asked about
whatever its case ("Acme has twenty-five offices" beside "22 offices"), as a day of the week is.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import NamedTuple

import regex


def _words(*rows: tuple[int, str]) -> dict[str, int]:
    """One row per value: its words in English, German, French, Spanish, Italian, Portuguese,
    Dutch, Swedish, Norwegian and Danish, Polish, Czech, Russian, Ukrainian, Turkish, Finnish and
    Indonesian, with the cases a count often takes (Russian "трёх", Polish "pięciu")."""
    return {word: value for value, row in rows for word in row.split()}


_ADDED = _words(
    (2, "two twice zwei deux dos dois duas twee två dwa dwie dwóch dva dvě dvou два две двух дві двох iki kaksi kahden "
        "dua"),
    (3, "three thrice drei trois tres tre três drie trzy trzech tři tří три трёх трех трьох üç kolme kolmen tiga"),
    (4, "four vier quatre cuatro quattro quatro fyra cztery czterech čtyři čtyř четыре четырёх четырех чотири "
        "чотирьох dört neljä neljän empat"),
    (5, "five fünf cinq cinco cinque vijf fem pięć pięciu pět pěti пять пяти п'ять п'яти beş viisi viiden lima"),
    (6, "six sechs seis zes seks sześć sześciu šest šesti шесть шести шість altı kuusi kuuden enam"),
    (7, "seven sieben sept siete sette sete zeven sju syv siedem siedmiu sedm sedmi семь семи сім seitsemän tujuh"),
    (8, "eight acht huit ocho otto oito åtta åtte otte osiem ośmiu osm osmi восемь восьми вісім sekiz kahdeksan "
        "delapan"),
    (9, "nine neun nueve nove negen nio dziewięć dziewięciu devět devíti девять девяти дев'ять dokuz yhdeksän "
        "sembilan"),
    (10, "ten zehn dix diez dieci dez tien tio dziesięć dziesięciu deset deseti десять десяти kymmenen sepuluh"),
    (11, "eleven onze undici elva elleve jedenaście jedenastu jedenáct одиннадцать одиннадцати одинадцять sebelas"),
    (12, "twelve zwölf douze doce dodici doze twaalf tolv dwanaście dwunastu dvanáct двенадцать двенадцати "
         "дванадцять"),
    (13, "thirteen dreizehn treize trece tredici treze dertien tretton tretten trzynaście trzynastu třináct "
         "тринадцать тринадцати тринадцять"),
    (14, "fourteen vierzehn quatorze catorce quattordici catorze veertien fjorton fjorten czternaście czternastu "
         "čtrnáct четырнадцать четырнадцати чотирнадцять"),
    (15, "fifteen fünfzehn quinze quince quindici vijftien femton femten piętnaście piętnastu patnáct пятнадцать "
         "пятнадцати п'ятнадцять"),
    (16, "sixteen sechzehn seize dieciséis sedici dezesseis dezasseis zestien sexton seksten szesnaście szesnastu "
         "šestnáct шестнадцать шестнадцати шістнадцять"),
    (17, "seventeen siebzehn diecisiete diciassette dezessete dezassete zeventien sjutton sytten siedemnaście "
         "siedemnastu sedmnáct семнадцать семнадцати сімнадцять"),
    (18, "eighteen achtzehn dieciocho diciotto dezoito achttien arton atten osiemnaście osiemnastu osmnáct "
         "восемнадцать восемнадцати вісімнадцять"),
    (19, "nineteen neunzehn diecinueve diciannove dezenove dezanove negentien nitton nitten dziewiętnaście "
         "dziewiętnastu devatenáct девятнадцать девятнадцати дев'ятнадцять"),
    (20, "twenty zwanzig vingt vingts veinte venti vinte twintig tjugo tjue dwadzieścia dwudziestu dvacet двадцать "
         "двадцати двадцять yirmi"),
    (30, "thirty dreißig dreissig trente treinta trenta trinta dertig trettio tretti trzydzieści trzydziestu třicet "
         "тридцать тридцати тридцять otuz"),
    (40, "forty vierzig quarante cuarenta quaranta quarenta veertig fyrtio førti czterdzieści czterdziestu čtyřicet "
         "сорок сорока kırk"),
    (50, "fifty fünfzig cinquante cincuenta cinquanta cinquenta vijftig femtio femti pięćdziesiąt pięćdziesięciu "
         "padesát пятьдесят пятидесяти п'ятдесят elli"),
    (60, "sixty sechzig soixante sesenta sessanta sessenta zestig sextio seksti sześćdziesiąt sześćdziesięciu "
         "šedesát шестьдесят шестидесяти шістдесят altmış"),
    (70, "seventy siebzig setenta settanta zeventig sjuttio sytti siedemdziesiąt siedemdziesięciu sedmdesát "
         "семьдесят семидесяти сімдесят yetmiş"),
    (80, "eighty achtzig quatre-vingt quatre-vingts ochenta ottanta oitenta tachtig åttio åtti osiemdziesiąt "
         "osiemdziesięciu osmdesát восемьдесят восьмидесяти вісімдесят seksen"),
    (90, "ninety neunzig noventa novanta negentig nittio nitti dziewięćdziesiąt dziewięćdziesięciu devadesát "
         "девяносто девяноста дев'яносто doksan"),
    (100, "cien ciento cem сто seratus"),
    (200, "doscientos doscientas duzentos duzentas двести двухсот двісті dwieście"),
    (300, "trescientos trescientas trezentos trezentas триста трёхсот трехсот trzysta"),
    (400, "cuatrocientos cuatrocientas quatrocentos quatrocentas четыреста четырёхсот четырехсот чотириста czterysta"),
    (500, "quinientos quinientas quinhentos quinhentas пятьсот пятисот п'ятсот pięćset"),
    (600, "seiscientos seiscientas seiscentos seiscentas шестьсот шестисот шістсот sześćset"),
    (700, "setecientos setecientas setecentos setecentas семьсот семисот сімсот siedemset"),
    (800, "ochocientos ochocientas oitocentos oitocentas восемьсот восьмисот вісімсот osiemset"),
    (900, "novecientos novecientas novecentos novecentas девятьсот девятисот дев'ятсот dziewięćset"),
    (1000, "seribu"),
)
"""Words whose value is added: a count alone ("five"), and after a greater one ("twenty" "five")."""

_TIMES = _words(
    (10, "kymmentä puluh"),
    (100, "hundred hundert honderd hundra hundre cento sata sataa ratus"),
    (1000, "thousand tausend mille mil duizend tusen tusind mila tysiąc tysiące tysięcy тысяча тысячи тысяч "
           "тисяча тисячі тисяч tuhat tuhatta ribu tisíc tisíce"),
)
"""Words that multiply the count before them, or one ("hundred", "two hundred", "dua puluh")."""

_TEENS = _words((10, "toista belas"))
"""Words that add ten to the one count before them: "kolmetoista", "tiga belas"."""

_AMBIGUOUS = _words(
    (2, "to due"), (4, "fire"), (6, "sei sex"), (7, "yedi"), (9, "ni neuf"), (10, "on ti"), (11, "elf once"),
    (100, "cent cents sto yüz"), (1000, "bin"),
)
"""Counts that are also common words of another language here ("to", "due", "on", "bin", "cent"):
a count only beside another count's word, read with it where the two make one ("on iki" is 12, and
so is "on two": asked beside "two"), else apart ("to two" is 2)."""

_ONE = frozenset("one eins ein un une uno una um uma een één ett en jeden jedna jedno один одна одно bir yksi "
                 "satu".split())
"""One: a count only inside a greater one ("twenty-one", "one hundred"); alone it is an article."""

_IN_WORDS = _words(
    (1, "ein een één ett uno una un ún yksi"), (2, "dós to"), (3, "trés tré"), (6, "séis"),
    (20, "veinti vent"), (30, "trent"), (40, "quarant"), (50, "cinquant"), (60, "sessant"), (70, "settant"),
    (80, "ottant"), (90, "novant"),
)
"""Pieces of a count written as one word ("veintidós", "ventotto", "tjueto"), found only there."""

PAIR_WORDS = frozenset("both beide beiden beider ambos ambas entrambi entrambe ambedue allebei båda begge "
                       "oba obie obaj obě оба обе обоих обеих обидва обидві molemmat".split())
"""Words that say two without a count's word ("ambos planes", "both plans"). "The two" of an answer
is what one of them says ("cualquiera de los dos" beside "ambos planes"); "two euros" is no such."""

THE = frozenset("the los las les die den der i gli le os as de het".split())
"""Articles before a count that make it "the two" (`PAIR_WORDS`)."""

_JOINING_IN_WORDS = frozenset("und en ën og a".split())
"""What joins a count's pieces in one word ("zweiundzwanzig", "tweeëntwintig", "dvaadvacet")."""

_JOINING = frozenset("and und y e et og och i".split())
"""Words that join two counts' words ("one hundred and five", "treinta y dos", "vinte e dois")."""


class _Piece(NamedTuple):
    value: int
    how: str  # "add", "times", "teen", "join"


def _piece(word: str, in_a_word: bool) -> _Piece | None:
    if in_a_word and word in _JOINING_IN_WORDS:
        return _Piece(0, "join")
    if word in _ADDED:
        return _Piece(_ADDED[word], "add")
    if word in _TIMES:
        return _Piece(_TIMES[word], "times")
    if word in _TEENS:
        return _Piece(10, "teen")
    if word in _AMBIGUOUS:
        return _Piece(_AMBIGUOUS[word], "times" if _AMBIGUOUS[word] >= 100 else "add")
    if in_a_word:
        return _Piece(_IN_WORDS[word], "add") if word in _IN_WORDS else None
    if word in _ONE:
        return _Piece(1, "add")
    return _Piece(0, "join") if word in _JOINING else None


_PIECES = frozenset({*_ADDED, *_TIMES, *_TEENS, *_AMBIGUOUS, *_IN_WORDS})
_OPENINGS = frozenset(piece[:2] for piece in _PIECES)
_ENDINGS = frozenset(piece[-2:] for piece in _PIECES)
"""How a word of a count's pieces opens and ends: the quick test before `_pieces_of` cuts one,
which most words fail."""


@lru_cache(maxsize=4096)
def _pieces_of(word: str) -> tuple[_Piece, ...] | None:
    """The pieces of one word: itself, or the shortest cut into the pieces a count's word is made
    of ("zweiundzwanzig": zwei, und, zwanzig) that makes a count."""
    if (whole := _piece(word, False)) is not None:
        return (whole,)
    if word[:2] not in _OPENINGS or word[-2:] not in _ENDINGS:
        return None
    best: list[tuple[_Piece, ...] | None] = [()] + [None] * len(word)
    for end in range(1, len(word) + 1):
        for start in range(max(0, end - 16), end):
            if (before := best[start]) is not None and (found := _piece(word[start:end], True)) is not None:
                cut = (*before, found)
                if (known := best[end]) is None or len(cut) < len(known):
                    best[end] = cut
    pieces = best[-1]
    return pieces if pieces and len(pieces) > 1 and "join" not in (pieces[0].how, pieces[-1].how) and \
        _value(list(pieces), years=False) else None


def _value(pieces: list[_Piece], years: bool = True) -> int | None:
    """The count the pieces make, or None where they make none ("two three", "and five"); with
    `years`, a count of two digits, then another, make a year ("nineteen ninety-nine")."""
    total, hundreds, last, joined = 0, 0, 0, False
    for n, piece in enumerate(pieces):
        if piece.how == "join":
            if joined:
                return None
            joined = True
            continue
        if piece.how == "times" and piece.value >= 1000:
            total += (hundreds + last or 1) * piece.value
            hundreds = last = 0
        elif piece.how == "times":
            hundreds += (last or 1) * piece.value
            last = 0
        elif piece.how == "teen":
            if not 0 < last < 10:
                return None
            last += 10
        elif last == 0:
            last = piece.value
        elif _follows(last, piece.value) or (joined and last < 10 and piece.value in range(20, 100, 10)):
            last += piece.value
        elif years and n == 1 and 10 <= last < 100 and piece.value < 100:
            hundreds, last = last * 100, piece.value
        else:
            return None
        joined = False
    return total + hundreds + last


def _follows(greater: int, value: int) -> bool:
    """Whether `value` may follow `greater` in one count: "twenty" "two", "ciento" "veinte",
    "soixante" "quinze", "quatre-vingt" "dix"."""
    if value >= greater:
        return False
    if greater in (60, 80) and 10 <= value < 20:
        return True
    return greater % int(10 ** len(str(value))) == 0


class Count(NamedTuple):
    """A count written in words: where, and its value (None where its words make no count code
    reads: "ten to twelve")."""

    start: int
    end: int
    value: int | None


_WORD = regex.compile(r"quatre-vingts?|[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*", regex.IGNORECASE)
_BETWEEN = regex.compile(r"[ \t\u00a0\u202f]*[-‐‑]?[ \t\u00a0\u202f]*")
_ORDINAL = regex.compile(r"(?i)[-‐‑](?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)(?!\p{L})")
"""After a count's words, a count no longer: "twenty-first"."""


def counts_in_words(text: str) -> list[Count]:
    """The counts `text` writes in words, each a run of a count's words joined by spaces, hyphens
    or `_JOINING` words. A run of one "one" word, or only of `_AMBIGUOUS` ones, is none."""
    found: list[Count] = []
    run: list[tuple[int, int, tuple[_Piece, ...], str]] = []
    for match in _WORD.finditer(text):
        word = match.group().casefold()
        if not word.isascii():
            word = unicodedata.normalize("NFC", word).replace("’", "'")
        pieces = _pieces_of(word)
        if run and (pieces is None or not _BETWEEN.fullmatch(text, run[-1][1], match.start())):
            found += _closed(run, text)
            run = []
        if pieces is not None:
            run.append((match.start(), match.end(), pieces, word))
    return found + _closed(run, text)


def _closed(run: list[tuple[int, int, tuple[_Piece, ...], str]], text: str) -> list[Count]:
    """The count a finished run makes, without joining words at its ends; where its words make
    none, the counts they make either side of its `_AMBIGUOUS` or "one" words ("two to four": 2
    and 4; "en deux": 2). A run of those words only is none."""
    words = [word for *_, word in run]
    unsure = _AMBIGUOUS.keys() | _ONE | _JOINING
    first = next((i for i, word in enumerate(words) if word not in _JOINING), len(words))
    last = next((i for i in range(len(words), 0, -1) if words[i - 1] not in _JOINING), 0)
    if first >= last or _ORDINAL.match(text, run[last - 1][1]) or all(word in unsure for word in words):
        return []
    value = _value([piece for *_, pieces, _ in run[first:last] for piece in pieces])
    if value is not None or not any(word in unsure for word in words[first:last]):
        return [Count(run[first][0], run[last - 1][1], value)]
    apart: list[Count] = []
    part: list[tuple[int, int, tuple[_Piece, ...], str]] = []
    for item in [*run[first:last], None]:
        if item is None or item[3] in unsure:
            apart += _closed(part, text) if part else []
            part = []
        else:
            part.append(item)
    return apart
