# The two commands of the README: `make run` and `make test`. Everything else is a helper.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit bench clean install

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/python -m local_stack $(if $(filter-out 0,$(FRESH)),--fresh)

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -n 2

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]' || echo "MILA diplomacy package not installable; benchmarking Convoy alone"
	$(BIN)/python bench/engine_bench.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
