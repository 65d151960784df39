"""Task ids recorded before the domains shared their pieces, and a stand-in ``Run`` that records
the ids a notebook run asks for, so that a refactor is seen to keep every task id.

``tests/fixtures/task_ids.json`` holds, per domain, scale and experiment, the ids (smoke: the
list; every scale: count and SHA-256 of the ordered list) of the task lists each notebook's
calls build at the notebook's seed, computed by the code of main at 0a042bf; the Many Faces
strength matches (``manyfaces_strength_*``) were re-recorded when the Go paper-engine work put
every Go match on one game loop and one game task (``mctslab.go.match.game_task``, other
parameters: those stored games are played again once). The default scale's entries of
Sudoku, TSP, Othello and Many Faces were re-recorded on 2026-11-26 when the default scale was made
cheaper (fewer playouts, a shorter speed-up horizon, fewer repetitions and strength games:
the other experiments' ids, and the first tasks of a shortened list, are unchanged); Othello's
learning ids (and the learning results of ``othello_smoke_store``) when ``learning_task`` became
version 2 (fresh games against the replaced opponent; the learning itself is
unchanged). Go's ids (``go``, at the Go notebook's seed 20261123) were recorded by the code
of main at a38d89c (they had not been pinned before); the smoke ids equal those a
smoke run of the notebook stored. A stored result
is found by its id, so equal ids mean a recorded result store reads back with nothing re-run.

Stages that need results (Othello's evaluations of the learned WPCs) read them from
``tests/fixtures/othello_smoke_store`` (the smoke run's learning results and learner-size
evaluations, as stored then); without results :class:`Recorder` returns empty lists (or, for
matches, lost games) and the domain code builds the task lists that depend on no result.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
RECORDED = json.loads((FIXTURES / "task_ids.json").read_text())
OTHELLO_STORE = FIXTURES / "othello_smoke_store"
SEED = 20261122  # every notebook's default seed but Go's


class Results(list):
    """What ``Run.map`` returns, as far as the domains read it."""

    ran = 0


class Recorder:
    """A stand-in for :class:`mctslab.core.report.Run`: records the ids each experiment's
    tasks would have, runs nothing."""

    def __init__(self, seed: int = SEED, store: Path | None = None):
        self.seed = seed
        self.store = store
        self.tasks: dict[str, list[str]] = {}

    def map(self, experiment, tasks):
        self.tasks.setdefault(experiment, []).extend(t.id for t in tasks)
        path = self.store / experiment / "results.jsonl" if self.store else None
        if path is not None and path.exists():
            stored = {}
            for line in path.read_text().splitlines():
                record = json.loads(line)
                stored[record["id"]] = record["result"]
            if all(t.id in stored for t in tasks):
                return Results(stored[t.id] for t in tasks)
        if experiment.startswith("manyfaces_strength"):
            return Results({"candidate_won": False, "moves": 0, "margin": None, "sgf": ""}
                           for _ in tasks)
        return Results()


def attempt(fn, *args):
    """``fn(*args)``; a table step failing on the recorder's empty results is expected."""
    try:
        return fn(*args)
    except (KeyError, ValueError, IndexError, AttributeError, TypeError, ZeroDivisionError):
        return None


def check(domain: str, scale: str, recorded_by_experiment: dict[str, list[str]]) -> None:
    """Every experiment's ids as recorded before the refactor (same order, same count)."""
    expected = RECORDED[domain][scale]
    assert sorted(recorded_by_experiment) == sorted(expected), (domain, scale)
    for experiment, ids in recorded_by_experiment.items():
        want = expected[experiment]
        if "ids" in want:
            assert ids == want["ids"], (domain, scale, experiment)
        assert len(ids) == want["count"], (domain, scale, experiment)
        digest = hashlib.sha256("\n".join(ids).encode()).hexdigest()
        assert digest == want["sha256"], (domain, scale, experiment)
