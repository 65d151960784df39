"""The strong engine's tree reuse between moves (``reuse_tree``): the re-rooted subtree keeps
its statistics (against the old tree's node, and against a plain-Python walk of random small
trees), the budget counts the reused visits, anything but the expected position starts a fresh
tree (the hash check, undo, clear_board, other settings), the option off plays the same
search, and the option's settings, command line and match parameters."""

import io

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mctslab import cli
from mctslab.core.tree import make_tree
from mctslab.go import _strong, strong, strong_reuse
from mctslab.go.api import BLACK, WHITE, Board
from mctslab.go.engine import engine_settings
from mctslab.go.gtp import GtpServer

pytestmark = pytest.mark.extended  # the strong engine's kernels (as tests/go/test_strong.py)

POSITION = [(BLACK, (4, 4)), (WHITE, (2, 6)), (BLACK, (6, 2)), (WHITE, (2, 3))]


def _kids(tree, node):
    first = int(tree.node_first_edge[node])
    if first < 0:
        return []
    return [(int(tree.edge_move[e]), int(tree.edge_child[e]))
            for e in range(first, first + int(tree.node_num_edges[node]))]


def _busiest(tree, node):
    """(move, child) of ``node``'s child with the most visits."""
    return max(_kids(tree, node), key=lambda mc: int(tree.node_visits[mc[1]]))


def _node_stats(tree, stats, node):
    return (int(tree.node_visits[node]), float(tree.node_value_sum[node]),
            float(stats.amaf_visits[node]), float(stats.amaf_wins[node]),
            float(stats.prior_visits[node]), float(stats.prior_wins[node]))


def _walk(tree, stats, node, root_value=None):
    """Plain Python: every node under ``node`` by its path of moves -> its statistics (the
    root's value sum replaced by ``root_value``), and the edge count."""
    out, edges, todo = {}, 0, [((), node)]
    while todo:
        path, n = todo.pop()
        out[path] = _node_stats(tree, stats, n)
        kids = _kids(tree, n)
        edges += len(kids)
        todo.extend((path + (m,), c) for m, c in kids if c >= 0)
    if root_value is not None:
        out[()] = (out[()][0], root_value, *out[()][2:])
    return out, edges


def _reroot(tree, stats, node):
    nodes = tree.node_visits.shape[0]
    out, out_stats = make_tree(nodes, tree.edge_child.shape[0]), strong_reuse.new_stats(nodes)
    count = _strong.reroot(tree, stats, node, out, out_stats, np.zeros(nodes, np.int64))
    return out, out_stats, count


def _searched(board, playouts=600, seed=3, **pieces):
    result = strong.search(board, playouts, seed=seed, reuse_tree=True, **pieces)
    return result, strong_reuse._KEPT[board]


def _play_busiest_pair(board, kept):
    """Play the kept tree's most visited move and its most visited reply; the node under them."""
    move, child = _busiest(kept.tree, 0)
    reply, grandchild = _busiest(kept.tree, child)
    board.play(board.to_move, board.move_of(move))
    board.play(board.to_move, board.move_of(reply))
    return grandchild


def test_the_new_root_keeps_the_old_nodes_statistics():
    board = Board.from_moves(9, POSITION)
    _, kept = _searched(board)
    old_tree, old_stats = kept.tree, kept.stats
    node = _play_busiest_pair(board, kept)
    assert old_tree.node_visits[node] > 20 and old_tree.node_first_edge[node] >= 0
    tree, stats = strong_reuse.start_tree(board, kept.key, True)
    visits, value, *rest = _node_stats(old_tree, old_stats, node)
    assert _node_stats(tree, stats, 0) == (visits, visits - value, *rest)
    old_kids, new_kids = _kids(old_tree, node), _kids(tree, 0)
    assert [m for m, _ in new_kids] == [m for m, _ in old_kids]  # the same children, in order
    for (_, old), (_, new) in zip(old_kids, new_kids):
        assert _node_stats(tree, stats, new) == _node_stats(old_tree, old_stats, old)
    expected, edges = _walk(old_tree, old_stats, node, root_value=visits - value)
    assert _walk(tree, stats, 0) == (expected, edges)
    assert (int(tree.sizes[0]), int(tree.sizes[1])) == (len(expected), edges)
    assert not stats.tabu_slot[: len(expected)].any()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=st.sampled_from([5, 7]), seed=st.integers(0, 2**31 - 1),
       expand=st.integers(1, 3), pick=st.floats(0.0, 1.0))
def test_reroot_matches_a_plain_python_walk_of_random_trees(size, seed, expand, pick):
    """The kernel's compacted subtree of a random node of a small random tree holds exactly the
    nodes, moves and statistics a plain-Python walk of the old tree finds under that node, and
    is numbered breadth first (each node's children after it)."""
    board = Board(size)
    _, kept = _searched(board, playouts=60 + seed % 140, seed=seed, expand_visits=expand)
    tree, stats = kept.tree, kept.stats
    node = min(int(pick * int(tree.sizes[0])), int(tree.sizes[0]) - 1)
    visits, value = int(tree.node_visits[node]), float(tree.node_value_sum[node])
    out, out_stats, count = _reroot(tree, stats, node)
    expected, edges = _walk(tree, stats, node, root_value=visits - value)
    assert count == len(expected) == int(out.sizes[0]) and int(out.sizes[1]) == edges
    assert _walk(out, out_stats, 0) == (expected, edges)
    for n in range(count):
        assert all(c > n for _, c in _kids(out, n))


def test_the_budget_counts_the_reused_visits():
    """The second search adds only what the root lacks: its root ends at the budget, as
    Pachi's ``-t =N`` counts; the log gives the carried and added playouts."""
    board = Board.from_moves(9, POSITION)
    first, kept = _searched(board, playouts=800)
    node = _play_busiest_pair(board, kept)
    carried = int(kept.tree.node_visits[node])
    second = strong.search(board, 800, seed=4, reuse_tree=True)
    assert carried > 20 and second.playouts == 800 - carried
    assert strong_reuse.reuse_log(board) == [(0, 800), (carried, 800 - carried)]
    root = strong_reuse._KEPT[board].tree.node_visits[0]
    assert root == 800 and sum(v for _, v, _ in second.children) <= 800


def test_the_option_off_and_a_first_search_play_the_same_search():
    board = Board.from_moves(9, POSITION)
    off = strong.search(board, 500, seed=7)
    on = strong.search(board, 500, seed=7, reuse_tree=True)
    assert (on.move, on.nodes, on.root_win_rate, on.children) == \
        (off.move, off.nodes, off.root_win_rate, off.children)
    assert strong_reuse.reuse_log(board) == [(0, 500)]
    again = Board.from_moves(9, POSITION)
    strong.search(again, 500, seed=7)
    assert again not in strong_reuse._KEPT  # without the option nothing is kept


def test_anything_but_the_expected_position_starts_a_fresh_tree():
    board = Board.from_moves(9, POSITION)
    _, kept = _searched(board)
    _play_busiest_pair(board, kept)
    key = kept.key
    assert strong_reuse._kept_node(kept, board) > 0
    kept.state.hash[0] ^= np.uint64(1)  # the kept position no longer hashes as the board's
    assert strong_reuse._kept_node(kept, board) == -1
    kept.state.hash[0] ^= np.uint64(1)
    board.undo()  # one move back: not two moves after the kept position
    assert strong_reuse._kept_node(kept, board) == -1
    tree, _ = strong_reuse.start_tree(board, key, True)
    assert int(tree.sizes[0]) == 1 and tree.node_visits[0] == 0
    # the same two moves by another path: not this board's history, not this tree's moves
    other = Board.from_moves(9, POSITION)
    assert strong_reuse.start_tree(other, key, True)[0].sizes[0] == 1
    # other settings (komi) than the kept tree's
    board2 = Board.from_moves(9, POSITION)
    _, kept2 = _searched(board2)
    _play_busiest_pair(board2, kept2)
    strong.search(board2, 300, seed=1, komi=0.5, reuse_tree=True)
    assert strong_reuse.reuse_log(board2)[-1] == (0, 300)


def test_a_reply_the_tree_never_expanded_starts_a_fresh_tree():
    board = Board.from_moves(9, POSITION)
    _, kept = _searched(board, playouts=200)
    move = next(m for m, c in _kids(kept.tree, 0) if not _kids(kept.tree, c))  # a leaf
    board.play(board.to_move, board.move_of(move))
    board.play(board.to_move, board.legal_moves(board.to_move)[0])
    strong.search(board, 200, seed=1, reuse_tree=True)
    assert strong_reuse.reuse_log(board)[-1] == (0, 200)


def _server(**values):
    settings_ = engine_settings("strong", playouts=400, size=9, komi=6.5, seed=5, **values)
    return GtpServer(settings_, stdin=io.BytesIO(), stdout=io.BytesIO(), stderr=io.StringIO())


def test_gtp_reuses_the_tree_and_undo_and_clear_board_reset_it():
    server = _server(reuse_tree=True)
    assert server.handle("genmove b").startswith("=")
    kept = strong_reuse._KEPT[server.board]
    move, child = _busiest(kept.tree, 0)
    reply, _ = _busiest(kept.tree, child)
    assert server.board.moves[-1] == (BLACK, server.board.move_of(move))
    assert server.handle(f"play w {_vertex(server, reply)}").startswith("=")
    server.handle("genmove b")
    log = strong_reuse.reuse_log(server.board)
    assert log[0] == (0, 400) and log[1][0] > 0 and sum(log[1]) == 400
    server.handle("undo")
    server.handle("genmove b")  # the position of the last search: not two moves on
    assert strong_reuse.reuse_log(server.board)[-1] == (0, 400)
    server.handle("clear_board")
    assert strong_reuse.reuse_log(server.board) == []
    server.handle("genmove b")
    assert strong_reuse.reuse_log(server.board) == [(0, 400)]
    plain = _server()
    plain.handle("genmove b")
    assert plain.board not in strong_reuse._KEPT


def _vertex(server, point):
    return server.api.vertex(server.board.move_of(point), server.size)


def test_the_command_line_option():
    """(Its settings and match parameters: tests/go/test_lgrf.py, every on/off option.)"""
    from mctslab.go import cli_engine

    parser = cli.build_parser()
    for words, expected in (([], False), (["--reuse-tree"], True)):
        args = parser.parse_args(["go", "search", "B E5", "--engine", "strong", "--playouts",
                                  "10", "--size", "9", *words])
        assert cli_engine.engine(args).reuse_tree is expected
