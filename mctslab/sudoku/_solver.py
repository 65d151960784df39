"""Fast Sudoku solution counter (numba): band bitboards, singles, locked candidates, MRV.

This is the "fast backend" behind :func:`mctslab.sudoku.solve` and the generator's uniqueness
check. The paper (Sec. 4.4, Fig. 11) answers ``solve(board) -> no_answer | unique | multiple``
with a SAT solver; we count solutions up to two with a depth-first search instead, and check it
against python-sat and the plain-Python reference in the tests.

- State and propagation: ``_bands.py`` (per digit and band of three rows, a 27-bit mask of its
  places; naked and hidden singles, locked candidates along rows and columns).
- Search (:func:`count_solutions` from candidate masks, :func:`count_board` from a board):
  iterative DFS on a preallocated stack of band states, branching on an open cell with two
  candidates (else three, else the first), stopping at ``limit`` solutions. A branch copies
  120 bytes.

The singles propagation on ``uint16[81]`` candidate masks (:func:`propagate`,
:func:`start_propagation`) is the rules' (``_rules.py``); ``_solver_v1.py`` keeps the
cell-mask counter built on it, which the band counter replaced, as the benchmark's
same-run reference.

Status codes: :data:`NO_ANSWER` = 0, :data:`UNIQUE` = 1, :data:`MULTIPLE` = 2 (the solution
count capped at two).
"""

from __future__ import annotations

import numpy as np

from mctslab.core.jit import njit
from mctslab.sudoku._bands import (
    STRIDE,
    bit_index,
    candidates,
    load_board,
    load_masks,
    pick_branch_cell,
    place_singles,
    propagate_bands,
    write_solution,
)

NO_ANSWER = 0
UNIQUE = 1
MULTIPLE = 2


def make_scratch():
    """Scratch buffers for :func:`count_solutions` (allocate once, reuse for every call)."""
    return (np.empty((82, STRIDE), np.uint32),  # per depth: 27 digit-bands + 3 open-cell masks
            np.empty(81, np.uint8),             # unused here (the reference kernel's queue)
            np.empty(82, np.uint8),             # branching cell per depth
            np.empty(82, np.uint16))            # candidates still to try per depth


@njit(cache=True)
def count_solutions(masks_in, limit, tables, stack, queue, branch_cell, todo, solution):
    """Number of solutions of the candidate state ``masks_in``, counting at most ``limit``.

    The first solution found is written to ``solution`` (``uint8[81]``). ``masks_in``
    (``uint16[81]``) is not modified; cells with one candidate are placed like the others.
    ``stack`` is any C-contiguous buffer of at least ``82 * STRIDE`` ``uint32``: ``uint32[82,
    32]`` from :func:`make_scratch`, or the reference kernel's ``uint16[82, 108]``, which the
    generator's scratch holds. ``queue`` is not used (the reference kernel's).
    """
    bt = tables.band
    state = stack.reshape(-1).view(np.uint32)
    load_masks(masks_in, state, bt)
    return _count_from_root(state, place_singles(state, bt), limit, bt, branch_cell, todo,
                            solution)


@njit(cache=True)
def count_board(board, limit, tables, stack, branch_cell, todo, solution):
    """:func:`count_solutions` of a board (``uint8[81]``, 0 = empty): the same count and first
    solution, its clues placed straight into the band state."""
    bt = tables.band
    state = stack.reshape(-1).view(np.uint32)
    return _count_from_root(state, load_board(board, state, bt), limit, bt, branch_cell, todo,
                            solution)


@njit(cache=True)
def _count_from_root(state, dirty, limit, bt, branch_cell, todo, solution):
    """The search of :func:`count_solutions` from the root state at ``state[:30]``, whose
    placed cells changed the digit-bands ``dirty`` (-1: the placements clashed)."""
    if dirty < 0 or not propagate_bands(state, 0, 0, 0, np.int64(0), dirty,
                                        np.int64((1 << 27) - 1), bt):
        return 0
    cell = pick_branch_cell(state, 0, bt)
    if cell < 0:
        write_solution(state, 0, bt, solution)
        return 1
    count = 0
    depth = 0
    branch_cell[0] = cell
    todo[0] = candidates(state, 0, cell)
    while depth >= 0:
        remaining = np.int64(todo[depth])
        if remaining == 0:
            depth -= 1
            continue
        low = remaining & -remaining
        todo[depth] = remaining ^ low
        at = STRIDE * depth
        if remaining != low:  # not the last candidate: keep this depth's state for the next
            at += STRIDE
            for i in range(30):
                state[at + i] = state[at - STRIDE + i]
        cell = branch_cell[depth]
        ok = propagate_bands(state, at, bit_index(low, bt), cell // 27,
                             np.int64(1) << (cell % 27), np.int64(0), np.int64(0), bt)
        cell = pick_branch_cell(state, at, bt) if ok else -1
        if ok and cell < 0:
            count += 1
            if count == 1:
                write_solution(state, at, bt, solution)
            if count >= limit:
                return count
        if cell < 0:
            if remaining == low:
                depth -= 1
            continue
        depth = at // STRIDE
        branch_cell[depth] = cell
        todo[depth] = candidates(state, at, cell)
    return count



@njit(cache=True)
def board_to_masks(board, masks):
    """Candidate state of a board: a clue's cell gets its digit, an empty cell all nine."""
    for cell in range(81):
        d = board[cell]
        masks[cell] = np.uint16(1 << (d - 1)) if d > 0 else np.uint16(0x1FF)


@njit(cache=True)
def solve_board(board, tables, masks, stack, queue, branch_cell, todo, solution):
    """``NO_ANSWER``, ``UNIQUE`` or ``MULTIPLE`` for a board; the first solution in ``solution``.
    ``masks`` and ``queue`` are not used (the API's scratch, shared with the reference kernel)."""
    return count_board(board, 2, tables, stack, branch_cell, todo, solution)


@njit(cache=True)
def solve_many(boards, tables, statuses, solutions):
    """Solve each row of ``boards`` (``uint8[B, 81]``); statuses and first solutions out."""
    stack = np.empty((82, STRIDE), np.uint32)
    queue = np.empty(81, np.uint8)
    branch_cell = np.empty(82, np.uint8)
    todo = np.empty(82, np.uint16)
    masks = np.empty(81, np.uint16)
    for b in range(boards.shape[0]):
        statuses[b] = solve_board(boards[b], tables, masks, stack, queue, branch_cell, todo,
                                  solutions[b])


# The singles propagation on cell masks, run by the rules (``_rules.py``) and by the
# reference counter (``_solver_v1.py``).


@njit(cache=True)
def _lowest_unit(dirty, debruijn):
    """Index of the lowest set bit of ``dirty`` (a de Bruijn multiply, no loop)."""
    low = dirty & -dirty
    return debruijn[np.uint64(low * np.int64(0x022FDD63CC95386D)) >> np.uint64(58)]


@njit(cache=True)
def record_decided(cell, m, state, cell_units):
    """Record ``cell`` decided as ``m`` in the decided-digit masks (``state[81 + u]``)."""
    for j in range(3):
        state[81 + cell_units[cell, j]] |= m


@njit(cache=True)
def propagate(state, queue, queue_length, dirty, tables):  # noqa: C901 - numba kernel: the solver's hot loop, eliminations and unit scans inline in one fixed point
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
                        record_decided(p, m, state, cell_units)
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
                record_decided(cell, m, state, cell_units)


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
            record_decided(cell, m, state, tables.cell_units)
    return propagate(state, queue, queue_length, np.int64((1 << 27) - 1), tables)


