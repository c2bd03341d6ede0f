"""The two built-in scorers, ports of Mastra's faithfulness and hallucination scorers, and the
base class of any scorer."""

from collections.abc import Callable

from pytest_llmfaith.results import round2
from pytest_llmfaith.scorers.base import ClaimsScorer, Scorer, ScorerRegistry
from pytest_llmfaith.scorers.faithfulness import Faithfulness
from pytest_llmfaith.scorers.hallucination import Hallucination

__all__ = ["ClaimsScorer", "Faithfulness", "Hallucination", "Scorer", "ScorerRegistry", "builtin", "round2"]


def builtin(register: Callable[[type[Scorer]], None]) -> None:
    """The plugin's own scorers, registered the way any other is."""
    register(Faithfulness)
    register(Hallucination)
