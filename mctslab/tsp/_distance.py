"""TSPLIB edge weights computed on the fly (numba leaves), and path / tour lengths.

Reinelt, "TSPLIB 95" (1995), Sec. 2: the integer metrics every TSPLIB optimum is stated in.

=========  ====  ==========================================================================
metric     code  weight of edge (i, j), i != j
=========  ====  ==========================================================================
EUC_2D     0     ``nint(sqrt(dx^2 + dy^2))`` with ``nint(x) = (int)(x + 0.5)``
CEIL_2D    1     ``ceil(sqrt(dx^2 + dy^2))``
ATT        2     ``r = sqrt((dx^2 + dy^2) / 10); t = nint(r); t + 1 if t < r else t``
GEO        3     ``(int)(6378.388 * acos(0.5((1 + q1) q2 - (1 - q1) q3)) + 1)``, from latitude /
                 longitude in radians (``xs``, ``ys``) converted with ``PI = 3.141592``
EXPLICIT   4     ``matrix[i, j]`` (the only metric that reads ``matrix``)
=========  ====  ==========================================================================

Every kernel takes the instance as ``(metric, xs, ys, matrix)``: ``xs``/``ys`` are float64
coordinates (radians for GEO; empty for EXPLICIT) and ``matrix`` a float64 ``n x n`` matrix
(``0 x 0`` unless EXPLICIT). So an instance never needs an ``n x n`` array unless the file gives
one: d15112 would need 1.8 GB as a float64 matrix. Weights are integers held in float64, so
sums of them are exact (below 2**53) and independent of the order of summation.

No ``fastmath``: the leaves are exact IEEE operations (sqrt, floor, ceil, division), which LLVM
vectorises without it; ``fastmath`` would allow fused multiply-adds and change the last bit of
``dx^2 + dy^2`` relative to the plain-Python reference.
"""

from __future__ import annotations

import math

import numpy as np

from mctslab.core.jit import njit

EUC_2D = 0
CEIL_2D = 1
ATT = 2
GEO = 3
EXPLICIT = 4

METRIC_CODES = {"EUC_2D": EUC_2D, "CEIL_2D": CEIL_2D, "ATT": ATT, "GEO": GEO, "EXPLICIT": EXPLICIT}

GEO_RADIUS = 6378.388  # TSPLIB's idealised Earth radius (km)
GEO_PI = 3.141592  # TSPLIB's PI for the DDD.MM -> radian conversion (not math.pi)


@njit(cache=True, inline="always")
def coord_weight(metric, x1, y1, x2, y2):
    """The TSPLIB weight between two points of a coordinate metric (EUC_2D, CEIL_2D, ATT, GEO)."""
    if metric == GEO:
        q1 = math.cos(y1 - y2)
        q2 = math.cos(x1 - x2)
        q3 = math.cos(x1 + x2)
        arg = 0.5 * ((1.0 + q1) * q2 - (1.0 - q1) * q3)
        arg = min(arg, 1.0)  # rounding can push acos' argument just above 1 for close points
        return math.floor(GEO_RADIUS * math.acos(arg) + 1.0)
    dx = x1 - x2
    dy = y1 - y2
    squared = dx * dx + dy * dy
    if metric == EUC_2D:
        return math.floor(math.sqrt(squared) + 0.5)
    if metric == CEIL_2D:
        return math.ceil(math.sqrt(squared))
    # ATT (pseudo-Euclidean)
    r = math.sqrt(squared / 10.0)
    t = math.floor(r + 0.5)
    return t + 1.0 if t < r else t


@njit(cache=True)
def weight(metric, xs, ys, matrix, i, j):
    """The weight of edge (i, j); 0 when i == j."""
    if i == j:
        return 0.0
    if metric == EXPLICIT:
        return matrix[i, j]
    return coord_weight(metric, xs[i], ys[i], xs[j], ys[j])


@njit(cache=True)
def path_length(metric, xs, ys, matrix, path):
    """Length of the Hamiltonian path ``path`` (no closing edge)."""
    total = 0.0
    for k in range(path.shape[0] - 1):
        total += weight(metric, xs, ys, matrix, path[k], path[k + 1])
    return total


@njit(cache=True)
def tour_length(metric, xs, ys, matrix, path):
    """Length of the closed tour through ``path`` (path length plus the closing edge)."""
    n = path.shape[0]
    if n < 2:
        return 0.0
    return path_length(metric, xs, ys, matrix, path) + weight(metric, xs, ys, matrix, path[n - 1], path[0])


@njit(cache=True)
def distance_matrix(metric, xs, ys, matrix, n):
    """The full float64 ``n x n`` weight matrix (small instances only: Held-Karp, tests)."""
    out = np.zeros((n, n), np.float64)
    for i in range(n):
        for j in range(i + 1, n):
            w = weight(metric, xs, ys, matrix, i, j)
            out[i, j] = w
            out[j, i] = w
    return out


@njit(cache=True)
def longest_edge_position(metric, xs, ys, matrix, tour):
    """Index k of the longest edge (tour[k], tour[k+1 mod n]) of a closed tour (first on ties)."""
    n = tour.shape[0]
    best_k = 0
    best_w = -1.0
    for k in range(n):
        w = weight(metric, xs, ys, matrix, tour[k], tour[(k + 1) % n])
        if w > best_w:
            best_w = w
            best_k = k
    return best_k
