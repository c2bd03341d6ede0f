"""The two built-in scorers, ports of Mastra's faithfulness and hallucination scorers, and the
base class of any scorer."""

from .base import ClaimsScorer, Scorer, round2
from .faithfulness import Faithfulness
from .hallucination import Hallucination

__all__ = ["ClaimsScorer", "Faithfulness", "Hallucination", "Scorer", "round2"]
