"""Words that say a value is the least or the most of its kind: "the cheapest flight", "die
höchste Miete", "le moins cher", "en ucuz", "最便宜". "The cheapest flight is SK4705 at 189 EUR"
beside records giving another flight 142 EUR writes every value where the context does, yet says
what it does not. Which words say an extreme, and of what set ("the cheapest direct flight"), is a
fact of a language: code uses these only to ask the judge (exact.py, `_beaten`), never to decide.
"""

from __future__ import annotations

import regex

# English, German, French, Spanish, Italian, Portuguese, Dutch, Swedish, Danish and Norwegian,
# Polish, Czech, Russian, Ukrainian, Turkish, Finnish, Indonesian; then Japanese, Chinese, Korean
_CHEAPEST = (
    r"cheapest|least expensive|(?:günstigst|billigst)(?:e[nrsm]?)?|(?:le|la|les|l') ?moins ch[eè]re?s?|"
    r"más barat[oa]s?|più economic[oaie]|meno car[oaie]|mais barat[oa]s?|goedkoopste|billigaste|billigste|"
    r"najtańsz\p{L}*|nejlevnější\p{L}*|дешевле всех|дешевейш\p{L}*|самы\p{L}* дешё?е?в\p{L}*|найдешевш\p{L}*|"
    r"en ucuz|halvin|halvimm\p{L}*|termurah|paling murah",
    r"最安|一番安い|最も安い|最便宜|가장 (?:싼|저렴한)",
)
_DEAREST = (
    r"most expensive|priciest|teuerst(?:e[nrsm]?)?|(?:le|la|les|l') ?plus ch[eè]re?s?|más car[oa]s?|"
    r"più car[oaie]|mais car[oa]s?|duurste|dyraste|dyreste|najdroższ\p{L}*|nejdražší\p{L}*|дороже всех|"
    r"самы\p{L}* дорог\p{L}*|найдорожч\p{L}*|en pahalı|kallein|kalleimm\p{L}*|termahal|paling mahal",
    r"一番高い|最も高い|最贵|가장 비싼",
)
_EARLIEST = (r"earliest|früheste?[nrsm]?|(?:le|la|les|l') ?plus tôt|vroegste|tidigaste|tidligste", r"最も早い|最早")
_LATEST = (r"latest|späteste?[nrsm]?|(?:le|la|les|l') ?plus tard|senaste|seneste", r"最も遅い|最晚")
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


_WAYS = {
    False: {"least": _pattern(_CHEAPEST, _LEAST), "most": _pattern(_DEAREST, _MOST)},
    True: {"least": _pattern(_EARLIEST), "most": _pattern(_LATEST)},
}
"""Per kind of value (a time of day or not), the words of each way: a price is no time ("the
cheapest flight DY1872 departs at 13:45"), nor is a length ("the shortest flight leaves at
13:45"), and a time is no price ("the earliest flight costs 189 EUR")."""
_RANKED = regex.compile(r"(?:second|third|zweit|dritt|deuxième|troisième|segund|tercer|terz)\p{L}*[\s-]*$",
                        regex.IGNORECASE)
"""An ordinal before the word: "the second cheapest" is no extreme."""


def extreme(text: str, of_times: bool = False) -> str | None:
    """"least" or "most", where `text` says one way of an extreme of its amounts (or, `of_times`,
    of its times of day) and not the other; else None."""
    found = {way for way, pattern in _WAYS[of_times].items()
             if any(not _RANKED.search(text, 0, match.start()) for match in pattern.finditer(text))}
    return found.pop() if len(found) == 1 else None
