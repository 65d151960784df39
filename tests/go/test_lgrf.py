"""Last good reply with forgetting (LGRF-1) in the strong engine's playouts (``--lgrf``), and the
strong engine's on/off switches (two-liberty tactics and tree reuse with it)."""

from __future__ import annotations

import argparse

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mctslab.go import _heavy, cli_engine, strong
from mctslab.go.api import BLACK, WHITE, Board
from mctslab.go.engine import EngineSettings, engine_settings
from mctslab.go.match import Player

POSITION = [(BLACK, (4, 4)), (WHITE, (2, 6)), (BLACK, (6, 2)), (WHITE, (2, 3))]


def _reference_update(replies, seq, first_color, result):
    """Baier & Drake's LGRF-1 update, written plainly: the winner's replies stored, the loser's
    stored replies that it played forgotten."""
    if result == 0.5:
        return
    winner = BLACK if result > 0.5 else WHITE
    for k in range(1, len(seq)):
        color = first_color if k % 2 == 0 else 3 - first_color
        prev, move = seq[k - 1], seq[k]
        if color == winner and move != 0:
            replies[color][prev] = move
        elif color != winner and replies[color].get(prev) == move:
            del replies[color][prev]


@settings(max_examples=200, deadline=None)
@given(seq=st.lists(st.integers(0, 12), min_size=0, max_size=40),
       first=st.sampled_from([BLACK, WHITE]), result=st.sampled_from([0.0, 0.5, 1.0]),
       start=st.lists(st.tuples(st.sampled_from([BLACK, WHITE]), st.integers(0, 12),
                                st.integers(1, 12)), max_size=10))
def test_the_update_is_the_plain_rule(seq, first, result, start):
    table = np.zeros((3, 13), np.int32)
    plain = {BLACK: {}, WHITE: {}}
    for color, prev, move in start:  # a table that already holds replies
        table[color, prev] = move
        plain[color][prev] = move
    _heavy.lgrf_update(table, np.array(seq + [0], np.int64), len(seq), first, result)
    _reference_update(plain, seq, first, result)
    for color in (BLACK, WHITE):
        assert {p: int(m) for p, m in enumerate(table[color]) if m} == plain[color]


def _state_reply(board: Board, color: int, prev_point: int, reply_point: int, policy="heavy"):
    bundle = strong._policy(policy, None, 0, board.state.color.shape[0])
    bundle.replies[color, prev_point] = reply_point
    st_ = board.state
    return _heavy.stored_reply(st_.color, st_.group, st_.next_stone, st_.stones, st_.libs,
                               st_.lib_sum, st_.lib_sumsq, st_.info, color, prev_point, bundle)


def test_a_stored_reply_is_played_only_where_the_policy_could_play():
    board = Board.from_moves(9, POSITION)
    prev = board.point((2, 3))
    assert _state_reply(board, BLACK, prev, board.point((3, 3))) == board.point((3, 3))
    assert _state_reply(board, BLACK, prev, board.point((4, 4))) == -1  # occupied
    assert _state_reply(board, BLACK, prev, 0) == -1  # no reply stored
    # an own one-point eye is never filled
    eye = Board(9)
    for p in ((0, 1), (1, 0)):
        eye.play(BLACK, p)
    assert _state_reply(eye, BLACK, eye.point((0, 1)), eye.point((0, 0))) == -1
    assert _state_reply(eye, WHITE, eye.point((0, 1)), eye.point((0, 0))) == -1  # suicide


@pytest.mark.extended
@pytest.mark.parametrize("name", ["lgrf", "two_liberty"])
def test_a_playout_switch_off_is_the_search_as_before_and_on_is_reproducible(name):
    """Last good replies and two-liberty tactics: off, the search the golden searches pin; on,
    the same search for the same seed, and another one (they change the playouts)."""
    board = Board.from_moves(9, POSITION)
    base = strong.search(board, 400, seed=5)
    off = strong.search(board, 400, seed=5, **{name: False})
    assert (off.move, off.children, off.nodes) == (base.move, base.children, base.nodes)
    a, b = (strong.search(board, 400, seed=5, **{name: True}) for _ in range(2))
    assert (a.move, a.children, a.nodes) == (b.move, b.children, b.nodes)
    assert (a.children, a.nodes) != (base.children, base.nodes)
    assert sum(v for _, v, _ in a.children) == 400


@pytest.mark.parametrize("name", ["lgrf", "reuse_tree", "two_liberty"])
def test_a_strong_engine_switch_is_its_own_and_keeps_task_ids(name):
    """The strong engine's on/off options: off by default, refused for the UCT engine and for a
    value that is not a bool, and in a match's parameters only when on."""
    assert getattr(engine_settings("strong"), name) is False
    assert getattr(engine_settings("strong", **{name: True}), name) is True
    with pytest.raises(ValueError, match="strong engine"):
        EngineSettings(**{name: True})
    with pytest.raises(ValueError, match=f"{name} must be true or false"):
        engine_settings("strong", **{name: "yes"})
    assert name not in Player("mcts", engine=engine_settings("strong")).params()["engine"]
    params = Player("mcts", engine=engine_settings("strong", **{name: True})).params()
    assert params["engine"][name] is True
    assert getattr(Player.from_params(params).engine, name) is True


@pytest.mark.parametrize("flag, field", [("--lgrf", "lgrf"), ("--two-liberty", "two_liberty")])
def test_the_command_line_switch(flag, field):
    parser = argparse.ArgumentParser()
    cli_engine.engine_options(parser, playouts=100)
    for words, expected in (([], False), ([flag], True)):
        args = parser.parse_args(["--engine", "strong", *words])
        assert getattr(cli_engine.engine(args), field) is expected
