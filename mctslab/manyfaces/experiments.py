"""The Many Faces of Go paper's claims as measured tables and figures (notebook
``manyfaces_knowledge``; brief ``docs/papers/many-faces-knowledge.md``).

The paper (Fotland 1993) has no result tables: its claims are statements about structures
and costs. Each becomes a table or a figure here, next to the paper's figure:

* :func:`cost_chain` - the pattern matcher's cost chain (naive -> 8-bit hash -> near the
  last move -> early exit), paper vs our counters and wall times on real positions;
* :func:`joseki_table` - the joseki DAG and its bytes per move (paper 1.2);
* :func:`influence_figure` / :func:`territory_table` - influence and territory estimates;
* :func:`enclosed_table` / :func:`enclosed_figure` - the 1/distance "constant field";
* :func:`census` (tasks through the executor, one per game: replay with every structure
  maintained, the consistency checker after every move, connection and eye-shape counts
  every ``census_every`` moves) and :func:`census_tables` / :func:`census_figure`;
* :func:`regression_table` - agreement with GNU Go's optics / connection answers and
  eyes.db;
* :func:`time_shares` - share of run time by component over game replays (paper: eye
  potential 7%, pattern matching 1.5%);
* :func:`strength` - beyond the paper: the knowledge-based player (:mod:`.player`) against
  GNU Go and our MCTS engine, and MCTS with the pattern prior (:mod:`.prior`) against the same
  MCTS without it and against GNU Go (games through the executor, GNU Go referees).

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
from mctslab.core.params import check_known, given, positive_int, scale_values
from mctslab.core.tasks import make_tasks

__all__ = ["SCALES", "Config", "config", "game_paths", "census_task", "census",
           "census_tables", "census_figure", "cost_chain", "joseki_table", "influence_figure",
           "territory_table", "enclosed_table", "enclosed_figure", "regression_table",
           "time_shares", "summary", "strength"]

SCALES = {
    "smoke": dict(census_games=2, cost_positions=2, incremental_moves=5, replay_games=1,
                  census_every=25, influence_positions=2, strength_games=2, strength_size=7,
                  strength_playouts=200),
    "default": dict(census_games=40, cost_positions=20, incremental_moves=20, replay_games=3,
                    census_every=10, influence_positions=3, strength_games=10, strength_size=9,
                    strength_playouts=1000),
    "paper": dict(census_games=2000, cost_positions=100, incremental_moves=50, replay_games=10,
                  census_every=10, influence_positions=3, strength_games=100, strength_size=9,
                  strength_playouts=1000),
}

PAPER_COST = [  # (stage, patterns tried per window, points, operations per board)
    ("naive: 1000 patterns x 361 points x 16 transformations x 48 ops", "1000 x 16", 361,
     300_000_000),
    ("+ 8-bit hash prefilter (~1/20 of the patterns)", "~50 x 16", 361, None),
    ("+ re-match near the last move only (~50 points)", "~50 x 16", 50, None),
    ("+ 32 bits at a time with early exit (~6 ops)", "~50 x 16", 50, 350_000),
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
    check_known(overrides, {f.name for f in dataclasses.fields(Config)} - {"scale"},
                "manyfaces parameter")
    values = scale_values(SCALES, scale)
    values.update(given(overrides))
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
    from mctslab.go import sgf

    _, info = sgf.load(data.find(f"go-games/{relpath}"), 0)
    return info["moves"]


# ---------------------------------------------------------------- census (tasks)
def census_task(params: dict, seed) -> dict:
    """One game: replay with every structure maintained, :func:`knowledge.check` after every
    move, connection types/strengths and eye-space types/values counted every
    ``census_every`` moves."""
    from mctslab.manyfaces.knowledge import Knowledge, check

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


def census(run, cfg: Config):
    tasks = make_tasks("mctslab.manyfaces.experiments:census_task",
                       [dict(game=g, census_every=cfg.census_every)
                        for g in game_paths(cfg.census_games)], seed=run.seed)
    return run.map("manyfaces_census", tasks)


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
    from mctslab.manyfaces.knowledge import CONNECTION_STRENGTHS, CONNECTION_TYPES

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


def census_figure(tables):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(13, 4.5))
    ct = tables["connections"].set_index("type").drop(columns="total")
    ct.plot.bar(stacked=True, ax=axes[0])
    axes[0].set_ylabel("connections (summed over census positions)")
    axes[0].set_title("Connection types by strength")
    et = tables["eyes"]
    if len(et):
        by_type = et.groupby("type")["count"].sum()
        top = et.groupby("value")["count"].sum().sort_values(ascending=False).head(8)
        axes[1].bar(range(len(by_type)), by_type.values)
        axes[1].set_xticks(range(len(by_type)), by_type.index)
        axes[1].set_title("Eye-space types; most common values: " +
                          ", ".join(f"{v} ({n})" for v, n in top.head(4).items()))
    axes[1].set_ylabel("eye spaces")
    fig.suptitle("Census of connections and eye spaces")
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    return fig


# ---------------------------------------------------------------- pattern matcher
def _positions(n: int, move: int = 100):
    """(board, next moves) at ``move`` of n evenly spaced games."""
    from mctslab.go.api import Board

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
    from mctslab.manyfaces.patterns import Matcher, compile_patterns, load_default

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


def joseki_table() -> pd.DataFrame:
    from mctslab.manyfaces.joseki import bytes_per_move, load_joseki

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


# ---------------------------------------------------------------- influence
def _influence_positions(cfg: Config):
    out = []
    for g in game_paths(max(cfg.influence_positions, 2))[:cfg.influence_positions]:
        moves = _moves(g)
        for move in (100, len(moves)):
            out.append((g, move, moves))
    return out


def territory_table(cfg: Config) -> pd.DataFrame:
    """Territory estimate at move 100 and at the end of real games, with the record's
    result (games by resignation have no counted margin)."""
    from mctslab.go.api import Board
    from mctslab.manyfaces.knowledge import Knowledge

    rows = []
    for g, move, moves in _influence_positions(cfg):
        know = Knowledge(Board.from_moves(19, moves[:move]))
        t = know.territory()
        strength = Counter(gr.strength for gr in know.groups())
        rows.append(dict(game=g, move=move, black_area=t["black"], white_area=t["white"],
                         neutral=t["neutral"], estimate_b_minus_w_komi=t["estimate"],
                         tromp_taylor=know.board.area_score(),
                         dead_groups=strength.get("dead", 0)))
    return pd.DataFrame(rows)


def influence_figure(cfg: Config):
    import matplotlib.pyplot as plt

    from mctslab.go.api import Board
    from mctslab.manyfaces.knowledge import Knowledge

    pos = _influence_positions(cfg)
    fig, axes = plt.subplots(1, len(pos), figsize=(4.2 * len(pos), 4.4), squeeze=False)
    for ax, (g, move, moves) in zip(axes[0], pos):
        know = Knowledge(Board.from_moves(19, moves[:move]))
        field = know.field_grid()
        ax.imshow(field, origin="lower", cmap="RdBu_r", vmin=-1, vmax=1)
        stones = know.board.stones()
        for colour, face in ((1, "black"), (2, "white")):
            r, c = np.nonzero(stones == colour)
            ax.scatter(c, r, s=18, c=face, edgecolors="0.3", linewidths=0.5)
        t = know.territory()
        ax.set_title(f"{g.split('/')[-1][:22]}\nmove {move}: estimate B-W-komi "
                     f"{t['estimate']:+.1f}", fontsize=8)
        ax.set_xticks([])
        ax.set_yticks([])
    fig.suptitle("Influence field (red: Black, blue: White; 1/d decay, stones block)")
    return fig


def enclosed_table(sides=(3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23)) -> pd.DataFrame:
    """The raw field inside an empty square enclosed by a Black wall: at the centre, the
    lowest and highest interior values, for 1/d (the paper) and 1/d**2; the limit of the
    1/d centre value for a large square is 8 ln 2 (Manhattan path distances)."""
    from mctslab.manyfaces.knowledge import INFLUENCE_DAMPING, enclosed_field

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
    df.attrs["limit"] = 8 * np.log(2)
    return df


def enclosed_figure(table: pd.DataFrame):
    import matplotlib.pyplot as plt

    from mctslab.manyfaces.knowledge import enclosed_field

    fig, axes = plt.subplots(1, 3, figsize=(14, 4))
    ax = axes[0]
    ax.plot(table.side, table.centre_1_over_d, "o-", label="1/d: centre (= lowest)")
    ax.plot(table.side, table.max_1_over_d, "s--", label="1/d: highest (next to the wall)")
    ax.plot(table.side, table.centre_1_over_d2, "^-", label="1/d²: centre")
    ax.axhline(8 * np.log(2), color="0.5", lw=0.8, ls=":", label="8 ln 2")
    ax.set_xlabel("side of the enclosed square")
    ax.set_ylabel("raw field (sum of v/d)")
    ax.legend(fontsize=8)
    ax.set_title("Field inside an enclosed square vs its size")
    for ax, n in zip(axes[1:], (7, 21)):
        im = ax.imshow(enclosed_field(n), origin="lower", cmap="Reds")
        ax.set_title(f"1/d field inside a {n}x{n} enclosure")
        fig.colorbar(im, ax=ax, shrink=0.8)
        ax.set_xticks([])
        ax.set_yticks([])
    fig.suptitle("The paper's enclosed-area claim: the 1/d field inside a walled square")
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    return fig


# ---------------------------------------------------------------- GNU Go regression
def regression_table() -> tuple[pd.DataFrame, pd.DataFrame]:
    """(per suite and command: tests, agreeing, GNU Go's own known failures; and every
    test's row)."""
    from mctslab.manyfaces import eyes, regression

    rows = [r for suite in regression.SUITES for r in regression.agreement(suite)]
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


# ---------------------------------------------------------------- time shares
def time_shares(cfg: Config) -> pd.DataFrame:
    """Replay ``replay_games`` games with every structure maintained, influence
    recomputed and the pattern matcher updated after each move; seconds and share per
    component. Paper: eye potential 7%, pattern matching 1.5% (of a full program's time,
    search included, which this replay has not)."""
    from mctslab.go.api import Board
    from mctslab.manyfaces.knowledge import COMPONENTS, Knowledge
    from mctslab.manyfaces.patterns import Matcher, compile_patterns, load_default

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
    paper = {"eyes": "eye potential: 7%", "groups": "(eye potential is in groups)",
             "pattern matching": "1.5%"}
    rows = [dict(component=k, seconds=v, share_pct=100 * v / total,
                 ms_per_move=1000 * v / moves_total, paper=paper.get(k, ""))
            for k, v in seconds.items()]
    df = pd.DataFrame(rows)
    df.attrs["moves"] = moves_total
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
        ("pattern matching ops per board (full chain)", "~350,000",
         f"{stage.loc[last, 'ours_ops']:,.0f} per incremental update"),
        ("naive ops per board", "~300M", f"{stage.loc[PAPER_COST[0][0], 'ours_ops']:,.0f}"),
        ("joseki bytes per move", "1.2", str(jos["bytes per move (SGF moves)"])),
        ("1/d field constant inside any enclosed area", "constant",
         f"centre {enclosed.centre_1_over_d.iloc[0]:.2f} -> {enclosed.centre_1_over_d.iloc[-1]:.2f}"
         f" (limit {8 * np.log(2):.3f}); wall-side max {enclosed.max_1_over_d.iloc[0]:.2f} -> "
         f"{enclosed.max_1_over_d.iloc[-1]:.2f}"),
        ("optics.tst eval_eye agreement", "-",
         f"{reg.loc['optics.tst eval_eye', 'agree']} / {reg.loc['optics.tst eval_eye', 'tests']}"),
        ("share of time: eye spaces + groups (eye potential)", "7%",
         f"{sh.get('eyes', 0) + sh.get('groups', 0):.1f}%"),
        ("share of time: pattern matching", "1.5%", f"{sh.get('pattern matching', 0):.1f}%"),
    ]
    return pd.DataFrame(rows, columns=["claim", "paper", "this run"])


def strength(run, cfg: Config) -> pd.DataFrame:
    """Beyond the paper (issue 13): the knowledge-based player against GNU Go and against our
    MCTS engine, and MCTS with the pattern prior (``prior_visits`` virtual visits per root
    child) against the same MCTS without it and against GNU Go; each MCTS side searches
    ``strength_playouts`` light playouts, never resigns and passes only when its count wins.
    ``strength_games`` games per pairing on ``strength_size``, komi 7.5, colours alternating,
    GNU Go (``gnugo_level``) refereeing every game (:mod:`.player_match`). One row per pairing
    with the win rate's Clopper-Pearson 95% interval; one row saying why when GNU Go is not
    installed."""
    from mctslab.go.experiments import gnugo_missing
    from mctslab.manyfaces.player_match import Side, match_table, play_match

    reason = gnugo_missing()
    if reason:
        return pd.DataFrame({"skipped": [reason]})
    mcts = Side("mcts", playouts=cfg.strength_playouts, policy="light", resign=0.0,
                root_select="winrate", careful_pass=True)
    prior = dataclasses.replace(mcts, prior_visits=cfg.prior_visits)
    pairings = [("knowledge", "gnugo"), ("knowledge", mcts), (prior, mcts), (prior, "gnugo"),
                (mcts, "gnugo")]
    return match_table([
        play_match(opponent, cfg.strength_games, candidate=candidate, run=run,
                   experiment=f"manyfaces_strength_{k}", size=cfg.strength_size, komi=7.5,
                   gnugo_level=cfg.gnugo_level, seed=run.seed + 100 + k)
        for k, (candidate, opponent) in enumerate(pairings)])
