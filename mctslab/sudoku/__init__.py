"""Sudoku: few-clue puzzle generation by MCTS (Nasu & Matsuzaki), solvers, rules, normal forms.

Reading guide (each module says which part of the paper it implements):

- ``api.py``        parse/format puzzles; ``solve`` with the fast or the SAT backend; rules;
                    normal forms (paper heuristic, exact canonical form)
- ``_solver.py``    numba solution counter (fast backend)      ``sat.py``  python-sat backend
- ``_rules.py``     the paper's human rules (solveByRule)      ``_canon.py``, ``_minlex.py``
                    normal forms
- ``_tables.py``    the board's unit and peer tables every kernel reads
- ``_playout.py``   playouts (Fig. 6)  ``_search.py``  MCTS over a DAG (Fig. 5)
- ``generator.py``  one generation run; ``readings.py`` the readings of what the paper leaves
                    open (terminal nodes, min-of, exhausted subtrees, ...)
- ``_baseline.py``  the random clue-removal baseline and minimal reduction (numba)
- ``experiments.py``  the paper's protocol: scales, ``Config``, tasks, runs
- ``tables.py``     Tables 1-2, baselines, the 17-clue hunt, paper vs this run
- ``figures.py``    the clue histogram, finds per tenth of a run
- ``reference.py``  plain-Python twins for the tests; ``bench.py``; ``cli.py``
"""

import numpy as np

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
from mctslab.sudoku.experiments import warmup as _warmup_generation
from mctslab.sudoku.generator import GenerationResult, GeneratorConfig, generate

__all__ = ["PuzzleFormatError", "Solution", "parse_puzzle", "format_puzzle", "read_puzzles",
           "solve", "solve_many", "apply_rules", "paper_normalise", "canonical_form",
           "canonical_forms", "GeneratorConfig", "GenerationResult", "generate", "warmup"]

# A solved grid with one cell emptied: unique, and solved by the rules.
_WARMUP_PUZZLE = ("034678912672195348198342567859761423426853791713924856961537284287419635345286179")


def warmup() -> None:
    """Compile (or load from numba's cache) every Sudoku kernel on tiny inputs: the generator and
    the removal baseline (:func:`mctslab.sudoku.experiments.warmup`), the fast solver, the rules
    and both normal forms."""
    _warmup_generation()
    board = parse_puzzle(_WARMUP_PUZZLE)
    solve(board)
    solve_many(np.stack([board, board]))
    apply_rules(candidate_masks(board))
    paper_normalise(board)
    canonical_form(board, return_transform=True)
    canonical_forms(np.stack([board, board]))
