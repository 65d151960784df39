"""Human solving rules, the paper's ``solveByRule`` (Sec. 2 and 4.3, Figs. 3-4), in numba.

Applied to a candidate state (``uint16[81]``) until nothing changes:

- **Cell-Unique** (naked single) and **Line-/Block-Unique** (hidden single): delegated to the
  solver's :func:`~mctslab.sudoku._solver.propagate`, which fixes such cells and removes
  their digit from the peers;
- **k-Naked** (k = 2..4): k undecided cells of a row, column or block whose candidates together
  are exactly k digits; those digits are removed from the unit's other cells (Fig. 3);
- **k-Hidden** (k = 2..4): k digits that, within a unit, fit only the same k cells; those
  cells lose every other candidate (Fig. 4).

Every rule is sound, so a state keeps its solutions; a contradiction (a cell or a unit left
without a possibility) is reported by returning False. Digits fixed here are deductions, not
clues: the playout keeps its clues separately (paper, footnote 1).
"""

from __future__ import annotations

import numpy as np

from mctslab.core.jit import njit
from mctslab.sudoku._solver import start_propagation


@njit(cache=True)
def _eliminate(masks, u, targets, digits, keep, tables, queue, queue_length, counts):
    """In unit ``u``, on the cells at positions ``targets``: remove ``digits`` (keep=False) or
    everything but ``digits`` (keep=True). Returns the new queue length, -1 on an empty cell."""
    popcount = tables.popcount
    for j in range(9):
        if (targets >> j) & 1:
            cell = tables.units[u, j]
            m = masks[cell]
            new = (m & np.uint16(digits)) if keep else (m & ~np.uint16(digits))
            if new != m:
                if new == 0:
                    return -1
                masks[cell] = new
                counts[0] += 1
                if popcount[new] == 1:
                    queue[queue_length] = cell
                    queue_length += 1
    return queue_length


@njit(cache=True)
def _effective(naked, chosen, union, unit_masks, free_cells):
    """Would the subset remove anything? naked: ``union``'s digits from the other free cells;
    hidden (``chosen`` = digits, ``union`` = cells): other digits from those cells."""
    for j in range(9):
        if naked:
            if (free_cells >> j) & 1 and not (chosen >> j) & 1 and unit_masks[j] & union:
                return True
        elif (union >> j) & 1 and unit_masks[j] & ~chosen:
            return True
    return False


@njit(cache=True)
def _subsets(naked, sets, items, n_items, unit_masks, free_cells, popcount):  # noqa: C901 - numba kernel: the k = 2, 3, 4 loops nested inline, each level testing its union (no call per combination)
    """First effective k-subset (k = 2..4) of ``items`` whose ``sets`` union has k members.

    naked: items are positions and ``sets`` their candidates; hidden: items are digits and
    ``sets`` their positions. Only items with 2..4 members are passed, so the nested loops stay
    short. Returns (chosen items as a bit mask, union); (0, 0) when none; (-1, 0) on a
    contradiction (k items sharing fewer than k members).
    """
    for i in range(n_items):
        for j in range(i + 1, n_items):
            u2 = np.int64(sets[i]) | np.int64(sets[j])
            n2 = popcount[u2]
            c2 = (np.int64(1) << items[i]) | (np.int64(1) << items[j])
            if n2 < 2:
                return np.int64(-1), np.int64(0)
            if n2 == 2 and _effective(naked, c2, u2, unit_masks, free_cells):
                return c2, u2
            if n2 > 4:
                continue
            for l in range(j + 1, n_items):
                u3 = u2 | np.int64(sets[l])
                n3 = popcount[u3]
                c3 = c2 | (np.int64(1) << items[l])
                if n3 < 3:
                    return np.int64(-1), np.int64(0)
                if n3 == 3 and _effective(naked, c3, u3, unit_masks, free_cells):
                    return c3, u3
                if n3 > 4:
                    continue
                for m in range(l + 1, n_items):
                    u4 = u3 | np.int64(sets[m])
                    n4 = popcount[u4]
                    c4 = c3 | (np.int64(1) << items[m])
                    if n4 < 4:
                        return np.int64(-1), np.int64(0)
                    if n4 == 4 and _effective(naked, c4, u4, unit_masks, free_cells):
                        return c4, u4
    return np.int64(0), np.int64(0)


@njit(cache=True)
def _unit_subsets(masks, u, tables, sets, items, positions, unit_masks, queue, queue_length,  # noqa: C901 - numba kernel: one unit's naked and hidden passes inline (run per unit in the rules' fixed point)
                  counts):
    """k-Naked then k-Hidden subsets (k = 2..4) in unit ``u`` (Figs. 3-4).

    Only an undecided cell with at most four candidates can be in a naked subset, and only a
    digit with at most four places in a hidden one; the others are skipped up front. Returns
    the new queue length, or -1 on a contradiction.
    """
    popcount = tables.popcount
    free_cells = 0
    decided_digits = 0
    for d in range(9):
        positions[d] = 0
    n = 0
    for j in range(9):
        m = masks[tables.units[u, j]]
        unit_masks[j] = m
        if popcount[m] == 1:
            decided_digits |= m
            continue
        free_cells |= 1 << j
        for d in range(9):
            if (m >> d) & 1:
                positions[d] |= 1 << j
        if popcount[m] <= 4:
            sets[n] = m
            items[n] = j
            n += 1
    chosen, union = _subsets(True, sets, items, n, unit_masks, free_cells, popcount)
    if chosen < 0:
        return -1
    if chosen > 0:  # naked: the subset's digits leave the unit's other cells
        return _eliminate(masks, u, free_cells & ~chosen, union, False, tables, queue,
                          queue_length, counts)
    free_digits = 0x1FF & ~decided_digits
    n = 0
    for d in range(9):
        if (free_digits >> d) & 1 and 2 <= popcount[positions[d]] <= 4:
            sets[n] = positions[d]
            items[n] = d
            n += 1
    chosen, cells = _subsets(False, sets, items, n, unit_masks, free_cells, popcount)
    if chosen < 0:
        return -1
    if chosen > 0:  # hidden: the subset's cells keep only the subset's digits
        return _eliminate(masks, u, cells, chosen, True, tables, queue, queue_length, counts)
    return queue_length


@njit(cache=True)
def apply_rules(masks, tables, queue, positions, counts, sets, items, unit_masks, state):
    """All of the paper's rules on ``masks`` to a fixed point, in place; False on a contradiction.

    Scratch: ``queue`` (``uint8[81]``), ``positions``, ``sets``, ``unit_masks`` (``uint16[9]``),
    ``items`` (``int64[9]``), ``state`` (``uint16[108]``, for the singles), ``counts``
    (``int64[1]``, candidates removed by subsets, accumulated).
    Singles run to a fixed point first; subsets are tried only when singles are stuck.
    """
    while True:
        state[:81] = masks
        ok = start_propagation(state, queue, tables)
        masks[:] = state[:81]
        if not ok:
            return False
        queue_length = 0
        before = counts[0]
        for u in range(27):
            queue_length = _unit_subsets(masks, u, tables, sets, items, positions, unit_masks,
                                         queue, queue_length, counts)
            if queue_length < 0:
                return False
        if counts[0] == before:
            return True
