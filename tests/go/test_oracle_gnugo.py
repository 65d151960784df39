"""Our rules against GNU Go 3.8 as an independent oracle, over GTP.

Seeded random games on 9x9 and 19x19 are played on our :class:`mctslab.go.api.Board` and sent
move by move to GNU Go (``--chinese-rules``). Moves are uniform among the legal moves that do
not fill the mover's own one-point eye (a light playout), with an occasional voluntary pass, to
two passes; so every prefix of a game, from the empty board to the finished position, is one of
the "random positions of varied length" compared:

- legal moves: our ``legal_moves(colour)`` equals GNU Go's ``all_legal colour`` for both
  colours (suicide, simple ko and occupied points; no superko on either side);
- captures: the stones our ``play`` returns as captured equal the increase of GNU Go's
  ``captures colour``, and the whole board equals GNU Go's ``list_stones black/white``;
- score: in the finished position (two passes), our Tromp-Taylor ``area_score()`` equals GNU
  Go's ``final_score``.

Dead stones: GNU Go's ``final_score`` first removes the stones it judges dead, while the area
score counts every stone as alive. A finished light playout mostly has no dead stones, but it can
end in a ko shape: one side cannot retake at once, passes, the other passes too, and a stone in
atari is left standing; GNU Go calls it dead and counts its point (and the eye beside it) for the
other side, which is not Tromp-Taylor. So the score is compared only where GNU Go's
``final_status_list dead`` and ``seki`` are empty; positions with dead stones, and games still
unfinished after 3 N^2 moves (ko cycles), are skipped and counted, and the assertion requires
a share of the games to be scored (observed counts beside it).
"""

import numpy as np
import pytest

from mctslab.go import game, gnugo
from mctslab.go.api import BLACK, WHITE, Board, vertex
from mctslab.go.gtp import own_eye

# (size, komi, seed, compare all_legal every k moves); 19x19 games are ~500 moves long
GAMES = [(9, (6.5, 7.0, 0.5)[seed % 3], seed, 1) for seed in range(28)]
GAMES += [(19, 6.5, 200, 4), (19, 7.5, 201, 4), (19, 0.5, 202, 4)]
VOLUNTARY_PASS = 0.02  # a pass now and then in the first N^2/2 moves (never two in a row)


@pytest.fixture(scope="module")
def oracle(gnugo_executable):  # the one GNU Go fixture (tests/conftest.py): a skip without it
    with gnugo.gnugo(level=0, seed=0, size=9, timeout=60) as engine:
        yield engine


def gnugo_stones(engine, size):
    stones = np.zeros((size, size), np.int8)
    for color in (BLACK, WHITE):
        for r, c in engine.list_stones(color):
            stones[r, c] = color
    return stones


def play_random_game(engine, size, komi, seed, legal_every):
    """Play one random game on both boards, comparing as the module docstring says; returns
    (our board, number of all_legal comparisons)."""
    rng = np.random.default_rng(seed)
    board = Board(size, komi=komi)
    engine.boardsize(size)
    engine.clear_board()
    engine.komi(komi)
    captures = {BLACK: 0, WHITE: 0}
    compared = 0
    while board.move_number < 3 * size * size:
        color = board.to_move
        legal = board.legal_moves(color)
        if board.move_number % legal_every == 0:
            for c in (BLACK, WHITE):
                ours = sorted(legal) if c == color else sorted(board.legal_moves(c))
                assert ours == sorted(engine.all_legal(c)), (
                    f"legal moves of {'BW'[c - 1]} differ after {board.move_number} moves "
                    f"(seed {seed}):\n{board}")
            compared += 1
        stones = board.stones()
        candidates = [m for m in legal if not own_eye(stones, m[0], m[1], color)]
        if board.passes >= 2:
            break
        voluntary = board.passes == 0 and board.move_number < size * size // 2
        if not candidates or (voluntary and rng.random() < VOLUNTARY_PASS):
            move = None
        else:
            move = candidates[rng.integers(len(candidates))]
        captured = board.play(color, move)
        engine.play(color, move)
        new_total = engine.captures(color)
        assert new_total - captures[color] == len(captured), (
            f"move {board.move_number} ({'BW'[color - 1]} {vertex(move, size)}) "
            f"captured {len(captured)} here, {new_total - captures[color]} in GNU Go (seed {seed})")
        captures[color] = new_total
        if captured or board.move_number % legal_every == 0:
            assert (board.stones() == gnugo_stones(engine, size)).all(), (
                f"boards differ after move {board.move_number} (seed {seed})")
    return board, compared


def test_legal_moves_captures_and_area_score_equal_gnugo(oracle):
    scored, skipped = 0, []
    for size, komi, seed, legal_every in GAMES:
        board, compared = play_random_game(oracle, size, komi, seed, legal_every)
        assert compared >= board.move_number // legal_every  # the comparisons really ran
        if board.passes < 2:
            skipped.append((seed, "unfinished after 3 N^2 moves"))  # a long ko cycle
            continue
        dead = oracle.final_status_list("dead")
        if dead or oracle.final_status_list("seki"):
            skipped.append((seed, f"GNU Go: dead {dead}" if dead else "seki"))
            continue
        theirs = game.score_value(oracle.final_score())
        assert board.area_score() == theirs, (
            f"seed {seed} ({size}x{size}, komi {komi}): area score {board.area_score()} "
            f"vs GNU Go {theirs}\n{board}")
        scored += 1
    # Observed for these 31 seeds: 17 scored, 10 with one stone GNU Go calls dead (each in
    # atari in a ko shape), 4 unfinished; none in seki
    assert scored >= 13, (scored, skipped)


def test_a_known_capture_and_ko_sequence_agrees(oracle):
    """A hand-made ko on 9x9: the capture, the forbidden retake (both sides agree), the retake
    allowed after a ko threat elsewhere."""
    oracle.boardsize(9)
    oracle.clear_board()
    board = Board(9)
    # Black B2 C1 C3 around C2, White D1 D3 E2 around D2; Black D2 takes C2: a ko
    sequence = [(BLACK, (1, 1)), (WHITE, (1, 2)), (BLACK, (0, 2)), (WHITE, (0, 3)),
                (BLACK, (2, 2)), (WHITE, (2, 3)), (BLACK, (8, 8)), (WHITE, (1, 4)),
                (BLACK, (1, 3))]  # Black captures C2 (1, 2): a ko
    for color, move in sequence:
        captured = board.play(color, move)
        oracle.play(color, move)
    assert captured == [(1, 2)] and oracle.captures(BLACK) == 1
    assert (1, 2) not in board.legal_moves(WHITE) and (1, 2) not in oracle.all_legal(WHITE)
    board.play(WHITE, (8, 0))
    oracle.play(WHITE, (8, 0))
    board.play(BLACK, (7, 0))
    oracle.play(BLACK, (7, 0))
    assert (1, 2) in board.legal_moves(WHITE) and (1, 2) in oracle.all_legal(WHITE)
    assert board.play(WHITE, (1, 2)) == [(1, 3)]
