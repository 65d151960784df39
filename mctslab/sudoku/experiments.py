"""The paper's protocol (Sec. 5) as tasks, at three scales, plus the baselines and extensions:
scales, ``Config``, task functions (``*_task``) and runners (``run_*``) of the notebook
``sudoku_less_clue`` (its tables are :mod:`mctslab.sudoku.tables`, its figures
:mod:`mctslab.sudoku.figures`).

Scales (``config(scale, **overrides)``):

| scale | Table 1 | Table 2 | baselines | beyond (reduction) |
|---|---|---|---|---|
| ``smoke`` | 8 variants x 1 seed x 300 playouts | 8 settings x 1 seed x 300 | 300 removals | 1 x 300 |
| ``default`` | 8 x 4 seeds x 20,000 | 8 x 4 x 20,000 | 20,000 removals | 2 x 20,000 |
| ``paper`` | 8 x 4 x 1,000,000 (the paper) | 8 x 4 x 3,000,000 (the paper) | 1,000,000 removals | 4 x 1,000,000 |

qqwing is no baseline here: it seeds itself from the clock and has no seed option, so its row
could not repeat (its recorded row: ``docs/bench/sudoku.md``).

``default`` runs in under ten minutes on two cores and therefore uses 1/50 (Table 1) and 1/150
(Table 2) of the paper's playouts per run: its counts are far smaller and are labelled with the scale everywhere.

Each (variant, seed) run is one task (:func:`generation_task`); per-task seeds are spawned from
the experiment seed (the ``Run``'s, as in every domain): Table 1's run ``i`` of variant ``v``
has the key ``(v x table1_seeds + i,)`` (:func:`~mctslab.core.tasks.keyed_tasks`), whichever
variants are chosen; the other experiments' task ``i`` has ``(i,)`` and a seed offset of its
own (Table 2 ``seed + 2``, beyond ``seed + 3``, the removal baseline ``seed + 1``).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from mctslab import data
from mctslab.core.compare import protocol_config
from mctslab.core.params import config_values, finite_number, non_default, positive_int
from mctslab.core.tasks import keyed_tasks, make_tasks, task_renamed, task_version
from mctslab.rng import seed_state
from mctslab.sudoku import _baseline, warmup
from mctslab.sudoku._playout import make_playout_scratch
from mctslab.sudoku.api import (
    canonical_forms,
    format_puzzle,
    paper_normalise,
    parse_puzzle,
    read_puzzles,
)
from mctslab.sudoku.generator import (
    GeneratorConfig,
    finds_per_part,
    generate,
    variant_name,
    verified_puzzles,
)
from mctslab.sudoku.lookup import make_tables
from mctslab.sudoku.readings import MIN_ONLY, READING_DEFAULTS, check_readings

__all__ = ["Config", "SCALES", "config", "VARIANTS", "table1_tasks", "table2_tasks", "baseline_tasks",
           "run_table1", "run_table2", "run_beyond", "run_removal",
           "beyond_tasks", "generation_task", "removal_baseline_task", "census_forms"]

# Table 1 row order of the paper: (playout, selection, rules)
VARIANTS = [(p, s, r) for p in ("reducing", "random") for s in ("min", "mean") for r in (True, False)]
BEST = ("reducing", "min", True)


VARIANT_NAMES = tuple(variant_name(*v) for v in VARIANTS)
COUNTED = (17, 18, 19, 20)   # clue numbers the tables report (the paper: 18, 19, 20)


@dataclass(frozen=True)
class Config:
    scale: str = "default"
    table1_playouts: int = 10_000
    table1_seeds: int = 4
    table2_playouts: int = 10_000
    table2_seeds: int = 4
    table2_c: tuple = (0.5, 1.0)
    table2_thresholds: tuple = (10, 20, 30, 40)
    variants: tuple = VARIANT_NAMES  # Table 1 rows run (the paper: all 8)
    c: float = 1.0                  # Table 1 (Sec. 5.1)
    exploration_n: str = "total"    # n in Eqs. 2-3: total playouts (paper's text) or "parent"
    # Readings of what the paper leaves open (GeneratorConfig documents them); a task's
    # parameters name one only when it differs from the default, so task ids (and stored
    # results) of the default reading are unchanged.
    terminal: str = "skip"
    reducing_count: str = "exclusion"
    min_of: str = "playouts"
    child_draws: str = "fill"
    exhausted: str = "keep"
    budget: str = "iterations"
    value: str = "clues"
    threshold: int = 30             # Table 1
    max_children: int = 30
    reduce_upto: int = 21           # post-hoc minimal reduction of puzzles with <= this many clues
    removal_runs: int = 10_000      # random-removal baseline runs (split into removal_tasks)
    removal_tasks: int = 2
    beyond_playouts: int = 10_000   # best variant with minimal reduction, per seed
    beyond_seeds: int = 2

    def protocol(self) -> Config:
        """The configuration whose protocol constants the paper's ``config`` targets judge
        (:func:`mctslab.core.compare.protocol_config`): this one at paper scale, else
        ``config("paper")``; the tables read it here, so they need not import this module."""
        return protocol_config(self, config)


SCALES = {
    "smoke": dict(table1_playouts=300, table1_seeds=1, table2_playouts=300, table2_seeds=1,
                  removal_runs=300, removal_tasks=1, beyond_playouts=300,
                  beyond_seeds=1),
    "default": {},
    "paper": dict(table1_playouts=1_000_000, table2_playouts=3_000_000, removal_runs=1_000_000,
                  removal_tasks=10, beyond_playouts=1_000_000,
                  beyond_seeds=4),
}


def config(scale: str = "default", **overrides) -> Config:
    """The configuration of a scale; ``None`` overrides are ignored (notebook parameters).

    Raises ``ValueError`` naming an unknown scale or parameter, or a parameter with a bad value.
    """
    values = config_values(Config, SCALES, scale, overrides, what="Sudoku parameter",
                           reals=("c", "table2_c"))  # an int literal is the same run as the float
    return _check(Config(scale=scale, **values))


def _check(cfg: Config) -> Config:
    """Every field's type and range, naming the bad parameter (a ValueError)."""
    for name in ("table1_playouts", "table1_seeds", "table2_playouts", "table2_seeds",
                 "threshold", "max_children", "removal_runs", "removal_tasks", "beyond_playouts",
                 "beyond_seeds"):
        positive_int(name, getattr(cfg, name))
    positive_int("reduce_upto", cfg.reduce_upto, minimum=0)
    if finite_number("c", cfg.c) < 0:
        raise ValueError(f"c must be >= 0, got {cfg.c!r}")
    for name in ("table2_c", "table2_thresholds", "variants"):
        if not isinstance(getattr(cfg, name), tuple) or not getattr(cfg, name):
            raise ValueError(f"{name} must be a non-empty list, got {getattr(cfg, name)!r}")
    for value in cfg.table2_c:
        if finite_number("table2_c", value) < 0:
            raise ValueError(f"table2_c must hold numbers >= 0, got {cfg.table2_c!r}")
    for value in cfg.table2_thresholds:
        positive_int("table2_thresholds", value)
    unknown = [v for v in cfg.variants if v not in VARIANT_NAMES]
    if unknown:
        raise ValueError(f"unknown variant(s) {', '.join(map(repr, unknown))} in variants; "
                         f"choose from {', '.join(VARIANT_NAMES)}")
    if len(set(cfg.variants)) != len(cfg.variants):
        raise ValueError(f"variants lists a variant twice: {cfg.variants!r}")
    if cfg.exploration_n not in ("total", "parent"):
        raise ValueError(f"exploration_n must be 'total' or 'parent', got {cfg.exploration_n!r}")
    check_readings(cfg)
    return cfg


def _generation_params(cfg, playout, selection, rules, playouts, c, threshold, seed_index):
    params = dict(playout=playout, selection=selection, rules=rules, playouts=playouts, c=c,
                  threshold=threshold, max_children=cfg.max_children,
                  exploration_n=cfg.exploration_n, reduce_upto=cfg.reduce_upto,
                  seed_index=seed_index)
    changed = non_default(cfg, READING_DEFAULTS)  # only a changed reading enters the id,
    if selection == "mean":                        # and only one that changes the search
        changed = {k: v for k, v in changed.items() if k not in MIN_ONLY}
    params.update(changed)
    return params


def table1_tasks(cfg: Config, seed: int):
    """Table 1: the variants (the paper: all 8) x seeds, ``c`` = 1.0, threshold 30 (Sec. 5.1).

    Run ``i`` of variant ``v`` (its row in the paper's order) has task index
    ``v x table1_seeds + i`` whichever variants are chosen, so a subset reuses the seeds (and
    stored results) of the full table.
    """
    chosen = [(v, variant) for v, variant in enumerate(VARIANTS)
              if VARIANT_NAMES[v] in cfg.variants]
    params = [_generation_params(cfg, p, s, r, cfg.table1_playouts, cfg.c, cfg.threshold, i)
              for _, (p, s, r) in chosen for i in range(cfg.table1_seeds)]
    keys = [(v * cfg.table1_seeds + i,) for v, _ in chosen for i in range(cfg.table1_seeds)]
    return keyed_tasks("mctslab.sudoku.experiments:generation_task", params, keys, seed)


def table2_tasks(cfg: Config, seed: int):
    """Table 2: the best variant, c x threshold x seeds (Sec. 5.2)."""
    params = [_generation_params(cfg, *BEST, cfg.table2_playouts, c, t, i)
              for c in cfg.table2_c for t in cfg.table2_thresholds
              for i in range(cfg.table2_seeds)]
    return make_tasks("mctslab.sudoku.experiments:generation_task", params, seed + 2)


def beyond_tasks(cfg: Config, seed: int):
    """The best variant with minimal reduction inside the search (backing up reduced values)."""
    params = [dict(_generation_params(cfg, *BEST, cfg.beyond_playouts, cfg.c, cfg.threshold, i),
                   backup_reduced=True) for i in range(cfg.beyond_seeds)]
    return make_tasks("mctslab.sudoku.experiments:generation_task", params, seed + 3)


def baseline_tasks(cfg: Config, seed: int):
    per_task = -(-cfg.removal_runs // cfg.removal_tasks)
    params = [dict(runs=per_task, reduce_upto=cfg.reduce_upto)] * cfg.removal_tasks
    return make_tasks("mctslab.sudoku.experiments:removal_baseline_task", params, seed + 1)


def _distinct(boards) -> dict:
    """Distinct counts per clue number: exact (canonical form) and the paper's heuristic."""
    out = {}
    clues = np.count_nonzero(boards, axis=1) if len(boards) else np.zeros(0, int)
    for n in COUNTED:
        chosen = boards[clues == n]
        distinct_boards = np.unique(chosen, axis=0) if len(chosen) else chosen  # once each
        exact = {bytes(f) for f in canonical_forms(distinct_boards)} if len(chosen) else set()
        heuristic = {bytes(paper_normalise(b)[0]) for b in distinct_boards}
        out[n] = {"count": int(len(chosen)), "distinct": len(exact),
                  "distinct_paper_heuristic": len(heuristic)}
    return out


def _summarise(boards, playout_of, cpu_seconds, max_list=18) -> dict:
    """Counts, distinct counts and the listed (<= max_list clues) puzzles of verified boards."""
    clues = np.count_nonzero(boards, axis=1) if len(boards) else np.zeros(0, int)
    listed = [(format_puzzle(b), int(n), int(i)) for b, n, i in zip(boards, clues, playout_of)
              if n <= max_list]
    forms = canonical_forms(boards[clues <= max_list]) if len(listed) else []
    return {"distinct": _distinct(boards), "cpu_seconds": cpu_seconds,
            "puzzles": [dict(puzzle=p, clues=n, playout=i, canonical=format_puzzle(f))
                        for (p, n, i), f in zip(listed, forms)]}


def _boards(puzzles):
    return (np.array([parse_puzzle(p) for p, _, _ in puzzles], np.uint8).reshape(-1, 81),
            np.array([i for _, _, i in puzzles], np.int64))


# 2 (112e98d): raw / reduced hold only python-sat re-verified puzzles, verify_failed_reduced added
@task_version("2")
@task_renamed("mctslab.sudoku.experiments:run_generation")  # stored task ids hash this name
def generation_task(params: dict, seed) -> dict:
    """Task: one MCTS run, its verified counts, and the post-hoc minimal reductions.

    ``raw`` and ``reduced`` hold only puzzles the other backend (python-sat) re-verified unique,
    each distinct board checked once; the tables count from them. ``histogram`` and
    ``reduced_histogram`` count every puzzle the search (or reduction) produced, before that
    re-check, at every clue number: they feed the mean clue count and the histogram figure only.
    Disagreements are counted in ``stats["verify_failed"]`` / ``stats["verify_failed_reduced"]``.
    """
    warmup()
    params = dict(params)
    seed_index = int(params.pop("seed_index", 0))
    reduce_upto = int(params.pop("reduce_upto", 0))
    backup_reduced = bool(params.pop("backup_reduced", False))
    gen = GeneratorConfig.from_dict(dict(
        params, record_max_clues=max(20, reduce_upto), verify_max_clues=20,
        reduce_max_clues=81 if backup_reduced else 0, backup_reduced=backup_reduced))
    streams = np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key).spawn(2)
    result = generate(gen, streams[0])
    start = time.process_time()
    raw = _summarise(*_boards(result.puzzles), result.cpu_seconds)
    canon_seconds = time.process_time() - start
    reduced_hist = result.reduced_histogram.copy()
    start = time.process_time()
    boards = result.boards.copy()
    if not backup_reduced and len(boards):  # post-hoc reduction (beyond the paper)
        kept = np.zeros(len(boards), np.int64)
        _baseline.reduce_many(boards, kept, seed_state(streams[1]), make_tables(),
                              make_playout_scratch())
        reduced_hist = np.bincount(kept, minlength=82).astype(np.int64)
    info = {}
    reduced_source = (_boards(result.reduced_puzzles) if backup_reduced else
                      _boards(verified_puzzles(boards, result.playout_of, "sat", info,
                                               "verify_failed_reduced", 20)))
    reduce_seconds = time.process_time() - start
    # when each verified find happened, per tenth of the run (a field added after task version
    # 2: results stored before it lack it, and results.finds_per_tenth skips them)
    tenths = finds_per_part([i for _, _, i in result.puzzles], [n for _, n, _ in result.puzzles],
                            gen.playouts, COUNTED)
    return {"config": dataclasses.asdict(gen), "variant": gen.variant, "seed_index": seed_index,
            "finds_per_tenth": {str(n): counts for n, counts in tenths.items()},
            "histogram": result.histogram, "reduced_histogram": reduced_hist,
            "raw": raw, "reduced": _summarise(*reduced_source, reduce_seconds),
            "wall_seconds": result.wall_seconds, "cpu_seconds": result.cpu_seconds,
            "verify_cpu_seconds": result.stats.get("verify_cpu_seconds", 0.0),
            "canonical_cpu_seconds": canon_seconds, "stats": {**result.stats, **info}}


@task_renamed("mctslab.sudoku.experiments:run_removal_baseline")  # stored task ids hash this name
def removal_baseline_task(params: dict, seed) -> dict:
    """Task: random clue removal from random full grids (the baseline MCTS is compared with)."""
    runs = int(params["runs"])
    warmup()
    histogram = np.zeros(82, np.int64)
    boards = np.zeros((min(runs, 200_000), 81), np.uint8)
    counts = np.zeros(1, np.int64)
    start = time.process_time()
    _baseline.removal_baseline(runs, histogram, boards, 20, counts, seed_state(seed),
                               make_tables(), make_playout_scratch(), np.zeros(81, np.uint8))
    cpu = time.process_time() - start
    stored = boards[:min(int(counts[0]), len(boards))]
    info = {}
    verified = verified_puzzles(stored, np.zeros(len(stored), np.int64), "sat", info, "failed", 20)
    return {"runs": runs, "histogram": histogram, "cpu_seconds": cpu,
            "raw": _summarise(*_boards(verified), cpu), "stats": info}


@lru_cache(maxsize=2)
def census_forms(relpath: str | None = None) -> tuple[frozenset, str]:
    """The census the finds are checked against (``tables.finds(..., census=)``): the exact
    canonical forms of the known 17-clue puzzles and a label saying which list it is.

    ``relpath`` (a list of the data folder) when given and found, else Royle's full list
    (``sudoku/sudoku17.txt``, 49,151 puzzles) when the data lookup finds it, else the 2,000-puzzle
    sample (then "not in sample" does not mean new), else none
    (:data:`mctslab.sudoku.tables.NO_CENSUS`).
    """
    for name, label in ((relpath, "given list"), ("sudoku/sudoku17.txt", "Royle 49,151"),
                        ("sudoku/sudoku17-sample.txt", "Royle sample of 2,000")):
        if name and data.available(name):
            boards, _, _ = read_puzzles(data.find(name))
            return frozenset(bytes(f) for f in canonical_forms(boards)), label
    return frozenset(), "no census available"


# -- running through a notebook's Run (one call per experiment) ------------------------------

def run_table1(run, cfg: Config):
    """Table 1's runs through the executor (stored, resumable); results in task order."""
    return run.map("sudoku_table1", table1_tasks(cfg, run.seed))


def run_table2(run, cfg: Config):
    """Table 2's runs (the best variant, c x threshold x seeds); results in task order."""
    return run.map("sudoku_table2", table2_tasks(cfg, run.seed))


def run_beyond(run, cfg: Config):
    """The best variant with minimal reduction inside the search; results in task order."""
    return run.map("sudoku_beyond", beyond_tasks(cfg, run.seed))


def run_removal(run, cfg: Config):
    """The random clue-removal baseline's tasks; results in task order."""
    return run.map("sudoku_removal_baseline", baseline_tasks(cfg, run.seed))
