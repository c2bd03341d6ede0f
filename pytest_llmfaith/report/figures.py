"""Figures as the reports show them, shared by the terminal, the markdown summary and the review
page: with the precision that decided a comparison, and a vote's agreement only where the votes
decided. No pytest here."""

from __future__ import annotations

from pytest_llmfaith.results import Assessment, Verdict


def digits(x: float) -> int:
    """The decimals a figure needs to be shown as it is (0.7 -> 2, 0.755 -> 3), 2 to 6."""
    return next((d for d in range(2, 6) if abs(round(x, d) - x) < 1e-12), 6)


def decisive(value: float, limit: float, least: int = 2) -> str:
    """`value` with the decimals that tell it from `limit` (at least the limit's own): a
    comparison shown never reads false for its rounding ("0.695 < 0.70", not "0.70 < 0.70")."""
    d = max(least, digits(limit))
    while d < 6 and value != limit and f"{value:.{d}f}" == f"{limit:.{d}f}":
        d += 1
    return f"{value:.{d}f}"


def score_text(a: Assessment) -> str:
    """The score, or NO CLAIMS: a 0 that no claim produced must not read like a measured 0."""
    if a.result.no_claims:
        return "NO CLAIMS"
    return f"{a.result.score:.2f}" if a.threshold is None else decisive(a.result.score, a.threshold)


def threshold_text(a: Assessment, space: str = "") -> str:
    return "-" if a.threshold is None else f"{a.comparison}{space}{a.threshold:.{digits(a.threshold)}f}"


def rule_decided(v: Verdict) -> bool | None:
    """With votes, the side most of the judge's votes took (True: "yes") when the verdict is the
    other one: a code rule overruled the judge. None when the verdict is the votes' own."""
    if len(v.samples) < 2:
        return None
    side = sum(s == "yes" for s in v.samples) * 2 > len(v.samples)
    return side if side != (v.verdict == "yes") else None


def lowest_agreement(a: Assessment) -> str | None:
    """The agreement of the least agreed-on claim the votes decided ("2/3"); "rule" when a code
    rule decided every claim that had votes."""
    voted = [v for v in a.result.verdicts if v.agreement]
    by_votes = [v.agreement for v in voted if rule_decided(v) is None and v.agreement]
    if not by_votes:
        return "rule" if voted else None
    return min(by_votes, key=lambda x: int(x.split("/")[0]))
