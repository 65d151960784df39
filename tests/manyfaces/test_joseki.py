"""The joseki DAG from GNU Go's SGF trees, its compressed encoding and lookup."""

from collections import Counter

import numpy as np
import pytest
from sgfmill import boards, sgf

from mctslab import data
from mctslab.manyfaces import joseki as J
from mctslab.manyfaces import patterns as P

# data/gnugo/README.md: nodes, moves, passes, pattern nodes (MA), leaves per file
README_TABLE = {"gogo": (131, 130, 0, 107, 16), "hoshi_keima": (929, 869, 22, 733, 157),
                "hoshi_other": (319, 312, 3, 242, 56), "komoku": (497, 490, 6, 449, 89),
                "mokuhazushi": (21, 20, 0, 13, 3), "sansan": (19, 18, 0, 11, 3),
                "takamoku": (75, 72, 2, 67, 8)}


@pytest.fixture(scope="module")
def dag():
    return J.build_dag()


def test_sgf_counts_agree_with_the_data_readme():
    total = Counter()
    types = Counter()
    for name, expected in README_TABLE.items():
        c = J.sgf_census(name)
        got = tuple(c.get(k, 0) for k in ("nodes", "moves", "passes", "patterns", "leaves"))
        assert got == expected, name
        total.update(dict(zip(("nodes", "moves", "passes", "patterns", "leaves"), got)))
        types.update(c["types"])
        total.update({k: c[k] for k in ("moves_with_sibling", "moves_with_child")})
    assert dict(total) == {"nodes": 1991, "moves": 1911, "passes": 33, "patterns": 1622,
                           "leaves": 332, "moves_with_sibling": 522, "moves_with_child": 1582}
    assert dict(types) == {"standard": 1121, "urgent": 246, "antisuji": 194, "minor": 46,
                           "tenuki_ok": 14, "trick": 1}


def test_pattern_nodes_match_gnu_gos_compiled_joseki_patterns():
    # GNU Go 3.8's joseki compiler wrote one pattern per pattern node, in SGF preorder,
    # with the class as the third letter of ':8,sFJ' (J standard, U urgent, N antisuji,
    # j minor, t tenuki OK, T trick)
    letter = {"J": 0, "U": 1, "j": 2, "T": 3, "t": 4, "N": 5}
    total = 0
    for name in J.JOSEKI_FILES:
        pats = P.parse_file(data.find(f"gnugo/joseki/compiled-3.8/{name}.db"))
        ours = J.pattern_node_types(name)
        assert len(pats) == len(ours) == README_TABLE[name][3], name
        theirs = [letter[p.classes[2]] for p in pats]
        mismatch = [i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]
        assert mismatch == [], (name, mismatch)
        total += len(pats)
    assert total == 1622


def test_the_dag_merges_transpositions_and_mirror_images(dag):
    st = dag.stats()
    # 1,944 SGF moves and passes; a few reach a position already reached
    assert st["edges"] == 1943 and st["passes"] == 33 and st["type_conflicts"] == 0
    assert st["merged_nodes"] == 14 and st["nodes"] == 1930
    # README: 1,896 distinct stone configurations (the positions differing only in the
    # player to move, after a tenuki, are separate nodes here)
    assert len({stones for stones, _ in dag.positions}) == 1896
    for stones, _ in dag.positions:                    # canonical: never the larger mirror
        assert stones == J.canonical(stones)[0]
    assert dag.positions[0] == ((), "b")
    # every node but the root has a parent; edges point forward or at a merged node
    parents = np.bincount(dag.edge_child, minlength=dag.n_nodes)
    assert parents[0] == 0 and (parents[1:] >= 1).all()


def test_corner_points_agree_with_the_data_readme(dag):
    moves = dag.edge_x >= 0
    assert dag.edge_x.max() == 11 and dag.edge_y.max() == 11
    # README counts 88 distinct points over the 1,911 raw moves; canonical frames fold a few
    assert len(set(zip(dag.edge_x[moves].tolist(), dag.edge_y[moves].tolist()))) <= 88


def test_encode_decode_round_trip_is_lossless(dag):
    table, payload = J.encode(dag)
    assert len(table) == J.TABLE_SIZE
    back = J.decode(table, payload)
    assert back.same(dag)
    # the decoded graph replays (captures included) to the very same positions
    assert J.replay(back) == dag.positions
    # a flipped type or a lost pointer does not round-trip
    broken = bytearray(payload)
    i = next(k for k in range(len(broken)) if broken[k] >> 2 == J.TYPED)
    broken[i + 1] ^= 0x40
    assert not J.decode(table, bytes(broken)).same(dag)
    with pytest.raises(ValueError, match="after the last edge"):
        J.decode(table, payload + b"\x00")
    with pytest.raises(ValueError, match="truncated"):
        J.decode(table, payload[:-1])


def test_bytes_per_move_is_measured(dag):
    m = J.bytes_per_move(dag)
    table, payload = J.encode(dag)
    assert m["bytes"] == len(payload) and m["edges"] == 1943 and m["sgf_moves"] == 1944
    assert m["bytes_per_edge"] == len(payload) / 1943
    sizes = m["entry_sizes"]
    assert set(sizes) <= {1, 2, 3, 5} and sum(sizes.values()) == 1943
    assert sum(k * v for k, v in sizes.items()) == len(payload)
    assert sizes[5] == 14              # one 2-byte pointer per extra edge into a merged node
    assert sizes[1] > 1943 / 2         # most edges take one byte
    assert 1.0 < m["untyped_bytes_per_edge"] < m["bytes_per_edge"] < 2.0


def test_hand_made_dag_with_escapes_round_trips():
    # root -> far point (escape), pass, same-colour move; two parents of one node
    edges = [[[15, 14, 1, 3, 1], [-1, -1, 1, 0, 2]],      # trick at a full point; tenuki
             [[2, 3, 1, 0, 3]],                             # black again (odd colour)
             [[2, 3, 2, 5, 3]],                             # white antisuji, same child
             []]
    dag = J._from_lists(edges, [])
    table, payload = J.encode(dag, table=[(2, 3)])
    assert J.decode(table, payload).same(dag)
    with pytest.raises(ValueError, match="4 \\+ 4 bits"):
        J.encode(J._from_lists([[[16, 0, 1, 0, 1]], []], []), table=[(0, 0)])
    # an escape entry (no sibling, no child) whose pointer names no edge's offset
    bogus = bytes((J.ESCAPE << 2, 32, 0, 0, 5))
    with pytest.raises(ValueError, match="pointer 5 is not the offset of an edge"):
        J.decode(table, bogus)


def test_continuations(dag):
    empty = J.continuations([], dag=dag)
    pts = {c.point for c in empty}
    # 4-4, 3-4 both ways, 3-3, 5-5, 3-5, 4-5: the seven files' first moves
    assert {(3, 3), (2, 3), (3, 2), (2, 2), (4, 4), (2, 4), (3, 4)} <= pts
    assert all(c.colour == "b" for c in empty)
    komoku = J.continuations([(2, 3, "b")], dag=dag)
    mirrored = J.continuations([(3, 2, "b")], dag=dag)
    assert {c.point for c in komoku} == {(y, x) for x, y in (c.point for c in mirrored)}
    assert any(c.colour == "w" for c in komoku)
    # a joseki started by white: the same moves with the colours exchanged
    white = J.continuations([(2, 3, "w")], dag=dag)
    assert [(c.point, c.colour, c.type) for c in white] == \
        [(c.point, {"b": "w", "w": "b"}[c.colour], c.type) for c in komoku]
    assert J.continuations([(9, 9, "b"), (0, 0, "w")], dag=dag) == []
    # the 3-3 invasion under the 4-4 stone is in the database
    hoshi = J.continuations([(3, 3, "b")], to_move="w", dag=dag)
    assert (2, 2) in {c.point for c in hoshi if c.colour == "w"}


def test_corner_stones_read_each_corner_the_same_way(dag):
    board = np.zeros((19, 19), np.int8)
    board[3, 15] = 1          # upper right, 4-4 point (row 0 is the top)
    board[2, 3] = 2           # upper left: 3-4 point, white
    board[16, 16] = 1         # lower right: 3-3 point
    board[9, 9] = 2           # tengen: 9 lines from every edge, in every 12-line corner
    assert J.corner_stones(board, "ur") == [(3, 3, "b"), (9, 9, "w")]
    assert J.corner_stones(board, "ul") == [(3, 2, "w"), (9, 9, "w")]
    assert J.corner_stones(board, "lr") == [(2, 2, "b"), (9, 9, "w")]
    assert J.corner_stones(board, "ll") == [(9, 9, "w")]
    assert J.corner_stones(board, "ll", extent=9) == []
    assert J.continuations(J.corner_stones(board, "ur", extent=6), dag=dag)
    with pytest.raises(ValueError, match="corner"):
        J.corner_stones(board, "top")


def test_every_pattern_node_is_a_continuation_with_gnu_gos_class(dag):
    # the position before each marked SGF move, looked up in the DAG, offers that move
    # with the class GNU Go 3.8 compiled for it (independent of our comment parsing)
    letter = {"J": "standard", "U": "urgent", "j": "minor", "T": "trick", "t": "tenuki_ok",
              "N": "antisuji"}
    checked = 0
    for name in J.JOSEKI_FILES:
        classes = [letter[p.classes[2]] for p in
                   P.parse_file(data.find(f"gnugo/joseki/compiled-3.8/{name}.db"))]
        game = sgf.Sgf_game.from_bytes(data.find(f"gnugo/joseki/{name}.sgf").read_bytes())
        stack = [(game.get_root(), boards.Board(19))]
        k = 0
        while stack:
            node, board = stack.pop()
            colour, move = node.get_move()
            if move is not None and (node.has_property("MA") or node.has_property("SQ")):
                stones = [(18 - c, 18 - r, col) for col, (r, c) in board.list_occupied_points()]
                got = J.continuations(stones, dag=dag, swap_colours=False)
                want = J.Continuation((18 - move[1], 18 - move[0]), colour, classes[k])
                assert want in got, (name, k)
                k += 1
            if colour is not None and move is not None:
                board = board.copy()
                board.play(move[0], move[1], colour)
            stack.extend((child, board) for child in reversed(list(node)))
        assert k == len(classes)
        checked += k
    assert checked == 1622
