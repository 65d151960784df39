"""Many Faces knowledge structures: kernels against their plain-Python twins, connection
types and strengths on hand-made shapes, eye values, groups, influence, the paper's
enclosed-field claim and the consistency checker on real games."""

from __future__ import annotations

import numpy as np
import pytest

from mctslab import data
from mctslab.go import sgf
from mctslab.go.api import BLACK, WHITE, Board
from mctslab.manyfaces import _knowledge as kk
from mctslab.manyfaces import eyes
from mctslab.manyfaces import reference as ref
from mctslab.manyfaces.knowledge import (
    ENCLOSED_CENTRE_LIMIT,
    Knowledge,
    check,
    enclosed_field,
    replay,
)


def _random_board(size, n_moves, seed):
    rng = np.random.default_rng(seed)
    board = Board(size)
    color = BLACK
    for _ in range(n_moves):
        legal = board.legal_moves(color)
        if not legal:
            break
        board.play(color, legal[rng.integers(len(legal))])
        color = 3 - color
    return board


def _grid(board):
    return ref.grid_of(board.stones(), board.size)


def _rc(board, p):
    return board.move_of(int(p))


BOARDS = [_random_board(9, n, seed) for seed, n in enumerate((10, 30, 50, 70, 90, 120))] + \
    [_random_board(13, 100, 7), _random_board(19, 200, 8)]


@pytest.mark.parametrize("board", BOARDS, ids=range(len(BOARDS)))
def test_kernels_equal_their_plain_python_twins(board):
    st = board.state
    w = board.size + 2
    P = len(st.color)
    grid = _grid(board)
    nb = np.zeros((P, 3), np.int8)
    kk.neighbour_counts(st.color, w, nb)
    want = ref.neighbour_counts(grid)
    assert {p: tuple(nb[board.point(p)]) for p in grid} == want
    ray = np.zeros((P, 4), np.int16)
    ray_len = np.zeros((P, 4), np.int8)
    kk.all_rays(st.color, w, ray, ray_len)
    got = {(_rc(board, p), d): (_rc(board, ray[p, d]), int(ray_len[p, d]))
           for p in range(P) for d in range(4) if ray[p, d]}
    assert got == ref.rays(grid)
    rec = np.zeros((16 * P, 5), np.int32)
    n = kk.connection_records(st.color, st.group, w, ray, ray_len, rec)
    got = {(_rc(board, r[0]), _rc(board, r[1]), _rc(board, r[2]), int(r[3]), int(r[4]))
           for r in rec[:n]}
    assert len(got) == n
    assert got == ref.connection_records(grid)
    libs = np.zeros((4, P), np.int32)
    kk.id_liberties(st.color, w, st.group, ray, *libs)
    strs = ref.strings(grid)
    want = ref.distinct_liberties(grid)
    for p in grid:
        if grid[p]:
            assert libs[0][st.group[board.point(p)]] == want[strs[p]]
    label = np.zeros(P, np.int32)
    sizes = np.zeros(P, np.int32)
    for owner in (BLACK, WHITE):
        k = kk.eye_regions(st.color, w, owner, 10, label, sizes, np.zeros(P, np.int32))
        got = {frozenset(_rc(board, q) for q in np.nonzero(label == r)[0]) for r in range(k)}
        assert got == set(ref.regions(grid, owner))
        assert sorted(sizes[:k]) == sorted(len(r) for r in got)
    values = {p: (0.7 if c == BLACK else -0.4) for p, c in grid.items() if c}
    value = np.zeros(P)
    for p, v in values.items():
        value[board.point(p)] = v
    black, white = np.zeros(P), np.zeros(P)
    for power in (1.0, 2.0):
        kk.influence(st.color, w, value, power, black, white, np.zeros(P, np.int32),
                     np.zeros(P, np.int32))
        wb, ww = ref.influence(grid, values, power)
        for p in wb:
            assert black[board.point(p)] == pytest.approx(wb[p])
            assert white[board.point(p)] == pytest.approx(ww[p])


def _know(size, black=(), white=()):
    board = Board(size)
    for p in black:
        board.play(BLACK, p)
    for p in white:
        board.play(WHITE, p)
    return Knowledge(board)


def _only_connection(know):
    conns = know.connections()
    assert len(conns) == 1, conns
    return conns[0]


@pytest.mark.parametrize("black, white, kind, strength", [
    ([(4, 4), (5, 5)], [], "hane", "solid"),
    ([(4, 4), (5, 5)], [(4, 5)], "hane", "contested"),
    ([(4, 4), (5, 5)], [(4, 5), (5, 4)], "hane", "cut"),
    ([(4, 4), (4, 6)], [], "one_point_jump", "contested"),
    ([(4, 4), (4, 6)], [(4, 5)], "one_point_jump", "cut"),
    ([(4, 4), (5, 6)], [], "knight", "cuttable"),
    ([(4, 4), (5, 6)], [(5, 5)], "half_knight", "cuttable"),
    ([(4, 4), (4, 7)], [], "two_point_jump", "cuttable"),
    ([(4, 4), (5, 7)], [], "large_knight", "cuttable"),
    ([(4, 4), (5, 7)], [(5, 5)], "half_large_knight", "cuttable"),
    ([(4, 4), (4, 8)], [], "three_point_jump", "cuttable"),
    ([(4, 4), (5, 5), (5, 6), (4, 6)], [], "multiple", "solid"),
])
def test_connection_types_and_strengths(black, white, kind, strength):
    know = _know(11, black, white)
    conns = [c for c in know.connections() if c.color == BLACK
             and {c.a, c.b} == {know.board.state.group[know.board.point(p)] for p in black[:2]}]
    assert len(conns) == 1
    assert (conns[0].type, conns[0].strength) == (kind, strength)


def test_a_cut_the_opponent_cannot_play_is_aji():
    # Black diagonal pair; White holds one crossing point; the other (5, 4) is surrounded by
    # Black so that White playing there has no liberty and captures nothing.
    know = _know(11, [(4, 4), (5, 5), (6, 4), (5, 3)], [(4, 5)])
    st = know.board.state
    ga, gb = st.group[know.board.point((4, 4))], st.group[know.board.point((5, 5))]
    conn = [c for c in know.connections() if {c.a, c.b} == {ga, gb}]
    assert conn[0].strength == "aji" and conn[0].n1 == 1
    assert know.board.move_of(conn[0].point) == (5, 4)


def test_tactical_status_captured_threatened_safe():
    # white (0, 0) in atari against the corner wall: extending to (1, 0) gives 1 liberty
    know = _know(9, [(0, 1), (1, 1), (2, 0)], [(0, 0)])
    status = know.tactical()
    st = know.board.state
    assert status[int(st.group[know.board.point((0, 0))])] == "captured"
    know2 = _know(9, [(0, 1)], [(0, 0)])
    assert know2.tactical()[int(know2.board.state.group[know2.board.point((0, 0))])] \
        == "threatened"
    assert know2.tactical()[int(know2.board.state.group[know2.board.point((0, 1))])] == "safe"


def test_eye_values_of_known_shapes():
    assert eyes.eye_value([(0, 0)]).digits == "1111"
    assert eyes.eye_value([(0, 0), (0, 1)]).digits == "1111"
    three = eyes.eye_value([(0, 0), (0, 1), (0, 2)])
    assert three.digits == "1122" and three.vital == ((0, 1),) and three.eighths == (8, 12, 16)
    assert eyes.eye_value([(0, 0), (0, 1), (0, 2), (0, 3)]).digits == "1222"   # straight four
    assert eyes.eye_value([(0, 0), (0, 1), (1, 0), (1, 1)]).b == 1              # square four
    cross = eyes.eye_value([(1, 1), (0, 1), (2, 1), (1, 0), (1, 2)])
    assert (cross.b, cross.c) == (1, 2) and cross.vital == ((1, 1),)
    assert eyes.eye_value([(0, 0), (0, 1), (0, 2)], dead=[(0, 0), (0, 2)]).digits == "2222"
    # false and half eyes from the diagonals
    assert eyes.eye_value([(0, 0)], diagonals=(2, 0, False)).digits == "0000"
    assert eyes.eye_value([(0, 0)], diagonals=(1, 1, False)).digits == "0011"
    assert eyes.eye_value([(0, 0)], diagonals=(1, 0, True)).digits == "0000"
    assert eyes.eye_value([(0, 0)], diagonals=(0, 1, True)).digits == "0011"
    assert eyes.eye_value([(0, 0)], diagonals=(0, 2, False)).digits == "1111"
    assert eyes.eye_value([(0, 0)], diagonals=(1, 0, False)).digits == "1111"
    assert eyes.shape_type([(0, 0), (0, 1), (1, 1)]) == "line"
    assert eyes.shape_type([(0, 0), (0, 1), (1, 0), (1, 1)]) == "big"


def test_agreement_with_gnugo_eyes_db_is_what_we_recorded():
    rows = eyes.compare_with_db()
    # 1,816 shapes, 1,410 with marginal points are left out (their value needs the board)
    assert len(rows) == 406
    # recorded in docs/bench/manyfaces.md: b and c agree on 223, all four digits on 196
    assert sum(r["min_max_agree"] for r in rows) == 223
    assert sum(r["all_agree"] for r in rows) == 196


def test_groups_join_solid_connections_and_two_eyes_live():
    # a black group in the corner of a 7x7 board with two one-point eyes at (0,0), (0,2)
    black = [(0, 1), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3), (0, 4), (1, 4), (2, 0), (2, 1),
             (2, 2), (2, 3), (2, 4), (1, 5), (0, 5)]
    know = _know(7, black, [(4, 4)])
    black_groups = [g for g in know.groups() if g.color == BLACK]
    assert len(black_groups) == 1
    assert black_groups[0].eyes >= 16 and black_groups[0].strength == "alive"
    diag = _know(9, [(4, 4), (5, 5)])
    assert len(diag.groups()) == 1 and len(diag.groups()[0].strings) == 2
    jump = _know(9, [(4, 4), (4, 7)])
    assert len(jump.groups()) == 2


def test_influence_is_blocked_by_stones_and_dead_stones_change_side():
    # a black wall across a 9x9 board: the far side gets nothing from the black stone
    know = _know(9, [(2, c) for c in range(9)] + [(0, 4)])
    b = know.black.reshape(11, 11)[1:-1, 1:-1]
    assert b[1, 4] > 0 and b[5, 4] > 0
    know2 = _know(9, [(4, 4)])
    assert know2.field_grid()[4, 5] > 0 and know2.field_grid().max() <= 1.0
    # a lone white stone in atari inside Black's wall is dead: its point counts for Black
    black = [(3, 4), (5, 4), (4, 3)]
    know3 = _know(9, black, [(4, 4)])
    status = know3.tactical()[int(know3.board.state.group[know3.board.point((4, 4))])]
    assert status == "threatened"   # extending to (4, 5) gives 3 liberties


def test_enclosed_area_field_tends_to_a_constant_at_the_centre_but_not_near_the_walls():
    centre = [enclosed_field(n)[n // 2, n // 2] for n in (5, 11, 17, 23)]
    edge = [enclosed_field(n).max() for n in (5, 11, 17, 23)]
    # 1/d: the centre grows towards 8 ln 2 = 5.545 (a square wall at Manhattan distance)
    assert all(a < b < ENCLOSED_CENTRE_LIMIT for a, b in zip(centre, centre[1:]))
    assert centre[-1] - centre[0] < 0.5
    # ... but next to the wall the field keeps growing like 2 ln(side)
    assert edge[-1] - edge[0] > 2.5
    # 1/d**2 falls with the size: the paper's claim is specific to 1/d
    sq = [enclosed_field(n, 2.0)[n // 2, n // 2] for n in (5, 23)]
    assert sq[1] < sq[0] / 3


def test_consistency_checker_finds_no_mismatch_on_real_games():
    games = sorted(data.find("go-games").glob("tom9d/*.sgf"))[::600][:3]
    assert len(games) == 3
    for path in games:
        _, info = sgf.load(path, 0)
        know, problems = replay(info["moves"], check_every=1)
        assert problems == [], (path.name, problems[:3])
        assert know.board.move_number == len(info["moves"])


def test_consistency_checker_reports_a_corrupted_structure():
    _, info = sgf.load(sorted(data.find("go-games").glob("tom9d/*.sgf"))[0], 60)
    know = Knowledge(Board(19))
    for color, move in info["moves"][:60]:
        know.play(color, move)
    assert check(know) == []
    p = know.board.point(info["moves"][59][1]) + 1
    know.nb[p, 0] += 1
    know.ray[p - 2, 0] = 0
    know.ray_len[p - 2, 0] = 0
    found = check(know)
    assert any("neighbour" in line for line in found)
    know.board.state.libs[know.board.state.group[p - 1]] += 1
    assert any("strings" in line for line in check(know))


def test_incremental_rays_after_captures_equal_a_full_recompute():
    # a capture clears several points at once: the rays through them must all be redone
    know2 = Knowledge(Board(9))
    for color, move in [(WHITE, (1, 1)), (BLACK, (0, 1)), (BLACK, (1, 0)), (BLACK, (1, 2)),
                        (WHITE, (5, 5)), (BLACK, (2, 1))]:
        know2.play(color, move)
    assert know2.board.get(1, 1) == 0
    assert check(know2) == []


def test_regression_suites_are_read_and_answered_as_recorded():
    from mctslab.manyfaces import regression

    optics = regression.read_suite("optics")
    assert len(optics) == 90 and sum(c["gnugo_fails"] for c in optics) == 6
    assert optics[2]["args"] == ["G1"] and optics[2]["expected"].startswith("0 1")
    assert len(regression.read_suite("connect")) == 81
    connection = regression.read_suite("connection")
    assert len(connection) == 128 and sum(c["command"] == "same_dragon" for c in connection) == 38
    assert any(c["extra"] for c in connection)       # trymove positions are kept
    # agreement counts recorded in docs/bench/manyfaces.md
    rows = regression.agreement("optics")
    assert sum(r["agree"] for r in rows) == 55      # 46 without the marginal spaces
    assert {r["ours"] for r in rows if r["id"] == 101} == {"1 1"}


@pytest.mark.parametrize("board", BOARDS, ids=range(len(BOARDS)))
def test_cut_records_and_connection_aggregation_equal_their_twins(board):
    st = board.state
    w = board.size + 2
    P = len(st.color)
    grid = _grid(board)
    cut = np.zeros((4 * P, 3), np.int32)
    m = kk.cut_records(st.color, st.group, w, cut)
    assert {(_rc(board, r[0]), _rc(board, r[1]), int(r[2])) for r in cut[:m]} \
        == ref.cut_records(grid)
    know = Knowledge(board, evaluate=False)
    strs = ref.strings(grid)
    got = {}
    for r in know.connection_array():
        a, b = strs[_rc(board, r[0])], strs[_rc(board, r[1])]
        got[frozenset((a, b))] = (int(r[2]), int(r[3]), int(r[4]), int(r[5]), int(r[6]))
    assert got == ref.connections(grid)
