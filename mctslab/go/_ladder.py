"""Ladder reading for the strong engine's priors and playouts, numba kernels.

A *ladder*: the attacker keeps a string at one liberty, atari after atari, until it is
captured; the defender escapes when a move of its own gives the string three liberties or more
(an open board, a *ladder breaker*: an own stone on the ladder's path), or when it captures an
attacker stone next to the string and so gains liberties. Read as in Pachi's
``tactics/ladder.c`` (``middle_ladder_walk``: the attacker ataris on either liberty, the
defender extends or counter-captures, counter-captures read out) and michi's
``read_ladder_attack`` / ``fix_atari`` (a two-liberty capture solver), both read, no code
taken.

:func:`read_ladder` answers: after ``color`` plays ``p`` on the position, is the string
through ``target`` captured in a ladder? The AND-OR search it runs:

* **attacker to move** (the string has two liberties): the attacker wins if one of its two
  ataris (a move on either liberty) leads to a defender node it wins; one liberty: captured at
  once; three or more: escaped;
* **defender to move** (the string in atari): its moves are the liberty of every attacker
  string in atari next to it (a counter-capture) and its own liberty (the extension); after a
  move, three liberties or more escape, two go to an attacker node, one fails. The attacker
  wins if every move fails (or none is legal).

The search is depth first with an explicit stack (numba's cached recursive functions crash on
reload), on the position's colour array itself, moves played and undone through a log (the
array is as it was when the reading returns); liberties are counted by flood fill, captures,
suicide and simple ko follow :mod:`mctslab.go._board`'s rules. :func:`open_escape` is the
callers' quick exit. It is bounded: at most ``limits[0]`` moves played per
reading and ``candidates.shape[0]`` plies deep, and a defender node with more than
``candidates.shape[1]`` moves; a reading that hits a bound answers :data:`UNKNOWN`, which
callers take as "no ladder".
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mctslab.core.jit import njit
from mctslab.go._board import BLACK, EMPTY, WHITE, _u

CAPTURED, ESCAPES, UNKNOWN = 1, 0, -1  # read_ladder's answers
ATTACKER, DEFENDER = 0, 1              # who moves at a search node
NO_KO = 0                              # the ko point of a node with none (PASS, never a point)
C_STAMP, C_PLAYS, C_TOP = 0, 1, 2      # counters[]: last flood-fill stamp, moves left, log top
C_READS, C_MOVES = 3, 4                # ... and, for diagnostics, readings and moves played
DEFENDER_MOVES = 16                    # K: a defender node's most moves (counter-captures + 1)


class LadderScratch(NamedTuple):
    """A reading's board and stack (one per search; :func:`make_scratch` sizes it for a
    board). ``P`` points, ``D`` plies, ``K`` defender moves per node."""

    mark: np.ndarray        # int32[P] flood-fill stamps (a point is seen when == the stamp)
    queue: np.ndarray       # int16[P] flood fill of the laddered string
    queue2: np.ndarray      # int16[P] flood fill of the strings next to it
    log: np.ndarray         # int16[P + 2 D + 8] undo log: points whose colour a move changed
    log_color: np.ndarray   # int8[P + 2 D + 8] their colour before
    candidates: np.ndarray  # int16[D, K] the moves of the node at each ply
    frames: np.ndarray      # int64[D, 5] per ply: kind, next move, moves, log top, ko point
    counters: np.ndarray    # int64[5] C_STAMP, C_PLAYS, C_TOP, C_READS, C_MOVES
    limits: np.ndarray      # int64[1] moves one reading may play


F_KIND, F_NEXT, F_COUNT, F_UNDO, F_KO = 0, 1, 2, 3, 4  # frames[d, :]

# The kernels that take the scratch bundle are inlined (inline="always") into the search: a call
# passing a NamedTuple of arrays costs about 130 ns in numba (see mctslab.go._board), several per
# move read.


def make_scratch(size: int) -> LadderScratch:
    """The reader's board and stack for ``size x size``: ``4 size + 8`` plies (a ladder across
    the board's diagonal, with room), at most ``32 size`` moves played per reading."""
    points, depth = (size + 2) ** 2, 4 * size + 8
    log = points + 2 * depth + 8  # every placed stone and every stone captured on one path
    return LadderScratch(
        np.zeros(points, np.int32), np.zeros(points, np.int16),
        np.zeros(points, np.int16), np.zeros(log, np.int16), np.zeros(log, np.int8),
        np.zeros((depth, DEFENDER_MOVES), np.int16), np.zeros((depth, 5), np.int64),
        np.zeros(5, np.int64), np.array([32 * size], np.int64))


@njit(cache=True, _nrt=False, inline="always")
def new_stamp(counters, mark):
    """A fresh flood-fill stamp (marks are cleared when the counter would overflow)."""
    s = counters[C_STAMP] + 1
    if s >= 2**31 - 1:
        for p in range(mark.shape[0]):
            mark[p] = 0
        s = 1
    counters[C_STAMP] = s
    return s


@njit(cache=True, _nrt=False)
def fill(col, w, s, mark, stamp, queue, cap):
    """Flood fill of the string through ``s`` with ``stamp``: ``(liberties, l1, l2, stones)``.
    Stops at ``cap`` distinct liberties (then ``stones`` may be short); ``l1``, ``l2`` are the
    first two found (-1: none); the stones seen are ``queue[:stones]`` (all of them when fewer
    than ``cap`` liberties were found)."""
    color = col[_u(s)]
    mark[_u(s)] = stamp
    queue[0] = s
    tail = 1
    head = 0
    n = 0
    l1 = -1
    l2 = -1
    while head < tail:
        x = np.int64(queue[_u(head)])
        head += 1
        for q in (x - 1, x + 1, x - w, x + w):
            if mark[_u(q)] == stamp:
                continue
            c = col[_u(q)]
            if c == EMPTY:
                mark[_u(q)] = stamp
                n += 1
                if n == 1:
                    l1 = q
                elif n == 2:
                    l2 = q
                if n >= cap:
                    return n, l1, l2, tail
            elif c == color:
                mark[_u(q)] = stamp
                queue[_u(tail)] = q
                tail += 1
    return n, l1, l2, tail


@njit(cache=True, _nrt=False, inline="always")
def _next_to_empty(col, w, p):
    return col[_u(p - 1)] == EMPTY or col[_u(p + 1)] == EMPTY or col[_u(p - w)] == EMPTY or \
        col[_u(p + w)] == EMPTY


@njit(cache=True, _nrt=False, inline="always")
def _set(col, sc, p, c, top):
    """Colour ``p`` with ``c``, logged at ``top``; returns the next log slot."""
    sc.log[_u(top)] = p
    sc.log_color[_u(top)] = col[_u(p)]
    col[_u(p)] = c
    return top + 1


@njit(cache=True, _nrt=False, inline="always")
def undo(col, sc, until):
    """Undo the logged colour changes of ``col`` back to log slot ``until``."""
    top = sc.counters[C_TOP]
    while top > until:
        top -= 1
        col[_u(sc.log[_u(top)])] = sc.log_color[_u(top)]
    sc.counters[C_TOP] = until


@njit(cache=True, _nrt=False, inline="always")
def play(col, sc, w, color, p, ko):
    """``color`` plays the empty point ``p`` on ``col`` (``ko``: the point it may not take,
    NO_KO for none); returns the ko point of the reply (NO_KO when none), or -1 when the move is
    illegal (the board then unchanged). Every change is logged for :func:`undo`."""
    if col[_u(p)] != EMPTY or p == ko:
        return -1
    start = sc.counters[C_TOP]
    top = _set(col, sc, p, color, start)
    enemy = 3 - color
    taken = 0
    last_taken = NO_KO
    for q in (p - 1, p + 1, p - w, p + w):
        if col[_u(q)] != enemy or _next_to_empty(col, w, q):
            continue  # not a stone of the opponent's, or one with a liberty of its own
        n, _, _, stones = fill(col, w, q, sc.mark, new_stamp(sc.counters, sc.mark), sc.queue, 1)
        if n == 0:
            for i in range(stones):
                top = _set(col, sc, np.int64(sc.queue[_u(i)]), EMPTY, top)
            taken += stones
            last_taken = np.int64(sc.queue[0])
    sc.counters[C_TOP] = top
    if taken == 0 and not _next_to_empty(col, w, p):
        n, _, _, _ = fill(col, w, p, sc.mark, new_stamp(sc.counters, sc.mark), sc.queue, 1)
        if n == 0:  # suicide
            undo(col, sc, start)
            return -1
    if taken == 1:
        own = 0
        free = 0
        for q in (p - 1, p + 1, p - w, p + w):
            c = col[_u(q)]
            own += c == color
            free += c == EMPTY
        if own == 0 and free == 1:
            return last_taken  # a lone stone that took one stone with its last liberty: ko
    return NO_KO


@njit(cache=True, _nrt=False, inline="always")
def _defender_moves(col, sc, w, s, d, lib, stones):
    """The defender's moves at ply ``d`` (string ``s`` in atari, its liberty ``lib``, its
    stones ``sc.queue[:stones]``) into ``candidates[d]``: the liberty of each attacker string in
    atari next to it, then ``lib``; returns how many, -1 when they do not fit."""
    mark, cand = sc.mark, sc.candidates
    k_max = cand.shape[1]
    defender = col[_u(s)]
    attacker = 3 - defender
    k = 0
    first = sc.counters[C_STAMP] + 1  # strings filled below get this stamp or later
    for i in range(stones):
        x = np.int64(sc.queue[_u(i)])
        for q in (x - 1, x + 1, x - w, x + w):
            if col[_u(q)] != attacker or mark[_u(q)] >= first:
                continue
            m, l1, _, _ = fill(col, w, q, mark, new_stamp(sc.counters, mark), sc.queue2, 2)
            if m != 1:
                continue
            seen = False
            for j in range(k):
                seen = seen or cand[_u(d), _u(j)] == l1
            if not seen:
                if k >= k_max:
                    return -1
                cand[_u(d), _u(k)] = l1
                k += 1
    seen = False
    for j in range(k):
        seen = seen or cand[_u(d), _u(j)] == lib
    if not seen:
        if k >= k_max:
            return -1
        cand[_u(d), _u(k)] = lib
        k += 1
    return k


@njit(cache=True, _nrt=False, inline="always")
def _open_node(col, sc, w, s, d, kind, ko):
    """Set up the node at ply ``d``; returns 1 or 0 when its value is known at once (attacker
    wins / loses), 2 when its moves are to be tried, -1 when it does not fit the bounds."""
    if d >= sc.candidates.shape[0]:
        return -1
    n, l1, l2, stones = fill(col, w, s, sc.mark, new_stamp(sc.counters, sc.mark), sc.queue, 3)
    frames = sc.frames
    frames[_u(d), F_KIND] = kind
    frames[_u(d), F_NEXT] = 0
    frames[_u(d), F_KO] = ko
    if kind == ATTACKER:
        if n <= 1:
            return 1  # the attacker takes it
        if n >= 3:
            return 0
        sc.candidates[_u(d), 0] = l1
        sc.candidates[_u(d), 1] = l2
        frames[_u(d), F_COUNT] = 2
        return 2
    if n >= 2:
        return 0  # not in atari: out of the ladder
    k = _defender_moves(col, sc, w, s, d, l1, stones)  # one liberty: the fill saw every stone
    if k < 0:
        return -1
    frames[_u(d), F_COUNT] = k
    return 2


@njit(cache=True, _nrt=False)
def _search(col, sc, w, s, kind, ko):  # noqa: C901 - numba kernel: the AND-OR search's stack loop, its cases inline
    """The attacker's result from a node (module docstring): 1 wins, 0 loses, -1 a bound hit.
    ``kind``: who moves first; ``ko``: the point that side may not take."""
    value = _open_node(col, sc, w, s, 0, kind, ko)
    if value != 2:
        return value
    d = 0
    pending = -1  # a child's value to hand to ply d, -1: none
    frames = sc.frames
    while True:
        attacking = frames[_u(d), F_KIND] == ATTACKER
        if pending >= 0:
            undo(col, sc, frames[_u(d), F_UNDO])
            wins = pending == 1
            pending = -1
            if wins == attacking:  # the mover found a move that wins: the node is decided
                if d == 0:
                    return np.int64(wins)
                d -= 1
                pending = np.int64(wins)
                continue
        i = frames[_u(d), F_NEXT]
        if i >= frames[_u(d), F_COUNT]:  # every move tried: the mover loses
            value = 0 if attacking else 1
            if d == 0:
                return value
            d -= 1
            pending = value
            continue
        frames[_u(d), F_NEXT] = i + 1
        if sc.counters[C_PLAYS] <= 0:
            return -1
        sc.counters[C_PLAYS] -= 1
        sc.counters[C_MOVES] += 1
        defender = np.int64(col[_u(s)])
        frames[_u(d), F_UNDO] = sc.counters[C_TOP]
        reply_ko = play(col, sc, w, 3 - defender if attacking else defender,
                        np.int64(sc.candidates[_u(d), _u(i)]), frames[_u(d), F_KO])
        if reply_ko < 0:
            continue
        value = _open_node(col, sc, w, s, d + 1, DEFENDER if attacking else ATTACKER, reply_ko)
        if value < 0:
            return -1
        if value == 2:
            d += 1
        else:
            pending = value  # a leaf: handled at ply d on the next turn


@njit(cache=True, _nrt=False, inline="always")
def open_escape(col, w, p):
    """Three or more empty points next to ``p``: a string extended on ``p`` has three liberties
    or more, no ladder (the common case, decided without a reading)."""
    return np.int64(col[_u(p - 1)] == EMPTY) + np.int64(col[_u(p + 1)] == EMPTY) + \
        np.int64(col[_u(p - w)] == EMPTY) + np.int64(col[_u(p + w)] == EMPTY) >= 3


@njit(cache=True, _nrt=False)
def read_ladder(col, w, ko, ko_color, color, p, target, sc):
    """After ``color`` plays the empty point ``p`` of the position ``col`` (``ko``/``ko_color``:
    the board's ko, :data:`mctslab.go._board.I_KO`), is the string through ``target`` captured
    in a ladder? :data:`CAPTURED` (also when ``p`` captures it, or leaves it one liberty with
    the attacker to move), :data:`ESCAPES`, or :data:`UNKNOWN` (``p`` illegal, or a bound hit).
    The side owning ``target`` defends; the other attacks. ``sc``: a :class:`LadderScratch`
    of the board's size. The moves are played on ``col`` itself and undone: ``col`` is as it
    was on return."""
    sc.counters[C_TOP] = 0
    sc.counters[C_PLAYS] = sc.limits[0]
    sc.counters[C_READS] += 1
    reply_ko = play(col, sc, w, color, p, ko if ko_color == color else NO_KO)
    if reply_ko < 0:
        return UNKNOWN
    answer = CAPTURED
    defender = col[_u(target)]
    if defender == BLACK or defender == WHITE:
        value = _search(col, sc, w, target, ATTACKER if defender == color else DEFENDER,
                        reply_ko)
        answer = UNKNOWN if value < 0 else (CAPTURED if value == 1 else ESCAPES)
    undo(col, sc, 0)
    return answer
