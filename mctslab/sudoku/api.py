"""Public Sudoku API: parsing, ``solve`` with two backends, human rules, normal forms.

``solve(board) -> Solution(status, solution)`` is the paper's ``solve`` (Sec. 4.4): status is
``"none"`` (no answer), ``"unique"`` or ``"multiple"``. Two interchangeable backends:

- ``"fast"``: the numba solution counter of ``_solver.py`` (bitmask candidates, singles, MRV);
- ``"sat"``: python-sat with the paper's extended encoding (``sat.py``), any python-sat solver.

Text format: one puzzle per line, 81 characters row-major, ``1``-``9`` for a clue and ``.`` or
``0`` for an empty cell. Bad input raises :class:`PuzzleFormatError` naming the problem.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mctslab.sudoku import _canon, _minlex, _rules, _solver
from mctslab.sudoku.lookup import make_tables
from mctslab.sudoku.sat import SatSudoku

__all__ = ["PuzzleFormatError", "Solution", "STATUS_NAMES", "parse_puzzle", "format_puzzle",
           "read_puzzles", "FastSolver", "make_solver", "solve", "solve_many", "apply_rules",
           "candidate_masks", "paper_normalise", "canonical_form", "canonical_forms",
           "BACKENDS"]

BACKENDS = ("fast", "sat")
STATUS_NAMES = ("none", "unique", "multiple")  # index = the kernels' status code


class PuzzleFormatError(ValueError):
    """A line or array that is not an 81-cell Sudoku board."""


@dataclass(frozen=True)
class Solution:
    status: str                      # "none" | "unique" | "multiple"
    solution: np.ndarray | None      # uint8[81], the first solution found (None when none)


def parse_puzzle(text: str) -> np.ndarray:
    """An 81-character puzzle line -> ``uint8[81]`` (0 = empty)."""
    line = text.strip()
    if len(line) != 81:
        raise PuzzleFormatError(f"a puzzle has 81 cells, this line has {len(line)} characters")
    board = np.zeros(81, np.uint8)
    for i, ch in enumerate(line):
        if ch in ".0":
            continue
        if not ("1" <= ch <= "9"):
            raise PuzzleFormatError(
                f"character {i + 1} is {ch!r}; use 1-9 for clues and '.' or '0' for empty cells")
        board[i] = ord(ch) - 48
    return board


def as_board(board) -> np.ndarray:
    """Validate an array-like or string board and return a contiguous ``uint8[81]``."""
    if isinstance(board, str):
        return parse_puzzle(board)
    arr = np.asarray(board)
    if arr.size != 81:
        raise PuzzleFormatError(f"a board has 81 cells, got an array of shape {arr.shape}")
    arr = arr.reshape(81)
    if arr.dtype.kind not in "iu" or arr.min() < 0 or arr.max() > 9:
        raise PuzzleFormatError("board cells must be integers 0-9 (0 = empty)")
    return np.ascontiguousarray(arr, dtype=np.uint8)


def format_puzzle(board) -> str:
    """``uint8[81]`` -> an 81-character line with ``.`` for empty cells."""
    return "".join("." if d == 0 else chr(48 + int(d)) for d in as_board(board))


def read_puzzles(path: str | os.PathLike) -> tuple[np.ndarray, list[int], list[tuple[int, str]]]:
    """Read a puzzle file: (boards ``uint8[B, 81]``, their 1-based line numbers, bad lines).

    Blank lines and lines starting with ``#`` are skipped; any other line that is not a puzzle
    is returned as ``(line number, reason)`` and the rest are still read.
    """
    boards, numbers, errors = [], [], []
    with open(Path(path)) as handle:
        for number, line in enumerate(handle, start=1):
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            try:
                boards.append(parse_puzzle(stripped))
                numbers.append(number)
            except PuzzleFormatError as exc:
                errors.append((number, str(exc)))
    array = np.array(boards, np.uint8).reshape(len(boards), 81)
    return array, numbers, errors


class FastSolver:
    """The numba backend with its scratch buffers allocated once."""

    name = "fast"

    def __init__(self):
        self.tables = make_tables()
        self.scratch = _solver.make_scratch()
        self.masks = np.empty(81, np.uint16)

    def check(self, board) -> tuple[int, np.ndarray | None]:
        solution = np.zeros(81, np.uint8)
        status = _solver.solve_board(board, self.tables, self.masks, *self.scratch, solution)
        return int(status), (solution if status else None)

    def close(self) -> None:
        pass


def make_solver(backend: str = "fast", sat_solver: str = "cadical153"):
    """A reusable solver object with ``check(board) -> (status code, solution)``."""
    if backend == "fast":
        return FastSolver()
    if backend == "sat":
        return SatSudoku(sat_solver)
    raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")


def solve(board, backend: str = "fast", sat_solver: str = "cadical153") -> Solution:
    """The paper's ``solve``: ``none``, ``unique`` or ``multiple``, and the first solution."""
    solver = make_solver(backend, sat_solver)
    try:
        status, solution = solver.check(as_board(board))
    finally:
        solver.close()
    return Solution(STATUS_NAMES[status], solution)


def solve_many(boards, backend: str = "fast", sat_solver: str = "cadical153"):
    """Status codes (``int8[B]``, 0/1/2) and first solutions (``uint8[B, 81]``) of many boards."""
    boards = np.ascontiguousarray(np.asarray(boards, np.uint8).reshape(-1, 81))
    statuses = np.zeros(len(boards), np.int8)
    solutions = np.zeros((len(boards), 81), np.uint8)
    if backend == "fast":
        _solver.solve_many(boards, make_tables(), statuses, solutions)
        return statuses, solutions
    with make_solver(backend, sat_solver) as solver:
        for i, board in enumerate(boards):
            status, solution = solver.check(board)
            statuses[i] = status
            if solution is not None:
                solutions[i] = solution
    return statuses, solutions


def candidate_masks(board) -> np.ndarray:
    """``uint16[81]`` candidates of a board before any deduction (clues: their digit)."""
    masks = np.empty(81, np.uint16)
    _solver.board_to_masks(as_board(board), masks)
    return masks


def apply_rules(masks) -> tuple[bool, np.ndarray]:
    """The paper's ``solveByRule`` on a candidate state: (consistent?, new ``uint16[81]``)."""
    masks = np.array(masks, np.uint16).reshape(81)
    ok = _rules.apply_rules(masks, make_tables(), np.empty(81, np.uint8), np.empty(9, np.uint16),
                            np.zeros(1, np.int64), np.empty(9, np.uint16), np.empty(9, np.int64),
                            np.empty(9, np.uint16), np.empty(108, np.uint16))
    return bool(ok), masks


def paper_normalise(board) -> tuple[np.ndarray, int]:
    """The paper's heuristic normal form (Fig. 9) and its 64-bit hash."""
    out = np.empty(81, np.uint8)
    h = _canon.paper_normalise(as_board(board), out, np.empty((3, 81), np.uint8))
    return out, int(h)


_LINE_PERMS = None


def _line_perms() -> np.ndarray:
    global _LINE_PERMS
    if _LINE_PERMS is None:
        _LINE_PERMS = _canon.make_line_perms()
    return _LINE_PERMS


def canonical_form(board, return_transform: bool = False, scratch=None):
    """The exact canonical form (minlex, ``_minlex.py``) of one board, ``uint8[81]``.

    With ``return_transform``, also the group element mapping the board onto it (see
    ``_minlex``). Falls back to the brute-force search when the row-by-row search has too many
    tied partial images (a mostly empty board), so the answer is always exact.
    """
    board = as_board(board)
    perms = _line_perms()
    scratch = scratch if scratch is not None else _canon.make_minlex_scratch()
    out = np.empty(81, np.uint8)
    transform = np.zeros(29, np.int16)
    status = _minlex.minlex(board, out, transform, perms, *scratch)
    if status == _minlex.OVERFLOW:
        _minlex.minlex_bruteforce(board, out, perms)
        transform[:] = -1
    return (out, transform) if return_transform else out


def canonical_forms(boards) -> np.ndarray:
    """Exact canonical forms of many boards (``uint8[B, 81]``)."""
    boards = np.asarray(boards, np.uint8).reshape(-1, 81)
    scratch = _canon.make_minlex_scratch()
    out = np.empty_like(boards)
    for i, board in enumerate(boards):
        out[i] = canonical_form(board, scratch=scratch)
    return out
