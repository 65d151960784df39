"""The UCT search's Python side: its arguments checked and turned into the arrays of the
kernels of :mod:`mctslab.go._search` (the tree, the scratch board, the tabu queues, the hash
log), the kernel called until the playouts are done (the tree grown between calls), and the
root's children read back (:class:`SearchRun`).

:func:`mctslab.go.api.search` is the public search on a :class:`~mctslab.go.api.Board`; this
module takes a kernel ``BoardState`` and kernel points, for the tests and benchmarks that
measure the kernels themselves.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mctslab.core.tree import make_tree, tree_expand, tree_grow, tree_new_node
from mctslab.go._board import I_PASSES, clone_state
from mctslab.go._playout import TABU_NONE, Tabu, no_tabu
from mctslab.go._search import SearchBuffers, UctSettings, expand_root_with_prior, uct_run
from mctslab.go._tabu import make_queues
from mctslab.rng import seed_state

__all__ = ["SearchRun", "make_tabu", "run_search"]


class SearchRun(NamedTuple):
    """What one search found: playouts done, the root's children ``(point, visits, win rate
    for the root player)``, the root's win rate, the tree's node count and the tree, the tabu
    candidates rejected over all playouts and the hash log (see :func:`run_search`)."""

    playouts: int
    children: list  # (point, visits, win rate for the root player)
    root_win_rate: float
    nodes: int
    tree: object
    tabu_candidates: int = 0  # candidates rejected by the tabu lists, all playouts
    hashes: np.ndarray | None = None  # uint64[playouts, hash_moves] (see run_search)


def make_tabu(nodes: int, mode: int, size: int, moves: int, kind: int,
              policy_redraws: int = 0) -> Tabu:
    """Tabu queues for a search of at most ``nodes`` nodes (all NIL); ``policy_redraws``: the
    rejections of one playout move the playout policy may redraw before ``LIGHT`` does."""
    if mode == TABU_NONE or size <= 0:
        return no_tabu()
    queues, heads = make_queues(nodes, moves, size)
    return Tabu(queues, heads, np.zeros(moves, np.uint64),
                np.array([mode, size, moves, kind, policy_redraws], np.int64),
                np.zeros(1, np.int64))


def _checked_prior(prior, points: int):
    """``prior`` as float64 over the ``points`` kernel points, or a ``ValueError``."""
    prior = np.ascontiguousarray(prior, np.float64)
    if prior.shape != (points,):
        raise ValueError(f"prior must have one value per kernel point ({points}), "
                         f"got shape {prior.shape}")
    return prior


def _fixed_root(tree, root_moves, points: int, use_prior: bool) -> None:
    """Expand the root with exactly ``root_moves`` (checked), in their order."""
    if use_prior:
        raise ValueError("root_moves and a prior cannot be combined")
    root_moves = np.ascontiguousarray(root_moves, np.int32)
    if root_moves.size == 0 or root_moves.size > points:
        raise ValueError(f"root_moves must hold 1..{points} points, got {root_moves.size}")
    tree_expand(tree, 0, root_moves, root_moves.size)


def _buffers(root, nodes_budget: int, n_playouts: int, hash_moves: int) -> SearchBuffers:
    """The arrays one search works in: the scratch board, the descent's path, a new node's
    moves, the hashes of a playout and the hash log of all (rows only with ``hash_moves``)."""
    return SearchBuffers(clone_state(root), np.zeros(nodes_budget + 1, np.int64),
                         np.zeros(root.color.shape[0] + 1, np.int32),
                         np.zeros(hash_moves, np.uint64),
                         np.zeros((n_playouts if hash_moves else 0, hash_moves), np.uint64))


def _prior_root(tree, root, rng, moves_buf, prior, prior_visits: int, max_nodes) -> None:
    """Create the root's children with the prior's virtual visits, or a ``ValueError`` when
    the node budget cannot hold them."""
    points = root.color.shape[0]
    if tree.sizes[0] + points + 1 > tree.node_visits.shape[0]:  # (edges: >= 2 * points)
        raise ValueError(f"max_nodes={max_nodes} cannot hold the root's children")
    expand_root_with_prior(tree, root, rng, moves_buf, prior, prior_visits)


def _root_children(tree, prior, prior_visits: int) -> list:
    """``(point, visits, win rate)`` of the root's children visited by real playouts (the
    prior's virtual visits and wins taken out)."""
    children = []
    first, count = int(tree.node_first_edge[0]), int(tree.node_num_edges[0])
    for e in range(first, first + count if first >= 0 else first):
        child = int(tree.edge_child[e])
        move = int(tree.edge_move[e])
        visits = int(tree.node_visits[child]) - prior_visits if child >= 0 else 0
        if visits > 0:
            value = float(tree.node_value_sum[child]) - (
                prior_visits * float(prior[move]) if prior_visits else 0.0)
            children.append((move, visits, value / visits))
    return children


def run_search(root, n_playouts, *, c=1.5, expansion_threshold=1, policy=0,  # noqa: PLR0913 - the kernel search's options, one keyword each with its default (api.search and the benches call it by keyword)
               policy_data=None, komi=6.5, seed=None, max_nodes=None, max_moves=None,
               tabu_mode=TABU_NONE, tabu_size=0, tabu_moves=5, tabu_kind=0,
               hash_moves=0, edges_per_node=8, prior=None, prior_visits=0,
               tabu_policy_redraws=0, root_moves=None) -> SearchRun:
    """Run UCT from ``root`` (a ``BoardState``), growing the edge arrays as needed.

    ``root_moves`` (int32 kernel points, legal, distinct): the root's children are exactly
    these, tried in this order before UCB chooses among them (an untried edge is taken first,
    in edge order); None: ``_search.tree_moves`` (legal non-eye-filling points and pass,
    shuffled). A host engine uses it to leave out unconditional territory and to try the
    classical engine's best moves first, as GNU Go's Monte-Carlo mode does.

    ``prior`` (float64 over kernel points, win rates in [0, 1] for the player to move;
    ``prior[PASS]`` for the pass) with ``prior_visits > 0``: the root's children start with
    ``prior_visits`` virtual playouts at that win rate (``_search.expand_root_with_prior``;
    root only, deeper nodes start empty). They steer selection only: ``SearchRun.children``
    reports the real visits and the real win rate (virtual ones subtracted), and a child never
    visited for real is left out as without a prior. The node budget grows by the root's
    children. ``prior=None`` or ``prior_visits=0``: exactly the search without a prior.

    ``tabu_*``: the leaves' tabu lists (mode ``_tabu.NONE`` / ``SEQUENTIAL`` / ``BATCH_ON_LOSS``,
    size ``L_k``, moves ``M``, ``_playout.TABU_STATE`` or ``TABU_MOVE``). ``hash_moves > 0``
    records the hash after each of every playout's first ``hash_moves`` moves
    (``SearchRun.hashes``, ``uint64[playouts, hash_moves]``, 0 where the playout was shorter).
    """
    points = root.color.shape[0]
    use_prior = prior is not None and prior_visits > 0
    if use_prior:
        prior = _checked_prior(prior, points)
    else:
        prior_visits = 0
    nodes_budget = n_playouts + 2 if max_nodes is None else max_nodes
    if use_prior and max_nodes is None:
        nodes_budget += points  # the root's children are created up front
    tree = make_tree(nodes_budget, max(2 * points, edges_per_node * min(nodes_budget, 65536)))
    tree_new_node(tree)
    rng = seed_state(seed)
    buffers = _buffers(root, nodes_budget, n_playouts, hash_moves)
    policy_data = np.zeros(0, np.float64) if policy_data is None else policy_data
    tabu = make_tabu(nodes_budget, tabu_mode, tabu_size, tabu_moves, tabu_kind,
                     tabu_policy_redraws)
    max_moves = 3 * int(root.info[0]) ** 2 if max_moves is None else max_moves
    if root_moves is not None:
        _fixed_root(tree, root_moves, points, use_prior)
    if use_prior and root.info[I_PASSES] < 2:
        _prior_root(tree, root, rng, buffers.moves_buf, prior, prior_visits, max_nodes)
    settings = UctSettings(c, expansion_threshold, policy, komi, max_moves, prior_visits)
    done = 0
    while done < n_playouts:
        done += uct_run(tree, root, rng, n_playouts - done, settings, policy_data, tabu,
                        buffers, done)
        if done < n_playouts:
            if tree.sizes[0] + 1 > tree.node_visits.shape[0]:
                break  # node budget (max_nodes) reached
            tree = tree_grow(tree, tree.node_visits.shape[0], 2 * tree.edge_child.shape[0])
    root_visits = int(tree.node_visits[0])
    root_win_rate = float(tree.node_value_sum[0]) / root_visits if root_visits else 0.5
    return SearchRun(done, _root_children(tree, prior, prior_visits), root_win_rate,
                     int(tree.sizes[0]), tree, int(tabu.stats[0]), buffers.hash_log[:done])
