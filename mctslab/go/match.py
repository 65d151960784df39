"""Go games between any two players, with one game loop: the state-tabu paper's Table 2, its
validation against GNU Go's own Monte-Carlo mode, and the Many Faces matches.

Reading guide: :class:`Player` (who plays) -> :func:`game_task` (one game, an executor task)
-> :func:`match_tasks` (a match: the games of one pairing, colours alternating) ->
:func:`summary` (wins, by colour, Clopper-Pearson 95% interval, binomial p against 0.5).

Players (:class:`Player`):

* ``"mcts"``: our engine (:class:`~mctslab.go.engine.EngineSettings`, pure UCT or hosted by
  GNU Go's classical move generation), a :class:`~mctslab.go.gtp.GtpServer` driven in-process
  (:class:`InProcessEngine`): the engine of ``mctslab go gtp`` with the same settings;
* ``"gnugo"``: classical GNU Go 3.8 at ``level``;
* ``"gnugo-mc"``: GNU Go 3.8's own Monte-Carlo mode (``--monte-carlo``), ``simulations`` per
  move at ``level`` (the paper's base engine minus its change of C;
  :func:`~mctslab.go.gnugo.gnugo_mc_argv`); on 19x19 it is never sent ``boardsize``;
* ``"gtp"``: any GTP engine, started with ``argv`` (another program: Pachi, michi-c; the
  tests' scripted engines); ``{seed}`` in an argument becomes the game's seed for that side;
  ``name`` (what the engine says it is, :mod:`mctslab.go.external`) gives its label;
* any other kind: an in-process engine built by ``factory`` (``"module:function"``, called as
  ``factory(player, size, komi, seed)`` and returning a ``GtpServer``), with the kind's
  settings in ``options`` (the Many Faces knowledge player).

The loop is :func:`mctslab.go.game.play_game`: each ``genmove`` is relayed with ``play`` to
the other engine (and to the referee) until two passes, a resignation or ``max_moves``. A
classical GNU Go at ``referee_level`` referees (``final_score``: Chinese rules, its own
dead-stone judgement): the opponent itself when it is classical GNU Go at that level, else a
third process fed every move. Our own Tromp-Taylor count of the final board (every stone alive)
is kept beside the referee's and a disagreement is counted, not hidden; the summary counts the
games each count gives the candidate (the *plain count*, :func:`mctslab.go.endgame.plain_winner`).

Seeds: each game's players and referee are seeded from the task's seed, so game ``i`` of two
matches built from the same match seed meets the same GNU Go (paired rows: McNemar). GNU Go
failures (crash, hang, garbage: :class:`~mctslab.go.gnugo.EngineFailure`) kill every engine and
replay the game from the start (every player is seeded per move, so the replay is the same game
up to the failure), at most ``max_restarts`` times; then :class:`MatchError`.

Time: per side the wall time of its ``genmove`` calls, and its CPU time (our process's for an
in-process engine, plus its host GNU Go's; a GNU Go process's own from ``/proc``).
"""

from __future__ import annotations

import io
import re
import time
from dataclasses import asdict, dataclass, field, fields

import numpy as np

from mctslab.core.stats import win_rate_row
from mctslab.core.tasks import make_tasks, resolve
from mctslab.go import endgame, gnugo, sgf, warmup, warmup_strong
from mctslab.go.api import BLACK, WHITE, Board
from mctslab.go.engine import STRONG_FIELDS, EngineSettings
from mctslab.go.game import GameRecord, RefusedMove, play_game, score_value
from mctslab.go.gtp import GtpServer

__all__ = ["KINDS", "EXPERIMENT_PREFIX", "Player", "InProcessEngine", "MatchError", "game_task", "match_tasks",
           "summary", "plain_counts", "restarting", "play_players"]

KINDS = ("mcts", "gnugo", "gnugo-mc", "gtp")  # built here; another kind needs a factory
# a match's store: data/results/go_match_<candidate>_vs_<opponent>/ (`mctslab go match --out`)
EXPERIMENT_PREFIX = "go_match_"
_GAME_FIELDS = ("size", "komi", "seed", "timeout")  # EngineSettings fields a game sets


class MatchError(RuntimeError):
    """A game that could not be played to its end (GNU Go kept failing, or a move was refused)."""


@dataclass(frozen=True)
class Player:
    """One side of a match (see the module docstring). ``engine``: our engine's settings
    (``"mcts"``; board size, komi and seed come from the game); ``level``: GNU Go's
    ``--level`` (``"gnugo"``, ``"gnugo-mc"``); ``simulations``: ``"gnugo-mc"``'s per move;
    ``argv``: a ``"gtp"`` engine's command line; ``factory``/``options``: another kind's
    builder and settings; ``name``: the player's name in game records (default: from the
    kind)."""

    kind: str = "mcts"
    engine: EngineSettings | None = None
    level: int = 10
    simulations: int = gnugo.MC_SIMULATIONS
    factory: str | None = None
    options: tuple = ()
    argv: tuple = ()
    name: str = ""

    def __post_init__(self):
        object.__setattr__(self, "argv", tuple(str(a) for a in self.argv))
        if self.kind == "gtp" and not self.argv:
            raise ValueError("a gtp player needs the engine's command line (argv)")
        if self.kind not in KINDS and self.factory is None:
            raise ValueError(f"a player is one of {', '.join(KINDS)} or has a factory, got "
                             f"{self.kind!r}")
        if self.kind == "mcts" and self.engine is None:
            object.__setattr__(self, "engine", EngineSettings())
        if isinstance(self.options, dict):
            object.__setattr__(self, "options", tuple(sorted(self.options.items())))
        level = gnugo.check_level(self.level)
        if self.kind == "gnugo-mc":
            per_level = self.simulations // max(level, 1)
            if per_level < 1 or per_level * max(level, 1) != self.simulations:
                raise ValueError(f"gnugo-mc: {self.simulations} simulations do not divide by "
                                 f"level {level} (GNU Go's budget is games per level x level)")

    def params(self) -> dict:
        """The task parameters of this player (only what its kind uses; JSON-friendly)."""
        if self.kind == "mcts":
            engine = {f.name: getattr(self.engine, f.name) for f in fields(EngineSettings)
                      if f.name not in _GAME_FIELDS}
            if engine["host_argv"] is None:
                del engine["host_argv"]
            for name, default in STRONG_FIELDS.items():  # recorded task ids stay
                if engine[name] == default:
                    del engine[name]
            return {"kind": "mcts", "engine": engine}
        if self.kind == "gnugo":
            return {"kind": "gnugo", "level": self.level}
        if self.kind == "gnugo-mc":
            return {"kind": "gnugo-mc", "level": self.level, "simulations": self.simulations}
        if self.kind == "gtp":  # a name only when given: the ids of unnamed engines stay
            return {"kind": "gtp", "argv": list(self.argv), **({"name": self.name}
                                                                if self.name else {})}
        return {"kind": self.kind, "factory": self.factory, "options": dict(self.options),
                "name": self.name}

    @classmethod
    def from_params(cls, params: dict) -> Player:
        params = dict(params)
        if params.get("kind", "mcts") == "mcts":
            engine = dict(params.get("engine", {}))
            if engine.get("host_argv") is not None:
                engine["host_argv"] = tuple(engine["host_argv"])
            return cls("mcts", engine=EngineSettings(**engine))
        options = params.pop("options", {})
        argv = tuple(params.pop("argv", ()))
        return cls(**params, options=tuple(sorted(options.items())), argv=argv)

    @property
    def label(self) -> str:
        """Short name for tables: ``gnugo-uct``, ``gTabu18-hash-win+gnugo10``, ``gnugo-L10``,
        ``gnugo-mc-L1``, a named GTP engine's name as one word (``Pachi-12.84-a1b2c3d4``), or
        the kind."""
        if self.kind == "mcts":
            return self.engine.label
        if self.kind == "gnugo":
            return f"gnugo-L{self.level}"
        if self.kind == "gnugo-mc":
            tail = "" if self.simulations == gnugo.MC_SIMULATIONS else f"-{self.simulations}"
            return f"gnugo-mc-L{self.level}{tail}"
        if self.kind == "gtp" and self.name:
            return re.sub(r"[^A-Za-z0-9.+_-]+", "-", self.name).strip("-")[:80]
        return self.kind


class InProcessEngine(gnugo.GtpCommands):
    """A :class:`~mctslab.go.gtp.GtpServer` driven in-process through the GTP commands the game
    loop sends; its failures propagate (a GNU Go failure inside it restarts the game, a bug is
    an error, never a ``?`` reply)."""

    def __init__(self, server: GtpServer):
        self.server, self.size = server, server.size
        server.propagate_errors = True

    def send(self, command: str, timeout: float | None = None) -> str:
        reply = self.server.handle(command)
        if reply.startswith("?"):
            raise gnugo.GtpError(command, reply[1:].strip())
        return reply[1:].strip()

    def cpu_seconds(self) -> float:
        """CPU of the engine's host GNU Go (our own search's is timed by :class:`_Timed`)."""
        return self.server.host.cpu_seconds() if self.server.host is not None else 0.0

    def close(self) -> None:
        self.server.close()


class _Timed:
    """An engine whose ``genmove`` calls are timed: wall ``seconds`` and, for an in-process
    engine, this process's CPU ``cpu``; everything else passes through. A refusal or failure
    of the engine names ``who`` it is (a side and its label, or the referee)."""

    def __init__(self, engine, in_process: bool, who: str = ""):
        self.engine, self.in_process, self.who = engine, in_process, who
        self.seconds = self.cpu = 0.0

    def _named(self, call, *args, **kw):
        try:
            return call(*args, **kw)
        except gnugo.GtpError as exc:
            raise gnugo.GtpError(exc.command, f"{exc.message} ({self.who})") from None
        except gnugo.EngineFailure as exc:
            raise type(exc)(f"{exc} ({self.who})") from None

    def genmove(self, color, timeout=None):
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            return self._named(self.engine.genmove, color, timeout=timeout)
        finally:
            self.seconds += time.perf_counter() - wall
            if self.in_process:
                self.cpu += time.process_time() - cpu

    def total_cpu(self) -> float | None:
        """CPU seconds of this side: ours in-process plus its GNU Go process(es)."""
        other = self.engine.cpu_seconds()
        return None if other is None else self.cpu + other

    def __getattr__(self, name):
        value = getattr(self.engine, name)
        if not callable(value) or name in ("close", "kill", "cpu_seconds"):
            return value
        return lambda *args, **kw: self._named(value, *args, **kw)


def _open(player: Player, *, size: int, komi: float, seed: int, timeout: float):
    """A started engine for ``player`` (a GtpEngine subprocess or an InProcessEngine)."""
    if player.kind == "gnugo":
        return gnugo.GtpEngine(gnugo.gnugo_argv(level=player.level, seed=seed, komi=komi,
                                                size=size), timeout=timeout)
    if player.kind == "gnugo-mc":
        argv = gnugo.gnugo_mc_argv(level=player.level, simulations=player.simulations,
                                   seed=seed, komi=komi, size=size)
        return gnugo.GtpEngine(argv, timeout=timeout, fixed_size=19 if size == 19 else None)
    if player.kind == "gtp":  # {seed}: the game's seed for this side
        return gnugo.GtpEngine([a.replace("{seed}", str(seed)) for a in player.argv],
                               timeout=timeout)
    if player.kind == "mcts":
        settings = EngineSettings(**{**asdict(player.engine), "size": size, "komi": komi,
                                     "seed": seed, "timeout": timeout})
        server = GtpServer(settings, stdin=io.BytesIO(), stdout=io.BytesIO(),
                           stderr=io.StringIO())
        return InProcessEngine(server)
    server = resolve(player.factory)(player, size, komi, seed)
    return InProcessEngine(server)


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
    raise MatchError(f"an engine failed {len(failures)} times in a row (the game was replayed "
                     f"after each); the last: {failures[-1]}")


def _decisions(engine) -> dict:
    """The host engine's per-game counts: moves it searched, vetoed (played another move than
    GNU Go's classical one), fuseki moves, the mean shortlist size; tabu candidates."""
    if not isinstance(engine, InProcessEngine):
        return {}
    server = engine.server
    searched = [d for d in server.decisions if d["searched"]]
    out = {"tabu_candidates": server.tabu_candidates}
    notes = getattr(server, "game_notes", None)  # an engine's own record of the game
    if callable(notes):
        out.update(notes())
    if server.settings.classical == "gnugo":
        out.update(host_moves=len(server.decisions), searched=len(searched),
                   vetoes=sum(d["move"] != d["classical"] for d in searched),
                   fuseki=sum(d["fuseki"] for d in server.decisions),
                   mean_shortlist=float(np.mean([d["shortlist"] for d in searched]))
                   if searched else None,
                   host_restarts=server.host.restarts if server.host is not None else 0)
    return out


@dataclass
class _Game:
    record: GameRecord
    version: str
    sides: dict = field(default_factory=dict)  # colour -> dict of times and counts


def play_players(black: Player, white: Player, *, size: int = 19, komi: float = 6.5,
                 seeds=(0, 0, 0), referee_level: int = 10, timeout: float = 300.0,
                 max_moves: int | None = None, max_restarts: int = 3,
                 referee_argv: list[str] | None = None) -> tuple[_Game, list]:
    """Play one game of ``black`` against ``white`` (seeds: Black's, White's, the referee's);
    returns the game and the failures that restarted it. ``referee_argv`` replaces the
    referee's command line (tests)."""
    # our kernels compiled (or loaded) before the game's clock starts: a cold cache would count
    # as the first game's thinking time (once per process: the package's compile_once warm-ups)
    for player in (black, white):
        if player.kind == "mcts":
            (warmup_strong if player.engine.engine == "strong" else warmup)()
    players = {BLACK: black, WHITE: white}

    def play():
        engines = {}
        try:
            for color, seed in ((BLACK, seeds[0]), (WHITE, seeds[1])):
                engines[color] = _open(players[color], size=size, komi=komi, seed=seed,
                                       timeout=timeout)
            timed = {c: _Timed(e, isinstance(e, InProcessEngine),
                               f"{'Black' if c == BLACK else 'White'}, {players[c].label}")
                     for c, e in engines.items()}
            referee = extra = None
            for color in (BLACK, WHITE):  # the opponent referees when it is GNU Go at that level
                if players[color].kind == "gnugo" and players[color].level == referee_level \
                        and referee_argv is None:
                    referee = timed[color]
            if referee is None:
                argv = referee_argv or gnugo.gnugo_argv(level=referee_level, seed=seeds[2],
                                                        komi=komi, size=size)
                extra = gnugo.GtpEngine(argv, timeout=timeout)
                engines["referee"] = extra
                referee = _Timed(extra, False, f"the referee, GNU Go level {referee_level}")
            try:
                record = play_game(timed[BLACK], timed[WHITE], size=size, komi=komi,
                                         max_moves=max_moves, referee=referee,
                                         genmove_timeout=timeout)
            except (RefusedMove, gnugo.GtpError) as exc:  # a refusal is no engine failure
                raise MatchError(str(exc)) from None
            sides = {c: dict(think=t.seconds, cpu=t.total_cpu(), **_decisions(t.engine))
                     for c, t in timed.items()}
            return _Game(record, referee.send("version"), sides)
        finally:
            for engine in engines.values():
                engine.close()

    return restarting(play, max_restarts)


def game_task(params: dict, seed) -> dict:
    """One game of ``params["candidate"]`` (playing ``params["color"]``, "B"/"W") against
    ``params["opponent"]`` (each :meth:`Player.params`) on ``size`` x ``size`` with ``komi``,
    refereed by GNU Go at ``referee_level``. Returns the result (SGF ``RE``), how it ended,
    ``candidate_won``, the candidate's margin by the referee's count (None after a
    resignation), moves, our Tromp-Taylor count of the final board (Black's margin, every
    stone alive) and whether it names the referee's winner, each side's thinking time and CPU
    time, the candidate's host-engine counts, restarts and the SGF text (undated: the day a
    stored game was played is not part of its result; whoever writes it out dates it)."""
    cand_seed, opp_seed, referee_seed = (int(v) % 2**31 for v in seed.generate_state(3))
    candidate = Player.from_params(params["candidate"])
    opponent = Player.from_params(params["opponent"])
    cand_color = BLACK if params["color"] == "B" else WHITE
    players = {cand_color: candidate, 3 - cand_color: opponent}
    seeds = {cand_color: cand_seed, 3 - cand_color: opp_seed}
    size, komi = params["size"], params["komi"]
    game, failures = play_players(players[BLACK], players[WHITE], size=size, komi=komi,
                                  seeds=(seeds[BLACK], seeds[WHITE], referee_seed),
                                  referee_level=params["referee_level"],
                                  timeout=params["timeout"], max_moves=params.get("max_moves"))
    record = game.record
    names = {c: _sgf_name(p, game.version) for c, p in players.items()}
    board = Board(size, komi=komi)
    for color, move in record.moves:
        board.play(color, move)
    area = board.area_score()
    winner = record.result[0] if record.result and record.result[0] in "BW" else None
    margin = None
    if record.score is not None:
        margin = score_value(record.score) * (1 if cand_color == BLACK else -1)
    text = sgf.game_bytes(size, komi, record.moves, result=record.result, date=None,
                          root_props={"PB": names[BLACK], "PW": names[WHITE]},
                          settings={**_flat(params), "candidate_seed": cand_seed,
                                    "opponent_seed": opp_seed, "referee_seed": referee_seed,
                                    "restarts": len(failures)})
    cand, opp = game.sides[cand_color], game.sides[3 - cand_color]
    return dict(result=record.result, end=record.end, winner=winner,
                candidate_won=winner == params["color"], score=record.score, margin=margin,
                moves=len(record.moves), area_score=area,
                area_agrees=None if record.end == "resign" or winner is None
                else (area > 0) == (winner == "B"),
                think_candidate=cand["think"], think_opponent=opp["think"],
                cpu_candidate=cand["cpu"], cpu_opponent=opp["cpu"],
                candidate_counts={k: v for k, v in cand.items() if k not in ("think", "cpu")},
                restarts=len(failures), failures=failures, gnugo_version=game.version,
                sgf=text.decode())


def _flat(params: dict) -> dict:
    """Task parameters as flat ``key=value`` settings for the SGF root."""
    out = {}
    for key, value in params.items():
        if isinstance(value, dict):
            for k, v in _flat(value).items():
                out[f"{key}.{k}"] = v
        else:
            out[key] = value
    return out


def _sgf_name(player: Player, version: str) -> str:
    if player.name:
        return player.name
    if player.kind == "gnugo":
        return f"GNU Go {version} level {player.level}"
    if player.kind == "gnugo-mc":
        return (f"GNU Go {version} --monte-carlo level {player.level}, "
                f"{player.simulations} simulations")
    if player.kind == "gtp":
        return f"GTP engine {player.argv[0]}"
    if player.kind == "mcts":
        e = player.engine
        if e.engine == "strong":
            return (f"mctslab strong {e.playouts} {e.policy} playouts, rave {e.rave}, priors "
                    f"{e.priors or 'none'}")
        host = f", hosted by GNU Go level {e.gnugo_level}" if e.classical == "gnugo" else ""
        return f"mctslab {e.config} {e.playouts} {e.policy} playouts, C {e.c:g}{host}"
    return f"mctslab {player.kind}"


def match_tasks(candidate: Player, opponent: Player, games: int, *, size: int = 19,
                komi: float = 6.5, referee_level: int = 10, timeout: float = 300.0,
                max_moves: int | None = None, seed: int = 0) -> list:
    """``games`` :func:`game_task` tasks, the candidate's colour alternating (B, W, B, ...);
    game ``i`` is seeded ``SeedSequence(seed, spawn_key=(i,))`` whatever the players, so two
    matches with the same ``seed`` pair up game by game, and adding games keeps the earlier
    games' seeds and results."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"a match needs at least one game, got {games!r}")
    base = dict(candidate=candidate.params(), opponent=opponent.params(), size=size, komi=komi,
                referee_level=referee_level, timeout=timeout)
    if max_moves is not None:
        base["max_moves"] = max_moves
    params = [dict(base, color="BW"[i % 2]) for i in range(games)]
    return make_tasks("mctslab.go.match:game_task", params, seed=seed)


def plain_counts(tasks, results) -> dict:
    """The plain count of a match's games (:func:`mctslab.go.endgame.plain_winner`: every
    stone alive, Tromp-Taylor, komi; a resignation loses by any count): ``plain_games`` (games
    whose plain count is known: all but stored games without their final board),
    ``plain_wins`` of the candidate and their rate and Clopper-Pearson 95% interval,
    ``wins_plain_too`` (the referee's wins that are wins by the plain count too) and
    ``plain_share_of_wins`` (their share of the referee's wins; None without wins)."""
    plain = []
    for task, result in zip(tasks, results):
        winner = endgame.plain_winner(result)
        plain.append(None if winner is None else winner == task.params["color"])
    known = sum(won is not None for won in plain)
    wins = sum(won is True for won in plain)
    both = sum(bool(r["candidate_won"]) and won is True for r, won in zip(results, plain))
    referee_wins = sum(bool(r["candidate_won"]) for r in results)
    rate = win_rate_row(wins, known) if known else {}
    return dict(plain_games=known, plain_wins=wins,
                plain_rate=rate.get("rate"),
                plain_ci_low=rate.get("ci_low"),
                plain_ci_high=rate.get("ci_high"),
                wins_plain_too=both,
                plain_share_of_wins=both / referee_wins if referee_wins else None)


def summary(tasks, results) -> dict:
    """A match's games: labels, games, wins (as Black / as White), rate, Clopper-Pearson 95%
    interval, two-sided binomial p against 0.5 (all by the referee's count), the same wins by
    the plain count (:func:`plain_counts`), mean length, mean margin over the games scored
    by the referee, mean thinking and CPU seconds per game of each side, restarts, area-count
    disagreements and the host engine's veto counts."""
    first = tasks[0].params
    wins = sum(bool(r["candidate_won"]) for r in results)
    rate = win_rate_row(wins, len(results))
    colors = [t.params["color"] for t in tasks]
    margins = [r["margin"] for r in results if r.get("margin") is not None]

    def mean(key):
        values = [r[key] for r in results if r.get(key) is not None]
        return float(np.mean(values)) if values else None

    counts = [r.get("candidate_counts", {}) for r in results]
    searched = sum(c.get("searched", 0) for c in counts)
    return dict(candidate=Player.from_params(first["candidate"]).label,
                opponent=Player.from_params(first["opponent"]).label,
                games=len(results), wins=wins,
                games_as_black=colors.count("B"),
                wins_as_black=sum(bool(r["candidate_won"]) for c, r in zip(colors, results)
                                  if c == "B"),
                wins_as_white=sum(bool(r["candidate_won"]) for c, r in zip(colors, results)
                                  if c == "W"),
                rate=rate["rate"], ci_low=rate["ci_low"], ci_high=rate["ci_high"],
                pvalue=rate["p_value"],
                mean_moves=mean("moves"),
                mean_margin=float(np.mean(margins)) if margins else None,
                think_candidate=mean("think_candidate"), think_opponent=mean("think_opponent"),
                cpu_candidate=mean("cpu_candidate"), cpu_opponent=mean("cpu_opponent"),
                restarts=sum(r.get("restarts", 0) for r in results),
                area_disagrees=sum(r.get("area_agrees") is False for r in results),
                searched=searched, vetoes=sum(c.get("vetoes", 0) for c in counts),
                tabu_candidates=sum(c.get("tabu_candidates", 0) for c in counts),
                **plain_counts(tasks, results))
