"""Plain-Python Othello: the slow, obvious twin of the kernels, used only by tests.

The board is a list of 64 cells (``0`` empty, ``1`` Black, ``-1`` White) indexed
``row * 8 + col`` with a1 = 0, and moves are found by walking the 8 directions square
by square, so nothing here shares code or tricks with the bitboard kernels
(:mod:`mctslab.othello._board`, :mod:`mctslab.othello._players`). Players evaluate
the whole afterstate with Eq. 1 (``sum w_xy b_xy``, mover's discs +1) in exact
integer arithmetic on the fixed-point weights, and draw random numbers in exactly the
order documented in :mod:`mctslab.othello._players`, from the same explicit RNG state,
so a kernel game and a reference game with the same seed must be identical.
"""

from __future__ import annotations

import numpy as np

from mctslab.rng import rng_below, rng_random

EMPTY, BLACK, WHITE = 0, 1, -1
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def start_board() -> list[int]:
    """d4 = White, e4 = Black, d5 = Black, e5 = White (a1 = 0)."""
    board = [EMPTY] * 64
    board[3 * 8 + 3] = WHITE  # d4
    board[3 * 8 + 4] = BLACK  # e4
    board[4 * 8 + 3] = BLACK  # d5
    board[4 * 8 + 4] = WHITE  # e5
    return board


def flips(board, color, square) -> list[int]:
    """Squares flipped if ``color`` plays on the empty ``square`` (empty list: illegal)."""
    if board[square] != EMPTY:
        return []
    row, col = divmod(square, 8)
    flipped = []
    for d_row, d_col in DIRECTIONS:
        run = []
        r, c = row + d_row, col + d_col
        while 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == -color:
            run.append(r * 8 + c)
            r, c = r + d_row, c + d_col
        if run and 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == color:
            flipped.extend(run)
    return sorted(flipped)


def legal_moves(board, color) -> list[int]:
    """Legal squares for ``color``, ascending."""
    return [sq for sq in range(64) if flips(board, color, sq)]


def play(board, color, square) -> list[int]:
    """A new board after ``color`` plays ``square`` (which must be legal)."""
    flipped = flips(board, color, square)
    if not flipped:
        raise ValueError(f"illegal move {square} for {color}")
    after = list(board)
    after[square] = color
    for sq in flipped:
        after[sq] = color
    return after


def perft(board, color, depth) -> int:
    """Leaves at ``depth``; a pass is one ply, a finished game one leaf (Bik's convention)."""
    if depth == 0:
        return 1
    moves = legal_moves(board, color)
    if not moves:
        if not legal_moves(board, -color):
            return 1
        return perft(board, -color, depth - 1)
    return sum(perft(play(board, color, sq), -color, depth - 1) for sq in moves)


def to_bitboards(board, color) -> tuple[int, int]:
    """(mover's discs, opponent's discs) as Python ints with bit i = square i."""
    mine = sum(1 << sq for sq in range(64) if board[sq] == color)
    theirs = sum(1 << sq for sq in range(64) if board[sq] == -color)
    return mine, theirs


def evaluate(board, weights, color) -> int:
    """Eq. 1 from ``color``'s point of view: sum of w * (+1 own, -1 opponent)."""
    return sum(int(w) * cell * color for w, cell in zip(weights, board))


def choose_move(board, color, weights, is_random, epsilon, rng) -> int:
    """Random or epsilon-greedy 1-ply WPC move; RNG draws in the kernels' order."""
    moves = legal_moves(board, color)
    if is_random:
        return moves[rng_below(rng, len(moves))]
    if epsilon > 0.0 and rng_random(rng) < epsilon:
        return moves[rng_below(rng, len(moves))]
    best_value, best_move, ties = None, None, 0
    for sq in moves:
        value = evaluate(play(board, color, sq), weights, color)
        if best_value is None or value > best_value:
            best_value, best_move, ties = value, sq, 1
        elif value == best_value:
            ties += 1
            if rng_below(rng, ties) == 0:
                best_move = sq
    return best_move


def play_game(black, black_random, white, white_random, epsilon, rng, record=None) -> int:
    """One game; ``black``/``white`` are int64[64] fixed-point weights. Returns Black - White discs."""
    board = start_board()
    color = BLACK
    while True:
        if not legal_moves(board, color):
            if not legal_moves(board, -color):
                break
            color = -color  # pass
            continue
        if color == BLACK:
            square = choose_move(board, color, black, black_random, epsilon, rng)
        else:
            square = choose_move(board, color, white, white_random, epsilon, rng)
        if record is not None:
            record.append(square)
        board = play(board, color, square)
        color = -color
    return sum(board)


def play_match(weights_a, random_a, weights_b, random_b, epsilon, n_games, rng) -> np.ndarray:
    """A's wins, draws, losses over ``n_games``, A Black in the even-numbered games."""
    outcome = np.zeros(3, dtype=np.int64)
    for game in range(n_games):
        if game % 2 == 0:
            diff = play_game(weights_a, random_a, weights_b, random_b, epsilon, rng)
        else:
            diff = -play_game(weights_b, random_b, weights_a, random_a, epsilon, rng)
        outcome[0 if diff > 0 else 1 if diff == 0 else 2] += 1
    return outcome


def elo_expected(rating_a, rating_b) -> float:
    return 1.0 / (1.0 + 10.0 ** ((rating_b - rating_a) / 400.0))


def rate_against_group(candidate, members, members_random, member_ratings, games_per_member,
                       start_rating, k_factor, epsilon, rng) -> float:
    """The candidate's Elo after N games against each member in turn (members' ratings fixed)."""
    rating = start_rating
    for member, member_random, member_rating in zip(members, members_random, member_ratings):
        for game in range(games_per_member):
            if game % 2 == 0:
                diff = play_game(candidate, False, member, member_random, epsilon, rng)
            else:
                diff = -play_game(member, member_random, candidate, False, epsilon, rng)
            score = 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
            rating += k_factor * (score - elo_expected(rating, member_rating))
    return rating
