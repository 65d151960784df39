"""Running the MCTS generator (paper Sec. 4-5): configuration, one run, its verified result.

:func:`generate` validates a :class:`GeneratorConfig`, allocates the tree/DAG and record
buffers once, runs ``_search.search`` and returns a :class:`GenerationResult`:

- ``histogram[k]``: puzzles generated with ``k`` clues (one per playout, plus terminal children
  the first time they are selected; every time with ``terminal="revisit"`` or ``"expand"``);
- ``puzzles``: every generated puzzle with at most ``record_max_clues`` clues, with the playout
  number that produced it, each re-verified unique by the *other* backend (python-sat, since
  the playouts use the fast one) before it is counted;
- the same for minimal reductions when ``reduce_max_clues`` is on (beyond the paper);
- wall and CPU seconds, tree size, and whether a buffer or the tree filled up.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from mctslab.core.params import from_mapping
from mctslab.core.tree import make_tree
from mctslab.rng import seed_state
from mctslab.sudoku import _search
from mctslab.sudoku._playout import make_playout_scratch
from mctslab.sudoku.api import format_puzzle
from mctslab.sudoku.lookup import make_tables
from mctslab.sudoku.readings import (
    BUDGETS,
    CHILD_DRAWS,
    EXHAUSTED,
    MIN_OF,
    READINGS,
    REDUCING_COUNTS,
    TERMINALS,
    VALUES,
    check_readings,
)
from mctslab.sudoku.sat import SatSudoku

__all__ = ["GeneratorConfig", "variant_name", "GenerationResult", "generate", "verified_puzzles",
           "finds_per_part", "SELECTIONS", "PLAYOUTS", "READINGS"]

SELECTIONS = ("min", "mean")
PLAYOUTS = ("reducing", "random")


def variant_name(playout: str, selection: str, rules: bool) -> str:
    """``"reducing/min/rules"``: the name of a paper variant (a Table 1 row)."""
    return f"{playout}/{selection}/{'rules' if rules else 'no-rules'}"


@dataclass(frozen=True)
class GeneratorConfig:
    """One MCTS generation run; defaults are the paper's Table 1 settings (Sec. 5.1)."""

    selection: str = "min"          # "min": min(X_j) - c sqrt(...) (Eq. 3); "mean": Eq. 2
    playout: str = "reducing"       # "reducing": best of 3 draws; "random": fully random
    rules: bool = True              # apply solveByRule before each hint
    playouts: int = 1_000_000       # number of playouts (the paper: 1,000,000 or 3,000,000)
    c: float = 1.0                  # exploration constant of Eqs. 2-3
    threshold: int = 30             # playouts at a leaf before it is expanded
    exploration_n: str = "total"    # n in Eqs. 2-3: "total" playouts (the paper's text), "parent"
    max_children: int = 30          # children per expansion (the paper: 30)
    record_max_clues: int = 20      # store puzzles with at most this many clues
    verify_max_clues: int = 20      # re-verify (and list) stored puzzles with at most this many
    reduce_max_clues: int = 0       # >0: reduce results with <= this many clues to minimal
    backup_reduced: bool = False    # back up the reduced clue count instead (not the paper)
    max_nodes: int = 0              # DAG node budget; 0 = enough for the run (capped at 8M)
    verify_backend: str = "sat"     # re-verify recorded puzzles with this backend ("none": skip)
    # Readings of choices the paper leaves open (the defaults are our original ones):
    # terminal: a finished (unique) board in the DAG is "skip": counted on its first selection,
    #   then never selected again; "revisit": selectable forever, every selection backs up and
    #   counts it again (Fig. 5/6 literally: a playout of a unique board returns it); "expand":
    #   as revisit, and expanded at the threshold like any leaf (children: unique supersets).
    terminal: str = "skip"
    # reducing_count: candidate-reducing playouts count the candidates left by "exclusion"
    #   (placing the digit, basic exclusion) or by "rules" (placing it, then the rules; only
    #   when rules are on).
    reducing_count: str = "exclusion"
    # min_of: X_j of "min" selection is the smallest value backed up through node j
    #   ("playouts") or the smallest value among j's visited children, a leaf's being the mean
    #   of its playouts ("children").
    min_of: str = "playouts"
    # child_draws: expansion redraws after a hint without solution or a duplicate child until
    #   it has max_children children (at most 3 x max_children draws, "fill"), or makes exactly
    #   max_children draws and drops those ("fixed").
    child_draws: str = "fill"
    # exhausted: a finished puzzle counted once (terminal "skip") is exhausted, and so is a node
    #   whose children all are; "keep": the values backed up through them stay in their
    #   ancestors' minima (our original reading: a sibling whose min is a few clues worse can
    #   never catch up); "drop": exhausted children no longer count in the children-min, and
    #   the path's minima are recomputed from the live children when a node is exhausted.
    exhausted: str = "keep"
    # budget: what the playout budget counts: every "iterations" of Fig. 5's loop (a finished
    #   puzzle selected backs up its clue count and uses one), or only "playouts" actually run
    #   (Fig. 6 from an unfinished board; at most 20 x playouts iterations in all).
    budget: str = "iterations"
    # value: what a backed-up value counts: the "clues" (footnote 1: digits the rules fix are
    #   not clues), or "filled": the clues plus the cells the final candidate state has decided
    #   (the rules' digits; without rules, exclusion's singles). Table counts stay in clues.
    value: str = "clues"

    def __post_init__(self):
        if self.selection not in SELECTIONS:
            raise ValueError(f"unknown selection {self.selection!r}; choose min or mean")
        if self.playout not in PLAYOUTS:
            raise ValueError(f"unknown playout {self.playout!r}; choose reducing or random")
        for name in ("playouts", "threshold", "max_children"):
            if int(getattr(self, name)) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)!r}")
        if not self.c >= 0:
            raise ValueError(f"c must be >= 0, got {self.c!r}")
        if not 17 <= self.record_max_clues <= 81:
            raise ValueError(f"record_max_clues must be in 17..81, got {self.record_max_clues}")
        if not 17 <= self.verify_max_clues <= self.record_max_clues:
            raise ValueError("verify_max_clues must be in 17..record_max_clues, got "
                             f"{self.verify_max_clues}")
        if not 0 <= self.reduce_max_clues <= 81:
            raise ValueError(f"reduce_max_clues must be in 0..81, got {self.reduce_max_clues}")
        if self.exploration_n not in ("total", "parent"):
            raise ValueError(f"exploration_n must be 'total' or 'parent', got {self.exploration_n!r}")
        check_readings(self)
        if self.verify_backend not in ("sat", "none"):
            raise ValueError(f"verify_backend must be 'sat' or 'none', got {self.verify_backend!r}")

    @classmethod
    def from_dict(cls, params: dict) -> GeneratorConfig:
        return from_mapping(cls, params, "generator parameter")

    @property
    def variant(self) -> str:
        return variant_name(self.playout, self.selection, self.rules)


    def node_budget(self) -> int:
        if self.max_nodes:
            return int(self.max_nodes)
        bound = self.max_children * (self.playouts // self.threshold + 2) + 1
        return int(min(bound, 8_000_000))


@dataclass
class GenerationResult:
    config: GeneratorConfig
    histogram: np.ndarray                 # int64[82]
    reduced_histogram: np.ndarray         # int64[82]
    puzzles: list[tuple[str, int, int]]   # (81-char puzzle, clues, playout number), verified
    reduced_puzzles: list[tuple[str, int, int]]
    boards: np.ndarray                    # uint8[R, 81] every stored puzzle (<= record_max_clues)
    playout_of: np.ndarray                # int64[R]
    wall_seconds: float
    cpu_seconds: float
    stats: dict = field(default_factory=dict)

    def count(self, clues: int, reduced: bool = False) -> int:
        hist = self.reduced_histogram if reduced else self.histogram
        return int(hist[clues])


def finds_per_part(playout_of, clues, playouts: int, clue_numbers=(17, 18, 19, 20),
                   parts: int = 10) -> dict[int, list[int]]:
    """When the finds happened: for each number of clues in ``clue_numbers``, how many of the
    puzzles (``clues[i]`` clues, produced at playout number ``playout_of[i]``, 0-based) fall in
    each of ``parts`` equal parts of a run of ``playouts`` playouts (a search that stalls finds
    everything early; the paper's N=20 count grows about linearly with the budget).
    """
    if playouts < 1 or parts < 1:
        raise ValueError(f"playouts and parts must be >= 1, got {playouts}, {parts}")
    playout_of = np.asarray(playout_of, np.int64)
    clues = np.asarray(clues, np.int64)
    if playout_of.shape != clues.shape:
        raise ValueError("playout_of and clues must have the same length")
    part = np.minimum(playout_of * parts // playouts, parts - 1)
    return {int(n): np.bincount(part[clues == n], minlength=parts).astype(int).tolist()
            for n in clue_numbers}


def verified_puzzles(boards, playout_of, backend, stats, key, max_clues=81):
    """Puzzle lines of the recorded boards with at most ``max_clues`` clues, each re-checked
    unique by the other backend (python-sat); disagreements are counted in ``stats[key]``.

    Repeated boards (common: a search revisits its best region) are checked once.
    """
    keep = np.count_nonzero(boards, axis=1) <= max_clues
    boards, playout_of = boards[keep], playout_of[keep]
    if len(boards) == 0:
        stats[key] = 0
        return []
    unique, inverse = np.unique(boards, axis=0, return_inverse=True)
    ok = np.ones(len(unique), bool)
    if backend == "sat":
        solver = SatSudoku()
        try:
            for i, board in enumerate(unique):
                ok[i] = solver.check(board)[0] == 1
        finally:
            solver.close()
    good = ok[inverse.reshape(-1)]
    stats[key] = int(np.sum(~good))  # the two backends disagree: not counted
    return [(format_puzzle(board), int(np.count_nonzero(board)), int(index))
            for board, index in zip(boards[good], playout_of[good])]


def kernel_settings(config: GeneratorConfig) -> _search.Settings:
    """The :class:`~mctslab.sudoku._search.Settings` of ``_search.search``."""
    return _search.Settings(
        playouts=int(config.playouts), threshold=int(config.threshold),
        max_children=int(config.max_children), use_min=config.selection == "min",
        reducing=config.playout == "reducing", rules=bool(config.rules),
        record_max_clues=int(config.record_max_clues),
        reduce_max_clues=int(config.reduce_max_clues),
        backup_reduced=bool(config.backup_reduced), total_n=config.exploration_n == "total",
        terminal=TERMINALS.index(config.terminal),
        hint_count=REDUCING_COUNTS.index(config.reducing_count),
        min_of=MIN_OF.index(config.min_of), child_draws=CHILD_DRAWS.index(config.child_draws),
        exhausted=EXHAUSTED.index(config.exhausted), c=float(config.c),
        budget=BUDGETS.index(config.budget), value=VALUES.index(config.value))


# Most puzzles with <= record_max_clues clues one run keeps (a puzzle per playout at most): the
# paper's 3,000,000 playouts fit (243 MB of boards). A longer run that fills it stops keeping
# puzzles and says so in ``stats["records_overflowed"]`` (the tables count such runs).
RECORD_CAPACITY = 4_000_000


def generate(config: GeneratorConfig, seed=None) -> GenerationResult:
    """Run one MCTS generation (one (variant, seed) cell of Table 1 or 2)."""
    nodes = config.node_budget()
    tree = make_tree(nodes, 2 * nodes)
    dag = _search.make_dag(nodes)
    capacity = int(min(config.playouts + 64, RECORD_CAPACITY))
    rec = _search.make_records(capacity, capacity if config.reduce_max_clues else 1)
    settings = kernel_settings(config)
    work = np.zeros((6, 81), np.uint8)
    stats = np.zeros(6, np.int64)
    wall, cpu = time.perf_counter(), time.process_time()
    _search.search(tree, dag, rec, settings, seed_state(seed), make_tables(),
                          make_playout_scratch(), work, np.zeros(84, np.int64),
                          np.zeros(config.max_children, np.int32),
                          np.zeros(config.max_children, np.int32), stats)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    info = {"playouts": int(stats[0]), "expansions": int(stats[1]), "nodes": int(stats[2]),
            "edges": int(stats[3]), "records_overflowed": bool(stats[4]),
            "tree_full": bool(stats[5]), "node_budget": nodes}
    stored, stored_reduced = (min(int(n), capacity) for n in rec.counts)
    verify = time.process_time()
    puzzles = verified_puzzles(rec.boards[:stored], rec.playout_of[:stored],
                               config.verify_backend, info, "verify_failed",
                               config.verify_max_clues)
    reduced = verified_puzzles(rec.reduced_boards[:stored_reduced],
                               rec.reduced_playout_of[:stored_reduced], config.verify_backend,
                               info, "verify_failed_reduced", config.verify_max_clues)
    info["verify_cpu_seconds"] = time.process_time() - verify
    return GenerationResult(config, rec.histogram.copy(), rec.reduced_histogram.copy(), puzzles,
                            reduced, rec.boards[:stored].copy(), rec.playout_of[:stored].copy(),
                            wall, cpu, info)
