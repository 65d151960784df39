"""mctslab: fast kernels and paper pipelines for search and learning in games and puzzles.

Domains, one per paper: :mod:`mctslab.go` (the Go engine and the state-tabu paper),
:mod:`mctslab.sudoku`, :mod:`mctslab.tsp`, :mod:`mctslab.manyfaces` (The Many Faces of Go, on
:mod:`mctslab.go`'s board) and :mod:`mctslab.othello`; shared pieces in :mod:`mctslab.core`; the
notebooks' pipeline in :mod:`mctslab.pipeline`. See README.md and docs/ARCHITECTURE.md.

``__version__`` is the one version (``pyproject.toml`` reads it); CHANGELOG.md says how it is
bumped: the minor version whenever an output changes.
"""

import importlib

__version__ = "0.21.2"

__all__ = ["__version__", "DOMAINS", "NOTEBOOKS", "warmup"]

# The domains, one per paper, each with its notebook: the one list of them (the command's
# verbs, the benchmarks, warm-up, the targets files and the notebooks' pipeline read it here).
NOTEBOOKS = {"othello": "othello_wpc_de", "sudoku": "sudoku_less_clue", "tsp": "tsp_mcts_vs_sa",
             "go": "go_state_tabu", "manyfaces": "manyfaces_knowledge"}
DOMAINS = tuple(NOTEBOOKS)


def warmup(domains=DOMAINS) -> list[str]:
    """Compile (or load from numba's cache) every domain's kernels on tiny inputs.

    Benchmarks call this first so that compile time never shows in a measurement. Each domain
    exposes ``warmup()`` in its package; the domains warmed up are returned.
    """
    done = []
    for name in domains:
        try:
            module = importlib.import_module(f"mctslab.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"mctslab.{name}":
                continue
            raise
        if hasattr(module, "warmup"):
            module.warmup()
            done.append(name)
    return done
