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
    (20, "twenty zwanzig vingt vingts veinte venti vinte twintig tjugo tjue tyve dwadzieścia dwudziestu dvacet "
         "двадцать двадцати двадцять yirmi"),
    (30, "thirty dreißig dreissig trente treinta trenta trinta dertig trettio tretti tredive trzydzieści "
         "trzydziestu třicet тридцать тридцати тридцять otuz"),
    (40, "forty vierzig quarante cuarenta quaranta quarenta veertig fyrtio førti fyrre czterdzieści "
         "czterdziestu čtyřicet сорок сорока kırk"),
    (50, "fifty fünfzig cinquante cincuenta cinquanta cinquenta vijftig femtio femti halvtreds pięćdziesiąt "
         "pięćdziesięciu padesát пятьдесят пятидесяти п'ятдесят elli"),
    (60, "sixty sechzig soixante sesenta sessanta sessenta zestig sextio seksti sześćdziesiąt sześćdziesięciu "
         "šedesát шестьдесят шестидесяти шістдесят altmış"),
    (70, "seventy siebzig setenta settanta zeventig sjuttio sytti halvfjerds siedemdziesiąt siedemdziesięciu sedmdesát "
         "семьдесят семидесяти сімдесят yetmiş"),
    (80, "eighty achtzig quatre-vingt quatre-vingts ochenta ottanta oitenta tachtig åttio åtti firs osiemdziesiąt "
         "osiemdziesięciu osmdesát восемьдесят восьмидесяти вісімдесят seksen"),
    (90, "ninety neunzig noventa novanta negentig nittio nitti halvfems dziewięćdziesiąt dziewięćdziesięciu devadesát "
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
    (12, "dozen dutzend douzaine docena dozzina dúzia dussin"),
    (100, "hundred hundert honderd hundra hundre hundrede cento sata sataa ratus"),
    (1000, "thousand tausend mille mil duizend tusen tusind mila tysiąc tysiące tysięcy тысяча тысячи тысяч "
           "тисяча тисячі тисяч tuhat tuhatta ribu tisíc tisíce"),
)
"""Words that multiply the count before them, or one ("hundred", "two hundred", "dua puluh", "a
dozen", "two dozen")."""

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

_DANISH_ONES = {f"enog{tens}": value + 1 for tens, value in (("tyve", 20), ("tredive", 30), ("fyrre", 40),
                ("halvtreds", 50), ("halvfjerds", 70), ("firs", 80), ("halvfems", 90))}
"""Danish counts that end in one: "en" would join ("eenentwintig"), so they are read whole."""

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
    if word in _ADDED or word in _DANISH_ONES:
        return _Piece(_ADDED.get(word) or _DANISH_ONES[word], "add")
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


_PIECES = frozenset({*_ADDED, *_DANISH_ONES, *_TIMES, *_TEENS, *_AMBIGUOUS, *_IN_WORDS})
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


_HAN_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
               "八": 8, "九": 9}
_HAN_TIMES = {"十": 10, "百": 100, "千": 1000}
_HAN_RUN = regex.compile(r"[〇零一二两兩三四五六七八九十百千万萬]+")
_COUNTERS = frozenset("人个個名位年月日天周週回次時分秒歳岁件台本枚家号號度円元倍階层層番条條部冊册杯匹頭头张張间間")
"""What Chinese and Japanese write after a count: one numeral before one makes a count ("三人")."""


def _han_counts(text: str) -> list[Count]:
    """Counts in Chinese and Japanese numerals ("二十二人", "三百", "一九九七年"): a run of two or
    more that makes a number, or one numeral before a counter (`_COUNTERS`); "一般", "统一" none,
    nor "一人", "一个": one before a counter is "a", as "one" alone is (`_ONE`)."""
    found = []
    for run in _HAN_RUN.finditer(text):
        value = _han_value(run.group())
        counted = run.end() < len(text) and text[run.end()] in _COUNTERS and value != 1
        if value is not None and (len(run.group()) > 1 or counted):
            found.append(Count(run.start(), run.end(), value))
    return found


def _han_value(run: str) -> int | None:
    """A run's value: digit by digit where it writes no ten, hundred or thousand ("一九九七"), else
    by its tens, hundreds and thousands, in ten thousands ("三万五千")."""
    if all(c in _HAN_DIGITS for c in run):
        return int("".join(str(_HAN_DIGITS[c]) for c in run))
    total = 0
    for part_index, part in enumerate(regex.split("[万萬]", run)):
        if part_index > 1 or (not part and part_index == 0):
            return None
        value, digit = 0, None
        for c in part:
            if c in _HAN_DIGITS:
                if digit is not None and digit != 0:
                    return None
                digit = _HAN_DIGITS[c]
            else:
                value += (1 if digit is None else digit) * _HAN_TIMES[c]
                digit = None
        total = total * 10000 + value + (digit or 0)
    return total


def counts_in_words(text: str) -> list[Count]:
    """The counts `text` writes in words, each a run of a count's words joined by spaces, hyphens
    or `_JOINING` words, and in Chinese and Japanese numerals (`_han_counts`). A run of one "one"
    word, or only of `_AMBIGUOUS` ones, is none."""
    if _HAN_RUN.search(text):
        return sorted(_counts_spaced(text) + _han_counts(text))
    return _counts_spaced(text)


def _counts_spaced(text: str) -> list[Count]:
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


def _inflected(*rows: tuple[int, str, str]) -> dict[str, int]:
    """One row per value: stems, then the endings each takes ("" for none)."""
    return {stem + ending: value for value, stems, endings in rows
            for stem in stems.split() for ending in (endings.split() if endings else [""])}


_RU, _RU_O, _RU_SOFT = ("ый ая ое ые ого ой ому ом ым ую ых ыми", "ой ая ое ые ого ому ом ым ую ых ыми",
                        "ий ья ье ьи ьего ьей ьему ьем ьим ью ьих ьими")
_UK, _PL, _CS = "ий а е і ого ої ому ій им у их ими", "y a e ego ej emu ym ą ych ymi", "ý á é ého ém ému ou ých ým ými"
_DE = "e en er es em"

_ORDINALS = _words(
    (1, "first premier première premiers premières eerste första første primeiro primeira primer primero primera "
        "primeros primeras primo prima první pierwszy ensimmäinen pertama birinci"),
    (2, "second seconde deuxième tweede andra andre anden andet segundo segunda secondo seconda toinen kedua ikinci"),
    (3, "third troisième derde tredje tercer tercero tercera terzo terza terceiro terceira třetí kolmas ketiga üçüncü"),
    (4, "fourth quatrième vierde fjärde fjerde cuarto cuarta quarto quarta neljäs keempat dördüncü"),
    (5, "fifth cinquième vijfde femte quinto quinta viides kelima beşinci"),
    (6, "sixth sixième zesde sjätte sjette sexto sexta sesto sesta kuudes keenam altıncı"),
    (7, "seventh septième zevende sjunde sjuende syvende séptimo séptima settimo settima sétimo sétima seitsemäs "
        "ketujuh yedinci"),
    (8, "eighth huitième achtste åttonde åttende ottende octavo octava ottavo ottava oitavo oitava kahdeksas "
        "kedelapan sekizinci"),
    (9, "ninth neuvième negende nionde niende noveno novena nono nona yhdeksäs kesembilan dokuzuncu"),
    (10, "tenth dixième tiende tionde décimo décima decimo decima kymmenes kesepuluh onuncu"),
    (11, "eleventh onzième elfde"),
    (12, "twelfth douzième twaalfde"),
) | _inflected(
    (1, "erst", _DE), (2, "zweit", _DE), (3, "dritt", _DE), (4, "viert", _DE), (5, "fünft", _DE),
    (6, "sechst", _DE), (7, "siebt siebent", _DE), (8, "acht", _DE), (9, "neunt", _DE),
    (10, "zehnt", _DE), (11, "elft", _DE), (12, "zwölft", _DE),
    (1, "перв", _RU), (2, "втор", _RU_O), (3, "трет", _RU_SOFT), (4, "четвёрт четверт", _RU), (5, "пят", _RU),
    (6, "шест", _RU_O), (7, "седьм", _RU_O), (8, "восьм", _RU_O), (9, "девят", _RU), (10, "десят", _RU),
    (1, "перш", _UK), (2, "друг", _UK), (3, "трет", "ій я є і ього ьої ьому ім ю іх"), (4, "четверт", _UK),
    (5, "п'ят", _UK), (6, "шост", _UK), (7, "сьом", _UK), (8, "восьм", _UK), (9, "дев'ят", _UK), (10, "десят", _UK),
    (1, "pierwsz", _PL), (2, "drug", "i a ie iego iej iemu im ą ich imi"),
    (3, "trzec", "i ia ie iego iej iemu im ią ich imi"), (4, "czwart", _PL), (5, "piąt", _PL), (6, "szóst", _PL),
    (7, "siódm", _PL), (8, "ósm", _PL), (9, "dziewiąt", _PL), (10, "dziesiąt", _PL),
    (1, "prvn", "í ího ímu ím ími"), (2, "druh", _CS), (3, "třet", "í ího ímu ím ími"), (4, "čtvrt", _CS),
    (5, "pát", _CS), (6, "šest", _CS), (7, "sedm", _CS), (8, "osm", _CS), (9, "devát", _CS), (10, "desát", _CS),
    (1, "ensimmäise", "n ssä llä ksi"), (1, "ensimmäistä", ""), (2, "toise", "n ssa lla ksi"), (2, "toista", ""),
    (3, "kolmanne", "n ssa lla ksi"), (3, "kolmatta", ""), (4, "neljänne", "n ssä llä ksi"), (4, "neljättä", ""),
    (5, "viidenne", "n ssä llä ksi"), (5, "viidettä", ""),
)
"""Ordinals 1 to 12 in the languages of `_words` (to 10 in most), with the forms they take;
greater ones are read from a count's words (`_ordinal_of`)."""

ALSO_WORDS = frozenset(
    "first second seconde segundo segunda secondo seconda prima cuarto cuarta quarto quarta quinta sexta andra "
    "andre anden andet kedua toinen toisen toista toisessa toisella toiseksi achte achten".split()
    + [w for w in _ORDINALS if w.startswith(("drug", "druh", "друг"))])
"""Ordinals that are common words of their language too ("second" of time, "segundo" and "secondo"
for "according to", "prima" for "before", "cuarto" for a room, "andra", "toinen", "drugi" and
"друга" for "other", "kedua" for "both", "first" of "at first"): read as ordinals only where the
context writes another ordinal."""

_FRACTION_OR_UNIT = frozenset("a an one per un une uno una um uma ein eine einen einem einer eines een ett jeden "
                              "jedna jedno один одна одну одно bir yksi satu sebuah".split())
"""Words after which an ordinal's word is a fraction or a unit ("a third of", "a second",
"un cuarto de hora", "eine Achte"), or the ordinal says nothing of a rank ("a second try"): none."""

_FIXED = regex.compile(r"[-‐‑](?:party|parties|hand|rate|class|person|degree|guessing)\b", regex.IGNORECASE)
"""A word an ordinal joins into another word whose rank it no longer says: "third-party",
"second-hand", "first-class"."""

_TENS_BEFORE = regex.compile(r"(\p{L}+)[-‐‑]$")
_TH = regex.compile(r"(?:ie)?th$|s?te[nrsm]?$|ième$")
"""The ending that makes a count's word an ordinal: "thirteenth", "twentieth", "dreizehnte",
"zwanzigsten", "treizième", "twintigste"."""

_LIST_OPENER = regex.compile(r"[ \t\u00a0\u202f]*,")
_OPENS = regex.compile(r"[.!?:;\n•*。！？]")
"""An ordinal before a comma, first in its sentence or line, opens a list: "First, …", "Third, …"."""


class Ordinal(NamedTuple):
    """An ordinal written as a word: where, its value, and whether the word is also a common word
    of its language (`ALSO_WORDS`)."""

    start: int
    end: int
    value: int
    also_a_word: bool


def ordinals_in_words(text: str) -> list[Ordinal]:
    """The ordinals `text` writes as words ("third", "twenty-first", "dritten", "troisième",
    "третьего"), but a fraction, a unit or a fixed word (`_FRACTION_OR_UNIT`, `_FIXED`), and a
    list's opener ("First, …", "Third, …")."""
    found: list[Ordinal] = []
    words = list(_WORD.finditer(text))
    for n, match in enumerate(words):
        word = unicodedata.normalize("NFC", match.group().casefold()).replace("’", "'")
        value = _ORDINALS.get(word) or _ordinal_of(word)
        if value and not _no_rank(text, match, words[n - 1] if n else None):
            tens = _TENS_BEFORE.search(text, 0, match.start()) if value < 10 else None
            if tens and (ten := _tens(tens[1])):
                found.append(Ordinal(tens.start(), match.end(), ten + value, False))
            else:
                found.append(Ordinal(match.start(), match.end(), value, word in ALSO_WORDS))
    return found


def _no_rank(text: str, match: regex.Match[str], before: regex.Match[str] | None) -> bool:
    """An ordinal's word that says no rank: a fraction or a unit after an article or a number
    ("a third of", "a second", "30 second"), a fixed word ("third-party"), a list's opener."""
    if _FIXED.match(text, match.end()):
        return True
    if before and (before.group().casefold() in _FRACTION_OR_UNIT or _DIGIT.search(text, before.end(), match.start())):
        return True
    return bool(_LIST_OPENER.match(text, match.end()) and (not before or _OPENS.search(text, before.end(),
                                                                                       match.start())))


def _tens(word: str) -> int | None:
    """The tens a count's word makes alone ("twenty"), or None."""
    pieces = _pieces_of(word.casefold())
    return pieces[0].value if pieces and len(pieces) == 1 and pieces[0].value in range(20, 100, 10) else None


_DIGIT = regex.compile(r"\d")


def _ordinal_of(word: str) -> int | None:
    """The value of an ordinal made from a count's word ("thirteenth", "twentieth", "hundredth",
    "einundzwanzigste", "treizième"), from thirteen up."""
    ending = _TH.search(word)
    if not ending or ending.start() < 3:
        return None
    base = word[:ending.start()]
    for candidate in (base, base + "y", base + "e", base[:-1] + "f" if base.endswith("v") else base[:-1]):
        if (pieces := _pieces_of(candidate)) and (value := _value(list(pieces))) and value >= 13:
            return value
    return None


RANK_SUFFIX = regex.compile(r"(?:st|nd|rd|th|º|ª|ᵉ|e|er|re|ème|eme|-?[йяеий]|-го|\.(?=[ \u00a0]\p{L}))(?![\p{L}\p{N}])")
"""What makes digits an ordinal, written right after them: "3rd", "1º", "2e", "1er", "3-й",
German "3. Platz"."""
