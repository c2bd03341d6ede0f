import pytest

from pytest_llmfaith.text.extreme_words import comparisons, extreme, extreme_kind, extremes_at


@pytest.mark.parametrize(("text", "way"), [
    ("The cheapest flight is SK4705.", "least"),
    ("the least expensive plan", "least"),
    ("Der günstigste Flug, am billigsten", "least"),
    ("le vol le moins cher", "least"),
    ("el vuelo más barato", "least"),
    ("il volo più economico", "least"),
    ("o voo mais barato", "least"),
    ("de goedkoopste vlucht", "least"),
    ("den billigaste flygningen", "least"),
    ("самый дешёвый рейс", "least"),
    ("najtańszy lot", "least"),
    ("nejlevnější let", "least"),
    ("en ucuz uçuş", "least"),
    ("halvin lento", "least"),
    ("penerbangan termurah", "least"),
    ("最便宜的航班", "least"),
    ("가장 싼 항공편", "least"),
    ("The most expensive room", "most"),
    ("die höchste Miete", "most"),
    ("la chambre la plus chère", "most"),
    ("la habitación más cara", "most"),
    ("найдорожчий номер", "most"),
    ("en pahalı oda", "most"),
    ("最も高い部屋", "most"),
    ("DY1872 is the cheaper one.", "least"),  # of two
    ("SK4705 is the more expensive flight.", "most"),
    # no extreme, or both ways
    ("The second cheapest flight", None),
    ("The mayor of Oslo", None),
    ("the cheapest and the most expensive", None),
    ("SK4705 costs 189 EUR.", None),
    ("SK4705 es más barato que DY1872.", None),  # a comparison
    ("Il volo più economico di tutti è SK4705.", "least"),  # than all: the extreme
])
def test_words_that_say_an_extreme_say_which_way(text, way):
    assert extreme(text) == way


@pytest.mark.parametrize(("text", "amounts", "times"), [
    ("the earliest flight", None, "least"),
    ("der späteste Zug", None, "most"),
    ("the cheapest flight", "least", None),
    ("the shortest flight", "least", None),  # a length, not a time of day
    ("the latest version", None, "most"),
])
def test_an_extreme_of_times_is_said_by_its_own_words(text, amounts, times):
    assert (extreme(text), extreme(text, of_times=True)) == (amounts, times)


@pytest.mark.parametrize(("text", "found"), [
    ("SK4705 is cheaper than DY1872.", [("least", "price", "cheaper", False)]),
    ("SK4705 costs less than DY1872.", [("least", "price", "costs less", False)]),
    ("SK4705 ist teurer als DY1872.", [("most", "price", "teurer", False)]),
    ("SK4705 est moins cher que DY1872.", [("least", "price", "moins cher", False)]),
    ("SK4705 jest droższy niż DY1872.", [("most", "price", "droższy", False)]),
    ("DY1872 leaves earlier than SK4705.", [("least", "time", "earlier", False)]),
    ("DY1872 vertrekt later dan SK4705.", [("most", "time", "later", False)]),
    ("SK4705 has more stops than DY1872.", [("most", "named", "more", False)]),
    ("SK4705 hat weniger Stopps als DY1872.", [("least", "named", "weniger", False)]),
    # the thing compared with before the words, or within them
    ("SK4705, DY1872'den daha ucuz.", [("least", "price", "daha ucuz", True)]),
    ("SK4705はDY1872より安い。", [("least", "price", "より安い", True)]),
    ("SK4705比DY1872便宜。", [("least", "price", "比DY1872便宜", True)]),
    ("SK4705는 DY1872보다 비싸다.", [("most", "price", "보다 비싸", True)]),
    # an extreme is no comparison, nor are the words a longer one holds
    ("le vol le moins cher", []),
    ("SK4705 est le plus cher.", []),
    ("Дешевле всех SK4705.", []),
    ("SK4705 is more expensive than DY1872.", [("most", "price", "more expensive", False)]),
    ("SK4705 es más barato que DY1872.", [("least", "price", "más barato", False)]),  # "el más barato" is an extreme
    ("SK4705 è più caro di DY1872.", [("most", "price", "più caro", False)]),
    ("SK4705 costs 189 EUR.", []),
])
def test_words_that_compare_say_which_way_and_of_what(text, found):
    assert [(c.way, c.kind, text[c.start:c.end], c.than_before) for c in comparisons(text)] == found


@pytest.mark.parametrize(("text", "found"), [
    ("The first train leaves at 05:50 and the last at 23:40.", [("least", "ends", "first"), ("most", "ends", "last")]),
    ("Der letzte Zug fährt um 23:40.", [("most", "ends", "letzte")]),
    ("El primer tren sale a las 5:50.", [("least", "ends", "primer")]),
    ("Последний поезд отходит в 23:40.", [("most", "ends", "Последний")]),
    ("終電は23時40分です。", [("most", "ends", "終電")]),
    ("The minimum order is 20 EUR.", [("most", "bound", "minimum")]),
    ("Die maximale Bestellung beträgt 20 EUR.", [("least", "bound", "maximale")]),
    ("Das Zimmer bietet Platz für mindestens 4 Gäste.", [("most", "bound", "mindestens")]),
    ("Der Mindestbestellwert beträgt 20 EUR.", [("most", "bound", "Mindestbestellwert")]),
    ("Номер вмещает не менее 4 гостей.", [("most", "bound", "не менее")]),
    ("Номер вмещает не больше 4 гостей.", [("least", "bound", "не больше")]),
    ("Номер вмещает максимум 4 гостя.", [("least", "bound", "максимум")]),
    ("Oda en az 4 kişiliktir.", [("most", "bound", "en az")]),
    ("Oda en fazla 4 kişiliktir.", [("least", "bound", "en fazla")]),
    ("房间至少可住4人。", [("most", "bound", "至少")]),
    ("La habitación admite hasta 4 personas.", [("least", "bound", "hasta")]),
    ("Pokój mieści maksymalnie 4 osoby.", [("least", "bound", "maksymalnie")]),
    ("Revenue rose by 5%.", [("least", "change", "by")]), ("Revenue rose to 5%.", [("most", "change", "to")]),
    ("Der Umsatz stieg um 5 %.", [("least", "change", "um")]),
    ("Der Umsatz stieg auf 5 %.", [("most", "change", "auf")]),
    ("Les ventes ont baissé de 5 %.", [("least", "change", "de")]),
    ("Las ventas subieron al 5 %.", [("most", "change", "al")]),
    ("The flight goes to 5 cities.", []),
    ("The coldest day was -12 °C.", [("least", "heat", "coldest")]),
    ("Free shipping on orders over 50 EUR, none under 20 EUR.",
     [("most", "bound", "over"), ("least", "bound", "under")]),
    ("従業員は400人以上です。", [("most", "bound", "以上")]),
    ("The cheapest flight is SK4705.", [("least", "price", "cheapest")]),
    ("The second cheapest flight", []),  # ranked: no extreme
    ("SK4705 is cheaper than DY1872.", []),  # a comparison
])
def test_the_first_the_last_and_other_ends_are_read_with_their_way(text, found):
    assert [(way, kind, match.group()) for way, kind, match in extremes_at(text)] == found


@pytest.mark.parametrize("text", ["The first flight leaves at 13:45.", "Last year the flight left at 13:45.",
                                  "The minimum stay is 2 nights."])
def test_the_first_and_the_last_order_no_values(text):
    """"the first time", "last year": an end says which of two ways beside a value only, never
    which value is the least (`_beaten` reads `extreme` and `extreme_kind`)."""
    assert (extreme(text), extreme(text, of_times=True), extreme_kind(text)) == (None, None, None)
