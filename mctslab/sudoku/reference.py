"""Plain-Python twins of the Sudoku kernels, written for clarity, used only by the tests.

Boards are lists (or arrays) of 81 ints, 0 for empty; candidate states are lists of 81
``set``s of digits. Nothing here is fast; everything here is meant to be obviously right.

- :func:`count_solutions`: backtracking over candidate sets (no propagation beyond the
  basic exclusion), the twin of ``_solver.count_solutions``.
- :func:`apply_rules`: the paper's ``solveByRule`` (Sec. 2, 4.3) with ``itertools.combinations``.
- :func:`paper_normalise`: the paper's Fig. 9 heuristic, the twin of ``_canon.paper_normalise``.
- :func:`random_symmetry` / :func:`apply_symmetry`: the validity-preserving group of Sec. 4.2
  (digit relabelling, transposition, band/stack and row/column permutations inside them).
- :func:`minlex_key`: the exact canonical form's ordering, for checking a claimed minimum.
"""

from __future__ import annotations

import itertools
import random

UNITS = ([[9 * r + c for c in range(9)] for r in range(9)]
         + [[9 * r + c for r in range(9)] for c in range(9)]
         + [[9 * (3 * br + r) + 3 * bc + c for r in range(3) for c in range(3)]
            for br in range(3) for bc in range(3)])
PEERS = [sorted({x for u in UNITS if cell in u for x in u} - {cell}) for cell in range(81)]


# -- solving --------------------------------------------------------------------------------

def candidates(board) -> list[set[int]] | None:
    """Basic candidates of a board (clue cells: their digit); None when two clues clash."""
    cands = [{int(d)} if d else set(range(1, 10)) for d in board]
    for cell, d in enumerate(board):
        if d:
            for p in PEERS[cell]:
                if board[p] == d:
                    return None
                cands[p].discard(int(d))
    return cands


def count_solutions(board, limit: int = 2):
    """(number of solutions capped at ``limit``, first solution or None)."""
    grid = [int(d) for d in board]
    if candidates(grid) is None:
        return 0, None
    found = []

    def search() -> bool:
        best, best_options = -1, None
        for cell in range(81):
            if grid[cell] == 0:
                options = set(range(1, 10)) - {grid[p] for p in PEERS[cell]}
                if best_options is None or len(options) < len(best_options):
                    best, best_options = cell, options
        if best < 0:
            found.append(list(grid))
            return len(found) >= limit
        for d in sorted(best_options):
            grid[best] = d
            if search():
                return True
        grid[best] = 0
        return False

    search()
    return len(found), (found[0] if found else None)


# -- human rules ----------------------------------------------------------------------------

class _Contradiction(Exception):
    """An empty cell, a digit with no place in a unit, or k cells sharing fewer than k digits."""


def apply_rules(cands: list[set[int]]) -> bool:
    """Apply naked/hidden singles and k-naked/k-hidden subsets (k = 2..4) in place.

    Returns False when a contradiction shows up (an empty cell or a digit with no place).
    The subset rules run only once no single applies, as in the kernel.
    """
    try:
        changed = True
        while changed:
            changed = _cell_unique(cands)
            changed |= _unit_unique(cands)
            if changed:
                continue
            for unit in UNITS:
                changed |= _subsets(cands, unit)
    except _Contradiction:
        return False
    return True


def _cell_unique(cands) -> bool:
    """Cell-Unique: a decided cell's digit leaves its peers. True when a candidate went."""
    changed = False
    for cell in range(81):
        if len(cands[cell]) == 1:
            d = next(iter(cands[cell]))
            for p in PEERS[cell]:
                if d in cands[p]:
                    cands[p].discard(d)
                    changed = True
                    if not cands[p]:
                        raise _Contradiction
    return changed


def _unit_unique(cands) -> bool:
    """Line-/Block-Unique: a digit with one place in a unit goes there. True when one did."""
    changed = False
    for unit in UNITS:
        for d in range(1, 10):
            places = [c for c in unit if d in cands[c]]
            if not places:
                raise _Contradiction
            if len(places) == 1 and len(cands[places[0]]) > 1:
                cands[places[0]] = {d}
                changed = True
    return changed


def _subsets(cands, unit) -> bool:
    """k-Naked and k-Hidden subsets (k = 2, 3, 4) in one unit, over the cells and digits still
    open when the unit is entered. True when a candidate went."""
    free = [c for c in unit if len(cands[c]) > 1]
    free_digits = set(range(1, 10)) - {next(iter(cands[c])) for c in unit if len(cands[c]) == 1}
    changed = False
    for k in (2, 3, 4):
        changed |= _naked_subsets(cands, free, k)
        changed |= _hidden_subsets(cands, unit, free_digits, k)
    return changed


def _naked_subsets(cands, free, k) -> bool:
    """k cells of ``free`` whose candidates are k digits: those digits leave the other cells."""
    changed = False
    for cells in itertools.combinations(free, k):
        if k >= len(free):
            break
        union = set().union(*(cands[c] for c in cells))
        if len(union) < k:
            raise _Contradiction
        if len(union) == k:
            for c in free:
                if c not in cells and cands[c] & union:
                    cands[c] -= union
                    changed = True
                    if not cands[c]:
                        raise _Contradiction
    return changed


def _hidden_subsets(cands, unit, free_digits, k) -> bool:
    """k digits of ``free_digits`` with k places in ``unit``: those cells keep only them."""
    changed = False
    for digits in itertools.combinations(sorted(free_digits), k):
        if k >= len(free_digits):
            break
        places = {c for c in unit for d in digits if d in cands[c]}
        if len(places) < k:
            raise _Contradiction
        if len(places) == k:
            for c in places:
                if cands[c] - set(digits):
                    cands[c] &= set(digits)
                    changed = True
    return changed


# -- symmetries and normal forms ------------------------------------------------------------

def random_symmetry(rng: random.Random):
    """A uniformly random element of the validity-preserving group (Sec. 4.2)."""
    def line_permutation():
        groups = rng.sample(range(3), 3)
        return [3 * g + i for g in groups for i in rng.sample(range(3), 3)]
    digits = list(range(1, 10))
    rng.shuffle(digits)
    return {"transpose": rng.random() < 0.5, "rows": line_permutation(),
            "cols": line_permutation(), "digits": [0] + digits}


def apply_symmetry(board, symmetry) -> list[int]:
    """``out[r, c] = digits[board'[rows[r], cols[c]]]`` with ``board'`` transposed if asked."""
    b = [int(x) for x in board]
    if symmetry["transpose"]:
        b = [b[9 * c + r] for r in range(9) for c in range(9)]
    rows, cols, digits = symmetry["rows"], symmetry["cols"], symmetry["digits"]
    return [digits[b[9 * rows[r] + cols[c]]] for r in range(9) for c in range(9)]


def relabel_first_appearance(board) -> list[int]:
    """Renumber digits 1, 2, 3, ... in order of first appearance (row-major)."""
    mapping = {0: 0}
    out = []
    for d in board:
        if d not in mapping:
            mapping[d] = len(mapping)
        out.append(mapping[d])
    return out


def minlex_key(board) -> tuple:
    """The order the exact canonical form minimises: first-appearance relabelling, then lex."""
    return tuple(relabel_first_appearance(board))


def board_hash(board) -> int:
    """64-bit FNV-1a over the 81 cells (the twin of ``_canon.board_hash``)."""
    h = 0xCBF29CE484222325
    for d in board:
        h ^= int(d)
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def sort_rows_columns(board) -> list[int]:
    """Fig. 9 ``sortRowColumn``: bands, rows in bands, stacks, columns in stacks by clue count,
    most clues first; Python's stable sort keeps the original order among ties."""
    b = [int(x) for x in board]
    row_count = [sum(1 for c in range(9) if b[9 * r + c]) for r in range(9)]
    bands = sorted(range(3), key=lambda g: -sum(row_count[3 * g:3 * g + 3]))
    rows = [r for g in bands for r in sorted(range(3 * g, 3 * g + 3), key=lambda r: -row_count[r])]
    b = [b[9 * rows[r] + c] for r in range(9) for c in range(9)]
    col_count = [sum(1 for r in range(9) if b[9 * r + c]) for c in range(9)]
    stacks = sorted(range(3), key=lambda g: -sum(col_count[3 * g:3 * g + 3]))
    cols = [c for g in stacks for c in sorted(range(3 * g, 3 * g + 3), key=lambda c: -col_count[c])]
    return [b[9 * r + cols[c]] for r in range(9) for c in range(9)]


def paper_normalise(board) -> list[int]:
    """Fig. 9: sort, transpose a copy, renumber both, keep the one with the smaller hash."""
    b = sort_rows_columns(board)
    t = [b[9 * c + r] for r in range(9) for c in range(9)]
    b = relabel_first_appearance(b)
    t = relabel_first_appearance(t)
    return b if board_hash(b) < board_hash(t) else t
