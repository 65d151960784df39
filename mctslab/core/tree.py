"""Search trees and DAGs as preallocated structs of arrays (after deepmind/mctx ``tree.py``).

Nodes are numbered in creation order; ``-1`` means "none". A node's outgoing edges are stored
contiguously (CSR-like): ``node_first_edge[n] .. node_first_edge[n] + node_num_edges[n] - 1``,
allocated in one block when the node is expanded. An edge carries the domain's move
(``edge_move[e]``) and the child node (``edge_child[e]``, ``-1`` until the child is created, so
children can be materialised lazily). In a DAG (the Sudoku paper's transposition-sharing tree)
two edges may point to the same child.

Statistics per node (all papers back up the same three): visit count, value sum (for the mean)
and best (minimum) value. Minimising papers (Sudoku, TSP) read ``node_value_min``; the
maximising Go paper uses the mean only.

Arrays (``Tree`` fields), sized by :func:`make_tree` from the node and edge budgets::

    node_visits[N]      int64    n: times a simulation passed through the node
    node_value_sum[N]   float64  sum of backed-up values
    node_value_min[N]   float64  smallest backed-up value (+inf before any)
    node_first_edge[N]  int64    first edge index, -1 while unexpanded
    node_num_edges[N]   int32    number of edges (children) once expanded
    edge_child[E]       int32    child node, -1 while not created
    edge_move[E]        int32    the move (domain-defined) on the edge
    sizes[2]            int64    [number of nodes, number of edges] in use

:func:`tree_grow` copies a tree into larger arrays (searches that start small and double).
Kernels return ``-1`` when a budget is exhausted; the caller decides what a full tree means
(stop growing and keep searching from the existing tree, usually).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from mctslab.core.jit import njit
from mctslab.core.ucb import ucb_min
from mctslab.rng import rng_below

__all__ = [
    "Tree",
    "make_tree",
    "tree_grow",
    "NO_MASK",
    "tree_new_node",
    "tree_expand",
    "tree_mean",
    "tree_backup",
    "tree_select_min",
    "tree_select_max",
]


class Tree(NamedTuple):
    node_visits: np.ndarray
    node_value_sum: np.ndarray
    node_value_min: np.ndarray
    node_first_edge: np.ndarray
    node_num_edges: np.ndarray
    edge_child: np.ndarray
    edge_move: np.ndarray
    sizes: np.ndarray


NO_MASK = np.zeros(0, np.uint8)
"""Pass as ``closed`` to :func:`tree_select_min` when no child is ever closed."""


def make_tree(max_nodes: int, max_edges: int) -> Tree:
    """Allocate an empty tree for ``max_nodes`` nodes and ``max_edges`` edges."""
    if max_nodes < 1 or max_edges < 0:
        raise ValueError(f"tree budgets must be positive, got nodes={max_nodes}, edges={max_edges}")
    return Tree(
        node_visits=np.zeros(max_nodes, np.int64),
        node_value_sum=np.zeros(max_nodes, np.float64),
        node_value_min=np.full(max_nodes, np.inf, np.float64),
        node_first_edge=np.full(max_nodes, -1, np.int64),
        node_num_edges=np.zeros(max_nodes, np.int32),
        edge_child=np.full(max(max_edges, 1), -1, np.int32),
        edge_move=np.full(max(max_edges, 1), -1, np.int32),
        sizes=np.zeros(2, np.int64),
    )


def tree_grow(tree: Tree, max_nodes: int, max_edges: int) -> Tree:
    """A larger tree holding ``tree``'s contents (for searches that grow by doubling)."""
    if max_nodes < tree.node_visits.shape[0] or max_edges < tree.edge_child.shape[0]:
        raise ValueError("tree_grow cannot shrink a tree")
    grown = make_tree(max_nodes, max_edges)
    for old, new in zip(tree, grown):
        new[: old.shape[0]] = old
    return grown


@njit(cache=True)
def tree_new_node(tree):
    """Create a fresh node and return its index, or -1 when the node budget is used up."""
    n = tree.sizes[0]
    if n >= tree.node_visits.shape[0]:
        return -1
    tree.sizes[0] = n + 1
    tree.node_visits[n] = 0
    tree.node_value_sum[n] = 0.0
    tree.node_value_min[n] = math.inf
    tree.node_first_edge[n] = -1
    tree.node_num_edges[n] = 0
    return n


@njit(cache=True)
def tree_expand(tree, node, moves, num_moves):
    """Give ``node`` ``num_moves`` edges carrying ``moves[:num_moves]`` (children not created).

    Returns the first edge index, or -1 when the edge budget is used up (node left unexpanded).
    """
    e = tree.sizes[1]
    if e + num_moves > tree.edge_child.shape[0]:
        return -1
    for i in range(num_moves):
        tree.edge_move[e + i] = moves[i]
        tree.edge_child[e + i] = -1
    tree.node_first_edge[node] = e
    tree.node_num_edges[node] = num_moves
    tree.sizes[1] = e + num_moves
    return e


@njit(cache=True)
def tree_mean(tree, node):
    v = tree.node_visits[node]
    if v == 0:
        return 0.0
    return tree.node_value_sum[node] / v


@njit(cache=True)
def tree_backup(tree, path, path_length, value):
    """Add one visit with ``value`` to every node of ``path[:path_length]``."""
    for i in range(path_length):
        n = path[i]
        tree.node_visits[n] += 1
        tree.node_value_sum[n] += value
        if value < tree.node_value_min[n]:
            tree.node_value_min[n] = value


@njit(cache=True)
def tree_select_min(tree, node, c, use_min, rng_state, n_parent, closed):
    """The edge of ``node`` minimising ``X_j - c sqrt(2 ln n / n_j)``.

    ``X_j`` is the child's mean, or its best (minimum) value when ``use_min`` (the Sudoku
    paper's "min" selection, its Eq. 3). ``n`` is the node's visit count, or ``n_parent`` when
    that is ``>= 0`` (the Sudoku paper reads ``n`` as the overall number of playouts). Children
    not yet created count as unvisited (score ``-inf``); children with ``closed[child] != 0``
    are skipped (pass an empty array for no mask). Ties are broken uniformly at random with
    ``rng_state`` (reservoir sampling, one draw per tie). Returns the edge index, or -1 when the
    node has no open edge.
    """
    first = tree.node_first_edge[node]
    count = tree.node_num_edges[node]
    if n_parent < 0:
        n_parent = tree.node_visits[node]
    use_mask = closed.shape[0] > 0
    best_edge = -1
    best_score = math.inf
    ties = 0
    for e in range(first, first + count):
        child = tree.edge_child[e]
        if child < 0:
            score = -math.inf
        else:
            if use_mask and closed[child] != 0:
                continue
            visits = tree.node_visits[child]
            if use_min:
                x = tree.node_value_min[child]
            else:
                x = tree.node_value_sum[child] / visits if visits > 0 else 0.0
            score = ucb_min(x, n_parent, visits, c)
        if best_edge < 0 or score < best_score:
            best_edge = e
            best_score = score
            ties = 1
        elif score == best_score:
            ties += 1
            if rng_below(rng_state, ties) == 0:  # reservoir sampling over equal scores
                best_edge = e
    return best_edge


@njit(cache=True, _nrt=False)  # allocates nothing: no reference counting (Go's hot path)
def tree_select_max(tree, node, c):
    """The edge of ``node`` maximising ``mean_j + c sqrt(2 ln n / n_j)`` (UCB1, first on ties).

    An edge whose child is not created yet, or is unvisited, is taken at once (its score is
    ``+inf``). ``c sqrt(2 ln n)`` is computed once per node, not once per child (a 19x19 Go
    root has 362 children): the same scores as :func:`ucb.ucb_max` for every child.
    """
    first = tree.node_first_edge[node]
    count = tree.node_num_edges[node]
    n_parent = tree.node_visits[node]
    scale = c * math.sqrt(2.0 * math.log(n_parent)) if n_parent > 1 else 0.0
    best_edge = first
    best_score = -math.inf
    for e in range(first, first + count):
        child = tree.edge_child[e]
        if child < 0:
            return e
        visits = tree.node_visits[child]
        if visits <= 0:
            return e
        score = tree.node_value_sum[child] / visits + scale / math.sqrt(visits)
        if score > best_score:
            best_edge = e
            best_score = score
    return best_edge
