"""The Many Faces of Go paper's claims as measurements (notebook ``manyfaces_knowledge``;
brief ``docs/papers/many-faces-knowledge.md``): scales, ``Config``, the census task
(``census_task``) and the runners (``run_*``): every measurement is tasks through the
notebook's ``Run`` (stored at once, resumable, the kernels compiled first), the census's here
and the others' in :mod:`mctslab.manyfaces.measures`. The tables are
:mod:`mctslab.manyfaces.tables`, the figures :mod:`mctslab.manyfaces.figures`.

The paper (Fotland 1993) has no result tables: its claims are statements about structures
and costs. Each becomes a table or a figure here, next to the paper's figure:

* :func:`run_cost_chain` - the pattern matcher's cost chain (naive -> 8-bit hash -> near the
  last move -> early exit), our counters and wall times on real positions;
* :func:`run_joseki` - the joseki DAG's size and bytes per move;
* :func:`run_influence`, :func:`run_territory` - influence fields and territory estimates on
  real positions;
* :func:`run_enclosed` - the 1/d field inside an enclosed square (the paper: constant);
* :func:`run_census` (one task per game: replay with every structure maintained, the
  consistency checker after every move, connection and eye-shape counts every
  ``census_every`` moves);
* :func:`run_regression` - agreement with GNU Go's regression suites and eye-shape database;
* :func:`run_time_shares` - share of run time by component over game replays (paper: eye
  potential 7%, pattern matching 1.5%);
* :func:`run_strength` - beyond the paper: the knowledge-based player (:mod:`.player`) against
  GNU Go and our MCTS engine, and MCTS with the pattern prior (:mod:`.prior`) against the same
  MCTS without it and against GNU Go (games through the executor, GNU Go referees);
  :func:`run_prior` - the prior's rows of :func:`run_strength` alone (longer runs in
  ``docs/bench/manyfaces.md``).

Scales: ``smoke`` (seconds), ``default`` (a few dozen games), ``paper`` (all 2,000 games in
the census and the checker).
"""

from __future__ import annotations

import csv
import dataclasses
from collections import Counter
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mctslab import data
from mctslab.core.params import config_values, positive_int
from mctslab.core.tasks import make_tasks
from mctslab.go.gnugo import gnugo_missing
from mctslab.manyfaces.knowledge import InfluenceField, Knowledge, check
from mctslab.manyfaces.measures import game_moves
from mctslab.manyfaces.player_match import Side, match_table, play_match
from mctslab.manyfaces.regression import SUITES

__all__ = ["SCALES", "ENCLOSED_SIDES", "Config", "config", "game_paths", "census_task",
           "run_census", "run_cost_chain", "run_time_shares", "run_influence", "run_territory",
           "run_enclosed", "run_joseki", "run_regression", "run_strength", "run_prior"]

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

COST_MOVE = 100       # the matcher's cost positions: move 100 of real games
INFLUENCE_MOVE = 100  # the influence and territory positions: move 100 and each game's end
ENCLOSED_SIDES = (3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23)  # enclosed squares' sides


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


# ---------------------------------------------------------------- census (tasks)
def census_task(params: dict, seed) -> dict:
    """One game: replay with every structure maintained, :func:`knowledge.check` after every
    move, connection types/strengths and eye-space types/values counted every
    ``census_every`` moves."""
    moves = game_moves(params["game"])
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


# ---------------------------------------------------------------- the paper's measurements
def _map(run, experiment: str, fn: str, params: list[dict]):
    return run.map(experiment, make_tasks(fn, params, seed=run.seed))


def run_cost_chain(run, cfg: Config):
    """The pattern matcher's cost chain on ``cost_positions`` real positions (move 100 of
    evenly spaced games, the incremental stages over the next ``incremental_moves`` moves):
    one :func:`~mctslab.manyfaces.measures.cost_task` per position, results in game order
    (``tables.cost_chain_table`` tabulates them)."""
    return _map(run, "manyfaces_cost_chain", "mctslab.manyfaces.measures:cost_task",
                [dict(game=g, move=COST_MOVE, incremental_moves=cfg.incremental_moves)
                 for g in game_paths(cfg.cost_positions)])


def run_time_shares(run, cfg: Config):
    """``replay_games`` games replayed with every structure maintained, influence recomputed
    and the matcher updated after each move: one
    :func:`~mctslab.manyfaces.measures.time_share_task` per game (``tables.time_shares_table``).
    Paper: re-evaluating eye potential and escape points 7% (our groups component), pattern
    matching 1.5% (of a full program's time, search included, which this replay has not)."""
    return _map(run, "manyfaces_time_shares", "mctslab.manyfaces.measures:time_share_task",
                [dict(game=g) for g in game_paths(cfg.replay_games)])


def _positions(cfg: Config) -> list[dict]:
    """Move 100 and the end (``move`` None) of ``influence_positions`` evenly spaced games:
    the positions of the influence figure and of the territory table."""
    games = game_paths(max(cfg.influence_positions, 2))[:cfg.influence_positions]
    return [dict(game=g, move=move) for g in games for move in (INFLUENCE_MOVE, None)]


def run_influence(run, cfg: Config) -> list[InfluenceField]:
    """The influence field of each position of :func:`_positions`
    (:func:`~mctslab.manyfaces.measures.influence_task`), as the figure draws it."""
    results = _map(run, "manyfaces_influence", "mctslab.manyfaces.measures:influence_task",
                   _positions(cfg))
    return [InfluenceField(r["game"], r["move"], np.asarray(r["field"], np.float64),
                           np.asarray(r["stones"], np.int8), r["estimate"]) for r in results]


def run_territory(run, cfg: Config):
    """The territory estimate at each position of :func:`_positions`
    (:func:`~mctslab.manyfaces.measures.territory_task`; ``tables.territory_table``)."""
    return _map(run, "manyfaces_territory", "mctslab.manyfaces.measures:territory_task",
                _positions(cfg))


def run_enclosed(run, cfg: Config):
    """The raw field inside an empty square enclosed by a Black wall, for each side of
    :data:`ENCLOSED_SIDES` (:func:`~mctslab.manyfaces.measures.enclosed_task`): the rows of
    ``tables.enclosed_table``, each with its 1/d field, which ``figures.enclosed_figure``
    draws."""
    return _map(run, "manyfaces_enclosed", "mctslab.manyfaces.measures:enclosed_task",
                [dict(side=n) for n in ENCLOSED_SIDES])


def run_joseki(run, cfg: Config) -> dict:
    """The joseki DAG's size and encoding (one
    :func:`~mctslab.manyfaces.measures.joseki_task`; ``tables.joseki_table``)."""
    return _map(run, "manyfaces_joseki", "mctslab.manyfaces.measures:joseki_task", [{}])[0]


def run_regression(run, cfg: Config):
    """Our answers to GNU Go's regression suites (one
    :func:`~mctslab.manyfaces.measures.regression_task` per suite of
    :data:`~mctslab.manyfaces.regression.SUITES`), then to its eye-shape database (one
    :func:`~mctslab.manyfaces.measures.eye_db_task`); ``tables.regression_table``."""
    tasks = make_tasks("mctslab.manyfaces.measures:regression_task",
                       [dict(suite=suite) for suite in SUITES], seed=run.seed)
    tasks += make_tasks("mctslab.manyfaces.measures:eye_db_task", [{}], seed=run.seed)
    return run.map("manyfaces_regression", tasks)


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
    """Beyond the paper: the knowledge-based player against GNU Go and against our
    MCTS engine, and MCTS with the pattern prior (``prior_visits`` virtual visits per root
    child) against the same MCTS without it and against GNU Go; each MCTS side searches
    ``strength_playouts`` light playouts, never resigns and passes only when its count wins.
    ``strength_games`` games per pairing on ``strength_size``, komi 7.5, colours alternating,
    GNU Go (``gnugo_level``) refereeing every game (:mod:`.player_match`). One row per pairing
    with the win rate's Clopper-Pearson 95% interval; one row saying why when GNU Go is not
    installed."""
    return _matches(run, cfg)


def run_prior(run, cfg: Config) -> pd.DataFrame:
    """The pattern prior's own measurement: the last three rows of :func:`run_strength`,
    MCTS with the pattern prior against the same MCTS without it, and each of them against
    GNU Go, played as :func:`run_strength` plays them (the same stored tasks: after one, the other
    reads these games from the store). Longer runs: ``docs/bench/manyfaces.md``, "Pattern
    prior for MCTS"."""
    return _matches(run, cfg, PRIOR_PAIRINGS)
