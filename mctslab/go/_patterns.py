"""The heavy ("pattern") playout policy: tactics near the last move, then GNU Go's 3x3
Monte-Carlo pattern weights, then the light policy.

Reading guide.

* **Data and table**: GNU Go's ``mc_*.db`` files, read and tabulated by
  :mod:`mctslab.go.patterns` (Python, no kernels), which makes the ``policy_data`` bundle.
* **Policy** (:func:`choose_pattern_move`; the playout falls back on the light policy when it
  returns -1). With ``L`` the previous move (nothing is tried after a pass):

  1. *Tactics* (tried with probability ``params[TACTICS_RATE]``, default 1): the candidates are
     (a) the liberty of every opponent string in atari with a stone on ``L`` or one of its 8
     neighbours (a capture near the last move, the last move's own self-atari included);
     (b) for each of the mover's strings next to ``L`` left in atari, its liberty when playing
     there gives the string at least 2 liberties (an escape; captures counted), and the
     liberty of every opponent string in atari touching it (a counter-capture). Ko-forbidden
     points and the mover's own single-point eyes are left out; duplicates count once. When
     there is a candidate, one is drawn uniformly.
  2. *Patterns*: every neighbour ``q`` of ``L`` (8 points) that is legal, not ko-forbidden and
     not an own eye is weighted by the table (``near`` set); weight-0 points drop out. With
     ``S`` the sum of the weights and ``F`` = ``params[FAR_WEIGHT]`` times the number of empty
     points that are not neighbours of ``L``, a neighbour is played with probability
     ``S / (S + F)``, drawn with probability proportional to its weight. This is GNU Go's
     rule ("moves drawn strictly proportional to their values") with every point away from the
     last move valued ``FAR_WEIGHT`` (1: GNU Go's default value), so only the neighbourhood of
     the last move has to be looked at; ``FAR_WEIGHT = 0`` plays a neighbour whenever one has
     a positive weight (closer to MoGo and Pachi's moggy, which play a matching 3x3 pattern
     near the last move whenever there is one). :func:`sample_near_move` draws this without
     weighing every neighbour (rejection sampling, exact; :func:`near_pattern_moves` is the
     written-out form the tests compare it with).
  3. otherwise -1: the light policy (``_playout.choose_light_move``) picks the move.

  So compared with GNU Go: far-away points get the flat value instead of their patterns (only
  ``mc_montegnu_classic``'s "far" capture bonus, 30 to 60, is lost); the tactical step plays
  at once the captures and escapes near the last move that the files value 2,000 to 20,000
  (so GNU Go too plays them nearly always), also at the edge (where mogo's ``?`` diagrams do
  not match) and for escapes whose liberty is not a neighbour of ``L`` (GNU Go counts those as
  "near" too).
* Kernels run with ``_nrt=False`` and allocate nothing: the tables, ``params`` and the scratch
  candidate buffers come in the ``policy_data`` bundle (:class:`PatternPolicy`) made by
  :func:`mctslab.go.patterns.policy_data`.
  :func:`pattern_move` is what ``_playout.playout`` calls: for a tuple it is the pattern
  policy, for any other ``policy_data`` (the light policy's empty array) it returns -1, so both
  specialisations of ``playout`` compile.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import types
from numba.extending import overload

from mctslab.core.jit import njit
from mctslab.go._board import (
    BLACK,
    BORDER,
    EMPTY,
    I_KO,
    I_KO_COLOR,
    I_LAST,
    I_NUM_EMPTY,
    I_WIDTH,
    OK,
    PASS,
    _atari,
    _check_neighbours,
    _eye_like,
    _u,
)
from mctslab.rng import rng_below, rng_random

# Property state bits (the second index of ``class_weight``).
NEAR, OSAFE, XSAFE, XSUICIDE = 1, 2, 4, 8
OCAP_SHIFT, XCAP_SHIFT = 4, 6
OCAP_BITS, XCAP_BITS = 3 << OCAP_SHIFT, 3 << XCAP_SHIFT
NUM_STATES = 256

# ``params`` entries (float64): the tunables of the policy.
TACTICS_RATE, FAR_WEIGHT = 0, 1
CANDIDATES = 64  # scratch size for tactical candidates (distinct points; more are dropped)


class PatternPolicy(NamedTuple):
    """The pattern policy's ``policy_data`` (:func:`mctslab.go.patterns.policy_data`): its
    tables, tunables and scratch, one per search (the scratch is written during playouts)."""

    pattern_class: np.ndarray    # int8 or int16[2, 4 ** 8]: 3x3 code -> class, per mover
    class_weight: np.ndarray     # float64[classes, NUM_STATES]: weight by property state
    class_need: np.ndarray       # int64[classes]: the state bits a class's weight depends on
    class_max: np.ndarray        # float64[classes]: largest weight of a near point
    class_max_quiet: np.ndarray  # float64[classes]: the same with nothing to capture
    params: np.ndarray           # float64[2]: TACTICS_RATE, FAR_WEIGHT
    points: np.ndarray           # int64[CANDIDATES] scratch: candidates (and classes)
    weights: np.ndarray          # float64[8] scratch: the near candidates' weights (bounds)


# --- kernels --------------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def neighbourhood_code(col, w, p):
    """The 3x3 code of ``p``: the 8 neighbours' board colours, 2 bits each (NW first)."""
    return (np.int64(col[_u(p - w - 1)]) | (np.int64(col[_u(p - w)]) << 2)
            | (np.int64(col[_u(p - w + 1)]) << 4) | (np.int64(col[_u(p - 1)]) << 6)
            | (np.int64(col[_u(p + 1)]) << 8) | (np.int64(col[_u(p + w - 1)]) << 10)
            | (np.int64(col[_u(p + w)]) << 12) | (np.int64(col[_u(p + w + 1)]) << 14))


@njit(cache=True, _nrt=False, inline="always")
def _add_liberty(l1, l2, q):
    """Add point ``q`` to the set {l1, l2} (-1 = free slot); returns the new pair."""
    if q == l1 or q == l2:
        return l1, l2
    if l1 < 0:
        return q, l2
    if l2 < 0:
        return l1, q
    return l1, l2


@njit(cache=True, _nrt=False, inline="always")
def liberties_after(col, group, next_stone, libs, lib_sum, lib_sumsq, w, color, p):  # noqa: C901 - numba kernel: each neighbour case of the move inline (no call per point in the hot loop)
    """Liberties (0, 1, or 2 meaning "2 or more") of ``color``'s string through empty ``p`` if
    ``color`` played there, captures included; exact. 0 means suicide, 1 self-atari."""
    free = 0
    for q in (p - 1, p + 1, p - w, p + w):
        if col[q] == EMPTY:
            free += 1
    if free >= 2:
        return 2  # the common case
    enemy = 3 - color
    l1 = -1
    l2 = -1
    nb = (p - 1, p + 1, p - w, p + w)
    captures = False
    for k in range(4):
        q = nb[k]
        c = col[q]
        if c == EMPTY or (c == enemy and _atari(libs, lib_sum, lib_sumsq, group[q])):
            l1, l2 = _add_liberty(l1, l2, q)  # empty, or a stone the move captures
            captures = captures or c == enemy
    if l2 >= 0:
        return 2
    for k in range(4):
        q = nb[k]
        if col[q] != color:
            continue
        g = group[q]
        seen = False
        on_p = 0  # pseudo-liberties of g on p: one per stone of g next to p
        for j in range(4):
            if col[nb[j]] == color and group[nb[j]] == g:
                on_p += 1
                seen = seen or j < k
        if seen:
            continue
        n = np.int64(libs[g]) - on_p
        if n == 0:
            continue
        s = np.int64(lib_sum[g]) - on_p * p
        sq = np.int64(lib_sumsq[g]) - on_p * p * p
        if n * sq != s * s:
            return 2  # g keeps two different liberties besides p
        l1, l2 = _add_liberty(l1, l2, s // n)
        if l2 >= 0:
            return 2
    if captures:  # captured stones next to the string's other stones become liberties too
        for k in range(4):
            q = nb[k]
            if col[q] != enemy or not _atari(libs, lib_sum, lib_sumsq, group[q]):
                continue
            s = np.int64(q)
            while True:
                for r in (s - 1, s + 1, s - w, s + w):
                    if col[r] == color:
                        g = group[r]
                        for j in range(4):
                            if col[nb[j]] == color and group[nb[j]] == g:
                                l1, l2 = _add_liberty(l1, l2, s)
                if l2 >= 0:
                    return 2
                s = np.int64(next_stone[s])
                if s == q:
                    break
    return 1 if l1 >= 0 else 0


@njit(cache=True, _nrt=False, inline="always")
def atari_stones(col, group, stones, libs, lib_sum, lib_sumsq, w, color, p):
    """Stones of ``color`` a move on ``p`` would capture: strings next to ``p`` in atari
    (their liberty is then ``p``), counted once each; capped at 3."""
    nb = (p - 1, p + 1, p - w, p + w)
    total = 0
    for k in range(4):
        q = nb[k]
        if col[q] != color:
            continue
        g = group[q]
        if not _atari(libs, lib_sum, lib_sumsq, g):
            continue
        seen = False
        for j in range(k):
            if col[nb[j]] == color and group[nb[j]] == g:
                seen = True
        if not seen:
            total += stones[g]
    return min(total, 3)


@njit(cache=True, _nrt=False)
def point_state(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, w, color, p, need,  # noqa: PLR0913 - numba kernel: the unpacked board arrays, not a BoardState (a NamedTuple per call costs ~130 ns in the hot loop)
                near):
    """The property state of ``color`` playing empty ``p`` (only the bits in ``need``)."""
    state = NEAR if near else 0
    if need & OSAFE:
        if liberties_after(col, group, next_stone, libs, lib_sum, lib_sumsq, w, color, p) >= 2:
            state |= OSAFE
    if need & (XSAFE | XSUICIDE):
        n = liberties_after(col, group, next_stone, libs, lib_sum, lib_sumsq, w, 3 - color, p)
        if n >= 2:
            state |= XSAFE
        elif n == 0:
            state |= XSUICIDE
    if need & OCAP_BITS:
        state |= atari_stones(col, group, stones, libs, lib_sum, lib_sumsq, w, 3 - color,
                              p) << OCAP_SHIFT
    if need & XCAP_BITS:
        state |= atari_stones(col, group, stones, libs, lib_sum, lib_sumsq, w, color,
                              p) << XCAP_SHIFT
    return state


@njit(cache=True, _nrt=False)
def pattern_weight(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, w, color, p,  # noqa: PLR0913 - numba kernel: the unpacked board arrays, not a BoardState (a NamedTuple per call costs ~130 ns in the hot loop)
                   near, pattern_class, class_weight, class_need):
    """The table's value of ``color`` playing empty ``p`` (legality not checked)."""
    cls = pattern_class[color - BLACK, neighbourhood_code(col, w, p)]
    need = class_need[cls]
    state = NEAR if near else 0
    if need & ~NEAR:
        state = point_state(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, w, color,
                            p, need, near)
    return class_weight[cls, state]


@njit(cache=True, _nrt=False, inline="always")
def _push(out, n, q):
    for i in range(n):
        if out[i] == q:
            return n
    if n < out.shape[0]:
        out[n] = q
        n += 1
    return n


@njit(cache=True, _nrt=False, inline="always")
def tactical_moves(col, group, next_stone, libs, lib_sum, lib_sumsq, info, color, last, out):  # noqa: C901 - numba kernel: captures and escapes around the last move, each case inline
    """Step 1: captures near ``last`` and escapes of the mover's strings it put in atari
    (see the module docstring); writes distinct points to ``out``, returns how many."""
    w = info[I_WIDTH]
    enemy = 3 - color
    ko = info[I_KO] if info[I_KO_COLOR] == color else -1
    n = 0
    last_string = group[_u(last)] if col[_u(last)] == enemy else -1
    for r in (last, last - w - 1, last - w, last - w + 1, last - 1, last + 1, last + w - 1,
              last + w, last + w + 1):
        if col[_u(r)] == enemy:
            g = group[_u(r)]
            if (r == last or g != last_string) and _atari(libs, lib_sum, lib_sumsq, g):
                q = np.int64(lib_sum[_u(g)]) // np.int64(libs[_u(g)])
                if q != ko and not _eye_like(col, w, q, color):
                    n = _push(out, n, q)
    for r in (last - 1, last + 1, last - w, last + w):
        if col[_u(r)] != color:
            continue
        g = group[_u(r)]
        if not _atari(libs, lib_sum, lib_sumsq, g):
            continue
        q = np.int64(lib_sum[_u(g)]) // np.int64(libs[_u(g)])
        if q != ko and not _eye_like(col, w, q, color) and liberties_after(
                col, group, next_stone, libs, lib_sum, lib_sumsq, w, color, q) >= 2:
            n = _push(out, n, q)
        s = np.int64(g)
        while True:  # counter-captures: opponent strings in atari touching g
            for t in (s - 1, s + 1, s - w, s + w):
                if col[_u(t)] == enemy and _atari(libs, lib_sum, lib_sumsq, group[_u(t)]):
                    h = group[_u(t)]
                    q = np.int64(lib_sum[_u(h)]) // np.int64(libs[_u(h)])
                    if q != ko and not _eye_like(col, w, q, color):
                        n = _push(out, n, q)
            s = np.int64(next_stone[_u(s)])
            if s == g:
                break
    return n


@njit(cache=True, _nrt=False)
def near_pattern_moves(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, info, color,  # noqa: PLR0913 - numba kernel: the unpacked board arrays, not a BoardState (a NamedTuple per call costs ~130 ns in the hot loop)
                       last, pattern_class, class_weight, class_need, points, weights):
    """Step 2's candidates: the legal, non-ko, non-own-eye neighbours of ``last`` with a
    positive weight, written to ``points``/``weights``; returns ``(count, total weight)``."""
    w = info[I_WIDTH]
    ko = info[I_KO] if info[I_KO_COLOR] == color else -1
    k = 0
    total = 0.0
    for q in (last - w - 1, last - w, last - w + 1, last - 1, last + 1, last + w - 1,
              last + w, last + w + 1):
        if col[q] != EMPTY or q == ko or _eye_like(col, w, q, color):
            continue
        if _check_neighbours(col, group, libs, lib_sum, lib_sumsq, w, color, q) != OK:
            continue
        weight = pattern_weight(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, w,
                                color, q, True, pattern_class, class_weight, class_need)
        if weight > 0.0:
            points[k] = q
            weights[k] = weight
            total += weight
            k += 1
    return k, total


_NO_CAPTURE, _CAPTURE = -1, -2


@njit(cache=True, _nrt=False, inline="always")
def _quiet_state(col, group, libs, lib_sum, lib_sumsq, w, q):
    """The property state of a near point with two or more empty neighbours and no string in
    atari next to it (legal, safe for both sides, nothing to capture); else ``_NO_CAPTURE``
    (no string in atari next to it) or ``_CAPTURE``."""
    free = 0
    for r in (q - 1, q + 1, q - w, q + w):
        c = col[_u(r)]
        if c == EMPTY:
            free += 1
        elif c != BORDER and _atari(libs, lib_sum, lib_sumsq, group[_u(r)]):
            return _CAPTURE
    return NEAR | OSAFE | XSAFE if free >= 2 else _NO_CAPTURE


@njit(cache=True, _nrt=False, inline="always")
def sample_near_move(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, info, rng,  # noqa: C901, PLR0913, PLR0915 - numba kernel: the unpacked board arrays; the candidate scan and the rejection-sampling loop inline
                     color, last, policy):
    """Step 2 drawn without weighing every neighbour: a neighbour of ``last`` with probability
    ``w / (S + F)``, or -1 (probability ``F / (S + F)``), as in the module docstring; the
    tables and scratch are ``policy``'s (a :class:`PatternPolicy`).

    Rejection sampling with lazily tightened bounds: each candidate starts with its class's
    largest value (``class_max``, no property test), a draw landing on a candidate not yet
    weighed computes its exact weight ``w`` (legality, self-atari, captures), keeps the draw
    with probability ``w / bound`` and otherwise draws again with the bound replaced by ``w``.
    Every accepted draw has the exact distribution; few candidates are ever weighed when far
    points dominate; points with two empty neighbours and no string in atari next to them (most)
    are weighed at once. ``points[8:16]`` hold the candidates' classes (-1 once weighed)."""
    pattern_class, class_weight, class_need = policy.pattern_class, policy.class_weight, \
        policy.class_need
    class_max, class_max_quiet = policy.class_max, policy.class_max_quiet
    points, weights = policy.points, policy.weights
    w = info[I_WIDTH]
    ko = info[I_KO] if info[I_KO_COLOR] == color else -1
    k = 0
    near_empty = 0
    bound_sum = 0.0
    for q in (last - w - 1, last - w, last - w + 1, last - 1, last + 1, last + w - 1,
              last + w, last + w + 1):
        if col[_u(q)] != EMPTY:
            continue
        near_empty += 1
        if q == ko:
            continue
        # own eyes: value 0
        cls = np.int64(pattern_class[_u(color - BLACK), _u(neighbourhood_code(col, w, q))])
        state = _quiet_state(col, group, libs, lib_sum, lib_sumsq, w, q)
        if state >= 0:  # the common case: weighed at once
            bound = class_weight[cls, state]
            cls = -1
        elif state == _NO_CAPTURE:
            bound = class_max_quiet[cls]
        else:
            bound = class_max[cls]
        if bound > 0.0:
            points[k] = q
            points[8 + k] = cls
            weights[k] = bound
            bound_sum += bound
            k += 1
    if k == 0:
        return -1
    far = policy.params[FAR_WEIGHT] * (info[I_NUM_EMPTY] - near_empty)
    while bound_sum > 0.0:
        x = rng_random(rng) * (bound_sum + far)
        if x >= bound_sum:
            return -1
        i = 0
        while i < k - 1 and x >= weights[i]:
            x -= weights[i]
            i += 1
        cls = points[8 + i]
        if cls < 0:
            return points[i]  # an exact slot
        q = points[i]
        exact = 0.0
        if _check_neighbours(col, group, libs, lib_sum, lib_sumsq, w, color, q) == OK:
            need = class_need[cls]
            state = NEAR
            if need & ~NEAR:
                state = point_state(col, group, next_stone, stones, libs, lib_sum, lib_sumsq,
                                    w, color, q, need, True)
            exact = class_weight[cls, state]
        if x < exact:
            return q
        bound_sum += exact - weights[i]
        weights[i] = exact
        points[8 + i] = -1
    return -1


# Not inline="always": numba's IR-level inlining of this kernel (and the ones it inlines) into
# playout made the first compile of the pattern playout take 150 s of CPU instead of 30 s
# (measured), for about 9% more playouts per second.
@njit(cache=True, _nrt=False)
def choose_pattern_move(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, info, rng,  # noqa: PLR0913 - numba kernel: the unpacked board arrays, not a BoardState (a NamedTuple per call costs ~130 ns in the hot loop)
                        color, policy_data):
    """Steps 1 and 2 of the policy: a point, or -1 for "let the light policy choose".
    ``policy_data``: a :class:`PatternPolicy`."""
    last = info[I_LAST]
    if last == PASS:
        return -1
    rate = policy_data.params[TACTICS_RATE]
    points = policy_data.points
    if rate >= 1.0 or (rate > 0.0 and rng_random(rng) < rate):
        n = tactical_moves(col, group, next_stone, libs, lib_sum, lib_sumsq, info, color, last,
                           points)
        if n > 0:
            return points[rng_below(rng, n)]
    return sample_near_move(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, info,
                            rng, color, last, policy_data)


def pattern_move(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, info, rng, color,  # noqa: PLR0913 - the Python stub of a numba overload: the kernel's unpacked board arrays
                 policy_data):
    """What ``_playout.playout`` calls (compiled through the overload below)."""
    raise NotImplementedError("call from numba-compiled code only")


@overload(pattern_move, inline="always", jit_options={"_nrt": False})
def _pattern_move_overload(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, info, rng,  # noqa: PLR0913 - numba overload: the kernel's unpacked board arrays
                           color, policy_data):
    if isinstance(policy_data, types.BaseTuple):
        def impl(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, info, rng, color,  # noqa: PLR0913 - the overload's implementation: the kernel's unpacked board arrays
                 policy_data):
            return choose_pattern_move(col, group, next_stone, stones, libs, lib_sum,
                                       lib_sumsq, info, rng, color, policy_data)
    else:  # the light policy's policy_data: no pattern move
        def impl(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, info, rng, color,  # noqa: PLR0913 - the overload's implementation: the kernel's unpacked board arrays
                 policy_data):
            return np.int64(-1)
    return impl
