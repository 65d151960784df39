"""Matches of the knowledge-based player (:mod:`mctslab.manyfaces.player`) against GNU Go
and against our MCTS engine (``mctslab go gtp``'s), issue 13 "beyond the paper".

Each game is a task (:mod:`mctslab.core.tasks`: resumable through the result store, runnable
in parallel); our colour alternates from game to game. Both our player and the MCTS engine
are :class:`~mctslab.go.gtp.GtpServer` objects driven in-process (:class:`InProcessEngine`) by
:func:`mctslab.go.gnugo.play_game`, the same game loop as GNU Go self-play; GNU Go always
referees (``final_score``, Chinese rules, its own dead-stone judgement), being also the
opponent in the games against it. :func:`play_match` gives the win rate with its exact
(Clopper-Pearson) 95% interval and writes one SGF per game.
"""

from __future__ import annotations

import io
from pathlib import Path

from mctslab.go import gnugo, sgf
from mctslab.go.api import BLACK, WHITE, parse_vertex, vertex
from mctslab.go.gtp import EngineSettings, GtpServer
from mctslab.manyfaces.player import KnowledgeGtpServer

__all__ = ["InProcessEngine", "game_task", "match_tasks", "play_match"]
class InProcessEngine:
    """A :class:`~mctslab.go.gtp.GtpServer` driven in-process through the methods of
    :class:`~mctslab.go.gnugo.GtpEngine` that :func:`mctslab.go.gnugo.play_game` calls."""

    def __init__(self, server: GtpServer):
        self.server, self.size = server, server.size

    def send(self, command: str, timeout: float | None = None) -> str:
        reply = self.server.handle(command)
        if reply.startswith("?"):
            raise gnugo.GtpError(command, reply[1:].strip())
        return reply[1:].strip()

    def boardsize(self, size: int) -> None:
        self.send(f"boardsize {int(size)}")
        self.size = int(size)

    def clear_board(self) -> None:
        self.send("clear_board")

    def komi(self, komi: float) -> None:
        self.send(f"komi {komi}")

    def play(self, color, move) -> None:
        self.send(f"play {gnugo.gtp_color(color)} {vertex(move, self.size)}")

    def genmove(self, color, timeout: float | None = None):
        reply = self.send(f"genmove {gnugo.gtp_color(color)}")
        return "resign" if reply.lower() == "resign" else parse_vertex(reply, self.size)


def _quiet_server(cls, settings, **kw):
    return cls(settings, stdin=io.BytesIO(), stdout=io.BytesIO(), stderr=io.StringIO(), **kw)


def game_task(params: dict, seed) -> dict:
    """One game of :class:`KnowledgePlayer` (``params["ours"]``: "B"/"W") against
    ``params["opponent"]``: "gnugo" (GNU Go at ``gnugo_level``) or "mcts" (``mctslab go
    gtp``'s engine: ``playouts``, ``policy``, resigning below ``resign``). GNU Go referees
    (``final_score``: Chinese rules, its dead-stone judgement); a GNU Go failure replays the
    game with a fresh process (both sides are seeded per move), at most 3 times."""
    ours_seed, opp_seed, gnugo_seed = (int(v) % 2**31 for v in seed.generate_state(3))
    size, komi, ours = params["size"], params["komi"], BLACK if params["ours"] == "B" else WHITE
    argv = gnugo.gnugo_argv(level=params["gnugo_level"], seed=gnugo_seed, komi=komi, size=size)
    failures = []
    for _ in range(4):
        me = _quiet_server(KnowledgeGtpServer, EngineSettings(size=size, komi=komi,
                                                              seed=ours_seed))
        reasons = []
        me.choose_move = _recording(me, me.choose_move, reasons)
        try:
            with gnugo.GtpEngine(argv, timeout=params["timeout"]) as referee:
                opponent = referee if params["opponent"] == "gnugo" else InProcessEngine(
                    _quiet_server(GtpServer, EngineSettings(
                        size=size, komi=komi, playouts=params["playouts"],
                        policy=params["policy"], seed=opp_seed, resign=params["resign"])))
                players = {ours: InProcessEngine(me), 3 - ours: opponent}
                record = gnugo.play_game(players[BLACK], players[WHITE], size=size, komi=komi,
                                         referee=referee, genmove_timeout=params["timeout"])
                version = referee.send("version")
            break
        except gnugo.EngineFailure as exc:
            failures.append(str(exc))
    else:
        raise RuntimeError(f"GNU Go failed 4 times; the last: {failures[-1]}")
    opp_name = (f"GNU Go {version} level {params['gnugo_level']}" if params["opponent"] ==
                "gnugo" else f"mctslab MCTS {params['playouts']} playouts {params['policy']}")
    names = {ours: "mctslab-manyfaces knowledge player", 3 - ours: opp_name}
    text = sgf.game_bytes(size, komi, record.moves, result=record.result,
                          root_props={"PB": names[BLACK], "PW": names[WHITE]},
                          settings={**params, "ours_seed": ours_seed, "opp_seed": opp_seed,
                                    "gnugo_seed": gnugo_seed, "restarts": len(failures)})
    return dict(result=record.result, end=record.end, score=record.score,
                ours_won=bool(record.result) and record.result[0] == params["ours"],
                moves=len(record.moves), area_score=me.board.area_score(komi),
                restarts=len(failures), reasons=reasons, sgf=text.decode())


def _recording(server, choose, reasons):
    def choose_move(color, cleanup=False):
        move = choose(color, cleanup)
        reasons.append(f"{server.board.move_number + 1} {vertex(move, server.size)}: "
                       + "; ".join(server.last.reasons))
        return move
    return choose_move


def match_tasks(opponent: str, games: int, *, size: int = 9, komi: float = 7.5,
                gnugo_level: int = 0, playouts: int = 1000, policy: str = "light",
                resign: float = 0.1, timeout: float = 120.0, seed: int = 0) -> list:
    """``games`` game tasks, our colour alternating (B, W, B, ...): adding games keeps the
    earlier games' seeds and results."""
    from mctslab.core.tasks import make_tasks

    if opponent not in ("gnugo", "mcts"):
        raise ValueError(f"opponent must be 'gnugo' or 'mcts', got {opponent!r}")
    params = [dict(opponent=opponent, ours="BW"[i % 2], size=size, komi=komi,
                   gnugo_level=gnugo_level, playouts=playouts if opponent == "mcts" else 0,
                   policy=policy if opponent == "mcts" else "", resign=resign, timeout=timeout)
              for i in range(games)]
    return make_tasks("mctslab.manyfaces.player_match:game_task", params, seed=seed)


def play_match(opponent: str = "gnugo", games: int = 20, *, workers: int = 1, out=None,
               sgf_dir: str | Path | None = None, progress: bool = False, **settings) -> dict:
    """Play (or read from the result store) :func:`match_tasks`' games; returns the
    opponent, games, our wins (as Black / as White), win rate, its Clopper-Pearson 95%
    interval and the two-sided binomial p-value against 0.5, and the per-game results.
    ``sgf_dir``: write each game there as ``<opponent>-<i>-<our colour>.sgf``."""
    from mctslab.core.executor import run_tasks
    from mctslab.core.stats import binomial_test

    tasks = match_tasks(opponent, games, **settings)
    results = run_tasks(f"manyfaces_player_{opponent}", tasks, workers=workers, out=out,
                        progress=progress)
    if sgf_dir is not None:
        Path(sgf_dir).mkdir(parents=True, exist_ok=True)
        for i, (task, r) in enumerate(zip(tasks, results)):
            Path(sgf_dir, f"{opponent}-{i:03d}-{task.params['ours']}.sgf").write_text(r["sgf"])
    wins = sum(r["ours_won"] for r in results)
    test = binomial_test(wins, len(results))
    return dict(opponent=opponent, games=len(results), wins=wins,
                wins_as_black=sum(r["ours_won"] for t, r in zip(tasks, results)
                                  if t.params["ours"] == "B"),
                wins_as_white=sum(r["ours_won"] for t, r in zip(tasks, results)
                                  if t.params["ours"] == "W"),
                rate=test.rate, ci_low=test.ci_low, ci_high=test.ci_high, pvalue=test.pvalue,
                settings=dict(tasks[0].params) if tasks else {}, results=list(results))
