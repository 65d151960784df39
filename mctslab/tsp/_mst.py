"""Minimum-spanning-tree length by Prim's algorithm in O(n^2), weights computed on the fly.

The paper (Sec. 4, Figs. 8 and 9) divides every path length by the instance's MST length, and
``Cp = k x MST`` (Sec. 3.2, method (1)) scales the exploration term by it. Prim on the complete
graph needs no n x n matrix: d15112 takes about a second and O(n) memory.
"""

from __future__ import annotations

import numpy as np

from mctslab.core.jit import njit
from mctslab.tsp._distance import weight


@njit(cache=True)
def mst_length(metric, xs, ys, matrix, n):
    """Total weight of a minimum spanning tree of the complete graph on ``n`` cities.

    Keeps the cities not yet in the tree compacted in ``outside[:m]`` with their cheapest
    connection ``key[:m]``, so both passes of an iteration are contiguous scans over m items.
    """
    if n < 2:
        return 0.0
    outside = np.empty(n - 1, np.int32)
    key = np.empty(n - 1, np.float64)
    for k in range(n - 1):
        outside[k] = k + 1
        key[k] = weight(metric, xs, ys, matrix, 0, k + 1)
    total = 0.0
    m = n - 1
    while m > 0:
        pick = 0
        for k in range(1, m):
            if key[k] < key[pick]:
                pick = k
        total += key[pick]
        joined = outside[pick]
        m -= 1
        outside[pick] = outside[m]
        key[pick] = key[m]
        for k in range(m):
            w = weight(metric, xs, ys, matrix, joined, outside[k])
            if w < key[k]:
                key[k] = w
    return total
