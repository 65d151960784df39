"""Othello rules: perft against Aart Bik's published counts, kernels against the plain-Python reference."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mctslab.othello import api, reference
from mctslab.othello._board import START_BLACK, START_WHITE, flips, legal_moves, perft, popcount

# Aart Bik's perft counts from the start position (a pass is a ply; a finished game is one leaf).
BIK_PERFT = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284]


@pytest.mark.parametrize("depth", range(0, 11))
def test_perft_matches_published_counts(depth):
    assert api.perft(depth) == BIK_PERFT[depth]


def test_perft_reference_agrees_at_small_depth():
    # The reference is an independent second implementation of the same counting convention.
    board = reference.start_board()
    assert [reference.perft(board, reference.BLACK, d) for d in range(6)] == BIK_PERFT[:6]


def test_start_position_layout():
    # a1 = 0: d4 = 27 White, e4 = 28 Black, d5 = 35 Black, e5 = 36 White; Black to move.
    assert int(START_BLACK) == (1 << 28) | (1 << 35)
    assert int(START_WHITE) == (1 << 27) | (1 << 36)
    # Black's four opening moves: d3 (19), c4 (26), f5 (37), e6 (44).
    assert int(legal_moves(START_BLACK, START_WHITE)) == sum(1 << s for s in (19, 26, 37, 44))


def test_perft_rejects_bad_depth():
    with pytest.raises(ValueError, match="depth"):
        api.perft(-1)
    with pytest.raises(ValueError, match="integer"):
        api.perft(2.5)


def _random_positions(seed, plies):
    """Positions along one random game (reference rules), each as (board, colour to move)."""
    rng = np.random.default_rng(seed)
    board, color = reference.start_board(), reference.BLACK
    positions = []
    for _ in range(plies):
        moves = reference.legal_moves(board, color)
        if not moves:
            if not reference.legal_moves(board, -color):
                break
            color = -color
            continue
        positions.append((board, color))
        board = reference.play(board, color, moves[rng.integers(len(moves))])
        color = -color
    positions.append((board, color))
    return positions


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_moves_and_flips_match_reference_on_random_games(seed):
    for board, color in _random_positions(seed, 70):
        mine, theirs = reference.to_bitboards(board, color)
        p, o = np.uint64(mine), np.uint64(theirs)
        moves = reference.legal_moves(board, color)
        assert int(legal_moves(p, o)) == sum(1 << s for s in moves)
        assert popcount(np.uint64(legal_moves(p, o))) == len(moves)
        for square in moves:
            expected = sum(1 << s for s in reference.flips(board, color, square))
            assert int(flips(p, o, np.uint64(1 << square))) == expected


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ply=st.integers(0, 60))
def test_perft_matches_reference_from_random_positions(seed, ply):
    # Late positions exercise passes and games that end above full depth.
    positions = _random_positions(seed, ply)
    board, color = positions[-1]
    mine, theirs = reference.to_bitboards(board, color)
    for depth in range(4):
        assert perft(np.uint64(mine), np.uint64(theirs), depth) == reference.perft(board, color, depth)
