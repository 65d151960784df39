"""UCT for Go on the shared tree arrays (``mctslab.core.tree``), in numba.

::

    loop n_playouts times:
        copy the root position into the scratch board (no allocation)
        descend: at an expanded node take the edge maximising X_u + C sqrt(2 ln n / n_u)
                 (``core.tree.tree_select_max``, the log hoisted out of the child loop; an edge whose
                 child is not created yet is taken first),
                 play its move on the scratch board; stop at a new child or an unexpanded leaf
        expand a leaf once it has been visited ``expansion_threshold`` times (the root always):
                 edges = the legal moves not filling the mover's own eye, plus pass, shuffled
                 (so untried children are tried in random order); then descend one more step
        playout from the scratch board (``_playout.playout``), result = Black wins (1),
                 loses (0) or ties (0.5) on area score minus komi
        backup: every node on the path gets one visit and the result seen from the player who
                 moved into it (the root: the player to move there)

Optional prior knowledge (Gelly & Silver 2007), root only: :func:`expand_root_with_prior`
creates every root child up front with ``prior_visits`` virtual playouts at a per-point win
rate computed once in Python (a pattern match per tree node would cost far more than the
playouts); the virtual visits steer selection and are taken out of what is reported.

Edges carry kernel points (``PASS = 0``). ``X_u`` is a win rate in [0, 1] (win = 1, loss = 0)
for the player to move at the parent. Nodes are created one per iteration; :func:`uct_run`
returns early when the node or edge budget cannot take one more iteration, so the Python side
(:func:`mctslab.go.uct.run_search`) grows the tree (``tree_grow``) and calls again; the result
is the same as with a large tree from the start. Simple ko only; the tree does not detect
superko cycles. This module holds the kernels and the named bundles they take only.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mctslab.core.jit import njit
from mctslab.core.tree import tree_expand, tree_new_node, tree_select_max
from mctslab.go._board import (
    BLACK,
    I_KO,
    I_KO_COLOR,
    I_NUM_EMPTY,
    I_PASSES,
    I_TO_MOVE,
    I_WIDTH,
    PASS,
    BoardState,
    _playable,
    copy_state,
    play_unchecked,
)
from mctslab.go._playout import playout
from mctslab.go._tabu import BATCH_ON_LOSS, tabu_flush
from mctslab.rng import rng_below


class UctSettings(NamedTuple):
    """A search's parameters (:func:`mctslab.go.uct.run_search` documents them), fixed for the
    search."""

    c: float                  # the UCB exploration constant C
    expansion_threshold: int  # visits before a leaf is expanded (the root always is)
    policy: int               # playout policy code (``_playout.LIGHT``, ``PATTERN``)
    komi: float
    max_moves: int            # a playout stops after this many moves
    prior_visits: int         # the root children's virtual visits (0: no prior)


class SearchBuffers(NamedTuple):
    """The arrays one search works in besides its tree (reused by every iteration)."""

    scratch: BoardState       # the root position copied, then played on by descent and playout
    path: np.ndarray          # int64[nodes + 1]: the nodes of the current descent
    moves_buf: np.ndarray     # int32[P + 1]: a new node's moves
    hash_out: np.ndarray      # uint64[hash_moves]: the hashes after a playout's first moves
    hash_log: np.ndarray      # uint64[playouts or 0, hash_moves]: hash_out of every playout


@njit(cache=True, _nrt=False)
def tree_moves(st, out, rng):
    """Write the moves of a new node (legal, not own-eye filling, plus PASS) into ``out`` in
    random order; returns how many."""
    info = st.info
    color = info[I_TO_MOVE]
    ko = info[I_KO] if info[I_KO_COLOR] == color else -1
    col, group, libs, lib_sum, lib_sumsq, w = st.color, st.group, st.libs, st.lib_sum, \
        st.lib_sumsq, info[I_WIDTH]
    n = 0
    for i in range(info[I_NUM_EMPTY]):
        p = st.empty[i]
        if p != ko and _playable(col, group, libs, lib_sum, lib_sumsq, w, color, p):
            out[n] = p
            n += 1
    out[n] = PASS
    n += 1
    for i in range(n - 1, 0, -1):  # Fisher-Yates
        j = rng_below(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return n


@njit(cache=True, _nrt=False)
def descend(tree, scratch, rng, c, expansion_threshold, path, moves_buf, prior_visits):
    """Selection and expansion from the root (node 0) on ``scratch``; returns the path length.

    ``prior_visits``: the virtual visits the root's children were created with
    (:func:`expand_root_with_prior`; 0 without a prior); they do not count towards a root
    child's ``expansion_threshold``, so the tree's shape follows the real playouts."""
    node = 0
    path[0] = 0
    length = 1
    while scratch.info[I_PASSES] < 2:
        if tree.node_first_edge[node] < 0:
            virtual = prior_visits if length == 2 else 0
            if node != 0 and tree.node_visits[node] - virtual < expansion_threshold:
                break
            count = tree_moves(scratch, moves_buf, rng)
            tree_expand(tree, node, moves_buf, count)
        e = tree_select_max(tree, node, c)
        play_unchecked(scratch, scratch.info[I_TO_MOVE], tree.edge_move[e])
        child = tree.edge_child[e]
        created = child < 0
        if created:
            child = tree_new_node(tree)
            tree.edge_child[e] = child
        path[length] = child
        length += 1
        node = child
        if created:
            break
    return length


@njit(cache=True, _nrt=False)
def expand_root_with_prior(tree, root, rng, moves_buf, prior, prior_visits):
    """Expand the root (node 0) and create all its children at once, child ``j`` (move ``m``)
    with ``prior_visits`` virtual visits won at rate ``prior[m]`` (Gelly & Silver 2007, "prior
    knowledge": ``n_prior`` virtual playouts of value ``Q_prior``); returns the edge count, or
    -1 when the node or edge budget cannot take them.

    ``prior``: float64 over kernel points, a win rate in [0, 1] for the player to move at the
    root (``prior[PASS]``, ``PASS = 0`` being a border point, is the pass's). The moves and
    their random order are those :func:`descend` would give the root (same RNG draws).
    """
    count = tree_moves(root, moves_buf, rng)
    if tree.sizes[0] + count > tree.node_visits.shape[0] or \
            tree_expand(tree, 0, moves_buf, count) < 0:
        return -1
    first = tree.node_first_edge[0]
    for e in range(first, first + count):
        child = tree_new_node(tree)
        tree.edge_child[e] = child
        tree.node_visits[child] = prior_visits
        tree.node_value_sum[child] = prior_visits * prior[tree.edge_move[e]]
    return count


@njit(cache=True, _nrt=False)
def backup(tree, path, length, root_color, black_result):
    """One visit for each node on the path, valued for the player who moved into it."""
    for i in range(length):
        node = path[i]
        # depth 0: the root, valued for its player to move; odd depths: moved into by root_color
        mover_is_root = i == 0 or i % 2 == 1
        black = (root_color == BLACK) == mover_is_root
        tree.node_visits[node] += 1
        tree.node_value_sum[node] += black_result if black else 1.0 - black_result


@njit(cache=True, _nrt=False)
def uct_run(tree, root, rng, n_playouts, settings, policy_data, tabu, buffers, first):
    """Up to ``n_playouts`` UCT iterations from ``root`` on ``tree`` (node 0 = root, created by
    the caller) with :class:`UctSettings` ``settings``, working in :class:`SearchBuffers`
    ``buffers``; returns the number done (fewer when the tree budget runs out).

    ``tabu``: the leaves' tabu queues (:class:`_playout.Tabu`, indexed by node); with the
    batch-on-loss update the buffer is flushed into the leaf's queues when the player who made
    playout move 1 lost. ``hash_log[first + i, :]`` receives playout ``i``'s ``hash_out`` (the
    positions after its first moves) when ``hash_log`` has rows.
    """
    c, expansion_threshold, policy, komi, max_moves, prior_visits = settings
    scratch, path, moves_buf, hash_out, hash_log = buffers
    points = root.color.shape[0]
    root_color = root.info[I_TO_MOVE]
    done = 0
    while done < n_playouts:
        if tree.sizes[0] + 1 > tree.node_visits.shape[0] or \
                tree.sizes[1] + points > tree.edge_child.shape[0]:
            break
        copy_state(root, scratch)
        length = descend(tree, scratch, rng, c, expansion_threshold, path, moves_buf,
                         prior_visits)
        leaf = path[length - 1]
        leaf_color = scratch.info[I_TO_MOVE]  # makes playout move 1
        score, played = playout(scratch, rng, policy, policy_data, komi, max_moves, hash_out,
                                tabu, leaf)
        result = 1.0 if score > 0 else (0.0 if score < 0 else 0.5)
        if tabu.config[0] == BATCH_ON_LOSS:
            lost = result < 0.5 if leaf_color == BLACK else result > 0.5
            tabu_flush(tabu.queues, tabu.heads, leaf, tabu.buf, min(played, tabu.config[2]),
                       tabu.config[1], lost)
        if hash_log.shape[0] > 0:
            row = first + done
            for m in range(hash_log.shape[1]):
                # two statements, not ``hash_out[m] if m < played else 0``: numba types that
                # expression (uint64 and int) as float64, which rounded every hash to 53 bits
                hash_log[row, m] = 0
                if m < played:
                    hash_log[row, m] = hash_out[m]
        backup(tree, path, length, root_color, result)
        done += 1
    return done
