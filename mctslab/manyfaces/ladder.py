"""Ladder reader: does a string with one or two liberties die in a ladder?

Many Faces of Go reads tactics (the paper's "tactical status") with a small search; the
ladder is its simplest case: the attacker always plays atari, the defender only escapes
by extending on the last liberty or by capturing an adjacent attacking string that is
in atari. The search plays and undoes moves on :class:`mctslab.go.api.Board` (its kernel
applies captures and ko; no second board) and computes liberties from ``Board.stones()``.

* :func:`read_ladder` — the defender's string at ``point``; attacker to move. One liberty:
  captured when the attacker can take it. Two: captured when some atari on one of them
  leaves every defence captured (recursively). Three or more: not a ladder (escaped).
* A line longer than ``max_plies`` counts as an escape (``LadderResult.exhausted``).

Coordinates are the Go board's ``(row, col)``, row 0 at the bottom.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mctslab.go.api import BLACK, EMPTY, WHITE, Board

__all__ = ["LadderResult", "read_ladder", "string_and_liberties"]

MAX_PLIES = 120       # a ladder across the board is about 2 x 18 moves; spare for captures


@dataclass(frozen=True)
class LadderResult:
    """``captured``: the attacker (to move) captures the string whatever it does;
    ``move``: the attacker's first move that does it (None if not captured);
    ``nodes``: positions visited; ``exhausted``: some line hit ``max_plies``."""

    captured: bool
    move: tuple[int, int] | None
    nodes: int
    exhausted: bool


def _neighbours(r: int, c: int, n: int):
    if r > 0:
        yield r - 1, c
    if r < n - 1:
        yield r + 1, c
    if c > 0:
        yield r, c - 1
    if c < n - 1:
        yield r, c + 1


def string_and_liberties(stones: np.ndarray, point) -> tuple[set, set]:
    """(stones of the string at ``point``, its liberties) on a ``Board.stones()`` array."""
    n = stones.shape[0]
    colour = stones[point]
    if colour == EMPTY:
        raise ValueError(f"no stone at {point!r}")
    string, libs, todo = {tuple(point)}, set(), [tuple(point)]
    while todo:
        r, c = todo.pop()
        for q in _neighbours(r, c, n):
            if stones[q] == EMPTY:
                libs.add(q)
            elif stones[q] == colour and q not in string:
                string.add(q)
                todo.append(q)
    return string, libs


class _Reader:
    def __init__(self, board: Board, point, max_plies: int):
        self.board = board
        self.point = tuple(point)
        self.max_plies = max_plies
        self.nodes = 0
        self.exhausted = False
        self.defender = int(board.stones()[self.point])
        self.attacker = WHITE if self.defender == BLACK else BLACK

    def _try(self, colour: int, move) -> bool:
        if not self.board.is_legal(colour, move):
            return False
        self.board.play(colour, move)
        self.nodes += 1
        return True

    def attack(self, plies: int) -> tuple[bool, tuple | None]:
        """Attacker to move: (captured, the move that captures or starts the ladder)."""
        stones = self.board.stones()
        if stones[self.point] != self.defender:
            return True, None                     # already captured
        _, libs = string_and_liberties(stones, self.point)
        if len(libs) >= 3:
            return False, None
        if plies >= self.max_plies:
            self.exhausted = True
            return False, None
        for move in sorted(libs):
            if not self._try(self.attacker, move):
                continue
            try:
                if len(libs) == 1 or not self.defend(plies + 1):
                    return True, move
            finally:
                self.board.undo()
        return False, None

    def defend(self, plies: int) -> bool:
        """Defender to move, its string in atari: True if some move saves it."""
        stones = self.board.stones()
        if stones[self.point] != self.defender:
            return False
        string, libs = string_and_liberties(stones, self.point)
        if len(libs) >= 2:
            return not self.attack(plies)[0]
        moves = set(libs)
        for r, c in string:                       # capture an adjacent attacker in atari
            for q in _neighbours(r, c, stones.shape[0]):
                if stones[q] == self.attacker:
                    _, their = string_and_liberties(stones, q)
                    if len(their) == 1:
                        moves |= their
        for move in sorted(moves):
            if not self._try(self.defender, move):
                continue
            try:
                if not self.attack(plies + 1)[0]:
                    return True
            finally:
                self.board.undo()
        return False


def read_ladder(board: Board, point, max_plies: int = MAX_PLIES) -> LadderResult:
    """Read the ladder on the string at ``point`` with its opponent to move.

    ``board`` is played on and restored (every move is undone). Raises ValueError when
    ``point`` is empty."""
    stones = board.stones()
    if stones[tuple(point)] == EMPTY:
        raise ValueError(f"no stone at {point!r}")
    reader = _Reader(board, point, max_plies)
    depth = len(board.moves)
    try:
        captured, move = reader.attack(0)
    finally:
        while len(board.moves) > depth:           # only if an exception cut the search
            board.undo()
    return LadderResult(captured, move if captured else None, reader.nodes, reader.exhausted)
