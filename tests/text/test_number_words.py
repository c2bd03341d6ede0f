import pytest

from pytest_llmfaith.text.number_words import counts_in_words, ordinals_in_words


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
    # Danish tens, units first: "toogtyve" (2 and 20), "femoghalvtreds" (5 and 50)
    ("toogtyve dage", [("toogtyve", 22)]),
    ("femoghalvtreds kroner", [("femoghalvtreds", 55)]),
    ("to hundrede og enogtyve", [("to hundrede og enogtyve", 221)]),
    ("halvfems, firs, fyrre", [("halvfems", 90), ("firs", 80), ("fyrre", 40)]),
    # a dozen, and dozens of them
    ("a dozen eggs, two dozen rolls", [("dozen", 12), ("two dozen", 24)]),
    ("ein Dutzend Eier, une douzaine d'œufs", [("ein Dutzend", 12), ("une douzaine", 12)]),
    # Chinese and Japanese numerals: a run of two or more, or one before a counter
    ("会社には二十二人の社員がいます。", [("二十二", 22)]),
    ("公司有三百名员工，两个部门。", [("三百", 300), ("两", 2)]),
    ("一九九七年に設立、資本金三万五千円", [("一九九七", 1997), ("三万五千", 35000)]),
    ("一百零五个座位", [("一百零五", 105)]),
    ("一般的に、统一、四川、王伟住在上海、一人で、一个人", []),
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
    ("dozens of eggs, firstly, fireside", []),
])
def test_counts_written_in_words_and_their_values(text, found):
    assert [(text[c.start:c.end], c.value) for c in counts_in_words(text)] == found


@pytest.mark.parametrize(("text", "found"), [
    # single words and their forms, in each language of the counts
    ("Anna finished third.", [("third", 3)]),
    ("on the fifth floor, for the tenth time", [("fifth", 5), ("tenth", 10)]),
    ("am dritten Tag wurde sie Zweite", [("dritten", 3), ("Zweite", 2)]),
    ("la troisième place, le premier jour", [("troisième", 3), ("premier", 1)]),
    ("el tercer día, la cuarta planta", [("tercer", 3), ("cuarta", 4)]),
    ("il terzo giorno, o terceiro dia", [("terzo", 3), ("terceiro", 3)]),
    ("de derde dag, den tredje dagen, den fjerde dag", [("derde", 3), ("tredje", 3), ("fjerde", 4)]),
    ("третьего места, в пятом классе", [("третьего", 3), ("пятом", 5)]),
    ("третє місце, п'ятий день", [("третє", 3), ("п'ятий", 5)]),
    ("trzeciego dnia, czwarte miejsce", [("trzeciego", 3), ("czwarte", 4)]),
    ("třetí den, čtvrtého dne", [("třetí", 3), ("čtvrtého", 4)]),
    ("üçüncü gün, kolmanneksi, ketiga", [("üçüncü", 3), ("kolmanneksi", 3), ("ketiga", 3)]),
    # greater ones, from a count's words
    ("the twenty-first century", [("twenty-first", 21)]),
    ("the thirteenth, the twentieth, the hundredth", [("thirteenth", 13), ("twentieth", 20), ("hundredth", 100)]),
    ("am dreiundzwanzigsten Mai", [("dreiundzwanzigsten", 23)]),
    ("la treizième fois", [("treizième", 13)]),
    # a fraction, a unit, a fixed word or a list's opener: no rank
    ("a third of the staff, one fifth of it", []),
    ("Wait a second. It takes 30 second.", []),
    ("un cuarto de hora, eine Achte", []),
    ("third-party cookies, a second-hand car, first-class seats", []),
    ("First, book it. Third, pay.", []),
    ("- Second, wait", []),
    ("mother, month, breath, zenith, tenths, Secondary", []),
])
def test_ordinals_written_in_words_and_their_values(text, found):
    assert [(text[o.start:o.end], o.value) for o in ordinals_in_words(text)] == found


@pytest.mark.parametrize(("text", "also_a_word"), [
    ("Bob finished second.", True),  # "second" of time
    ("secondo il rapporto", True),  # "according to"
    ("de andra", True),  # "the others"
    ("drugi raz", True),  # "another"
    ("Anna finished first.", True),  # "at first"
    ("the twenty-first day", False),
    ("Bob finished third.", False),
])
def test_ordinals_that_are_common_words_too_say_so(text, also_a_word):
    assert [o.also_a_word for o in ordinals_in_words(text)] == [also_a_word]
