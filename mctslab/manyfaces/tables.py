"""Tables of the notebook ``manyfaces_knowledge``, built from the results of
:mod:`mctslab.manyfaces.experiments`' runners (nothing is measured or read from a file here):
the cost chain, the joseki DAG, territory estimates, the enclosed-field claim, the census,
agreement with GNU Go's regression suites, the time shares, the paper's statements next to this
run's (:func:`summary`) and the same in the shape every notebook fills (:func:`paper_vs_run`,
:mod:`mctslab.core.compare`), whose judged rows are :mod:`mctslab.manyfaces.verdicts`'s (a
committed record's: :func:`mctslab.manyfaces.verdicts.record_rows`). The paper's numbers come
from its targets file (``mctslab/manyfaces/targets.csv``).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd

from mctslab.core.compare import config_rows, paper_row, paper_table
from mctslab.manyfaces import eyes, verdicts
from mctslab.manyfaces.joseki import ESCAPE, TABLE_SIZE
from mctslab.manyfaces.knowledge import (
    CONNECTION_STRENGTHS,
    CONNECTION_TYPES,
    ENCLOSED_CENTRE_LIMIT,
    PATTERN_MATCHING,
)
from mctslab.manyfaces.verdicts import MATCHER, PAPER_COST, paper_value

__all__ = ["cost_chain_table", "census_tables", "joseki_table", "territory_table",
           "enclosed_table", "regression_table", "time_shares_table", "summary", "paper_vs_run"]

NAIVE_OPS = paper_value(MATCHER, "naive match, per board", "operations")
CHAIN_OPS = paper_value(MATCHER, "every speed-up, per incremental update", "operations")
JOSEKI_MOVES = paper_value("Joseki", "database", "moves")
JOSEKI_BYTES = paper_value("Joseki", "compressed DAG", "bytes per move")
ENCLOSED = paper_value("Influence", "1/d field inside an enclosed area", "constant")
GROUPS_SHARE = paper_value("Time shares", "re-evaluation of eye potential and escape points",
                           "% of run time")
PATTERNS_SHARE = paper_value("Time shares", "pattern matching", "% of run time")
ENTRY_SIZES = (f"{paper_value('Joseki', 'compressed DAG', 'bytes, most entries')} mostly, "
               f"{paper_value('Joseki', 'compressed DAG', 'bytes, longest entry')} longest")
GROUPS = "groups"  # the time shares' component re-evaluating eye potential and escape points


def cost_chain_table(results) -> pd.DataFrame:
    """Operations per board for each stage of the paper's chain (:data:`PAPER_COST`), ours the
    means of the matcher's counters over the positions of ``results``
    (:func:`mctslab.manyfaces.experiments.run_cost_chain`; a full match per position, or an
    incremental update per move), with the wall times."""
    sums = [Counter() for _ in PAPER_COST]
    walls: list[list[float]] = [[] for _ in PAPER_COST]
    for r in results:
        for i, stage in enumerate(r["stages"]):
            sums[i].update(stage["counts"])
            walls[i].extend(stage["seconds"])
    full = [r["full_seconds"] for r in results]
    rows = []
    for i, (stage, tried, points, paper_ops) in enumerate(PAPER_COST):
        s, n = sums[i], max(len(walls[i]), 1)
        rows.append(dict(stage=stage, paper_patterns_tried=tried, paper_points=points,
                         paper_ops=paper_ops, ours_windows=s["windows"] / n,
                         ours_candidates=s["candidates"] / n,
                         ours_comparisons=s["comparisons"] / n, ours_ops=s["ops"] / n,
                         ours_ops_per_comparison=s["ops"] / max(s["comparisons"], 1),
                         ours_ms=1000 * float(np.mean(walls[i])), measured_over=n))
    rows.append(dict(stage="full match with every speed-up (wall time only)",
                     paper_patterns_tried="", paper_points=PAPER_COST[0][2], paper_ops=None,
                     ours_ms=1000 * float(np.mean(full)), measured_over=len(full)))
    df = pd.DataFrame(rows)
    if len(results):
        df.attrs["patterns"] = results[0]["patterns"]
        df.attrs["tries"] = results[0]["tries"]
    return df


def census_tables(results) -> dict[str, pd.DataFrame]:
    """``consistency`` (games, moves checked, mismatching positions), ``connections``
    (type x strength counts) and ``eyes`` (type x GNU Go digits) over the census."""
    conn, eye = Counter(), Counter()
    for r in results:
        conn.update(r["connections"])
        eye.update(r["eyes"])
    consistency = pd.DataFrame([dict(
        games=len(results), moves_checked=sum(r["checked"] for r in results),
        positions_with_mismatch=sum(r["mismatches"] for r in results),
        games_with_mismatch=sum(r["mismatches"] > 0 for r in results),
        first_mismatch=next((r["first_mismatch"] for r in results if r["first_mismatch"]),
                            ""))])
    ct = pd.DataFrame(0, index=list(CONNECTION_TYPES), columns=list(CONNECTION_STRENGTHS))
    for key, n in conn.items():
        t, s = key.split("|")
        ct.loc[t, s] += n
    ct["total"] = ct.sum(axis=1)
    ct = ct.reset_index(names="type")
    et = pd.DataFrame([dict(type=k.split("|")[0], value=k.split("|")[1], count=n)
                       for k, n in eye.items()])
    if len(et):
        et = et.sort_values(["type", "count"], ascending=[True, False]).reset_index(drop=True)
    return {"consistency": consistency, "connections": ct, "eyes": et}


def joseki_table(joseki: dict) -> pd.DataFrame:
    """The joseki DAG's size and encoding (:func:`mctslab.manyfaces.experiments.run_joseki`)
    beside the paper's figures."""
    st, b = joseki["stats"], joseki["sizes"]
    rows = [("moves in the database", f"over {JOSEKI_MOVES:,}", b["sgf_moves"]),
            ("DAG nodes", "", st["nodes"]), ("DAG edges (moves)", "", st["edges"]),
            ("nodes merged by transpositions", "", st["merged_nodes"]),
            ("compressed bytes", "", b["bytes"]),
            (verdicts.TYPED_BYTES, JOSEKI_BYTES, round(b["bytes_per_sgf_move"], 3)),
            (verdicts.UNTYPED_BYTES, JOSEKI_BYTES, round(b["untyped_bytes_per_sgf_move"], 3)),
            ("lookup table bytes", "", b["table_bytes"]),
            ("entry sizes (bytes: count)", ENTRY_SIZES,
             str({int(size): int(n) for size, n in b["entry_sizes"]}))]
    return pd.DataFrame(rows, columns=["quantity", "paper", "ours"])


def territory_table(results) -> pd.DataFrame:
    """Territory estimate at move 100 and at the end of real games
    (:func:`mctslab.manyfaces.experiments.run_territory`), with Tromp-Taylor on the same
    position (games by resignation have no counted margin)."""
    return pd.DataFrame([{k: r[k] for k in TERRITORY_COLUMNS} for r in results],
                        columns=list(TERRITORY_COLUMNS))


TERRITORY_COLUMNS = ("game", "move", "black_area", "white_area", "neutral",
                     "estimate_b_minus_w_komi", "tromp_taylor", "dead_groups")
ENCLOSED_COLUMNS = ("side", "area", "centre_1_over_d", "min_1_over_d", "max_1_over_d",
                    "normalised_min", "normalised_max", "centre_1_over_d2", "max_1_over_d2")


def enclosed_table(results) -> pd.DataFrame:
    """The raw field inside an empty square enclosed by a Black wall
    (:func:`mctslab.manyfaces.experiments.run_enclosed`): at the centre, the lowest and
    highest interior values, for 1/d (the paper) and 1/d**2; the limit of the 1/d centre value
    for a large square is 8 ln 2 (Manhattan path distances), in ``attrs["limit"]``."""
    df = pd.DataFrame([{k: r[k] for k in ENCLOSED_COLUMNS} for r in results],
                      columns=list(ENCLOSED_COLUMNS))
    df.attrs["limit"] = ENCLOSED_CENTRE_LIMIT
    return df


def regression_table(results) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(per suite and command: tests, agreeing, GNU Go's own known failures; and every
    test's row), from :func:`mctslab.manyfaces.experiments.run_regression`'s results: the
    suites' rows, then the eyes.db shapes."""
    detail = pd.DataFrame([row for r in results if "suite" in r for row in r["rows"]])
    summary_rows = []
    for (suite, command), df in detail.groupby(["suite", "command"], sort=False):
        summary_rows.append(dict(check=f"{suite}.tst {command}", tests=len(df),
                                 agree=int(df.agree.sum()),
                                 agree_share=df.agree.mean(),
                                 gnugo_known_failures=int(df.gnugo_fails.sum())))
    db = pd.DataFrame([row for r in results if "suite" not in r for row in r["rows"]])
    summary_rows.append(dict(check="eyes.db shapes without marginal points: b c (min max)",
                             tests=len(db), agree=int(db.min_max_agree.sum()),
                             agree_share=db.min_max_agree.mean(), gnugo_known_failures=0))
    summary_rows.append(dict(check="eyes.db shapes without marginal points: all 4 digits",
                             tests=len(db), agree=int(db.all_agree.sum()),
                             agree_share=db.all_agree.mean(), gnugo_known_failures=0))
    return pd.DataFrame(summary_rows), detail


def time_shares_table(results) -> pd.DataFrame:
    """Seconds and share of the replays' time per component
    (:func:`mctslab.manyfaces.experiments.run_time_shares`), per move, beside the paper's
    shares (of a full program's time, search included, which the replays have not)."""
    seconds: dict[str, float] = {}
    for r in results:
        for component, s in r["seconds"].items():
            seconds[component] = seconds.get(component, 0.0) + s
    moves = sum(r["moves"] for r in results)
    total = sum(seconds.values())
    paper = {GROUPS: f"eye potential and escape points re-evaluated: {GROUPS_SHARE:g}%",
             PATTERN_MATCHING: f"{PATTERNS_SHARE:g}%"}
    df = pd.DataFrame([dict(component=k, seconds=v, share_pct=100 * v / total,
                            ms_per_move=1000 * v / moves, paper=paper.get(k, ""))
                       for k, v in seconds.items()])
    df.attrs["moves"] = moves
    return df


def summary(census_t, cost, joseki, regression, shares, enclosed) -> pd.DataFrame:
    """The paper's statements next to this run's numbers."""
    cons = census_t["consistency"].iloc[0]
    stage = cost.set_index("stage")
    last = PAPER_COST[-1][0]
    jos = joseki.set_index("quantity")["ours"]
    reg = regression.set_index("check")
    sh = shares.set_index("component")["share_pct"]
    rows = [
        ("consistency checker: incremental data equal a recomputation",
         "debugging aid", f"{cons.positions_with_mismatch} mismatching positions in "
         f"{cons.moves_checked:,} moves of {cons.games} games"),
        ("pattern matching ops per board (full chain)", f"~{CHAIN_OPS:,}",
         f"{stage.loc[last, 'ours_ops']:,.0f} per incremental update"),
        ("naive ops per board", f"~{NAIVE_OPS // 10**6}M",
         f"{stage.loc[PAPER_COST[0][0], 'ours_ops']:,.0f}"),
        ("joseki bytes per move", str(JOSEKI_BYTES), str(jos[verdicts.TYPED_BYTES])),
        ("1/d field constant inside any enclosed area", ENCLOSED,
         f"centre {enclosed.centre_1_over_d.iloc[0]:.2f} -> {enclosed.centre_1_over_d.iloc[-1]:.2f}"
         f" (limit {ENCLOSED_CENTRE_LIMIT:.3f}); wall-side max {enclosed.max_1_over_d.iloc[0]:.2f} -> "
         f"{enclosed.max_1_over_d.iloc[-1]:.2f}"),
        ("optics.tst eval_eye agreement", "-",
         f"{reg.loc['optics.tst eval_eye', 'agree']} / {reg.loc['optics.tst eval_eye', 'tests']}"),
        ("share of time: re-evaluating eye potential and escape points (groups)",
         f"{GROUPS_SHARE:g}%", f"{sh.get(GROUPS, 0):.1f}%"),
        ("share of time: pattern matching", f"{PATTERNS_SHARE:g}%",
         f"{sh.get(PATTERN_MATCHING, 0):.1f}%"),
    ]
    return pd.DataFrame(rows, columns=["claim", "paper", "this run"])


def protocol_values() -> dict:
    """Our value of every constant the paper states that our code fixes (its ``config``
    targets): the joseki encoding's codes and the eye unit."""
    return {("Joseki", "compressed DAG", "index bits"): int(ESCAPE).bit_length(),
            ("Joseki", "compressed DAG", "table points"): TABLE_SIZE,
            ("Joseki", "compressed DAG", "escape code"): ESCAPE,
            ("Eye shape", "one eye", "eighths"): eyes.EyeValue(1, 1, 1, 1).eighths[0],
            ("Eye shape", "half eye", "eighths"): eyes.EyeValue(0, 0, 1, 1).eighths[1]}


def paper_vs_run(cost, joseki, shares, enclosed, strength: pd.DataFrame | None,
                 cfg) -> pd.DataFrame:
    """The paper's numbers next to this run's, one row per target (:mod:`mctslab.core.compare`
    judges each by its margin or, for a claim, by its criterion in the targets file).

    The matcher's cost chain, the joseki encoding, the enclosed-area field and the claim of a
    knowledge-intensive approach over a large search (``strength``, the games of
    :func:`mctslab.manyfaces.experiments.run_strength`; ``None``: not played) are the rows of
    :mod:`mctslab.manyfaces.verdicts`, the same that :func:`mctslab.manyfaces.claims.record_rows`
    judges from a committed record. The time shares are shares of a full program's time
    (search included) in the paper and of a replay without search here: shown, not compared.
    The constants our code fixes: :func:`protocol_values`.
    """
    name, scale = "manyfaces_knowledge", cfg.scale
    rows = verdicts.matcher_rows(cost, scale)
    rows += [row for reading, row in verdicts.joseki_rows(joseki, scale) if not reading]
    rows.append(verdicts.enclosed_row(enclosed, scale))
    rows.append(verdicts.knowledge_row(strength, scale, cfg.strength_size))
    share = shares.set_index("component")["share_pct"]
    rows.append(paper_row(name, "Time shares", "re-evaluation of eye potential and escape points",
                          "% of run time", float(share.get(GROUPS, 0.0)), scale=scale,
                          note="ours: the groups component of a replay"))
    rows.append(paper_row(name, "Time shares", "pattern matching", "% of run time",
                          float(share.get(PATTERN_MATCHING, 0.0)), scale=scale))
    rows += config_rows(name, protocol_values(), scale)
    return paper_table(rows)
