"""Exact canonical form ("minlex") of a Sudoku puzzle, in numba (paper Sec. 4.2, done exactly).

The canonical form of a board is the lexicographically smallest of its images under the whole
validity-preserving group, reading cells row-major with empty = 0 and digits renumbered in
order of first appearance. Two boards are equivalent exactly when their forms are equal, so
distinct puzzles are counted exactly (the paper's heuristic, ``_canon.paper_normalise``, can
split one class into several forms).

:func:`minlex` builds the minimum row by row. A *survivor* is a partial image: an orientation,
a full column arrangement, the source rows placed so far and the digit labels given so far;
every survivor of generation ``t`` spells the same minimal first ``t`` rows. Generation 0 scores
all 2 x 1296 x 9 (orientation, column arrangement, first row) choices; each later generation
extends every survivor by each source row its band structure allows (a new band at rows 0/3/6,
the rest of the current band otherwise) and keeps the smallest. Ties are what make this
exponential in principle; for puzzles (17+ clues) a few thousand survivors is typical. Past
``capacity`` survivors the kernel returns ``OVERFLOW`` and the caller falls back to
:func:`minlex_bruteforce`, which scores all 2 x 1296 x 1296 arrangements (also the tests' oracle).

``transform`` (``int16[29]``) returns one group element mapping the board onto its form:
``[transposed, rows[9], cols[9], labels[10]]`` with ``form[r, c] = labels[g[rows[r], cols[c]]]``
where ``g`` is the board, transposed first when ``transposed``.
"""

from __future__ import annotations

import numpy as np

from mctslab.core.jit import njit

OK = 0
OVERFLOW = 1


@njit(cache=True)
def _orientations(board):
    grids = np.empty((2, 81), np.uint8)
    for r in range(9):
        for c in range(9):
            grids[0, 9 * r + c] = board[9 * r + c]
            grids[1, 9 * c + r] = board[9 * r + c]
    return grids


@njit(cache=True)
def _extend_compare(grid, row, cols, labels, best, have_best, out):
    """Spell source ``row`` under column arrangement ``cols``, labelling new digits in place
    (``labels[0]`` holds the next free label) and comparing with ``best`` as it goes; stop at
    the first cell where the image is already larger.

    Returns 1 (larger: abandoned, ``out`` and ``labels`` partial), 0 (equal to ``best``) or
    -1 (smaller, or no ``best`` yet; ``out`` holds the whole row).
    """
    state = 0 if have_best else -1
    for c in range(9):
        d = grid[9 * row + cols[c]]
        if d != 0:
            if labels[d] == 0:
                labels[d] = labels[0]
                labels[0] += 1
            d = labels[d]
        if state == 0:
            if d > best[c]:
                return 1
            if d < best[c]:
                state = -1
        out[c] = d
    return state


@njit(cache=True)
def _leading_zeros(grid, row):
    """The most leading empty cells any column arrangement gives source ``row``.

    Stacks go emptiest first and empty cells first inside a stack, so the image starts with
    three zeros per empty stack and then the empty cells of the emptiest occupied stack.
    """
    lowest = 4
    empty_stacks = 0
    for s in range(3):
        n = 0
        for c in range(3 * s, 3 * s + 3):
            if grid[9 * row + c] != 0:
                n += 1
        if n == 0:
            empty_stacks += 1
        elif n < lowest:
            lowest = n
    if empty_stacks == 3:
        return 9
    return 3 * empty_stacks + 3 - lowest


@njit(cache=True)
def _first_generation(grids, line_perms, arr, orient, rows_used, labels, best):
    """Generation 0 into buffer 0; returns the survivor count (-1 on overflow).

    A source row whose image cannot start with as many empty cells as another row's
    (:func:`_leading_zeros`) is larger under every arrangement, so it is not scored.
    """
    capacity = arr.shape[1]
    row = np.empty(9, np.uint8)
    trial = np.empty(10, np.int8)
    zeros = np.empty((2, 9), np.int64)
    most = 0
    for o in range(2):
        for r in range(9):
            zeros[o, r] = _leading_zeros(grids[o], r)
            most = max(most, zeros[o, r])
    count = 0
    have_best = False
    for o in range(2):
        for r in range(9):
            if zeros[o, r] < most:
                continue
            for a in range(line_perms.shape[0]):
                trial[:] = 0
                trial[0] = 1
                cmp = _extend_compare(grids[o], r, line_perms[a], trial, best, have_best, row)
                if cmp > 0:
                    continue
                if cmp < 0:
                    best[:] = row
                    count = 0
                    have_best = True
                if count >= capacity:
                    return -1
                arr[0, count] = a
                orient[0, count] = o
                rows_used[0, count, 0] = r
                labels[0, count, :] = trial
                count += 1
    return count


@njit(cache=True)
def _next_generation(t, src, count, grids, line_perms, arr, orient, rows_used, labels, best):
    """Extend the ``count`` survivors in buffer ``src`` by target row ``t`` into the other one."""
    dst = 1 - src
    capacity = arr.shape[1]
    row = np.empty(9, np.uint8)
    trial = np.empty(10, np.int8)
    new_count = 0
    have_best = False
    for i in range(count):
        used = 0
        for k in range(t):
            used |= 1 << rows_used[src, i, k]
        if t % 3 == 0:
            lo, hi = 0, 9  # any row of a band not used yet
        else:
            lo = 3 * (rows_used[src, i, t - 1] // 3)
            hi = lo + 3
        for r in range(lo, hi):
            taken = (used >> (3 * (r // 3))) & 7 if t % 3 == 0 else (used >> r) & 1
            if taken:
                continue
            trial[:] = labels[src, i]
            cmp = _extend_compare(grids[orient[src, i]], r, line_perms[arr[src, i]], trial, best,
                                  have_best, row)
            if cmp > 0:
                continue
            if cmp < 0:
                best[:] = row
                new_count = 0
                have_best = True
            if new_count >= capacity:
                return -1
            arr[dst, new_count] = arr[src, i]
            orient[dst, new_count] = orient[src, i]
            rows_used[dst, new_count, :t] = rows_used[src, i, :t]
            rows_used[dst, new_count, t] = r
            labels[dst, new_count, :] = trial
            new_count += 1
    return new_count


@njit(cache=True)
def minlex(board, out, transform, line_perms, arr, orient, rows_used, labels):
    """Exact canonical form of ``board`` into ``out``; ``OK`` or ``OVERFLOW`` (out undefined)."""
    grids = _orientations(board)
    best = np.empty(9, np.uint8)
    count = _first_generation(grids, line_perms, arr, orient, rows_used, labels, best)
    if count < 0:
        return OVERFLOW
    out[0:9] = best
    src = 0
    for t in range(1, 9):
        count = _next_generation(t, src, count, grids, line_perms, arr, orient, rows_used,
                                 labels, best)
        if count < 0:
            return OVERFLOW
        src = 1 - src
        out[9 * t:9 * t + 9] = best
    transform[0] = orient[src, 0]
    transform[1:10] = rows_used[src, 0]
    transform[10:19] = line_perms[arr[src, 0]]
    transform[19:29] = labels[src, 0]
    transform[19] = 0
    return OK


@njit(cache=True)
def minlex_bruteforce(board, out, line_perms):
    """The same form by scoring all 2 x 1296 x 1296 arrangements (early abandon on a worse cell)."""
    grids = _orientations(board)
    labels = np.empty(10, np.int8)
    have_best = False
    for o in range(2):
        g = grids[o]
        for ra in range(line_perms.shape[0]):
            rows = line_perms[ra]
            for ca in range(line_perms.shape[0]):
                cols = line_perms[ca]
                labels[:] = 0
                next_label = 1
                state = 0 if have_best else -1  # 0: equal so far, -1: already smaller
                for i in range(81):
                    d = g[9 * rows[i // 9] + cols[i % 9]]
                    if d != 0:
                        if labels[d] == 0:
                            labels[d] = next_label
                            next_label += 1
                        d = labels[d]
                    if state == 0:
                        if d > out[i]:
                            break
                        if d < out[i]:
                            state = -1
                    if state == -1:
                        out[i] = d
                have_best = True
