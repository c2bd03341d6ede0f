"""A held-out-style suite for benchmarks/offline_speed.py: four retrieved passages shared by every
test (a RAG app's usual shape, unlike the example suite's one-sentence contexts) and one- and
two-sentence answers, faithful and not. Scores are what is measured, not pass or fail: the
unfaithful answers fail their assertion by design."""

import pytest

from pytest_llmfaith import assert_faithful, assert_not_hallucinated

PASSAGES = [
    "Brightwave Energy was founded in 2009 in Rotterdam. It employs 260 people across offices in "
    "Rotterdam, Antwerp and Lyon, and its chief executive is Marieke de Vries.",
    "The Brightwave Home battery stores 13.5 kWh and carries a ten-year warranty. It can be "
    "installed indoors or outdoors, and it works with solar panels from any manufacturer.",
    "Customers on the Flex tariff pay 0.21 euros per kWh during the day and 0.09 euros at night. "
    "The Fixed tariff costs 0.18 euros per kWh at all hours and requires a two-year contract.",
    "Support is available by phone from 8:00 to 20:00 on weekdays. Outside these hours customers "
    "can use the online chat, which answers within two hours.",
]

ANSWERS = {
    "founded": ("Brightwave Energy was founded in 2009 and is based in Rotterdam.", True),
    "battery": ("The Home battery stores 13.5 kWh. It comes with a ten-year warranty.", True),
    "night_rate": ("On the Flex tariff, night-time electricity costs 0.09 euros per kWh.", True),
    "employees": ("Brightwave employs 620 people, mostly in Lyon.", False),
    "fixed_contract": ("The Fixed tariff costs 0.18 euros per kWh and can be cancelled at any time.", False),
    "support": ("Phone support is open around the clock, seven days a week.", False),
}


@pytest.mark.parametrize("name", list(ANSWERS))
def test_faithful(name: str) -> None:
    answer, faithful = ANSWERS[name]
    if faithful:
        assert_faithful(answer, PASSAGES, min_score=0.7)
    else:
        assert_not_hallucinated(answer, PASSAGES, max_score=0.3)
