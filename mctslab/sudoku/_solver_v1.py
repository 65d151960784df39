"""The cell-mask solution counter that ``_solver.py`` replaced: the same-run reference of
``mctslab bench sudoku`` and a second kernel for the tests, not used by the generator.

- State: ``uint16[108]`` per search depth: 81 candidate masks, then the 27 units' decided
  digits (see ``lookup.py``).
- Propagation: naked and hidden singles (``_solver.propagate``, which the rules use too), then
  locked candidates ("pointing", :func:`locked_candidates`) at every node, alternately, to a
  fixed point.
- Search (:func:`count_solutions_v1`): iterative DFS on a preallocated stack, branching on the
  undecided cell with the fewest candidates (MRV), stopping at ``limit`` solutions.

Status codes as in ``_solver.py``: 0 no answer, 1 unique, 2 multiple.
"""

from __future__ import annotations

import numpy as np

from mctslab.core.jit import njit
from mctslab.sudoku._solver import board_to_masks, propagate, record_decided, start_propagation


def make_scratch_v1():
    """Scratch buffers for :func:`count_solutions_v1` (allocate once, reuse for every call)."""
    return (np.empty((82, 108), np.uint16),  # per depth: 81 candidate masks + 27 decided masks
            np.empty(81, np.uint8),          # propagation queue
            np.empty(82, np.uint8),          # branching cell per depth
            np.empty(82, np.uint16))         # candidates still to try per depth


@njit(cache=True)
def _strip(state, cells, digits, queue, queue_length, dirty, tables):
    """Remove ``digits`` from ``cells``; returns (queue length or -1, dirty)."""
    for k in range(cells.shape[0]):
        c = cells[k]
        m = state[c]
        if m & digits:
            m &= ~digits
            if m == 0:
                return -1, dirty
            state[c] = m
            dirty |= tables.cell_unit_bits[c]
            if tables.popcount[m] == 1:
                queue[queue_length] = c
                queue_length += 1
                record_decided(c, m, state, tables.cell_units)
    return queue_length, dirty


@njit(cache=True)
def locked_candidates(state, queue, tables):
    """Pointing: a digit confined to one row (column) of a block leaves the rest of that line.

    Cheap (nine blocks, bit operations) and it cuts the search tree of hard 17-clue puzzles;
    ``tables.outside[b, i]`` lists the 6 cells of line i of block b (0-2 rows, 3-5 columns)
    outside the block. Returns (queue length or -1 on a contradiction, dirty units).
    """
    outside = tables.outside
    queue_length = 0
    dirty = np.int64(0)
    for b in range(9):
        base = 27 * (b // 3) + 3 * (b % 3)
        free = 0x1FF & ~state[81 + 18 + b]
        for line in range(2):
            a0 = 0
            a1 = 0
            a2 = 0
            for i in range(3):
                if line == 0:
                    a0 |= state[base + i]
                    a1 |= state[base + 9 + i]
                    a2 |= state[base + 18 + i]
                else:
                    a0 |= state[base + 9 * i]
                    a1 |= state[base + 9 * i + 1]
                    a2 |= state[base + 9 * i + 2]
            only = (a0 & ~a1 & ~a2, a1 & ~a0 & ~a2, a2 & ~a0 & ~a1)
            for i in range(3):
                digits = only[i] & free
                if digits:
                    queue_length, dirty = _strip(state, outside[b, 3 * line + i], digits, queue,
                                                 queue_length, dirty, tables)
                    if queue_length < 0:
                        return -1, dirty
    return queue_length, dirty


@njit(cache=True)
def _with_locked(state, queue, tables):
    """Locked candidates and singles, alternately, until neither changes anything."""
    while True:
        queue_length, dirty = locked_candidates(state, queue, tables)
        if queue_length < 0:
            return False
        if dirty == 0:
            return True
        if not propagate(state, queue, queue_length, dirty, tables):
            return False


@njit(cache=True)
def _fewest_candidates(masks, popcount):
    """The undecided cell with the fewest candidates (MRV), or -1 when every cell is decided."""
    best = -1
    best_count = 10
    for cell in range(81):
        n = popcount[masks[cell]]
        if 1 < n < best_count:
            best = cell
            best_count = n
            if n == 2:
                break
    return best


@njit(cache=True)
def _write_solution(masks, digit_of, solution):
    for cell in range(81):
        solution[cell] = digit_of[masks[cell]]


@njit(cache=True)
def count_solutions_v1(masks_in, limit, tables, stack, queue, branch_cell, todo, solution):  # noqa: C901 - numba kernel: backtracking over an explicit stack in one loop (no recursion)
    """Number of solutions of the candidate state ``masks_in``, counting at most ``limit``.

    The first solution found is written to ``solution`` (``uint8[81]``). ``masks_in`` is not
    modified; cells with one candidate are treated as decided (their digit is propagated).
    ``stack`` is ``uint16[82, 108]``: per depth the 81 masks, then the 27 decided-digit masks.
    """
    popcount = tables.popcount
    state = stack[0]
    for cell in range(81):
        state[cell] = masks_in[cell]
    if not (start_propagation(state, queue, tables) and _with_locked(state, queue, tables)):
        return 0
    cell = _fewest_candidates(state, popcount)
    if cell < 0:
        _write_solution(state, tables.digit_of, solution)
        return 1
    count = 0
    depth = 0
    branch_cell[0] = cell
    todo[0] = state[cell]
    while depth >= 0:
        remaining = todo[depth]
        if remaining == 0:
            depth -= 1
            continue
        bit = remaining & (~remaining + np.uint16(1))  # lowest candidate
        todo[depth] = remaining ^ bit
        last = todo[depth] == 0  # the last candidate: no need to keep this level's state
        parent = stack[depth]
        child = parent if last else stack[depth + 1]
        if not last:
            for i in range(108):
                child[i] = parent[i]
        cell = branch_cell[depth]
        child[cell] = bit
        queue[0] = cell
        record_decided(cell, bit, child, tables.cell_units)
        ok = (propagate(child, queue, 1, tables.cell_unit_bits[cell], tables)
              and _with_locked(child, queue, tables))
        cell = _fewest_candidates(child, popcount) if ok else -1
        if ok and cell < 0:
            count += 1
            if count == 1:
                _write_solution(child, tables.digit_of, solution)
            if count >= limit:
                return count
        if cell < 0:
            if last:
                depth -= 1
            continue
        if not last:
            depth += 1
        branch_cell[depth] = cell
        todo[depth] = child[cell]
    return count



@njit(cache=True)
def solve_many_v1(boards, tables, statuses, solutions):
    """:func:`mctslab.sudoku._solver.solve_many` with today's kernel: statuses, first solutions."""
    stack = np.empty((82, 108), np.uint16)
    queue = np.empty(81, np.uint8)
    branch_cell = np.empty(82, np.uint8)
    todo = np.empty(82, np.uint16)
    masks = np.empty(81, np.uint16)
    for b in range(boards.shape[0]):
        board_to_masks(boards[b], masks)
        statuses[b] = count_solutions_v1(masks, 2, tables, stack, queue, branch_cell, todo,
                                         solutions[b])
