"""A match record: the folder ``mctslab go match --out DIR`` writes (its store under
``data/results/go_match_*``, ``summary.json``, the games' SGF files), checked and packed for
``mctslab records`` (:mod:`mctslab.records`; ``scripts/go-records`` and ``scripts/go-strong``
write such folders under ``records/go_state_tabu/``).

* :func:`check_match` recomputes a match's summary from its stored games (the first ``games``
  in seed order) and reports every field that differs, and both counts (the referee's and the
  plain count, :func:`plain_note`, recomputed from the games even for a summary written
  before the plain count was); a folder without ``summary.json`` is a match in progress;
* :func:`table2_verdicts` judges each match of a record against the paper's Table 2 (the one
  verdict function, :func:`mctslab.core.compare.paper_row`, with the margin and minimum games
  of ``mctslab/go/targets.csv``), so a recorded 19x19 row's verdict is generated, not written;
* :func:`paired` compares the record's matches game by game with its paper engine (the same
  seeds meet the same GNU Go: McNemar), generated like the verdicts;
* :func:`pack_match` moves a finished match's store into ``results.jsonl.gz`` and its SGF
  files into :data:`GAMES_ARCHIVE`, so a long match is small enough to commit; everything reads
  a packed folder as before.
"""

from __future__ import annotations

import json
import tarfile
import warnings
from pathlib import Path
from types import SimpleNamespace

import pandas as pd

from mctslab import paths
from mctslab.core import targets
from mctslab.core.compare import paper_row
from mctslab.core.stats import interval_text, win_rate_row
from mctslab.core.store import ResultStore, same_number, write_tar_gz
from mctslab.go import match as go_match
from mctslab.go import tables
from mctslab.go.played import played_from_stores

__all__ = ["GAMES_ARCHIVE", "check_match", "game_sgf", "games_kept", "is_match", "match_stores",
           "pack_match", "paired", "plain_note", "stored", "table2_verdicts"]

PAPER = "go_state_tabu"
# Table 2's protocol (docs/papers/go-state-tabu.md): 19x19, komi 6.5, GNU Go 3.8 level 10 as
# the opponent, 8,000 playouts per move for the paper's engines
PROTOCOL = {"size": 19, "komi": 6.5, "opponent level": 10, "playouts": 8000}

GAMES_ARCHIVE = "games.tar.gz"  # a packed match folder's SGF files (:func:`pack_match`)
_FLOAT_KEYS = ("rate", "ci_low", "ci_high", "pvalue", "mean_moves", "mean_margin",
               "think_candidate", "think_opponent", "cpu_candidate", "cpu_opponent",
               "plain_rate", "plain_ci_low", "plain_ci_high", "plain_share_of_wins")
# a summary written before the plain count existed lacks its keys: they are checked where
# present, and the note gives the plain count recomputed from the stored games either way
_INT_KEYS = ("games", "wins", "games_as_black", "wins_as_black", "wins_as_white", "restarts",
             "area_disagrees", "searched", "vetoes", "tabu_candidates", "plain_games",
             "plain_wins", "wins_plain_too")


def is_match(experiment: str) -> bool:
    """Whether a store (by its experiment name) holds the games of ``mctslab go match``."""
    return experiment.startswith(go_match.EXPERIMENT_PREFIX)


def match_stores(folder: Path) -> list[Path]:
    """The stores of ``mctslab go match`` games in a match folder (``data/results/go_match_*``,
    plain or packed), sorted."""
    return sorted(p for p in paths.results_root(folder).glob("*")
                  if is_match(p.name) and ResultStore(p).exists())


def stored(store: Path) -> list[dict]:
    """The records of a store folder (plain and packed, :class:`ResultStore`); a half-written
    last line (a game being stored) is skipped, any other bad line is a ValueError naming it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the half-written line of a match being played
        return ResultStore(store).records()


def games_stored(folder: Path) -> int:
    """Games stored in a match folder, over its plain and packed stores (0 before its first)."""
    return sum(len(stored(store)) for store in match_stores(folder))


def games_kept(folder: Path) -> int:
    """SGF files of a match folder: ``games/*.sgf`` and those packed in ``games.tar.gz``."""
    count = len(list((folder / "games").glob("*.sgf"))) if (folder / "games").is_dir() else 0
    if (folder / GAMES_ARCHIVE).is_file():
        with tarfile.open(folder / GAMES_ARCHIVE) as archive:
            count += sum(1 for m in archive.getmembers() if m.name.endswith(".sgf"))
    return count


def game_sgf(folder, name: str) -> bytes | None:
    """The SGF file ``name`` (``games/<name>``) of a match folder, plain or packed in
    :data:`GAMES_ARCHIVE`; ``None`` when the folder keeps no such game."""
    folder = Path(folder)
    path = folder / "games" / name
    if path.is_file():
        return path.read_bytes()
    if (folder / GAMES_ARCHIVE).is_file():
        with tarfile.open(folder / GAMES_ARCHIVE) as archive:
            try:
                return archive.extractfile(f"games/{name}").read()
            except KeyError:
                return None
    return None


def check_match(folder: Path, report) -> None:
    """One ``mctslab go match --out`` folder: its summary recomputed from its games, each
    difference a problem of ``report`` (a :class:`mctslab.records.Report`), the counts a note."""
    stores = sorted(p for p in paths.results_root(folder).glob("*") if ResultStore(p).exists())
    try:
        records = [r for path in stores for r in stored(path)]
    except ValueError as exc:
        report.problems.append(str(exc))
        return
    summary_path = folder / "summary.json"
    if not summary_path.is_file():
        report.notes.append(f"{folder}: in progress, {len(records)} games stored, no "
                            "summary.json yet")
        return
    summary = json.loads(summary_path.read_text())
    records.sort(key=lambda r: tuple(r["spawn_key"]))
    games = int(summary.get("games", 0))
    if len(records) < games:
        report.problems.append(f"{summary_path}: {games} games, but {len(records)} stored")
        return
    chosen = records[:games]
    tasks = [SimpleNamespace(params=r["params"]) for r in chosen]
    again = go_match.summary(tasks, [r["result"] for r in chosen])
    for key in _INT_KEYS + ("candidate", "opponent"):
        if key in summary and summary[key] != again.get(key):
            report.problems.append(f"{summary_path}: {key} {summary[key]!r}, recomputed from "
                                   f"its games {again.get(key)!r}")
    for key in _FLOAT_KEYS:
        if key in summary and not same_number(summary[key], again.get(key)):
            report.problems.append(f"{summary_path}: {key} {summary[key]!r}, recomputed from "
                                   f"its games {again.get(key)!r}")
    sgf = games_kept(folder)
    report.notes.append(f"{folder}: {summary.get('candidate')} against "
                        f"{summary.get('opponent')}, {again['wins']} of {games} "
                        f"(rate {again['rate']:.3f}), {plain_note(again)}, {len(records)} "
                        f"games stored, {sgf} SGF")


def plain_note(summary: dict) -> str:
    """The plain count of a (recomputed) summary in words, for notes and the match verb."""
    if not summary.get("plain_games"):
        return "plain count not recorded"
    share = summary.get("plain_share_of_wins")
    missing = summary["games"] - summary["plain_games"]
    return (f"{summary['plain_wins']} of {summary['plain_games']} by the plain count (every "
            f"stone alive; rate {summary['plain_rate']:.3f})"
            + (f", {summary['wins_plain_too']} of the {summary['wins']} wins also won by it"
               if share is not None else "")
            + (f", {missing} games without one" if missing else ""))


def pack_match(folder) -> dict:
    """Pack a finished match folder (``mctslab go match --out DIR``) so a long one is small
    enough to commit: each store's lines into ``results.jsonl.gz`` (:meth:`ResultStore.pack`)
    and the SGF files of ``games/`` into ``games.tar.gz`` (with those it already held; sorted,
    dated 0, so packing the same games gives the same bytes). Refused while the summary counts
    fewer games than are stored (a row being played, or not exported at its stored count).
    Returns what was moved: ``{"lines": ..., "games": ...}``. ``mctslab records check``,
    ``mctslab go report`` and a resumed match read a packed folder as before; unpack the games
    with ``tar xzf games.tar.gz`` to open them in Sabaki or GoGui."""
    folder = Path(folder)
    stores = match_stores(folder)
    if not stores:
        raise FileNotFoundError(f"{folder}: no match store (data/results/go_match_*)")
    summary_path = folder / "summary.json"
    if not summary_path.is_file():
        raise ValueError(f"{folder}: no summary.json: a match in progress is not packed")
    count = games_stored(folder)
    games = int(json.loads(summary_path.read_text()).get("games", 0))
    if games != count:
        raise ValueError(f"{summary_path}: {games} games, but {count} stored: export the "
                         f"summary at the stored count (mctslab go match --games {count} with "
                         f"the row's arguments) before packing")
    lines = sum(ResultStore(store).pack() for store in stores)
    sgf = {}
    archive = folder / GAMES_ARCHIVE
    if archive.is_file():
        with tarfile.open(archive) as tar:
            sgf = {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}
    loose = sorted((folder / "games").glob("*.sgf")) if (folder / "games").is_dir() else []
    sgf.update({f"games/{path.name}": path.read_bytes() for path in loose})
    if loose:
        write_tar_gz(archive, sgf)
        for path in loose:
            path.unlink()
        if not any((folder / "games").iterdir()):
            (folder / "games").rmdir()
    return {"lines": lines, "games": len(loose)}


def _table2_row(params: dict) -> tuple[str, list[str]]:
    """The Table 2 row a match's candidate is judged as, and where its games depart from the
    paper's protocol (:data:`PROTOCOL`; none: an empty list). The paper's engines are GNU Go
    with a Monte-Carlo veto: our host configurations (``classical="gnugo"``); GNU Go against
    itself is its "gnugo" row; any other candidate is shown beside the paper's gnugo-uct, as a
    departure (it is not the paper's engine)."""
    candidate, opponent = params["candidate"], params["opponent"]
    engine = candidate.get("engine", {})
    rows = targets.rows(PAPER, "Table 2")
    departs = []
    if (candidate.get("kind") == "mcts" and engine.get("classical") == "gnugo"
            and engine.get("config") in rows):
        row = engine["config"]
        if engine.get("playouts") != PROTOCOL["playouts"]:
            departs.append(f"{engine.get('playouts')} playouts per move")
    elif candidate.get("kind") == "gnugo" and candidate.get("level") == PROTOCOL["opponent level"]:
        row = "gnugo"
    else:
        row = "gnugo-uct"
        departs.append(f"the candidate, {go_match.Player.from_params(candidate).label}, is not "
                       "one of the paper's engines (shown beside its gnugo-uct)")
    if params.get("size") != PROTOCOL["size"]:
        departs.append(f"{params.get('size')}x{params.get('size')}")
    if params.get("komi") != PROTOCOL["komi"]:
        departs.append(f"komi {params.get('komi')}")
    if opponent.get("kind") != "gnugo" or opponent.get("level") != PROTOCOL["opponent level"]:
        departs.append(f"the opponent {go_match.Player.from_params(opponent).label}")
    return row, departs


def _finished(folder: Path) -> dict[Path, dict]:
    """The finished matches under a match record (a ``summary.json`` beside a store with a
    game), each with its first stored game (seed order is the store's), in path order; none is
    a FileNotFoundError."""
    found = {}
    for summary_path in sorted(folder.rglob("summary.json")):
        first = next((r for store in match_stores(summary_path.parent) for r in stored(store)),
                     None)
        if first is not None:
            found[summary_path.parent] = first
    if not found:
        raise FileNotFoundError(f"{folder}: no finished match (summary.json beside a store)")
    return found


def table2_verdicts(folder) -> pd.DataFrame:
    """Each finished match under a match record ``folder`` judged against the paper's Table 2:
    its win rate, as Black and as White (the "gnugo" row: Black's share of GNU Go's self-play),
    with the Clopper-Pearson 95% interval of its summary's counts and the two-sided exact
    binomial p against the paper's value (whether the paper's value lies outside the
    interval, which alone is not a verdict), judged by
    :func:`mctslab.core.compare.paper_row` (the paper's value, margin and minimum games from
    ``mctslab/go/targets.csv``, stated before the games were played). A match with fewer games
    than the target's minimum, or off the paper's protocol (:func:`_table2_row`), is "not run
    at this scale", with the reason; an inconclusive one says how many games would settle it
    and their CPU hours at the match's CPU seconds per game (both sides)."""
    folder = Path(folder)
    rows = []
    for match, first in _finished(folder).items():
        summary = json.loads((match / "summary.json").read_text())
        row, departs = _table2_row(first["params"])
        games, black = int(summary["games"]), int(summary["games_as_black"])
        if row == "gnugo":  # self-play: the games Black won, whichever side it was
            parts = {"win rate": (int(summary["wins_as_black"]) + games - black
                                  - int(summary["wins_as_white"]), games)}
        else:
            parts = {"win rate": (int(summary["wins"]), games),
                     "win rate as Black": (int(summary["wins_as_black"]), black),
                     "win rate as White": (int(summary["wins_as_white"]), games - black)}
        cpu = (summary.get("cpu_candidate") or 0.0) + (summary.get("cpu_opponent") or 0.0)
        for column, (wins, n) in parts.items():
            if not n:
                continue
            ours = win_rate_row(wins, n)
            judged = paper_row(PAPER, "Table 2", row, column, ours["rate"], low=ours["ci_low"],
                               high=ours["ci_high"], n=n, scale="paper",
                               departure="; ".join(departs), unit_cpu_s=cpu or None)
            rows.append({"match": match.relative_to(folder).as_posix(), "Table 2 row": row,
                         "column": column, "games": n, "wins": wins,
                         "ours": round(ours["rate"], 3),
                         "95% CI": interval_text(ours["ci_low"], ours["ci_high"]),
                         "paper": judged.paper_value,
                         "p (vs paper)": win_rate_row(wins, n, p=float(judged.paper_value))[
                             "p_value"],
                         "margin": judged.margin,
                         "verdict": judged.verdict, "why": judged.why,
                         "settle games": judged.settle_n,
                         "settle CPU h": None if judged.settle_cpu_h is None
                         else round(judged.settle_cpu_h, 1)})
    if not rows:  # finished matches, but none with a game counted
        raise FileNotFoundError(f"{folder}: no finished match with games")
    return pd.DataFrame(rows)


def _pairing(record: dict) -> tuple:
    """What two matches must share for game i of each to meet the same GNU Go: the match seed,
    board, komi, opponent and referee."""
    params = record["params"]
    return (record.get("seed"), params.get("size"), params.get("komi"),
            json.dumps(params.get("opponent"), sort_keys=True), params.get("referee_level"))


def paired(folder) -> pd.DataFrame:
    """The finished matches of a match record compared game by game with its paper engine (the
    first match judged against Table 2 with no departure from the protocol, else the first
    match): :func:`mctslab.go.tables.ablation_table` over their common stored games, game i of
    each having met the same GNU Go (same seed, board, komi, opponent and referee; a match that
    differs in any of them is left out). ``b/c``: games won only by the row / only by the paper
    engine; the exact McNemar p; a 95% interval of the difference in rates."""
    folder = Path(folder)
    finished = _finished(folder)
    control = next((m for m, first in finished.items() if not _table2_row(first["params"])[1]),
                   next(iter(finished)))
    key = _pairing(finished[control])
    matches = [m for m, first in finished.items() if _pairing(first) == key]
    names = [m.relative_to(folder).as_posix() for m in matches]
    table = tables.ablation_table(played_from_stores(matches, names),
                                  control.relative_to(folder).as_posix())
    return table.rename(columns={"row": "match"})
