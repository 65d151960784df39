"""A fair SA baseline (beyond the paper): 2-opt moves from neighbour lists, scaled temperature.

What a practitioner's simulated annealing for the TSP looks like, next to the paper's swap SA:

- the Hamiltonian path is a tour over n + 1 nodes, node ``n`` being a *dummy* city at distance
  0 from every city: the two edges at the dummy are free, so the tour minus the dummy is the
  path, and every path end move is an ordinary 2-opt move;
- a move picks a city ``a`` at random and ``b`` among a's K nearest cities (or the dummy), and
  makes a and b adjacent with a 2-opt move (succ or pred side, chosen at random); the segment
  reversed is the shorter side of the cycle (array representation with ``pos``);
- temperatures go geometrically from ``t_from`` to ``t_to`` within one call; the caller scales
  them to the instance (a multiple of the mean nearest-neighbour distance) and, with a time
  limit, calls in chunks whose temperature ranges follow the elapsed fraction of the budget.

The best state is snapshot at the end of each call (chunk); the schedule ends cold, so that is
the final local optimum in practice.
"""

from __future__ import annotations

import math

from mctslab.core.jit import njit
from mctslab.rng import rng_below, rng_random
from mctslab.tsp._distance import weight

CURRENT = 0  # slot of the current tour length in ``lengths``
BEST = 1  # slot of the best snapshot length


@njit(cache=True, inline="always")
def _w(metric, xs, ys, matrix, n, i, j):
    """Weight with the dummy city ``n`` at distance 0 from everything."""
    if i == n or j == n:
        return 0.0
    return weight(metric, xs, ys, matrix, i, j)


@njit(cache=True)
def _reverse(tour, pos, first, last, size):
    """Reverse the cyclic segment tour[first..last]; ``size`` = its number of cities."""
    total = tour.shape[0]
    for _ in range(size // 2):
        a = tour[first]
        b = tour[last]
        tour[first] = b
        pos[b] = first
        tour[last] = a
        pos[a] = last
        first = first + 1 if first + 1 < total else 0
        last = last - 1 if last > 0 else total - 1


@njit(cache=True)
def _two_opt(tour, pos, a, b):
    """Replace edges (a, succ a), (b, succ b) by (a, b), (succ a, succ b)."""
    total = tour.shape[0]
    i = pos[a]
    j = pos[b]
    inner = (j - i) % total  # cities succ(a) .. b
    if inner <= total - inner:
        _reverse(tour, pos, (i + 1) % total, j, inner)
    else:  # the complement succ(b) .. a, same cycle, fewer cities to move
        _reverse(tour, pos, (j + 1) % total, i, total - inner)


@njit(cache=True)
def _pick_pair(neighbors, n, rng_state):
    """A random city (or the dummy) and one of its near cities (or the dummy)."""
    a = rng_below(rng_state, n + 1)
    if a == n:
        return a, rng_below(rng_state, n)
    k = rng_below(rng_state, neighbors.shape[1] + 1)
    return a, (n if k == neighbors.shape[1] else neighbors[a, k])


@njit(cache=True)
def sa_2opt(metric, xs, ys, matrix, neighbors, tour, pos, lengths, rng_state, t_from, t_to,  # noqa: PLR0913 - numba kernel: the instance's arrays, the tour's state, the schedule and the output as plain arguments
            proposals, best_tour):
    """Anneal the (n + 1)-node ``tour`` in place for ``proposals`` moves; return moves accepted.

    ``lengths`` float64[2] = [current, best snapshot]; ``best_tour`` gets the end state when it
    beats the snapshot. Temperature changes every 1,000 proposals.
    """
    total = tour.shape[0]
    n = total - 1
    levels = max(1, proposals // 1000)
    ratio = (t_to / t_from) ** (1.0 / levels) if levels > 1 else 1.0
    temperature = t_from
    accepted = 0
    for k in range(proposals):
        if k > 0 and k % 1000 == 0:
            temperature *= ratio
        a, b = _pick_pair(neighbors, n, rng_state)
        if rng_below(rng_state, 2) == 1:  # the predecessor side: same move from pred(a), pred(b)
            a = tour[pos[a] - 1 if pos[a] > 0 else total - 1]
            b = tour[pos[b] - 1 if pos[b] > 0 else total - 1]
        succ_a = tour[pos[a] + 1 if pos[a] + 1 < total else 0]
        succ_b = tour[pos[b] + 1 if pos[b] + 1 < total else 0]
        if a == b or succ_a == b or succ_b == a:
            continue
        delta = (_w(metric, xs, ys, matrix, n, a, b) + _w(metric, xs, ys, matrix, n, succ_a, succ_b)
                 - _w(metric, xs, ys, matrix, n, a, succ_a) - _w(metric, xs, ys, matrix, n, b, succ_b))
        if delta <= 0.0 or rng_random(rng_state) < math.exp(-delta / temperature):
            _two_opt(tour, pos, a, b)
            lengths[CURRENT] += delta
            accepted += 1
    if lengths[CURRENT] < lengths[BEST]:
        lengths[BEST] = lengths[CURRENT]
        best_tour[:] = tour
    return accepted
