"""Tables of the notebook ``manyfaces_knowledge``: the census, the joseki DAG, territory
estimates, the enclosed-field claim, agreement with GNU Go's regression suites, the paper's
statements next to this run's (:func:`summary`) and the same in the shape every notebook fills
(:func:`paper_vs_run`, :mod:`mctslab.core.compare`), whose judged rows are
:mod:`mctslab.manyfaces.claims`'s, also given for a committed record's tables
(:func:`mctslab.manyfaces.claims.record_rows`, ``mctslab scorecard --records``). The measurements behind them are
:mod:`mctslab.manyfaces.experiments`.
"""

from __future__ import annotations

from collections import Counter

import pandas as pd

from mctslab.core.compare import config_rows, paper_row, paper_table
from mctslab.go.api import Board
from mctslab.manyfaces import claims, experiments, eyes
from mctslab.manyfaces import regression as regression_module
from mctslab.manyfaces.joseki import ESCAPE, TABLE_SIZE, bytes_per_move, load_joseki
from mctslab.manyfaces.knowledge import (
    CONNECTION_STRENGTHS,
    CONNECTION_TYPES,
    ENCLOSED_CENTRE_LIMIT,
    INFLUENCE_DAMPING,
    Knowledge,
    enclosed_field,
)

__all__ = ["census_tables", "joseki_table", "territory_table", "enclosed_table",
           "regression_table", "summary", "paper_vs_run"]


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


def joseki_table() -> pd.DataFrame:
    dag = load_joseki()
    st = dag.stats()
    b = bytes_per_move(dag)
    rows = [("moves in the database", "over 36,000", b["sgf_moves"]),
            ("DAG nodes", "", st["nodes"]), ("DAG edges (moves)", "", st["edges"]),
            ("nodes merged by transpositions", "", st["merged_nodes"]),
            ("compressed bytes", "", b["bytes"]),
            ("bytes per move (SGF moves)", 1.2, round(b["bytes_per_sgf_move"], 3)),
            ("bytes per move, edge types dropped (the paper's form)", 1.2,
             round(b["untyped_bytes_per_sgf_move"], 3)),
            ("lookup table bytes", "", b["table_bytes"]),
            ("entry sizes (bytes: count)", "1 mostly, 5 longest", str(b["entry_sizes"]))]
    return pd.DataFrame(rows, columns=["quantity", "paper", "ours"])


def territory_table(cfg: experiments.Config) -> pd.DataFrame:
    """Territory estimate at move 100 and at the end of real games, with the record's
    result (games by resignation have no counted margin)."""
    rows = []
    for g, move, moves in experiments.influence_positions(cfg):
        know = Knowledge(Board.from_moves(19, moves[:move]))
        t = know.territory()
        strength = Counter(gr.strength for gr in know.groups())
        rows.append(dict(game=g, move=move, black_area=t["black"], white_area=t["white"],
                         neutral=t["neutral"], estimate_b_minus_w_komi=t["estimate"],
                         tromp_taylor=know.board.area_score(),
                         dead_groups=strength.get("dead", 0)))
    return pd.DataFrame(rows)


def enclosed_table(sides=(3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23)) -> pd.DataFrame:
    """The raw field inside an empty square enclosed by a Black wall: at the centre, the
    lowest and highest interior values, for 1/d (the paper) and 1/d**2; the limit of the
    1/d centre value for a large square is 8 ln 2 (Manhattan path distances)."""
    rows = []
    for n in sides:
        f1, f2 = enclosed_field(n), enclosed_field(n, 2.0)
        c = n // 2
        rows.append(dict(side=n, area=n * n, centre_1_over_d=f1[c, c], min_1_over_d=f1.min(),
                         max_1_over_d=f1.max(),
                         normalised_min=f1.min() / (f1.min() + INFLUENCE_DAMPING),
                         normalised_max=f1.max() / (f1.max() + INFLUENCE_DAMPING),
                         centre_1_over_d2=f2[c, c], max_1_over_d2=f2.max()))
    df = pd.DataFrame(rows)
    df.attrs["limit"] = ENCLOSED_CENTRE_LIMIT
    return df


def regression_table() -> tuple[pd.DataFrame, pd.DataFrame]:
    """(per suite and command: tests, agreeing, GNU Go's own known failures; and every
    test's row)."""
    rows = [r for suite in regression_module.SUITES for r in regression_module.agreement(suite)]
    detail = pd.DataFrame(rows)
    summary_rows = []
    for (suite, command), df in detail.groupby(["suite", "command"], sort=False):
        summary_rows.append(dict(check=f"{suite}.tst {command}", tests=len(df),
                                 agree=int(df.agree.sum()),
                                 agree_share=df.agree.mean(),
                                 gnugo_known_failures=int(df.gnugo_fails.sum())))
    db = pd.DataFrame(eyes.compare_with_db())
    summary_rows.append(dict(check="eyes.db shapes without marginal points: b c (min max)",
                             tests=len(db), agree=int(db.min_max_agree.sum()),
                             agree_share=db.min_max_agree.mean(), gnugo_known_failures=0))
    summary_rows.append(dict(check="eyes.db shapes without marginal points: all 4 digits",
                             tests=len(db), agree=int(db.all_agree.sum()),
                             agree_share=db.all_agree.mean(), gnugo_known_failures=0))
    return pd.DataFrame(summary_rows), detail


def summary(census_t, cost, joseki, regression, shares, enclosed) -> pd.DataFrame:
    """The paper's statements next to this run's numbers."""
    cons = census_t["consistency"].iloc[0]
    stage = cost.set_index("stage")
    last = experiments.PAPER_COST[-1][0]
    jos = joseki.set_index("quantity")["ours"]
    reg = regression.set_index("check")
    sh = shares.set_index("component")["share_pct"]
    rows = [
        ("consistency checker: incremental data equal a recomputation",
         "debugging aid", f"{cons.positions_with_mismatch} mismatching positions in "
         f"{cons.moves_checked:,} moves of {cons.games} games"),
        ("pattern matching ops per board (full chain)", "~350,000",
         f"{stage.loc[last, 'ours_ops']:,.0f} per incremental update"),
        ("naive ops per board", "~300M", f"{stage.loc[experiments.PAPER_COST[0][0], 'ours_ops']:,.0f}"),
        ("joseki bytes per move", "1.2", str(jos["bytes per move (SGF moves)"])),
        ("1/d field constant inside any enclosed area", "constant",
         f"centre {enclosed.centre_1_over_d.iloc[0]:.2f} -> {enclosed.centre_1_over_d.iloc[-1]:.2f}"
         f" (limit {ENCLOSED_CENTRE_LIMIT:.3f}); wall-side max {enclosed.max_1_over_d.iloc[0]:.2f} -> "
         f"{enclosed.max_1_over_d.iloc[-1]:.2f}"),
        ("optics.tst eval_eye agreement", "-",
         f"{reg.loc['optics.tst eval_eye', 'agree']} / {reg.loc['optics.tst eval_eye', 'tests']}"),
        ("share of time: re-evaluating eye potential and escape points (groups)", "7%",
         f"{sh.get('groups', 0):.1f}%"),
        ("share of time: pattern matching", "1.5%", f"{sh.get('pattern matching', 0):.1f}%"),
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
                 cfg: experiments.Config) -> pd.DataFrame:
    """The paper's numbers next to this run's, one row per target (:mod:`mctslab.core.compare`
    judges each by its margin or, for a claim, by its criterion in the targets file).

    The matcher's cost chain, the joseki encoding, the enclosed-area field and the claim of a
    knowledge-intensive approach over a large search (``strength``, the games of
    :func:`mctslab.manyfaces.experiments.run_strength`; ``None``: not played) are the rows of
    :mod:`mctslab.manyfaces.claims`, the same that :func:`mctslab.manyfaces.claims.record_rows` judges from a committed
    record. The time shares are shares of a full program's time (search included) in the paper
    and of a replay without search here: shown, not compared. The constants our code fixes:
    :func:`protocol_values`.
    """
    name, scale = "manyfaces_knowledge", cfg.scale
    rows = claims.matcher_rows(cost, scale)
    rows += [row for reading, row in claims.joseki_rows(joseki, scale) if not reading]
    rows.append(claims.enclosed_row(enclosed, scale))
    rows.append(claims.knowledge_row(strength, scale, cfg.strength_size))
    share = shares.set_index("component")["share_pct"]
    rows.append(paper_row(name, "Time shares", "re-evaluation of eye potential and escape points",
                          "% of run time", float(share.get("groups", 0.0)), scale=scale,
                          note="ours: the groups component of a replay"))
    rows.append(paper_row(name, "Time shares", "pattern matching", "% of run time",
                          float(share.get("pattern matching", 0.0)), scale=scale))
    rows += config_rows(name, protocol_values(), scale)
    return paper_table(rows)
