"""One settings object, resolved once at start-up: CLI > environment > ini (pyproject) > default.

The environment beats the ini file so CI can switch a committed setting (`LLMFAITH_CACHE=replay`).
Stdlib only: every pytest run with the plugin installed imports this (benchmarks/HISTORY.md).
Every option is declared once in OPTIONS; flag, ini key and env var derive from it.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

CACHE_MODES: tuple[str, ...] = ("use", "refresh", "replay", "off")
REASON_MODES: tuple[str, ...] = ("verdicts", "llm")
VERDICT_MODES: tuple[str, ...] = ("auto", "all", "one", "label")
NO_CLAIMS_MODES: tuple[str, ...] = ("fail", "pass")
RELAY_MODES: tuple[str, ...] = ("auto", "on", "off")
# Seconds a background process of ours (the judge relay, the offline judge's server) stays up
# after the last run that used it, so that the next run finds it warm.
DEFAULT_IDLE_TIMEOUT = 120.0
RECORDINGS_FOLDER = "llmfaith_recordings"  # the folder name the docs suggest, and the cache command's default


def _choice(*choices: str) -> Callable[[str], str]:
    def parse(raw: str) -> str:
        value = raw.strip().lower()
        if value not in choices:
            raise ValueError(f"must be one of {', '.join(choices)}")
        return value

    return parse


N = TypeVar("N", int, float)


def _number(cast: type[N], minimum: float, inclusive: bool = True) -> Callable[[str], N]:
    def parse(raw: str) -> N:
        try:
            value = cast(raw.strip())
        except ValueError:
            raise ValueError(f"must be a {cast.__name__} number") from None
        if not math.isfinite(value):  # nan compares false with everything: it would disable a check
            raise ValueError("must be a finite number")
        if value < minimum or (value == minimum and not inclusive):
            raise ValueError(f"must be {'>=' if inclusive else '>'} {minimum}")
        return value

    return parse


def _score(raw: str) -> float:
    value = _number(float, 0.0)(raw)
    if value > 1.0:
        raise ValueError("must be a score between 0 and 1")
    return value


_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")


def _flag(raw: str) -> bool:
    value = raw.strip().lower()
    if value not in _TRUE + _FALSE:
        raise ValueError("must be true or false")
    return value in _TRUE


def _text(raw: str) -> str | None:
    return raw.strip() or None


def _folder(raw: str) -> str | None:
    """A folder name next to each test module; 'off' (or empty) turns recordings off."""
    value = raw.strip()
    if value.lower() in ("", "off"):
        return None
    if "/" in value or "\\" in value or value in (".", ".."):
        raise ValueError("must be a folder name (no path), e.g. llmfaith_recordings, or off")
    return value


def _odd(raw: str) -> int:
    value = _number(int, 1)(raw)
    if value % 2 == 0:
        raise ValueError("must be odd (1, 3, 5, ...), so that a majority always exists")
    return value


def _check_source(raw: str) -> bool | str:
    """A switch (`--llm-judge-check`, ini `true`) for the shipped set, or the path of a JSONL file."""
    value = raw.strip()
    if value.lower() in _TRUE + _FALSE:
        return _flag(value)
    if not value.endswith(".jsonl"):
        raise ValueError("must be true, false or the path of a .jsonl file of labelled items")
    return value


@dataclass(frozen=True)
class Option:
    """One setting: `name` is the ini key; the flag is --name with dashes, the env var LLMFAITH_*."""

    name: str
    help: str
    parse: Callable[[str], Any]
    flag_only: bool = False  # a switch (store_true) on the command line
    optional_value: bool = False  # a switch that may take a value: --name or --name=VALUE
    aliases: tuple[str, ...] = ()  # deprecated environment variables, still read after `env`, in this order

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def env(self) -> str:
        return "LLMFAITH_" + self.name.removeprefix("llm_").upper()

    @property
    def field(self) -> str:
        return self.name.removeprefix("llm_")

    @property
    def default(self) -> Any:
        """Settings holds the defaults; this is for help texts and docs."""
        return Settings.__dataclass_fields__[self.field].default


OPTIONS: tuple[Option, ...] = (
    Option("llm_judge_model", "judge model, a litellm model string: openai/gpt-4o-mini, "
           "anthropic/claude-3-5-haiku-latest, ollama/llama3.1, or 'local' for the offline judge "
           "('local:/path/model.gguf' for your own GGUF file)", _text),
    Option("llm_judge_api_base", "api base for an OpenAI-compatible server, e.g. "
           "http://127.0.0.1:8000/v1 (use with --llm-judge-model=openai/<name>)", _text),
    Option("llm_judge_api_key_env", "name of the environment variable holding the judge's API key "
           "(default: litellm's provider variable, e.g. OPENAI_API_KEY)", _text),
    Option("llm_judge_timeout", "seconds one judge request may take (default 60; 600 for the local "
           "judge, whose requests queue behind each other)", _number(float, 0, False)),
    Option("llm_judge_retries", "retries on rate limits, 5xx and connection errors (with backoff)",
           _number(int, 0)),
    Option("llm_judge_max_tokens", "most tokens the judge may write per answer (an answer cut at "
           "the limit is an error naming this option; default: the server's own limit)", _number(int, 1)),
    Option("llm_judge_concurrency", "most judge requests in flight at once, for the whole run (all "
           "pytest-xdist workers share it through the judge relay)", _number(int, 1)),
    Option("llm_judge_relay", "send the judge calls of every process of the run through one relay "
           "process, which imports litellm once, shares the concurrency limit and 429 back-off, and "
           "stays warm for the next run: 'auto' and 'on' for every hosted judge (the offline judge "
           "keeps its own server), 'off' never (each process imports litellm itself); where it cannot "
           "run safely (its folder not private, a platform without what it needs), 'auto' turns it off, "
           "saying why in one line, and 'on' is an error",
           _choice(*RELAY_MODES)),
    Option("llm_idle_timeout", "seconds the background services (the judge relay, the offline judge's "
           "server) stay up after the last run that used them; 0 ends them with the run (deprecated "
           "environment variables, still read when LLMFAITH_IDLE_TIMEOUT is unset: "
           "LLMFAITH_RELAY_IDLE_TIMEOUT, LLMFAITH_LOCAL_IDLE_TIMEOUT)",
           _number(float, 0), aliases=("LLMFAITH_RELAY_IDLE_TIMEOUT", "LLMFAITH_LOCAL_IDLE_TIMEOUT")),
    Option("llm_judge_verdicts", "verdict calls: 'all' claims in one call, 'one' claim per call "
           "(concurrent), 'label' one claim per call read from the answer's token probabilities "
           "(needs logprobs: OpenAI, the offline judge), 'auto' = label for the offline judge, "
           "all otherwise", _choice(*VERDICT_MODES)),
    Option("llm_judge_votes", "ask each verdict N times (odd) as independent samples and take the "
           "majority; a test that the minority verdicts would flip is shown as UNSTABLE", _odd),
    Option("llm_judge_votes_temperature", "sampling temperature of the votes after the first (the "
           "first is asked at temperature 0, as without votes)", _number(float, 0, False)),
    Option("llm_judge_check", "before the tests, score the judge on a labelled set (the shipped one, "
           "or --llm-judge-check=items.jsonl) and print its balanced accuracy per scorer",
           _check_source, optional_value=True),
    Option("llm_judge_min_accuracy", "stop the run before any test when the judge's balanced accuracy "
           "on the self-check is below this (runs the check)", _score),
    Option("llm_cache", "judge cache mode: use (read hits, record misses), refresh (re-ask and "
           "overwrite), replay (stored answers only; a miss is an error; no network), off",
           _choice(*CACHE_MODES)),
    Option("llm_cache_dir", "judge cache directory, relative to the rootdir", _text),
    Option("llm_recordings", "record the judge answers each test module uses into "
           f"<test dir>/<this folder>/<module>.json, to commit and review (e.g. {RECORDINGS_FOLDER}); "
           "replay reads them", _folder),
    Option("llm_prune_unused", "at the end of a run, remove the recordings entries no test used "
           "(and, after a full run, the unused working-cache entries)", _flag, flag_only=True),
    Option("llm_max_judge_calls", "budget: refuse new judge calls once the run (all xdist workers) "
           "has made this many; cached answers are still served", _number(int, 0)),
    Option("llm_max_cost", "budget: refuse new judge calls once the run has spent this many USD "
           "(where litellm knows the price)", _number(float, 0, False)),
    Option("llm_reason", "how reasons are written: 'verdicts' (built from the verdicts, no extra "
           "call) or 'llm' (a third judge call)", _choice(*REASON_MODES)),
    Option("llm_min_faithfulness", "default min_score for assert_faithful", _score),
    Option("llm_max_hallucination", "default max_score for assert_not_hallucinated", _score),
    Option("llm_no_claims", "outcome of an assertion whose non-empty output has no claims (a refusal, "
           "or a judge that failed to read it): fail or pass; an empty output keeps Mastra's outcome",
           _choice(*NO_CLAIMS_MODES)),
    Option("llm_min_mean_faithfulness", "gate: fail the session if the mean faithfulness score "
           "is below this", _score),
    Option("llm_max_mean_hallucination", "gate: fail the session if the mean hallucination score "
           "is above this", _score),
    Option("llm_report", "write a JSON report of every score to this path", _text),
    Option("llm_report_html", "write the review page to this path: one self-contained HTML file with "
           "every score, its claims marked in the output and the context, the gates, filters and search",
           _text),
    Option("llm_report_history", "folder of earlier JSON reports (--llm-report) and baseline files, read "
           "in file-name order: the review page draws each test's score history from them", _text),
    Option("llm_baseline", "baseline file of per-test scores; fail the session when a score "
           "regresses by more than the tolerance", _text),
    Option("llm_baseline_update", "write the current scores to the --llm-baseline file",
           _flag, flag_only=True),
    Option("llm_baseline_tolerance", "how far a score may regress from the baseline",
           _score),
)


@dataclass(frozen=True)
class Settings:
    judge_model: str | None = None
    judge_api_base: str | None = None
    judge_api_key_env: str | None = None
    judge_timeout: float | None = None
    judge_retries: int = 3
    judge_max_tokens: int | None = None
    judge_concurrency: int = 8
    judge_relay: str = "auto"
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT
    judge_verdicts: str = "auto"
    judge_votes: int = 1
    judge_votes_temperature: float = 0.7
    judge_check: bool | Path = False
    judge_min_accuracy: float | None = None
    cache: str = "use"
    cache_dir: Path = Path(".llmfaith_cache")
    recordings: str | None = None
    prune_unused: bool = False
    max_judge_calls: int | None = None
    max_cost: float | None = None
    reason: str = "verdicts"
    min_faithfulness: float = 0.7
    max_hallucination: float = 0.3
    no_claims: str = "fail"
    min_mean_faithfulness: float | None = None
    max_mean_hallucination: float | None = None
    report: Path | None = None
    report_html: Path | None = None
    report_history: Path | None = None
    baseline: Path | None = None
    baseline_update: bool = False
    baseline_tolerance: float = 0.05


def default(name: str) -> Any:
    """The default of the option whose ini key is `name`, for what is configured outside Settings
    (JudgeConfig, the cache command): each default is written once, in Settings."""
    return next(opt for opt in OPTIONS if opt.name == name).default


def resolve(
    cli: Callable[[str], Any],
    ini: Callable[[str], Any],
    environ: Mapping[str, str],
    rootdir: Path,
) -> Settings:
    """Build Settings from the three sources; raise ValueError naming the source and the fix."""
    values: dict[str, Any] = {}
    for opt in OPTIONS:
        sources = [(opt.flag, cli(opt.name)), *_environment(opt, environ), (f"ini key {opt.name}", ini(opt.name))]
        for source, raw in sources:
            if raw is None or raw == "":
                continue
            if isinstance(raw, bool):
                values[opt.field] = raw
                break
            try:
                values[opt.field] = opt.parse(str(raw))
            except ValueError as err:
                raise ValueError(f"llmfaith: {source} = {raw!r} {err}") from None
            break
    if isinstance(values.get("judge_check"), str):
        values["judge_check"] = Path(values["judge_check"])
    for name in ("cache_dir", "report", "report_html", "report_history", "baseline", "judge_check"):
        if isinstance(values.get(name), (str, Path)):
            values[name] = rootdir / Path(values[name]).expanduser()
    values.setdefault("cache_dir", rootdir / default("llm_cache_dir"))
    if values.get("baseline_update") and not values.get("baseline"):
        raise ValueError("llmfaith: --llm-baseline-update needs --llm-baseline=PATH (where to write it)")
    return Settings(**{k: v for k, v in values.items() if v is not None})


def _environment(opt: Option, environ: Mapping[str, str]) -> list[tuple[str, str | None]]:
    """The option's environment variable, then its deprecated names (the new name wins)."""
    return [(f"environment variable {name}", environ.get(name)) for name in (opt.env, *opt.aliases)]


def environment_value(name: str, environ: Mapping[str, str] | None = None) -> Any:
    """The option whose ini key is `name` as the environment sets it (its deprecated names too), else
    its default: for what runs outside a run's Settings (a library judge's offline server)."""
    opt = next(o for o in OPTIONS if o.name == name)
    for source, raw in _environment(opt, os.environ if environ is None else environ):
        if raw:
            try:
                return opt.parse(raw)
            except ValueError as err:
                raise ValueError(f"llmfaith: {source} = {raw!r} {err}") from None
    return opt.default


def from_environment(environ: Mapping[str, str] | None = None) -> Settings:
    """Settings for library use outside pytest: environment variables and defaults only."""
    return resolve(lambda _: None, lambda _: None, os.environ if environ is None else environ, Path.cwd())
