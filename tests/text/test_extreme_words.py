import pytest

from pytest_llmfaith.text.extreme_words import extreme


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
    # no extreme, or both ways
    ("The second cheapest flight", None),
    ("The mayor of Oslo", None),
    ("the cheapest and the most expensive", None),
    ("SK4705 costs 189 EUR.", None),
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
