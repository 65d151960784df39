"""The numba board against the plain-Python reference (mctslab.go.reference) on random games.

After every move of a random game (legal moves only, passes mixed in, out-of-turn plays now
and then): same stones, same captured points, same legality of every point for both colours
(ko and suicide included), same ko point, same eye-like points, same points the light playout
policy may take (legal, ko aside, and not an own eye: ``_board._playable``), same area score, and
the incremental Zobrist hash equals the from-scratch hash and changes with every move.
"""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mctslab.go import _board as kb
from mctslab.go.api import BLACK, WHITE, Board
from mctslab.go.reference import ReferenceBoard


def assert_same(board: Board, ref: ReferenceBoard, komi: float):
    size = board.size
    grid = np.zeros((size, size), np.int8)
    for (r, c), color in ref.grid.items():
        grid[r, c] = color
    assert (board.stones() == grid).all()
    assert board.ko_point == ref.ko and board.ko_color == ref.ko_color
    for color in (BLACK, WHITE):
        assert board.legal_moves(color) == ref.legal_points(color)
    state = board.state
    for r in range(size):
        for c in range(size):
            if ref.get((r, c)) == 0:
                for color in (BLACK, WHITE):
                    assert kb.is_eye_like(state, board.point((r, c)), color) == \
                        ref.is_eye_like((r, c), color), ((r, c), color)
                    playable = ref.legality(color, (r, c)) in (None, "ko") and \
                        not ref.is_eye_like((r, c), color)
                    assert kb._playable(state.color, state.group, state.libs, state.lib_sum,
                                        state.lib_sumsq, size + 2, color,
                                        board.point((r, c))) == playable, ((r, c), color)
    assert board.area_score(komi) == ref.area_score(komi)
    assert kb.full_hash(state) == state.hash[0]


def play_random_game(size: int, seed: int, length: int, check_every: int = 1):
    rng = np.random.default_rng(seed)
    board, ref = Board(size), ReferenceBoard(size)
    hashes = {board.hash}
    kos = 0
    for i in range(length):
        color = board.to_move if rng.random() > 0.1 else 3 - board.to_move
        legal = ref.legal_points(color)
        if not legal or rng.random() < 0.03:
            move = None
        else:
            move = legal[rng.integers(len(legal))]
        captured = board.play(color, move)
        assert sorted(captured) == ref.play(color, move)
        if move is not None:
            hashes.add(board.hash)
        kos += board.ko_point is not None
        if i % check_every == 0 or i == length - 1:
            assert_same(board, ref, komi=6.5)
    return board, hashes, kos


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=st.integers(5, 9), seed=st.integers(0, 2**32 - 1))
def test_small_boards_match_the_reference(size, seed):
    play_random_game(size, seed, length=2 * size * size)


def test_long_games_fill_the_board_with_captures_and_kos():
    # 5x5 games of 150 moves go through many captures, kos and refills, checked at every move
    kos = 0
    for seed in range(3):
        board, _, game_kos = play_random_game(5, seed, length=150)
        assert sum(board.captures.values()) > 10
        kos += game_kos
    assert kos > 0


def test_19x19_matches_the_reference():
    board, hashes, _ = play_random_game(19, 7, length=250, check_every=50)
    assert sum(board.captures.values()) > 0
    assert len(hashes) > 200  # distinct positions give distinct hashes (no trivial hash)


def test_undo_replays_the_reference_backwards():
    board, _, _ = play_random_game(7, 3, length=60, check_every=60)
    ref_states = []
    ref = ReferenceBoard(7)
    for color, move in board.moves:
        ref_states.append(ref.copy())
        ref.play(color, move)
    for ref_before in reversed(ref_states):
        board.undo()
        assert_same(board, ref_before, komi=0.5)
