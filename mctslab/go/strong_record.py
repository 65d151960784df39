"""The strong engine's committed matches on 9x9, read back as tables: its validation
against GNU Go 3.8 level 10, the ablation (one piece changed per row, the same seeds, paired
against the full engine) and the state-tabu paper's question asked of it (gTabu18-hash-win's
lists against none, head to head), each with its power (:func:`mctslab.core.stats.
games_for_power` and :func:`~mctslab.core.stats.detectable_difference`).

Nothing is played here. ``mctslab go strong`` (``scripts/go-strong``) plays the rows of
:mod:`mctslab.go.plans` (and resumes them) into a match record,
``records/go_state_tabu/strong9-<date>/<row>/`` (one ``mctslab go match --out`` folder per row;
``mctslab records check`` recomputes each summary from its games), whose ``plan.json`` gives
the games each row was meant to reach. The notebook's "Beyond the paper: do tabu lists help a
strong MCTS?" and ``docs/bench/go.md`` (``mctslab go strong report``, :func:`markdown`) show
these tables; without a record, each table is one row saying how to make one.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pandas as pd

from mctslab import paths
from mctslab.core.scorecard import md_table
from mctslab.core.stats import (
    detectable_difference,
    games_for_power,
    mcnemar_exact,
    win_rate_cells,
    win_rate_row,
)
from mctslab.core.store import ResultStore
from mctslab.go import endgame, match_record, plans, tables
from mctslab.go.plans import CONTROL, HEAD_TO_HEAD, TABU_CONFIG, TABU_EXPANSION, TABU_PLAYOUTS
from mctslab.go.played import Played, played_from_stores

__all__ = ["PREFIX", "CONTROL", "ROWS", "HEAD_TO_HEAD", "TABU_CONFIG", "TABU_DIFFERENCE", "find",
           "played", "validation_table", "ablation", "head_to_head_games", "tabu_table",
           "example_games", "examples", "pass_rules", "markdown"]

NOTEBOOK = "go_state_tabu"
PREFIX = "strong9-"        # records/go_state_tabu/strong9-<date>/
# what each row changes in the full engine (the rows and their flags: mctslab.go.plans)
ROWS = {name: changes for name, (changes, _) in plans.STRONG_ROWS.items()}
TABU_DIFFERENCE = 0.03  # the question: a 3-point difference in win rate
# CPU seconds per head-to-head game at 2,000 playouts, both sides ours plus the GNU Go referee:
# a 4-game probe on 9x9, 2026-11-26 (docs/bench/go.md, "The tabu question ... sizing")
TABU_CPU_S_PER_GAME = 6.0


def find(root=None, kind: str = "") -> Path | None:
    """The newest ``records/go_state_tabu/strong9-<date>/`` (``root``: another records
    folder), or None; a record of another match (``strong9-<kind>-<date>``) is not one. With
    ``kind``, the newest ``strong9-<kind>-<date>/``: ``plain``, the plain pass rule's
    validation; ``pachi``, the match against Pachi."""
    base = paths.records_root(root) / NOTEBOOK
    middle = f"{kind}-" if kind else ""
    found = sorted(p for p in base.glob(f"{PREFIX}{middle}*") if p.is_dir()
                   and re.fullmatch(rf"{PREFIX}{middle}\d{{4}}-\d\d-\d\d", p.name)) \
        if base.is_dir() else []
    return found[-1] if found else None


def _has_games(match: Path) -> bool:
    """Whether a match folder has a store with a game in it: a packed one, or a plain file
    that is not empty (checked without reading the games: :func:`played` reads them)."""
    stores = [ResultStore(store) for store in paths.results_root(match).glob("*")]
    return any(s.packed.exists() or (s.path.exists() and s.path.stat().st_size) for s in stores)


def _matches(folder: Path) -> dict[str, Path]:
    """The record's match folders with stored games, by row name, the control first."""
    found = {p.name: p for p in sorted(folder.iterdir()) if p.is_dir() and _has_games(p)}
    return dict(sorted(found.items(), key=lambda item: item[0] != CONTROL))


def _plan(folder: Path) -> dict:
    return plans.planned_games(folder)


def _rate_cells(wins: int, games: int) -> dict:
    """Rate, 95% Clopper-Pearson interval and two-sided binomial p against 0.5
    (:func:`mctslab.core.stats.win_rate_row`) as the tables show them."""
    row = win_rate_row(wins, games)
    return {**win_rate_cells(wins, games), "p (vs 0.5)": float(f"{row['p_value']:.3g}")}


def played(folder: Path, head_to_head: bool = False) -> Played:
    """The stored games of the record's rows (the head-to-head rows when ``head_to_head``,
    else the matches against GNU Go), one :class:`Played` row per folder."""
    folders = {name: path for name, path in _matches(folder).items()
               if name.startswith(HEAD_TO_HEAD) == head_to_head}
    if not folders:
        return Played([], [], [], skipped=f"no stored games in {folder}")
    return played_from_stores(list(folders.values()), list(folders))


def _missing(what: str, command: str) -> pd.DataFrame:
    return pd.DataFrame({"record": [f"no records/{NOTEBOOK}/{PREFIX}<date>/ with {what}"],
                         "to make one": [command]})


def _status(games: int, planned: int | None) -> str:
    if not games:
        return "not played"
    if planned and games < planned:
        return f"partial: {games} of {planned} planned games"
    return "complete"


def _detectable(games: int, rate: float, lower: bool = True) -> float:
    if not games or not 0 < rate < 1:
        return math.nan
    return detectable_difference(games, rate, lower=lower)


def validation_table(folder=None) -> pd.DataFrame:
    """The full engine against GNU Go level 10: games (and the games planned), wins by colour,
    rate, 95% Clopper-Pearson interval, two-sided binomial p against 0.5, the wins by the plain
    count (every stone alive: a win the referee gives by removing dead stones may not be one on
    a server that counts every stone), CPU seconds per game
    of each side, and the smallest drop in rate (80% power, 5% two-sided, two independent
    rates) a row of as many games could be told apart from it."""
    folder = Path(folder) if folder is not None else find()
    if folder is None or CONTROL not in (_matches(folder) if folder.is_dir() else {}):
        return _missing(f"a {CONTROL}/ match", "scripts/go-strong validate 200")
    found = played(folder)
    frame = tables.games_frame(found)
    games = frame[frame.method == CONTROL]
    n, wins = len(games), int(games.won.sum())
    cells = _rate_cells(wins, n)
    black, white = games[games.color == "B"], games[games.color == "W"]
    return pd.DataFrame([{
        "row": CONTROL, "engine": ROWS[CONTROL], "opponent": "GNU Go 3.8 level 10",
        "games": n, "status": _status(n, _plan(folder).get(CONTROL)),
        "wins as B": f"{int(black.won.sum())}/{len(black)}",
        "wins as W": f"{int(white.won.sum())}/{len(white)}", "wins": wins, **cells,
        "wins (plain count)": _plain_wins(found, CONTROL, n),
        "CPU s/game (ours)": round(float(games.cpu_candidate.mean()), 2),
        "CPU s/game (GNU Go)": round(float(games.cpu_opponent.mean()), 2),
        "detectable drop (80% power)": _detectable(n, wins / n),
        "record": f"records/{NOTEBOOK}/{folder.name}"}])


def pieces_table(folder) -> pd.DataFrame:
    """A ``pieces9`` record (:data:`mctslab.go.plans.PIECE_ROWS`): :func:`ablation` of its rows,
    each adding a piece to the full engine, with the smallest rise from the full engine's rate
    its games could find instead of the smallest drop."""
    return ablation(folder, added=True)


def ablation(folder=None, added: bool = False) -> pd.DataFrame:
    """:func:`mctslab.go.tables.ablation_table` of the record's rows against the full engine
    over their common games (the same seeds), with what each row changes, its wins by the
    plain count (every stone alive) over the same games, the games it was
    planned to reach and its status (complete, partial, not played), and the smallest drop
    from the full engine's rate its games could find (80% power, 5% two-sided; two
    independent rates, so a bound: the paired design finds somewhat less). Rows of the plan
    with no game stored are listed as not played. ``added``: the rows add pieces
    (:func:`pieces_table`)."""
    folder = Path(folder) if folder is not None else find()
    if folder is None or CONTROL not in (_matches(folder) if folder.is_dir() else {}):
        return _missing("ablation rows", "scripts/go-strong validate 200; scripts/go-strong "
                                         "ablation 60")
    plan = _plan(folder)
    found = played(folder)
    table = tables.ablation_table(found, CONTROL)
    control_rate = float(table.loc[table.row == CONTROL, "rate"].iloc[0])
    table.insert(1, "changes", [ROWS.get(r, "") for r in table.row])
    table.insert(3, "status", [_status(int(n), plan.get(r)) for r, n in zip(table.row,
                                                                             table.games)])
    table.insert(table.columns.get_loc("wins") + 1, "wins (plain count)",
                 [_plain_wins(found, r, int(n)) for r, n in zip(table.row, table.games)])
    table[f"detectable {'rise' if added else 'drop'} (80% power)"] = [
        math.nan if r == CONTROL else _detectable(int(n), control_rate, lower=not added)
        for r, n in zip(table.row, table.games)]
    missing = [r for r in plan if r not in set(table.row) and not r.startswith(HEAD_TO_HEAD)]
    extra = pd.DataFrame([{"row": r, "changes": ROWS.get(r, ""), "games": 0,
                           "status": _status(0, plan[r])} for r in missing])
    table = pd.concat([table, extra], ignore_index=True) if missing else table
    order = {row: k for k, row in enumerate(dict.fromkeys([CONTROL, *plan, *ROWS]))}
    table = table.iloc[sorted(range(len(table)),
                              key=lambda k: (order.get(table.row[k], len(order)), table.row[k]))]
    table = table.reset_index(drop=True)
    for column in ("games", "wins", "wins (plain count)", f"{CONTROL} wins",
                   "difference (games)"):
        table[column] = table[column].astype("Int64")  # unplayed rows: empty, not 0.0
    return table


def head_to_head_games(difference: float = TABU_DIFFERENCE, power: float = 0.8,
                       alpha: float = 0.05) -> int:
    """Games of a head-to-head match (one rate tested against 0.5) to find a win rate of
    ``0.5 + difference`` with ``power``: the one-sample form of :func:`games_for_power`'s
    normal approximation (half its games per engine), rounded up to an even number so that
    colours alternate evenly."""
    games = math.ceil(games_for_power(0.5, 0.5 + difference, power, alpha) / 2)
    return games + games % 2


def _against_gnugo_row(folder: Path | None) -> dict:
    """The tabu question against GNU Go level 10: a tabu row beside the full engine, paired;
    sized at the full engine's recorded rate and CPU time per game (both sides)."""
    frame = None
    if folder is not None and folder.is_dir() and CONTROL in _matches(folder):
        frame = tables.games_frame(played(folder))
        frame = frame[frame.method == CONTROL]
    rate = float(frame.won.mean()) if frame is not None and len(frame) else 0.5
    other = rate + TABU_DIFFERENCE if rate + TABU_DIFFERENCE < 1 else rate - TABU_DIFFERENCE
    needed = games_for_power(rate, other)
    row = {"contrast": f"{TABU_CONFIG} on the strong engine and the engine without lists, each "
                       f"against GNU Go level 10 (8,000 playouts, 9x9), paired by seed; "
                       f"games per row, at the full engine's rate {rate:.3f}",
           "games needed (3 points, 80% power)": needed, "games": 0, "status": "not played",
           "command": f"two rows of scripts/go-strong's match (--config {TABU_CONFIG}, and "
                      f"none; both --expansion-threshold {TABU_EXPANSION}), {needed} games each"}
    if frame is not None and len(frame):
        seconds = float((frame.cpu_candidate + frame.cpu_opponent).mean())
        row["CPU h needed"] = round(2 * needed * seconds / 3600, 1)
    return row


def tabu_table(folder=None) -> pd.DataFrame:
    """The tabu question asked of the strong engine, two ways. Head to head (the engine with
    gTabu18-hash-win's lists against itself without, equal playouts, colours alternating):
    each such row of the record with its games, the games needed to find a 3-point difference
    with 80% power (:func:`head_to_head_games`) and their CPU hours, the tabu side's wins,
    rate, interval and p against 0.5, and the smallest difference its games could find; when
    none was played, one row saying so with what it needs and its command. Then against GNU Go
    level 10: the games per row and CPU hours a 3-point difference needs there, at the full
    engine's recorded rate and cost (not played: see its CPU hours)."""
    needed = head_to_head_games()
    base = {"contrast": f"{TABU_CONFIG} against no tabu, head to head, strong engine, "
                        f"{TABU_PLAYOUTS:,} playouts, expansion at {TABU_EXPANSION} visits, 9x9",
            "games needed (3 points, 80% power)": needed,
            "CPU h needed": round(needed * TABU_CPU_S_PER_GAME / 3600, 1),
            "command": f"scripts/go-strong tabu {needed} {TABU_PLAYOUTS} {TABU_EXPANSION}"}
    folder = Path(folder) if folder is not None else find()
    found = played(folder, head_to_head=True) if folder is not None and folder.is_dir() else None
    rows = []
    if found is None or found.skipped:
        rows.append({**base, "games": 0, "status": "not played"})
    else:
        frame = tables.games_frame(found)
        for name in dict.fromkeys(found.rows):
            games = frame[frame.method == name]
            n, wins = len(games), int(games.won.sum())
            rows.append({**base, "contrast": f"{base['contrast']} ({name})", "games": n,
                         "status": _status(n, _plan(folder).get(name, needed)),
                         "tabu wins": wins, **_rate_cells(wins, n),
                         # one rate against 0.5: games_for_power's games per engine, halved
                         "detectable difference (80% power)": _detectable(2 * n, 0.5,
                                                                          lower=False)})
    rows.append(_against_gnugo_row(folder))
    frame = pd.DataFrame(rows)
    order = ["contrast", "games", "status", "tabu wins", "rate", "95% CI", "p (vs 0.5)",
             "detectable difference (80% power)", "games needed (3 points, 80% power)",
             "CPU h needed", "command"]
    return frame[[c for c in order if c in frame.columns]]


def example_games(folder=None, against: str = "") -> dict[str, bytes]:
    """One won and one lost game of the full engine (the first of each in seed order), as
    ``{"strong won: game i, as Colour": SGF bytes, "strong lost: ...": bytes}`` (``against``,
    when given, follows "strong won"/"lost" as "against <who>"), from the record's games whether
    packed or not (:func:`mctslab.go.match_record.game_sgf`); empty without a record."""
    folder = Path(folder) if folder is not None else find()
    if folder is None or not match_record.games_kept(folder / CONTROL):
        return {}
    against = f" against {against}" if against else ""
    frame = tables.games_frame(played(folder))
    frame = frame[frame.method == CONTROL]
    chosen = {}
    for won, word in ((True, "won"), (False, "lost")):
        games = frame[frame.won == won]
        if games.empty:
            continue
        game = games.iloc[0]
        colour = "Black" if game.color == "B" else "White"
        text = match_record.game_sgf(folder / CONTROL, f"{int(game.game):04d}-{game.color}.sgf")
        if text is not None:
            chosen[f"strong {word}{against}: game {int(game.game)}, as {colour}"] = text
    return chosen


def examples() -> dict[str, bytes]:
    """:func:`example_games` of the validation against GNU Go, then of the newest match
    against Pachi (``strong9-pachi-<date>``) when there is one: the notebook's board images."""
    pachi = find(kind="pachi")
    return {**example_games(), **(example_games(pachi, against="Pachi") if pachi else {})}


def markdown(folder=None) -> str:
    """The three tables as Markdown under a line citing the record and the CPU time of its
    stored games (for docs/bench/go.md; ``scripts/go-strong report`` prints it)."""
    folder = Path(folder) if folder is not None else find()
    where = f"records/{NOTEBOOK}/" + (folder.name if folder is not None else " (none)")
    cost = ""
    if folder is not None and folder.is_dir() and _matches(folder):
        frame = tables.games_frame(played(folder))
        cost = (f" {len(frame)} games stored against GNU Go, {frame.cpu_candidate.sum() / 3600:.2f}"
                f" CPU hours ours and {frame.cpu_opponent.sum() / 3600:.2f} GNU Go's.")
    parts = [f"From `{where}` (`scripts/go-strong report`; `mctslab records check` "
             f"recomputes each match's summary from its games).{cost}"]
    for title, frame in (("Validation", validation_table(folder)),
                         ("Ablation (each row against the full engine over the same games)",
                          ablation(folder)),
                         ("The tabu question, head to head and against GNU Go",
                          tabu_table(folder))):
        parts += [f"**{title}**", md_table(frame)]
    return "\n\n".join(parts) + "\n"


_MOVE = re.compile(r";([BW])\[([a-z]*)\]")


def _game_rows(folder: Path) -> list[dict]:
    """A match folder's games in seed order: won by the referee, won by the plain count, the
    moves played (from the game's SGF)."""
    found = played_from_stores([folder])
    return [{"won": bool(r["candidate_won"]),
             "plain": endgame.plain_winner(r) == t.params["color"],
             "moves": tuple(_MOVE.findall(r.get("sgf", "")))}
            for t, r in zip(found.tasks, found.results)]


def _plain_wins(found, row: str, games: int) -> int:
    """The wins by the plain count (every stone alive) of ``row``'s first ``games`` games in
    the loaded record ``found`` (a :class:`Played`; the games a table's row counts, its common
    games with the control), from the games already read."""
    mine = [(t, r) for t, r, name in zip(found.tasks, found.results, found.rows) if name == row]
    return sum(endgame.plain_winner(r) == t.params["color"] for t, r in mine[:games])


def pass_rules(folder=None) -> pd.DataFrame:
    """The plain pass rule's record (``records/go_state_tabu/strong9-plain-<date>/full``)
    against the recorded engine's (the newest ``strong9-<date>/full``, the estimate rule) over
    their common games, game i of both against the same GNU Go: per rule, the referee's wins,
    the plain count's wins and the share of the referee's wins that are plain wins too; then the
    pairing: games whose moves differ, and the exact McNemar test of the referee's results
    (b: won under the plain rule only, c: under the estimate rule only)."""
    folder = Path(folder) if folder is not None else find(kind="plain")
    recorded = find(folder.parent.parent) if folder is not None else None
    if recorded is None or not (folder / CONTROL).is_dir():
        return _missing("the two pass rules' full/ matches", "mctslab go match ... --out "
                        "records/go_state_tabu/strong9-plain-<date>/full")
    plain, estimate = _game_rows(folder / CONTROL), _game_rows(recorded / CONTROL)
    n = min(len(plain), len(estimate))
    rows = []
    for rule, games, where in (("estimate", estimate[:n], recorded), ("plain", plain[:n], folder)):
        wins = sum(g["won"] for g in games)
        both = sum(g["won"] and g["plain"] for g in games)
        rows.append({"pass rule": rule, "games": n, "wins (referee)": wins,
                     **win_rate_cells(wins, n),
                     "wins (plain count)": sum(g["plain"] for g in games),
                     "referee's wins that are plain wins too": f"{both}/{wins}",
                     "share": round(both / wins, 3) if wins else math.nan,
                     "record": f"records/{NOTEBOOK}/{where.name}/{CONTROL}"})
    b = sum(p["won"] and not e["won"] for p, e in zip(plain, estimate))
    c = sum(e["won"] and not p["won"] for p, e in zip(plain, estimate))
    differ = sum(p["moves"] != e["moves"] for p, e in zip(plain, estimate))
    for row in rows:
        row.update({"games whose moves differ": differ, "McNemar b": b, "McNemar c": c,
                    "McNemar p": float(f"{mcnemar_exact(b, c):.3g}")})
    return pd.DataFrame(rows)
