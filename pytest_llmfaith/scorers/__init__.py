"""The two built-in scorers, ports of Mastra's faithfulness and hallucination scorers, and the
base class of any scorer."""

from pytest_llmfaith.scorers.base import ClaimsScorer, Scorer, round2
from pytest_llmfaith.scorers.faithfulness import Faithfulness
from pytest_llmfaith.scorers.hallucination import Hallucination

__all__ = ["ClaimsScorer", "Faithfulness", "Hallucination", "Scorer", "round2"]
