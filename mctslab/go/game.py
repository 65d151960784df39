"""One game between two GTP engines (GNU Go, ours over GTP, any other), from the empty board.

:func:`play_game` relays each ``genmove`` to the other engine with ``play`` until two passes, a
resignation or a move limit, and has a referee score it; :class:`GameRecord` is what it
returns; :func:`score_value` and :func:`result_text` read a GTP score. The engines are
:class:`mctslab.go.gnugo.GtpEngine` clients; :mod:`mctslab.go.match` plays matches of such games.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mctslab.go.api import vertex
from mctslab.go.gnugo import GtpEngine, GtpError

__all__ = ["RefusedMove", "GameRecord", "play_game", "result_text", "score_value"]


class RefusedMove(RuntimeError):
    """One engine refused the move the other generated (an illegal move in the game)."""


@dataclass
class GameRecord:
    """A game between two GTP engines: moves as ``(colour, (row, col) | None)``; ``end`` is
    ``"passes"``, ``"resign"`` or ``"max moves"``; ``result`` as SGF ``RE`` (``"B+R"``,
    ``"W+3.5"``; None when unscored); ``score`` the referee's ``final_score`` text."""
    size: int
    komi: float
    moves: list = field(default_factory=list)
    end: str = ""
    result: str | None = None
    score: str | None = None


def play_game(black: GtpEngine, white: GtpEngine, *, size: int = 19, komi: float = 6.5,
              max_moves: int | None = None, referee: GtpEngine | None = None,
              genmove_timeout: float | None = None) -> GameRecord:
    """Play one game from the empty board: each ``genmove`` is relayed with ``play`` to the
    other engine, until two passes, a resignation or ``max_moves`` (default 3 N^2). The
    ``referee`` (one of the two, or a third engine that is sent every move) scores a game ended
    by passes with ``final_score``. :class:`RefusedMove` if an engine rejects a move;
    :class:`EngineFailure` passes through (the caller restarts and replays the game)."""
    engines = {1: black, 2: white}
    everyone = []  # each distinct engine once (self-play: one engine for both colours)
    for engine in (black, white, referee):
        if engine is not None and all(engine is not other for other in everyone):
            everyone.append(engine)
    for engine in everyone:
        engine.boardsize(size)
        engine.clear_board()
        engine.komi(komi)
    record = GameRecord(size, komi)
    max_moves = 3 * size * size if max_moves is None else max_moves
    color, passes = 1, 0
    while len(record.moves) < max_moves:
        move = engines[color].genmove(color, timeout=genmove_timeout)
        if move == "resign":
            record.end, record.result = "resign", f"{'WB'[color - 1]}+R"
            return record
        for engine in everyone:
            if engine is engines[color]:
                continue
            try:
                engine.play(color, move)
            except GtpError as exc:
                raise RefusedMove(f"move {len(record.moves) + 1} ({'BW'[color - 1]} "
                                  f"{vertex(move, size)}) was refused: "
                                  f"{exc.message}") from None
        record.moves.append((color, move))
        passes = passes + 1 if move is None else 0
        if passes == 2:
            record.end = "passes"
            break
        color = 3 - color
    else:
        record.end = "max moves"
    if referee is not None:
        record.score = referee.final_score()
        record.result = result_text(record.score)
    return record


def result_text(score: str) -> str:
    """A GTP score as an SGF ``RE`` value: ``"B+3.5"``, ``"W+0.5"``, ``"0"`` for a draw."""
    value = score_value(score)
    return "0" if value == 0 else f"{'B' if value > 0 else 'W'}+{abs(value):g}"


def score_value(score: str) -> float:
    """``"B+3.5"`` -> 3.5, ``"W+0.5"`` -> -0.5, ``"0"`` -> 0.0 (Black's margin)."""
    text = score.strip().upper()
    if text in ("0", "DRAW", "JIGO"):
        return 0.0
    m = re.fullmatch(r"([BW])\+(\d+(?:\.\d*)?)", text)
    if m is None:
        raise ValueError(f"not a GTP score: {score!r}")
    value = float(m.group(2))
    return value if m.group(1) == "B" else -value
