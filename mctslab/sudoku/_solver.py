"""Fast Sudoku solution counter (numba): bitmask candidates, singles propagation, MRV branching.

This is the "fast backend" behind :func:`mctslab.sudoku.solve`. The paper (Sec. 4.4, Fig. 11)
answers ``solve(board) -> no_answer | unique | multiple`` with a SAT solver; we count solutions
up to two with a plain depth-first search instead, and check it against python-sat in the tests.

- State: ``uint16[81]`` candidate masks (bit ``d - 1`` = digit ``d``), see ``_tables.py``.
- Propagation (:func:`propagate`): a queue of newly decided cells removes their digit from the
  20 peers (naked singles); then each changed unit is scanned with the once/twice bit trick for
  digits that fit one cell only (hidden singles); repeated until nothing changes. Per-unit
  masks of decided digits are kept up to date so the scan needs no popcount per cell.
- Locked candidates (:func:`locked_candidates`, "pointing") after the singles, at every node.
- Search (:func:`count_solutions`): iterative DFS on a preallocated stack of masks, branching on
  the undecided cell with the fewest candidates (MRV), stopping at ``limit`` solutions.

Status codes: :data:`NO_ANSWER` = 0, :data:`UNIQUE` = 1, :data:`MULTIPLE` = 2 (the solution
count capped at two).
"""

from __future__ import annotations

import numpy as np
from numba import njit

NO_ANSWER = 0
UNIQUE = 1
MULTIPLE = 2


def make_scratch():
    """Scratch buffers for :func:`count_solutions` (allocate once, reuse for every call)."""
    return (np.empty((82, 108), np.uint16),  # per depth: 81 candidate masks + 27 decided masks
            np.empty(81, np.uint8),          # propagation queue
            np.empty(82, np.uint8),          # branching cell per depth
            np.empty(82, np.uint16))         # candidates still to try per depth


@njit(cache=True)
def _lowest_unit(dirty, debruijn):
    """Index of the lowest set bit of ``dirty`` (a de Bruijn multiply, no loop)."""
    low = dirty & -dirty
    return debruijn[np.uint64(low * np.int64(0x022FDD63CC95386D)) >> np.uint64(58)]


@njit(cache=True)
def _decide(cell, m, state, cell_units):
    """Record ``cell`` decided as ``m`` in the decided-digit masks (``state[81 + u]``)."""
    for j in range(3):
        state[81 + cell_units[cell, j]] |= m


@njit(cache=True)
def propagate(state, queue, queue_length, dirty, tables):
    """Naked and hidden singles to a fixed point, in place. Returns False on a contradiction.

    ``state`` is ``uint16[108]``: 81 candidate masks, then per unit u the digits already
    decided in it (``state[81 + u]``). ``queue[:queue_length]`` holds the decided cells whose
    digit is not yet removed from their peers. ``dirty``
    (bit u = unit u) names the units changed since they were last scanned for hidden singles:
    a unit none of whose cells changed cannot have gained one. Eliminations are drained after
    each unit scan, so later scans see their effect. A contradiction is a cell with no
    candidate, a unit missing a digit, or two digits that fit one cell only.
    """
    peers = tables.peers
    units = tables.units
    popcount = tables.popcount
    unit_bits = tables.cell_unit_bits
    cell_units = tables.cell_units
    masks = state
    while True:
        while queue_length > 0:
            queue_length -= 1
            cell = queue[queue_length]
            bit = masks[cell]
            for k in range(20):
                p = peers[cell, k]
                m = masks[p]
                if m & bit:
                    m ^= bit
                    if m == 0:
                        return False
                    masks[p] = m
                    dirty |= unit_bits[p]
                    if popcount[m] == 1:
                        queue[queue_length] = p
                        queue_length += 1
                        _decide(p, m, state, cell_units)
        if dirty == 0:
            return True
        u = _lowest_unit(dirty, tables.debruijn)
        dirty &= ~(np.int64(1) << u)
        once = 0
        twice = 0
        for k in range(9):
            m = masks[units[u, k]]
            twice |= once & m
            once |= m
        if once != 0x1FF:
            return False
        hidden = once & ~twice & ~state[81 + u]
        if hidden == 0:
            continue
        for k in range(9):
            cell = units[u, k]
            m = masks[cell] & hidden
            if m:
                if popcount[m] > 1:
                    return False
                masks[cell] = m
                dirty |= unit_bits[cell]
                queue[queue_length] = cell
                queue_length += 1
                _decide(cell, m, state, cell_units)


@njit(cache=True)
def start_propagation(state, queue, tables):
    """Queue every decided cell of ``state[:81]``, fill ``state[81:]``, then :func:`propagate`."""
    for u in range(27):
        state[81 + u] = 0
    queue_length = 0
    for cell in range(81):
        m = state[cell]
        if m == 0:
            return False
        if tables.popcount[m] == 1:
            queue[queue_length] = cell
            queue_length += 1
            _decide(cell, m, state, tables.cell_units)
    return propagate(state, queue, queue_length, np.int64((1 << 27) - 1), tables)


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
                _decide(c, m, state, tables.cell_units)
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
def count_solutions(masks_in, limit, tables, stack, queue, branch_cell, todo, solution):
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
        _decide(cell, bit, child, tables.cell_units)
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
def board_to_masks(board, masks):
    """Candidate state of a board: a clue's cell gets its digit, an empty cell all nine."""
    for cell in range(81):
        d = board[cell]
        masks[cell] = np.uint16(1 << (d - 1)) if d > 0 else np.uint16(0x1FF)


@njit(cache=True)
def solve_board(board, tables, masks, stack, queue, branch_cell, todo, solution):
    """``NO_ANSWER``, ``UNIQUE`` or ``MULTIPLE`` for a board; the first solution in ``solution``."""
    board_to_masks(board, masks)
    return count_solutions(masks, 2, tables, stack, queue, branch_cell, todo, solution)


@njit(cache=True)
def solve_many(boards, tables, statuses, solutions):
    """Solve each row of ``boards`` (``uint8[B, 81]``); statuses and first solutions out."""
    stack = np.empty((82, 108), np.uint16)
    queue = np.empty(81, np.uint8)
    branch_cell = np.empty(82, np.uint8)
    todo = np.empty(82, np.uint16)
    masks = np.empty(81, np.uint16)
    for b in range(boards.shape[0]):
        statuses[b] = solve_board(boards[b], tables, masks, stack, queue, branch_cell, todo,
                                  solutions[b])
