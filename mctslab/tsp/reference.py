"""Plain-Python twins of the TSP kernels, for the tests (slow, obvious, independent code).

Each function restates the algorithm from the paper and TSPLIB without the kernels' tricks
(no edge cache, no path-ordered coordinates, no journal, no compacted arrays: full path lengths
are recomputed, lists and dicts hold the state). Where a kernel draws random numbers the twin
draws the same ones from :class:`PyRng`, a pure-Python xoshiro256** equal to
:mod:`mctslab.rng`, so kernel and twin can be compared result for result.

The roulette's float32 weight pass is restated with NumPy float32 scalars (IEEE single
precision, the same rounding as the kernel) because the kernel defines the sampling weights in
float32 on purpose (see ``_playout.py``).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from mctslab.tsp._distance import CEIL_2D, EUC_2D, EXPLICIT, GEO, GEO_RADIUS
from mctslab.tsp.tsplib import Instance

MASK64 = (1 << 64) - 1


class PyRng:
    """xoshiro256** on Python ints: the same stream as ``mctslab.rng`` for the same state."""

    def __init__(self, state):
        self.s = [int(v) for v in state]

    def next(self) -> int:
        s = self.s
        result = (((s[1] * 5) & MASK64) << 7 | ((s[1] * 5) & MASK64) >> 57) & MASK64
        result = (result * 9) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = ((s[3] << 45) | (s[3] >> 19)) & MASK64
        return result

    def random(self) -> float:
        return (self.next() >> 11) * (1.0 / 9007199254740992.0)

    def below(self, n: int) -> int:
        threshold = ((1 << 32) - n) % n
        while True:
            m = (self.next() >> 32) * n
            if (m & 0xFFFFFFFF) >= threshold:
                return m >> 32


# -- weights ---------------------------------------------------------------------------------------
def weight(instance: Instance, i: int, j: int) -> float:
    """TSPLIB 95, Sec. 2, written out for one pair."""
    if i == j:
        return 0.0
    if instance.metric == EXPLICIT:
        return float(instance.matrix[i, j])
    x1, y1, x2, y2 = (float(instance.xs[i]), float(instance.ys[i]),
                      float(instance.xs[j]), float(instance.ys[j]))
    if instance.metric == GEO:
        q1, q2, q3 = math.cos(y1 - y2), math.cos(x1 - x2), math.cos(x1 + x2)
        return float(int(GEO_RADIUS * math.acos(min(0.5 * ((1 + q1) * q2 - (1 - q1) * q3), 1.0)) + 1.0))
    d = math.sqrt((x1 - x2) ** 2 + (y1 - y2) ** 2)
    if instance.metric == EUC_2D:
        return float(int(d + 0.5))
    if instance.metric == CEIL_2D:
        return float(math.ceil(d))
    r = math.sqrt(((x1 - x2) ** 2 + (y1 - y2) ** 2) / 10.0)
    t = int(r + 0.5)
    return float(t + 1 if t < r else t)


def path_length(instance: Instance, path) -> float:
    return sum(weight(instance, path[k], path[k + 1]) for k in range(len(path) - 1))


def tour_length(instance: Instance, path) -> float:
    return path_length(instance, path) + (weight(instance, path[-1], path[0]) if len(path) > 1 else 0)


def mst_length(instance: Instance) -> float:
    """Prim with a dict of cheapest connections."""
    n = instance.dimension
    key = {v: weight(instance, 0, v) for v in range(1, n)}
    total = 0.0
    while key:
        v = min(key, key=lambda u: (key[u], u))
        total += key.pop(v)
        for u in key:
            key[u] = min(key[u], weight(instance, v, u))
    return total


def brute_force_path(instance: Instance) -> float:
    """Shortest Hamiltonian path by trying every permutation (n <= 9)."""
    n = instance.dimension
    if n <= 1:
        return 0.0
    return min(path_length(instance, p) for p in itertools.permutations(range(n)) if p[0] < p[-1])


# -- the paper's SA --------------------------------------------------------------------------------
def random_permutation(n: int, rng: PyRng) -> list[int]:
    out = list(range(n))
    for k in range(n - 1, 0, -1):
        j = rng.below(k + 1)
        out[k], out[j] = out[j], out[k]
    return out


def sa_swap(instance: Instance, path, rng: PyRng, t_start, t_end, iterations, cooling,
            accept_all=False):
    """Sec. 4's SA with full recomputation; returns (best, final, best path, final path).

    ``accept_all``: every proposal is accepted, with no acceptance draw."""
    path = list(path)
    n = len(path)
    current = path_length(instance, path)
    best, best_path = current, list(path)
    temperature = t_start
    while temperature > t_end and n >= 2:
        inverse_t = 1.0 / temperature
        for _ in range(iterations):
            a = rng.below(n)
            b = rng.below(n - 1)
            if b >= a:
                b += 1
            else:
                a, b = b, a
            candidate = list(path)
            candidate[a], candidate[b] = candidate[b], candidate[a]
            delta = path_length(instance, candidate) - current
            exponent = delta * inverse_t
            if accept_all or delta <= 0.0 or (exponent < 40.0 and rng.random() < math.exp(-exponent)):
                path, current = candidate, current + delta
                if current < best:
                    best, best_path = current, list(path)
        temperature *= cooling
    return best, current, best_path, path


# -- default policy ----------------------------------------------------------------------------------
def _float32_coordinates(instance: Instance):
    if instance.metric in (GEO, EXPLICIT):
        return None, None
    return ((instance.xs - instance.xs.min()).astype(np.float32),
            (instance.ys - instance.ys.min()).astype(np.float32))


def inverse_weights(instance: Instance, last: int, remaining: list[int]) -> list[np.float32]:
    """The roulette's ``1 / w(last, v)`` in float32, as ``_playout._inverse_weights``."""
    one, half, ten = np.float32(1), np.float32(0.5), np.float32(10)
    xs32, ys32 = _float32_coordinates(instance)
    out = []
    with np.errstate(divide="ignore", over="ignore"):  # inf, as the kernel, for w = 0 or tiny
        for v in remaining:
            if xs32 is None:
                out.append(one / np.float32(weight(instance, last, v)))
                continue
            dx, dy = xs32[v] - xs32[last], ys32[v] - ys32[last]
            squared = dx * dx + dy * dy
            if instance.metric == EUC_2D:
                out.append(one / np.floor(np.sqrt(squared) + half))
            elif instance.metric == CEIL_2D:
                out.append(one / np.ceil(np.sqrt(squared)))
            else:
                r = np.sqrt(squared / ten)
                t = np.floor(r + half)
                out.append(one / (t + one if t < r else t))
    return out


INVERSE_CAP = float(np.finfo(np.float32).max) / 8  # as _playout.INVERSE_CAP


def _block_total(weights: list[np.float32]) -> tuple[list[float], float]:
    """Sums of blocks of 8 in float32 (pairwise, as the kernel) and their float64 total."""
    padded = list(weights) + [np.float32(0)] * (-len(weights) % 8)
    with np.errstate(over="ignore"):  # an overflowing block sum is inf, as in the kernel
        sums = [float(((padded[o] + padded[o + 1]) + (padded[o + 2] + padded[o + 3]))
                      + ((padded[o + 4] + padded[o + 5]) + (padded[o + 6] + padded[o + 7])))
                for o in range(0, len(padded), 8)]
    total = 0.0
    for s in sums:
        total += s
    return sums, total


def roulette_pick(weights: list[np.float32], exact: list[float], rng: PyRng) -> int:
    """Index drawn with probability proportional to ``weights`` (same additions as the kernel).

    ``exact`` holds the exact weights w(last, v). If the float32 total is infinite, the pick is
    uniform among the cities of exact weight 0, or, when there are none, the roulette is drawn
    over weights whose too-large entries are recomputed as ``min(1 / exact, INVERSE_CAP)``.
    """
    m = len(weights)
    sums, total = _block_total(weights)
    if total == math.inf:
        zeros = [k for k in range(m) if weights[k] > INVERSE_CAP and exact[k] == 0.0]
        if zeros:
            return zeros[rng.below(len(zeros))]
        weights = [np.float32(min(1.0 / exact[k], INVERSE_CAP)) if weights[k] > INVERSE_CAP
                   else weights[k] for k in range(m)]
        sums, total = _block_total(weights)
    target = rng.random() * total
    cumulative, b = 0.0, 0
    while b < len(sums) - 1 and cumulative + sums[b] <= target:
        cumulative += sums[b]
        b += 1
    for k in range(8 * b, min(8 * b + 8, m)):
        cumulative += float(weights[k])
        if cumulative > target:
            return k
    return min(8 * b + 8, m) - 1


def playout(instance: Instance, policy: str, prefix, rng: PyRng):
    """Complete ``prefix`` (Fig. 7); returns (path, length)."""
    n = instance.dimension
    path = list(prefix)
    remaining = [v for v in range(n) if v not in set(path)]
    while remaining:
        if policy == "uniform" or not path:
            pick = rng.below(len(remaining))
        else:
            pick = roulette_pick(inverse_weights(instance, path[-1], remaining),
                                 [weight(instance, path[-1], v) for v in remaining], rng)
        path.append(remaining[pick])
        remaining[pick] = remaining[-1]  # the kernel's swap-remove keeps this order
        remaining.pop()
    return path, path_length(instance, path)


# -- MCTS --------------------------------------------------------------------------------------------
class Node:
    def __init__(self):
        self.visits, self.value_sum, self.value_min = 0, 0.0, math.inf
        self.children = None  # {city: Node or None}, in ascending city order once expanded


def _select(node: Node, c: float, rng: PyRng) -> int:
    """Eq. (2) minimised; uncreated children first (-inf); ties at random (reservoir)."""
    best_city, best_score, ties = None, math.inf, 0
    for city, child in node.children.items():
        if child is None:
            score = -math.inf
        else:
            explore = 0.0 if node.visits <= 1 else math.sqrt(2.0 * math.log(node.visits) / child.visits)
            score = child.value_sum / child.visits - c * explore
        if best_city is None or score < best_score:
            best_city, best_score, ties = city, score, 1
        elif score == best_score:
            ties += 1
            if rng.below(ties) == 0:
                best_city = city
    return best_city


def mcts(instance: Instance, policy: str, cp_rule: str, cp_k: float, rng: PyRng, playouts: int,
         mst: float | None = None):
    """Sec. 2-3 with one Node object per tree node; returns (best length, best path, root)."""
    n = instance.dimension
    root, nodes = Node(), 1
    c = 2.0 * cp_k * mst if cp_rule == "mst" else 0.0
    sd_pending = cp_rule == "sd"
    best, best_path = math.inf, None
    for _ in range(playouts):
        node, prefix, visited_nodes = root, [], [root]
        while len(prefix) < n:
            if node.children is None:
                node.children = {v: None for v in range(n) if v not in set(prefix)}
            city = _select(node, c, rng)
            prefix.append(city)
            if node.children[city] is None:
                node.children[city] = Node()
                nodes += 1
                visited_nodes.append(node.children[city])
                break
            node = node.children[city]
            visited_nodes.append(node)
        path, length = playout(instance, policy, prefix, rng)
        for visited in visited_nodes:
            visited.visits += 1
            visited.value_sum += length
            visited.value_min = min(visited.value_min, length)
        if length < best:
            best, best_path = length, path
        if sd_pending and root.children is not None and nodes >= len(root.children) + 1:
            means = [child.value_sum / child.visits for child in root.children.values()]
            mean = sum(means) / len(means)
            squares = sum(m * m for m in means) / len(means)
            c = 2.0 * cp_k * math.sqrt(max(squares - mean * mean, 0.0))
            sd_pending = False
    return best, best_path, root
