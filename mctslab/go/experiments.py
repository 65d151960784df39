"""The state-tabu paper's protocol as tasks, scales, tables and figures (notebook ``go_state_tabu``).

Itoh & Ohta (2016), "An Application of Monte-Carlo Tree Search Including Game State Tabu Lists
for Playing 19x19 Go" (brief: ``docs/papers/go-state-tabu.md``).

Scales
------
* ``paper``: the five engines of Table 1 on 19x19, 8,000 playouts per move, 500 games as
  Black and 500 as White each against GNU Go 3.8 at its default level 10; Fig. 5 and Table 4
  from one 42-move position with 8,000 playouts (tabu sizes 0-15). Thousands of CPU-hours: a
  cluster (``scheduler=``).
* ``default``: the same engines on **9x9** with 1,000 playouts per move, 4 games per colour
  against GNU Go level 0, after a calibration of gnugo-uct against GNU Go levels 0 and 1; Fig. 5
  and Table 4 at the paper's own setting (19x19 position, 8,000 playouts), which costs seconds.
* ``smoke``: two engines, one game per colour on 9x9 with 40 playouts; Fig. 5/Table 4 at 300
  playouts and three tabu sizes.

Our engine's playouts use GNU Go's own 3x3 Monte-Carlo patterns (``policy="pattern"``), as the
paper's engines, built inside GNU Go 3.8, did; ``policy="light"`` gives uniform playouts.

Every game is one executor task (stored as it finishes, so a killed match resumes); so is each
Fig. 5 search and each Table 4 search. GNU Go is spoken to over GTP by
:mod:`mctslab.go.match` (crash / hang / garbage: killed, restarted, the game replayed).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd

from mctslab import data
from mctslab.core.params import as_real, check_known, given, positive_int, scale_values
from mctslab.core.stats import binomial_test
from mctslab.core.tasks import make_tasks
from mctslab.go import sgf
from mctslab.go.api import BLACK, WHITE, Board, search
from mctslab.go.match import GNUGO_SELF, EngineSettings, play_vs_gnugo
from mctslab.go.tabu import PAPER_CONFIGS, candidate_bound, parse_config

__all__ = ["Config", "SCALES", "config", "tabu_position", "game_task", "duplicates_task",
           "candidates_task", "calibration_tasks", "match_tasks", "duplicate_tasks",
           "candidate_tasks", "game_params", "make_tasks", "Played", "gnugo_missing", "calibrate", "play_matches", "duplicates", "candidates",
           "duplicates_table", "calibration_table", "chosen_level", "table2", "table3",
           "table4", "thinking_table", "games_sgf", "PAPER_TABLE2", "PAPER_TABLE3",
           "PAPER_TABLE4", "PAPER_FIG6"]

# A fixed 42-move position from a real game (the paper's Fig. 4 did not survive extraction):
# Black to play move 43.
TABU_POSITION = ("go-games/tom9d/tom-2003-09-354460.sgf", 42)

PAPER_TABLE2 = {  # wins as Black, as White, of 500 each (the "gnugo" row: GNU Go vs itself)
    "gnugo": (513, 487), "gnugo-uct": (266, 253), "gTabu18": (239, 252),
    "gTabu18-hash": (264, 259), "gTabu18-hash-win": (277, 263)}
PAPER_TABLE3 = {  # p value, 95% CI, significant at alpha = 0.05
    "gnugo": (0.429, 0.482, 0.544), "gnugo-uct": (0.242, 0.488, 0.550),
    "gTabu18": (0.591, 0.460, 0.522), "gTabu18-hash": (0.155, 0.492, 0.554),
    "gTabu18-hash-win": (0.012, 0.509, 0.571)}
PAPER_TABLE4 = (0, 375, 685, 941, 1114, 1288, 1440, 1655, 1700, 1835, 1860, 2065, 2098, 2031,
                2179, 2348)  # tabu candidates at L = 0..15, 8,000 playouts
PAPER_FIG6 = {"gnugo-uct": 158.4, "gTabu0": 162.3, "gTabu18": 166.9, "gTabu18-hash": 487.8,
              "gTabu18-hash-win": 369.4}  # mean thinking time per game minus gnugo's, seconds

# Table 2's rows: GNU Go against itself ("gnugo", two GNU Go processes, no engine of ours),
# then our engines of Table 1
TABLE2_CONFIGS = (GNUGO_SELF,) + PAPER_CONFIGS

SCALES = {
    "smoke": dict(configs=("gnugo-uct", "gTabu18-hash-win"), games_per_color=1, board_size=9,
                  playouts=40, gnugo_level=0, calibration_levels=(0,), calibration_games=1,
                  analysis_playouts=300, histogram_configs=("gTabu0", "gTabu18-hash"),
                  table4_sizes=(0, 1, 4)),
    "default": dict(configs=TABLE2_CONFIGS, games_per_color=4, board_size=9, playouts=1000,
                    gnugo_level=0, calibration_levels=(0, 1), calibration_games=4,
                    analysis_playouts=8000,
                    histogram_configs=("gTabu0", "gTabu18", "gTabu18-hash", "gTabu18-hash-win"),
                    table4_sizes=tuple(range(16))),
    "paper": dict(configs=TABLE2_CONFIGS, games_per_color=500, board_size=19, playouts=8000,
                  gnugo_level=10, calibration_levels=(10,), calibration_games=50,
                  analysis_playouts=8000,
                  histogram_configs=("gTabu0", "gTabu18", "gTabu18-hash", "gTabu18-hash-win"),
                  table4_sizes=tuple(range(16))),
}


@dataclass(frozen=True)
class Config:
    """The constants of one notebook run (see the module docstring for the scales)."""

    scale: str
    configs: tuple            # engines of Table 1 played against GNU Go
    games_per_color: int      # games as Black and as White per engine (paper: 500)
    board_size: int           # paper: 19
    playouts: int             # per move (paper: 8,000)
    gnugo_level: int          # GNU Go's --level in the matches (paper: its default, 10)
    calibration_levels: tuple  # GNU Go levels gnugo-uct is calibrated against
    calibration_games: int    # calibration games per colour and level
    analysis_playouts: int    # Fig. 5 and Table 4 searches (paper: 8,000)
    histogram_configs: tuple  # engines of Fig. 5
    table4_sizes: tuple       # move-tabu sizes L of Table 4 (paper: 0..15)
    c: float = 1.5            # UCB constant C (Eq. 1)
    tabu_moves: int = 5       # M
    komi: float = 6.5
    top_positions: int = 50   # Fig. 5's x axis
    resign: float = 0.0       # our resignation threshold (0: play to the end, as the paper)
    policy: str = "pattern"   # our playout policy: GNU Go's 3x3 Monte-Carlo patterns, as the
    #                           paper's engines (built inside GNU Go 3.8) played; or "light"
    timeout: float = 300.0    # seconds GNU Go may take for one reply before it is restarted
    calibrate: bool = False   # play the matches at the calibration level nearest 50%


def config(scale: str = "default", **overrides) -> Config:
    """The configuration of ``scale``; an override of ``None`` keeps the scale's value.
    ``ValueError`` names an unknown scale or parameter, or a bad value."""
    check_known(overrides, {f.name for f in dataclasses.fields(Config)} - {"scale"},
                "Go state-tabu parameter")
    values = scale_values(SCALES, scale)
    values.update(given(overrides))
    for name in ("c", "komi", "resign", "timeout"):
        if name in values:
            values[name] = as_real(values[name])
    cfg = Config(scale=scale, **values)
    for name in ("games_per_color", "playouts", "calibration_games", "analysis_playouts",
                 "top_positions", "tabu_moves"):
        positive_int(name, getattr(cfg, name))
    positive_int("board_size", cfg.board_size, minimum=5)
    for name in tuple(n for n in cfg.configs if n != GNUGO_SELF) + cfg.histogram_configs:
        parse_config(name)
    for level in (cfg.gnugo_level, *cfg.calibration_levels):
        if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= 10:
            raise ValueError(f"GNU Go levels are 0..10, got {level!r}")
    for size in cfg.table4_sizes:
        positive_int("table4_sizes entry", size, minimum=0)
    if not isinstance(cfg.calibrate, bool):
        raise ValueError(f"calibrate must be True or False, got {cfg.calibrate!r}")
    if not 0 <= cfg.resign < 1 or cfg.timeout <= 0 or cfg.c < 0:
        raise ValueError("resign must be in [0, 1), timeout > 0 and c >= 0")
    EngineSettings(policy=cfg.policy)
    return cfg


def tabu_position() -> Board:
    """The fixed 42-move 19x19 position of Fig. 5 and Table 4 (Black to play move 43)."""
    path, moves = TABU_POSITION
    board, _ = sgf.load(data.find(path), move_number=moves)
    return board


# -- task functions (module level: the executor imports them by name) ----------------------
def _seeds(seed: np.random.SeedSequence) -> tuple[int, int]:
    engine, gnugo_seed = seed.generate_state(2, dtype=np.uint32)
    return int(engine), int(gnugo_seed) % 2**31


def game_task(params: dict, seed) -> dict:
    """One game against GNU Go: ``params`` = config, ours ("B"/"W"), size, komi, playouts, c,
    policy, resign, gnugo_level, timeout; the SGF text is part of the result."""
    engine_seed, gnugo_seed = _seeds(seed)
    settings = EngineSettings(config=params["config"], playouts=params["playouts"],
                              c=params["c"], policy=params["policy"], resign=params["resign"])
    ours = BLACK if params["ours"] == "B" else WHITE
    game = play_vs_gnugo(settings, ours=ours, size=params["size"], komi=params["komi"],
                         gnugo_level=params["gnugo_level"], gnugo_seed=gnugo_seed,
                         seed=engine_seed, timeout=params["timeout"])
    gnugo_name = f"GNU Go {game['gnugo_version']} level {params['gnugo_level']}"
    names = {ours: f"mctslab {params['config']}" if params["config"] != GNUGO_SELF
             else f"{gnugo_name} seed {engine_seed % 2**31}", 3 - ours: gnugo_name}
    record = [(c, tuple(m) if m else None) for c, m in game["record"]]
    game["sgf"] = sgf.game_bytes(params["size"], params["komi"], record, result=game["result"],
                                 root_props={"PB": names[BLACK], "PW": names[WHITE]},
                                 settings={**params, "engine_seed": engine_seed,
                                           "gnugo_seed": gnugo_seed,
                                           "restarts": game["restarts"]}).decode()
    del game["record"]
    return game


def _analysis_search(params: dict, name: str, seed, record: int):
    board = tabu_position()
    tabu = parse_config(name, moves=params["moves"], playouts=params["playouts"], c=params["c"])
    engine_seed, _ = _seeds(seed)
    return search(board, params["playouts"], c=params["c"], policy=params["policy"],
                  expansion_threshold=tabu.expansion_threshold, tabu=tabu, seed=engine_seed,
                  record_hashes=record)


def duplicates_task(params: dict, seed) -> dict:
    """Fig. 5: one search from the fixed position; the occurrence counts of the positions
    reached at playout moves 1..M, most frequent first."""
    result = _analysis_search(params, params["config"], seed, params["moves"])
    hashes = result.hashes[result.hashes != 0]
    counts = sorted(Counter(hashes.tolist()).values(), reverse=True)
    return dict(counts=counts[: params["top"]], positions=int(hashes.size),
                distinct=len(counts), duplicates=int(hashes.size - len(counts)),
                tabu_candidates=result.tabu_candidates, seconds=result.seconds,
                playouts=result.playouts, move=result.move)


def candidates_task(params: dict, seed) -> dict:
    """Table 4: tabu candidates of one search with a move tabu of size L from the position."""
    name = "gTabu0" if params["size"] == 0 else f"gTabu{params['size']}"
    result = _analysis_search(params, name, seed, 0)
    return dict(tabu_candidates=result.tabu_candidates, playouts=result.playouts,
                seconds=result.seconds, tabu_size=result.tabu_size)


# -- task lists ------------------------------------------------------------------------------
def game_params(cfg: Config, name: str, ours: str, level: int) -> dict:
    """A game task's parameters."""
    return dict(config=name, ours=ours, size=cfg.board_size, komi=cfg.komi,
                playouts=cfg.playouts, c=cfg.c, policy=cfg.policy, resign=cfg.resign,
                gnugo_level=level, timeout=cfg.timeout)


def _games(cfg, names, levels, games, seed):
    # game i of (engine, level): colours alternate, so adding games keeps the earlier seeds
    params = [game_params(cfg, name, "BW"[i % 2], level)
              for name in names for level in levels for i in range(2 * games)]
    return make_tasks("mctslab.go.experiments:game_task", params, seed=seed)


def calibration_tasks(cfg: Config, seed: int):
    """gnugo-uct against each calibration level (the paper tuned its engine to ~50%)."""
    return _games(cfg, ("gnugo-uct",), cfg.calibration_levels, cfg.calibration_games, seed + 1)


def match_tasks(cfg: Config, seed: int, level: int | None = None):
    """Table 2's games: every engine, ``games_per_color`` as Black and as White."""
    return _games(cfg, cfg.configs, (cfg.gnugo_level if level is None else level,),
                  cfg.games_per_color, seed)


def duplicate_tasks(cfg: Config, seed: int):
    params = [dict(config=name, playouts=cfg.analysis_playouts, c=cfg.c, moves=cfg.tabu_moves,
                   top=cfg.top_positions, policy=cfg.policy) for name in cfg.histogram_configs]
    return make_tasks("mctslab.go.experiments:duplicates_task", params, seed=seed + 2)


def candidate_tasks(cfg: Config, seed: int):
    params = [dict(size=size, playouts=cfg.analysis_playouts, c=cfg.c, moves=cfg.tabu_moves,
                   policy=cfg.policy) for size in cfg.table4_sizes]
    return make_tasks("mctslab.go.experiments:candidates_task", params, seed=seed + 3)


# -- running them through the notebook's Run ------------------------------------------------
class Played(NamedTuple):
    """An experiment's tasks and their results, in task order; ``skipped`` says why there are
    none (GNU Go is not installed)."""

    tasks: list
    results: list
    skipped: str | None = None


def _map(run, experiment: str, tasks) -> Played:
    return Played(tasks, list(run.map(experiment, tasks)))


def gnugo_missing() -> str | None:
    """Why games against GNU Go cannot be played here (its install hint), or None."""
    from mctslab.go import gnugo

    try:
        gnugo.find_gnugo()
    except gnugo.GnuGoNotFound as exc:
        return f"skipped: GNU Go 3.8 is not installed ({exc})"
    return None


def _map_games(run, experiment: str, tasks) -> Played:
    reason = gnugo_missing()
    return Played([], [], reason) if reason else _map(run, experiment, tasks)


def calibrate(run, cfg: Config) -> Played:
    """gnugo-uct against each calibration level of GNU Go (skipped, saying why, without it)."""
    return _map_games(run, "go_calibration", calibration_tasks(cfg, run.seed))


def play_matches(run, cfg: Config, level: int) -> Played:
    """Table 2's games against GNU Go at ``level`` (skipped, saying why, without it)."""
    return _map_games(run, "go_matches", match_tasks(cfg, run.seed, level))


def _ci(test) -> str:
    return f"{test.ci_low:.3f}-{test.ci_high:.3f}"


def _per_game(table):
    """A table of the games of ``played``: built from their frame, or one row saying why
    there are none (GNU Go not installed)."""
    def build(played: Played) -> pd.DataFrame:
        if played.skipped:
            return pd.DataFrame({"skipped": [played.skipped]})
        return table(_games_frame(played.tasks, played.results))

    build.__name__, build.__doc__ = table.__name__, table.__doc__
    return build


def duplicates(run, cfg: Config) -> Played:
    """Fig. 5's searches from the fixed position."""
    return _map(run, "go_duplicates", duplicate_tasks(cfg, run.seed))


def candidates(run, cfg: Config) -> Played:
    """Table 4's searches from the fixed position."""
    return _map(run, "go_candidates", candidate_tasks(cfg, run.seed))


# -- tables -----------------------------------------------------------------------------------
def _games_frame(tasks, results) -> pd.DataFrame:
    rows = [dict(config=t.params["config"], ours=t.params["ours"],
                 level=t.params["gnugo_level"], **{k: r[k] for k in (
                     "ours_won", "result", "end", "moves", "area_agrees", "think_ours",
                     "think_gnugo", "restarts", "tabu_candidates")})
            for t, r in zip(tasks, results)]
    return pd.DataFrame(rows)


@_per_game
def calibration_table(games: pd.DataFrame) -> pd.DataFrame:
    """gnugo-uct's score against each GNU Go level, with the exact 95% interval."""
    rows = []
    for level, group in games.groupby("level"):
        wins, n = int(group["ours_won"].sum()), len(group)
        test = binomial_test(wins, n)
        rows.append({"GNU Go level": level, "games": n, "gnugo-uct wins": wins,
                     "rate": round(wins / n, 3), "95% CI": _ci(test)})
    return pd.DataFrame(rows)


def chosen_level(cfg: Config, calibration: pd.DataFrame) -> int:
    """The matches' GNU Go level: ``cfg.gnugo_level``, or with ``cfg.calibrate`` the
    calibration level where gnugo-uct's score is nearest 50% (the paper's choice)."""
    if not cfg.calibrate or "rate" not in calibration:
        return cfg.gnugo_level
    best = (calibration["rate"] - 0.5).abs().idxmin()
    return int(calibration.loc[best, "GNU Go level"])


def _paper_wins(name: str) -> int:
    """The paper's total wins of 1,000: its "gnugo" row gives Black's and White's wins of the
    same 1,000 self-play games (513 + 487), so its total is Black's 513, not the sum."""
    black, white = PAPER_TABLE2[name]
    return black if name == GNUGO_SELF else black + white


@_per_game
def table2(games: pd.DataFrame) -> pd.DataFrame:
    """Wins as Black, as White and in all per engine, ours beside the paper's."""
    rows = []
    for name, group in games.groupby("config", sort=False):
        black, white = group[group.ours == "B"], group[group.ours == "W"]
        wins_b, wins_w = int(black.ours_won.sum()), int(white.ours_won.sum())
        paper = PAPER_TABLE2.get(name)
        rows.append({"method": name, "wins as B": f"{wins_b}/{len(black)}",
                     "rate B": round(wins_b / max(len(black), 1), 3),
                     "wins as W": f"{wins_w}/{len(white)}",
                     "rate W": round(wins_w / max(len(white), 1), 3),
                     "total": f"{wins_b + wins_w}/{len(group)}",
                     "rate": round((wins_b + wins_w) / len(group), 3),
                     "paper rate": None if paper is None else round(_paper_wins(name) / 1000, 3),
                     "restarts": int(group.restarts.sum()),
                     "area score disagrees": int((group.area_agrees == False).sum()),  # noqa: E712
                     "resigned or capped": int((group.end != "passes").sum())})
    return pd.DataFrame(rows)


@_per_game
def table3(games: pd.DataFrame) -> pd.DataFrame:
    """Two-sided binomial test of the total wins against p = 0.5, 95% Clopper-Pearson."""
    rows = []
    for name, group in games.groupby("config", sort=False):
        wins, n = int(group.ours_won.sum()), len(group)
        test = binomial_test(wins, n)
        paper = PAPER_TABLE3.get(name)
        rows.append({"method": name, "wins": wins, "games": n, "p": round(test.pvalue, 3),
                     "95% CI": _ci(test),
                     "significant": bool(test.pvalue < 0.05),
                     "paper p": None if paper is None else paper[0],
                     "paper 95% CI": None if paper is None else f"{paper[1]:.3f}-{paper[2]:.3f}"})
    return pd.DataFrame(rows)


@_per_game
def thinking_table(games: pd.DataFrame) -> pd.DataFrame:
    """Fig. 6's quantity: mean thinking time per game, ours minus GNU Go's, per engine."""
    rows = []
    for name, group in games.groupby("config", sort=False):
        rows.append({"method": name, "ours s/game": round(group.think_ours.mean(), 3),
                     "GNU Go s/game": round(group.think_gnugo.mean(), 3),
                     "difference s/game": round((group.think_ours - group.think_gnugo).mean(), 3),
                     "ours s/move": round((group.think_ours / (group.moves / 2)).mean(), 4),
                     "paper difference s/game": PAPER_FIG6.get(name)})
    return pd.DataFrame(rows)


def table4(cfg: Config, played: Played) -> pd.DataFrame:
    """Tabu candidates per move-tabu size, ours beside the paper's, and the Eq. 12 bound."""
    rows = []
    for t, r in zip(played.tasks, played.results):
        size = t.params["size"]
        rows.append({"L": size, "total": r["tabu_candidates"],
                     "per playout": round(r["tabu_candidates"] / r["playouts"], 3),
                     "paper total": PAPER_TABLE4[size] if size < len(PAPER_TABLE4) else None,
                     "paper per playout": round(PAPER_TABLE4[size] / 8000, 3)
                     if size < len(PAPER_TABLE4) else None,
                     "Eq. 12 bound": round(candidate_bound(19, size, cfg.tabu_moves), 3)})
    return pd.DataFrame(rows)


def duplicates_table(played: Played) -> pd.DataFrame:
    """Fig. 5 in numbers: positions recorded, distinct, duplicates, the most repeated."""
    return pd.DataFrame([{"method": t.params["config"], "positions": r["positions"],
                          "distinct": r["distinct"], "duplicates": r["duplicates"],
                          "most repeated": r["counts"][0] if r["counts"] else 0,
                          "tabu candidates": r["tabu_candidates"]}
                         for t, r in zip(played.tasks, played.results)])


def games_sgf(played: Played) -> str:
    """Every game's SGF, one per line group, for ``run.save_text`` (cite games by index)."""
    if played.skipped:
        return f"; {played.skipped}\n"
    return "\n".join(f"; game {i}: {t.params['config']} as {t.params['ours']}\n{r['sgf']}"
                     for i, (t, r) in enumerate(zip(played.tasks, played.results)))
