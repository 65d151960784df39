"""mctslab: fast kernels and paper pipelines for search and learning in games and puzzles.

Domains, one per paper: :mod:`mctslab.go` (the Go engine and the state-tabu paper),
:mod:`mctslab.sudoku`, :mod:`mctslab.tsp`, :mod:`mctslab.manyfaces` (The Many Faces of Go, on
:mod:`mctslab.go`'s board) and :mod:`mctslab.othello`; shared pieces in :mod:`mctslab.core`; the
notebooks' pipeline in :mod:`mctslab.pipeline`. See README.md and docs/ARCHITECTURE.md.

``__version__`` is the one version (``pyproject.toml`` reads it); CHANGELOG.md says how it is
bumped: the minor version whenever an output changes.
"""

__version__ = "0.9.0"

__all__ = ["__version__", "warmup"]

DOMAINS = ("othello", "sudoku", "tsp", "go", "manyfaces")


def warmup(domains=DOMAINS) -> list[str]:
    """Compile (or load from numba's cache) every domain's kernels on tiny inputs.

    Benchmarks call this first so that compile time never shows in a measurement. Each domain
    exposes ``warmup()`` in its package; the domains warmed up are returned.
    """
    import importlib

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
