"""Go matches between our players and GNU Go (beyond the paper): the knowledge-based
player (:mod:`mctslab.manyfaces.player`), our MCTS engine (``mctslab go gtp``'s, optionally with
the pattern prior of :mod:`mctslab.manyfaces.prior`) and GNU Go, in any pairing.

The games are the Go package's (:mod:`mctslab.go.match`: one game loop, one game task, one
summary for every Go match of the project): each game is a task (stored as soon as it
finishes, so a killed run resumes; runnable in parallel); the candidate's colour alternates
from game to game. Our players are :class:`~mctslab.go.gtp.GtpServer` objects driven
in-process, built by :func:`side_server`; GNU Go always referees (``final_score``, Chinese
rules, its own dead-stone judgement), being also the player when a side is ``"gnugo"``; a GNU
Go failure replays the game with a fresh process.

Reading guide: :class:`Side` (who plays, as a :class:`~mctslab.go.match.Player` of the game
loop) -> :func:`side_server` (its engine for one game) -> :func:`match_tasks` (the games of a
match) -> :func:`play_match` (run or read from the store; wins, by colour, the
Clopper-Pearson 95% interval, the binomial p-value against 0.5, mean length) ->
:func:`match_table` (several matches as one ``pandas.DataFrame``).
"""

from __future__ import annotations

import io
import math
from dataclasses import asdict, dataclass
from pathlib import Path

from mctslab.core.executor import run_tasks
from mctslab.core.rounding import round_table
from mctslab.core.stats import win_rate_table
from mctslab.go import match as go_match
from mctslab.go.api import vertex
from mctslab.go.gtp import EngineSettings, GtpServer
from mctslab.manyfaces.player import KnowledgeGtpServer
from mctslab.manyfaces.prior import PriorGtpServer

__all__ = ["KINDS", "Side", "side_server", "match_tasks", "play_match", "summary",
           "match_table"]

KINDS = ("knowledge", "mcts", "gnugo")
FACTORY = "mctslab.manyfaces.player_match:side_server"


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
        """The fields this side's kind uses."""
        return asdict(self) if self.kind == "mcts" else {"kind": self.kind}

    def player(self, gnugo_level: int = 0) -> go_match.Player:
        """This side as a player of the Go game loop: GNU Go at ``gnugo_level``, or an
        in-process engine built by :func:`side_server`."""
        if self.kind == "gnugo":
            return go_match.Player("gnugo", level=gnugo_level)
        return go_match.Player(f"manyfaces-{self.kind}", factory=FACTORY,
                               options=self.params(), name=_sgf_name(self))

    @classmethod
    def from_player(cls, player: go_match.Player) -> Side:
        return cls("gnugo") if player.kind == "gnugo" else cls(**dict(player.options))

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


def side_server(player: go_match.Player, size: int, komi: float, seed: int) -> GtpServer:
    """The in-process GTP engine of a knowledge or MCTS :class:`Side` (``player.options``: the
    side's fields), built for one game by :func:`mctslab.go.match.game_task`; the knowledge
    player's reasons for each move are kept for the game's record (``game_notes``)."""
    side = Side(**dict(player.options))
    if side.kind == "knowledge":
        server = _quiet(KnowledgeGtpServer, EngineSettings(size=size, komi=komi, seed=seed))
        reasons: list[str] = []
        choose = server.choose_move

        def choose_move(color, cleanup=False):
            move = choose(color, cleanup)
            reasons.append(f"{server.board.move_number + 1} {vertex(move, server.size)}: "
                           + "; ".join(server.last.reasons))
            return move

        server.choose_move = choose_move
        server.game_notes = lambda: {"reasons": list(reasons)}
        return server
    return _quiet(PriorGtpServer, EngineSettings(
        size=size, komi=komi, playouts=side.playouts, policy=side.policy, seed=seed,
        resign=side.resign, root_select=side.root_select),
        prior_visits=side.prior_visits, careful_pass=side.careful_pass)


def _quiet(cls, settings, **kw):
    return cls(settings, stdin=io.BytesIO(), stdout=io.BytesIO(), stderr=io.StringIO(), **kw)


def _sgf_name(side: Side) -> str:
    if side.kind == "knowledge":
        return "mctslab-manyfaces knowledge player"
    prior = f", pattern prior {side.prior_visits} visits" if side.prior_visits else ""
    return f"mctslab MCTS {side.playouts} playouts {side.policy}{prior}"


def match_tasks(opponent="gnugo", games: int = 20, *, candidate="knowledge", size: int = 9,  # noqa: PLR0913 - the match's settings plus the playouts/policy/resign shorthand for an "mcts" side, which docs/bench/manyfaces.md's commands use
                komi: float = 7.5, gnugo_level: int = 0, playouts: int = 1000,
                policy: str = "light", resign: float = 0.1, timeout: float = 120.0,
                seed: int = 0) -> list:
    """``games`` tasks of ``candidate`` against ``opponent`` (each a :class:`Side` or a kind
    name; ``"mcts"`` takes ``playouts``, ``policy``, ``resign``) for the Go game loop
    (:func:`mctslab.go.match.game_task`), GNU Go at ``gnugo_level`` refereeing, the
    candidate's colour alternating (B, W, B, ...): adding games keeps the earlier games' seeds
    and results."""
    mcts = dict(playouts=playouts, policy=policy, resign=resign)
    cand, opp = _side(candidate, **mcts), _side(opponent, **mcts)
    return go_match.match_tasks(cand.player(gnugo_level), opp.player(gnugo_level), games,
                                size=size, komi=komi, referee_level=gnugo_level,
                                timeout=timeout, seed=seed)


def _sides(task) -> tuple[Side, Side]:
    return tuple(Side.from_player(go_match.Player.from_params(task.params[who]))
                 for who in ("candidate", "opponent"))


def play_match(opponent="gnugo", games: int = 20, *, candidate="knowledge", workers: int = 1,
               out=None, experiment: str | None = None, sgf_dir: str | Path | None = None,
               progress: bool = False, run=None, **settings) -> dict:
    """Play (or read from the result store) :func:`match_tasks`' games (``settings``: its
    keywords); returns :func:`summary` with ``played`` (games played by this call; the rest
    came from the store). The store is ``experiment`` (default ``manyfaces_<candidate
    kind>_<opponent kind>``) under ``out``. ``sgf_dir``: write each game there as
    ``<opponent kind>-<i>-<candidate's colour>.sgf``. ``run``: a notebook's
    :class:`~mctslab.core.report.Run`, whose executor and store play the games instead."""
    if games < 1:
        raise ValueError(f"a match needs at least one game, got {games}")
    tasks = match_tasks(opponent, games, candidate=candidate, **settings)
    cand, opp = _sides(tasks[0])
    experiment = experiment or f"manyfaces_{cand.kind}_{opp.kind}"
    results = run.map(experiment, tasks) if run is not None else run_tasks(
        experiment, tasks, workers=workers, out=out, progress=progress)
    if sgf_dir is not None:
        Path(sgf_dir).mkdir(parents=True, exist_ok=True)
        for i, (task, r) in enumerate(zip(tasks, results)):
            Path(sgf_dir, f"{opp.kind}-{i:03d}-{task.params['color']}.sgf").write_text(r["sgf"])
    return dict(summary(tasks, results), played=results.ran)


def summary(tasks, results) -> dict:
    """A match's games (:func:`mctslab.go.match.summary`: wins, by colour, Clopper-Pearson 95%
    interval, binomial p against 0.5, mean length and margin) under the sides' labels, with
    the candidate's and opponent's settings and the per-game results."""
    level = tasks[0].params["referee_level"]
    cand, opp = _sides(tasks[0])
    out = go_match.summary(tasks, results)
    out.update(candidate=cand.label(level), opponent=opp.label(level),
               mean_margin=math.nan if out["mean_margin"] is None else out["mean_margin"],
               settings=dict(candidate=cand.params(), opponent=opp.params(),
                             gnugo_level=level, size=tasks[0].params["size"],
                             komi=tasks[0].params["komi"]),
               results=list(results))
    return out


def match_table(matches):
    """:func:`play_match` results as one table, a row per match (the package's win-rate table,
    :func:`mctslab.core.stats.win_rate_table`): candidate, opponent, as B / as W
    (wins/games), wins, games, rate, ci_low, ci_high (Clopper-Pearson 95%), p_value (binomial,
    0.5), significant, mean_moves, mean_margin; rounded for citing (rates 3 decimals, p and
    means 3 significant digits: ``core.rounding``), the results keep full precision."""
    rows = []
    for m in matches:
        n_black = m["games_as_black"]
        rows.append(dict(candidate=m["candidate"], opponent=m["opponent"],
                         as_black=f"{m['wins_as_black']}/{n_black}",
                         as_white=f"{m['wins_as_white']}/{m['games'] - n_black}",
                         wins=m["wins"], games=m["games"], mean_moves=m["mean_moves"],
                         mean_margin=m["mean_margin"]))
    table = win_rate_table(rows)
    return round_table(table, {}, {"mean_moves": 3, "mean_margin": 3}) if len(table) else table
