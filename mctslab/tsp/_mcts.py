"""MCTS for the Hamiltonian path problem (Sec. 2 and 3; Figs. 2, 6, 7): one playout per iteration.

A node is a partial path (Sec. 3.1); the root is the empty path, its n children choose the first
city, a node at depth d has n - d children (the unvisited cities). The tree lives in the shared
preallocated arrays of :mod:`mctslab.core.tree`: node statistics (visits, value sum, minimum)
and, per expanded node, one contiguous block of edges whose ``edge_move`` is the appended city.

One iteration (``MCT_SEARCH`` of Fig. 2):

- ``TREE_POLICY`` (Fig. 6, Eq. 2): from the root, while the node is not a complete path: if it
  has children not yet created, create one of them, chosen uniformly at random, and stop there;
  otherwise move to the child minimising ``mean_j - 2 Cp sqrt(2 ln n / n_j)``
  (:func:`mctslab.core.tree.tree_select_min` with ``c = 2 Cp``, which scores uncreated children
  ``-inf`` and breaks ties at random - exactly "expand every child first, at random").
- ``DEFAULT_POLICY`` (Fig. 7, Sec. 3.3): complete the path, uniform or roulette (``_playout``).
- ``BACKUP`` (Sec. 2.3, 3.4): add the path length to the visit count, value sum and best
  (minimum) value of every node on the way to the root. The best length through each node is
  ``node_value_min``; the best *path* itself is kept once, for the root (the answer), because
  only the root's is ever returned and n int32 per node would not fit for large n.

``Cp`` (Sec. 3.2): (1) k x MST length, passed in; (2) k x the standard deviation (population,
ddof 0) of the root children's path lengths, computed here the moment the last root child is
created (until then no UCT value is ever compared: the root still has uncreated children).

When the node or edge budget is used up the tree stops growing: the descent ends at the deepest
existing node (its chosen city is still appended) and the playout starts from there; ``stats``
counts these events. The search goes on, only without new nodes.

:func:`mcts_search` takes its arrays in named bundles (:class:`~._playout.Cities`,
:class:`SearchScratch`, :class:`~._playout.PlayoutScratch`), not as 27 positional arguments.
numba types a named tuple's arrays one by one in Python at every call, where it types plain
array arguments in C: measured, 6.5 us more per call (17.3 against 10.8 us), 2.5% of MCT_RM
with one search per city on eil101 (``mctslab bench tsp.mcts_step_playouts_per_s``, 100
playouts per call), and identical results. Bundles are taken unless the bench loses more than
5%; BENCHMARKS.md, "Kernel argument bundles", has the figures.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from mctslab.core.jit import njit
from mctslab.core.tree import NO_MASK, tree_backup, tree_expand, tree_new_node, tree_select_min
from mctslab.tsp._playout import playout


class SearchScratch(NamedTuple):
    """The arrays of one descent (reused by every iteration): ``path`` int32[n] (its first
    ``prefix_len`` cities are the root's partial path), ``node_path`` int64[n + 1], ``moves``
    int32[n]."""

    path: np.ndarray
    node_path: np.ndarray
    moves: np.ndarray


def search_scratch(n: int) -> SearchScratch:
    return SearchScratch(np.zeros(n, np.int32), np.zeros(n + 1, np.int64), np.zeros(n, np.int32))

# stats[] slots
PLAYOUTS = 0
NODE_BUDGET_HITS = 1
EDGE_BUDGET_HITS = 2
MAX_DEPTH = 3
# cp[2] values
CP_FIXED = 0.0
SD_PENDING = 1.0
SD_SET = 2.0


@njit(cache=True)
def _expand(tree, node, visited, n, moves):
    """Give ``node`` one edge per unvisited city (ascending); False when the edge budget is full."""
    count = 0
    for v in range(n):
        if visited[v] == 0:
            moves[count] = v
            count += 1
    return tree_expand(tree, node, moves, count) >= 0


@njit(cache=True)
def _descend(tree, n, exploration_c, rng_state, path, visited, node_path, moves, stats, prefix_len):
    """TREE_POLICY: fill ``path[prefix_len:depth]`` and ``node_path[:count]``; return (depth,
    count). The root is the partial path ``path[:prefix_len]`` (left as it is)."""
    visited[:] = 0
    for k in range(prefix_len):
        visited[path[k]] = 1
    node = 0
    node_path[0] = 0
    count = 1
    depth = prefix_len
    while depth < n:
        if tree.node_first_edge[node] < 0 and not _expand(tree, node, visited, n, moves):
            stats[EDGE_BUDGET_HITS] += 1
            break
        edge = tree_select_min(tree, node, exploration_c, False, rng_state, -1, NO_MASK)
        city = tree.edge_move[edge]
        path[depth] = city
        visited[city] = 1
        depth += 1
        child = tree.edge_child[edge]
        if child < 0:
            child = tree_new_node(tree)
            if child < 0:
                stats[NODE_BUDGET_HITS] += 1
                break
            tree.edge_child[edge] = child
            node_path[count] = child
            count += 1
            break
        node = child
        node_path[count] = child
        count += 1
    return depth, count


@njit(cache=True)
def _root_children_sd(tree):
    """Population standard deviation of the root children's mean path lengths."""
    first = tree.node_first_edge[0]
    count = tree.node_num_edges[0]
    total = 0.0
    squares = 0.0
    for e in range(first, first + count):
        child = tree.edge_child[e]
        mean = tree.node_value_sum[child] / tree.node_visits[child]
        total += mean
        squares += mean * mean
    mean = total / count
    return math.sqrt(max(squares / count - mean * mean, 0.0))


@njit(cache=True)
def mcts_search(tree, cities, policy, cp, rng_state, num_playouts, nodes_can_grow,  # noqa: PLR0913 - numba kernel: arrays in bundles already; the rest are scalars and outputs (module docstring: a bundle costs per call)
                edges_can_grow, best_path, best_length, trace, stats, scratch, playout_scratch,
                prefix_len=0):
    """Run up to ``num_playouts`` iterations on ``tree`` (created with its root, node 0).

    The root is the partial path ``path[:prefix_len]`` (the empty path by default; the
    step-by-step searches of :func:`mctslab.tsp.api.mcts` root a fresh tree at the committed
    prefix): every path found starts with it.

    Returns the number run. It returns early, before an iteration that might not fit (no free
    node while ``nodes_can_grow``, fewer than n free edges while ``edges_can_grow``), so that
    the caller can enlarge the tree and call again; at the caps a full tree simply stops
    growing (see the module docstring).

    ``cp`` float64[3] = [c = 2 Cp in use, k, mode]; mode ``CP_FIXED`` keeps ``cp[0]``; mode
    ``SD_PENDING`` keeps ``cp[0] = 0`` until the root is complete, then sets ``2 k SD`` and
    mode ``SD_SET``. ``best_path``/``best_length[0]`` keep the best complete path; ``trace[i]``
    = best length after iteration i; ``stats`` int64[4] (slots above). Scratch: ``path``
    int32[n], ``node_path`` int64[n + 1], ``moves`` int32[n] (:class:`SearchScratch`), and
    ``playout_scratch`` as :func:`playout` takes it; ``cities``: :class:`~._playout.Cities`.
    """
    path, node_path, moves = scratch
    visited = playout_scratch.visited
    n = path.shape[0]
    for i in range(num_playouts):
        if (nodes_can_grow and tree.sizes[0] + 1 > tree.node_visits.shape[0]) or \
                (edges_can_grow and tree.sizes[1] + n > tree.edge_child.shape[0]):
            return i
        depth, count = _descend(tree, n, cp[0], rng_state, path, visited, node_path, moves, stats,
                                prefix_len)
        length = playout(cities, policy, path, depth, rng_state, playout_scratch)
        tree_backup(tree, node_path, count, length)
        if length < best_length[0]:
            best_length[0] = length
            best_path[:] = path
        trace[i] = best_length[0]
        stats[PLAYOUTS] += 1
        stats[MAX_DEPTH] = max(stats[MAX_DEPTH], depth - prefix_len)
        # Until the root is complete every node but the root is a root child, so the root is
        # complete exactly when the node count reaches its edge count + 1.
        if (cp[2] == SD_PENDING and tree.node_first_edge[0] >= 0
                and tree.sizes[0] >= tree.node_num_edges[0] + 1):
            cp[0] = 2.0 * cp[1] * _root_children_sd(tree)
            cp[2] = SD_SET
    return num_playouts
