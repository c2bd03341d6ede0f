"""The scorers a run knows by name: the built-in two and those plugins register through the
pytest_llmfaith_register_scorers hook. A name is checked here once, not in every result."""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from pytest_llmfaith.scorers.base import Scorer
from pytest_llmfaith.scorers.faithfulness import Faithfulness
from pytest_llmfaith.scorers.hallucination import Hallucination

_NAME = re.compile(r"[a-z][a-z0-9_]*\Z")  # a baseline key's [scorer], a JUnit property's part


class ScorerRegistry:
    def __init__(self) -> None:
        self._scorers: dict[str, type[Scorer]] = {}

    def register(self, scorer: type[Scorer]) -> None:
        """Add a Scorer subclass under its `name`; registering the same class again does nothing."""
        if not (isinstance(scorer, type) and issubclass(scorer, Scorer)):
            raise TypeError(f"llmfaith: register() takes a subclass of pytest_llmfaith.Scorer, got {scorer!r}. "
                            "Fix: class MyScorer(Scorer): name = 'my_scorer' ... then register(MyScorer).")
        name = getattr(scorer, "name", None)
        if not isinstance(name, str) or not _NAME.match(name):
            raise ValueError(f"llmfaith: scorer {scorer.__name__} has name {name!r}; a scorer's name is lower "
                             "case letters, digits and _, starting with a letter. Fix: e.g. name = 'politeness'.")
        if not isinstance(scorer.higher_is_better, bool):
            raise TypeError(f"llmfaith: {scorer.__name__}.higher_is_better must be True or False.")
        default = scorer.default_threshold
        if default is not None and (isinstance(default, bool) or not isinstance(default, (int, float))
                                    or not math.isfinite(default) or default < 0):
            raise ValueError(f"llmfaith: {scorer.__name__}.default_threshold must be None or a number >= 0, "
                             f"got {default!r}.")
        known = self._scorers.get(name)
        if known is not None and known is not scorer:
            raise ValueError(f"llmfaith: two scorers are named {name!r}: {_where(known)} and {_where(scorer)}. "
                             "Fix: give one of them another name.")
        self._scorers[name] = scorer

    def get(self, name: str) -> type[Scorer]:
        __tracebackhide__ = True
        if name not in self._scorers:
            raise ValueError(f"llmfaith: no scorer is named {name!r}; registered: {', '.join(sorted(self._scorers))}. "
                             "Fix: check the name, or register the scorer with the pytest_llmfaith_register_scorers "
                             "hook in a conftest.py or plugin (README: Extending).")
        return self._scorers[name]


def builtin(register: Callable[[type[Scorer]], None]) -> None:
    """The plugin's own scorers, registered the way any other is."""
    register(Faithfulness)
    register(Hallucination)


def _where(scorer: type[Scorer]) -> str:
    return f"{scorer.__module__}.{scorer.__qualname__}"
