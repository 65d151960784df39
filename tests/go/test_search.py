"""Light playouts and UCT: invariants, determinism, the viewpoint of values, known answers."""

from collections import Counter

import numpy as np
import pytest

from mctslab.go import _board as kb
from mctslab.go import _playout as kp
from mctslab.go import uct as ks
from mctslab.go.api import BLACK, WHITE, Board, search
from mctslab.rng import seed_state
from tests.go.test_strong_hashes import ONE_MOVE_TREE, replay_rows


def finished_playout(size, seed, hash_slots=0):
    st = kb.new_state(size)
    hashes = np.zeros(hash_slots, np.uint64)
    score, moves = kp.playout(st, seed_state(seed), kp.LIGHT, np.zeros(0), 6.5,
                              3 * size * size, hashes, kp.no_tabu(), 0)
    return st, score, moves, hashes


def test_playout_ends_with_only_own_eyes_left_and_scores_by_area():
    for seed in range(5):
        st, score, moves, _ = finished_playout(9, seed)
        assert st.info[kb.I_PASSES] == 2 and moves < 3 * 81
        empties = [p for p in range(st.color.shape[0]) if st.color[p] == kb.EMPTY]
        assert empties, "a playout never fills its last eyes"
        for p in empties:
            # every empty point left is an eye of the side that owns all its neighbours
            owners = {st.color[q] for q in (p - 1, p + 1, p - 11, p + 11)} - {kb.BORDER}
            assert len(owners) == 1
            for color in (kb.BLACK, kb.WHITE):  # no legal move left that is not an own eye
                assert kb.is_eye_like(st, p, color) or kb.check_move(st, color, p) != kb.OK
        assert score == kb.area_score(st, 6.5) and kb.full_hash(st) == st.hash[0]
        assert score != 0 and abs(score) < 81


def test_playout_records_the_hash_after_each_move():
    st, _, moves, hashes = finished_playout(9, 3, hash_slots=400)
    assert moves < 400 and hashes[moves - 1] == st.hash[0] and hashes[moves] == 0
    assert len(set(hashes[:moves].tolist())) > moves - 10  # positions rarely repeat
    _, _, _, short = finished_playout(9, 3, hash_slots=5)
    assert (short == hashes[:5]).all()  # same seed, same playout; only 5 recorded


def test_search_hashes_are_the_boards_after_the_playout_moves():
    """``record_hashes``: row i, column k is the position after playout move k + 1 of playout
    i (counted from the leaf), all 64 bits of :attr:`Board.hash` (none lost to a
    float64 rounding); replayed as the strong engine's are."""
    board = Board.from_moves(7, [(BLACK, (3, 3)), (WHITE, (2, 4))])
    result = search(board, 30, seed=3, expansion_threshold=ONE_MOVE_TREE, record_hashes=4)
    visits = Counter(replay_rows(board, result.hashes))
    assert visits == {move: n for move, n, _ in result.children}


def test_same_seed_same_search_and_different_seed_differs():
    board = Board.from_moves(9, [(BLACK, (4, 4)), (WHITE, (2, 6))])
    a = search(board, 400, seed=11)
    b = search(board, 400, seed=11)
    c = search(board, 400, seed=12)
    assert (a.move, a.children, a.root_win_rate) == (b.move, b.children, b.root_win_rate)
    assert a.children != c.children
    assert a.color == BLACK == board.to_move


def test_visit_counts_add_up():
    board = Board(7)
    for threshold in (1, 3):
        run = ks.run_search(board.state, 600, expansion_threshold=threshold, seed=5)
        tree = run.tree
        n_nodes = int(tree.sizes[0])
        # one node per iteration, except iterations ending at a node after two passes
        assert run.playouts == 600 == tree.node_visits[0] and 400 < n_nodes <= 601
        expanded = 0
        for node in range(n_nodes):
            first, count = tree.node_first_edge[node], tree.node_num_edges[node]
            if first < 0:
                continue
            expanded += 1
            children = tree.edge_child[first:first + count]
            child_visits = sum(int(tree.node_visits[ch]) for ch in children if ch >= 0)
            leaf_playouts = 0 if node == 0 else threshold
            assert tree.node_visits[node] == leaf_playouts + child_visits
        assert expanded > 10
        assert sum(v for _, v, _ in run.children) == 600


def test_values_are_seen_from_the_player_to_move():
    # with komi -100 Black wins every 7x7 playout, with +100 White does (|area| <= 49)
    for komi, black_wins in ((-100.0, True), (100.0, False)):
        for board in (Board(7), Board.from_moves(7, [(BLACK, (3, 3))])):
            result = search(board, 200, komi=komi, seed=1)
            expected = 1.0 if black_wins == (board.to_move == BLACK) else 0.0
            assert result.root_win_rate == expected == result.win_rate
            assert all(rate == expected for _, _, rate in result.children)


def test_finds_the_capture_that_decides_the_game():
    # 7x7: a White string of six stones (row 4) has its last liberty at G5; Black to move.
    board = Board(7, komi=10.5)  # without the capture Black is well behind
    for col in range(6):
        board.play(WHITE, (4, col))
    for col in range(6):
        board.play(BLACK, (5, col))
        board.play(BLACK, (3, col))
    board.play(WHITE, (1, 1))
    board.play(WHITE, (6, 6))  # White's stone above keeps G5 open only for the capture
    assert board.to_move == BLACK and board.is_legal(BLACK, (4, 6))
    for root_select in ("winrate", "visits"):
        result = search(board, 3000, seed=2, root_select=root_select)
        assert result.move == (4, 6), result.children[:5]


def test_tree_growth_does_not_change_the_search():
    board = Board.from_moves(9, [(BLACK, (2, 2))])
    small = ks.run_search(board.state, 500, seed=3, edges_per_node=1)
    large = ks.run_search(board.state, 500, seed=3, edges_per_node=100)
    assert small.tree.edge_child.shape[0] < large.tree.edge_child.shape[0]
    assert small.children == large.children and small.nodes == large.nodes


def test_tabu_of_size_zero_changes_nothing_and_node_budget():
    board = Board(9)
    plain = ks.run_search(board.state, 200, seed=4)
    hooked = ks.run_search(board.state, 200, seed=4, tabu_mode=1, tabu_size=0)
    assert plain.children == hooked.children and hooked.tabu_candidates == 0
    capped = ks.run_search(board.state, 200, seed=4, max_nodes=50)
    assert capped.nodes == 50 and capped.playouts < 200


def test_search_validates_its_parameters():
    board = Board(9)
    with pytest.raises(ValueError, match="policy"):
        search(board, 10, policy="heavy")
    with pytest.raises(ValueError, match="root_select"):
        search(board, 10, root_select="best")
    with pytest.raises(ValueError, match="playouts"):
        search(board, 0)
    with pytest.raises(ValueError, match="expansion_threshold"):
        search(board, 10, expansion_threshold=-1)


def test_search_on_19x19_and_after_two_passes():
    board = Board(19)
    result = search(board, 200, seed=0)
    assert result.move is None or board.is_legal(BLACK, result.move)
    assert result.playouts == 200 and len(result.children) > 100
    board.play(BLACK, None)
    board.play(WHITE, None)
    over = search(board, 20, seed=0)  # the game is over: nothing to expand, pass
    assert over.move is None and over.children == []


def test_shared_tree_select_max_takes_the_best_ucb1_child_of_real_go_trees():
    # core.tree.tree_select_max hoists c sqrt(2 ln n) out of the child loop; on every expanded
    # node of a real search its choice must score the maximum of ucb.ucb_max over the children
    from mctslab.core.tree import tree_select_max
    from mctslab.core.ucb import ucb_max

    tree = ks.run_search(Board(9).state, 3000, seed=6).tree
    checked = 0
    for node in range(int(tree.sizes[0])):
        if tree.node_first_edge[node] < 0 or tree.node_visits[node] < 2:
            continue
        first = int(tree.node_first_edge[node])
        edges = range(first, first + int(tree.node_num_edges[node]))

        def score(e, node=node):
            child = tree.edge_child[e]
            v = tree.node_visits[child] if child >= 0 else 0
            if v == 0:
                return np.inf
            return ucb_max(tree.node_value_sum[child] / v, tree.node_visits[node], v, 1.5)

        chosen = tree_select_max(tree, node, 1.5)
        assert chosen in edges
        assert score(chosen) >= max(score(e) for e in edges) - 1e-9
        checked += 1
    assert checked > 50


def test_search_respects_superko_at_the_root():
    # the position of test_board's superko case: White's retake at B1 repeats a position
    from tests.go.test_board import ko_position

    board = ko_position()
    board.play(BLACK, None)  # out of turn: White still to move, the simple ko is over
    assert board.to_move == WHITE and board.is_legal(WHITE, (0, 1))
    board.superko = True
    assert not board.is_legal(WHITE, (0, 1))
    result = search(board, 2000, seed=1)
    assert all(move != (0, 1) for move, _, _ in result.children) and result.move != (0, 1)
    board.superko = False
    assert any(move == (0, 1) for move, _, _ in search(board, 2000, seed=1).children)


def test_the_search_kernels_module_holds_kernels_only():
    # the Python API (arguments checked, arrays made, the tree grown) is mctslab.go.uct's;
    # _search.py holds the numba kernels and the named bundles they take, nothing that raises
    import ast
    from pathlib import Path

    from mctslab.go import _search

    tree = ast.parse(Path(_search.__file__).read_text())
    plain = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)
             and not any("njit" in ast.unparse(d) for d in n.decorator_list)]
    assert plain == []
    assert not [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Raise)]
    assert not hasattr(_search, "run_search") and not hasattr(_search, "make_tabu")
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    assert classes and all([ast.unparse(b) for b in c.bases] == ["NamedTuple"] for c in classes)
