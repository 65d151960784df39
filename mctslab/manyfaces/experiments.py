"""The Many Faces of Go paper's claims as measurements (notebook ``manyfaces_knowledge``;
brief ``docs/papers/many-faces-knowledge.md``): scales, ``Config``, the census task
(``census_task``), the runners (``run_*``: the census and the games beyond the paper, tasks
through the notebook's ``Run``) and what the notebook measures in its own process, without
tasks (the matcher's cost chain, time shares, influence fields). The tables are
:mod:`mctslab.manyfaces.tables`, the figures :mod:`mctslab.manyfaces.figures`.

The paper (Fotland 1993) has no result tables: its claims are statements about structures
and costs. Each becomes a table or a figure here, next to the paper's figure:

* :func:`cost_chain` - the pattern matcher's cost chain (naive -> 8-bit hash -> near the
  last move -> early exit), paper vs our counters and wall times on real positions;
* :func:`run_census` (tasks through the executor, one per game: replay with every structure
  maintained, the consistency checker after every move, connection and eye-shape counts
  every ``census_every`` moves; tabulated by ``tables.census_tables``);
* :func:`time_shares` - share of run time by component over game replays (paper: eye
  potential 7%, pattern matching 1.5%);
* :func:`run_strength` - beyond the paper: the knowledge-based player (:mod:`.player`) against
  GNU Go and our MCTS engine, and MCTS with the pattern prior (:mod:`.prior`) against the same
  MCTS without it and against GNU Go (games through the executor, GNU Go referees);
  :func:`run_prior` - the prior's rows of :func:`run_strength` alone (longer runs in
  ``docs/bench/manyfaces.md``).

The joseki DAG, the influence and territory estimates, the enclosed-field claim and the
agreement with GNU Go's regression suites are tables of :mod:`mctslab.manyfaces.tables`.

Scales: ``smoke`` (seconds), ``default`` (a few dozen games), ``paper`` (all 2,000 games in
the census and the checker).
"""

from __future__ import annotations

import csv
import dataclasses
import time
from collections import Counter
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mctslab import data
from mctslab.core import targets
from mctslab.core.params import config_values, positive_int
from mctslab.core.tasks import make_tasks
from mctslab.go import sgf
from mctslab.go.api import Board
from mctslab.go.gnugo import gnugo_missing
from mctslab.manyfaces.api import Matcher
from mctslab.manyfaces.knowledge import (
    COMPONENTS,
    InfluenceField,
    Knowledge,
    check,
    influence_field,
)
from mctslab.manyfaces.patterns import compile_patterns, load_default
from mctslab.manyfaces.player_match import Side, match_table, play_match

__all__ = ["SCALES", "PAPER_COST", "Config", "config", "game_paths", "census_task",
           "cost_chain", "influence_positions", "influence_fields", "time_shares", "run_census",
           "run_strength", "run_prior"]

SCALES = {
    "smoke": dict(census_games=2, cost_positions=2, incremental_moves=5, replay_games=1,
                  census_every=25, influence_positions=2, strength_games=2, strength_size=7,
                  strength_playouts=200),
    "default": dict(census_games=40, cost_positions=20, incremental_moves=20, replay_games=3,
                    census_every=10, influence_positions=3, strength_games=4, strength_size=9,
                    strength_playouts=1000),
    "paper": dict(census_games=2000, cost_positions=100, incremental_moves=50, replay_games=10,
                  census_every=10, influence_positions=3, strength_games=100, strength_size=9,
                  strength_playouts=1000),
}

PAPER_COST = [  # (stage, patterns tried per window, points, operations per board)
    # the paper's operation counts are read from mctslab/manyfaces/targets.csv (core.targets)
    ("naive: 1000 patterns x 361 points x 16 transformations x 48 ops", "1000 x 16", 361,
     targets.value("manyfaces_knowledge", "Pattern matcher", "naive match, per board",
                   "operations")),
    ("+ 8-bit hash prefilter (~1/20 of the patterns)", "~50 x 16", 361, None),
    ("+ re-match near the last move only (~50 points)", "~50 x 16", 50, None),
    ("+ 32 bits at a time with early exit (~6 ops)", "~50 x 16", 50,
     targets.value("manyfaces_knowledge", "Pattern matcher",
                   "every speed-up, per incremental update", "operations")),
]


@dataclass(frozen=True)
class Config:
    scale: str
    census_games: int         # games in the census and the consistency check (paper: 2,000)
    cost_positions: int       # real positions for the matcher cost chain
    incremental_moves: int    # incremental updates timed after each cost position
    replay_games: int         # games replayed for the time shares
    census_every: int         # census of connections and eyes every k moves
    influence_positions: int  # positions in the influence figure
    strength_games: int       # beyond the paper: games per pairing of :func:`strength`
    strength_size: int        # their board size (komi 7.5)
    strength_playouts: int    # the MCTS engine's playouts per move in them
    gnugo_level: int = 0      # GNU Go's level in them
    prior_visits: int = 20    # virtual visits of the pattern prior (Gelly & Silver 2007)


def config(scale: str = "default", **overrides) -> Config:
    """The configuration of ``scale``; a ``None`` override keeps the scale's value."""
    values = config_values(Config, SCALES, scale, overrides, what="manyfaces parameter")
    cfg = Config(scale=scale, **values)
    for f in dataclasses.fields(Config):
        if f.name not in ("scale", "gnugo_level"):
            positive_int(f.name, getattr(cfg, f.name), minimum=5 if f.name == "strength_size"
                         else 1)
    if not 0 <= cfg.gnugo_level <= 10:
        raise ValueError(f"GNU Go levels are 0..10, got {cfg.gnugo_level!r}")
    if cfg.census_games > 2000:
        raise ValueError(f"census_games must be at most 2000 (the data set), got "
                         f"{cfg.census_games}")
    return cfg


def game_paths(n: int) -> list[str]:
    """``n`` games evenly spaced over ``data/go-games/manifest.csv`` (all 2,000 at n=2000),
    as paths relative to ``go-games``."""
    with open(data.find("go-games/manifest.csv"), newline="") as f:
        rows = [r["path"] for r in csv.DictReader(f)]
    idx = np.unique(np.linspace(0, len(rows) - 1, n).round().astype(int))
    return [rows[i] for i in idx]


def _moves(relpath: str):
    _, info = sgf.load(data.find(f"go-games/{relpath}"), 0)
    return info["moves"]


# ---------------------------------------------------------------- census (tasks)
def census_task(params: dict, seed) -> dict:
    """One game: replay with every structure maintained, :func:`knowledge.check` after every
    move, connection types/strengths and eye-space types/values counted every
    ``census_every`` moves."""
    moves = _moves(params["game"])
    every = int(params.get("census_every", 10))
    know = Knowledge(size=19)
    conn, eye = Counter(), Counter()
    mismatches, first = 0, None
    for i, (color, move) in enumerate(moves, start=1):
        know.play(color, move)
        bad = check(know)
        if bad:
            mismatches += 1
            first = first or f"move {i}: {bad[0]}"
        if i % every == 0:
            conn.update(f"{c.type}|{c.strength}" for c in know.connections())
            eye.update(f"{e.type}|{e.value.digits}" for e in know.eye_spaces())
    return dict(game=params["game"], moves=len(moves), checked=len(moves),
                mismatches=mismatches, first_mismatch=first, connections=dict(conn),
                eyes=dict(eye), seconds={k: round(v, 6) for k, v in know.seconds.items()})


def run_census(run, cfg: Config):
    """The census tasks (:func:`census_task`, one per game) through ``run.map``; results in
    game order (``tables.census_tables`` tabulates them)."""
    tasks = make_tasks("mctslab.manyfaces.experiments:census_task",
                       [dict(game=g, census_every=cfg.census_every)
                        for g in game_paths(cfg.census_games)], seed=run.seed)
    return run.map("manyfaces_census", tasks)


# ---------------------------------------------------------------- pattern matcher
def _positions(n: int, move: int = 100):
    """(board, next moves) at ``move`` of n evenly spaced games."""
    out = []
    for g in game_paths(n):
        moves = _moves(g)
        board = Board.from_moves(19, moves[:move])
        out.append((g, board, moves[move:]))
    return out


def cost_chain(cfg: Config) -> pd.DataFrame:
    """Operations per board for each stage of the paper's chain, ours measured with the
    matcher's counters on ``cost_positions`` real positions (move 100 of evenly spaced
    games; the incremental stages over the next ``incremental_moves`` moves)."""
    comp = compile_patterns(load_default())
    stages = [dict(use_hash=False, early_exit=False), dict(use_hash=True, early_exit=False),
              dict(use_hash=True, early_exit=False), dict(use_hash=True, early_exit=True)]
    sums = [Counter() for _ in stages]
    walls = [[] for _ in stages]
    counts = [0] * len(stages)
    full_walls = []
    for _, board, rest in _positions(cfg.cost_positions):
        for i, kw in enumerate(stages):
            m = Matcher(comp, 19, **kw)
            if i in (0, 1):
                m.set_board(board.stones())
                t0 = time.perf_counter()
                c = m.set_board(board.stones())
                walls[i].append(time.perf_counter() - t0)
                sums[i].update(c)
                counts[i] += 1
            else:
                b = board.copy()
                m.set_board(b.stones())
                if i == 3:   # the full match with every speed-up, for its wall time
                    t0 = time.perf_counter()
                    m.set_board(b.stones())
                    full_walls.append(time.perf_counter() - t0)
                for color, move in rest[:cfg.incremental_moves]:
                    b.play(color, move)
                    t0 = time.perf_counter()
                    c = m.update(b.stones())
                    walls[i].append(time.perf_counter() - t0)
                    sums[i].update(c)
                    counts[i] += 1
    rows = []
    for i, (stage, tried, points, paper_ops) in enumerate(PAPER_COST):
        s, n = sums[i], max(counts[i], 1)
        rows.append(dict(stage=stage, paper_patterns_tried=tried, paper_points=points,
                         paper_ops=paper_ops, ours_windows=s["windows"] / n,
                         ours_candidates=s["candidates"] / n,
                         ours_comparisons=s["comparisons"] / n, ours_ops=s["ops"] / n,
                         ours_ops_per_comparison=s["ops"] / max(s["comparisons"], 1),
                         ours_ms=1000 * float(np.mean(walls[i])), measured_over=n))
    rows.append(dict(stage="full match with every speed-up (wall time only)",
                     paper_patterns_tried="", paper_points=361, paper_ops=None,
                     ours_ms=1000 * float(np.mean(full_walls)), measured_over=len(full_walls)))
    df = pd.DataFrame(rows)
    df.attrs["patterns"] = comp.n_patterns
    df.attrs["tries"] = comp.n_tries
    return df


# ---------------------------------------------------------------- influence positions
def influence_positions(cfg: Config):
    """(game, move, moves) of the influence figure and the territory table: move 100 and the
    end of ``influence_positions`` evenly spaced games."""
    out = []
    for g in game_paths(max(cfg.influence_positions, 2))[:cfg.influence_positions]:
        moves = _moves(g)
        for move in (100, len(moves)):
            out.append((g, move, moves))
    return out


def influence_fields(cfg: Config) -> list[InfluenceField]:
    """The positions of :func:`influence_positions` analysed, for the influence figure."""
    return [influence_field(Knowledge(Board.from_moves(19, moves[:move])), g, move)
            for g, move, moves in influence_positions(cfg)]


# ---------------------------------------------------------------- time shares
def time_shares(cfg: Config) -> pd.DataFrame:
    """Replay ``replay_games`` games with every structure maintained, influence
    recomputed and the pattern matcher updated after each move; seconds and share per
    component. Paper: re-evaluating eye potential and escape points 7% (our groups component),
    pattern matching 1.5% (of a full program's time, search included, which this replay has
    not)."""
    comp = compile_patterns(load_default())
    seconds = dict.fromkeys(COMPONENTS, 0.0)
    seconds["pattern matching"] = 0.0
    moves_total = 0
    for g in game_paths(cfg.replay_games):
        moves = _moves(g)
        know = Knowledge(Board(19))
        matcher = Matcher(comp, 19)
        matcher.set_board(know.board.stones())
        for color, move in moves:
            know.play(color, move)
            t0 = time.perf_counter()
            matcher.update(know.board.stones())
            seconds["pattern matching"] += time.perf_counter() - t0
        for k, v in know.seconds.items():
            seconds[k] += v
        moves_total += len(moves)
    total = sum(seconds.values())
    paper = {"groups": "eye potential and escape points re-evaluated: 7%",
             "pattern matching": "1.5%"}
    rows = [dict(component=k, seconds=v, share_pct=100 * v / total,
                 ms_per_move=1000 * v / moves_total, paper=paper.get(k, ""))
            for k, v in seconds.items()]
    df = pd.DataFrame(rows)
    df.attrs["moves"] = moves_total
    return df


# ---------------------------------------------------------------- beyond the paper: games
def _pairings(cfg: Config) -> list:
    """(candidate, opponent) of every match of :func:`run_strength`; its k-th match is experiment
    ``manyfaces_strength_<k>``, seeded from ``run.seed + 100 + k``."""
    mcts = Side("mcts", playouts=cfg.strength_playouts, policy="light", resign=0.0,
                root_select="winrate", careful_pass=True)
    prior = dataclasses.replace(mcts, prior_visits=cfg.prior_visits)
    return [("knowledge", "gnugo"), ("knowledge", mcts), (prior, mcts), (prior, "gnugo"),
            (mcts, "gnugo")]


PRIOR_PAIRINGS = (2, 3, 4)  # the pairings of :func:`_pairings` that measure the pattern prior


def _matches(run, cfg: Config, which=None) -> pd.DataFrame:
    """The table of the pairings ``which`` (indices into :func:`_pairings`; None: all), or one
    row saying why when GNU Go (the referee of every game) is not installed."""
    reason = gnugo_missing()
    if reason:
        return pd.DataFrame({"skipped": [reason]})
    chosen = [(k, pair) for k, pair in enumerate(_pairings(cfg)) if which is None or k in which]
    return match_table([
        play_match(opponent, cfg.strength_games, candidate=candidate, run=run,
                   experiment=f"manyfaces_strength_{k}", size=cfg.strength_size, komi=7.5,
                   gnugo_level=cfg.gnugo_level, seed=run.seed + 100 + k)
        for k, (candidate, opponent) in chosen])


def run_strength(run, cfg: Config) -> pd.DataFrame:
    """Beyond the paper (issue 13): the knowledge-based player against GNU Go and against our
    MCTS engine, and MCTS with the pattern prior (``prior_visits`` virtual visits per root
    child) against the same MCTS without it and against GNU Go; each MCTS side searches
    ``strength_playouts`` light playouts, never resigns and passes only when its count wins.
    ``strength_games`` games per pairing on ``strength_size``, komi 7.5, colours alternating,
    GNU Go (``gnugo_level``) refereeing every game (:mod:`.player_match`). One row per pairing
    with the win rate's Clopper-Pearson 95% interval; one row saying why when GNU Go is not
    installed."""
    return _matches(run, cfg)


def run_prior(run, cfg: Config) -> pd.DataFrame:
    """The pattern prior's own measurement (issue 13): the last three rows of :func:`run_strength`,
    MCTS with the pattern prior against the same MCTS without it, and each of them against
    GNU Go, played as :func:`run_strength` plays them (the same stored tasks: after one, the other
    reads these games from the store). Longer runs: ``docs/bench/manyfaces.md``, "Pattern
    prior for MCTS"."""
    return _matches(run, cfg, PRIOR_PAIRINGS)
