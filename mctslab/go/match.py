"""Games of our engine (in-process) against GNU Go 3.8 over GTP: the state-tabu paper's Table 2.

One game (:func:`play_vs_gnugo`): our engine plays ``ours`` (Black or White) with a named
configuration (Table 1: ``gnugo-uct``, ``gTabu0``, ``gTabu18``, ``gTabu18-hash``,
``gTabu18-hash-win``, any ``gTabuL[-hash[-win]]``), GNU Go the other colour with
``--level L --seed S --chinese-rules --komi K``. The game ends at two consecutive passes, a
resignation or ``max_moves``. GNU Go referees (``final_score``: area scoring, dead stones as it
judges them); our own Tromp-Taylor area score of the final board (every stone alive) is kept
beside it and a disagreement on the winner is counted, not hidden.

Failures: a GNU Go that crashes, stops answering within ``timeout`` or answers garbage
(:class:`~mctslab.go.gnugo.EngineFailure`) is killed and the game is replayed from the start
with a fresh GNU Go (our engine is seeded per move, so the replay is the same game up to the
failure); ``restarts`` counts these. After ``max_restarts`` the game raises
:class:`MatchError` naming the last failure; it is never scored silently.

Our side: each move is one :func:`mctslab.go.api.search` (seed ``(seed, move number)``); the
root move is the best win rate (the paper); we pass when the search finds nothing better than
a pass, or when GNU Go has just passed and our area count already wins; we resign when the
chosen move's win rate is below ``resign`` (0: never, the paper's games went to the end).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from . import gnugo, sgf
from .api import BLACK, WHITE, Board, IllegalMove, search, vertex
from .tabu import parse_config

__all__ = ["EngineSettings", "MatchError", "play_vs_gnugo", "play_gnugo_self", "GNUGO_SELF",
           "restarting"]

GNUGO_SELF = "gnugo"  # Table 1's first row: GNU Go against itself (no engine of ours)


class MatchError(RuntimeError):
    """A game that could not be played to its end (GNU Go kept failing, or a move was refused)."""


@dataclass(frozen=True)
class EngineSettings:
    """Our engine: a Table 1 configuration and the search settings of every move."""

    config: str = "gnugo-uct"
    playouts: int = 8000
    c: float = 1.5
    expansion_threshold: int | None = None  # None: the configuration's (1 or 30)
    policy: str = "light"
    root_select: str = "winrate"
    resign: float = 0.0

    def tabu(self):
        if self.config == GNUGO_SELF:
            return None
        config = parse_config(self.config, playouts=self.playouts, c=self.c,
                              expansion_threshold=self.expansion_threshold)
        return config


def _our_move(board: Board, settings: EngineSettings, tabu, seed: int, opponent_passed: bool):
    result = search(board, settings.playouts, policy=settings.policy, c=settings.c,
                    expansion_threshold=tabu.expansion_threshold,
                    root_select=settings.root_select, tabu=tabu,
                    seed=np.random.SeedSequence([seed, board.move_number]))
    move = result.move
    mine = board.to_move
    if opponent_passed:
        margin = board.area_score()
        if (margin > 0) == (mine == BLACK) and margin != 0:
            move = None  # the count already wins: end the game
    if settings.resign > 0 and result.win_rate < settings.resign and \
            board.move_number > board.size * board.size // 4:
        move = "resign"
    return move, result


_WARM: set = set()  # (policy, tabu kind, update) already compiled in this process


def _warm(settings: EngineSettings, tabu) -> None:
    """Compile (or load from numba's cache) the search kernels these settings use, before the
    game's clock starts: a cold cache costs a minute or more on the first move, which would
    otherwise count as the first game's thinking time (Fig. 6)."""
    key = (settings.policy, tabu.kind, tabu.update)
    if key not in _WARM:
        search(Board(5), 8, policy=settings.policy, tabu=tabu, seed=0,
               expansion_threshold=tabu.expansion_threshold)
        _WARM.add(key)


def _one_game(engine: gnugo.GtpEngine, settings: EngineSettings, ours: int, size: int,
              komi: float, seed: int, max_moves: int, genmove_timeout: float) -> dict:
    tabu = settings.tabu()
    _warm(settings, tabu)
    engine.boardsize(size)
    engine.clear_board()
    engine.komi(komi)
    board = Board(size, komi=komi)
    think = {BLACK: 0.0, WHITE: 0.0}
    candidates = 0
    end, result = "max moves", None
    passes = 0
    while board.move_number < max_moves:
        color = board.to_move
        start = time.perf_counter()
        if color == ours:
            move, found = _our_move(board, settings, tabu, seed, passes == 1)
            candidates += found.tabu_candidates
        else:
            move = engine.genmove(color, timeout=genmove_timeout)
        think[color] += time.perf_counter() - start
        if move == "resign":
            end, result = "resign", f"{'WB'[color - 1]}+R"
            break
        try:
            if color == ours:
                engine.play(color, move)
            board.play(color, move)
        except (gnugo.GtpError, IllegalMove) as exc:
            who = "GNU Go refused ours" if color == ours else "GNU Go played an illegal move"
            raise MatchError(f"move {board.move_number + 1} ({'BW'[color - 1]} "
                             f"{vertex(move, size)}): {who}: {exc}") from None
        passes = passes + 1 if move is None else 0
        if passes == 2:
            end = "passes"
            break
    gnugo_score = None if end == "resign" else engine.final_score(timeout=genmove_timeout)
    return dict(_outcome(board, ours, result or gnugo.result_text(gnugo_score), end, gnugo_score),
                think_ours=think[ours], think_gnugo=think[3 - ours], tabu_candidates=candidates)


def _outcome(board: Board, ours: int, result: str, end: str, gnugo_score) -> dict:
    """A finished game's result fields: the referee's ``result`` (SGF ``RE``) and winner,
    whether ``ours`` won, and our Tromp-Taylor count of ``board`` (every stone alive) beside
    it, with whether it names the same winner (None after a resignation)."""
    area = board.area_score()
    winner = result[0] if result[0] in "BW" else None
    return dict(result=result, end=end, winner=winner, ours_won=winner == "BW"[ours - 1],
                gnugo_score=gnugo_score, area_score=area,
                area_agrees=None if end == "resign" else (area > 0) == (winner == "B"),
                moves=board.move_number, record=[(c, m) for c, m in board.moves])


def restarting(play, max_restarts: int):
    """``play()`` until no :class:`~mctslab.go.gnugo.EngineFailure` (each failure restarts it:
    the game is replayed from the start); returns its value and the failures. After
    ``max_restarts`` restarts, :class:`MatchError` naming the last failure."""
    failures = []
    for _ in range(max_restarts + 1):
        try:
            return play(), failures
        except gnugo.EngineFailure as exc:
            failures.append(str(exc))
    raise MatchError(f"GNU Go failed {len(failures)} times in a row; the last: {failures[-1]}")


def _finish(game: dict, sgf_path, size: int, komi: float, names: dict, settings: dict) -> dict:
    """Save ``game`` as SGF at ``sgf_path`` (if given; players ``names``, ``settings`` in the
    root) and make its record JSON-friendly."""
    if sgf_path is not None:
        sgf.save_game(sgf_path, size, komi, game["record"], result=game["result"],
                      root_props={"PB": names[BLACK], "PW": names[WHITE]},
                      settings={**settings, "restarts": game["restarts"],
                                "gnugo_score": game["gnugo_score"],
                                "area_score": game["area_score"]})
        game["sgf"] = str(sgf_path)
    game["record"] = [(c, None if m is None else list(m)) for c, m in game["record"]]
    return game


def play_vs_gnugo(settings: EngineSettings, *, ours: int, size: int = 19, komi: float = 6.5,
                  gnugo_level: int = 10, gnugo_seed: int = 0, seed: int = 0,
                  max_moves: int | None = None, timeout: float = 120.0,
                  max_restarts: int = 3, sgf_path: str | Path | None = None,
                  argv: list[str] | None = None) -> dict:
    """Play one game; returns its result dict (see the module docstring), with ``restarts``
    and, when ``sgf_path`` is given, the game saved there with every setting in its root.

    ``argv`` replaces GNU Go's command line (tests use a misbehaving fake engine). The
    configuration ``"gnugo"`` (:data:`GNUGO_SELF`) is the paper's self-play row: "our" side is
    then a second GNU Go (see :func:`play_gnugo_self`)."""
    if ours not in (BLACK, WHITE):
        raise ValueError(f"ours must be BLACK (1) or WHITE (2), got {ours!r}")
    if settings.config == GNUGO_SELF:
        return play_gnugo_self(ours=ours, size=size, komi=komi, gnugo_level=gnugo_level,
                               gnugo_seed=gnugo_seed, seed=seed, max_moves=max_moves,
                               timeout=timeout, max_restarts=max_restarts, sgf_path=sgf_path,
                               argv=argv)
    settings.tabu()  # a bad configuration name fails here, before GNU Go starts
    max_moves = 3 * size * size if max_moves is None else max_moves
    argv = argv or gnugo.gnugo_argv(level=gnugo_level, seed=gnugo_seed, komi=komi, size=size)

    def play():
        with gnugo.GtpEngine(argv, timeout=timeout) as engine:
            game = _one_game(engine, settings, ours, size, komi, seed, max_moves, timeout)
            return game, engine.send("version")

    (game, version), failures = restarting(play, max_restarts)
    game.update(restarts=len(failures), failures=failures, gnugo_version=version)
    names = {ours: f"mctslab {settings.config}", 3 - ours: f"GNU Go {version} level "
             f"{gnugo_level}"}
    return _finish(game, sgf_path, size, komi, names,
                   {**asdict(settings), "gnugo_level": gnugo_level, "gnugo_seed": gnugo_seed,
                    "seed": seed, "ours": "BW"[ours - 1]})


class _Timed:
    """A GTP engine whose ``genmove`` calls are timed (``seconds``); everything else passes
    through, so :func:`gnugo.play_game` can drive it."""

    def __init__(self, engine: gnugo.GtpEngine):
        self.engine, self.seconds = engine, 0.0

    def genmove(self, color, timeout=None):
        start = time.perf_counter()
        try:
            return self.engine.genmove(color, timeout=timeout)
        finally:
            self.seconds += time.perf_counter() - start

    def __getattr__(self, name):
        return getattr(self.engine, name)


def play_gnugo_self(*, ours: int, size: int = 19, komi: float = 6.5, gnugo_level: int = 10,
                    gnugo_seed: int = 0, seed: int = 0, max_moves: int | None = None,
                    timeout: float = 120.0, max_restarts: int = 3,
                    sgf_path: str | Path | None = None, argv: list[str] | None = None) -> dict:
    """The paper's "gnugo (self)" row: GNU Go 3.8 against GNU Go 3.8 at the same level, "ours"
    being the one started with ``--seed seed`` and playing colour ``ours``, the other with
    ``--seed gnugo_seed``, which referees (``final_score``). Returns the same dict as
    :func:`play_vs_gnugo` (``tabu_candidates`` 0, our area score of the final board beside the
    referee's); a failing engine restarts both and replays the game, counted in ``restarts``.
    """
    if ours not in (BLACK, WHITE):
        raise ValueError(f"ours must be BLACK (1) or WHITE (2), got {ours!r}")
    max_moves = 3 * size * size if max_moves is None else max_moves
    theirs = argv or gnugo.gnugo_argv(level=gnugo_level, seed=gnugo_seed, komi=komi, size=size)
    mine = argv or gnugo.gnugo_argv(level=gnugo_level, seed=seed % 2**31, komi=komi, size=size)
    def play():
        with gnugo.GtpEngine(mine, timeout=timeout) as a, \
                gnugo.GtpEngine(theirs, timeout=timeout) as b:
            us, them = _Timed(a), _Timed(b)
            engines = {ours: us, 3 - ours: them}
            try:
                record = gnugo.play_game(engines[BLACK], engines[WHITE], size=size, komi=komi,
                                         max_moves=max_moves, referee=them,
                                         genmove_timeout=timeout)
            except gnugo.RefusedMove as exc:
                raise MatchError(f"GNU Go self-play: {exc}") from None
            return record, us.seconds, them.seconds, b.send("version")

    (record, think_ours, think_theirs, version), failures = restarting(play, max_restarts)
    board = Board(size, komi=komi)
    for color, move in record.moves:
        board.play(color, move)
    game = dict(_outcome(board, ours, record.result, record.end, record.score),
                think_ours=think_ours, think_gnugo=think_theirs, tabu_candidates=0,
                restarts=len(failures), failures=failures, gnugo_version=version)
    names = {ours: f"GNU Go {version} level {gnugo_level} seed {seed % 2**31}",
             3 - ours: f"GNU Go {version} level {gnugo_level} seed {gnugo_seed}"}
    return _finish(game, sgf_path, size, komi, names,
                   {"config": GNUGO_SELF, "gnugo_level": gnugo_level, "gnugo_seed": gnugo_seed,
                    "seed": seed % 2**31, "ours": "BW"[ours - 1]})
