# Two commands do everything (see README.md):
#   make reproduce   set up, then regenerate every notebook, table and figure at scale=default
#   make test        set up, lint (ruff, notebooks stripped), check the committed records
#                    (mctslab records check: seconds), then the test suite: unit tests and one
#                    run of every notebook at scale=smoke (12-13 minutes on 2 cores, in two processes)
#   make test-reruns the slower second runs (same seed twice, stop signals, Dask), the tests
#                    marked extended (the strong Go engine's) and full (all 2,000 real Go games
#                    replayed); .ci/run runs `make test`, then this

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.mctslab-installed
SCALE  ?= default
# make test runs the suite in one process per core, at most four (pytest-xdist), a test file's
# tests in one process (module fixtures, GNU Go sessions); PYTEST_WORKERS= runs it in one
PYTEST_WORKERS ?= -n auto --maxprocesses 4 --dist loadfile

.PHONY: setup reproduce test test-reruns bench lint clean-results

setup: $(STAMP)
	@scripts/ensure-gnugo

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
	  { echo "mctslab needs Python 3.11 or newer (found $$($(PYTHON) --version)); set PYTHON=python3.x" >&2; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@# uv installs the same packages as pip in a sixth of the time (11 s against 71 s on the
	@# 2-core machine); pip does it where uv cannot be had or cannot reach the index
	$(BIN)/python -m pip install --quiet --disable-pip-version-check uv && \
	  $(BIN)/uv pip install --quiet --python $(BIN)/python -e ".[dev]" || \
	  $(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[dev]"
	@touch $(STAMP)

reproduce: setup
	$(BIN)/mctslab reproduce --scale $(SCALE)

test: setup lint
	$(BIN)/mctslab records check
	$(BIN)/python -m pytest -m "not reruns and not extended and not full" $(PYTEST_WORKERS) --durations=25

test-reruns: setup
	$(BIN)/python -m pytest -m "reruns or extended or full"

bench: setup
	$(BIN)/mctslab bench

# Part of `make test` (so CI runs it): ruff on the package, the tests and the notebooks (their
# code cells, at the package's line length), and notebooks committed with outputs stripped.
lint: setup
	$(BIN)/ruff check mctslab tests notebooks
	$(BIN)/nbstripout --keep-id --verify notebooks/*.ipynb

clean-results:
	rm -rf data/results reports figures/*/
