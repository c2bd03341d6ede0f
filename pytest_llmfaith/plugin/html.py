"""pytest-html: each scored test's entry carries its claims and verdicts, through pytest-html's
`report.extras`. Imported only when the html plugin is active: no dependency on it otherwise."""

from __future__ import annotations

from html import escape
from typing import Any

from pytest_llmfaith.results import Assessment
from pytest_llmfaith.wording import finding


def claims_extra(records: list[dict[str, Any]]) -> dict[str, Any]:
    """One HTML extra with a table per assessment of this report phase."""
    from pytest_html import extras

    return extras.html("".join(_table(Assessment.model_validate(r)) for r in records))  # type: ignore[no-any-return]


def _table(a: Assessment) -> str:
    r = a.result
    threshold = "no threshold" if a.threshold is None else f"{a.comparison} {a.threshold:.2f}"
    head = (f"<p><b>llmfaith {escape(a.key)}</b>: {escape(r.scorer)} {r.score:.2f} ({escape(threshold)}), "
            f"<b>{escape(a.status)}</b><br>{escape(r.reason)}</p>")
    rows = "".join(f"<tr><td>{'✗' if r.is_bad(v) else '✓'}</td><td>{escape(finding(r.scorer, v.verdict))}"
                   + (f" ({v.agreement})" if v.agreement else "")  # votes: how many samples agree
                   + f"</td><td>{escape(v.statement)}</td><td>{escape(v.reason)}</td></tr>" for v in r.verdicts)
    changes = "".join(f"<li>{escape(c.describe(r.scorer))}</li>"
                      for c in (a.regression.changes if a.regression else []))
    return (head + (f"<p>baseline regression {escape(a.regression.headline())}</p><ul>{changes}</ul>"
                    if a.regression else "")
            + '<table class="llmfaith-claims"><tr><th></th><th>verdict</th><th>claim</th><th>reason</th></tr>'
            + rows + "</table>")
