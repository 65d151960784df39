"""Go matches between our players and GNU Go (issue 13, beyond the paper): the knowledge-based
player (:mod:`mctslab.manyfaces.player`), our MCTS engine (``mctslab go gtp``'s, optionally with
the pattern prior of :mod:`mctslab.manyfaces.prior`) and GNU Go, in any pairing.

Each game is a task (:mod:`mctslab.core.tasks`: stored as soon as it finishes, so a killed run
resumes; runnable in parallel); the candidate's colour alternates from game to game. Our
players are :class:`~mctslab.go.gtp.GtpServer` objects driven in-process
(:class:`InProcessEngine`) by :func:`mctslab.go.gnugo.play_game`, the same game loop as GNU Go
self-play; GNU Go always referees (``final_score``, Chinese rules, its own dead-stone
judgement), being also the player when a side is ``"gnugo"``; a GNU Go failure replays the game
with a fresh process.

Reading guide: :class:`Side` (who plays) -> :func:`game_task` (one game) -> :func:`match_tasks`
(the games of a match) -> :func:`play_match` (run or read from the store; wins, by colour, the
Clopper-Pearson 95% interval, the binomial p-value against 0.5, mean length) ->
:func:`match_table` (several matches as one ``pandas.DataFrame``).
"""

from __future__ import annotations

import io
import math
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from mctslab.go import gnugo, sgf
from mctslab.go.api import BLACK, WHITE, Board, vertex
from mctslab.go.gtp import EngineSettings, GtpServer
from mctslab.go.match import restarting

__all__ = ["KINDS", "Side", "InProcessEngine", "game_task", "match_tasks", "play_match",
           "match_table"]

KINDS = ("knowledge", "mcts", "gnugo")


@dataclass(frozen=True)
class Side:
    """One player of a match. ``kind``: ``"knowledge"`` (:class:`~mctslab.manyfaces.player.
    KnowledgePlayer`), ``"mcts"`` (``mctslab go gtp``'s engine: ``playouts``, ``policy``,
    resigning below the root win rate ``resign`` (0: never), root move by ``root_select``;
    ``prior_visits`` > 0 adds the pattern prior with that many virtual visits;
    ``careful_pass``: pass only when our count wins or nothing else is left, see
    :class:`~mctslab.manyfaces.prior.PriorGtpServer`) or ``"gnugo"`` (GNU Go at the match's
    ``gnugo_level``; the other fields are ignored)."""

    kind: str = "mcts"
    playouts: int = 1000
    policy: str = "light"
    prior_visits: int = 0
    resign: float = 0.1
    root_select: str = "visits"
    careful_pass: bool = False

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"a side must be one of {KINDS}, got {self.kind!r}")

    def params(self) -> dict:
        """The task parameters of this side (only what its kind uses)."""
        return asdict(self) if self.kind == "mcts" else {"kind": self.kind}

    def label(self, gnugo_level: int = 0) -> str:
        """Short name for tables: ``knowledge``, ``gnugo-level0``, ``mcts-light-1000+prior20``."""
        if self.kind == "mcts":
            tail = f"+prior{self.prior_visits}" if self.prior_visits else ""
            return f"mcts-{self.policy}-{self.playouts}{tail}"
        return f"gnugo-level{gnugo_level}" if self.kind == "gnugo" else self.kind


def _side(spec, **mcts) -> Side:
    """``spec`` as a :class:`Side`: a Side, its params dict, or a kind name (``"mcts"`` then
    takes ``mcts``: the match's ``playouts``/``policy``/``resign`` shorthand)."""
    if isinstance(spec, Side):
        return spec
    if isinstance(spec, dict):
        return Side(**spec)
    return Side(spec, **mcts) if spec == "mcts" else Side(spec)


class InProcessEngine(gnugo.GtpCommands):
    """A :class:`~mctslab.go.gtp.GtpServer` driven in-process through the GTP commands
    :func:`mctslab.go.gnugo.play_game` calls (:class:`~mctslab.go.gnugo.GtpCommands`)."""

    def __init__(self, server: GtpServer):
        self.server, self.size = server, server.size

    def send(self, command: str, timeout: float | None = None) -> str:
        reply = self.server.handle(command)
        if reply.startswith("?"):
            raise gnugo.GtpError(command, reply[1:].strip())
        return reply[1:].strip()


def _quiet(cls, settings, **kw):
    return cls(settings, stdin=io.BytesIO(), stdout=io.BytesIO(), stderr=io.StringIO(), **kw)


def _server(side: Side, size: int, komi: float, seed: int) -> GtpServer:
    """The in-process GTP engine of a knowledge or MCTS side."""
    if side.kind == "knowledge":
        from mctslab.manyfaces.player import KnowledgeGtpServer

        return _quiet(KnowledgeGtpServer, EngineSettings(size=size, komi=komi, seed=seed))
    from mctslab.manyfaces.prior import PriorGtpServer

    return _quiet(PriorGtpServer, EngineSettings(
        size=size, komi=komi, playouts=side.playouts, policy=side.policy, seed=seed,
        resign=side.resign, root_select=side.root_select),
        prior_visits=side.prior_visits, careful_pass=side.careful_pass)


def _sgf_name(side: Side, gnugo_version: str, gnugo_level: int) -> str:
    if side.kind == "gnugo":
        return f"GNU Go {gnugo_version} level {gnugo_level}"
    if side.kind == "knowledge":
        return "mctslab-manyfaces knowledge player"
    prior = f", pattern prior {side.prior_visits} visits" if side.prior_visits else ""
    return f"mctslab MCTS {side.playouts} playouts {side.policy}{prior}"


def game_task(params: dict, seed) -> dict:
    """One game of ``params["candidate"]`` (playing ``params["color"]``, "B"/"W") against
    ``params["opponent"]`` (each a :meth:`Side.params` dict) on ``size`` x ``size`` with
    ``komi``. GNU Go at ``gnugo_level`` referees (``final_score``: Chinese rules, its dead-stone
    judgement) and plays a ``"gnugo"`` side; a GNU Go failure replays the game with a fresh
    process (every side is seeded per move), at most 3 times. Returns the result (SGF ``RE``),
    how it ended, ``candidate_won``, the candidate's margin by GNU Go's count (None after a
    resignation), moves, the Tromp-Taylor ``area_score`` of the final board (Black's margin,
    every stone alive), restarts, the candidate's reasons (knowledge player only) and the SGF."""
    cand_seed, opp_seed, gnugo_seed = (int(v) % 2**31 for v in seed.generate_state(3))
    size, komi, level = params["size"], params["komi"], params["gnugo_level"]
    candidate, opponent = Side(**params["candidate"]), Side(**params["opponent"])
    cand_color = BLACK if params["color"] == "B" else WHITE
    argv = gnugo.gnugo_argv(level=level, seed=gnugo_seed, komi=komi, size=size)
    reasons: list[str] = []

    def play():
        reasons.clear()
        with gnugo.GtpEngine(argv, timeout=params["timeout"]) as referee:
            engines = {}
            for color, side, side_seed in ((cand_color, candidate, cand_seed),
                                           (3 - cand_color, opponent, opp_seed)):
                if side.kind == "gnugo":
                    engines[color] = referee
                    continue
                server = _server(side, size, komi, side_seed)
                if side.kind == "knowledge" and color == cand_color:
                    server.choose_move = _recording(server, server.choose_move, reasons)
                engines[color] = InProcessEngine(server)
            record = gnugo.play_game(engines[BLACK], engines[WHITE], size=size, komi=komi,
                                     referee=referee, genmove_timeout=params["timeout"])
            return record, referee.send("version")

    (record, version), failures = restarting(play, max_restarts=3)
    names = {cand_color: _sgf_name(candidate, version, level),
             3 - cand_color: _sgf_name(opponent, version, level)}
    text = sgf.game_bytes(size, komi, record.moves, result=record.result,
                          root_props={"PB": names[BLACK], "PW": names[WHITE]},
                          settings={**params, "candidate_seed": cand_seed, "opponent_seed": opp_seed,
                                    "gnugo_seed": gnugo_seed, "restarts": len(failures)})
    margin = None
    if record.score is not None:
        margin = gnugo.score_value(record.score) * (1 if cand_color == BLACK else -1)
    return dict(result=record.result, end=record.end, score=record.score,
                candidate_won=bool(record.result) and record.result[0] == params["color"],
                margin=margin, moves=len(record.moves),
                area_score=Board.from_moves(size, record.moves, komi=komi).area_score(),
                restarts=len(failures), reasons=reasons, sgf=text.decode())


def _recording(server, choose, reasons):
    def choose_move(color, cleanup=False):
        move = choose(color, cleanup)
        reasons.append(f"{server.board.move_number + 1} {vertex(move, server.size)}: "
                       + "; ".join(server.last.reasons))
        return move
    return choose_move


def match_tasks(opponent="gnugo", games: int = 20, *, candidate="knowledge", size: int = 9,
                komi: float = 7.5, gnugo_level: int = 0, playouts: int = 1000,
                policy: str = "light", resign: float = 0.1, timeout: float = 120.0,
                seed: int = 0) -> list:
    """``games`` :func:`game_task` tasks of ``candidate`` against ``opponent`` (each a
    :class:`Side` or a kind name; ``"mcts"`` takes ``playouts``, ``policy``, ``resign``), the
    candidate's colour alternating (B, W, B, ...): adding games keeps the earlier games' seeds
    and results."""
    from mctslab.core.tasks import make_tasks

    mcts = dict(playouts=playouts, policy=policy, resign=resign)
    cand, opp = _side(candidate, **mcts), _side(opponent, **mcts)
    params = [dict(candidate=cand.params(), opponent=opp.params(), color="BW"[i % 2],
                   size=size, komi=komi, gnugo_level=gnugo_level, timeout=timeout)
              for i in range(games)]
    return make_tasks("mctslab.manyfaces.player_match:game_task", params, seed=seed)


def play_match(opponent="gnugo", games: int = 20, *, candidate="knowledge", workers: int = 1,
               out=None, experiment: str | None = None, sgf_dir: str | Path | None = None,
               progress: bool = False, run=None, **settings) -> dict:
    """Play (or read from the result store) :func:`match_tasks`' games (``settings``: its
    keywords); returns the candidate and opponent labels, games, the candidate's wins (as Black
    / as White), win rate, its Clopper-Pearson 95% interval, the two-sided binomial p-value
    against 0.5, the mean game length and the candidate's mean margin over the games counted
    by GNU Go (not resigned), the settings, ``played`` (games played by this call; the rest
    came from the store) and the per-game results. The store is ``experiment`` (default
    ``manyfaces_<candidate kind>_<opponent kind>``) under ``out``. ``sgf_dir``: write each game
    there as ``<opponent kind>-<i>-<candidate's colour>.sgf``. ``run``: a notebook's
    :class:`~mctslab.core.report.Run`, whose executor and store play the games instead."""
    from mctslab.core.executor import run_tasks

    if games < 1:
        raise ValueError(f"a match needs at least one game, got {games}")
    tasks = match_tasks(opponent, games, candidate=candidate, **settings)
    first = tasks[0].params
    cand, opp = Side(**first["candidate"]), Side(**first["opponent"])
    experiment = experiment or f"manyfaces_{cand.kind}_{opp.kind}"
    results = run.map(experiment, tasks) if run is not None else run_tasks(
        experiment, tasks, workers=workers, out=out, progress=progress)
    if sgf_dir is not None:
        Path(sgf_dir).mkdir(parents=True, exist_ok=True)
        for i, (task, r) in enumerate(zip(tasks, results)):
            Path(sgf_dir, f"{opp.kind}-{i:03d}-{task.params['color']}.sgf").write_text(r["sgf"])
    return dict(summary(tasks, results), played=results.ran)


def summary(tasks, results) -> dict:
    """A match's games as :func:`play_match` reports them (without ``played``)."""
    from mctslab.core.stats import binomial_test

    first = tasks[0].params
    cand, opp = Side(**first["candidate"]), Side(**first["opponent"])
    wins = sum(r["candidate_won"] for r in results)
    test = binomial_test(wins, len(results))
    margins = [r["margin"] for r in results if r.get("margin") is not None]
    level = first["gnugo_level"]
    return dict(candidate=cand.label(level), opponent=opp.label(level), games=len(results),
                wins=wins,
                games_as_black=sum(t.params["color"] == "B" for t in tasks),
                wins_as_black=sum(r["candidate_won"] for t, r in zip(tasks, results)
                                  if t.params["color"] == "B"),
                wins_as_white=sum(r["candidate_won"] for t, r in zip(tasks, results)
                                  if t.params["color"] == "W"),
                rate=test.rate, ci_low=test.ci_low, ci_high=test.ci_high, pvalue=test.pvalue,
                mean_moves=float(np.mean([r["moves"] for r in results])),
                mean_margin=float(np.mean(margins)) if margins else math.nan,
                settings=dict(first), results=list(results))


def match_table(matches):
    """:func:`play_match` results as one table, a row per match: candidate, opponent, games,
    wins, as B / as W (wins/games), rate, ci_low, ci_high (Clopper-Pearson 95%), pvalue
    (binomial, 0.5), mean_moves, mean_margin; rounded for citing (rates 3 decimals, p and
    means 3 significant digits: ``core.rounding``), the results keep full precision."""
    import pandas as pd

    from mctslab.core.rounding import round_table

    rows = []
    for m in matches:
        n_black = m["games_as_black"]
        rows.append(dict(candidate=m["candidate"], opponent=m["opponent"], games=m["games"],
                         wins=m["wins"], as_black=f"{m['wins_as_black']}/{n_black}",
                         as_white=f"{m['wins_as_white']}/{m['games'] - n_black}",
                         rate=m["rate"], ci_low=m["ci_low"], ci_high=m["ci_high"],
                         pvalue=m["pvalue"], mean_moves=m["mean_moves"],
                         mean_margin=m["mean_margin"]))
    return round_table(pd.DataFrame(rows), {"rate": 3, "ci_low": 3, "ci_high": 3},
                       {"pvalue": 3, "mean_moves": 3, "mean_margin": 3})
