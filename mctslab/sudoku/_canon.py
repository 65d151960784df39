"""Normal forms of Sudoku boards under the validity-preserving group (paper Sec. 4.2).

Two boards are "essentially the same" when one is mapped onto the other by digit relabelling,
transposition, band/stack permutations and row/column permutations inside bands/stacks
(9! x 2 x 6^8 elements). Two normal forms live here:

- :func:`paper_normalise` -- the paper's heuristic (Fig. 9): sort bands, rows, stacks and
  columns by clue count (most first, stable among ties), transpose a copy, renumber both by
  first appearance, keep the one with the smaller 64-bit hash. Cheap, and the key of the MCTS
  DAG (as in the paper), but equivalent boards can get different forms when counts tie.
- :func:`minlex` -- an exact canonical form: the lexicographically smallest image, with empty
  cells as 0 and digits renumbered by first appearance (so empty cells come first). Built row
  by row: every (orientation, column arrangement, first row) is scored on the first target
  row, only the ties survive, each survivor is extended by the rows its band structure allows,
  and so on for the nine rows. Survivors past ``capacity`` fall back to
  :func:`minlex_bruteforce`, which tries all 2 x 1296 x 1296 row/column arrangements.

``line_perms`` (``int8[1296, 9]``) lists every arrangement of nine lines that keeps bands
(stacks) together: target line ``i`` takes source line ``line_perms[a, i]``.
"""

from __future__ import annotations

import itertools

import numpy as np

from mctslab.core.jit import njit


def make_line_perms() -> np.ndarray:
    """All 6 x 6^3 = 1296 band-preserving arrangements of nine rows (or columns)."""
    perms = []
    for groups in itertools.permutations(range(3)):
        for a, b, c in itertools.product(itertools.permutations(range(3)), repeat=3):
            inner = (a, b, c)
            perms.append([3 * g + inner[i][j] for i, g in enumerate(groups) for j in range(3)])
    return np.array(perms, np.int8)


def make_minlex_scratch(capacity: int = 1 << 17):
    """Survivor buffers for :func:`minlex` (two generations, ``capacity`` survivors each)."""
    return (np.empty((2, capacity), np.int16),       # column arrangement of each survivor
            np.empty((2, capacity), np.int8),        # orientation (1 = transposed)
            np.empty((2, capacity, 9), np.int8),     # source rows used so far
            np.empty((2, capacity, 10), np.int8))    # digit labels (0 = not yet labelled)


@njit(cache=True)
def board_hash(board):
    """64-bit FNV-1a over the 81 cells (stands in for the paper's Java ``hashCode``)."""
    h = np.uint64(0xCBF29CE484222325)
    for i in range(81):
        h = (h ^ np.uint64(board[i])) * np.uint64(0x100000001B3)
    return h


@njit(cache=True)
def _stable_order_desc(counts, start, order):
    """Write start..start+2 into ``order`` sorted by ``counts`` descending, ties kept in order."""
    for i in range(3):
        order[i] = start + i
    for i in range(1, 3):
        j = i
        while j > 0 and counts[order[j - 1]] < counts[order[j]]:
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1


@njit(cache=True)
def _line_order(counts, order):
    """Fig. 9 line order: groups of three by total count, lines inside by count (desc, stable)."""
    group_counts = np.zeros(3, np.int64)
    for g in range(3):
        group_counts[g] = counts[3 * g] + counts[3 * g + 1] + counts[3 * g + 2]
    groups = np.empty(3, np.int64)
    _stable_order_desc(group_counts, 0, groups)
    inner = np.empty(3, np.int64)
    for i in range(3):
        _stable_order_desc(counts, 3 * groups[i], inner)
        for j in range(3):
            order[3 * i + j] = inner[j]


@njit(cache=True)
def _relabel(board, out):
    labels = np.zeros(10, np.uint8)
    next_label = 1
    for i in range(81):
        d = board[i]
        if d == 0:
            out[i] = 0
        else:
            if labels[d] == 0:
                labels[d] = next_label
                next_label += 1
            out[i] = labels[d]


@njit(cache=True)
def paper_normalise(board, out, scratch):
    """The paper's Fig. 9 normal form of ``board`` into ``out``; returns its hash.

    ``scratch`` is ``uint8[3, 81]``.
    """
    row_counts = np.zeros(9, np.int64)
    col_counts = np.zeros(9, np.int64)
    for i in range(81):
        if board[i] != 0:
            row_counts[i // 9] += 1
            col_counts[i % 9] += 1
    rows = np.empty(9, np.int64)
    cols = np.empty(9, np.int64)
    _line_order(row_counts, rows)
    _line_order(col_counts, cols)
    sorted_board = scratch[0]
    transposed = scratch[1]
    for r in range(9):
        for c in range(9):
            d = board[9 * rows[r] + cols[c]]
            sorted_board[9 * r + c] = d
            transposed[9 * c + r] = d
    _relabel(sorted_board, out)
    _relabel(transposed, scratch[2])
    h_board = board_hash(out)
    h_transposed = board_hash(scratch[2])
    if h_board < h_transposed:
        return h_board
    for i in range(81):
        out[i] = scratch[2, i]
    return h_transposed
