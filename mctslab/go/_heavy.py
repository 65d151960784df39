"""The strong engine's playouts: a move chooser per policy, and a playout that
records its moves for AMAF.

Reading guide.

* **Policies** (:data:`mctslab.go.strong.PLAYOUT_POLICIES`, by code): ``LIGHT`` (0) is the
  light policy of :mod:`mctslab.go._playout` (a random legal point that does not fill an own
  one-point eye); ``PATTERN`` (1) is the pattern policy of :mod:`mctslab.go._patterns`
  (captures and atari escapes near the last move, then GNU Go's 3x3 Monte-Carlo pattern weights
  around it, then light); ``HEAVY`` (2) is ``PATTERN`` with a self-atari filter
  (:func:`heavy_move`): a move that leaves a string of two or more stones with a single liberty
  is refused with probability ``reject_suggested`` when the tactics or patterns proposed it, and
  ``reject_random`` when the light policy drew it; a refused move is drawn again uniformly, at
  most ``random_tries`` times, then the last draw is played. A lone stone may still be played
  into atari (throw-ins, nakade), as in michi's and Pachi's playouts.
* **Ladders** (``PlayoutPolicy.ladders``, with ``PATTERN`` and ``HEAVY``): a proposed move that
  extends an own string in atari (its liberty, capturing nothing) is not played when the
  string is then captured in a ladder (:func:`escape_target`, then
  :func:`mctslab.go._ladder.read_ladder`);
  the light policy draws the move instead, as Pachi's moggy and michi skip an escape that
  runs into a ladder.
* **Two-liberty tactics** (``PlayoutPolicy.twolib``, with ``PATTERN`` and ``HEAVY``): the
  attacks and defences of strings with two liberties next to the last move
  (:mod:`mctslab.go._twolib`) join step 1's captures and escapes (:func:`tactics_first_move`).
* **Last good reply with forgetting** (``PlayoutPolicy.lgrf``; Baier & Drake 2010, LGRF-1):
  ``replies[c, q]`` is the point ``c`` last answered ``q`` with in a playout ``c`` won
  (:func:`lgrf_update`, after every simulation, tree moves included; a reply of a lost
  simulation that is stored is forgotten). A playout move first tries the stored reply to the
  previous move: played when the point is empty, legal for ``color``, not its own eye nor the
  ko, and (``HEAVY``) not a bad self-atari; else the policy's move. The table starts empty at
  every search.
* **Playout** (:func:`playout_recorded`): plays the position out to two passes or
  ``max_moves`` moves and appends every move (points, ``PASS = 0``) to ``seq`` from index
  ``start``, so the search can credit the first play of each point to the AMAF statistics of
  every tree node above (:mod:`mctslab.go._strong`). The state-tabu paper's lists
  (:mod:`mctslab.go._tabu`) may check its first moves, and the hash after each of its first
  ``len(hash_out)`` moves is written to ``hash_out`` (the paper's Fig. 5), as in the UCT
  engine's playouts.
* Kernels run with ``_nrt=False`` and allocate nothing (the pattern policy's scratch comes in
  its ``policy_data`` bundle, see :func:`mctslab.go.patterns.policy_data`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mctslab.core.jit import njit
from mctslab.go._board import (
    BLACK,
    EMPTY,
    I_KO,
    I_KO_COLOR,
    I_LAST,
    I_PASSES,
    I_TO_MOVE,
    I_WIDTH,
    PASS,
    _atari,
    _playable,
    _u,
    area_score,
    hash_after,
    play_arrays,
)
from mctslab.go._ladder import CAPTURED, LadderScratch, open_escape, read_ladder
from mctslab.go._patterns import (
    TACTICS_RATE,
    PatternPolicy,
    choose_pattern_move,
    liberties_after,
    sample_near_move,
    tactical_moves,
)
from mctslab.go._playout import TABU_NONE, TABU_STATE, choose_light_move
from mctslab.go._tabu import tabu_check, tabu_key
from mctslab.go._twolib import two_liberty_moves
from mctslab.rng import rng_below, rng_random

LIGHT, PATTERN, HEAVY = 0, 1, 2  # playout policy codes (strong.PLAYOUT_POLICIES)


class PlayoutPolicy(NamedTuple):
    """What a strong-engine playout plays with (a bundle of typed flags and tables)."""

    policy: int              # LIGHT, PATTERN or HEAVY
    patterns: PatternPolicy  # the pattern policy's ``policy_data`` (patterns.policy_data)
    reject_suggested: float  # HEAVY: probability of refusing a proposed bad self-atari
    reject_random: float     # HEAVY: the same for a uniformly drawn move
    random_tries: int        # HEAVY: uniform redraws after refusals before playing the last
    ladders: bool            # PATTERN, HEAVY: no proposed escape into a ladder
    ladder: LadderScratch    # the ladder reader's board and stack
    lgrf: bool               # play the last good reply first (module docstring)
    replies: np.ndarray      # int32[3, points]: colour, previous point -> its reply (0: none)
    twolib: bool             # PATTERN, HEAVY: two-liberty tactics join step 1 (mctslab.go._twolib)


@njit(cache=True, _nrt=False, inline="always")
def self_atari_stones(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, w, color, p):
    """Stones of ``color``'s string through empty ``p`` after ``color`` plays there, when that
    string is left with exactly one liberty (captures counted); 0 when it keeps two or more
    (or is a suicide)."""
    if liberties_after(col, group, next_stone, libs, lib_sum, lib_sumsq, w, color, p) != 1:
        return 0
    total = 1
    nb = (p - 1, p + 1, p - w, p + w)
    for k in range(4):
        q = nb[k]
        if col[_u(q)] != color:
            continue
        g = group[_u(q)]
        seen = False
        for j in range(k):
            if col[_u(nb[j])] == color and group[_u(nb[j])] == g:
                seen = True
        if not seen:
            total += stones[_u(g)]
    return total


@njit(cache=True, _nrt=False, inline="always")
def _bad_self_atari(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, w, color, p):
    return p != PASS and self_atari_stones(col, group, next_stone, stones, libs, lib_sum,
                                           lib_sumsq, w, color, p) >= 2


@njit(cache=True, _nrt=False, inline="always")
def escape_target(col, group, libs, lib_sum, lib_sumsq, w, color, p):
    """A stone of the own string in atari that ``color`` on ``p`` extends, when the move
    captures nothing and leaves ``p`` fewer than three empty neighbours (else there is no ladder
    to read); -1 when there is none."""
    if open_escape(col, w, p):
        return -1
    target = -1
    for q in (p - 1, p + 1, p - w, p + w):
        c = col[_u(q)]
        if (c == color or c == 3 - color) and _atari(libs, lib_sum, lib_sumsq, group[_u(q)]):
            if c != color:
                return -1  # a capture, not an extension
            target = q
    return target


@njit(cache=True, _nrt=False)
def tactics_first_move(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, info, rng,  # noqa: PLR0913 - numba kernel: the unpacked board arrays, as heavy_move
                       color, policy):
    """The pattern policy's steps 1 and 2 (``choose_pattern_move``) with the two-liberty
    candidates (:func:`mctslab.go._twolib.two_liberty_moves`) joining step 1's captures and
    escapes, one drawn uniformly among them; -1 for "let the light policy choose"."""
    last = info[I_LAST]
    if last == PASS:
        return -1
    data = policy.patterns
    rate = data.params[TACTICS_RATE]
    if rate >= 1.0 or (rate > 0.0 and rng_random(rng) < rate):
        n = tactical_moves(col, group, next_stone, libs, lib_sum, lib_sumsq, info, color, last,
                           data.points)
        n = two_liberty_moves(col, group, info, color, last, data.points, n, policy.ladder)
        if n > 0:
            return data.points[rng_below(rng, n)]
    return sample_near_move(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, info, rng,
                            color, last, data)


# inline="always": a call passing the policy bundle (the pattern tables' tuple) cost ~10% of
# the 19x19 playout speed (measured); choose_pattern_move stays a call (see _patterns)
@njit(cache=True, _nrt=False, inline="always")
def heavy_move(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, empty, info, rng,  # noqa: PLR0913 - numba kernel: the unpacked board arrays, not a BoardState (a NamedTuple per call costs ~130 ns in the hot loop)
               color, policy):
    """The move of ``policy`` (a :class:`PlayoutPolicy`) for ``color``: a point or PASS."""
    code = policy.policy
    w = info[I_WIDTH]
    if code != LIGHT:
        if policy.twolib:
            p = tactics_first_move(col, group, next_stone, stones, libs, lib_sum, lib_sumsq,
                                   info, rng, color, policy)
        else:
            p = choose_pattern_move(col, group, next_stone, stones, libs, lib_sum, lib_sumsq,
                                    info, rng, color, policy.patterns)
        if p >= 0 and policy.ladders:  # the cheap tests here, a call only to read
            target = escape_target(col, group, libs, lib_sum, lib_sumsq, w, color, p)
            if target >= 0 and read_ladder(col, w, info[I_KO], info[I_KO_COLOR], color, p,
                                           target, policy.ladder) == CAPTURED:
                p = -1
        if p >= 0:
            if code == PATTERN or not _bad_self_atari(
                    col, group, next_stone, stones, libs, lib_sum, lib_sumsq, w, color, p) or \
                    rng_random(rng) >= policy.reject_suggested:
                return p
    p = choose_light_move(col, group, libs, lib_sum, lib_sumsq, empty, info, rng, color)
    if code != HEAVY:
        return p
    for _ in range(policy.random_tries):
        if not _bad_self_atari(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, w,
                               color, p) or rng_random(rng) >= policy.reject_random:
            return p
        p = choose_light_move(col, group, libs, lib_sum, lib_sumsq, empty, info, rng, color)
    return p


@njit(cache=True, _nrt=False, inline="always")
def stored_reply(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, info, color, prev,  # noqa: PLR0913 - numba kernel: the unpacked board arrays, as heavy_move
                 policy):
    """The last good reply of ``color`` to the point ``prev`` when it can be played now (module
    docstring), else -1."""
    r = np.int64(policy.replies[color, prev])
    if r <= 0 or col[_u(r)] != EMPTY:
        return -1
    w = info[I_WIDTH]
    if (info[I_KO_COLOR] == color and r == info[I_KO]) or \
            not _playable(col, group, libs, lib_sum, lib_sumsq, w, color, r):
        return -1
    if policy.policy == HEAVY and _bad_self_atari(col, group, next_stone, stones, libs,
                                                  lib_sum, lib_sumsq, w, color, r):
        return -1
    return r


@njit(cache=True, _nrt=False)
def lgrf_update(replies, seq, seq_end, first_color, result):
    """LGRF-1 after a simulation ``seq[:seq_end]`` (moves alternate, the first by
    ``first_color``; ``result`` 1 Black won, 0 White, 0.5 a draw: nothing learnt): each move of
    the winner becomes its reply to the move before it; a move of the loser that is the stored
    reply to the move before it is forgotten."""
    if result == 0.5:
        return
    winner = BLACK if result > 0.5 else 3 - BLACK
    for k in range(1, seq_end):
        color = first_color if k % 2 == 0 else 3 - first_color
        prev, move = seq[k - 1], seq[k]
        if color == winner:
            if move != PASS:
                replies[color, prev] = move
        elif replies[color, prev] == move:
            replies[color, prev] = 0


@njit(cache=True, _nrt=False)
def playout_recorded(st, rng, policy, komi, max_moves, seq, start, tabu, slot, hash_out):
    """Play ``st`` out in place with ``policy``; every move goes to ``seq[start:]``. Returns
    ``(area score minus komi, index after the last recorded move)``.

    ``tabu`` (a :class:`mctslab.go._playout.Tabu`) checks the first ``M`` moves against queue
    set ``slot`` (-1: no tabu), as ``_playout.playout`` does: a rejected candidate is drawn
    again by the policy, up to ``tabu.config[4]`` times, then uniformly. ``hash_out[k]``
    receives the position's hash after playout move ``k + 1`` (for the first
    ``len(hash_out)`` moves played; an empty array records nothing)."""
    col, group, next_stone, stones = st.color, st.group, st.next_stone, st.stones
    libs, lib_sum, lib_sumsq, info = st.libs, st.lib_sum, st.lib_sumsq, st.info
    empty, empty_index, captured, hash_, zobrist = st.empty, st.empty_index, st.captured, \
        st.hash, st.zobrist
    n = start
    moves = 0
    recorded = hash_out.shape[0]
    tabu_moves = tabu.config[2] if slot >= 0 and tabu.config[0] != TABU_NONE and \
        tabu.config[1] > 0 else 0
    while info[I_PASSES] < 2 and moves < max_moves:
        color = info[I_TO_MOVE]
        p = -1
        if policy.lgrf and n > 0:
            p = stored_reply(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, info,
                             color, seq[n - 1], policy)
        if p < 0:
            p = heavy_move(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, empty,
                           info, rng, color, policy)
        rejected = 0
        while moves < tabu_moves:
            if tabu.config[3] == TABU_STATE:
                key = tabu_key(hash_after(col, group, next_stone, libs, lib_sum, lib_sumsq,
                                          info, hash_, zobrist, color, p))
            else:
                key = tabu_key(p + 1)
            if tabu_check(tabu.queues, tabu.heads, slot, moves, key, tabu.config[1],
                          tabu.config[0], tabu.buf):
                break
            tabu.stats[0] += 1  # a tabu candidate: draw again from the same position
            rejected += 1
            if rejected <= tabu.config[4]:
                p = heavy_move(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, empty,
                               info, rng, color, policy)
            else:
                p = choose_light_move(col, group, libs, lib_sum, lib_sumsq, empty, info, rng,
                                      color)
        play_arrays(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, empty,
                    empty_index, captured, info, hash_, zobrist, color, p)
        seq[n] = p
        if moves < recorded:
            hash_out[moves] = hash_[0]
        n += 1
        moves += 1
    return area_score(st, komi), n


@njit(cache=True, _nrt=False)
def self_atari_size(st, color, p):
    """:func:`self_atari_stones` on a state (tests, Python callers)."""
    return self_atari_stones(st.color, st.group, st.next_stone, st.stones, st.libs, st.lib_sum,
                             st.lib_sumsq, st.info[I_WIDTH], color, p)
