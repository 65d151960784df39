"""DEFAULT_POLICY (Sec. 2.2, 3.3): complete a partial path at random, uniform or roulette.

- **uniform**: every unvisited city is equally likely next (O(n) per playout);
- **roulette**: city v is drawn with probability proportional to ``1 / w(last, v)``, ``last``
  the current end of the path (O(n^2) per playout: n draws over up to n candidates).

The unvisited cities are kept compacted in ``remaining[:m]`` (swap-remove on every draw), with
their coordinates alongside in ``rem_x``/``rem_y``, so the O(m) weight pass is a contiguous,
vectorised loop. That pass uses **float32** coordinates and arithmetic (8 lanes per AVX2
instruction instead of 4; ``mctslab bench tsp`` needs >= 1,000 pr1002 playouts/s). The roulette
weight is still the TSPLIB integer weight (rounded as the metric says), computed from float32
coordinates shifted to the bounding box's corner: it can differ by one unit from the exact
weight in rare cases, which changes a sampling probability by a fraction of a percent and never
a path length (lengths always use the exact float64 metric). GEO and EXPLICIT weights are exact
(float64) and then inverted in float32.

A zero weight (duplicate cities, e.g. a280) gives an infinite 1/w. Then the next city is drawn
**uniformly among the zero-weight cities** (the limit of the roulette as their weights -> 0
together), not the first of them in ``remaining``, whose order the swap-removes scramble. Which
cities have weight 0 is decided by the exact float64 metric, so a float32 artefact (coordinates
that round to the same float32 value, or an EXPLICIT weight below float32's range) never counts
as a duplicate: its ``1/w`` is recomputed from the exact weight, capped at ``FLT_MAX / 8`` so
that no block sum overflows, and the roulette is drawn again over the repaired weights. All of
this runs only when the float32 total is infinite, so the common case pays one comparison.
(The converse artefact, an exact weight of 0 read as 1 in float32 near a distance of 0.5, is
the documented one-unit difference above; exact duplicates are always exactly 0 in float32.)

The draw: weights in blocks of 8 are summed as ``((w0+w1)+(w2+w3))+((w4+w5)+(w6+w7))`` in
float32, block sums added in order in float64; ``u * total`` is located first among block
sums, then within the block. The order of every addition is fixed, so ``reference.py``
reproduces each draw exactly.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mctslab.core.jit import njit
from mctslab.rng import rng_below, rng_random
from mctslab.tsp._distance import ATT, CEIL_2D, EUC_2D, path_length, weight

UNIFORM = 0
ROULETTE = 1
BLOCK = 8
# The largest 1/w that a block sum of 8 cannot overflow in float32 (FLT_MAX / 8, exact).
INVERSE_CAP = float(np.finfo(np.float32).max) / BLOCK


class Cities(NamedTuple):
    """An instance as the kernels read it: ``Instance.arrays`` (metric code, float64
    coordinates, explicit matrix) and the float32 coordinates of the weight pass
    (``api.float32_coordinates``; empty for an EXPLICIT instance)."""

    metric: int
    xs: np.ndarray
    ys: np.ndarray
    matrix: np.ndarray
    xs32: np.ndarray
    ys32: np.ndarray


class PlayoutScratch(NamedTuple):
    """The arrays one playout works in (reused by every playout of a search): ``visited``
    uint8[n], ``remaining`` int32[n], ``rem_x``/``rem_y`` float32[n] (or [0] without float32
    coordinates), ``w`` float32[n + 8], ``block_sum`` float64[n // 8 + 2]."""

    visited: np.ndarray
    remaining: np.ndarray
    rem_x: np.ndarray
    rem_y: np.ndarray
    w: np.ndarray
    block_sum: np.ndarray


def playout_scratch(n: int, coords_n: int) -> PlayoutScratch:
    """Fresh :class:`PlayoutScratch` for ``n`` cities (``coords_n``: n, or 0 without float32
    coordinates)."""
    return PlayoutScratch(np.zeros(n, np.uint8), np.zeros(n, np.int32),
                          np.zeros(coords_n, np.float32), np.zeros(coords_n, np.float32),
                          np.zeros(n + 8, np.float32), np.zeros(n // 8 + 2, np.float64))


@njit(cache=True)
def _fill_remaining(path, depth, n, visited, xs32, ys32, remaining, rem_x, rem_y):
    """Mark the prefix ``path[:depth]`` visited and compact the other cities (ascending)."""
    visited[:] = 0
    for k in range(depth):
        visited[path[k]] = 1
    m = 0
    has_coords = xs32.shape[0] == n
    for v in range(n):
        if visited[v] == 0:
            remaining[m] = v
            if has_coords:
                rem_x[m] = xs32[v]
                rem_y[m] = ys32[v]
            m += 1
    return m


@njit(cache=True, error_model="numpy")
def _inverse_weights(metric, xs, ys, matrix, xs32, ys32, last, remaining, rem_x, rem_y, m, w):  # noqa: PLR0913 - numba kernel: the roulette step's leaf, every metric's arrays as plain arguments
    """``w[k] = 1 / w(last, remaining[k])`` for k < m (float32; ``inf`` for a zero weight)."""
    one = np.float32(1.0)
    half = np.float32(0.5)
    if metric == EUC_2D or metric == CEIL_2D or metric == ATT:
        lx = xs32[last]
        ly = ys32[last]
        if metric == EUC_2D:
            for k in range(m):
                dx = rem_x[k] - lx
                dy = rem_y[k] - ly
                w[k] = one / np.floor(np.sqrt(dx * dx + dy * dy) + half)
        elif metric == CEIL_2D:
            for k in range(m):
                dx = rem_x[k] - lx
                dy = rem_y[k] - ly
                w[k] = one / np.ceil(np.sqrt(dx * dx + dy * dy))
        else:
            ten = np.float32(10.0)
            for k in range(m):
                dx = rem_x[k] - lx
                dy = rem_y[k] - ly
                r = np.sqrt((dx * dx + dy * dy) / ten)
                t = np.floor(r + half)
                w[k] = one / (t + one if t < r else t)
    else:  # GEO, EXPLICIT: exact float64 weights, inverted in float32
        for k in range(m):
            w[k] = one / np.float32(weight(metric, xs, ys, matrix, last, remaining[k]))


@njit(cache=True)
def _roulette_pick(w, m, block_sum, rng_state):
    """Index k < m drawn with probability ``w[k] / sum(w[:m])`` (see the module docstring).

    Returns -1, drawing nothing, when the float32 total is infinite.
    """
    blocks = (m + BLOCK - 1) // BLOCK
    for k in range(m, blocks * BLOCK):
        w[k] = 0.0
    total = 0.0
    for b in range(blocks):
        o = b * BLOCK
        block_sum[b] = ((w[o] + w[o + 1]) + (w[o + 2] + w[o + 3])) + \
            ((w[o + 4] + w[o + 5]) + (w[o + 6] + w[o + 7]))
        total += block_sum[b]
    if total == np.inf:
        return -1  # a zero weight or an overflow: see _zero_weight_pick (no number drawn)
    target = rng_random(rng_state) * total
    cumulative = 0.0
    b = 0
    while b < blocks - 1 and cumulative + block_sum[b] <= target:
        cumulative += block_sum[b]
        b += 1
    pick = min(b * BLOCK + BLOCK, m) - 1  # rounding fallback: the block's last city
    for k in range(b * BLOCK, min(b * BLOCK + BLOCK, m)):
        cumulative += w[k]
        if cumulative > target:
            pick = k
            break
    return pick


@njit(cache=True)
def _zero_weight_pick(metric, xs, ys, matrix, last, remaining, w, m, rng_state):
    """After an infinite roulette total: index k < m drawn uniformly among the cities at exact
    weight 0 from ``last``; -1 if there are none, with ``w`` repaired for a new roulette.

    Every ``w[k]`` above ``INVERSE_CAP`` (an infinite ``1/w`` or one that makes a block sum
    overflow) is checked against the exact float64 weight: 0 keeps ``inf`` and counts as a
    zero-weight city; a positive weight becomes ``min(1 / weight, INVERSE_CAP)``.
    """
    zeros = 0
    for k in range(m):
        if w[k] > INVERSE_CAP:
            exact = weight(metric, xs, ys, matrix, last, remaining[k])
            if exact == 0.0:
                w[k] = np.inf
                zeros += 1
            else:
                w[k] = np.float32(min(1.0 / exact, INVERSE_CAP))
    if zeros == 0:
        return -1
    nth = rng_below(rng_state, zeros)
    for k in range(m):
        if w[k] == np.inf:
            if nth == 0:
                return k
            nth -= 1
    return -1  # not reached: ``zeros`` entries are infinite


@njit(cache=True)
def playout(cities, policy, path, depth, rng_state, scratch):
    """Complete ``path[:depth]`` to a full path in place; return its length (exact metric).

    ``cities``: :class:`Cities`; ``scratch``: :class:`PlayoutScratch`.
    """
    metric, xs, ys, matrix, xs32, ys32 = cities
    visited, remaining, rem_x, rem_y, w, block_sum = scratch
    n = path.shape[0]
    m = _fill_remaining(path, depth, n, visited, xs32, ys32, remaining, rem_x, rem_y)
    has_coords = xs32.shape[0] == n
    for step in range(depth, n):
        if policy == UNIFORM or step == 0:
            pick = rng_below(rng_state, m)
        else:
            _inverse_weights(metric, xs, ys, matrix, xs32, ys32, path[step - 1], remaining,
                             rem_x, rem_y, m, w)
            pick = _roulette_pick(w, m, block_sum, rng_state)
            if pick < 0:  # rare: duplicate cities or a float32 artefact (module docstring)
                pick = _zero_weight_pick(metric, xs, ys, matrix, path[step - 1], remaining, w, m,
                                         rng_state)
                if pick < 0:
                    pick = _roulette_pick(w, m, block_sum, rng_state)
        path[step] = remaining[pick]
        m -= 1
        remaining[pick] = remaining[m]
        if has_coords:
            rem_x[pick] = rem_x[m]
            rem_y[pick] = rem_y[m]
    return path_length(metric, xs, ys, matrix, path)
