"""`python -m pytest_llmfaith cache stats|show|prune|merge`: housekeeping of the working cache
and of the recordings, outside pytest (CI shards, reviews, clean-ups)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from pytest_llmfaith.errors import LLMFaithError
from pytest_llmfaith.judge.cache import JudgeCache
from pytest_llmfaith.judge.keyvalue import FILENAME
from pytest_llmfaith.recordings.recorder import never_recorded
from pytest_llmfaith.recordings.recording_format import RecordedAnswer, find, load, load_all, merge, prune
from pytest_llmfaith.report.render import money
from pytest_llmfaith.settings import RECORDINGS_FOLDER, default
from pytest_llmfaith.wording import plural


def current_prompt_versions() -> set[str]:
    from pytest_llmfaith.scorers import Faithfulness, Hallucination, claims, labels

    return {claims.CLAIMS_VERSION, Faithfulness.version, Hallucination.version, labels.VERSION}


def _stats(args: argparse.Namespace) -> int:
    entries = list(JudgeCache(args.cache_dir, "replay").entries())
    tokens = sum(sum((v.get("usage") or {}).values()) for _, _, v in entries)
    costs = [v["cost_usd"] for _, _, v in entries if v.get("cost_usd") is not None]
    cost = money(sum(costs) if costs else None)  # as the summary says it: no known price is "n/a", not $0
    print(f"working cache {args.cache_dir}: {plural(len(entries), 'entry')}, {tokens:,} tokens recorded, cost {cost}")
    for what in ("model", "prompt_version", "step"):
        counts = Counter(v.get(what) or "(unknown)" for _, _, v in entries)
        if counts:
            print(f"  by {what.replace('_', ' ')}: " + ", ".join(f"{k} {n}" for k, n in sorted(counts.items())))
    files = load_all(args.root, args.folder)
    total = sum(len(r.entries) for r in files.values())
    print(f"recordings ({plural(len(files), 'file')} under {args.root}): {plural(total, 'entry')}")
    for path, recording in files.items():
        unused = sum(not e.tests for e in recording.entries.values())
        print(f"  {path}: {plural(len(recording.entries), 'entry')}" + (f", {unused} unused" if unused else ""))
    return 0


def _show(args: argparse.Namespace) -> int:
    """An entry by (a prefix of) its key, or the entries of a test (`path::name`) or module (`path`)."""
    target: str = args.target
    found: list[tuple[str, str, dict[str, Any]]] = []
    if "::" in target or target.endswith(".py"):
        module, _, test = target.partition("::")
        path = Path(module).parent / args.folder / f"{Path(module).stem}.json"
        for key, entry in load(path).entries.items():
            if not test or test in entry.tests:
                found.append((str(path), key, entry.model_dump(mode="json")))
    else:
        for path in find(args.root, args.folder):
            found += [(str(path), k, e.model_dump(mode="json")) for k, e in load(path).entries.items()
                      if k.startswith(target)]
        found += [(str(args.cache_dir), k, v) for k, _, v in JudgeCache(args.cache_dir, "replay").entries()
                  if k.startswith(target)]
    for source, key, shown in found:
        print(f"# {key}  ({source})\n{json.dumps(shown, indent=2, sort_keys=True, ensure_ascii=False)}")
    if not found:
        print(f"no entry matches {target!r} (a key prefix, tests/test_x.py::test_name or tests/test_x.py)")
    return 0 if found else 1


def _prune(args: argparse.Namespace) -> int:
    if not (args.unused or args.older_than is not None or args.other_prompt_versions):
        print("prune what? Fix: name what to remove: --unused, --older-than DAYS and/or --other-prompt-versions, "
              "e.g. python -m pytest_llmfaith cache prune --unused", file=sys.stderr)
        return 2
    current = current_prompt_versions() if args.other_prompt_versions else set()
    files = load_all(args.root, args.folder)
    recorded = {key for recording in files.values() for key, e in recording.entries.items() if e.tests}

    def outdated(entry: dict[str, Any]) -> bool:
        return args.other_prompt_versions and entry.get("prompt_version") not in current

    def unwanted(entry: RecordedAnswer) -> bool:
        return (args.unused and not entry.tests) or outdated(entry.model_dump())

    removed_recorded = prune(files, unwanted)
    if args.unused and not files:
        print(f"--unused: no recordings ({args.folder}) under {args.root} tell which cache entries are used; "
              "the working cache is left as it is (pytest --llm-prune-unused prunes it after a full run)")
    cache = JudgeCache(args.cache_dir, "use")
    cutoff = time.time() - args.older_than * 86400 if args.older_than is not None else None
    doomed = [key for key, stored, value in cache.entries()
              if (args.unused and files and key not in recorded and not never_recorded(value)) or outdated(value)
              or (cutoff is not None and stored < cutoff)]
    removed_cached = cache.delete(doomed) if doomed else 0
    cache.close()
    print(f"removed {plural(removed_recorded, 'recordings entry')} ({plural(len(files), 'file')}) and "
          f"{plural(removed_cached, 'entry')} of the working cache {args.cache_dir}")
    return 0


def _merge(args: argparse.Namespace) -> int:
    """Join the outputs of parallel CI shards: cache directories, or trees holding recordings. An
    entry answered differently by two of them keeps the first answer (the destination's, then the
    sources' in the order given), and is listed: the tests of the other shard saw another answer."""
    sources: list[Path] = args.sources
    if any((src / FILENAME).exists() for src in sources):
        return _merge_caches(args.dest, sources)
    merged, written, found = merge(args.dest, sources, args.folder)
    conflicts = [_conflict(c.key, c.step, c.kept, c.dropped) for c in found]
    print(f"merged {plural(merged, 'recordings file')} into {args.dest} ({written} changed"
          + (f"; {plural(len(conflicts), 'entry')} answered differently kept the destination's answer"
             if conflicts else "") + ")")
    return _report_conflicts(conflicts)


def _merge_caches(dest: Path, sources: list[Path]) -> int:
    into = JudgeCache(dest, "use")
    added = 0
    conflicts: list[str] = []
    for src in sources:
        for key, _, value in JudgeCache(src, "replay").entries():
            old = into.get(key)
            if old is None:
                into.set(key, value)
                added += 1
            elif old.get("answer") != value.get("answer"):
                conflicts.append(_conflict(key, value.get("step"), dest, src))
    into.close()
    print(f"merged {plural(added, 'new entry')} into the working cache {dest}"
          + (f"; {plural(len(conflicts), 'entry')} answered differently kept the first answer" if conflicts else ""))
    return _report_conflicts(conflicts)


def _conflict(key: str, step: str | None, kept: Path, dropped: Path) -> str:
    return f"  {key[:12]} (step {step or '?'}): kept the answer in {kept}, not the one in {dropped}"


def _report_conflicts(conflicts: list[str]) -> int:
    """One line per conflict, then how to look at them; the merge itself has succeeded (0)."""
    if conflicts:
        print("answered differently (see both with `python -m pytest_llmfaith cache show KEY` and --cache-dir or "
              "--root naming each):", *conflicts, sep="\n")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m pytest_llmfaith cache", description=__doc__)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--cache-dir", type=Path, default=default("llm_cache_dir"), help="the working cache")
    common.add_argument("--root", type=Path, default=Path("."), help="where to look for recordings")
    common.add_argument("--folder", default=RECORDINGS_FOLDER, help="the recordings folder name (llm_recordings)")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("stats", parents=[common], help="entries, tokens and cost, by model and prompt version")
    show = commands.add_parser("show", parents=[common], help="an entry (key prefix), or the entries of a test")
    show.add_argument("target", help="a key prefix, tests/test_x.py::test_name, or tests/test_x.py")
    prune = commands.add_parser("prune", parents=[common], help="remove unused, old or outdated entries")
    prune.add_argument("--unused", action="store_true",
                       help="recordings entries no test uses, and cache entries no recording holds")
    prune.add_argument("--older-than", type=float, metavar="DAYS", help="cache entries stored before")
    prune.add_argument("--other-prompt-versions", action="store_true",
                       help="entries made with prompts this version of the plugin no longer sends")
    merge = commands.add_parser("merge", parents=[common], help="join cache dirs or recordings of CI shards")
    merge.add_argument("dest", type=Path, help="the cache directory or the tree to merge into")
    merge.add_argument("sources", type=Path, nargs="+", help="cache directories, or trees holding recordings")
    args = parser.parse_args(argv)
    try:
        return {"stats": _stats, "show": _show, "prune": _prune, "merge": _merge}[args.command](args)
    except LLMFaithError as err:
        print(err)
        return 1
