"""Sudoku: few-clue puzzle generation by MCTS (Nasu & Matsuzaki), solvers, rules, normal forms.

Reading guide (each module says which part of the paper it implements):

- ``api.py``        parse/format puzzles; ``solve`` with the fast or the SAT backend; rules;
                    normal forms (paper heuristic, exact canonical form)
- ``_solver.py``    numba solution counter (fast backend)      ``sat.py``  python-sat backend
- ``_bands.py``     the counter's band bitboards (state, propagation); ``_solver_v1.py`` the
                    cell-mask counter it replaced (the benchmark's same-run reference)
- ``_rules.py``     the paper's human rules (solveByRule)      ``_canon.py``, ``_minlex.py``
                    normal forms
- ``lookup.py``     the board's unit and peer tables every kernel receives (built in Python)
- ``_playout.py``   playouts (Fig. 6)  ``_search.py``  MCTS over a DAG (Fig. 5)
- ``generator.py``  one generation run; ``readings.py`` the readings of what the paper leaves
                    open (terminal nodes, min-of, exhausted subtrees, ...)
- ``readings_search.py`` the search over readings (design, tasks, counts, scores);
  ``readings_score.py`` a reading's distance to Table 1 and the paper's five claims;
  ``readings_run.py`` the search's long run and its record
- ``_baseline.py``  the random clue-removal baseline and minimal reduction (numba)
- ``experiments.py``  the paper's protocol: scales, ``Config``, tasks, runs
- ``tables.py``     Tables 1-2, baselines, the 17-clue hunt, paper vs this run
- ``claims.py``     Table 1 on the log scale and the paper's claims, judged from a record's tables
- ``figures.py``    the clue histogram, finds per tenth of a run
- ``reference.py``  plain-Python twins for the tests; ``bench.py``; ``cli.py``
"""

import numpy as np

from mctslab.core.warmup import compile_once
from mctslab.rng import seed_state
from mctslab.sudoku import _baseline
from mctslab.sudoku._playout import make_playout_scratch
from mctslab.sudoku.api import (
    PuzzleFormatError,
    Solution,
    apply_rules,
    candidate_masks,
    canonical_form,
    canonical_forms,
    format_puzzle,
    paper_normalise,
    parse_puzzle,
    read_puzzles,
    solve,
    solve_many,
)
from mctslab.sudoku.generator import GenerationResult, GeneratorConfig, generate
from mctslab.sudoku.lookup import make_tables

__all__ = ["PuzzleFormatError", "Solution", "parse_puzzle", "format_puzzle", "read_puzzles",
           "solve", "solve_many", "apply_rules", "paper_normalise", "canonical_form",
           "canonical_forms", "GeneratorConfig", "GenerationResult", "generate", "warmup"]

# A solved grid with one cell emptied: unique, and solved by the rules.
_WARMUP_PUZZLE = ("034678912672195348198342567859761423426853791713924856961537284287419635345286179")


@compile_once
def warmup() -> None:
    """Compile (or load from numba's cache) every Sudoku kernel on tiny inputs, once per process
    (``compile_once``): the generator, the removal baseline and minimal reduction, the fast
    solver, the rules and both normal forms. The task functions call it first, so that the CPU
    seconds they report never include numba compilation."""
    generate(GeneratorConfig(playouts=40, threshold=2, reduce_max_clues=81,
                             backup_reduced=True, verify_backend="none"), seed=0)
    _baseline.reduce_many(np.zeros((1, 81), np.uint8), np.zeros(1, np.int64), seed_state(0),
                          make_tables(), make_playout_scratch())
    _baseline.removal_baseline(1, np.zeros(82, np.int64), np.zeros((1, 81), np.uint8), 20,
                               np.zeros(1, np.int64), seed_state(0), make_tables(),
                               make_playout_scratch(), np.zeros(81, np.uint8))
    board = parse_puzzle(_WARMUP_PUZZLE)
    solve(board)
    solve_many(np.stack([board, board]))
    apply_rules(candidate_masks(board))
    paper_normalise(board)
    canonical_form(board, return_transform=True)
    canonical_forms(np.stack([board, board]))
