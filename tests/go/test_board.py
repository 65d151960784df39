"""Board rules on hand-built positions: captures, suicide, ko, superko, eyes, score, undo, hash."""

import pytest

from mctslab.go import _board as kb
from mctslab.go.api import BLACK, EMPTY, WHITE, Board, IllegalMove, parse_vertex, vertex


def moves(board, *plays):
    for color, text in plays:
        board.play(color, parse_vertex(text, board.size))


def test_sizes_and_errors():
    with pytest.raises(ValueError, match="size"):
        Board(4)
    with pytest.raises(ValueError, match="size"):
        Board(26)
    b = Board(25)
    assert b.stones().shape == (25, 25)
    with pytest.raises(ValueError, match="colour"):
        b.play(3, (0, 0))
    with pytest.raises(IllegalMove) as err:
        b.play(BLACK, (25, 0))
    assert err.value.reason == "off board"


def test_coordinates_follow_sgfmill_and_gtp():
    b = Board(9)
    b.play(BLACK, (0, 0))  # A1: bottom-left
    b.play(WHITE, (8, 3))  # D9: top row
    assert b.get(0, 0) == BLACK and b.stones()[8, 3] == WHITE
    text = str(b).splitlines()
    assert text[0].split() == list("ABCDEFGHJ")
    assert text[1].split()[0] == "9" and text[1].split()[4] == "O"
    assert text[-2].split()[:2] == ["1", "X"]


def test_vertices():
    assert vertex((3, 3), 19) == "D4" and vertex(None, 19) == "pass"
    assert vertex((0, 8), 9) == "J1"  # no I
    assert parse_vertex("d4", 19) == (3, 3) and parse_vertex("PASS", 9) is None
    assert parse_vertex("T19", 19) == (18, 18)
    for bad in ("I5", "Z1", "A0", "A20", "", "D", "44"):
        with pytest.raises(ValueError, match="vertex"):
            parse_vertex(bad, 19)


def test_capture_in_the_corner_and_to_move():
    b = Board(9)
    assert b.to_move == BLACK
    assert b.play(WHITE, (0, 0)) == []
    assert b.to_move == BLACK  # out-of-turn play is allowed
    assert b.play(BLACK, (0, 1)) == []
    assert b.play(BLACK, (1, 0)) == [(0, 0)]
    assert b.get(0, 0) == EMPTY and b.captures[BLACK] == 1
    assert b.to_move == WHITE and b.move_number == 3


def test_suicide_is_illegal_but_capture_first_is_not():
    b = Board(9)
    moves(b, (BLACK, "A2"), (BLACK, "B1"))
    with pytest.raises(IllegalMove) as err:
        b.play(WHITE, (0, 0))
    assert err.value.reason == "suicide" and str(err.value) == "illegal move w A1: suicide"
    # a two-stone suicide: White A1 joins A2, whose last liberty is A1
    c = Board(9)
    moves(c, (WHITE, "A2"), (BLACK, "A3"), (BLACK, "B2"), (BLACK, "B1"))
    assert not c.is_legal(WHITE, (0, 0)) and (0, 0) not in c.legal_moves(WHITE)
    # joining a string that keeps another liberty is fine
    e = Board(9)
    moves(e, (WHITE, "A2"), (WHITE, "A3"), (BLACK, "B1"), (BLACK, "B2"))
    assert e.is_legal(WHITE, (0, 0))
    # a move with no empty neighbour that captures is legal
    d = Board(9)
    moves(d, (WHITE, "B1"), (BLACK, "C1"), (BLACK, "B2"), (WHITE, "A2"), (BLACK, "A3"))
    assert sorted(d.play(BLACK, (0, 0))) == [(0, 1), (1, 0)]  # takes B1 and A2 at once


def ko_position():
    """Black C1 takes White B1; White may not retake at B1 at once.

    row 2:  . X O .
    row 1:  X O . O   -> Black C1 takes B1:  X . X O
    """
    b = Board(9)
    moves(b, (BLACK, "A1"), (WHITE, "B1"), (BLACK, "B2"), (WHITE, "C2"), (BLACK, "J9"),
          (WHITE, "D1"))
    assert b.play(BLACK, (0, 2)) == [(0, 1)]
    return b


def test_simple_ko_and_its_release():
    b = ko_position()
    assert b.ko_point == (0, 1) and b.ko_color == WHITE
    with pytest.raises(IllegalMove) as err:
        b.play(WHITE, (0, 1))
    assert err.value.reason == "ko" and str(err.value) == "illegal move w B1: ko"
    assert (0, 1) not in b.legal_moves(WHITE)
    assert b.is_legal(BLACK, (0, 1))  # the ko binds only the side that lost the stone
    b.play(WHITE, (8, 0))  # a ko threat elsewhere
    b.play(BLACK, (7, 0))
    assert b.play(WHITE, (0, 1)) == [(0, 2)]  # now the retake is legal
    assert b.ko_point == (0, 2) and b.ko_color == BLACK


def test_pass_clears_ko_and_changes_hash():
    b = ko_position()
    h = b.hash
    b.play(WHITE, None)
    assert b.ko_point is None and b.hash != h and b.passes == 1
    b.play(BLACK, None)
    assert b.passes == 2 and b.hash == h  # same stones, same side to move
    b.play(WHITE, (5, 5))
    assert b.passes == 0


def test_capture_of_two_stones_is_not_ko():
    b = Board(9)
    moves(b, (WHITE, "A1"), (WHITE, "B1"), (BLACK, "A2"), (BLACK, "B2"))
    assert sorted(b.play(BLACK, (0, 2))) == [(0, 0), (0, 1)]
    assert b.ko_point is None


def test_positional_superko_forbids_a_repeat_that_simple_ko_allows():
    for superko in (False, True):
        b = ko_position()
        b.superko = superko  # (the constructor flag; set here to reuse the position)
        b.play(WHITE, None)  # passes clear the simple ko ...
        b.play(BLACK, None)
        if not superko:  # ... so the retake repeats the position before Black's C1
            assert b.play(WHITE, (0, 1)) == [(0, 2)]
        else:
            assert not b.is_legal(WHITE, (0, 1)) and (0, 1) not in b.legal_moves(WHITE)
            with pytest.raises(IllegalMove) as err:
                b.play(WHITE, (0, 1))
            assert err.value.reason == "superko"
    assert Board(9, superko=True).superko


def test_undo_restores_everything():
    b = ko_position()
    before = (b.stones().copy(), b.hash, b.to_move, b.ko_point, b.move_number, b.captures)
    b.play(WHITE, (4, 4))
    b.undo()
    assert (b.stones() == before[0]).all()
    assert (b.hash, b.to_move, b.ko_point, b.move_number, b.captures) == before[1:]
    b.undo()  # Black's capture at C1
    assert b.get(0, 1) == WHITE and b.get(0, 2) == EMPTY and b.ko_point is None
    fresh = Board(9)
    with pytest.raises(IndexError, match="nothing to undo"):
        fresh.undo()


def test_copy_is_independent():
    b = ko_position()
    c = b.copy()
    c.play(WHITE, (4, 4))
    c.undo()
    c.undo()
    assert b.get(0, 2) == BLACK and c.get(0, 2) == EMPTY
    assert b.hash != c.hash


def test_hash_transposition_and_from_scratch():
    a = Board.from_moves(9, [(BLACK, (3, 3)), (WHITE, (4, 4)), (BLACK, (2, 2))])
    b = Board.from_moves(9, [(BLACK, (2, 2)), (WHITE, (4, 4)), (BLACK, (3, 3))])
    c = Board.from_moves(9, [(BLACK, (2, 2)), (WHITE, (4, 4)), (BLACK, (3, 4))])
    assert a.hash == b.hash != c.hash
    assert Board(9).hash == 0 and kb.full_hash(a.state) == a.hash
    d = Board(9)
    d.play(WHITE, (0, 0))  # Black still to move: the side key is not toggled
    assert d.hash == int(d.state.zobrist[WHITE, d.point((0, 0))])


def test_eye_like():
    b = Board(9)
    # corner A1 surrounded by Black A2, B1: an eye unless White holds the diagonal B2
    moves(b, (BLACK, "A2"), (BLACK, "B1"))
    p = b.point((0, 0))
    assert kb.is_eye_like(b.state, p, BLACK) and not kb.is_eye_like(b.state, p, WHITE)
    moves(b, (WHITE, "B2"))
    assert not kb.is_eye_like(b.state, p, BLACK)
    # centre E5: one enemy diagonal is tolerated, two are not
    moves(b, (BLACK, "E4"), (BLACK, "E6"), (BLACK, "D5"), (BLACK, "F5"), (WHITE, "D4"))
    q = b.point((4, 4))
    assert kb.is_eye_like(b.state, q, BLACK)
    moves(b, (WHITE, "F6"))
    assert not kb.is_eye_like(b.state, q, BLACK)


def test_area_score():
    b = Board(9, komi=6.5)
    assert b.area_score() == -6.5
    b.play(BLACK, (4, 4))
    assert b.area_score() == 81 - 6.5  # every empty point reaches only Black
    b.play(WHITE, (0, 0))
    assert b.area_score(komi=0) == 0  # the one region reaches both: neutral, 1 - 1
    # a black wall on column E: A-D are Black's (36 + 9 wall), F-J reach both
    c = Board(9)
    for row in range(9):
        c.play(BLACK, (row, 4))
    c.play(WHITE, (4, 7))
    assert c.area_score(komi=0) == 36 + 9 - 1
