"""The `llm_judge` fixture: the assertions without an import, and the raw scorers for custom checks.

`llm_judge.faithfulness(...)` / `llm_judge.hallucination(...)` return the full ScoreResult
(score, claims, verdicts with reasons, judge calls) without asserting anything, so a test can
apply its own rule. Raw scores are still recorded: a NO THRESHOLD row of the summary, an entry
of the JSON report and the baseline, and their judge calls in the totals.
"""

from acme_rag import answer, retrieve


def test_prices_are_never_unsupported(llm_judge):
    """Stricter than a threshold: every claim that quotes a price must be backed by the docs."""
    question = "How much does Acme Cloud Backup cost?"
    result = llm_judge.faithfulness(answer(question), retrieve(question), label="prices")
    price_claims = [v for v in result.verdicts if "$" in v.statement]
    assert price_claims, f"expected the answer to quote a price, claims were: {result.claims}"
    unsupported = [v for v in price_claims if v.verdict != "yes"]
    assert not unsupported, "prices not backed by the docs:\n" + "\n".join(
        f"- {v.statement} ({v.verdict}: {v.reason})" for v in unsupported)


def test_versions_answer_via_fixture(llm_judge):
    question = "How many versions of a file does Acme keep?"
    llm_judge.assert_not_hallucinated(answer(question), retrieve(question))
