"""The judge self-check: score the configured judge on labelled items before trusting its verdicts.

`labelled.py` is the item format and the metrics (shared with benchmarks/scorer_accuracy.py),
`items.jsonl` the small labelled set shipped with the package, `judge_check.py` the check itself
and its command line (`python -m pytest_llmfaith check`).
"""
