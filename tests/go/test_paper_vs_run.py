"""The Go notebook's paper-vs-run rows: Table 2 by equivalence at the paper's
protocol only (the gnugo row as Black's share of self-play), Table 4 measured once, the Eq. 12
bound by arithmetic, Fig. 5's claim, Table 1's configuration at paper scale."""

from types import SimpleNamespace

import pandas as pd

from mctslab.core.compare import COLUMNS, DIFFERS, INCONCLUSIVE, NOT_RUN, REPRODUCED
from mctslab.core.figcheck import figure_problems
from mctslab.core.plotting import plt
from mctslab.go import experiments, figures, tables


def _games(rows: dict) -> experiments.Played:
    """``rows``: name -> (wins as Black, games as Black, wins as White, games as White)."""
    tasks, results, names = [], [], []
    for name, (wb, nb, ww, nw) in rows.items():
        for color, wins, games in (("B", wb, nb), ("W", ww, nw)):
            for i in range(games):
                tasks.append(SimpleNamespace(params={"color": color}))
                results.append(dict(candidate_won=i < wins, moves=200, end="passes",
                                    area_agrees=True, think_candidate=1.0, think_opponent=1.0,
                                    cpu_candidate=2.0, cpu_opponent=1.0, restarts=0,
                                    candidate_counts={}))
                names.append(name)
    return experiments.Played(tasks, results, names)


def _duplicates(counts: dict) -> experiments.Played:
    tasks = [SimpleNamespace(params={"config": name}) for name in counts]
    results = [dict(positions=40000, distinct=30000, duplicates=d, counts=[5],
                    tabu_candidates=0) for d in counts.values()]
    return experiments.Played(tasks, results, list(counts))


def _table4(cfg, totals=(0, 380, 1690)) -> pd.DataFrame:
    played = experiments.Played(
        [SimpleNamespace(params={"size": size}) for size in (0, 1, 8)],
        [dict(tabu_candidates=t, playouts=8000) for t in totals], ["t4"] * 3)
    return tables.table4(cfg, played)


def test_table2_at_the_papers_protocol_by_equivalence():
    cfg = experiments.config("paper")
    matches = _games({"gnugo": (300, 500, 200, 500),            # Black: 300 + 300 of 1000
                      "gnugo-uct": (266, 500, 253, 500),        # the paper's own counts
                      "gTabu18-hash-win": (200, 250, 200, 250)})  # 0.8: far above 0.54
    table = tables.paper_vs_run(matches, _duplicates({"gTabu0": 900, "gTabu18": 800}),
                                _table4(cfg), cfg)
    assert tuple(table.columns) == COLUMNS
    rows = table.set_index(["artefact", "row", "column"])
    gnugo = rows.loc[("Table 2", "gnugo", "win rate")]
    # self-play: Black's share of the games (300 as Black + 300 the White side lost), as the
    # paper's 513/1000, not the candidate's own 500/1000
    assert gnugo.our_value == 0.6 and gnugo.n == 1000
    # the exact test against the paper's value stands beside the equivalence verdict
    assert gnugo.note == ("600 of 1000 games; exact binomial p = 3.46e-08 against the paper's "
                          "0.513")
    assert ("Table 2", "gnugo", "win rate as Black") not in rows.index
    uct = rows.loc[("Table 2", "gnugo-uct", "win rate")]
    # 519/1000 exactly: [0.488, 0.550] inside 0.519 +- 0.05
    assert uct.our_value == 0.519 and uct.verdict == REPRODUCED and uct.unit_cpu_s == 3.0
    # 266/500: [0.487, 0.576] inside 0.532 +- 0.05
    assert rows.loc[("Table 2", "gnugo-uct", "win rate as Black"), "verdict"] == REPRODUCED
    assert rows.loc[("Table 2", "gTabu18-hash-win", "win rate"), "verdict"] == DIFFERS
    claim = rows.loc[("Table 3", "gTabu18-hash-win", "binomial test against 0.5 at 5%")]
    assert claim.our_value.startswith("holds") and claim.verdict == NOT_RUN  # 500 of 1,000
    # Table 4: one search per L, measured once
    l8 = rows.loc[("Table 4", "L = 8", "tabu candidates per playout")]
    assert (l8.paper_value, l8.our_value, l8.verdict) == (0.213, round(1690 / 8000, 4),
                                                          INCONCLUSIVE)
    assert rows.loc[("Table 4", "L = 0", "tabu candidates per playout"), "verdict"] == REPRODUCED
    assert rows.loc[("Eq. 12", "L = 12, M = 5, 19x19", "bound T(19, 12, 5)"),
                    "verdict"] == REPRODUCED
    fig5 = rows.loc[("Fig. 5", "every tabu variant against gTabu0", "fewer duplicate positions")]
    assert fig5.our_value.startswith("holds") and fig5.verdict == REPRODUCED


def test_a_9x9_run_departs_from_the_protocol_and_the_config_shows_it():
    cfg = experiments.config("paper", board_size=9)
    table = tables.paper_vs_run(_games({"gnugo-uct": (266, 500, 253, 500)}),
                                _duplicates({"gTabu0": 900, "gTabu18": 950}), _table4(cfg), cfg)
    rows = table.set_index(["artefact", "row", "column"])
    uct = rows.loc[("Table 2", "gnugo-uct", "win rate")]
    assert uct.verdict == NOT_RUN and "9x9" in uct.departure
    fig5 = rows.loc[("Fig. 5", "every tabu variant against gTabu0", "fewer duplicate positions")]
    assert fig5.our_value.startswith("fails: gTabu18") and fig5.verdict == DIFFERS
    config = table[table.kind == "config"].set_index(["artefact", "row", "column"])
    # at paper scale the config targets judge this run's configuration: 9x9 departs
    board = config.loc[("Sec. 5.1", "games", "board size")]
    assert (board.our_value, board.verdict) == (9, DIFFERS)
    assert config.loc[("Table 1", "gTabu18-hash-win", "uses win/loss"), "our_value"] == "yes"
    # Eq. 8's schedule on 9x9 is not the paper's 19x19 one: only a 19x19 run judges it
    eq8 = config.loc[("Eq. 8", "L = 18, 19x19", "tabu size at moves 91-240")]
    assert eq8.verdict == NOT_RUN and pd.isna(eq8.our_value) and "9x9 board" in eq8.departure
    assert eq8.note == "this run's value on 9x9: 6"
    paper = tables.paper_vs_run(_games({"gnugo-uct": (266, 500, 253, 500)}),
                                _duplicates({"gTabu0": 900, "gTabu18": 850}),
                                _table4(experiments.config("paper")), experiments.config("paper"))
    paper = paper[paper.kind == "config"].set_index(["artefact", "row", "column"])
    assert paper.loc[("Sec. 5.1", "games", "board size"), "verdict"] == REPRODUCED
    assert paper.loc[("Eq. 8", "L = 18, 19x19", "tabu size at moves 91-240"), "our_value"] == 12
    redraw = config.loc[("Sec. 4.3", "rejected tabu candidate", "redrawn by")]
    assert redraw.verdict == DIFFERS  # the playout policy, uniform after 8 rejections


def test_a_run_without_games_still_judges_what_it_measured():
    cfg = experiments.config("smoke")
    skipped = experiments.Played([], [], [], skipped="GNU Go is not installed")
    table = tables.paper_vs_run(skipped, _duplicates({}), _table4(cfg), cfg)
    assert "Table 2" not in set(table.artefact)
    assert set(table[table.kind == "sampled"].verdict) == {NOT_RUN}


def test_table4_over_several_searches_is_judged_by_its_interval():
    """Several searches per L (``table4_searches``): the mean per playout with its t interval,
    judged against the paper's +- 0.01, and the cost of what would settle an open row."""
    searches = {1: (372, 380, 388, 376, 384),        # 0.047 +- 0.001: inside 0.037..0.057
                2: (600, 760, 900, 700, 840),        # 0.095 +- 0.019: straddles 0.096
                8: (3781, 3700, 3850, 3760, 3800)}   # 0.47: far above 0.213 +- 0.01
    tasks, results = [], []
    for size, totals in searches.items():
        for total in totals:
            tasks.append(SimpleNamespace(params={"size": size}))
            results.append(dict(tabu_candidates=total, playouts=8000, seconds=1.5))
    cfg = experiments.config("paper")
    table4 = tables.table4(cfg, experiments.Played(tasks, results, ["t4"] * len(tasks)))
    l8 = table4.set_index("L").loc[8]
    assert l8.searches == 5 and l8.total == 3778.2 and l8["s per search"] == 1.5
    assert l8.low < l8["per playout"] < l8.high
    table = tables.paper_vs_run(_games({}), _duplicates({}), table4, cfg)
    rows = table[table.artefact == "Table 4"].set_index("row")
    assert rows.loc["L = 1", "verdict"] == REPRODUCED
    assert rows.loc["L = 8", "verdict"] == DIFFERS
    assert rows.loc["L = 8", "our_value"] == l8["per playout"]  # judged = shown = the table's
    open_row = rows.loc["L = 2"]
    assert open_row.verdict == INCONCLUSIVE and open_row.settle_n > 5
    assert open_row.settle_cpu_h == (open_row.settle_n - 5) * 1.5 / 3600
    assert "5 searches" in open_row.why
    fig = figures.table4_figure(table4)
    assert "mean of 5 searches" in fig.axes[0].get_legend_handles_labels()[1][0]
    assert len(fig.axes[0].collections) == 1 and figure_problems(fig) == []
    plt.close(fig)


def test_the_gnugo_version_row_is_what_the_games_report_not_a_process_started_by_tables():
    from mctslab.go import experiments as go_experiments
    from mctslab.go import tables as go_tables
    from mctslab.go.played import Played

    paper = go_experiments.config("paper")
    games = Played(tasks=[None, None], results=[{"gnugo_version": "3.8"}] * 2, rows=["a", "b"])
    assert go_tables.gnugo_version(games) == "3.8"
    assert go_tables.protocol_values(paper, "3.8")[("Table 1", "gnugo", "GNU Go version")] == 3.8
    none = Played(tasks=[], results=[], rows=[], skipped="GNU Go is not installed")
    assert go_tables.gnugo_version(none) is None
    assert go_tables.protocol_values(paper)[("Table 1", "gnugo", "GNU Go version")] is None
    assert "gnugo" not in {n.split(".")[-1] for n in vars(go_tables) if not n.startswith("_")}
