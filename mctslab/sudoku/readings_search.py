"""The search over readings of the generator: its design, its tasks, its per-seed counts.

What the paper's Figs. 5-6 and text leave open is listed in ``docs/papers/sudoku-less-clue.md``
(section "The space of readings"); each implementable choice is an option of the generator
(:mod:`mctslab.sudoku.readings`, plus ``exploration_n`` and ``c``). The search screens a
fractional factorial of them (:func:`design`), all 8 Table 1 variants x 4 seeds per reading at
a screening budget, scores each with :mod:`mctslab.sudoku.readings_score`, then runs the best
ones further (Table 2 at the screening scale; Table 1 and 2 at the paper's). Its phases:

1. ``screen``: every reading of :func:`design`, Table 1 at ``budget`` playouts per run;
2. ``table2``: the best readings (:func:`best_readings`), Table 2 at 3 x ``budget``;
3. ``paper1`` / ``paper2``: the best readings, Table 1 at 1,000,000 and Table 2 at 3,000,000.

Tasks are the notebook's own (``experiments.table1_tasks`` / ``table2_tasks``, experiment
seed 20261122, so run ``i`` of a variant has the same seed under every reading) and go
through ``core.executor.run_tasks``: stored as they finish, resumed when run again.
"""

from __future__ import annotations

import itertools

import pandas as pd

from mctslab.sudoku import experiments, readings
from mctslab.sudoku.generator import variant_name
from mctslab.sudoku.readings import READING_DEFAULTS, READINGS
from mctslab.sudoku.readings_score import (
    table1_claims,
    table1_distance,
    table2_claims,
    table2_distance,
)

__all__ = ["SEED", "SHARED", "MIN_ONLY", "FACTORS", "COUNTS", "design", "reading_label", "reading_config",
           "table1_tasks", "table2_tasks", "run_counts", "scores", "table2_scores",
           "best_readings"]

SEED = 20261122                       # the notebook's experiment seed
# The factors screened (first level: today's reading). Seven change both selections: the
# terminal reading, how candidate-reducing counts, how children are drawn, the budget's unit,
# the value, n in Eqs. 2-3 and Table 1's c (c = k is the same search as values in units of
# 1/k clue: the value's scale). Two change min selection only, and leave a mean run as it is:
# min_of and exhausted.
SHARED = {"c": (1.0, 1.5), "terminal": ("skip", "revisit"),
          "reducing_count": ("exclusion", "rules"), "exploration_n": ("total", "parent"),
          "child_draws": ("fill", "fixed"), "budget": ("iterations", "playouts"),
          "value": ("clues", "filled")}
MIN_ONLY = {name: READINGS[name] for name in readings.MIN_ONLY}
FACTORS = {**SHARED, **MIN_ONLY}
DEFAULTS = {name: levels[0] for name, levels in FACTORS.items()}
# The 2^(7-4) fraction of the shared factors (resolution III: main effects clear of each other,
# aliased with two-factor interactions): the first three are a full factorial, the other four
# the sums mod 2 of (1, 2), (1, 3), (2, 3) and (1, 2, 3), so run 0 is every factor's default.
GENERATORS = ((0,), (1,), (2,), (0, 1), (0, 2), (1, 2), (0, 1, 2))
TABLE1_CLAIMS = ("min > mean", "reducing > random", "rules help")
TABLE2_CLAIMS = ("c = 1.0 > 0.5", "threshold does not matter")
COUNTS = ("all", "distinct")          # what Table 1 counts: every board, or distinct boards
BEST = 3                              # readings run further


def design() -> list[dict]:
    """The readings screened: the 8 runs of the 2^(7-4) fraction of :data:`SHARED`, each crossed
    with the 4 combinations of :data:`MIN_ONLY` (32 readings); reading 0 is today's."""
    readings = []
    for base in itertools.product((0, 1), repeat=3):
        shared = {name: levels[sum(base[i] for i in generator) % 2]
                  for (name, levels), generator in zip(SHARED.items(), GENERATORS)}
        for only in itertools.product(*MIN_ONLY.values()):
            readings.append({**shared, **dict(zip(MIN_ONLY, only))})
    return readings


def reading_label(reading: dict) -> str:
    """The options of ``reading`` that differ from their defaults (``"default"`` if none)."""
    changed = [f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
               for k, v in reading.items() if v != DEFAULTS[k]]
    return ", ".join(changed) or "default"


def reading_config(reading: dict, **overrides) -> experiments.Config:
    """The notebook's paper-scale configuration under ``reading`` (Table 2's c values being
    0.5 c and c), with ``overrides``."""
    c = float(reading["c"])
    options = {k: reading[k] for k in (*READING_DEFAULTS, "exploration_n")}
    return experiments.config("paper", c=c, table2_c=(0.5 * c, c), **options, **overrides)


def table1_tasks(readings: list[dict], playouts: int):
    """Table 1's 8 variants x 4 seeds under each reading, at ``playouts`` per run; returns
    (tasks, one (reading index, variant, seed index) per task). A mean variant's task names
    none of :data:`MIN_ONLY` (``experiments.table1_tasks``), so readings that differ in those
    only share it (stored and run once)."""
    tasks, keys = [], []
    for r, reading in enumerate(readings):
        cfg = reading_config(reading, table1_playouts=playouts)
        for task in experiments.table1_tasks(cfg, SEED):
            tasks.append(task)
            keys.append((r, _variant(task.params), int(task.params["seed_index"])))
    return tasks, keys


def table2_tasks(readings: list[dict], playouts: int):
    """Table 2's grid (c in {0.5 c, c} x thresholds 10-40) x 4 seeds under each reading;
    returns (tasks, one (reading index, c, threshold, seed index) per task)."""
    tasks, keys = [], []
    for r, reading in enumerate(readings):
        cfg = reading_config(reading, table2_playouts=playouts)
        for task in experiments.table2_tasks(cfg, SEED):
            tasks.append(task)
            keys.append((r, float(task.params["c"]), int(task.params["threshold"]),
                         int(task.params["seed_index"])))
    return tasks, keys


def _variant(params: dict) -> str:
    return variant_name(params["playout"], params["selection"], params["rules"])


def run_counts(results: dict, tasks, keys, names=("reading", "variant", "seed")) -> pd.DataFrame:
    """One row per stored run: ``names`` from ``keys``, ``N=17..20`` (every board generated)
    and ``distinct N=17..20`` (exact canonical forms), ``cpu_seconds`` (the task's), ``task``
    (its id: a run shared by readings is one task) and ``playouts``. ``results`` maps task id -> stored result; runs not stored are left out."""
    rows = []
    for task, key in zip(tasks, keys):
        result = results.get(task.id)
        if result is None:
            continue
        counts = result["raw"]["distinct"]
        row = dict(zip(names, key))
        for n in experiments.COUNTED:
            row[f"N={n}"] = int(counts[str(n)]["count"])
            row[f"distinct N={n}"] = int(counts[str(n)]["distinct"])
        row["cpu_seconds"] = float(result["cpu_seconds"])
        row["task"] = task.id
        row["playouts"] = int(task.params["playouts"])
        rows.append(row)
    return pd.DataFrame(rows)


def _counted(counts: pd.DataFrame, mode: str) -> pd.DataFrame:
    """``counts`` with ``N=..`` holding what Table 1 counts under ``mode`` (:data:`COUNTS`)."""
    if mode == "all":
        return counts
    out = counts.copy()
    for n in experiments.COUNTED:
        out[f"N={n}"] = out[f"distinct N={n}"]
    return out


def scores(readings: list[dict], counts: pd.DataFrame, playouts: int) -> pd.DataFrame:
    """One row per reading and count mode: its label, runs stored, the 24-cell distance
    (:func:`~mctslab.sudoku.readings_score.table1_distance`, NaN until all 32 runs are in),
    cells within a factor 2, the three Table 1 claims' verdicts and the CPU seconds."""
    rows = []
    for r, reading in enumerate(readings):
        mine = counts[counts["reading"] == r] if len(counts) else counts
        for mode in COUNTS:
            row = {"reading": r, "label": reading_label(reading), "counts": mode,
                   "runs": len(mine), "cpu_seconds": float(mine["cpu_seconds"].sum())
                   if len(mine) else 0.0}
            complete = len(mine) == 32
            row.update(table1_distance(_counted(mine, mode), playouts) if complete else
                       {"distance": float("nan"), "near": 0, "within margin": 0,
                         "cells": 0})
            verdicts = (table1_claims(_counted(mine, mode)).itertuples() if complete else ())
            row.update({claim: "not run" for claim in TABLE1_CLAIMS})
            for claim in verdicts:
                row[claim.claim] = claim.verdict
            rows.append(row)
    return pd.DataFrame(rows)


def table2_scores(counts: pd.DataFrame, playouts: int, readings: list[int]) -> pd.DataFrame:
    """Table 2 of the best readings scored as :func:`scores` scores Table 1: one row per
    reading (``rank`` in ``counts``, its search index from ``readings``) and count mode, with
    the 24-cell distance (:func:`~mctslab.sudoku.readings_score.table2_distance`, scaled from
    ``playouts`` to the paper's 3,000,000; NaN until all 32 runs are in), cells within a factor
    2 and within the targets' margins, the two Table 2 claims' verdicts and the CPU seconds."""
    rows = []
    for rank, reading in enumerate(readings):
        mine = counts[counts["rank"] == rank] if len(counts) else counts
        for mode in COUNTS:
            row = {"rank": rank, "reading": reading, "counts": mode, "runs": len(mine),
                   "cpu_seconds": float(mine["cpu_seconds"].sum()) if len(mine) else 0.0}
            complete = len(mine) == 32
            row.update(table2_distance(_counted(mine, mode), playouts) if complete else
                       {"distance": float("nan"), "near": 0, "within margin": 0, "cells": 0})
            row.update({claim: "not run" for claim in TABLE2_CLAIMS})
            if complete:
                for claim in table2_claims(_counted(mine, mode)).itertuples():
                    row[claim.claim] = claim.verdict
            rows.append(row)
    return pd.DataFrame(rows)


def best_readings(table: pd.DataFrame, k: int = BEST) -> list[int]:
    """The ``k`` readings with the smallest distance (over either count mode), best first;
    ties by reading index. Only readings with all runs stored are ranked."""
    done = table.dropna(subset=["distance"])
    best = done.groupby("reading")["distance"].min().sort_values(kind="stable")
    return [int(r) for r in best.index[:k]]
