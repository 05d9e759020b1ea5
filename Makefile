# kg-guardrail: two commands for a fresh machine, `make demo` and `make test`.
# torch 2.13.0 is installed first so that pip takes the CPU build and does not pull CUDA wheels
# (inference needs no torch: `pip install .` alone installs the torch-free runtime).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
OFFLINE := HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
PYTEST_ARGS ?=

.PHONY: install demo test test-fast lint wheels bench export-onnx clean

ADAPTERS := integrations/langchain integrations/llama_index

$(STAMP): Makefile pyproject.toml integrations/langchain/pyproject.toml integrations/llama_index/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q torch==2.13.0
	$(BIN)/python -m pip install -q -e '.[openai,local-llm,kb,kg-guard,report,gga,train,ray,dev]' $(foreach a,$(ADAPTERS),-e $(a))
	touch $(STAMP)

install: $(STAMP)

demo: install
	$(OFFLINE) $(BIN)/kg-guardrail demo --report build/demo-report.html

test: install
	$(OFFLINE) $(BIN)/python -m pytest -q $(PYTEST_ARGS)

test-fast: install
	$(OFFLINE) $(BIN)/python -m pytest -q -m "not slow" $(PYTEST_ARGS)

lint: install
	$(BIN)/python -m ruff check guardrail integrations tests benchmarks training examples
	$(BIN)/python -m mypy --strict guardrail
	$(BIN)/python -m mypy --strict integrations/langchain/guardrail_langchain integrations/llama_index/guardrail_llama_index

wheels: install
	rm -rf dist && $(BIN)/python -m build --wheel --outdir dist . && $(foreach a,$(ADAPTERS),$(BIN)/python -m build --wheel --outdir dist $(a) &&) true

bench: install
	$(OFFLINE) $(BIN)/python benchmarks/quality.py
	$(OFFLINE) $(BIN)/python benchmarks/latency.py
	$(OFFLINE) $(BIN)/python benchmarks/onnx_agreement.py
	$(OFFLINE) $(BIN)/python benchmarks/langchain_overhead.py

# after new verifier weights (and training/write_card.py): re-export model.onnx, rewrite SHA256
export-onnx: install
	$(OFFLINE) $(BIN)/python training/export_onnx.py --only verifier

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache build *.egg-info
