"""The review page (--llm-report-html): the run as one self-contained HTML file, data in, text out; and a
scored test's claims table in its pytest-html entry.

The page's CSS and script live in page.html next to this module; the run goes in as JSON inside
a <script type="application/json"> tag, which the script renders (so the file stays about the
size of its data). Every text of the run reaches the page only through that JSON, escaped so that
no `</script>` or `<!--` in an output can end the tag. A verdict's words and the context sentence
it rests on are marked only where they are found exactly. An agent's run shows its question and tool
calls, and each tool result (a passage) with the claims resting on it: the one its evidence is in.
No pytest, no file or network access here.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from html import escape
from importlib import resources
from typing import TYPE_CHECKING, Any

from pytest_llmfaith.report.baseline import Baseline, claim_changes
from pytest_llmfaith.report.model import Report, lowest_agreement, rule_decided, score_text, threshold_text
from pytest_llmfaith.results import Assessment, ClaimChange, Status, Verdict
from pytest_llmfaith.text.exact import locate
from pytest_llmfaith.wording import finding, plural

if TYPE_CHECKING:
    from pytest_llmfaith.report.render import History

ERROR = "ERROR"  # a test whose judge failed: it has no score, only the error
_RANK = {ERROR: 0, Status.FAIL: 1, Status.REGRESSED: 2, Status.UNSTABLE: 3, Status.XFAIL: 4,
         Status.NO_THRESHOLD: 5, Status.PASS: 6}
_PLACEHOLDER = "__LLMFAITH_DATA__"


def html(report: Report, baseline: Baseline | None = None, history: History | None = None,
         generated: str = "") -> str:
    """The whole page: the template with the run's data embedded."""
    return _template().replace(_PLACEHOLDER, embed(page_data(report, baseline, history, generated)))


def embed(data: object) -> str:
    """JSON that is inert inside a <script> element: `<`, `>` and `&` as \\u escapes (so neither
    `</script>` nor `<!--` can appear), the JavaScript line separators escaped too, and lone
    surrogates (which UTF-8 cannot carry) as JSON escapes."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for char in "<>&\u2028\u2029":
        text = text.replace(char, f"\\u{ord(char):04x}")
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


@lru_cache(maxsize=1)
def _template() -> str:
    return resources.files("pytest_llmfaith.report").joinpath("page.html").read_text(encoding="utf-8")


def page_data(report: Report, baseline: Baseline | None = None, history: History | None = None,
              generated: str = "") -> dict[str, Any]:
    """What the page's script reads: the run's totals and gates, then one item per assessment
    (and per judge error), failing first, with the claims located in the output and the context."""
    texts: dict[str, int] = {}  # context passages, once each: tests often share a context
    items = [_item(a, texts, baseline, history) for a in report.assessments]
    items += [{"id": test, "name": test, "scorer": "", "label": "", "score": None, "shown": "", "thr": "",
               "st": [ERROR], "reason": error, "out": "", "ctx": [], "claims": []}
              for test, error in report.judge_errors.items()]
    items.sort(key=lambda item: min(_RANK.get(s, 9) for s in item["st"]))
    totals = report.totals.model_dump()
    totals["errors"] = len(report.judge_errors)
    notes = [*report.gate_notes, *report.unwritten]
    if report.judge_check:
        notes.append(report.judge_check.summary())
    if report.baseline_not_run:
        notes.append(f"{plural(len(report.baseline_not_run), 'baseline entry')} not run: "
                     + ", ".join(report.baseline_not_run))
    notes += history.problems if history else []
    # a note on how scores were made is said once for the run, as the terminal says it
    for note, count in Counter(n for a in report.assessments for n in a.result.notes).items():
        notes.append(f"note ({plural(count, 'score')}): {note}")
    models = sorted({c.model for a in report.assessments for c in a.result.judge_calls})
    return {"generated": generated, "totals": totals, "models": models,
            "votes": max((a.result.votes for a in report.assessments), default=1),
            "gates": [g.splitlines() for g in report.gate_failures], "checked": report.gates_checked,
            "notes": notes,
            "baseline": baseline is not None, "runs": history.runs if history else [],
            "texts": list(texts), "items": items}


def _item(a: Assessment, texts: dict[str, int], baseline: Baseline | None,
          history: History | None) -> dict[str, Any]:
    r = a.result
    claims = []
    for v in r.verdicts:
        words = finding(r.scorer, v.verdict)
        kind = "ok" if not r.is_bad(v) else "contra" if words == "contradicted" else "gap"
        found = evidence_span(v.evidence, r.context)
        claims.append({
            "t": v.statement, "v": words, "raw": v.verdict, "k": kind, "why": v.reason,
            "agree": v.agreement, "rule": _rule(r.scorer, v), "sent": v.sentence, "q": bool(v.words),
            "at": [_utf16(r.output, span) for span in word_spans(v.words, r.output)],
            "ev": None if found is None else [found[0], *_utf16(r.context[found[0]], found[1:])]})
    item: dict[str, Any] = {
        "id": a.test_id, "name": a.name, "scorer": r.scorer, "label": a.label or "", "score": r.score,
        "shown": score_text(a), "thr": "" if a.threshold is None else threshold_text(a, " ").replace(">=", "≥")
        .replace("<=", "≤"),
        "st": [str(s) for s in a.statuses], "reason": r.reason, "out": r.output,
        "ctx": [texts.setdefault(p, len(texts)) for p in r.context], "claims": claims,
        "votes": r.votes, "low": lowest_agreement(a),
        "reg": a.regression.headline() if a.regression else None,
        "changes": [{"c": c.change, "t": c.claim, "d": c.describe(r.scorer)} for c in _changes(a, baseline)],
        "known": baseline is None or a.key in baseline.assertions,
    }
    if r.agent_run is not None:  # the page shows the run: its question, its calls, the claims under each result
        item["run"] = {"fmt": r.agent_run, "q": r.input or "", "calls": r.tool_calls, "failed": r.failed_tool_calls}
    past = history.scores.get(a.key) if history else None
    if past and any(s is not None for s in past):
        item["hist"] = past
    return item


def _rule(scorer: str, v: Verdict) -> str:
    """What a verdict that a code rule decided against the judge's votes says instead of the votes."""
    side = rule_decided(v)
    if side is None:
        return ""
    voted = [s for s in v.samples if (s == "yes") == side]
    label = Counter(voted).most_common(1)[0][0]
    return f"decided by a code rule, over {len(voted)} of {len(v.samples)} votes for {finding(scorer, label)}"


def _utf16(text: str, span: tuple[int, ...]) -> list[int]:
    """Character offsets as the page's script counts them (UTF-16 code units: 😀 is two)."""
    return [i + sum(ord(c) > 0xFFFF for c in text[:i]) for i in span]


def _changes(a: Assessment, baseline: Baseline | None) -> list[ClaimChange]:
    """Against the baseline, every assessment's claim changes, not only a regression's."""
    was = baseline.assertions.get(a.key) if baseline else None
    if was is not None and was.claims is not None:
        return claim_changes(was, a)
    return a.regression.changes if a.regression else []


# Where a verdict's words sit in the output and the sentence it rests on in the context: found
# exactly, never guessed. A verdict carries the output's own words it is about (`Verdict.words`,
# verbatim) and the context sentence it rests on (`Verdict.evidence`, verbatim). Both are found by
# exact search after the folding the scorer compares with: Unicode NFKC, case, any run of white space
# as one space, one form of each quote mark and dash. A quote of several stretches ("Acme … in Oslo")
# marks each stretch. Nothing found, or nothing given: nothing is marked, and the page says so.

Span = tuple[int, int]  # character offsets of the original text, end excluded


def word_spans(words: Sequence[str], output: str) -> list[Span]:
    """Where the output says each of a verdict's words, in order: each from where the one before
    ended when it is there (a claim's words read in order), else from the output's start; [] when
    any of them is not in the output (nothing is marked at a guess)."""
    spans: list[Span] = []
    for quoted in words:
        if not quoted.strip():
            continue
        found = (locate(quoted, output, spans[-1][1]) if spans else None) or locate(quoted, output)
        if not found:
            return []
        spans += found
    return spans


def evidence_span(evidence: str, context: Sequence[str]) -> tuple[int, int, int] | None:
    """(passage, start, end) of the context sentence a verdict rests on, None when it has none or
    the context does not hold it."""
    if not evidence.strip():
        return None
    for p, passage in enumerate(context):
        found = locate(evidence, passage) or []
        if found:
            return p, found[0][0], found[-1][1]
    return None


def claims_table(a: Assessment) -> str:
    """A scored test's claims and verdicts in its pytest-html entry (`report.extras`)."""
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
