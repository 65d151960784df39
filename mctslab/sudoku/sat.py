"""SAT backend: the paper's ``solve`` (Sec. 4.4, Fig. 11) with python-sat.

- Encoding: Lynce & Ouaknine's *extended encoding* over 729 variables ``x(r, c, d)``: every
  cell, and every row, column and block for every digit, has at least one and at most one
  true variable. "At most one" uses the solver's native cardinality constraint when it has one
  (``minicard``, ``gluecard3/4``, as sat4j's ``addAtMost`` in the paper) and the pairwise
  encoding (python-sat ``CardEnc``) otherwise.
- The rules are loaded once into one incremental solver; a puzzle's clues are passed as
  assumptions, so nothing has to be removed between puzzles.
- Unique vs multiple: after a first model, the clause "not this solution" is added under a
  fresh selector literal ``s`` (``-s`` or the block), the solver is called again assuming ``s``,
  and ``-s`` is then added as a unit so that the clause is retired for good.
- CaDiCaL's ``propagate()`` is never called after ``solve()`` (python-sat issue #232).
"""

from __future__ import annotations

import numpy as np
from pysat.card import CardEnc, EncType
from pysat.solvers import Solver, SolverNames

__all__ = ["SatSudoku", "SAT_SOLVERS", "NATIVE_ATMOST"]

NATIVE_ATMOST = ("minicard", "gluecard3", "gluecard4")
SAT_SOLVERS = ("cadical153", "cadical195", "glucose3", "glucose4", "minisat22") + NATIVE_ATMOST
_RESET_EVERY = 20_000  # retired blocking clauses pile up; a fresh solver every so often


def _var(r: int, c: int, d: int) -> int:
    """Variable of "cell (r, c) holds digit d + 1" (1-based for DIMACS)."""
    return 81 * r + 9 * c + d + 1


def _groups() -> list[list[int]]:
    groups = []
    for a in range(9):
        for b in range(9):
            groups.append([_var(a, b, d) for d in range(9)])          # cell (a, b)
            groups.append([_var(a, c, b) for c in range(9)])          # row a, digit b + 1
            groups.append([_var(r, a, b) for r in range(9)])          # column a, digit b + 1
            br, bc = divmod(a, 3)
            groups.append([_var(3 * br + i // 3, 3 * bc + i % 3, b) for i in range(9)])
    return groups


class SatSudoku:
    """An incremental python-sat solver loaded with the Sudoku rules.

    ``check(board) -> (status, solution)`` with status 0 (no answer), 1 (unique) or 2
    (multiple), the same codes as the fast backend.
    """

    def __init__(self, solver: str = "cadical153"):
        if solver not in SolverNames.__dict__:
            known = ", ".join(SAT_SOLVERS)
            raise ValueError(f"unknown SAT solver {solver!r}; python-sat names such as {known}")
        self.name = solver
        self._solver = None
        self._reset()

    def _reset(self) -> None:
        if self._solver is not None:
            self._solver.delete()
        self._solver = Solver(name=self.name)
        native = self.name in NATIVE_ATMOST
        for group in _groups():
            self._solver.add_clause(group)
            if native:
                self._solver.add_atmost(group, 1)
            else:
                for clause in CardEnc.atmost(group, 1, encoding=EncType.pairwise).clauses:
                    self._solver.add_clause(clause)
        self._next_selector = 730
        self._calls = 0

    def close(self) -> None:
        if self._solver is not None:
            self._solver.delete()
            self._solver = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def check(self, board) -> tuple[int, np.ndarray | None]:
        board = np.asarray(board)
        if self._calls >= _RESET_EVERY:
            self._reset()
        self._calls += 1
        cells = np.flatnonzero(board)
        assumptions = (9 * cells + board[cells].astype(np.int64)).tolist()  # = _var(r, c, d - 1)
        if not self._solver.solve(assumptions=assumptions):
            return 0, None
        model = np.asarray(self._solver.get_model()[:729], np.int64)
        true = model[model > 0] - 1
        solution = np.zeros(81, np.uint8)
        solution[true // 9] = true % 9 + 1
        free = true[board[true // 9] == 0] + 1
        if free.size == 0:
            return 1, solution
        selector = self._next_selector
        self._next_selector += 1
        self._solver.add_clause([-selector] + (-free).tolist())
        another = self._solver.solve(assumptions=assumptions + [selector])
        self._solver.add_clause([-selector])
        return (2 if another else 1), solution
