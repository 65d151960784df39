"""Exact shortest Hamiltonian path by Held-Karp dynamic programming, O(2^n n^2) time.

Held & Karp (1962), adapted to open paths with free end points: ``cost[S, v]`` is the length of
the shortest path that visits exactly the set ``S`` (a bit mask) and ends at ``v``; paths of one
city cost 0, and ``cost[S + u, u] = min_v cost[S, v] + w(v, u)``. The answer is
``min_v cost[all, v]``. Ground truth for the tests (``mctslab tsp solve --method exact``);
memory is 2^n x n float64, so n <= 20 (16 cities: 8 MB, under a second).
"""

from __future__ import annotations

import numpy as np

from mctslab.core.jit import njit


@njit(cache=True)
def held_karp_path(dist, path):
    """Fill ``path`` (int32[n]) with a shortest Hamiltonian path of ``dist``; return its length.

    Ties go to the smallest end city / predecessor, so the result is deterministic.
    """
    n = dist.shape[0]
    if n == 1:
        path[0] = 0
        return 0.0
    full = (1 << n) - 1
    cost = np.full((full + 1, n), np.inf)
    parent = np.full((full + 1, n), -1, np.int8)
    for v in range(n):
        cost[1 << v, v] = 0.0
    for mask in range(1, full + 1):
        for v in range(n):
            base = cost[mask, v]
            if base == np.inf:
                continue
            for u in range(n):
                if mask & (1 << u):
                    continue
                extended = mask | (1 << u)
                candidate = base + dist[v, u]
                if candidate < cost[extended, u]:
                    cost[extended, u] = candidate
                    parent[extended, u] = v
    end = 0
    for v in range(1, n):
        if cost[full, v] < cost[full, end]:
            end = v
    best = cost[full, end]
    mask = full
    for k in range(n - 1, -1, -1):
        path[k] = end
        previous = parent[mask, end]
        mask ^= 1 << end
        end = previous
    return best
