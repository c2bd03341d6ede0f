"""The judge self-check: score the configured judge on labelled items before trusting its verdicts.

`judge_check.py` is the check, its command line (`python -m pytest_llmfaith check`), the item
format and the metrics (shared with benchmarks/scorer_accuracy.py); `items.jsonl` the small
labelled set shipped with the package.
"""
