"""Players and matches (paper Sec. 2.2-2.3): random, 1-ply WPC, epsilon-greedy; many games per call.

Reading guide
-------------
* A player is ``(tables, is_random)``: ``tables`` is the WPC as row tables
  ``int64[8, 256]`` (``mctslab.othello.wpc.row_tables``): ``tables[r, byte]`` is the sum
  of the fixed-point weights (weight * 2**32, rounded) of the squares of rank ``r + 1``
  set in ``byte``, so the weight sum over any bitboard is 8 table loads, with no
  data-dependent loop (25% more games/s than looping over set bits). ``is_random`` makes
  it the uniformly random player (tables ignored).
* 1-ply look-ahead (Othello League): the mover evaluates the position after each legal
  move with ``f_w(b) = sum w_xy b_xy`` (Eq. 1, +1 own disc, -1 opponent disc, from the
  mover's point of view) and plays the best. The afterstate value is the current value
  plus ``w[move] + 2 * sum(w[flipped])``, and the current value is the same for every
  candidate, so only that increment is computed. Integer weights make the comparison
  exact, so symmetric moves tie exactly and ties are broken uniformly at random
  (reservoir sampling: the c-th tie replaces the choice with probability 1/c).
* Epsilon-greedy (epsilon = 0.1 in the League and the paper): with probability
  epsilon a uniformly random legal move instead, for both players.
* Random-number use per move, in this order (``reference.py`` replays it exactly):
  random player -> one ``rng_below(n_moves)``; otherwise, when epsilon > 0, one
  ``rng_random()`` and, if it is below epsilon, one ``rng_below(n_moves)``; otherwise,
  scanning the moves from a1 upwards, one ``rng_below(c)`` whenever a move equals the
  best value so far for the c-th time (c >= 2). A pass draws nothing.
* A match of ``n_games`` alternates colours, player A Black in game 0, 2, 4, ...;
  outcomes are counted on discs (win 1, draw 0.5, loss 0).
"""

from __future__ import annotations

import numpy as np

from mctslab.core.jit import njit
from mctslab.othello._bitops import flips_ir
from mctslab.othello._board import START_BLACK, START_WHITE, legal_moves, play, popcount
from mctslab.rng import rng_below, rng_random

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_MIN_VALUE = np.iinfo(np.int64).min
_BYTE = np.uint64(0xFF)


@njit(cache=True)
def weight_sum(tables, squares):
    """Sum of the WPC weights of the squares set in the bitboard ``squares``."""
    total = np.int64(0)
    for rank in range(8):
        total += tables[rank, np.int64((squares >> np.uint64(8 * rank)) & _BYTE)]
    return total


@njit(cache=True)
def nth_move(moves, index):
    """The single-bit bitboard of the ``index``-th lowest set bit of ``moves``."""
    for _ in range(index):
        moves &= moves - _ONE
    return moves & (~moves + _ONE)


@njit(cache=True)
def greedy_move(player, opponent, moves, tables, rng):
    """Best 1-ply move for the WPC ``tables``; exact ties broken uniformly at random."""
    best_value = _MIN_VALUE
    best_move = _ZERO
    ties = 0
    remaining = moves
    while remaining:
        move = remaining & (~remaining + _ONE)
        remaining ^= move
        # Afterstate value minus the current value, from the mover's point of view.
        value = weight_sum(tables, move) + 2 * weight_sum(tables, flips_ir(player, opponent, move))
        if value > best_value:
            best_value = value
            best_move = move
            ties = 1
        elif value == best_value:
            ties += 1
            if rng_below(rng, ties) == 0:
                best_move = move
    return best_move


@njit(cache=True)
def choose_move(player, opponent, moves, tables, is_random, epsilon, rng):
    """The move (single-bit bitboard) of a random or epsilon-greedy 1-ply WPC player."""
    if is_random:
        return nth_move(moves, rng_below(rng, popcount(moves)))
    if epsilon > 0.0 and rng_random(rng) < epsilon:
        return nth_move(moves, rng_below(rng, popcount(moves)))
    return greedy_move(player, opponent, moves, tables, rng)


@njit(cache=True)
def play_game(black_tables, black_random, white_tables, white_random, epsilon, rng):
    """One game from the start position; returns Black's discs minus White's discs."""
    player = START_BLACK
    opponent = START_WHITE
    black_to_move = True
    while True:
        moves = legal_moves(player, opponent)
        if moves == _ZERO:
            if legal_moves(opponent, player) == _ZERO:
                break  # neither side can move: game over
            player, opponent = opponent, player  # pass
            black_to_move = not black_to_move
            continue
        if black_to_move:
            move = choose_move(player, opponent, moves, black_tables, black_random, epsilon, rng)
        else:
            move = choose_move(player, opponent, moves, white_tables, white_random, epsilon, rng)
        player, opponent = play(player, opponent, move)
        black_to_move = not black_to_move
    disc_difference = popcount(player) - popcount(opponent)
    return disc_difference if black_to_move else -disc_difference


@njit(cache=True)
def play_match(tables_a, random_a, tables_b, random_b, epsilon, n_games, rng):
    """``n_games`` games of A against B, colours alternating (A Black first).

    Returns ``int64[3]``: A's wins, draws, losses.
    """
    outcome = np.zeros(3, dtype=np.int64)
    for game in range(n_games):
        if game % 2 == 0:
            a_minus_b = play_game(tables_a, random_a, tables_b, random_b, epsilon, rng)
        else:
            a_minus_b = -play_game(tables_b, random_b, tables_a, random_a, epsilon, rng)
        if a_minus_b > 0:
            outcome[0] += 1
        elif a_minus_b == 0:
            outcome[1] += 1
        else:
            outcome[2] += 1
    return outcome


@njit(cache=True)
def play_match_fixed_colours(black_tables, black_random, white_tables, white_random, epsilon,
                             n_games, rng):
    """``n_games`` games with the same colours each time; Black's wins, draws, losses."""
    outcome = np.zeros(3, dtype=np.int64)
    for _ in range(n_games):
        black_minus_white = play_game(black_tables, black_random, white_tables, white_random,
                                      epsilon, rng)
        if black_minus_white > 0:
            outcome[0] += 1
        elif black_minus_white == 0:
            outcome[1] += 1
        else:
            outcome[2] += 1
    return outcome
