"""Tree reuse between moves for the strong engine (:func:`mctslab.go.strong.search`'s
``reuse_tree``).

Tree reuse (``reuse_tree=True``; off by default, and the search is then the same as
without it). The search's tree is kept with the :class:`~mctslab.go.api.Board` it searched
(weakly: it goes with the board). At the next search of that board, when the board's last two
moves lead from the kept position to the board's (the move played from the kept root, then the
reply; checked by replaying them on the kept position and comparing the Zobrist hash, the
stones, the ko point and the side to move), the node under those two moves becomes the new
root with all its statistics (real visits and wins, AMAF, priors; :func:`_strong.reroot`
copies the subtree into new arrays). Anything else starts a fresh tree: another position (a
GTP ``undo``, ``play`` of moves the tree never expanded, setup stones), other search settings
or komi, a new board (GTP ``clear_board``, ``boardsize`` and ``loadsgf`` make one).

The budget counts the reused visits, as Pachi's does: ``playouts`` is the number of visits the
root reaches, so a root that carries ``r`` visits over gets ``playouts - r`` new playouts (at
least one). Pachi stops a search with a fixed number of playouts when its root's playout count,
reused ones included, passes the limit (``uct_search_games`` and ``uct_search_check_stop``,
``uct/search.c``), and keeps its tree between moves unless told not to (``reset_tree``), so
this is the comparison "at equal playouts" with ``pachi -t =N``. ``SearchResult.playouts`` are
the new playouts (the work done); the root's children count every visit. :func:`reuse_log`
gives, per search of a board, the visits carried over and the playouts added.
"""

from __future__ import annotations

import dataclasses
import weakref

import numpy as np

from mctslab.core.tree import make_tree, tree_new_node
from mctslab.go import _board as kb
from mctslab.go import _strong
from mctslab.go.api import Board

__all__ = ["new_stats", "start_tree", "keep", "reuse_log"]


def new_stats(nodes: int) -> _strong.Stats:
    """Zeroed RAVE and prior statistics for ``nodes`` nodes."""
    return _strong.Stats(*(np.zeros(nodes, np.float64) for _ in range(4)),
                         np.zeros(nodes, np.int64))


@dataclasses.dataclass
class _Kept:
    """The tree of a board's last search with ``reuse_tree``: its settings' ``key``, the
    position searched (``state``, a copy) and, per search, (visits carried over, playouts
    added) in ``log``."""

    key: tuple
    tree: object = None
    stats: object = None
    state: object = None
    log: list = dataclasses.field(default_factory=list)


_KEPT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # Board -> _Kept


def reuse_log(board: Board) -> list[tuple[int, int]]:
    """Per search of ``board`` with ``reuse_tree``: (visits its root carried over from the
    previous search, new playouts); empty when it was never searched so."""
    kept = _KEPT.get(board)
    return [] if kept is None else list(kept.log)


def _child(tree, node: int, point: int) -> int:
    """The child of ``node`` by the move ``point``; -1 when ``node`` has none (unexpanded)."""
    first = int(tree.node_first_edge[node])
    if first < 0:
        return -1
    moves = tree.edge_move[first:first + int(tree.node_num_edges[node])]
    hits = np.flatnonzero(moves == point)
    return int(tree.edge_child[first + hits[0]]) if hits.size else -1


def _kept_node(kept: _Kept, board: Board) -> int:
    """The node of the kept tree at ``board``'s position: the kept root's child by the
    board's last-but-one move, then that node's child by the last move, when those two moves
    lead from the kept position to the board's (replayed; the hash, stones and the other
    scalars, ko and side to move among them, must be equal); else -1."""
    if kept.tree is None or len(board.moves) < 2 or kept.state.color.shape != \
            board.state.color.shape or board.move_number != int(kept.state.info[kb.I_MOVES]) + 2:
        return -1
    replay, node = kb.clone_state(kept.state), 0
    for color, move in board.moves[-2:]:
        point = board.point(move)
        if int(replay.info[kb.I_TO_MOVE]) != color or kb.play(replay, color, point) != kb.OK:
            return -1
        node = _child(kept.tree, node, point)
        if node < 0:
            return -1
    state = board.state
    same = (replay.hash[0] == state.hash[0] and np.array_equal(replay.color, state.color)
            and np.array_equal(replay.info, state.info))
    return node if same else -1


def start_tree(board: Board, key: tuple, reuse_tree: bool):
    """The tree a search starts from: the kept subtree at ``board``'s position (re-rooted) when
    ``reuse_tree`` and one fits (:func:`_kept_node`), else a fresh one (its root created)."""
    kept = _KEPT.get(board) if reuse_tree else None
    node = -1 if kept is None or kept.key != key else _kept_node(kept, board)
    if node < 0:
        nodes = 64 * (board.state.color.shape[0] + 1)
        tree, stats = make_tree(nodes, nodes), new_stats(nodes)
        tree_new_node(tree)
        return tree, stats
    nodes, edges = kept.tree.node_visits.shape[0], kept.tree.edge_child.shape[0]
    tree, stats = make_tree(nodes, edges), new_stats(nodes)
    _strong.reroot(kept.tree, kept.stats, node, tree, stats, np.zeros(nodes, np.int64))
    return tree, stats


def keep(board: Board, key: tuple, tree, stats, carried: int, done: int) -> None:
    kept = _KEPT.get(board)
    if kept is None:
        kept = _KEPT[board] = _Kept(key)
    kept.key, kept.tree, kept.stats = key, tree, stats
    kept.state = kb.clone_state(board.state)
    kept.log.append((carried, done))
