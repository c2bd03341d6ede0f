"""The judge self-check: score the configured judge on labelled items before trusting its verdicts
(`python -m pytest_llmfaith check`, or a run's --llm-judge-check); `items.jsonl` is the small
labelled set shipped with the package.
"""
