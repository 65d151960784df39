"""LKH-3 through the ``elkai`` package: the reference a practitioner would use (beyond the paper).

elkai's public classes only expose ``runs``; a seed, a trial limit and a time limit (needed to
keep d15112 within minutes) are LKH parameters, so this module hands LKH its parameter and
problem texts through ``elkai._elkai.solve_problem(params, problem)`` - the function elkai's own
``DistanceMatrix.solve_tsp`` calls. That is private API, so pyproject.toml pins elkai exactly
(2.0.1) and ``tests/tsp/test_baselines.py`` checks the call (parameters honoured, tour returned);
if another elkai drops it, :func:`lkh` says so.

LKH solves the closed **tour** (the problem TSPLIB's optima refer to). The Hamiltonian path
reported is that tour minus its longest edge. That is a valid path and usually close to the best
path, but not necessarily the shortest one. LKH-3's own path type (``TYPE : HPP``) crashes
elkai 2.0.1 (``malloc(): invalid size``), and a dummy city needs an explicit (n+1)^2 matrix,
which is too large to pass as text for d15112.
"""

from __future__ import annotations

import time

import numpy as np

from mctslab.tsp import _distance
from mctslab.tsp.api import SolveResult, check_path
from mctslab.tsp.tsplib import Instance

__all__ = ["lkh"]


def _solver():
    try:
        from elkai import _elkai
    except ImportError as exc:  # pragma: no cover - elkai is a dependency
        raise RuntimeError("method 'lkh' needs the elkai package (pip install elkai)") from exc
    if not hasattr(_elkai, "solve_problem"):  # pragma: no cover
        raise RuntimeError("this elkai version has no _elkai.solve_problem; mctslab.tsp.lkh "
                           "needs elkai 2.0.1")
    return _elkai.solve_problem


def problem_text(instance: Instance) -> str:
    """The instance as a TSPLIB problem for LKH (coordinates as in the file, or a full matrix)."""
    lines = [f"NAME : {instance.name}", "TYPE : TSP", f"DIMENSION : {instance.dimension}"]
    if instance.metric == _distance.EXPLICIT:
        lines += ["EDGE_WEIGHT_TYPE : EXPLICIT", "EDGE_WEIGHT_FORMAT : FULL_MATRIX",
                  "EDGE_WEIGHT_SECTION"]
        lines += [" ".join(str(int(v)) for v in row) for row in instance.matrix]
    else:
        lines += [f"EDGE_WEIGHT_TYPE : {instance.edge_weight_type}", "NODE_COORD_SECTION"]
        lines += [f"{k + 1} {x!r} {y!r}" for k, (x, y) in enumerate(instance.coords.tolist())]
    lines.append("EOF")
    return "\n".join(lines) + "\n"


def lkh(instance: Instance, seed: int = 1, *, runs: int = 1, max_trials: int | None = None,
        time_limit: float | None = None, popmusic_above: int | None = 5000) -> SolveResult:
    """LKH-3 (elkai) on the closed tour; the path is that tour minus its longest edge.

    ``max_trials`` defaults to LKH's own (n); ``time_limit`` (seconds) bounds LKH's search after
    its preprocessing (LKH's TIME_LIMIT). Above ``popmusic_above`` cities the candidate edges
    come from POPMUSIC instead of LKH's default alpha-nearness, whose subgradient ascent is
    O(n^2) per iteration (many minutes on d15112).
    """
    n = instance.dimension
    if n < 3:
        raise ValueError("method 'lkh' needs at least 3 cities (LKH solves tours)")
    solve = _solver()
    params = ["PROBLEM_FILE = :stdin:", f"RUNS = {int(runs)}", f"SEED = {int(seed)}",
              "TRACE_LEVEL = 0"]
    if max_trials is not None:
        params.append(f"MAX_TRIALS = {int(max_trials)}")
    if time_limit is not None:
        params.append(f"TIME_LIMIT = {float(time_limit)}")
    if popmusic_above is not None and n > popmusic_above:
        params.append("CANDIDATE_SET_TYPE = POPMUSIC")
    text = problem_text(instance)
    start = time.perf_counter()
    tour = np.asarray(solve("\n".join(params) + "\n", text), dtype=np.int32) - 1
    seconds = time.perf_counter() - start
    tour = check_path(instance, tour)
    closed = float(_distance.tour_length(*instance.arrays, tour))
    cut = int(_distance.longest_edge_position(*instance.arrays, tour))
    path = np.ascontiguousarray(np.roll(tour, -(cut + 1)))
    length = float(_distance.path_length(*instance.arrays, path))
    return SolveResult(method="lkh", instance=instance.name, n=n, path=path, length=length,
                       tour_length=closed, seconds=seconds,
                       details={"lkh_tour_length": closed, "runs": runs, "max_trials": max_trials,
                                "time_limit": time_limit,
                                "popmusic": popmusic_above is not None and n > popmusic_above})
