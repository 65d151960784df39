"""Two-liberty tactics in the strong engine's playouts (:mod:`mctslab.go._twolib`,
``--two-liberty``): the candidates against a plain-Python twin on random positions and on
hand-made ones, and the playout's use of them (the search with the option off and on, and its
command-line switch: tests/go/test_lgrf.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mctslab.go import _ladder, _twolib, strong
from mctslab.go.api import BLACK, WHITE, Board
from mctslab.go.reference import EMPTY, ReferenceBoard
from tests.go.test_ladder import (
    CAPTURED,
    ESCAPES,
    LADDER,
    diagram,
    ref_read_ladder,
    times_played,
    with_stones,
)
from tests.go.test_patterns import random_position


def ref_two_liberty_moves(ref: ReferenceBoard, color, last):
    """The module docstring of ``_twolib``, written plainly on the reference board: the set of
    attack and defence points around ``last`` for ``color`` to move."""
    points, seen = set(), set()
    for r in [last, *ref.neighbours(last)]:
        if ref.get(r) == EMPTY or r in seen:
            continue
        stones, liberties = ref.string(r)
        seen |= stones
        if len(liberties) != 2:
            continue
        if ref.get(r) != color:  # attack: the atari captures it in a ladder
            points |= {q for q in liberties if ref_read_ladder(ref, color, q, r) == CAPTURED}
        elif any(ref_read_ladder(ref, 3 - color, q, r) == CAPTURED for q in liberties):
            points |= {q for q in liberties if not ref.is_eye_like(q, color)
                       and ref_read_ladder(ref, color, q, r) == ESCAPES}
    return points


def kernel_moves(board: Board, color, last) -> set:
    state, sc = board.state, _ladder.make_scratch(board.size)
    out = np.zeros(64, np.int64)
    before = state.color.copy()
    n = _twolib.two_liberty_moves(state.color, state.group, state.info, color,
                                  board.point(last), out, 0, sc)
    assert (state.color == before).all()  # every reading leaves the board as it found it
    return {board.move_of(int(p)) for p in out[:n]}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=st.integers(5, 9), seed=st.integers(0, 2**32 - 1), fill=st.floats(0.3, 0.8))
def test_the_candidates_match_the_twin_on_random_positions(size, seed, fill):
    """Every stone as the last move, either side to move: the kernel's points are the twin's
    (no bound hit on these small boards)."""
    board, ref = random_position(size, seed, int(fill * size * size))
    for r in range(size):
        for c in range(size):
            if ref.get((r, c)) == EMPTY:
                continue
            for color in (BLACK, WHITE):
                assert kernel_moves(board, color, (r, c)) == \
                    ref_two_liberty_moves(ref, color, (r, c)), ((r, c), color)


def test_the_attack_is_the_atari_that_works():
    """White's stone at (4, 3) has two liberties: Black's atari at (4, 4) captures it in a
    ladder, the one at (3, 3) lets it run; so (4, 4) is the only candidate."""
    board, ref = diagram(LADDER)
    assert kernel_moves(board, BLACK, (4, 3)) == {(4, 4)} == \
        ref_two_liberty_moves(ref, BLACK, (4, 3))


def test_the_defence_extends_a_threatened_string():
    """The shape with colours swapped, after White's (4, 2): Black's stone at (4, 3) is captured
    in a ladder by White's atari at (4, 4), so Black extends on either liberty (each gives three
    liberties or more). A Black breaker on the ladder's path leaves nothing to defend."""
    swapped = LADDER.replace("X", "o").replace("O", "X").replace("o", "O")
    board, ref = diagram(swapped)
    assert kernel_moves(board, BLACK, (4, 2)) == {(3, 3), (4, 4)} == \
        ref_two_liberty_moves(ref, BLACK, (4, 2))
    broken, ref = diagram(with_stones(swapped, ("X", (1, 6))))
    assert kernel_moves(broken, BLACK, (4, 2)) == set() == ref_two_liberty_moves(ref, BLACK, (4, 2))


def _attack_played(board, twolib):
    """How often the heavy policy plays Black's atari (4, 4) after White's (4, 3)."""
    policy = strong._policy("heavy", None, 0, 0, board.size if twolib else 0)
    return times_played(board, policy, BLACK, (4, 4))


@pytest.mark.extended
def test_the_playouts_play_the_attack():
    """After White's (4, 3) the pattern step draws (4, 4) among the last move's neighbours; with
    the two-liberty tactics it is the only tactical candidate, played every time."""
    board, _ = diagram(LADDER.replace("X O", "X .", 1))
    board.play(WHITE, (4, 3))
    assert board.moves[-1] == (WHITE, (4, 3))
    assert _attack_played(board, True) == 200
    assert _attack_played(board, False) < 150

