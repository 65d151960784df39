"""Runs of one part of the state-tabu paper's protocol, written as the notebook writes its run
(notebook ``go_state_tabu``): an output folder with the notebook's tables, ``paper_vs_run.csv``
and a complete manifest, which ``mctslab go record`` then saves as a committed record
(:func:`mctslab.records.save`), so the records' scorecard judges it beside the 9x9 record.

* :func:`table2_19x19`: the Table 2 games of a 19x19 match record (folders of ``mctslab go
  match``, ``mctslab go records 19x19``) read back through the notebook's own runners. Their
  stored games are copied into the output folder's stores of the notebook's experiments
  (``go_matches``: the paper's engines; ``go_anchors``: GNU Go's own Monte-Carlo mode); the
  notebook's tasks for a paper-scale configuration with the matches' rows, games and seed must
  all be found there (same ids: same settings, same seeds), so nothing is played.
* :func:`uniform_redraw`: the Fig. 5 and Table 4 searches (10 per L, as ours) under the
  paper's reading ``uniform-redraw`` (``mctslab/go/readings.csv``): a rejected tabu candidate
  redrawn uniformly among the legal moves (``tabu_redraw="light"``).

Each keeps the ``paper_vs_run`` rows its run measured (:data:`MATCH_KEYS`,
:data:`SEARCH_KEYS`): a record of the games does not restate the searches' protocol, nor the
reverse.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from mctslab import paths
from mctslab.core.report import Run
from mctslab.core.store import ResultStore
from mctslab.go import experiments, match_record, plans, tables
from mctslab.go.match import Player, match_tasks
from mctslab.go.played import Played

__all__ = ["KINDS", "MATCH_KEYS", "SEARCH_KEYS", "table2_19x19", "uniform_redraw", "write"]

NOTEBOOK = "go_state_tabu"
KINDS = {"table2-19x19": "19x19-table2", "reading-uniform-redraw": "reading-uniform-redraw"}
# the paper_vs_run rows each part measures: (artefact, row or None for all, column or None)
MATCH_KEYS = (("Table 2", None, None), ("Table 3", None, None), ("Fig. 6", None, None),
              ("Table 1", "gnugo", None), ("Table 1", "gnugo-uct", None),
              ("Sec. 5.1", None, None), ("Sec. 5.2", None, None))
SEARCH_KEYS = (("Table 4", None, None), ("Eq. 12", None, None), ("Fig. 5", None, None),
               ("Sec. 4.3", None, None), ("Sec. 5.3", None, None),
               ("Sec. 5.1", "UCB (Eq. 1)", None), *(("Table 1", name, None) for name in
                                                   experiments.SCALES["paper"][
                                                       "histogram_configs"]))
_NOT_PLAYED = "not part of this record"


def _measured(frame: pd.DataFrame, keys) -> pd.DataFrame:
    keep = [any(r.artefact == a and (row is None or r.row == row)
                and (column is None or r.column == column) for a, row, column in keys)
            for r in frame.itertuples()]
    return frame[keep].reset_index(drop=True)


def _matches(folder: Path) -> dict[Path, list[dict]]:
    """Each finished match under a match record: its first ``games`` stored games (the
    summary's count) in seed order."""
    found = {}
    for summary in sorted(folder.rglob("summary.json")):
        games = int(json.loads(summary.read_text())["games"])
        records = [r for store in match_record.match_stores(summary.parent)
                   for r in match_record.stored(store)]
        records.sort(key=lambda r: tuple(r["spawn_key"]))
        if len(records) < games:
            raise ValueError(f"{summary}: {games} games, but {len(records)} stored")
        found[summary.parent] = records[:games]
    if not found:
        raise FileNotFoundError(f"{folder}: no finished match (summary.json beside a store)")
    return found


def _config(found: dict[Path, list[dict]]):
    """The paper-scale configuration whose notebook tasks are these games, and their seed."""
    hosts, levels, games, anchor_games = [], [], set(), set()
    firsts = [records[0] for records in found.values()]
    for first, records in zip(firsts, found.values()):
        candidate = first["params"]["candidate"]
        if candidate["kind"] == "gnugo-mc":
            levels.append(candidate["level"])
            anchor_games.add(len(records))
        elif candidate["kind"] == "mcts" and candidate["engine"].get("classical") == "gnugo":
            hosts.append(candidate["engine"]["config"])
            games.add(len(records))
        else:
            raise ValueError(f"a match of {Player.from_params(candidate).label}: not one of the "
                             "paper's engines nor GNU Go's Monte-Carlo mode")
    seeds = {first["seed"] for first in firsts}
    if len(games) != 1 or len(anchor_games) > 1 or len(seeds) != 1 or any(n % 2 for n in
                                                                         games | anchor_games):
        raise ValueError(f"the matches must share one seed and one even number of games per "
                         f"kind of row, got seeds {sorted(seeds)}, games {sorted(games)} and "
                         f"{sorted(anchor_games)}")
    cfg = experiments.config("paper", configs=tuple(hosts), games_per_color=games.pop() // 2,
                             mc_levels=tuple(levels) or (10,),
                             anchor_games_per_color=(anchor_games.pop() if anchor_games
                                                     else 2) // 2)
    return cfg, seeds.pop()


def _seed_store(out: Path, experiment: str, rows, cfg, seed: int, games_per_color: int,
                stored: dict[str, dict]) -> None:
    """Copy into ``out``'s store of ``experiment`` the stored games the notebook's tasks of
    ``rows`` are; ``ValueError`` naming the first task that was not played."""
    store = ResultStore(paths.results_dir(experiment, out))
    there = store.load() if store.exists() else {}
    opponent = Player("gnugo", level=cfg.gnugo_level)
    for row in rows:
        for task in match_tasks(row.candidate, opponent, 2 * games_per_color,
                                size=cfg.board_size, komi=cfg.komi,
                                referee_level=cfg.referee_level, timeout=cfg.timeout,
                                seed=seed):
            if task.id not in stored:
                raise ValueError(f"the notebook's game {task.spawn_key} of {row.name} "
                                 f"({task.params['color']}) is not in the match record: its "
                                 "settings or seed differ")
            if task.id not in there:
                store.append(stored[task.id])


def table2_19x19(matches, out) -> Path:
    """The notebook's run of a 19x19 match record's Table 2 rows (see the module docstring) in
    the output folder ``out``; returns the figures folder it wrote."""
    found = _matches(Path(matches))
    cfg, seed = _config(found)
    stored = {r["id"]: r for records in found.values() for r in records}
    _seed_store(out, "go_matches", experiments.table2_rows(cfg), cfg, seed,
                cfg.games_per_color, stored)
    with_anchors = any(r["params"]["candidate"]["kind"] == "gnugo-mc" for r in stored.values())
    if with_anchors:
        _seed_store(out, "go_anchors", experiments.anchor_rows(cfg), cfg, seed,
                    cfg.anchor_games_per_color, stored)
    run = Run(NOTEBOOK, config=cfg, scale="paper", seed=seed, workers=1, out=out,
              progress=False)
    played = experiments.run_matches(run, cfg)  # every task stored: nothing is played
    anchors = (experiments.run_anchors(run, cfg) if with_anchors
               else Played([], [], [], _NOT_PLAYED))
    run.table(tables.table2(played), "table2_wins",
              "wins against GNU Go level 10 on 19x19, from the match record's stored games")
    run.table(tables.table3(played), "table3_tests", "binomial test against 0.5 (95% "
              "Clopper-Pearson)")
    run.table(tables.validation_table(anchors, played), "validation",
              "GNU Go's Monte-Carlo mode beside our host engine against the same GNU Go")
    run.table(tables.host_table(played), "host_vetoes", "per row: moves GNU Go proposed, "
              "fuseki moves, moves searched, vetoes and the mean shortlist size")
    run.table(tables.thinking_table(played), "fig6_thinking_time",
              "mean thinking time per game, ours (with the host GNU Go) minus the opponent's")
    none = Played([], [], [], _NOT_PLAYED)
    judged = tables.paper_vs_run(played, none, pd.DataFrame(columns=["L", "searches"]), cfg)
    run.table(_measured(judged, MATCH_KEYS), "paper_vs_run",
              "the paper's numbers next to this record's 19x19 games, each judged against its "
              "stated margin")
    run.finish()
    return run.directory


def uniform_redraw(out, workers: int = 1) -> Path:
    """The Fig. 5 and Table 4 searches at paper scale under the reading ``uniform-redraw`` in
    the output folder ``out`` (the notebook's seed and tasks, ``tabu_redraw="light"``);
    returns the figures folder it wrote."""
    cfg = experiments.config("paper", tabu_redraw="light")
    run = Run(NOTEBOOK, config=cfg, scale="paper", seed=plans.NOTEBOOK_SEED, workers=workers,
              out=out, progress=False)
    dups = experiments.run_duplicates(run, cfg)
    run.table(tables.duplicates_table(dups), "fig5_duplicates",
              "positions after playout moves 1-5 of one search from the fixed 42-move position, "
              "a rejected candidate redrawn uniformly")
    candidates = experiments.run_candidates(run, cfg)
    table4 = run.table(tables.table4(cfg, candidates), "table4_candidates",
                       "rejected playout candidates per move-tabu size L, redrawn uniformly; "
                       "the paper's and Eq. 12's bound beside")
    judged = tables.paper_vs_run(Played([], [], [], _NOT_PLAYED), dups, table4, cfg)
    run.table(_measured(judged, SEARCH_KEYS), "paper_vs_run",
              "the paper's numbers next to this run's searches under the reading "
              "uniform-redraw, each judged against its stated margin")
    run.finish()
    return run.directory


def write(kind: str, out, *, matches=None, workers: int = 1) -> str:
    """Run ``kind`` (:data:`KINDS`) into the output folder ``out``; returns the record's label."""
    if kind == "table2-19x19":
        if matches is None:
            raise ValueError("table2-19x19 reads a match record: give --matches FOLDER")
        table2_19x19(matches, out)
    elif kind == "reading-uniform-redraw":
        uniform_redraw(out, workers)
    else:
        raise ValueError(f"unknown record kind {kind!r}; known: {', '.join(KINDS)}")
    return KINDS[kind]
