"""The state-tabu paper's tables from the notebook's results (notebook ``go_state_tabu``).

Table 2 (wins as Black / White / total against GNU Go), Table 3 (two-sided binomial test
against 0.5 with the 95% Clopper-Pearson interval, and the exact McNemar test of each tabu row
against gTabu0 and against gnugo-uct over the same games), the host engine's vetoes and
shortlists, the veto rates on stored positions, the validation of the host engine against GNU
Go's own Monte-Carlo mode, Fig. 6's thinking time, Fig. 5 in numbers, Table 4 with the Eq. 12
bound (and both by the strong engine beside the paper's search: ``*_by_engine``), and what the
paper's full protocol costs. Every table here comes from results of this run; the paper's
numbers stand beside ours in their own columns.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mctslab.core import targets
from mctslab.core.compare import config_rows, paper_row, paper_table
from mctslab.core.stats import (
    clopper_pearson,
    games_for_power,
    mcnemar_exact,
    mean_interval,
    win_rate_cells,
    win_rate_row,
    win_rate_table,
)
from mctslab.go import claims
from mctslab.go.played import Played
from mctslab.go.tabu import GNUGO_SELF, TABU_POSITION, candidate_bound, tabu_size

__all__ = ["PAPER_TABLE2", "PAPER_TABLE3", "PAPER_TABLE4", "PAPER_FIG6", "games_frame",
           "ablation_table", "table2", "table3", "host_table", "validation_table", "veto_table",
           "thinking_table", "table4", "duplicates_table", "table4_by_engine",
           "duplicates_by_engine", "cost_table", "paper_vs_run"]

# The paper's numbers, read from its targets file (mctslab/go/targets.csv, core.targets)
_ID = "go_state_tabu"
PAPER_TABLE2 = {  # wins as Black, as White, of 500 each (the "gnugo" row: GNU Go vs itself)
    name: targets.values(_ID, "Table 2", name, ("wins as Black", "wins as White"))
    for name in targets.rows(_ID, "Table 2")}
PAPER_TABLE3 = {  # p value, 95% CI, significant at alpha = 0.05
    name: targets.values(_ID, "Table 3", name, ("p value", "95% CI low", "95% CI high"))
    for name in targets.rows(_ID, "Table 3")}
PAPER_TABLE4 = tuple(targets.value(_ID, "Table 4", f"L = {size}", "tabu candidates (total)")
                     for size in range(16))  # tabu candidates at L = 0..15, 8,000 playouts
PAPER_TABLE4_PER_PLAYOUT = tuple(  # as printed (L = 8: 0.213, though 1,700 / 8,000 = 0.2125)
    targets.value(_ID, "Table 4", f"L = {size}", "tabu candidates per playout")
    for size in range(16))
PAPER_FIG6 = {t.row: t.value for t in targets.load(_ID).itertuples()  # s per game minus gnugo's
              if (t.artefact, t.column) == ("Fig. 6", "thinking time per game minus gnugo's")}


def _skipped(played: Played) -> pd.DataFrame | None:
    return pd.DataFrame({"skipped": [played.skipped]}) if played.skipped else None


def games_frame(played: Played) -> pd.DataFrame:
    """One row per game: its row name, game index within the row (the pairing key), colour,
    result and the candidate's counts."""
    rows, index = [], {}
    for task, result, name in zip(played.tasks, played.results, played.rows):
        i = index[name] = index.get(name, -1) + 1
        counts = result.get("candidate_counts", {})
        rows.append(dict(method=name, game=i, color=task.params["color"],
                         won=bool(result["candidate_won"]), moves=result["moves"],
                         end=result["end"], area_agrees=result["area_agrees"],
                         think_candidate=result["think_candidate"],
                         think_opponent=result["think_opponent"],
                         cpu_candidate=result["cpu_candidate"],
                         cpu_opponent=result["cpu_opponent"], restarts=result["restarts"],
                         searched=counts.get("searched"), vetoes=counts.get("vetoes"),
                         fuseki=counts.get("fuseki"), host_moves=counts.get("host_moves"),
                         mean_shortlist=counts.get("mean_shortlist"),
                         tabu_candidates=counts.get("tabu_candidates", 0)))
    return pd.DataFrame(rows)


def _paper_rate(name: str):
    """The paper's total rate of 1,000 games (its targets file); its "gnugo" row gives
    Black's and White's wins of the same self-play games (513 + 487 of 1,000), so its rate is
    Black's share 0.513, not a candidate's."""
    if name not in PAPER_TABLE2:
        return None
    return targets.value(_ID, "Table 2", name, "win rate")


def table2(played: Played) -> pd.DataFrame:
    """Wins as Black, as White and in all per row, ours beside the paper's."""
    skipped = _skipped(played)
    if skipped is not None:
        return skipped
    rows = []
    for name, group in games_frame(played).groupby("method", sort=False):
        black, white = group[group.color == "B"], group[group.color == "W"]
        wins_b, wins_w = int(black.won.sum()), int(white.won.sum())
        rows.append({"method": name, "wins as B": f"{wins_b}/{len(black)}",
                     "rate B": round(wins_b / max(len(black), 1), 3),
                     "wins as W": f"{wins_w}/{len(white)}",
                     "rate W": round(wins_w / max(len(white), 1), 3),
                     "total": f"{wins_b + wins_w}/{len(group)}",
                     "rate": round((wins_b + wins_w) / len(group), 3),
                     "paper rate": _paper_rate(name),
                     "restarts": int(group.restarts.sum()),
                     "area count disagrees": int((group.area_agrees == False).sum()),  # noqa: E712
                     "resigned or capped": int((group.end != "passes").sum())})
    return pd.DataFrame(rows)


def _paired(games: pd.DataFrame, name: str, control: str):
    """(b, c, exact McNemar p) of row ``name`` against row ``control`` over their common games
    (b: games only ``name`` won, c: only ``control``), or None."""
    a = games[games.method == name].set_index("game").won
    b = games[games.method == control].set_index("game").won
    common = a.index.intersection(b.index)
    if name == control or len(common) == 0:
        return None
    a, b = a[common], b[common]
    only_a, only_b = int((a & ~b).sum()), int((~a & b).sum())
    return only_a, only_b, mcnemar_exact(only_a, only_b)


def ablation_table(played: Played, control: str) -> pd.DataFrame:
    """Each row of ``played`` against ``control`` over their common games (same seeds): its
    wins, rate and 95% interval, the control's wins on the same games, what the row's change
    costs in games (b - c: games only the row won minus games only the control won), the
    exact McNemar p and a 95% interval of the difference in rates (conditional on the
    b + c games the two split: Clopper-Pearson for b of them, times (b + c) / n)."""
    games = games_frame(played)
    base = games[games.method == control].set_index("game").won
    rows = []
    for name in dict.fromkeys(played.rows):
        won = games[games.method == name].set_index("game").won
        common = won.index.intersection(base.index)
        a, b = won[common], base[common]
        only_a, only_b = int((a & ~b).sum()), int((~a & b).sum())
        n, split = len(common), only_a + only_b
        low, high = clopper_pearson(only_a, split) if split else (0.5, 0.5)
        rows.append({"row": name, "games": n, "wins": int(a.sum()),
                     **win_rate_cells(int(a.sum()), n), f"{control} wins": int(b.sum()),
                     "difference (games)": only_a - only_b, "b/c": f"{only_a}/{only_b}",
                     "McNemar p": round(mcnemar_exact(only_a, only_b), 3) if split else 1.0,
                     "difference 95% CI": f"{split / n * (2 * low - 1):+.3f} to "
                                          f"{split / n * (2 * high - 1):+.3f}"})
    return pd.DataFrame(rows)


def table3(played: Played, controls=("gTabu0", "gnugo-uct")) -> pd.DataFrame:
    """Two-sided binomial test of each row's total wins against p = 0.5 with its 95%
    Clopper-Pearson interval ``ci_low`` / ``ci_high`` (:func:`mctslab.core.stats.win_rate_table`;
    rate, p and interval to 3 decimals), the paper's beside; and the exact McNemar test of each
    row against each control row over the same games (same seeds, same GNU Go): ``b/c`` = games
    won only by the row / only by the control."""
    skipped = _skipped(played)
    if skipped is not None:
        return skipped
    games = games_frame(played)
    counts = [{"method": name, "wins": int(group.won.sum()), "games": len(group)}
              for name, group in games.groupby("method", sort=False)]
    rows = []
    for stats in win_rate_table(counts, rounded=False).to_dict("records"):
        name = stats["method"]
        paper = PAPER_TABLE3.get(name)
        row = {"method": name, "wins": stats["wins"], "games": stats["games"],
               "rate": round(stats["rate"], 3), "p": round(stats["p_value"], 3),
               "ci_low": round(stats["ci_low"], 3), "ci_high": round(stats["ci_high"], 3),
               "significant": bool(stats["significant"]),
               "paper p": None if paper is None else paper[0],
               "paper ci_low": None if paper is None else paper[1],
               "paper ci_high": None if paper is None else paper[2]}
        for control in controls:
            pair = _paired(games, name, control) if name != GNUGO_SELF else None
            row[f"vs {control} b/c"] = None if pair is None else f"{pair[0]}/{pair[1]}"
            row[f"vs {control} McNemar p"] = None if pair is None else round(pair[2], 3)
        rows.append(row)
    return pd.DataFrame(rows)


def host_table(played: Played) -> pd.DataFrame:
    """Per row, what the host engine did: moves the host proposed, fuseki moves (played with no
    search), moves searched, vetoes (another move than GNU Go's) and the mean shortlist size,
    where the tabu lists can matter at all."""
    skipped = _skipped(played)
    if skipped is not None:
        return skipped
    rows = []
    for name, group in games_frame(played).groupby("method", sort=False):
        if group.searched.isna().all():
            continue
        searched = int(group.searched.sum())
        vetoes = int(group.vetoes.sum())
        shortlist = group.mean_shortlist.dropna()
        rows.append({"method": name, "host moves": int(group.host_moves.sum()),
                     "fuseki": int(group.fuseki.sum()), "searched": searched,
                     "vetoes": vetoes,
                     "veto rate": round(vetoes / searched, 3) if searched else None,
                     "mean shortlist": round(float(shortlist.mean()), 1) if len(shortlist)
                     else None,
                     "tabu candidates / searched move": round(
                         float(group.tabu_candidates.sum()) / searched, 1) if searched else None})
    return pd.DataFrame(rows)


def validation_table(*played_sets: Played, reference: str = "gnugo-mc L10") -> pd.DataFrame:
    """The host engine beside GNU Go's own Monte-Carlo mode against the same GNU Go: each row's
    rate and 95% interval, and whether it lies inside ``reference``'s interval."""
    frames = [games_frame(p) for p in played_sets if not p.skipped]
    if not frames:
        return _skipped(played_sets[0])
    games = pd.concat(frames, ignore_index=True)
    counts = {name: (int(group.won.sum()), len(group))
              for name, group in games.groupby("method", sort=False)}
    ref = win_rate_row(*counts[reference]) if reference in counts else None
    rows = []
    for name, (wins, n) in counts.items():
        rows.append({"method": name, "wins": wins, "games": n, **win_rate_cells(wins, n),
                     f"inside {reference}'s CI": None if ref is None or name == reference
                     else bool(ref["ci_low"] <= wins / n <= ref["ci_high"])})
    return pd.DataFrame(rows)


def veto_table(played: Played) -> pd.DataFrame:
    """Per engine and board size: positions, how many times the engine played GNU Go's
    classical move (rate, 95% interval) and the mean shortlist (host engine)."""
    skipped = _skipped(played)
    if skipped is not None:
        return skipped
    frame = pd.DataFrame([dict(engine=name, size=r["size"], same=not r["vetoed"],
                               shortlist=r["shortlist"])
                          for name, r in zip(played.rows, played.results)])
    rows = []
    for (name, size), group in frame.groupby(["engine", "size"], sort=False):
        same, n = int(group.same.sum()), len(group)
        shortlist = group.shortlist.dropna()
        rows.append({"engine": name, "board": f"{size}x{size}", "positions": n,
                     "plays GNU Go's move": same, **win_rate_cells(same, n),
                     "mean shortlist": round(float(shortlist.mean()), 1) if len(shortlist)
                     else None})
    return pd.DataFrame(rows)


def thinking_table(played: Played) -> pd.DataFrame:
    """Fig. 6's quantity per row: mean thinking time per game, ours minus GNU Go's (wall
    seconds of the genmove calls; ours includes the host GNU Go), and the CPU seconds per
    game of both sides."""
    skipped = _skipped(played)
    if skipped is not None:
        return skipped
    rows = []
    for name, group in games_frame(played).groupby("method", sort=False):
        rows.append({"method": name, "ours s/game": round(group.think_candidate.mean(), 3),
                     "GNU Go s/game": round(group.think_opponent.mean(), 3),
                     "difference s/game": round((group.think_candidate
                                                 - group.think_opponent).mean(), 3),
                     "ours s/move": round((group.think_candidate / (group.moves / 2)).mean(), 4),
                     "CPU s/game, both sides": round((group.cpu_candidate
                                                      + group.cpu_opponent).mean(), 2),
                     "paper difference s/game": PAPER_FIG6.get(name)})
    return pd.DataFrame(rows)


def table4(cfg, played: Played) -> pd.DataFrame:
    """Tabu candidates per move-tabu size L, ours beside the paper's, and the Eq. 12 bound.

    One row per L over its searches (``cfg.table4_searches``, each with its own seed): the
    mean total, the mean per playout with its 95% t interval (NaN with one search: the paper's
    one search has no spread), and the seconds of one search (the engine's wall clock of one
    thread, its CPU time on a quiet core: the cost per unit of an open row)."""
    by_size: dict[int, list[dict]] = {}
    for t, r in zip(played.tasks, played.results):
        by_size.setdefault(t.params["size"], []).append(r)
    rows = []
    for size, results in by_size.items():
        per, low, high = mean_interval([r["tabu_candidates"] / r["playouts"] for r in results])
        seconds = [r["seconds"] for r in results if r.get("seconds") is not None]
        rows.append({"L": size, "searches": len(results),
                     "total": round(float(np.mean([r["tabu_candidates"] for r in results])), 1),
                     "per playout": round(float(per), 4), "low": round(float(low), 4),
                     "high": round(float(high), 4),
                     "s per search": round(float(np.mean(seconds)), 2) if seconds else np.nan,
                     "paper total": PAPER_TABLE4[size] if size < len(PAPER_TABLE4) else None,
                     "paper per playout": PAPER_TABLE4_PER_PLAYOUT[size]
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


# engine labels of the *_by_engine tables: the paper's search (our UCT with the configuration's
# expansion threshold and GNU Go's 3x3 patterns, the search the host engine runs inside GNU Go)
# and the strong engine (mctslab.go.strong, its defaults)
ENGINES = ("host", "strong")


def table4_by_engine(cfg, host: Played, strong: Played) -> pd.DataFrame:
    """Table 4 by both engines from the same position, per move-tabu size L: tabu candidates
    in all and per playout of the paper's search (``host``) and of the strong engine, the
    paper's, and the Eq. 12 bound; the strong engine's ``skipped`` reason when it did not run."""
    skipped = _skipped(strong)
    if skipped is not None:
        return skipped
    by_engine = [table4(cfg, played).set_index("L") for played in (host, strong)]
    frame = pd.DataFrame(index=sorted(set(by_engine[0].index) | set(by_engine[1].index)))
    for engine, table in zip(ENGINES, by_engine):
        frame[f"{engine} total"] = table["total"]
        frame[f"{engine} per playout"] = table["per playout"]
    sizes = frame.index
    frame["paper total"] = [PAPER_TABLE4[size] if size < len(PAPER_TABLE4) else None
                            for size in sizes]
    frame["paper per playout"] = [PAPER_TABLE4_PER_PLAYOUT[size] if size < len(PAPER_TABLE4)
                                  else None for size in sizes]
    frame["Eq. 12 bound"] = [round(candidate_bound(19, size, cfg.tabu_moves), 3)
                             for size in sizes]
    return frame.rename_axis("L").reset_index()


def duplicates_by_engine(host: Played, strong: Played) -> pd.DataFrame:
    """Fig. 5 in numbers by both engines (:func:`duplicates_table`, an ``engine`` column
    first: ``host`` the paper's search, ``strong`` the strong engine); the strong engine's
    ``skipped`` reason when it did not run."""
    skipped = _skipped(strong)
    if skipped is not None:
        return skipped
    frames = [duplicates_table(played).assign(engine=engine)
              for engine, played in zip(ENGINES, (host, strong))]
    frame = pd.concat(frames, ignore_index=True)
    return frame[["engine", *[c for c in frame.columns if c != "engine"]]]


def cost_table(played: Played, *, rows: int = 6, games_per_row: int = 1000,
               workers: int = 64, paper_rates=(0.540, 0.519)) -> pd.DataFrame:
    """What the paper's full Table 2 costs from this run's measured CPU seconds per game (both
    sides), in CPU hours and in wall hours on ``workers`` cluster workers; and the games per
    engine a two-sided test at 5% needs for 80% power to tell ``paper_rates`` apart (the
    paper's gTabu18-hash-win 0.540 against gnugo-uct 0.519: its own 1,000 games per row give
    z = 0.94). The board size is this run's: 9x9 games are far cheaper than the paper's 19x19."""
    skipped = _skipped(played)
    if skipped is not None:
        return skipped
    games = games_frame(played)
    cpu = float((games.cpu_candidate + games.cpu_opponent).mean())
    size = played.tasks[0].params["size"]
    needed = games_for_power(*paper_rates)
    return pd.DataFrame([{
        "board": f"{size}x{size}", "CPU s/game (measured)": round(cpu, 1),
        "Table 2 games": rows * games_per_row,
        "CPU hours": round(cpu * rows * games_per_row / 3600, 1),
        f"wall hours on {workers} workers": round(cpu * rows * games_per_row / 3600 / workers, 2),
        "games per engine for 80% power (0.540 vs 0.519)": needed,
        "CPU hours for two such engines": round(2 * needed * cpu / 3600, 1)}])


def cost_tables(played: Played, **options) -> pd.DataFrame:
    """:func:`cost_table` for each row of ``played`` (a row per recorded match folder, as
    :func:`mctslab.go.played.played_from_stores` reads them): what the paper's Table 2 would cost at each
    engine's measured CPU seconds per game."""
    frames = []
    for name in dict.fromkeys(played.rows):
        keep = [i for i, row in enumerate(played.rows) if row == name]
        part = Played([played.tasks[i] for i in keep], [played.results[i] for i in keep],
                      [name] * len(keep))
        frames.append(cost_table(part, **options).assign(method=name))
    frame = pd.concat(frames, ignore_index=True)
    return frame[["method", *[c for c in frame.columns if c != "method"]]]


def gnugo_version(played: Played) -> str | None:
    """The GNU Go version the games of ``played`` report (each game stores what its GNU Go
    answered to GTP ``version``); ``None`` without games."""
    found = {r.get("gnugo_version") for r in played.results} - {None} \
        if played_games(played) else set()
    return ", ".join(sorted(found)) if found else None


def protocol_values(paper_cfg, version: str | None = None) -> dict:
    """Our value of every protocol constant the paper states (its ``config`` targets), from
    the configuration at paper scale (``cfg.protocol()``) and the code it runs: Table 1's
    engines (:func:`mctslab.go.tabu.parse_config`), Eq. 8's schedule, the redraw; the GNU Go
    version is the one the games report (:func:`gnugo_version`; ``None``: no game played)."""
    values = {}
    try:
        values[("Table 1", "gnugo", "GNU Go version")] = float(version.split()[-1])
    except (AttributeError, ValueError, IndexError):  # no game, or another version text
        values[("Table 1", "gnugo", "GNU Go version")] = None
    for name in targets.rows(_ID, "Table 1"):
        if name == GNUGO_SELF:
            continue
        engine = paper_cfg.engine(name)
        tabu = engine.tabu()
        values[("Table 1", name, "playouts per move")] = engine.playouts
        values[("Table 1", name, "expansion threshold")] = tabu.expansion_threshold
        values[("Table 1", name, "tabu size L")] = tabu.size
        values[("Table 1", name, "tabu moves M")] = paper_cfg.tabu_moves
        values[("Table 1", name, "stores")] = {"move": "moves", "state": "positions"}.get(
            tabu.kind, "nothing")
        values[("Table 1", name, "uses win/loss")] = "yes" if tabu.update == "batch-on-loss" \
            else "no"
    size = paper_cfg.board_size

    def schedule(first, last):  # Eq. 8 over game moves first..last: one size, or "varies"
        sizes = {tabu_size(18, k, size) for k in range(first, last + 1)}
        return sizes.pop() if len(sizes) == 1 else "varies"

    values.update({
        ("Sec. 5.1", "UCB (Eq. 1)", "C"): paper_cfg.c,
        ("Sec. 5.1", "games", "komi"): paper_cfg.komi,
        ("Sec. 5.1", "games", "board size"): size,
        ("Sec. 5.1", "opponent gnugo", "level"): paper_cfg.gnugo_level,
        ("Sec. 5.2", "Table 2 rows", "games per colour"): paper_cfg.games_per_color,
        ("Eq. 8", "L = 18, 19x19", "tabu size at moves 1-90"): schedule(1, 90),
        ("Eq. 8", "L = 18, 19x19", "tabu size at moves 91-240"): schedule(91, 240),
        ("Eq. 8", "L = 18, 19x19", "tabu size from move 241"): schedule(241, 361),
        ("Sec. 4.3", "rejected tabu candidate", "redrawn by"): {
            "policy": "the playout policy, uniform after 8 rejections",
            "light": "another legal move"}.get(paper_cfg.tabu_redraw, paper_cfg.tabu_redraw),
        ("Sec. 5.3", "Fig. 5 and Table 4 searches", "playouts"): paper_cfg.analysis_playouts,
        ("Sec. 5.3", "Fig. 5 and Table 4 searches", "move searched"): TABU_POSITION[1] + 1})
    return values


# where the Table 4 gap is measured and explained: the redraw of a rejected candidate
_REDRAW_LINK = "docs/bench/go.md#table-4-and-the-tabu-redraw"


def paper_vs_run(matches: Played, duplicates: Played, table4_frame: pd.DataFrame, cfg) -> \
        pd.DataFrame:
    """The paper's numbers next to this run's, one row per target (:mod:`mctslab.core.compare`
    judges each against its targets file's margin).

    - Table 2, per engine: our win rate in all, as Black and as White with 95% Clopper-Pearson
      intervals over the games; the "gnugo" row is GNU Go against itself, so ours is Black's
      share of our self-play games, as the paper's 513 of 1,000. Only a 19x19 run against GNU
      Go level 10 is the paper's protocol (any other run's rows say so); CPU seconds per game
      (both sides) size what would settle an open row; the note gives the exact binomial p
      against the paper's value. Table 3: whether gTabu18-hash-win beats 0.5 significantly
      (the paper: p = 0.012), a claim judged on 1,000 games.
    - Table 4, per L: tabu candidates per playout, the mean over ``cfg.table4_searches``
      searches with its t interval (one search, as the paper's, has no spread: inconclusive by
      the rules, never reproduced); L = 0 must give none; the Eq. 12 bound by arithmetic.
    - The paper's claims of Table 2, Fig. 5, Sec. 5.4 and Fig. 6 from this run's tables
      (:func:`mctslab.go.claims.claim_rows`, as a record's are judged by :func:`mctslab.go.claims.record_rows`);
      on a board other than 19x19 the rows only a 19x19 run judges say so (``claims.at_board``).
    - The protocol constants (Table 1, Sec. 5, Eq. 8) at paper scale (:func:`protocol_values`).
    """
    name, scale, rows = "go_state_tabu", cfg.scale, []
    departure = "" if (cfg.board_size == 19 and cfg.gnugo_level == 10) else (
        f"{cfg.board_size}x{cfg.board_size} against GNU Go level {cfg.gnugo_level}, "
        f"{cfg.playouts} playouts; the paper's: 19x19, level 10, 8,000 playouts")
    searches = "" if cfg.analysis_playouts == 8000 else (
        f"{cfg.analysis_playouts} playouts per search; the paper's 8,000")
    if played_games(matches):
        games = games_frame(matches)
        for method, group in games.groupby("method", sort=False):
            if method not in PAPER_TABLE2:
                continue
            cpu = float((group.cpu_candidate + group.cpu_opponent).mean())
            black, white = group[group.color == "B"], group[group.color == "W"]
            if method == GNUGO_SELF:  # self-play: the games Black won, whichever side it was
                parts = {"win rate": (int(black.won.sum()) + int((~white.won).sum()),
                                      len(group))}
            else:
                parts = {"win rate": (int(group.won.sum()), len(group)),
                         "win rate as Black": (int(black.won.sum()), len(black)),
                         "win rate as White": (int(white.won.sum()), len(white))}
            for column, (wins, n) in parts.items():
                if not n:
                    continue
                ours = win_rate_row(wins, n)
                paper = targets.value(_ID, "Table 2", method, column)  # its exact test beside
                rows.append(paper_row(name, "Table 2", method, column, ours["rate"],
                                      low=ours["ci_low"], high=ours["ci_high"], n=n, scale=scale,
                                      departure=departure, unit_cpu_s=cpu,
                                      note=f"{wins} of {n} games; exact binomial p = "
                                           f"{win_rate_row(wins, n, p=paper)['p_value']:.3g} "
                                           f"against the paper's {paper}"))
        hash_win = games[games.method == "gTabu18-hash-win"]
        if len(hash_win):
            ours = win_rate_row(int(hash_win.won.sum()), len(hash_win))
            state = "holds" if ours["significant"] and ours["rate"] > 0.5 else "fails"
            rows.append(paper_row(
                name, "Table 3", "gTabu18-hash-win", "binomial test against 0.5 at 5%",
                f"{state}: p = {ours['p_value']:.3g}, rate {ours['rate']:.3f}", n=len(hash_win),
                scale=scale, departure=departure))
    for record in table4_frame.to_dict("records"):
        size, n = record["L"], int(record["searches"])
        if size >= len(PAPER_TABLE4):
            continue
        rows.append(paper_row(name, "Table 4", f"L = {size}", "tabu candidates per playout",
                              record["per playout"], low=record["low"], high=record["high"], n=n,
                              scale=scale, departure=searches, unit_cpu_s=record["s per search"],
                              note=(f"{record['total']:g} candidates in one search" if n == 1
                                    else f"mean {record['total']:g} candidates over {n} searches")
                              + f"; redraw {cfg.tabu_redraw}: {_REDRAW_LINK}"))
    rows.append(paper_row(name, "Eq. 12", "L = 12, M = 5, 19x19", "bound T(19, 12, 5)",
                          candidate_bound(19, 12, 5), scale=scale))
    games = played_games(matches)  # the claims, from the tables the notebook shows
    frames = {"table2_wins": table2(matches) if games else None,
              "fig6_thinking_time": thinking_table(matches) if games else None,
              "fig5_duplicates": duplicates_table(duplicates), "table4_candidates": table4_frame}
    rows += claims.claim_rows(frames.get, scale=scale, departure=departure, searches=searches)
    rows += config_rows(name, protocol_values(cfg.protocol(), gnugo_version(matches)), scale)
    return paper_table(claims.board_rows(rows, cfg.protocol().board_size))


def played_games(played: Played) -> bool:
    """Whether ``played`` holds games (a run without GNU Go skips the matches)."""
    return not played.skipped and bool(played.results)
