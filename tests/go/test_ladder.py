"""The strong engine's ladder reader (:mod:`mctslab.go._ladder`) against a plain-Python twin
(an AND-OR search on :class:`~mctslab.go.reference.ReferenceBoard`) on hand-made ladders and on
random small positions; and its uses (``ladders``): the prior and the playout change what they
should on a known position, the option off leaves the search as it was, its settings."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mctslab.go import _heavy, _ladder, _prior, strong
from mctslab.go._board import I_KO, I_KO_COLOR
from mctslab.go.api import BLACK, WHITE, Board
from mctslab.go.engine import EngineSettings, engine_settings
from mctslab.go.match import Player
from mctslab.go.reference import EMPTY, ReferenceBoard
from mctslab.rng import seed_state
from tests.go.test_patterns import random_position

CAPTURED, ESCAPES, UNKNOWN = _ladder.CAPTURED, _ladder.ESCAPES, _ladder.UNKNOWN


# --- the twin: the same AND-OR search, written out on the reference board --------------------

def ref_read_ladder(ref: ReferenceBoard, color, move, target):
    """After ``color`` plays ``move``, is the string through ``target`` captured in a ladder?
    (the module docstring of ``_ladder``; no bounds)."""
    if ref.legality(color, move) is not None:
        return UNKNOWN
    board = ref.copy()
    board.play(color, move)
    if board.get(target) == EMPTY:
        return CAPTURED
    to_move = 3 - color
    attacker_moves = board.get(target) != to_move
    return CAPTURED if _attacker_wins(board, target, to_move, attacker_moves) else ESCAPES


def _attacker_wins(board, target, to_move, attacker_moves):
    defender = board.get(target)
    stones, liberties = board.string(target)
    if attacker_moves:
        if len(liberties) != 2:
            return len(liberties) <= 1
        return any(_after(board, to_move, move, target, attacker_moves)
                   for move in sorted(liberties))
    if len(liberties) >= 2:
        return False  # not in atari
    moves = set(liberties)
    for stone in stones:  # the liberty of every attacker string in atari next to it
        for q in board.neighbours(stone):
            if board.get(q) == 3 - defender:
                other_liberties = board.string(q)[1]
                if len(other_liberties) == 1:
                    moves |= other_liberties
    return all(_after(board, to_move, move, target, attacker_moves) for move in sorted(moves))


def _after(board, to_move, move, target, attacker_moves):
    """The attacker's result after ``to_move`` plays ``move`` (an illegal move: the mover's
    loss, as a move it does not have)."""
    if board.legality(to_move, move) is not None:
        return not attacker_moves
    child = board.copy()
    child.play(to_move, move)
    liberties = len(child.string(target)[1])
    if not attacker_moves:  # the defender moved
        if liberties >= 3:
            return False
        if liberties <= 1:
            return True
    return _attacker_wins(child, target, 3 - to_move, not attacker_moves)


# --- positions ----------------------------------------------------------------------------

def diagram(text: str, size: int = 9):
    """A board and its twin from rows of ``X`` (Black), ``O`` (White), ``.``; the top row is
    the highest (GTP)."""
    rows = [line.split() for line in text.strip().splitlines()][::-1]
    board, ref = Board(size), ReferenceBoard(size)
    for r, row in enumerate(rows):
        for c, mark in enumerate(row):
            if mark in "XO":
                color = BLACK if mark == "X" else WHITE
                board.play(color, (r, c))
                ref.play(color, (r, c))
    return board, ref


def read(board, color, move, target, plays=None):
    sc = _ladder.make_scratch(board.size)
    if plays is not None:
        sc.limits[0] = plays
    state = board.state
    return _ladder.read_ladder(state.color, board.size + 2, state.info[I_KO],
                               state.info[I_KO_COLOR], color, board.point(move),
                               board.point(target), sc)


def both(board, ref, color, move, target):
    """The kernel's answer, checked against the twin's."""
    got = read(board, color, move, target)
    assert got == ref_read_ladder(ref, color, move, target), (move, target)
    return got


# White's stone at (4, 3), Black's net: the atari at (4, 4) chases it down and to the right
LADDER = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X . . . . .
. . X O . . . . .
. . X . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


def with_stones(text, *stones):
    """``text`` with ``(mark, (row, col))`` stones added."""
    rows = [line.split() for line in text.strip().splitlines()][::-1]
    for mark, (r, c) in stones:
        rows[r][c] = mark
    return "\n".join(" ".join(row) for row in rows[::-1])


def test_a_working_ladder_and_the_wrong_side_atari():
    board, ref = diagram(LADDER)
    assert both(board, ref, BLACK, (4, 4), (4, 3)) == CAPTURED
    assert both(board, ref, BLACK, (3, 3), (4, 3)) == ESCAPES  # runs out to three liberties


@pytest.mark.parametrize("breaker", [(2, 5), (1, 6), (0, 5), (3, 6)])
def test_a_white_stone_on_the_path_breaks_the_ladder(breaker):
    board, ref = diagram(with_stones(LADDER, ("O", breaker)))
    assert both(board, ref, BLACK, (4, 4), (4, 3)) == ESCAPES


def test_a_stone_off_the_path_or_a_black_stone_on_it_does_not_break_it():
    for extra in (("O", (7, 7)), ("O", (6, 1)), ("X", (2, 5))):
        board, ref = diagram(with_stones(LADDER, extra))
        assert both(board, ref, BLACK, (4, 4), (4, 3)) == CAPTURED, extra


def test_escape_by_capturing_a_chasing_stone():
    """Black's (5, 3) is in atari (White at (6, 3) and (5, 2)): after the atari at (4, 4)
    White captures it at (5, 4) and gets out; the same ladder without those two stones works."""
    board, ref = diagram(with_stones(LADDER, ("O", (6, 3)), ("O", (5, 2))))
    assert both(board, ref, BLACK, (4, 4), (4, 3)) == ESCAPES


def test_the_escape_into_a_ladder_seen_by_the_defender():
    board, ref = diagram(with_stones(LADDER, ("X", (4, 4))))
    assert both(board, ref, WHITE, (3, 3), (4, 3)) == CAPTURED
    board, ref = diagram(with_stones(LADDER, ("X", (4, 4)), ("O", (1, 6))))
    assert both(board, ref, WHITE, (3, 3), (4, 3)) == ESCAPES


EDGE = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . X O . . .
. . . . X O . . .
. . . . . X . . .
"""


def test_at_the_board_edge():
    """White's two stones at (1, 5), (2, 5) (liberties (1, 6), (2, 6), (3, 5)): pushed along
    the first line; the edge is the ladder's other wall."""
    board, ref = diagram(EDGE)
    assert both(board, ref, BLACK, (3, 5), (2, 5)) == ESCAPES  # three liberties after it
    board, ref = diagram(with_stones(EDGE, ("X", (3, 5))))
    assert both(board, ref, BLACK, (2, 6), (2, 5)) == CAPTURED  # chased along the edge
    board, ref = diagram(with_stones(EDGE, ("X", (3, 5)), ("O", (1, 7))))
    assert both(board, ref, BLACK, (2, 6), (2, 5)) == ESCAPES  # a breaker on the first lines
    board, ref = diagram(with_stones(EDGE, ("X", (3, 5)), ("O", (2, 7))))
    assert both(board, ref, BLACK, (2, 6), (2, 5)) == ESCAPES  # the chaser on (2, 6) is caught


def test_corner_capture_illegal_move_and_the_bound():
    board, ref = diagram(with_stones(LADDER, ("X", (3, 3))))
    assert both(board, ref, BLACK, (4, 4), (4, 3)) == CAPTURED  # captured by the move
    assert both(board, ref, BLACK, (4, 3), (4, 3)) == UNKNOWN  # occupied: illegal
    board, ref = diagram(LADDER)
    assert read(board, BLACK, (4, 4), (4, 3), plays=3) == UNKNOWN  # out of moves to play
    assert read(board, BLACK, (4, 4), (4, 3), plays=200) == CAPTURED


def test_the_long_ladder_on_19x19_reads_to_the_edge():
    net = [(10, 10), (9, 9), (8, 9)]
    board, ref = Board(19), ReferenceBoard(19)
    for move in net:
        board.play(BLACK, move)
        ref.play(BLACK, move)
    board.play(WHITE, (9, 10))
    ref.play(WHITE, (9, 10))
    assert both(board, ref, BLACK, (9, 11), (9, 10)) == CAPTURED
    board.play(WHITE, (3, 16))
    ref.play(WHITE, (3, 16))
    assert both(board, ref, BLACK, (9, 11), (9, 10)) == ESCAPES


def _short_strings(ref, size):
    """(target, liberties) of every string with one or two liberties."""
    seen, out = set(), []
    for r in range(size):
        for c in range(size):
            if ref.get((r, c)) != EMPTY and (r, c) not in seen:
                stones, liberties = ref.string((r, c))
                seen |= stones
                if len(liberties) <= 2:
                    out.append(((r, c), sorted(liberties)))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=st.integers(5, 9), seed=st.integers(0, 2**32 - 1), fill=st.floats(0.3, 0.8))
def test_the_reader_matches_the_twin_on_random_positions(size, seed, fill):
    """Every string of one or two liberties, each liberty played by either side: the kernel
    answers as the twin whenever it answers (no bound hit on these small boards)."""
    board, ref = random_position(size, seed, int(fill * size * size))
    for target, liberties in _short_strings(ref, size):
        for move in liberties:
            for color in (BLACK, WHITE):
                got = read(board, color, move, target)
                assert got != UNKNOWN or ref.legality(color, move) is not None
                assert got == ref_read_ladder(ref, color, move, target), \
                    (target, move, color, got)


# --- its uses in the strong engine -------------------------------------------------------

def _prior_map(board, color, last, ladders):
    points = board.state.color.shape[0]
    data = strong._prior_data(points, ladders)
    visits, wins = np.zeros(points), np.zeros(points)
    _prior.prior_map(board.state, color, board.point(last), strong.prior_weights("all"), data,
                     visits, wins)
    return visits, wins


@pytest.mark.extended
def test_the_prior_gives_a_ladder_capture_the_capture_bonus():
    """Black to move: the atari at (4, 4) captures in a ladder, 15 virtual wins (one stone);
    every other point's prior stays."""
    board, _ = diagram(LADDER)
    off = _prior_map(board, BLACK, (4, 3), False)
    on = _prior_map(board, BLACK, (4, 3), True)
    changed = np.flatnonzero((on[0] != off[0]) | (on[1] != off[1]))
    assert changed.tolist() == [board.point((4, 4))]
    p = board.point((4, 4))
    assert (on[0][p] - off[0][p], on[1][p] - off[1][p]) == (15.0, 15.0)


@pytest.mark.extended
def test_the_prior_turns_an_escape_into_a_ladder_into_a_loss():
    """White to move, its stone in atari: the escape (3, 3) loses its 15 virtual wins (the
    visits stay); with a breaker at (1, 6) the escape keeps them."""
    board, _ = diagram(with_stones(LADDER, ("X", (4, 4))))
    p = board.point((3, 3))
    off = _prior_map(board, WHITE, (4, 4), False)
    on = _prior_map(board, WHITE, (4, 4), True)
    changed = np.flatnonzero((on[0] != off[0]) | (on[1] != off[1]))
    assert changed.tolist() == [p]
    assert (on[0][p], on[1][p]) == (off[0][p], off[1][p] - 15.0)
    broken, _ = diagram(with_stones(LADDER, ("X", (4, 4)), ("O", (1, 6))))
    assert _prior_map(broken, WHITE, (4, 4), True)[1][broken.point((3, 3))] == \
        _prior_map(broken, WHITE, (4, 4), False)[1][broken.point((3, 3))]


def times_played(board, policy, color, move, draws=200):
    """How often the playout ``policy`` (a bundle of ``strong._policy``) plays ``move`` for
    ``color`` on ``board``, over ``draws`` seeds."""
    state, target = board.state, board.point(move)
    played = 0
    for seed in range(draws):
        p = _heavy.heavy_move(state.color, state.group, state.next_stone, state.stones,
                              state.libs, state.lib_sum, state.lib_sumsq, state.empty,
                              state.info, seed_state(seed), color, policy)
        played += p == target
    return played


def _escapes_played(board, ladders, draws=200):
    """How often the heavy policy plays White's escape (3, 3) after Black's atari (4, 4)."""
    policy = strong._policy("heavy", None, board.size if ladders else 0)
    return times_played(board, policy, WHITE, (3, 3), draws)


@pytest.mark.extended
def test_the_playouts_do_not_run_into_the_ladder():
    """The tactics propose White's escape every time; with ladders read, it is played only
    when the light policy draws it (observed 5 of 200; about 200/75 expected: 75 legal
    moves), and again every time
    when a breaker makes it work."""
    board, _ = diagram(LADDER)
    board.play(BLACK, (4, 4))
    assert board.to_move == WHITE and board.moves[-1] == (BLACK, (4, 4))
    assert _escapes_played(board, False) == 200
    assert _escapes_played(board, True) < 20
    broken, _ = diagram(with_stones(LADDER, ("O", (1, 6))))
    broken.play(BLACK, (4, 4))
    assert _escapes_played(broken, True) == 200


POSITION = [(BLACK, (4, 4)), (WHITE, (2, 6)), (BLACK, (6, 2)), (WHITE, (2, 3))]


@pytest.mark.extended
def test_ladders_off_is_the_search_as_before_and_on_is_reproducible():
    board = Board.from_moves(9, POSITION)
    base = strong.search(board, 400, seed=5)
    off = strong.search(board, 400, seed=5, ladders="none")
    assert (off.move, off.children, off.nodes) == (base.move, base.children, base.nodes)
    a, b = (strong.search(board, 400, seed=5, ladders="all") for _ in range(2))
    assert (a.move, a.children, a.nodes) == (b.move, b.children, b.nodes)
    assert sum(v for _, v, _ in a.children) == 400


@pytest.mark.extended
@pytest.mark.parametrize("ladders,expected", [
    # recorded when the ladder reading was added (the measurements of docs/bench/go.md,
    # "Ladder reading"); a change here changes the engine those games measured
    ("priors", ((2, 4), 17051, 0.485, [((2, 4), 314), ((3, 2), 207), ((5, 5), 91), ((1, 2), 89)])),
    ("all", ((2, 5), 17400, 0.494, [((2, 5), 204), ((4, 2), 118), ((3, 2), 116), ((3, 3), 86)])),
])
def test_golden_searches_with_ladders(ladders, expected):
    r = strong.search(Board.from_moves(9, POSITION), 1000, seed=7, ladders=ladders)
    assert (r.move, r.nodes, r.root_win_rate, [(m, v) for m, v, _ in r.children[:4]]) == expected


def test_the_option_parses_and_defaults_to_none():
    assert strong.parse_ladders("none") == () and strong.parse_ladders("") == ()
    assert strong.parse_ladders("all") == ("priors", "playouts")
    assert strong.ladder_name("playouts, priors") == "priors,playouts"
    with pytest.raises(ValueError, match="unknown ladder use"):
        strong.parse_ladders("nets")
    assert engine_settings("strong").ladders == "none"
    assert engine_settings("strong", ladders="playouts,priors").ladders == "priors,playouts"
    with pytest.raises(ValueError, match="strong engine"):
        EngineSettings(ladders="priors")
    assert "ladders" not in Player("mcts", engine=engine_settings("strong")).params()["engine"]
    params = Player("mcts", engine=engine_settings("strong", ladders="all")).params()
    assert params["engine"]["ladders"] == "priors,playouts"
    assert Player.from_params(params).engine.ladders == "priors,playouts"


def test_the_command_line_option():
    import argparse

    from mctslab.go import cli_engine

    parser = argparse.ArgumentParser()
    cli_engine.engine_options(parser, playouts=100)
    for words, expected in (([], "none"), (["--ladders", "priors"], "priors")):
        args = parser.parse_args(["--engine", "strong", *words])
        assert cli_engine.engine(args).ladders == expected
    with pytest.raises(ValueError, match="unknown ladder use"):
        cli_engine.engine(parser.parse_args(["--engine", "strong", "--ladders", "x"]))

