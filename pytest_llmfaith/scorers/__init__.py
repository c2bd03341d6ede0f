"""The two scorers, ports of Mastra's faithfulness and hallucination scorers."""

from .base import Scorer, round2
from .faithfulness import Faithfulness
from .hallucination import Hallucination

SCORERS: dict[str, type[Scorer]] = {"faithfulness": Faithfulness, "hallucination": Hallucination}

__all__ = ["SCORERS", "Faithfulness", "Hallucination", "Scorer", "round2"]
