"""The Sudoku notebook's paper-vs-run rows (issues 22, 27): the core.compare shape; counts
judged by equivalence only at the paper's budget and scale, with what would settle them."""

from mctslab.core.compare import COLUMNS, DIFFERS, INCONCLUSIVE, NOT_RUN, REPRODUCED
from mctslab.sudoku import experiments, tables
from tests.sudoku.test_intervals_hunt import _run

PAPER = experiments.config("paper")


def test_counts_at_the_paper_budget_are_judged_by_equivalence():
    # reducing/min/rules at 1M playouts: the paper's N=18, 19, 20 = 41.5, 2337.5, 20551.8
    runs = [_run(i, (0, n18, n19, n20), playouts=1_000_000,
                 raw=[(17, "x" * 81)] if i == 0 else [])
            for i, (n18, n19, n20) in enumerate(((30, 2300, 20900), (40, 2400, 20910),
                                                 (50, 2350, 20920), (45, 2330, 20930)))]
    table = tables.paper_vs_run(runs, [], PAPER)
    assert tuple(table.columns) == COLUMNS
    rows = table.set_index(["artefact", "row", "column"])
    label = ("Table 1", "candidate-reducing, min, rules yes")
    # N=18: 41.25, t interval [29.0, 53.5] inside 41.5 / 2 .. 41.5 x 2
    assert rows.loc[(*label, "N=18"), "verdict"] == REPRODUCED
    n20 = rows.loc[(*label, "N=20")]
    assert n20.our_value == 20915 and n20.n == 4 and n20.verdict == REPRODUCED
    assert n20.unit_cpu_s == 11.0  # a run's whole task: 10 s of search, 1 s of reduction
    hunt = rows.loc[("Sec. 5.1", "17-clue puzzle generated",
                     "share of the best combination's runs")]
    # 1 of 4 runs, like the paper's: but [0.006, 0.806] is far wider than 0.25 +- 0.2
    assert hunt.paper_value == 0.25 and hunt.our_value == 0.25
    assert hunt.verdict == INCONCLUSIVE and hunt.settle_n > 4


def test_the_recorded_wide_interval_no_longer_passes():
    # Table 2 (c = 1, threshold 40), N = 20, as recorded: 5x the paper's, interval [0, 1.2M]
    runs = [_run(i, (0, 3, 4000, n20), c=1.0, threshold=40, playouts=3_000_000)
            for i, n20 in enumerate((60_000, 70_000, 700_000, 726_924))]
    rows = tables.paper_vs_run([], runs, PAPER).set_index(["artefact", "row", "column"])
    n20 = rows.loc[("Table 2", "c = 1, threshold 40", "N=20")]
    assert n20.low <= 78794.0 <= n20.high and n20.verdict == INCONCLUSIVE
    far = [_run(i, (0, 3, 4000, n20), c=1.0, threshold=40, playouts=3_000_000)
           for i, n20 in enumerate((380_000, 390_000, 395_000, 392_000))]
    rows = tables.paper_vs_run([], far, PAPER).set_index(["artefact", "row", "column"])
    assert rows.loc[("Table 2", "c = 1, threshold 40", "N=20"), "verdict"] == DIFFERS


def test_a_smaller_budget_scale_or_seed_count_is_shown_but_not_judged():
    runs = [_run(i, (0, 1, 2, 3)) for i in range(4)]  # 20,000 playouts
    table = tables.paper_vs_run(runs, [_run(0, (0, 1, 2, 3), c=0.5, threshold=10)], PAPER)
    counted = table[table.artefact.isin(["Table 1", "Table 2"]) & (table.kind == "sampled")]
    assert set(counted.verdict) == {NOT_RUN}
    assert "20,000 playouts per run" in counted.departure.iloc[0]
    assert "the paper's 3,000,000" in counted[counted.artefact == "Table 2"].departure.iloc[0]
    default = tables.paper_vs_run([_run(i, (0, 40, 2300, 20500), playouts=1_000_000)
                                   for i in range(4)], [], experiments.config("default"))
    assert set(default[default.kind == "sampled"].verdict) == {NOT_RUN}
    one_seed = tables.paper_vs_run([_run(0, (0, 40, 2300, 20500), playouts=1_000_000)], [],
                                   PAPER)
    first = one_seed[one_seed.artefact == "Table 1"].iloc[0]
    assert first.verdict == NOT_RUN and "below the 4" in first.why


def test_the_protocol_constants_at_paper_scale():
    table = tables.paper_vs_run([], [], experiments.config("smoke"))
    config = table[table.kind == "config"].set_index("column")
    assert config.loc["playouts per run", "verdict"].tolist() == [REPRODUCED, REPRODUCED]
    assert config.loc["n in the exploration term", "our_value"] == "total playouts"
    assert config.loc["uniqueness check", "verdict"] == DIFFERS  # a numba counter, not sat4j
