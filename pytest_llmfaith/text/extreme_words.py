"""Words that say a value is the least or the most of its kind ("the cheapest flight", "die
höchste Miete", "le moins cher", "en ucuz", "最便宜"), or less or more than another's ("cheaper
than", "teurer als", "plus tôt que", "より安い"). "The cheapest flight is SK4705 at 189 EUR" or
"SK4705 is cheaper than DY1872" beside records giving DY1872 142 EUR writes every name and value
where the context does, yet says what it does not. Which words order values, and of what set ("the
cheapest direct flight", "cheaper with bags"), is a fact of a language: code uses these only to ask
the judge (exact.py, `_beaten`, `_misordered`, `_opposed`), never to decide.
"""

from __future__ import annotations

from typing import NamedTuple

import regex

# English, German, French, Spanish, Italian, Portuguese, Dutch, Swedish, Danish and Norwegian,
# Polish, Czech, Russian, Ukrainian, Turkish, Finnish, Indonesian; then Japanese, Chinese, Korean
_CHEAPEST = (
    r"cheapest|least expensive|the (?:cheaper|less expensive)|(?:günstigst|billigst)(?:e[nrsm]?)?|"
    r"(?:le|la|les|l') ?moins ch[eè]re?s?|"
    r"más barat[oa]s?|più economic[oaie]|meno car[oaie]|mais barat[oa]s?|goedkoopste|billigaste|billigste|"
    r"najtańsz\p{L}*|nejlevnější\p{L}*|дешевле всех|дешевейш\p{L}*|самы\p{L}* дешё?е?в\p{L}*|найдешевш\p{L}*|"
    r"en ucuz|halvin|halvimm\p{L}*|termurah|paling murah",
    r"最安|一番安い|最も安い|最便宜|가장 (?:싼|저렴한)",
)
_DEAREST = (
    r"most expensive|priciest|the (?:more expensive|dearer|pricier)|teuerst(?:e[nrsm]?)?|"
    r"(?:le|la|les|l') ?plus ch[eè]re?s?|más car[oa]s?|"
    r"più car[oaie]|mais car[oa]s?|duurste|dyraste|dyreste|najdroższ\p{L}*|nejdražší\p{L}*|дороже всех|"
    r"самы\p{L}* дорог\p{L}*|найдорожч\p{L}*|en pahalı|kallein|kalleimm\p{L}*|termahal|paling mahal",
    r"一番高い|最も高い|最贵|가장 비싼",
)
_EARLIEST = (r"earliest|the earlier|früheste?[nrsm]?|(?:le|la|les|l') ?plus tôt|vroegste|tidigaste|tidligste",
             r"最も早い|最早")
_LATEST = (r"latest|the later|späteste?[nrsm]?|(?:le|la|les|l') ?plus tard|senaste|seneste", r"最も遅い|最晚")
_FIRST = (r"first|erste[nrsm]?|premi[eè]re?s?|primer[oa]?s?|prim[oi]|primeir[oa]s?|eerste|första|første|"
          r"pierwsz\p{L}*|перв\p{L}*|ilk|ensimmäi\p{L}*|pertama",
          r"始発|首班|첫")
_LAST = (r"last|letzte[nrsm]?|derni[eè]re?s?|[uú]ltim[oaie]s?|laatste|sista|sidste|siste|ostatni\p{L}*|"
         r"последн\p{L}*|viimei\p{L}*|terakhir",
         r"最終|終電|末班|마지막|막차")
_LEAST = (
    r"lowest|smallest|shortest|fewest|(?:niedrigst|kleinst|kürzest)(?:e[nrsm]?)?|"
    r"(?:le|la|les|l') ?plus (?:bas(?:se)?s?|petite?s?|courte?s?)|más (?:baj|cort)[oa]s?|"
    r"(?:el|la|los|las|o|a|os|as) menor(?:es)?|più (?:bass|cort)[oaie]|(?:il|la|i|le) minor[ei]|"
    r"mais (?:baix|curt)[oa]s?|laagste|kortste|lägsta|kortaste|minsta|laveste|korteste|minste|mindste|"
    r"najniższ\p{L}*|najkrótsz\p{L}*|najmniejsz\p{L}*|nejnižší\p{L}*|nejkratší\p{L}*|nejmenší\p{L}*|"
    r"самы\p{L}* (?:низк|коротк)\p{L}*|наименьш\p{L}*|найнижч\p{L}*|найкоротш\p{L}*|найменш\p{L}*|"
    r"en (?:düşük|kısa|küçük)|alhaisin|lyhyin|pienin|terendah|terpendek|terkecil|paling (?:rendah|pendek|kecil)",
    r"最低|最短|最小|최저|최단",
)
_MOST = (
    r"highest|largest|biggest|longest|(?:höchst|größt|grösst|längst)(?:e[nrsm]?)?|"
    r"(?:le|la|les|l') ?plus (?:haute?s?|élevée?s?|grande?s?|longue?s?)|más (?:alt|larg)[oa]s?|"
    r"(?:el|la|los|las) mayor(?:es)?|più (?:alt|lung)[oaie]|(?:il|la|i|le) maggior[ei]|mais (?:alt|long)[oa]s?|"
    r"(?:o|a|os|as) maior(?:es)?|hoogste|langste|grootste|högsta|längsta|största|høyeste|højeste|lengste|"
    r"længste|største|najwyższ\p{L}*|najdłuższ\p{L}*|największ\p{L}*|nejvyšší\p{L}*|nejdelší\p{L}*|"
    r"největší\p{L}*|самы\p{L}* (?:высок|длинн)\p{L}*|наибольш\p{L}*|найвищ\p{L}*|найдовш\p{L}*|найбільш\p{L}*|"
    r"en (?:yüksek|uzun|büyük)|korkein|pisin|suurin|tertinggi|terpanjang|terbesar|paling (?:tinggi|panjang|besar)",
    r"最高|最長|最大|最长|최고|최장|최대",
)


def _pattern(*words: tuple[str, str]) -> regex.Pattern[str]:
    """Spaced words whole; the words of scripts without spaces wherever they stand ("是最便宜的")."""
    spaced, spaceless = "|".join(w for w, _ in words), "|".join(w for _, w in words)
    return regex.compile(rf"(?<![\p{{L}}\p{{M}}])(?:{spaced})(?![\p{{L}}\p{{M}}])|{spaceless}", regex.IGNORECASE)


_EXTREMES = {
    "price": {"least": _pattern(_CHEAPEST), "most": _pattern(_DEAREST)},
    "named": {"least": _pattern(_LEAST), "most": _pattern(_MOST)},
    "time": {"least": _pattern(_EARLIEST), "most": _pattern(_LATEST)},
}
"""Per kind of value, the words of each way: a price is no time ("the cheapest flight DY1872
departs at 13:45"), nor is a length ("the shortest flight leaves at 13:45"), and a time is no
price ("the earliest flight costs 189 EUR"); "named" says which value only with the word that
names it ("the highest price", "the lowest rating")."""
_MINIMUM = (r"minimum|минимум|minimal\p{L}*|mindest(?!ens(?![\p{L}\p{M}]))\p{L}*|minimaal|mínim[oa]s?|minim[oa]|"
            r"minimi\p{L}*|минимальн\p{L}*",
            r"最少|최소")
_MAXIMUM = (r"maximum|максимум|maximal\p{L}*|höchstzulässig\p{L}*|maximaal|máxim[oa]s?|massim[oa]|maksim\p{L}*|"
            r"maksym\p{L}*|максимальн\p{L}*",
            r"最多|최다")
_COLDEST = (r"coldest|kälteste[nrsm]?|(?:le|la|les|l') ?plus froide?s?|más frí[oa]s?|più fredd[oaie]|kallaste|"
            r"kaldeste|koudste|najzimniejsz\p{L}*|самы\p{L}* холодн\p{L}*", r"最も寒い|最冷|가장 추운")
_WARMEST = (r"warmest|hottest|wärmste[nrsm]?|heißeste[nrsm]?|(?:le|la|les|l') ?plus chaude?s?|más caluros[oa]s?|"
            r"più cald[oaie]|varmaste|varmeste|warmste|najcieplejsz\p{L}*|самы\p{L}* (?:тёпл|тепл|жарк)\p{L}*",
            r"最も暑い|最热|가장 더운")
_UNDER = (r"under|below|less than|fewer than|at most|up to|no more than|not more than|until|unter(?:halb)?|weniger als|"
          r"höchstens|bis zu|bis|jusqu'en|jusqu'au|"
          r"moins de|au plus|jusqu'à|en dessous de|menos de|por debajo de|como máximo|meno di|sotto|fino a|"
          r"al massimo|abaixo de|no máximo|onder|minder dan|hoogstens|högst|upp till|mindre än|høyst|inntil|"
          r"mindre enn|poniżej|mniej niż|najwyżej|меньше|менее|не более|не больше|ниже|hasta|até|en fazla",
          r"以下|未満|以内|不到|少于|低于|이하|미만")
_OVER = (r"over|above|more than|at least|no less than|not less than|no fewer than|not fewer than|since|über|oberhalb|"
         r"mehr als|mindestens|seit|plus de|au moins|depuis|desde|sinds|"
         r"au-dessus de|más de|por encima de|al menos|como mínimo|più di|sopra|oltre|almeno|mais de|acima de|"
         r"pelo menos|meer dan|boven|minstens|ten minste|över|mer än|minst|mer enn|powyżej|ponad|więcej niż|"
         r"co najmniej|больше|более|свыше|не менее|не меньше|выше|en az",
         r"以上|超过|多于|高于|至少|이상|초과")
_CHANGED = (r"(?:rose|rise[sn]?|increased?|increases|grew|grows?|grown|fell|falls?|fallen|dropped|drops?|decreased?|"
            r"decreases|declined?|declines|climbed|jumped|surged|plunged|cut|raised|lowered|reduced|stieg|steigt|"
            r"gestiegen|sank|sinkt|gesunken|fiel|fällt|gefallen|wuchs|wächst|gewachsen|augmenté|augmente|baissé|baisse|"
            r"diminué|diminue|progressé|progresse|reculé|recule|subió|subieron|sube|suben|bajó|bajaron|baja|bajan|"
            r"aumentó|aumentaron|cayó|cayeron|creció|crecieron)\s+")
_BY = (rf"(?<={_CHANGED})(?:by|um|de|un|en)", r"(?!)")
_TO = (rf"(?<={_CHANGED})(?:to|auf|à|al|a|hasta)", r"(?!)")
"""After a word of change, how far it went and where it ended: "rose by 5%" is no "rose to 5%"."""
_OPPOSITES = {
    "bound": {"least": _pattern(_UNDER, _MAXIMUM), "most": _pattern(_OVER, _MINIMUM)},
    "change": {"least": _pattern(_BY), "most": _pattern(_TO)},
    "ends": {"least": _pattern(_FIRST), "most": _pattern(_LAST)},
    "heat": {"least": _pattern(_COLDEST), "most": _pattern(_WARMEST)},
}
"""A bound's word (the most allowed bounds as "at most" does: "maximal 4 Gäste" is "höchstens 4
Gäste"; "until 2019" bounds a time as "since 2019" does the other way), a change's size and its
end ("rose by 5%", "rose to 5%"), the first and the last, the coldest and the warmest: no order
of values code reads ("over 3 days", "the first time", "last year"), but the one beside a value
where the context writes the other way's says something else ("orders under 50 EUR" beside
"orders over 50 EUR", "The last train leaves at 05:50" beside "The first train leaves at 05:50",
"The maximum order is 20 EUR" beside "The minimum order is 20 EUR")."""
_RANKED = regex.compile(r"(?:second|third|zweit|dritt|deuxième|troisième|segund|tercer|terz)\p{L}*[\s-]*$",
                        regex.IGNORECASE)
"""An ordinal before the word: "the second cheapest" is no extreme."""


THAN = regex.compile(r"\s*,?\s*(?:than|als|que|qu'|dan|än|enn|end|niż|než|чем|ніж|kuin|daripada|di|do que)"
                     r"(?![\p{L}\p{M}])(?!\s*(?:all|alle[mns]?|tous|toutes|tod[oa]s|tutt[ie]|всех)(?![\p{L}\p{M}]))",
                     regex.IGNORECASE)
"""What a comparison's words are followed by: "más barato que" compares, "el más barato" is an
extreme, and so is "il più economico di tutti" (than all)."""


def _not_compared(pattern: regex.Pattern[str], text: str) -> list[regex.Match[str]]:
    return [match for match in pattern.finditer(text) if not THAN.match(text, match.end())]


def extreme(text: str, of_times: bool = False) -> str | None:
    """"least" or "most", where `text` says one way of an extreme of its amounts (or, `of_times`,
    of its times of day) and not the other; else None."""
    found = {way for way, _ in _extremes(text, ("time",) if of_times else ("price", "named"))}
    return found.pop() if len(found) == 1 else None


def extreme_kind(text: str) -> tuple[str, str] | None:
    """(way, kind of `_EXTREMES`) where `text` says one extreme, of one kind, one way; else None."""
    found = _extremes(text, tuple(_EXTREMES))
    return found.pop() if len(found) == 1 else None


def _extremes(text: str, kinds: tuple[str, ...]) -> set[tuple[str, str]]:
    return {(way, kind) for way, kind, _ in extremes_at(text, kinds)}


def extremes_at(text: str, kinds: tuple[str, ...] = (*_EXTREMES, *_OPPOSITES)
                ) -> list[tuple[str, str, regex.Match[str]]]:
    """(way, kind, where) of the extremes' words of `text` (`_EXTREMES`, `_OPPOSITES`) that no
    ordinal ranks ("the second cheapest") and no comparison's "than" follows ("más barato que"),
    in the text's order."""
    found = [(way, kind, match) for kind in kinds for way, pattern in {**_EXTREMES, **_OPPOSITES}[kind].items()
             for match in _not_compared(pattern, text) if not _RANKED.search(text, 0, match.start())]
    return sorted((one for one in found if not any(  # the words of a longer one: "менее" of "не менее"
        other[2].start() <= one[2].start() and one[2].end() <= other[2].end() and other[2].span() != one[2].span()
        for other in found)), key=lambda one: one[2].start())


_CHEAPER = (
    r"cheaper|less expensive|lower-priced|costs? less|kostet weniger|kost(?:ar|er) mindre|coûte moins|"
    r"cuesta menos|costa meno|custa menos|kost minder|(?:günstiger|billiger)(?:e[nrsm]?)?|moins ch[eè]re?s?|"
    r"más barat[oa]s?|"
    r"più economic[oaie]|meno car[oaie]|mais barat[oa]s?|goedkoper|billigare|billigere|tańsz\p{L}*|"
    r"levnější\p{L}*|дешевле|дешевше|daha ucuz|halvempi|halvemm\p{L}*|lebih murah",
    r"より安[いく]|比.{1,12}?便宜|보다 (?:싸|저렴)",
)
_DEARER = (
    r"more expensive|dearer|pricier|costlier|costs? more|kostet mehr|kostar mer|koster mere?|coûte plus|"
    r"cuesta más|costa di più|custa mais|kost meer|teurer(?:e[nrsm]?)?|plus ch[eè]re?s?|más car[oa]s?|più car[oaie]|"
    r"mais car[oa]s?|duurder|dyrare|dyrere|droższ\p{L}*|dražší\p{L}*|дороже|дорожч\p{L}*|daha pahalı|"
    r"kalliimpi|kalliimm\p{L}*|lebih mahal",
    r"より高[いく]|比.{1,12}?贵|보다 비싸",
)
_SOONER = (
    r"earlier|sooner|before|ahead of|früher|plus tôt|avant|más temprano|antes d\p{L}*|prima d\p{L}*|eerder|"
    r"tidigare|före|tidligere|før|wcześniej|dříve|раньше|daha erken|aiemmin|lebih awal",
    r"より早[いく]|比.{1,12}?早",
)
_LATER = (
    r"later|after|später|plus tard|après|más tarde|después d\p{L}*|dopo|depois d\p{L}*|senare|efter|senere|etter|"
    r"później|později|позже|позднее|daha geç|myöhemmin|lebih lambat",
    r"より遅[いく]|比.{1,12}?晚",
)
_FEWER = (
    r"fewer|less|lower|smaller|shorter|weniger|niedriger|kleiner|kürzer|moins de|plus (?:bas|petit|court)e?s?|"
    r"menos|minder|lager|korter|färre|lägre|mindre|kortare|færre|lavere|kortere|mniej|niższ\p{L}*|"
    r"krótsz\p{L}*|меньше|ниже|короче|daha (?:az|düşük|kısa)|vähemmän|pienempi|lyhyempi|"
    r"lebih (?:sedikit|rendah|kecil|pendek)",
    r"より(?:少な|低|短)い|보다 (?:적|낮|짧)",
)
_MORE = (
    r"more|higher|larger|bigger|longer|mehr|höher|größer|grösser|länger|plus de|más|meer|hoger|groter|langer|"
    r"fler|högre|större|längre|flere|højere|høyere|større|længere|lengre|więcej|wyższ\p{L}*|dłuższ\p{L}*|"
    r"больше|выше|длиннее|daha (?:fazla|yüksek|uzun)|enemmän|korkeampi|suurempi|pidempi|"
    r"lebih (?:banyak|tinggi|besar|panjang)",
    r"より(?:多|高|長)い|보다 (?:많|높|길)",
)
_ORDERS = {
    "price": {"least": _pattern(_CHEAPER), "most": _pattern(_DEARER)},
    "time": {"least": _pattern(_SOONER), "most": _pattern(_LATER)},
    "named": {"least": _pattern(_FEWER), "most": _pattern(_MORE)},
}
"""Per kind of value a comparison orders, the words of each way. "price" orders an amount of money,
"time" a time of day, "named" a value the words name ("more stops than", "a longer flight"): only
those words say which."""


_THAN_BEFORE = regex.compile(r"daha\b|[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]", regex.IGNORECASE)


class Comparison(NamedTuple):
    """A comparison's words in a text: which way, of which kind of value, where."""

    way: str  # "least" (cheaper, earlier, fewer) or "most"
    kind: str  # a key of `_ORDERS`
    start: int
    end: int
    than_before: bool  # what the thing is compared with stands before these words, not after ("AはBより安い",
    # "A, B'den daha ucuz"), or within them ("A比B便宜")


def comparisons(text: str) -> list[Comparison]:
    """The comparisons of `text` that no extreme's words hold ("moins cher" of "le moins cher")
    and no longer comparison does ("more" of "more expensive")."""
    extremes = [m.span() for ways in _EXTREMES.values() for pattern in ways.values()
                for m in _not_compared(pattern, text)]
    found = [Comparison(way, kind, *m.span(), bool(_THAN_BEFORE.match(m.group()))) for kind, ways in _ORDERS.items()
             for way, pattern in ways.items() for m in pattern.finditer(text)]
    return [c for c in found if not any(a <= c.start and c.end <= b for a, b in extremes) and not any(
        o is not c and o.start <= c.start and c.end <= o.end and (o.end - o.start) > (c.end - c.start) for o in found)]
