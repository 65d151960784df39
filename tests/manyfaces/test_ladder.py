"""The ladder reader on classic ladder and ladder-breaker positions."""

import pytest

from mctslab.go.api import BLACK, WHITE, Board
from mctslab.manyfaces.ladder import read_ladder

NET = [(10, 10), (9, 9), (8, 9)]      # Black around the White stone at (9, 10): two liberties


def position(black, white):
    board = Board(19)
    for move in black:
        board.play(BLACK, move)
    for move in white:
        board.play(WHITE, move)
    return board


def test_the_ladder_works_on_an_empty_board_and_the_board_is_restored():
    board = position(NET, [(9, 10)])
    before, n_moves = board.stones(), len(board.moves)
    result = read_ladder(board, (9, 10))
    assert result.captured and result.move == (9, 11) and not result.exhausted
    assert result.nodes > 20                 # it ran all the way to the edge
    assert (board.stones() == before).all() and len(board.moves) == n_moves


@pytest.mark.parametrize("breaker", [(3, 16), (4, 15), (2, 15)])
def test_a_white_stone_on_the_ladders_path_breaks_it(breaker):
    assert not read_ladder(position(NET, [(9, 10), breaker]), (9, 10)).captured


def test_a_stone_off_the_path_does_not_break_it():
    assert read_ladder(position(NET, [(9, 10), (15, 15)]), (9, 10)).captured


def test_one_liberty_is_taken_and_three_are_no_ladder():
    one = read_ladder(position([(10, 10), (9, 9), (9, 11)], [(9, 10)]), (9, 10))
    assert one.captured and one.move == (8, 10) and one.nodes == 1
    three = read_ladder(position([(10, 10)], [(9, 10)]), (9, 10))
    assert not three.captured and three.nodes == 0


def test_the_ladder_towards_the_near_edge_and_its_breaker():
    net = [(4, 3), (3, 2), (2, 2)]
    assert read_ladder(position(net, [(3, 3)]), (3, 3)).captured
    assert not read_ladder(position(net, [(3, 3), (1, 5)]), (3, 3)).captured


def test_an_empty_point_is_refused():
    with pytest.raises(ValueError, match="no stone"):
        read_ladder(Board(9), (4, 4))
