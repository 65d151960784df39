"""Playouts: play a position out to the end and score it (Tromp-Taylor area, minus komi).

* :func:`choose_move` is the one place a playout policy is chosen, by its integer code
  (``api.POLICIES``): ``LIGHT`` (0) picks a uniformly random start in the empty-point list and
  takes the first point from there (cyclically) that is legal and does not fill the mover's own
  single-point eye (michi / Pachi's light playout); no such point = pass. ``PATTERN`` (1) is
  :func:`_patterns.pattern_move` (captures and escapes near the last move, then GNU Go's 3x3
  pattern weights around it, with its tables in ``policy_data``), falling back on ``LIGHT``.
  A heavier policy adds its branch here, calling a kernel of its own module with
  ``policy_data`` (empty for ``LIGHT``).
* State and move tabu (the state-tabu paper): at playout moves ``m < M`` the policy's
  candidate is checked against the leaf's queue ``Q_m`` (:mod:`mctslab.go._tabu`) before it is
  played: the key is the hash of the position it would give (:func:`_board.hash_after`,
  captures included) or the move itself; a rejected candidate (a *tabu candidate*, counted in
  ``tabu.stats[0]``) sends the policy back to draw again from the same position: the playout's
  own policy again, up to ``tabu.config[4]`` rejections of one move (a policy with a single
  forced candidate, e.g. one capture, would otherwise draw it for ever), then ``LIGHT``
  (``config[4] = 0``: ``LIGHT`` at once). The batch-on-loss flush
  happens in the search, which knows the result.
* The kernels here run with ``_nrt=False`` (no reference counting: measured, it was two
  thirds of the cost of a move), so nothing called from :func:`playout` may allocate an array;
  a policy gets its tables through ``policy_data`` (any array or tuple of arrays: numba
  compiles one specialisation per type) and its scratch preallocated.
* :func:`playout` stops at two consecutive passes or after ``max_moves`` moves (3 N^2 by
  default) and writes the hash after each of its first ``len(hash_out)`` moves to ``hash_out``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mctslab.core.jit import njit
from mctslab.go._board import (
    I_KO,
    I_KO_COLOR,
    I_NUM_EMPTY,
    I_PASSES,
    I_TO_MOVE,
    I_WIDTH,
    PASS,
    _playable,
    _u,
    area_score,
    hash_after,
    play_arrays,
)
from mctslab.go._patterns import pattern_move
from mctslab.go._tabu import NONE as TABU_NONE
from mctslab.go._tabu import tabu_check, tabu_key
from mctslab.rng import rng_below

LIGHT, PATTERN = 0, 1  # policy codes (api.POLICIES)
TABU_STATE, TABU_MOVE = 0, 1  # what the queues hold (Tabu.config[3])


class Tabu(NamedTuple):
    """The tabu queues of one search (see :mod:`mctslab.go._tabu`), indexed by leaf node."""

    queues: np.ndarray  # uint64[nodes, M, L]
    heads: np.ndarray   # int32[nodes, M]
    buf: np.ndarray     # uint64[M] batch-on-loss buffer of the current playout
    config: np.ndarray  # int64[5]: update mode (_tabu.NONE / SEQUENTIAL / BATCH_ON_LOSS),
    #                     size L_k, moves M, TABU_STATE or TABU_MOVE, policy redraws allowed
    stats: np.ndarray   # int64[1]: tabu candidates rejected


def no_tabu() -> Tabu:
    """A :class:`Tabu` that never rejects (mode NONE)."""
    return Tabu(np.zeros((1, 1, 1), np.uint64), np.zeros((1, 1), np.int32),
                np.zeros(1, np.uint64), np.zeros(5, np.int64), np.zeros(1, np.int64))


@njit(cache=True, _nrt=False, inline="always")
def choose_light_move(col, group, libs, lib_sum, lib_sumsq, empty, info, rng, color):
    """A random legal point that does not fill ``color``'s own eye, or PASS."""
    n = info[I_NUM_EMPTY]
    if n == 0:
        return PASS
    w = info[I_WIDTH]
    ko = info[I_KO] if info[I_KO_COLOR] == color else -1
    i = rng_below(rng, n)
    for _ in range(n):
        p = np.int64(empty[_u(i)])
        if _playable(col, group, libs, lib_sum, lib_sumsq, w, color, p) and p != ko:
            return p
        i += 1
        if i == n:
            i = 0
    return PASS


@njit(cache=True, _nrt=False)
def playout(st, rng, policy, policy_data, komi, max_moves, hash_out, tabu, leaf):
    """Play ``st`` out in place; returns ``(area score minus komi, moves played)``.

    The state's arrays are unpacked once here (see the performance note in ``_board``); a
    policy's move generator takes the arrays it needs. ``tabu`` (a :class:`Tabu`) checks the
    first ``M`` moves against the queues of node ``leaf``.
    """
    col, group, next_stone, stones = st.color, st.group, st.next_stone, st.stones
    libs, lib_sum, lib_sumsq, info = st.libs, st.lib_sum, st.lib_sumsq, st.info
    empty, empty_index, captured, hash_, zobrist = st.empty, st.empty_index, st.captured, \
        st.hash, st.zobrist
    moves = 0
    recorded = hash_out.shape[0]
    tabu_mode, tabu_size, tabu_moves = tabu.config[0], tabu.config[1], tabu.config[2]
    policy_redraws = tabu.config[4]
    if tabu_mode == TABU_NONE or tabu_size <= 0:
        tabu_moves = 0
    while info[I_PASSES] < 2 and moves < max_moves:
        color = info[I_TO_MOVE]
        rejected = 0
        while True:
            # Policy dispatch. PATTERN (_patterns) returns -1 to leave the move to LIGHT; after
            # a tabu rejection the policy draws again, LIGHT once policy_redraws are used up.
            p = -1
            if policy == PATTERN and rejected <= policy_redraws:
                p = pattern_move(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, info,
                                 rng, color, policy_data)
            if p < 0:
                p = choose_light_move(col, group, libs, lib_sum, lib_sumsq, empty, info, rng,
                                      color)
            if moves >= tabu_moves:
                break
            if tabu.config[3] == TABU_STATE:
                key = tabu_key(hash_after(col, group, next_stone, libs, lib_sum, lib_sumsq, info,
                                          hash_, zobrist, color, p))
            else:
                key = tabu_key(p + 1)
            if tabu_check(tabu.queues, tabu.heads, leaf, moves, key, tabu_size, tabu_mode,
                          tabu.buf):
                break
            tabu.stats[0] += 1  # a tabu candidate: draw again from the same position
            rejected += 1
        play_arrays(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, empty,
                    empty_index, captured, info, hash_, zobrist, color, p)
        if moves < recorded:
            hash_out[moves] = hash_[0]
        moves += 1
    return area_score(st, komi), moves
