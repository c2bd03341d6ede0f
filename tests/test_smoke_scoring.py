from conftest import TESLA

from pytest_llmfaith import Faithfulness, Hallucination


def test_worked_example_one_hallucinated_claim(server, make_judge):
    server.facts(supported=["Tesla was founded in 2003.", "The Roadster was their first car."],
                 contradicted=["Elon Musk started the company."])
    judge = make_judge()
    output = "Tesla was founded in 2003. Elon Musk started the company. The Roadster was their first car."
    assert Hallucination(judge).run(output, TESLA).score == 0.33
    assert Faithfulness(judge).run(output, TESLA).score == 0.67
