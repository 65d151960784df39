"""The strong engine's search: MCTS with RAVE, priors at expansion and heavy
playouts, on the shared tree arrays (``mctslab.core.tree``), in numba.

::

    loop n_playouts times:
        copy the root position into the scratch board
        descend from the root: at an expanded node take the child of highest urgency
            (:func:`select_child`), play its move, append it to the simulation's move list;
            stop at a node that is not expanded; a node is expanded when it is reached with
            ``expand_visits`` real visits or more (the root at once): every legal move that does
            not fill an own one-point eye, plus pass, becomes a child node at once, with its
            prior (``_prior.move_prior``) as virtual visits and wins
        playout from there (``_heavy.playout_recorded``), appending its moves
        backup: every node on the path gets one visit and the result for the player who moved
            into it; with RAVE, every child of a node on the path whose move was first played
            (in the rest of the simulation) by the player to move at that node gets one AMAF
            visit and that player's result (all moves as first)

With a state-tabu configuration (``mctslab.go.tabu``) the leaf that runs the playout owns the
paper's queues, as in the UCT engine (:func:`strong_run`). With ``Buffers.hash_log`` rows, the
hashes of the positions after each playout's first moves are kept (the paper's Fig. 5; playout
moves only, counted from the leaf, as the UCT engine's ``hash_moves``).

Urgency of a child (Gelly & Silver 2007; michi; Pachi's ``ucb1amaf``): with ``n``/``w`` its
real plus virtual visits and wins, ``na``/``wa`` its AMAF visits and wins, ``N`` the parent's
visits,

    value   = (1 - beta) w / n + beta wa / na              (w / n alone when na = 0)
    beta    = na / (na + n + n na / k)                     Silver's schedule (``RAVE_SILVER``)
            = sqrt(k / (3 N + k))                          Gelly & Silver's (``RAVE_GELLY``)
    urgency = value + c sqrt(ln N / n_real)                (the UCB term only when c > 0)

``k`` is ``rave_equiv``; a child with no visits at all (no prior) has urgency ``+inf``; ties
go to the first child (children are created in random order). Statistics are kept per node:
``node_visits``/``node_value_sum`` of the tree (real playouts only) and :class:`Stats`.
:func:`strong_run` returns early when the node or edge budget cannot take one more iteration;
the Python side (:mod:`mctslab.go.strong`) grows the arrays and calls it again. :func:`reroot`
copies the subtree under a node into a new tree, that node its root (tree reuse between moves).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from mctslab.core.jit import njit
from mctslab.core.tree import tree_expand, tree_new_node
from mctslab.go._board import (
    BLACK,
    I_LAST,
    I_PASSES,
    I_TO_MOVE,
    I_WIDTH,
    PASS,
    copy_state,
    play_unchecked,
)
from mctslab.go._heavy import lgrf_update, playout_recorded
from mctslab.go._playout import TABU_NONE
from mctslab.go._prior import cfg_distances, move_prior
from mctslab.go._search import tree_moves
from mctslab.go._tabu import BATCH_ON_LOSS, tabu_flush

RAVE_NONE, RAVE_SILVER, RAVE_GELLY = 0, 1, 2  # rave schedules (strong.RAVE_SCHEDULES)
UNPLAYED = np.int64(1) << 40  # first[p] of a point the rest of the simulation never played


class Stats(NamedTuple):
    """Per-node statistics beside the tree's (same length as ``Tree.node_visits``)."""

    amaf_visits: np.ndarray  # float64[N] AMAF (RAVE) visits of the move into the node
    amaf_wins: np.ndarray    # float64[N] AMAF wins, for the player who moves into the node
    prior_visits: np.ndarray  # float64[N] virtual visits from the prior
    prior_wins: np.ndarray   # float64[N] virtual wins from the prior
    tabu_slot: np.ndarray    # int64[N] 1 + the node's tabu queue set (0: none yet)


class Params(NamedTuple):
    """The search's scalars (typed flags)."""

    rave: int             # RAVE_NONE, RAVE_SILVER or RAVE_GELLY
    rave_equiv: float     # k of the schedule
    c: float              # UCB exploration coefficient (0: none)
    expand_visits: int    # real visits before a node (other than the root) is expanded
    use_prior: bool       # give new children their prior
    komi: float
    max_moves: int        # playout length cap


class Buffers(NamedTuple):
    """Scratch of one search, allocated once."""

    path: np.ndarray      # int64[D] nodes from the root
    seq: np.ndarray       # int32[D + max_moves] the simulation's moves (tree, then playout)
    first: np.ndarray     # int64[P] first index in seq[i:] where each point was played
    moves: np.ndarray     # int32[P + 1] a new node's moves
    hash_out: np.ndarray  # uint64[R] the hashes after a playout's first R moves (R may be 0)
    hash_log: np.ndarray  # uint64[playouts or 0, R] hash_out of every playout (Fig. 5)


# inline="always" (numba IR inlining): a call that passes the Params bundle costs ~100 ns,
# once per child of every node on the path (measured: the 19x19 search ran 20% slower)
@njit(cache=True, _nrt=False, inline="always")
def rave_urgency(visits, wins, amaf_visits, amaf_wins, parent_beta, params, explore):
    """The urgency of one child (module docstring); ``parent_beta`` is Gelly & Silver's beta
    of the parent, ``explore`` is ``c sqrt(ln N)`` (0 without the UCB term)."""
    if visits <= 0.0:
        if amaf_visits <= 0.0 or params.rave == RAVE_NONE:
            return math.inf
        return amaf_wins / amaf_visits
    value = wins / visits
    if amaf_visits > 0.0 and params.rave != RAVE_NONE:
        if params.rave == RAVE_SILVER:
            beta = amaf_visits / (amaf_visits + visits + visits * amaf_visits /
                                  params.rave_equiv)
        else:
            beta = parent_beta
        value = (1.0 - beta) * value + beta * amaf_wins / amaf_visits
    return value + explore


@njit(cache=True, _nrt=False)
def select_child(tree, stats, node, params):
    """The edge of ``node`` (expanded) whose child has the highest urgency (first on ties)."""
    first = tree.node_first_edge[node]
    count = tree.node_num_edges[node]
    parent = np.float64(tree.node_visits[node])
    parent_beta = math.sqrt(params.rave_equiv / (3.0 * parent + params.rave_equiv))
    log_parent = math.log(parent + stats.prior_visits[node] + 1.0)
    best_edge = first
    best = -math.inf
    for e in range(first, first + count):
        child = tree.edge_child[e]
        real = tree.node_visits[child]
        explore = 0.0
        if params.c > 0.0 and real > 0:
            explore = params.c * math.sqrt(log_parent / real)
        score = rave_urgency(real + stats.prior_visits[child],
                             tree.node_value_sum[child] + stats.prior_wins[child],
                             stats.amaf_visits[child], stats.amaf_wins[child], parent_beta,
                             params, explore)
        if score > best:
            best = score
            best_edge = e
    return best_edge


@njit(cache=True, _nrt=False)
def expand(tree, stats, node, st, rng, params, weights, prior_data, moves):
    """Create every child of ``node`` (position ``st``) with its prior; returns the edge count,
    or -1 when the node or edge budget cannot take them."""
    count = tree_moves(st, moves, rng)
    if tree.sizes[0] + count > tree.node_visits.shape[0] or \
            tree_expand(tree, node, moves, count) < 0:
        return -1
    color = st.info[I_TO_MOVE]
    if params.use_prior:
        cfg_distances(st.color, st.group, st.next_stone, st.info[I_WIDTH], st.info[I_LAST],
                      prior_data.dist, prior_data.queue)
    first = tree.node_first_edge[node]
    for e in range(first, first + count):
        child = tree_new_node(tree)
        tree.edge_child[e] = child
        stats.amaf_visits[child] = 0.0
        stats.amaf_wins[child] = 0.0
        stats.prior_visits[child] = 0.0
        stats.prior_wins[child] = 0.0
        if params.use_prior:
            v, w = move_prior(st, color, tree.edge_move[e], weights, prior_data)
            stats.prior_visits[child] = v
            stats.prior_wins[child] = w
    return count


@njit(cache=True, _nrt=False)
def descend(tree, stats, scratch, rng, params, weights, prior_data, buffers):
    """Selection and expansion from the root; returns the path length (the moves played are
    ``buffers.seq[:length - 1]``), or -1 when an expansion did not fit the budget."""
    path, seq = buffers.path, buffers.seq
    node = 0
    path[0] = 0
    length = 1
    while scratch.info[I_PASSES] < 2:
        if tree.node_first_edge[node] < 0:
            if node != 0 and tree.node_visits[node] < params.expand_visits:
                break
            if expand(tree, stats, node, scratch, rng, params, weights, prior_data,
                      buffers.moves) < 0:
                return -1
        e = select_child(tree, stats, node, params)
        move = tree.edge_move[e]
        play_unchecked(scratch, scratch.info[I_TO_MOVE], move)
        seq[length - 1] = move
        node = tree.edge_child[e]
        path[length] = node
        length += 1
    return length


@njit(cache=True, _nrt=False)
def backup(tree, stats, path, length, seq, seq_end, first, root_color, black_result, rave):
    """One visit (and the AMAF updates, module docstring) for the simulation ``seq[:seq_end]``
    whose first ``length - 1`` moves are the tree's."""
    if rave != RAVE_NONE:
        for p in range(first.shape[0]):
            first[p] = UNPLAYED
        for k in range(seq_end - 1, length - 2, -1):
            first[seq[k]] = k
    for i in range(length - 1, -1, -1):
        node = path[i]
        # the player to move at depth i: the root's player at even depths
        mover_black = (root_color == BLACK) == (i % 2 == 0)
        mover_value = black_result if mover_black else 1.0 - black_result
        tree.node_visits[node] += 1
        # the node's value is for the player who moved into it (the root: its player to move)
        tree.node_value_sum[node] += mover_value if i == 0 else 1.0 - mover_value
        if rave == RAVE_NONE:
            continue
        if i < length - 1:
            first[seq[i]] = i
        start = tree.node_first_edge[node]
        if start < 0:
            continue
        for e in range(start, start + tree.node_num_edges[node]):
            p = tree.edge_move[e]
            f = first[p]
            if p != PASS and f != UNPLAYED and (f - i) % 2 == 0:
                child = tree.edge_child[e]
                stats.amaf_visits[child] += 1.0
                stats.amaf_wins[child] += mover_value


@njit(cache=True, _nrt=False)
def leaf_tabu_slot(stats, tabu, leaf):
    """The tabu queue set of ``leaf`` (given one at its first playout), or -1 without tabu
    lists (``tabu.stats[1]`` counts the sets given out)."""
    if tabu.config[0] == TABU_NONE or tabu.config[1] <= 0:
        return -1
    if stats.tabu_slot[leaf] == 0:
        if tabu.stats[1] >= tabu.queues.shape[0]:
            return -1  # no free set (the caller sizes them for one per playout)
        tabu.stats[1] += 1
        stats.tabu_slot[leaf] = tabu.stats[1]
    return stats.tabu_slot[leaf] - 1


@njit(cache=True, _nrt=False)
def strong_run(tree, stats, root, scratch, rng, n_playouts, params, weights, prior_data,  # noqa: PLR0913 - numba kernel: the search's bundles (tree, stats, params, tabu ...) are its arguments
               policy, buffers, tabu, first):
    """Up to ``n_playouts`` iterations from ``root`` (node 0 of ``tree``, created by the
    caller); returns the number done (fewer when the tree budget runs out). ``tabu``: the
    leaves' tabu lists (:class:`mctslab.go._playout.Tabu`, one queue set per leaf that runs a
    playout; the batch-on-loss update flushes the leaf's buffer when the player of playout
    move 1 lost). ``buffers.hash_log[first + i, k]`` receives the hash after move ``k + 1`` of
    playout ``i`` of this call (0 past its end) when ``hash_log`` has rows."""
    points = root.color.shape[0]
    root_color = root.info[I_TO_MOVE]
    done = 0
    while done < n_playouts:
        if tree.sizes[0] + points + 1 > tree.node_visits.shape[0] or \
                tree.sizes[1] + points + 1 > tree.edge_child.shape[0]:
            break
        copy_state(root, scratch)
        length = descend(tree, stats, scratch, rng, params, weights, prior_data, buffers)
        if length < 0:
            break
        slot = leaf_tabu_slot(stats, tabu, buffers.path[length - 1])
        leaf_color = scratch.info[I_TO_MOVE]  # makes playout move 1
        score, seq_end = playout_recorded(scratch, rng, policy, params.komi, params.max_moves,
                                          buffers.seq, length - 1, tabu, slot,
                                          buffers.hash_out)
        result = 1.0 if score > 0 else (0.0 if score < 0 else 0.5)
        if slot >= 0 and tabu.config[0] == BATCH_ON_LOSS:
            lost = result < 0.5 if leaf_color == BLACK else result > 0.5
            tabu_flush(tabu.queues, tabu.heads, slot, tabu.buf,
                       min(seq_end - length + 1, tabu.config[2]), tabu.config[1], lost)
        if buffers.hash_log.shape[0] > 0:
            played = seq_end - length + 1
            for k in range(buffers.hash_log.shape[1]):
                # two statements, not a conditional expression: numba types ``h if c else 0``
                # (uint64 and int) as float64, which rounds a hash to 53 bits
                buffers.hash_log[first + done, k] = 0
                if k < played:
                    buffers.hash_log[first + done, k] = buffers.hash_out[k]
        backup(tree, stats, buffers.path, length, buffers.seq, seq_end, buffers.first,
               root_color, result, params.rave)
        if policy.lgrf:
            lgrf_update(policy.replies, buffers.seq, seq_end, root_color, result)
        done += 1
    return done


@njit(cache=True, _nrt=False)
def reroot(tree, stats, root, out, out_stats, queue):
    """Copy the subtree under node ``root`` of ``tree`` into the empty tree ``out`` (same
    capacity or more), breadth first: ``root`` becomes node 0, each expanded node's edges stay
    one block in their order, children are numbered as they are reached. Every statistic is
    kept (visits, values, AMAF, priors) but the tabu queue sets (a search's own); the new
    root's value sum becomes its visits minus the old one (a root's value is for its player to
    move, any other node's for the player who moved into it: :func:`backup`). ``queue``:
    int64 scratch of the node capacity. Returns the number of nodes copied."""
    queue[0] = root
    tail = 1
    edges = 0
    head = 0
    while head < tail:
        old = queue[head]
        out.node_visits[head] = tree.node_visits[old]
        out.node_value_sum[head] = tree.node_value_sum[old]
        out.node_value_min[head] = tree.node_value_min[old]
        out_stats.amaf_visits[head] = stats.amaf_visits[old]
        out_stats.amaf_wins[head] = stats.amaf_wins[old]
        out_stats.prior_visits[head] = stats.prior_visits[old]
        out_stats.prior_wins[head] = stats.prior_wins[old]
        out_stats.tabu_slot[head] = 0
        first = tree.node_first_edge[old]
        out.node_first_edge[head] = -1
        out.node_num_edges[head] = 0
        if first >= 0:
            count = tree.node_num_edges[old]
            out.node_first_edge[head] = edges
            out.node_num_edges[head] = count
            for k in range(count):
                out.edge_move[edges + k] = tree.edge_move[first + k]
                child = tree.edge_child[first + k]
                out.edge_child[edges + k] = -1
                if child >= 0:
                    queue[tail] = child
                    out.edge_child[edges + k] = tail
                    tail += 1
            edges += count
        head += 1
    out.node_value_sum[0] = out.node_visits[0] - out.node_value_sum[0]
    out.sizes[0] = tail
    out.sizes[1] = edges
    return tail
