# Two commands do everything (see README.md):
#   make reproduce   set up, then regenerate every notebook, table and figure at scale=default
#   make test        set up, lint (ruff, notebooks stripped), check the committed records
#                    (mctslab records check: seconds), then run the whole test suite
#                    (unit tests + every notebook at scale=smoke); .ci/run is `make test`

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.mctslab-installed
SCALE  ?= default

.PHONY: setup reproduce test bench lint clean-results

setup: $(STAMP)
	@scripts/ensure-gnugo

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
	  { echo "mctslab needs Python 3.11 or newer (found $$($(PYTHON) --version)); set PYTHON=python3.x" >&2; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[dev]"
	@touch $(STAMP)

reproduce: setup
	$(BIN)/mctslab reproduce --scale $(SCALE)

test: setup lint
	$(BIN)/mctslab records check
	$(BIN)/python -m pytest

bench: setup
	$(BIN)/mctslab bench

# Part of `make test` (so CI runs it): ruff, and notebooks committed with outputs stripped.
lint: setup
	$(BIN)/ruff check mctslab tests
	$(BIN)/nbstripout --keep-id --verify notebooks/*.ipynb

clean-results:
	rm -rf data/results reports figures/*/
