import pytest

from pytest_llmfaith.text.number_words import counts_in_words


@pytest.mark.parametrize(("text", "found"), [
    # spaced, hyphened, joined by a word: en, fr, es, pt, it, ru, uk, pl, cs, tr, id
    ("Acme has twenty-five offices.", [("twenty-five", 25)]),
    ("one hundred and five guests", [("one hundred and five", 105)]),
    ("two hundred thousand users", [("two hundred thousand", 200000)]),
    ("a hundred rooms", [("hundred", 100)]),
    ("Il y a quatre-vingt-dix places.", [("quatre-vingt-dix", 90)]),
    ("soixante-dix-sept salariés", [("soixante-dix-sept", 77)]),
    ("deux mille vingt-six", [("deux mille vingt-six", 2026)]),
    ("trois cent vingt euros", [("trois cent vingt", 320)]),
    ("treinta y dos tiendas", [("treinta y dos", 32)]),
    ("tres mil quinientos", [("tres mil quinientos", 3500)]),
    ("ciento veinte plazas", [("ciento veinte", 120)]),
    ("vinte e dois dias", [("vinte e dois", 22)]),
    ("сто двадцать пять человек", [("сто двадцать пять", 125)]),
    ("двадцять п'ять днів", [("двадцять п'ять", 25)]),
    ("dwadzieścia pięć osób", [("dwadzieścia pięć", 25)]),
    ("dvacet dva lidí", [("dvacet dva", 22)]),
    ("yirmi iki kişi", [("yirmi iki", 22)]),
    ("Şirketin on iki çalışanı var.", [("on iki", 12)]),
    ("dua puluh lima orang", [("dua puluh lima", 25)]),
    ("dua belas toko", [("dua belas", 12)]),
    ("nineteen ninety-nine", [("nineteen ninety-nine", 1999)]),
    ("twenty twenty-four", [("twenty twenty-four", 2024)]),
    # one word of pieces: de, nl, sv, no, es, it, fi, cs
    ("zweiundzwanzig Büros", [("zweiundzwanzig", 22)]),
    ("Dreihundertfünfzig Gäste", [("Dreihundertfünfzig", 350)]),
    ("tweeëntwintig dagen", [("tweeëntwintig", 22)]),
    ("eenentwintig dagen", [("eenentwintig", 21)]),
    ("tjugotvå dagar", [("tjugotvå", 22)]),
    ("tjueto dager", [("tjueto", 22)]),
    ("veintidós días", [("veintidós", 22)]),
    ("veintiuna personas", [("veintiuna", 21)]),
    ("ventotto giorni", [("ventotto", 28)]),
    ("trentatré giorni", [("trentatré", 33)]),
    ("kaksikymmentäkaksi päivää", [("kaksikymmentäkaksi", 22)]),
    ("kolmetoista päivää", [("kolmetoista", 13)]),
    ("dvaadvacet dní", [("dvaadvacet", 22)]),
    # apart: a word between, a comma; a scale word is read later, with the number
    ("two or three days", [("two", 2), ("three", 3)]),
    ("Send it to two people.", [("two", 2)]),  # "to" is Norwegian 2, but "to two" no count
    ("on two occasions", [("on two", 12)]),  # Turkish "on iki" is 12: read that way, and asked
    ("ten to twelve hours", [("ten", 10), ("twelve", 12)]),
    ("two to four days", [("two", 2), ("four", 4)]),
    ("twenty twenty twenty", [("twenty twenty twenty", None)]),  # a run code cannot read: asked
    # no count: an article or "one" alone, a word of another language, an ordinal, pieces of a word
    ("One of them is Anna.", []),
    ("Ein Mann, un homme, una casa, een man, ett hus", []),
    ("Once upon a time, to be or not to be", []),
    ("the twenty-first century", []),
    ("Elfen, dueto, Achtung, tienda, Milano, settembre, Trentino, Tenet, treno, Konto, often, content", []),
])
def test_counts_written_in_words_and_their_values(text, found):
    assert [(text[c.start:c.end], c.value) for c in counts_in_words(text)] == found
