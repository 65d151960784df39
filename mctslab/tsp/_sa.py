"""The paper's simulated annealing (Sec. 4): swap two random cities, Metropolis, geometric cooling.

Shimomura & Takashima, Sec. 4: initial temperature 10000, final 10, 1000 iterations per
temperature, cooling factor 0.99 (688 temperatures, 688,000 proposals), perturbation = exchange
two random cities of the permutation, objective = Hamiltonian path length (no closing edge).

Speed (``mctslab bench tsp``: ``tsp.sa_moves_per_s``) comes from three things:

- coordinates are kept in *path order* (``pos_x[k]`` is the x of ``path[k]``), so the four
  candidate edges of a swap are read without an index indirection;
- the current edges are cached (``edge[k]`` = weight of ``path[k] - path[k+1]``), so a proposal
  computes only the four new weights, not eight;
- the best path is kept exactly without an O(n) copy per improvement: accepted swaps since the
  last copy are logged in ``journal`` and replayed onto ``best_path`` when a new best appears
  (a full copy only when the log overflows). Amortised O(1) per accepted move.

Acceptance draws no random number when ``delta / T > 40``: ``exp(-40) < 2**-53``, below the
resolution of :func:`mctslab.rng.rng_random`, so the move could not be accepted anyway.
"""

from __future__ import annotations

import math

import numpy as np

from mctslab.core.jit import njit
from mctslab.rng import rng_below, rng_random
from mctslab.tsp._distance import EXPLICIT, coord_weight, path_length

NO_DRAW_EXPONENT = 40.0


@njit(cache=True)
def random_permutation(n, rng_state, out):
    """Fisher-Yates: ``out[:n]`` becomes a uniformly random permutation of 0..n-1."""
    for k in range(n):
        out[k] = k
    for k in range(n - 1, 0, -1):
        j = rng_below(rng_state, k + 1)
        tmp = out[k]
        out[k] = out[j]
        out[j] = tmp


@njit(cache=True, inline="always")
def _pos_weight(metric, pos_x, pos_y, matrix, path, i, j):
    """Weight between the cities at path positions i and j."""
    if metric == EXPLICIT:
        return matrix[path[i], path[j]]
    return coord_weight(metric, pos_x[i], pos_y[i], pos_x[j], pos_y[j])


@njit(cache=True, inline="always")
def _apply_swap(metric, pos_x, pos_y, path, edge, a, b, w0, w1, w2, w3):  # noqa: PLR0913 - numba kernel inlined in the SA loop: the proposal's four edge weights as scalars
    """Exchange positions a < b and store the new edge weights (from the proposal)."""
    n = path.shape[0]
    tmp = path[a]
    path[a] = path[b]
    path[b] = tmp
    if metric != EXPLICIT:
        tx = pos_x[a]
        ty = pos_y[a]
        pos_x[a] = pos_x[b]
        pos_y[a] = pos_y[b]
        pos_x[b] = tx
        pos_y[b] = ty
    if a > 0:
        edge[a - 1] = w0
    if b < n - 1:
        edge[b] = w3
    if b != a + 1:
        edge[a] = w1
        edge[b - 1] = w2


@njit(cache=True)
def _sync_best(path, best_path, journal, counters):
    """Make ``best_path`` equal ``path``: replay the logged swaps, or copy after an overflow.

    ``counters[0]`` = number of logged swaps, ``counters[1]`` = 1 when the log overflowed.
    """
    if counters[1] == 1:
        best_path[:] = path
    else:
        for k in range(counters[0]):
            a = journal[2 * k]
            b = journal[2 * k + 1]
            tmp = best_path[a]
            best_path[a] = best_path[b]
            best_path[b] = tmp
    counters[0] = 0
    counters[1] = 0


@njit(cache=True)
def _log_swap(journal, counters, a, b):
    k = counters[0]
    if 2 * k + 1 < journal.shape[0]:
        journal[2 * k] = a
        journal[2 * k + 1] = b
        counters[0] = k + 1
    else:
        counters[1] = 1


@njit(cache=True)
def _prepare(metric, xs, ys, matrix, path, best_path, pos_x, pos_y, edge):
    """Fill the path-ordered coordinates and the edge cache; return the path length."""
    n = path.shape[0]
    if metric != EXPLICIT:
        for k in range(n):
            pos_x[k] = xs[path[k]]
            pos_y[k] = ys[path[k]]
    length = 0.0
    for k in range(n - 1):
        edge[k] = _pos_weight(metric, pos_x, pos_y, matrix, path, k, k + 1)
        length += edge[k]
    best_path[:] = path
    return length


@njit(cache=True)
def sa_swap(metric, xs, ys, matrix, path, rng_state, t_start, t_end, iterations, cooling,  # noqa: PLR0913 - numba kernel: the instance's arrays, the paper's schedule (Sec. 4) and the outputs as plain arguments
            best_path, trace, accept_all=False):
    """Anneal ``path`` in place; ``best_path`` gets the best path seen.

    ``accept_all``: accept every proposal, whatever its delta, and draw no acceptance number
    (the "ineffective SA" reading of the paper's SA, docs/bench/tsp.md: a random walk over swaps
    that keeps the best path seen; the same proposals and schedule as the paper's SA, as if every
    temperature were infinite).

    Temperatures ``t_start * cooling**k`` while above ``t_end``, ``iterations`` proposals each;
    ``trace[k]`` = best length after temperature k (``trace`` sized to the number of
    temperatures). Returns (best length, final length, proposals, accepted moves).
    """
    n = path.shape[0]
    # Allocated here, once per call, not passed in: LLVM may then assume these arrays do not
    # alias ``path`` or each other, which is worth about 25% of the proposal rate (measured).
    coords_n = n if metric != EXPLICIT else 0
    pos_x = np.empty(coords_n, np.float64)
    pos_y = np.empty(coords_n, np.float64)
    edge = np.empty(max(n - 1, 1), np.float64)
    journal = np.empty(2 * n + 2, np.int32)
    current = _prepare(metric, xs, ys, matrix, path, best_path, pos_x, pos_y, edge)
    best = current
    counters = np.zeros(2, np.int64)
    proposals = 0
    accepted = 0
    temperature = t_start
    level = 0
    while temperature > t_end and n >= 2:
        inverse_t = 1.0 / temperature
        for _ in range(iterations):
            a = rng_below(rng_state, n)
            b = rng_below(rng_state, n - 1)
            if b >= a:
                b += 1
            else:
                a, b = b, a
            # New weights of edges (a-1, a), (a, a+1), (b-1, b), (b, b+1) after the exchange;
            # an adjacent pair (b == a + 1) keeps edge (a, b). Written out here, not in a helper:
            # the inlined helper version measured 35% slower.
            w0 = w1 = w2 = w3 = 0.0
            delta = 0.0
            if a > 0:
                w0 = _pos_weight(metric, pos_x, pos_y, matrix, path, a - 1, b)
                delta += w0 - edge[a - 1]
            if b < n - 1:
                w3 = _pos_weight(metric, pos_x, pos_y, matrix, path, a, b + 1)
                delta += w3 - edge[b]
            if b != a + 1:
                w1 = _pos_weight(metric, pos_x, pos_y, matrix, path, b, a + 1)
                w2 = _pos_weight(metric, pos_x, pos_y, matrix, path, b - 1, a)
                delta += w1 + w2 - edge[a] - edge[b - 1]
            exponent = delta * inverse_t
            if accept_all or delta <= 0.0 or (exponent < NO_DRAW_EXPONENT
                                and rng_random(rng_state) < math.exp(-exponent)):
                _apply_swap(metric, pos_x, pos_y, path, edge, a, b, w0, w1, w2, w3)
                _log_swap(journal, counters, a, b)
                current += delta
                accepted += 1
                if current < best:
                    best = current
                    _sync_best(path, best_path, journal, counters)
        proposals += iterations
        if level < trace.shape[0]:
            trace[level] = best
        level += 1
        temperature *= cooling
    return best, current, proposals, accepted


@njit(cache=True)
def sa_swap_naive(metric, xs, ys, matrix, path, rng_state, t_start, t_end, iterations, cooling,  # noqa: PLR0913 - numba kernel: the same arguments as sa_swap
                  best_path):
    """The same SA as :func:`sa_swap`, written as a naive implementation would: each proposal
    swaps in place and recomputes the whole path length (O(n) per move), and undoes a rejected
    swap. Only for timing the paper's speed-up against a slow SA.

    With integer TSPLIB weights the lengths are exact, so it makes the same decisions, draws
    the same numbers and ends in the same paths as :func:`sa_swap`. Returns (best length,
    final length, proposals, accepted moves).
    """
    n = path.shape[0]
    current = path_length(metric, xs, ys, matrix, path)
    best = current
    best_path[:] = path
    proposals = 0
    accepted = 0
    temperature = t_start
    while temperature > t_end and n >= 2:
        inverse_t = 1.0 / temperature
        for _ in range(iterations):
            a = rng_below(rng_state, n)
            b = rng_below(rng_state, n - 1)
            if b >= a:
                b += 1
            else:
                a, b = b, a
            tmp = path[a]
            path[a] = path[b]
            path[b] = tmp
            candidate = path_length(metric, xs, ys, matrix, path)
            delta = candidate - current
            exponent = delta * inverse_t
            if delta <= 0.0 or (exponent < NO_DRAW_EXPONENT
                                and rng_random(rng_state) < math.exp(-exponent)):
                current = candidate
                accepted += 1
                if current < best:
                    best = current
                    best_path[:] = path
            else:
                path[b] = path[a]
                path[a] = tmp
        proposals += iterations
        temperature *= cooling
    return best, current, proposals, accepted
