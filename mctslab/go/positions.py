"""The shipped 9x9 positions of the state-tabu notebook's veto-rate table
(``data/go-positions/9x9/``): how they are made, so that ``mctslab go positions`` makes them
again move for move.

Position i: four random opening moves (NumPy seed ``20261125 + i``, away from the first line),
then GNU Go 3.8 level 10 against itself (Chinese rules, komi 6.5, seeds ``2i+1`` for Black and
``2i+2`` for White) up to move 20, played by the package's one game loop
(:func:`mctslab.go.game.play_game`, the opening moves given to it as each side's first
moves); saved as the 20 moves' SGF. GNU Go plays almost the same 9x9 game from the empty board
whatever its seed, hence the random start. Needs GNU Go 3.8 (``scripts/ensure-gnugo``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mctslab.datasets import write_checksums
from mctslab.go import gnugo, sgf
from mctslab.go.api import Board
from mctslab.go.game import play_game

__all__ = ["MOVES", "OPENING", "SIZE", "KOMI", "OPENING_SEED", "opening", "position", "write"]

MOVES, OPENING, SIZE, KOMI = 20, 4, 9, 6.5
OPENING_SEED = 2026_1125  # position i's opening: NumPy seed OPENING_SEED + i
LEVEL = 10
DATE = "2026-11-25"  # the day the shipped set was made (its files' DT)


def opening(i: int) -> list:
    """Position i's random opening: :data:`OPENING` legal moves off the first line."""
    rng = np.random.default_rng(OPENING_SEED + i)
    board = Board(SIZE, komi=KOMI)
    while board.move_number < OPENING:
        moves = [m for m in board.legal_moves(board.to_move)
                 if 0 < m[0] < SIZE - 1 and 0 < m[1] < SIZE - 1]
        board.play(board.to_move, moves[rng.integers(len(moves))])
    return list(board.moves)


class _Opening:
    """A GTP engine whose first moves of the game are given: its ``genmove`` answers them (and
    plays them on the engine) until they run out; every other command passes through."""

    def __init__(self, engine, moves):
        self.engine, self.moves, self.count = engine, moves, 0

    def genmove(self, color, timeout=None):
        if self.count < len(self.moves):
            move = self.moves[self.count][1]
            self.engine.play(color, move)
        else:
            move = self.engine.genmove(color, timeout=timeout)
        self.count += 1
        return move

    def play(self, color, move) -> None:
        self.engine.play(color, move)
        self.count += 1

    def __getattr__(self, name):
        return getattr(self.engine, name)


def position(i: int) -> list:
    """The moves of position i (see the module docstring); RuntimeError if GNU Go resigns."""
    start = opening(i)
    engines = [gnugo.gnugo(level=LEVEL, seed=2 * i + k, komi=KOMI, size=SIZE) for k in (1, 2)]
    try:
        record = play_game(_Opening(engines[0], start), _Opening(engines[1], start), size=SIZE,
                           komi=KOMI, max_moves=MOVES)
    finally:
        for engine in engines:
            engine.close()
    if record.end == "resign":
        raise RuntimeError(f"position {i}: GNU Go resigned at move {len(record.moves) + 1}")
    return record.moves


def write(out, count: int = 100) -> int:
    """Positions 0..count-1 as ``out/posNNN.sgf``, then the checksums of ``out``'s parent
    (:func:`mctslab.datasets.write_checksums`); returns the files it lists."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        sgf.save_game(out / f"pos{i:03d}.sgf", SIZE, KOMI, position(i),
                      root_props={"PB": f"GNU Go 3.8 level {LEVEL}",
                                  "PW": f"GNU Go 3.8 level {LEVEL}",
                                  "GN": f"mctslab 9x9 position {i}", "DT": DATE},
                      settings={"opening": f"{OPENING} random moves, seed {OPENING_SEED + i}",
                                "gnugo_seeds": f"{2 * i + 1}, {2 * i + 2}"})
    return write_checksums(out.parent)
