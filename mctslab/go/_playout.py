"""Playouts: play a position out to the end and score it (Tromp-Taylor area, minus komi).

* :func:`choose_move` is the one place a playout policy is chosen, by its integer code
  (``api.POLICIES``): ``LIGHT`` (0) picks a uniformly random start in the empty-point list and
  takes the first point from there (cyclically) that is legal and does not fill the mover's own
  single-point eye (michi / Pachi's light playout); no such point = pass. A heavier policy adds
  its branch here, calling a kernel of its own module with ``policy_data`` (e.g. pattern
  weights; empty for ``LIGHT``).
* The state-tabu hook (``tabu_mode``, issue 12): with ``tabu_mode != 0`` a candidate move may be
  rejected before it is played (:func:`tabu_rejects`, a stub that rejects nothing for now).
* The kernels here run with ``_nrt=False`` (no reference counting: measured, it was two
  thirds of the cost of a move), so nothing called from :func:`playout` may allocate an array;
  a policy gets its tables through ``policy_data`` (any array or tuple of arrays: numba
  compiles one specialisation per type) and its scratch preallocated.
* :func:`playout` stops at two consecutive passes or after ``max_moves`` moves (3 N^2 by
  default) and writes the hash after each of its first ``len(hash_out)`` moves to ``hash_out``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rng import rng_below
from ._board import (
    I_KO,
    I_KO_COLOR,
    I_NUM_EMPTY,
    I_PASSES,
    I_TO_MOVE,
    I_WIDTH,
    OK,
    PASS,
    _check_neighbours,
    _eye_like,
    area_score,
    play_arrays,
)

LIGHT = 0
TABU_NONE = 0


@njit(cache=True, _nrt=False, inline="always")
def tabu_rejects(col, info, color, p, tabu_mode):
    """Issue 12 hook: True to reject ``color`` playing ``p`` here (nothing rejected yet).

    The per-leaf state-tabu queue check goes here (pass it the queue and the hash arrays when
    it is written): the hash after the move is ``hash ^ zobrist[color, p] ^ zobrist[0, 0]``
    (captures aside).
    """
    return False


@njit(cache=True, _nrt=False, inline="always")
def choose_light_move(col, group, libs, lib_sum, lib_sumsq, empty, info, rng, color, tabu_mode):
    """A random legal point that does not fill ``color``'s own eye, or PASS."""
    n = info[I_NUM_EMPTY]
    if n == 0:
        return PASS
    w = info[I_WIDTH]
    ko = info[I_KO] if info[I_KO_COLOR] == color else -1
    i = rng_below(rng, n)
    for _ in range(n):
        p = np.int64(empty[i])
        if p != ko and not _eye_like(col, w, p, color) and \
                _check_neighbours(col, group, libs, lib_sum, lib_sumsq, w, color, p) == OK:
            if tabu_mode == TABU_NONE or not tabu_rejects(col, info, color, p, tabu_mode):
                return p
        i += 1
        if i == n:
            i = 0
    return PASS


@njit(cache=True, _nrt=False)
def playout(st, rng, policy, policy_data, komi, max_moves, hash_out, tabu_mode):
    """Play ``st`` out in place; returns ``(area score minus komi, moves played)``.

    The state's arrays are unpacked once here (see the performance note in ``_board``); a
    policy's move generator takes the arrays it needs.
    """
    col, group, next_stone, stones = st.color, st.group, st.next_stone, st.stones
    libs, lib_sum, lib_sumsq, info = st.libs, st.lib_sum, st.lib_sumsq, st.info
    empty, empty_index, captured, hash_, zobrist = st.empty, st.empty_index, st.captured, \
        st.hash, st.zobrist
    moves = 0
    recorded = hash_out.shape[0]
    while info[I_PASSES] < 2 and moves < max_moves:
        color = info[I_TO_MOVE]
        # Policy dispatch. A new policy adds its branch:
        #   if policy == PATTERN: p = pattern_move(col, ..., rng, color, policy_data, tabu_mode)
        p = choose_light_move(col, group, libs, lib_sum, lib_sumsq, empty, info, rng, color,
                              tabu_mode)
        play_arrays(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, empty,
                    empty_index, captured, info, hash_, zobrist, color, p)
        if moves < recorded:
            hash_out[moves] = hash_[0]
        moves += 1
    return area_score(st, komi), moves
