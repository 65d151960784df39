"""SGF in and out: round trip, setup stones, move numbers, clear errors, real games from data."""

import numpy as np
import pytest
from sgfmill import boards, sgf_moves
from sgfmill import sgf as sgfmill_sgf

from mctslab import data
from mctslab.go import sgf
from mctslab.go.api import BLACK, WHITE


def test_round_trip_with_result_settings_and_root_properties(tmp_path):
    moves = [(BLACK, (2, 2)), (WHITE, (6, 6)), (BLACK, None), (WHITE, (0, 8)), (BLACK, (4, 4))]
    path = sgf.save_game(tmp_path / "games" / "g.sgf", 9, 7.5, moves, result="W+R",
                         root_props={"PB": "mctslab", "PW": "GNU Go 3.8", "EV": "test"},
                         settings={"playouts": 200, "policy": "light", "seed": 7})
    board, info = sgf.load(path)
    assert info["moves"] == moves and board.moves == moves and board.move_number == 5
    assert info["komi"] == 7.5 == board.komi and info["size"] == 9
    assert info["result"] == "W+R" and info["black"] == "mctslab" and info["white"] == "GNU Go 3.8"
    assert info["rules"] == "Chinese" and info["root"]["EV"] == "test"
    assert info["root"]["GC"] == "playouts=200\npolicy=light\nseed=7"
    assert info["root"]["AP"].startswith("mctslab:")
    assert info["to_move"] == WHITE
    assert board.get(2, 2) == BLACK and board.get(6, 6) == WHITE and board.get(4, 4) == BLACK
    assert not list(tmp_path.glob("games/*.tmp*"))


def test_position_after_n_moves_and_the_side_to_move():
    data_ = sgf.game_bytes(9, 6.5, [(BLACK, (0, 0)), (WHITE, (0, 1)), (BLACK, (8, 8))])
    board, info = sgf.load(data_, move_number=2)
    assert board.move_number == 2 and board.get(8, 8) == 0 and board.get(0, 1) == WHITE
    assert info["to_move"] == BLACK and len(info["moves"]) == 3
    board, info = sgf.load(data_, move_number=0)
    assert not board.stones().any() and info["to_move"] == BLACK
    with pytest.raises(ValueError, match=r"move number 4 is outside 0\.\.3"):
        sgf.load(data_, move_number=4)


def test_setup_stones_are_applied_and_counted():
    text = b"(;GM[1]FF[4]SZ[9]AB[aa][bb]AW[cc]PL[W];W[dd];B[ee])"
    board, info = sgf.load(text, move_number=0)
    stones = board.stones()
    # SGF rows count from the top: "aa" is A9, (8, 0) here
    assert stones[8, 0] == BLACK and stones[7, 1] == BLACK and stones[6, 2] == WHITE
    assert stones.sum() == 1 + 1 + 2 and info["setup_moves"] == 3 == board.move_number
    assert info["to_move"] == WHITE  # the next move's colour
    board, info = sgf.load(text)
    assert board.get(5, 3) == WHITE and board.get(4, 4) == BLACK and info["to_move"] == WHITE


@pytest.mark.parametrize("text, to_move", [
    (b"(;GM[1]FF[4]SZ[9];B[ee];W[dd])", BLACK),          # after the last move: its opposite
    (b"(;GM[1]FF[4]SZ[9]PL[W];B[ee];W[dd])", WHITE),     # ... unless PL says otherwise
    (b"(;GM[1]FF[4]SZ[9]AB[aa])", WHITE),                # a setup stone counts as a move
    (b"(;GM[1]FF[4]SZ[9]AB[aa]PL[B])", BLACK),
    (b"(;GM[1]FF[4]SZ[9])", BLACK),                      # nothing played: Black
])
def test_the_side_to_move_after_the_whole_main_line(text, to_move):
    assert sgf.load(text)[1]["to_move"] == to_move


@pytest.mark.parametrize("text, message", [
    (b"(;GM[1]FF[4]SZ[9];B[ee];W[ee])", r"move 2 \(W E5\) is illegal: occupied"),
    (b"(;GM[1]FF[4]SZ[9];B[ab];B[ba];W[aa])", r"move 3 \(W A9\) is illegal: suicide"),
    (b"(;GM[1]FF[4]SZ[9];B[ee",  "not a valid SGF game"),
    (b"this is not sgf", "not a valid SGF game"),
    (b"(;GM[1]FF[4]SZ[3];B[aa])", "board size 3 is not supported"),
    (b"(;GM[1]FF[4]SZ[9]KM[lots])", "not a valid SGF game"),
])
def test_malformed_files_and_illegal_moves_are_named(tmp_path, text, message):
    path = tmp_path / "bad.sgf"
    path.write_bytes(text)
    with pytest.raises(ValueError, match=message) as info:
        sgf.load(path)
    assert str(path) in str(info.value)


def test_a_missing_file_is_an_os_error_naming_it(tmp_path):
    with pytest.raises(OSError, match="cannot read SGF file .*nothing.sgf"):
        sgf.load(tmp_path / "nothing.sgf")


def test_bad_moves_and_properties_are_refused_when_saving():
    with pytest.raises(ValueError, match="off a 9x9 board"):
        sgf.game_bytes(9, 6.5, [(BLACK, (9, 0))])
    with pytest.raises(ValueError, match="bad colour"):
        sgf.game_bytes(9, 6.5, [(3, (0, 0))])
    with pytest.raises(ValueError, match="upper-case"):
        sgf.game_bytes(9, 6.5, [], root_props={"pb": "x"})


def real_games(count: int):
    files = sorted(data.find("go-games").rglob("*.sgf"))
    step = max(1, len(files) // count)
    return files[::step][:count]


@pytest.mark.parametrize("path", real_games(6), ids=lambda p: p.name)
def test_real_games_load_to_sgfmills_position(path):
    """Our position after N moves equals sgfmill's own replay (captures included)."""
    game = sgfmill_sgf.Sgf_game.from_bytes(path.read_bytes())
    reference, plays = sgf_moves.get_setup_and_moves(game, boards.Board(19))
    n = len(plays) * 2 // 3
    for colour, move in plays[:n]:
        if move is not None:
            reference.play(move[0], move[1], colour)
    board, info = sgf.load(path, move_number=n)
    expected = np.zeros((19, 19), np.int8)
    for colour, (row, col) in reference.list_occupied_points():
        expected[row, col] = BLACK if colour == "b" else WHITE
    assert (board.stones() == expected).all()
    assert info["komi"] == game.get_komi() and info["result"] == game.get_root().get("RE")
    assert board.move_number == n and len(info["moves"]) == len(plays)


def test_numbered_position_numbers_the_stones_left_and_forgets_the_captured(tmp_path):
    # Black captures White's corner stone (0, 0) at move 5; White surrounds Black's two
    # stones and takes them by playing on the captured point again (move 10), whose stone
    # carries its own, later number
    moves = [(BLACK, (0, 1)), (WHITE, (0, 0)), (BLACK, (4, 4)), (WHITE, (1, 1)),
             (BLACK, (1, 0)),                       # 5: captures W (0, 0)
             (WHITE, (2, 0)), (BLACK, None), (WHITE, (0, 2)), (BLACK, (6, 6)),
             (WHITE, (0, 0))]                       # 10: captures B (0, 1) and (1, 0)
    path = sgf.save_game(tmp_path / "g.sgf", 9, 6.5, moves, result="W+R")
    board, info, numbers = sgf.numbered_position(path)
    assert info["move_number"] == 10 and board.move_number == 10
    stones = board.stones()
    assert numbers[0, 0] == 10 and stones[0, 0] == WHITE
    assert numbers[0, 1] == numbers[1, 0] == 0 and stones[0, 1] == stones[1, 0] == 0
    assert numbers[4, 4] == 3 and numbers[6, 6] == 9 and numbers[2, 0] == 6
    assert ((numbers > 0) == (stones != 0)).all()  # every stone numbered, no empty point


def test_numbered_position_leaves_setup_stones_unnumbered_and_checks_moves():
    data = b"(;FF[4]SZ[9]AB[ee][dd]AW[cc];W[gg];B[hh])"
    board, info, numbers = sgf.numbered_position(data)
    assert numbers[4, 4] == 0 and board.get(4, 4) == BLACK  # setup: no number
    # SGF rows count from the top: "gg" is (2, 6), "hh" (1, 7)
    assert numbers[2, 6] == 1 and numbers[1, 7] == 2
    assert int((numbers > 0).sum()) == 2
    with pytest.raises(ValueError, match="move 2"):
        sgf.numbered_position(b"(;FF[4]SZ[9];B[ee];W[ee])")
