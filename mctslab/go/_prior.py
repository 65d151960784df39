"""Prior knowledge for the strong engine's new tree nodes, numba kernels.

When a node is expanded every child starts with a few *virtual playouts* (Gelly & Silver 2007,
"prior knowledge": ``n_prior`` playouts won at rate ``Q_prior``), the sum of what each switched-on
piece adds. With ``v``/``w`` the virtual visits and wins of the move ``p`` for the player to
move (:class:`PriorWeights`, 0 switches a piece off; michi's and Pachi's pieces, our weights):

* ``even``: ``v += even, w += even / 2`` for every move, pass included (Pachi's ``Q_even``: it
  keeps RAVE from locking onto a move after one lucky playout);
* ``capture_one`` / ``capture_many``: ``p`` captures an enemy string in atari, or saves an own
  string in atari (its liberty, which gives the string two or more liberties), of one stone /
  of more stones: ``v += w += capture_*``;
* ``self_atari``: ``p`` leaves a string of two or more stones with one liberty:
  ``v += self_atari`` (no wins: a negative prior; a lone stone may be thrown in);
* ``pattern``: the 3x3 neighbourhood of ``p`` matches a pattern whose value in the prior's
  pattern file (GNU Go's ``mc_mogo_classic``: MoGo's hane, cut and edge patterns at 100, the
  non-matching value being 1) is at least ``pattern_min``: ``v += w += pattern``;
* ``distance1..3``: ``p`` is at common-fate-graph distance 1, 2 or 3 from the last move (the
  graph whose vertices are the points and whose strings count as one vertex, michi's and
  Pachi's ``cfgd``): ``v += w += distance_d``;
* ``edge``: ``p`` is on the first three lines with no stone within Manhattan distance 3
  (michi's empty-area rule): first and second line ``v += edge`` (negative), third line
  ``v += w += edge`` (positive);
* ``large`` (``PriorData.large`` > 0, off by default): the move's large pattern
  (:mod:`mctslab.go._large`: the diamond of radius 4, 3 or 2 around ``p``, the largest in the
  table) was the move played a share ``q`` of the times it was on the board in the learned
  games (:mod:`mctslab.go.large_patterns`): ``v += w += large * sqrt(q)`` (michi's form of a
  large-pattern prior: the root tones up rare patterns).

With ladder reading in the priors (``PriorData.ladders``, :mod:`mctslab.go._ladder`), the
capture piece reads ladders: an escape (``p`` saves an own string in atari and captures
nothing) after which the string is captured in a ladder adds ``v += capture_*`` with no wins
(a loss prior instead of the escape bonus); a move that captures nothing at once but puts an
enemy string of two liberties in atari on one of them, when that string is then captured in a
ladder, adds ``v += w += capture_*`` by its stones. Both are read once per position
(:func:`ladder_tables`, kept until the position or the side to move changes).

:func:`cfg_distances` is a breadth-first search from the last move that settles a whole string
at once (its stones are one vertex); distances beyond :data:`MAX_DISTANCE` are not explored.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mctslab.core.jit import njit
from mctslab.go._board import (
    BLACK,
    BORDER,
    EMPTY,
    I_KO,
    I_KO_COLOR,
    I_SIZE,
    I_WIDTH,
    PASS,
    WHITE,
    _atari,
    _u,
)
from mctslab.go._heavy import self_atari_stones
from mctslab.go._ladder import CAPTURED, LadderScratch, fill, new_stamp, open_escape, read_ladder
from mctslab.go._large import pattern_probability
from mctslab.go._patterns import liberties_after, pattern_weight

MAX_DISTANCE = 3  # the last CFG distance that carries a prior
FAR = 127         # dist[] of a point further than MAX_DISTANCE (or with no last move)
EMPTY_RADIUS = 3  # the edge piece's empty area: no stone within this Manhattan distance


class PriorWeights(NamedTuple):
    """Virtual playouts each prior piece adds (module docstring); 0 switches a piece off."""

    even: float
    capture_one: float
    capture_many: float
    self_atari: float
    pattern: float
    distance1: float
    distance2: float
    distance3: float
    edge: float


class PriorData(NamedTuple):
    """The prior's pattern table and scratch (one per search)."""

    pattern_class: np.ndarray  # int8/int16[2, 65536] (patterns.PatternTable, prior's file)
    class_weight: np.ndarray   # float64[classes, 256]
    class_need: np.ndarray     # int64[classes]
    pattern_min: float         # a pattern "matches" at this value or more
    dist: np.ndarray           # int8[P] CFG distance from the last move (FAR: none)
    queue: np.ndarray          # int16[P] breadth-first queue
    ladders: bool              # the capture piece reads ladders (module docstring)
    ladder: LadderScratch      # the ladder reader's board and stack
    ladder_escape: np.ndarray  # int16[P] stones an escape on p runs into a ladder
    ladder_capture: np.ndarray  # int16[P] stones p captures in a ladder
    ladder_key: np.ndarray     # uint64[3] hash, colour and ko point the two tables are for
    large: float               # the large-pattern piece's virtual playouts (0: off)
    large_data: object         # large_patterns.LargeData, the learned table


@njit(cache=True, _nrt=False)
def cfg_distances(col, group, next_stone, w, last, dist, queue):
    """Write the common-fate-graph distance from ``last`` (a point, or PASS: none) to every
    point into ``dist`` (FAR beyond :data:`MAX_DISTANCE`, and everywhere after a pass)."""
    for p in range(dist.shape[0]):
        dist[p] = FAR
    if last == PASS or col[last] == BORDER:
        return
    head = 0
    tail = _settle(col, next_stone, last, 0, dist, queue, 0)
    while head < tail:
        c = np.int64(queue[head])
        head += 1
        d = dist[c] + 1
        if d > MAX_DISTANCE:
            continue
        for q in (c - 1, c + 1, c - w, c + w):
            if col[_u(q)] != BORDER and dist[_u(q)] == FAR:
                tail = _settle(col, next_stone, q, d, dist, queue, tail)
    return


@njit(cache=True, _nrt=False, inline="always")
def _settle(col, next_stone, p, d, dist, queue, tail):
    """Give ``p`` (all of its string when it is a stone) distance ``d`` and queue it."""
    if col[_u(p)] == EMPTY:
        dist[_u(p)] = d
        queue[_u(tail)] = p
        return tail + 1
    s = np.int64(p)
    while True:
        dist[_u(s)] = d
        queue[_u(tail)] = s
        tail += 1
        s = np.int64(next_stone[_u(s)])
        if s == p:
            break
    return tail


@njit(cache=True, _nrt=False, inline="always")
def empty_area(col, w, size, p, radius):
    """No stone within Manhattan distance ``radius`` of ``p`` (on the board)."""
    r0 = p // w
    c0 = p % w
    for dr in range(-radius, radius + 1):
        r = r0 + dr
        if r < 1 or r > size:
            continue
        span = radius - abs(dr)
        for dc in range(-span, span + 1):
            c = c0 + dc
            if 1 <= c <= size:
                v = col[_u(r * w + c)]
                if v != EMPTY:
                    return False
    return True


@njit(cache=True, _nrt=False, inline="always")
def line_height(w, size, p):
    """0 on the first line, 1 on the second, ... (distance to the nearest edge)."""
    r = p // w - 1
    c = p % w - 1
    return min(min(r, c), min(size - 1 - r, size - 1 - c))


@njit(cache=True, _nrt=False, inline="always")
def tactical_stones(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, w, color, p):
    """Stones ``p`` captures (enemy strings in atari next to it); when none, stones it saves
    (own strings in atari next to it, when the move leaves them two liberties or more)."""
    captured = 0
    saved = 0
    nb = (p - 1, p + 1, p - w, p + w)
    for k in range(4):
        q = nb[k]
        cq = col[_u(q)]
        if cq != BLACK and cq != WHITE:
            continue
        g = group[_u(q)]
        seen = False
        for j in range(k):
            if group[_u(nb[j])] == g and col[_u(nb[j])] == cq:
                seen = True
        if seen or not _atari(libs, lib_sum, lib_sumsq, g):
            continue
        if cq == color:
            saved += stones[_u(g)]
        else:
            captured += stones[_u(g)]
    if captured > 0:
        return captured
    if saved > 0 and liberties_after(col, group, next_stone, libs, lib_sum, lib_sumsq, w, color,
                                     p) >= 2:
        return saved
    return 0


@njit(cache=True, _nrt=False, inline="always")
def _captures_next_to(col, group, libs, lib_sum, lib_sumsq, w, color, p):
    """Some enemy string next to ``p`` is in atari (``color`` on ``p`` captures)."""
    for q in (p - 1, p + 1, p - w, p + w):
        if col[_u(q)] == 3 - color and _atari(libs, lib_sum, lib_sumsq, group[_u(q)]):
            return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def _free_but(col, w, p, q):
    """Empty points next to ``p`` other than ``q``."""
    free = 0
    for r in (p - 1, p + 1, p - w, p + w):
        if r != q and col[_u(r)] == EMPTY:
            free += 1
    return free


@njit(cache=True, _nrt=False)
def ladder_tables(st, color, data):
    """Fill ``data.ladder_escape`` and ``data.ladder_capture`` for ``color`` to move on ``st``
    (module docstring): per point, the stones of own strings in atari whose escape there is
    captured in a ladder, and of enemy two-liberty strings captured in a ladder after an atari
    there; then ``data.ladder_key`` names the position."""
    col, group, stones = st.color, st.group, st.stones
    libs, lib_sum, lib_sumsq = st.libs, st.lib_sum, st.lib_sumsq
    w = st.info[I_WIDTH]
    ko, ko_color = st.info[I_KO], st.info[I_KO_COLOR]
    escape, capture, sc = data.ladder_escape, data.ladder_capture, data.ladder
    for p in range(col.shape[0]):
        escape[p] = 0
        capture[p] = 0
    for g in range(col.shape[0]):
        c = col[g]
        if (c != BLACK and c != WHITE) or group[g] != g:
            continue
        if _atari(libs, lib_sum, lib_sumsq, g):
            if c != color:
                continue  # captured at once: the capture piece counts it
            q = np.int64(lib_sum[g]) // np.int64(libs[g])
            if not open_escape(col, w, q) and not _captures_next_to(
                    col, group, libs, lib_sum, lib_sumsq, w, color, q) and \
                    read_ladder(col, w, ko, ko_color, color, q, g, sc) == CAPTURED:
                escape[q] += stones[g]
        elif c != color:
            n, l1, l2, _ = fill(col, w, g, sc.mark, new_stamp(sc.counters, sc.mark), sc.queue, 3)
            if n != 2:
                continue
            for q, other in ((l1, l2), (l2, l1)):
                # the extension on the other liberty gets three: no ladder, no reading
                if _free_but(col, w, other, q) < 3 and \
                        read_ladder(col, w, ko, ko_color, color, q, g, sc) == CAPTURED:
                    capture[q] += stones[g]
    data.ladder_key[0] = st.hash[0]
    data.ladder_key[1] = color
    data.ladder_key[2] = ko


@njit(cache=True, _nrt=False, inline="always")  # once per new child: no call overhead
def move_prior(st, color, p, weights, data):
    """``(virtual visits, virtual wins)`` of ``color`` playing the legal move ``p`` (PASS: the
    even prior only); ``data.dist`` must hold the CFG distances from the last move."""
    visits = weights.even
    wins = weights.even / 2.0
    if p == PASS:
        return visits, wins
    col, group, next_stone, stones = st.color, st.group, st.next_stone, st.stones
    libs, lib_sum, lib_sumsq = st.libs, st.lib_sum, st.lib_sumsq
    w = st.info[I_WIDTH]
    size = st.info[I_SIZE]
    if weights.capture_one > 0.0 or weights.capture_many > 0.0:
        n = tactical_stones(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, w, color,
                            p)
        laddered = False
        if data.ladders:
            key = data.ladder_key
            if key[0] != st.hash[0] or key[1] != color or key[2] != st.info[I_KO]:
                ladder_tables(st, color, data)
            if n > 0:
                laddered = data.ladder_escape[p] > 0
            else:
                n = data.ladder_capture[p]
        bonus = weights.capture_many if n >= 2 else (weights.capture_one if n == 1 else 0.0)
        visits += bonus
        if not laddered:
            wins += bonus
    if weights.self_atari > 0.0 and self_atari_stones(
            col, group, next_stone, stones, libs, lib_sum, lib_sumsq, w, color, p) >= 2:
        visits += weights.self_atari
    if weights.pattern > 0.0 and pattern_weight(
            col, group, next_stone, stones, libs, lib_sum, lib_sumsq, w, color, p, True,
            data.pattern_class, data.class_weight, data.class_need) >= data.pattern_min:
        visits += weights.pattern
        wins += weights.pattern
    d = data.dist[p]
    bonus = weights.distance1 if d == 1 else (weights.distance2 if d == 2 else (
        weights.distance3 if d == 3 else 0.0))
    visits += bonus
    wins += bonus
    if weights.edge > 0.0:
        h = line_height(w, size, p)
        if h <= 2 and empty_area(col, w, size, p, EMPTY_RADIUS):
            visits += weights.edge
            if h == 2:
                wins += weights.edge
    bonus = large_bonus(st, color, p, data)
    return visits + bonus, wins + bonus


@njit(cache=True, _nrt=False, inline="always")
def large_bonus(st, color, p, data):
    """The large-pattern piece's virtual wins of ``p``: ``large * sqrt(q)`` (0 when no key of
    the move is in the table)."""
    if data.large <= 0.0:
        return 0.0
    q = pattern_probability(st, color, p, data.large_data)
    return data.large * np.sqrt(q) if q > 0.0 else 0.0


@njit(cache=True, _nrt=False)
def prior_map(st, color, last, weights, data, visits_out, wins_out):
    """:func:`move_prior` of every empty point and of PASS (index 0), for ``color`` after the
    move ``last`` (tests and diagnostics; legality is not checked)."""
    cfg_distances(st.color, st.group, st.next_stone, st.info[I_WIDTH], last, data.dist,
                  data.queue)
    for p in range(st.color.shape[0]):
        visits_out[p] = 0.0
        wins_out[p] = 0.0
        if p == PASS or st.color[p] == EMPTY:
            visits_out[p], wins_out[p] = move_prior(st, color, p, weights, data)
