"""95% t intervals over seeds in Tables 1 and 2, and the 17-clue hunt table (runs with a 17 per
run with a Clopper-Pearson interval, beside the paper's 1 in the 4 runs of its best combination,
Sec. 5.1)."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from mctslab.core.rounding import significant
from mctslab.sudoku import tables

T_975_3DF = 3.182446305284263  # Student t 97.5% quantile, 3 degrees of freedom (4 runs)


def _counts(values):
    return {str(n): {"count": v, "distinct": v, "distinct_paper_heuristic": v}
            for n, v in zip((17, 18, 19, 20), values)}


def _run(seed_index, raw_counts=(0, 0, 0, 0), raw=(), reduced=(), variant="reducing/min/rules",
         c=1.0, threshold=30, playouts=20_000):
    """A fabricated task result; ``raw`` / ``reduced``: (clues, canonical form) of listed finds."""
    playout, selection, rules = variant.split("/")

    def summary(finds, counts):
        return {"distinct": _counts(counts), "cpu_seconds": 1.0,
                "puzzles": [dict(puzzle=form, clues=n, playout=1, canonical=form)
                            for n, form in finds]}

    return {"config": {"playout": playout, "selection": selection, "rules": rules == "rules",
                       "playouts": playouts, "c": c, "threshold": threshold},
            "variant": variant, "seed_index": seed_index, "histogram": np.ones(82, np.int64),
            "cpu_seconds": 10.0, "raw": summary(raw, raw_counts),
            "reduced": summary(reduced, (0, 0, 0, 0))}


def _t_bounds(values):
    """The 95% t interval by hand for 4 values: mean -/+ t(0.975, 3) s / sqrt(4), low >= 0."""
    mean = sum(values) / 4
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / 3)
    return max(mean - T_975_3DF * sd / 2, 0.0), mean + T_975_3DF * sd / 2


# N = 17, 18, 19, 20 raw counts of four seeds
FOUR = [(0, 0, 5, 10), (0, 0, 5, 12), (0, 1, 5, 14), (0, 0, 5, 16)]


def test_table1_t_interval_over_seeds_by_hand():
    row = tables.table1([_run(i, counts) for i, counts in enumerate(FOUR)]).iloc[0]
    # N=20: 10, 12, 14, 16 -> mean 13, s = sqrt(20/3), half width 3.1824 * 2.582 / 2 = 4.108
    assert (row["N=20 low"], row["N=20 high"]) == (8.89, 17.11)
    assert _t_bounds((10, 12, 14, 16)) == pytest.approx((8.8915, 17.1085), abs=1e-4)
    # N=18: 0, 0, 1, 0 -> mean 0.25, s = 0.5: the lower bound -0.55 is clipped at 0
    assert (row["N=18"], row["N=18 low"], row["N=18 high"]) == (0.25, 0.0, 1.05)
    assert _t_bounds((0, 0, 1, 0)) == pytest.approx((0.0, 1.0456), abs=1e-4)
    # N=19: the same count in every run -> no spread
    assert (row["N=19 low"], row["N=19 high"]) == (5.0, 5.0)


def test_intervals_follow_their_means_and_keep_the_other_columns_in_order():
    runs = [_run(i, counts) for i, counts in enumerate(FOUR)]
    t1 = list(tables.table1(runs).columns)
    assert t1[t1.index("N=17"):t1.index("paper N=18") + 1] == [
        "N=17", "N=18", "N=18 low", "N=18 high", "N=19", "N=19 low", "N=19 high",
        "N=20", "N=20 low", "N=20 high", "paper N=18"]
    assert [c for c in t1 if not c.endswith((" low", " high"))][:6] == [
        "playout", "value", "rules", "runs", "playouts/run", "N=17"]
    t2 = tables.table2(runs)
    assert list(t2.columns[t2.columns.get_loc("N=17"):t2.columns.get_loc("paper N=18")]) == [
        "N=17", "N=18", "N=18 low", "N=18 high", "distinct N=18",
        "distinct N=18 (paper heuristic)", "N=19", "N=19 low", "N=19 high",
        "N=20", "N=20 low", "N=20 high", "distinct N=20"]
    assert (t2["N=20 low"].iloc[0], t2["N=20 high"].iloc[0]) == (8.89, 17.11)


def test_a_single_run_has_no_interval():
    for table in (tables.table1, tables.table2):
        row = table([_run(0, (0, 2, 3, 4))]).iloc[0]
        assert row["N=18"] == 2.0
        assert all(np.isnan(row[f"N={n} {end}"]) for n in (18, 19, 20) for end in ("low", "high"))


def _scipy_ci(k, n):
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
    return float(significant(ci.low, 3)), float(significant(ci.high, 3))


def _hunt_runs():
    table1 = [
        _run(0, raw=[(17, "a"), (18, "b")]),
        _run(1, reduced=[(17, "a"), (18, "b")]),      # the same 17 and 18 again, by reduction
        _run(2),
        _run(3, raw=[(17, "e"), (18, "c"), (18, "d")], reduced=[(17, "e")]),  # e once per run
        _run(0, variant="random/mean/no-rules", raw=[(18, "f")]),
    ]
    table2 = [_run(0, c=0.5, threshold=10, raw=[(17, "g")], playouts=60_000)]
    beyond = [_run(0), _run(1)]  # no 17 and no 18
    return tables.hunt(("table1", table1), ("table2", table2), ("beyond", beyond))


def test_hunt_counts_runs_with_a_17_and_distinct_finds():
    table = _hunt_runs()
    assert list(table["experiment"]) == ["table1", "table1", "table1", "table2", "beyond",
                                         "paper (Table 1)"]
    assert list(table["reading"]) == ["reducing/min/rules", "random/mean/no-rules",
                                      "all (2 readings)", "reducing/min/rules, c=0.5, threshold=10",
                                      "reducing/min/rules", "reducing/min/rules"]
    best, other, pooled, t2, beyond, paper = (table.iloc[i] for i in range(6))
    assert (best["runs"], best["playouts/run"], best["total playouts"]) == (4, 20_000, 80_000)
    assert (best["runs with raw 17"], best["runs with 17"], best["distinct 17"]) == (2, 3, 2)
    assert (best["runs with 18"], best["distinct 18"]) == (3, 3)
    assert (best["raw 17 rate"], best["17 rate"]) == (0.5, 0.75)
    # distinct 17s per run 1, 1, 0, 1 and 18s per run 1, 1, 0, 2
    assert (best["17s/run"], best["17s/run low"], best["17s/run high"]) == (0.75, 0.0, 1.55)
    assert (best["18s/run low"], best["18s/run high"]) == tuple(
        round(b, 2) for b in _t_bounds((1, 1, 0, 2)))
    assert (other["runs with 17"], other["runs with 18"], other["distinct 18"]) == (0, 1, 1)
    assert np.isnan(other["17s/run low"]) and np.isnan(other["18s/run high"])  # a single run
    assert (pooled["runs"], pooled["runs with 17"], pooled["distinct 17"]) == (5, 3, 2)
    assert (pooled["runs with 18"], pooled["distinct 18"]) == (4, 4)
    assert (t2["runs with raw 17"], t2["total playouts"]) == (1, 60_000)
    assert (beyond["runs with 17"], beyond["distinct 17"], beyond["runs with 18"]) == (0, 0, 0)
    assert (paper["runs"], paper["runs with raw 17"], paper["total playouts"]) == (4, 1, 4_000_000)
    assert pd.isna(paper["runs with 18"]) and np.isnan(paper["18s/run"])


def test_hunt_rates_carry_clopper_pearson_intervals():
    table = _hunt_runs().set_index(["experiment", "reading"])
    for (experiment, reading), row in table.iterrows():
        for what in ("raw 17", "17"):
            k, n = row[f"runs with {what}"], row["runs"]
            assert row[f"{what} rate"] == float(significant(k / n, 3))
            assert (row[f"{what} rate low"], row[f"{what} rate high"]) == _scipy_ci(k, n), (
                experiment, reading, what)
    # no 17 in 2 runs: [0, 1 - 0.025^(1/2)] = [0, 0.842]
    beyond = table.loc[("beyond", "reducing/min/rules")]
    assert (beyond["17 rate low"], beyond["17 rate high"]) == (0.0, 0.842)
    # the paper: 1 of the 4 runs of its best combination, 0.25 [0.00631, 0.806]
    paper = table.loc[("paper (Table 1)", "reducing/min/rules")]
    assert (paper["raw 17 rate low"], paper["raw 17 rate high"]) == (0.00631, 0.806)
    assert paper["17 rate high"] == paper["raw 17 rate high"]


def test_hunt_with_no_results_is_the_paper_row():
    table = tables.hunt(("table1", []))
    assert len(table) == 1 and table["experiment"].iloc[0] == "paper (Table 1)"
    assert table.columns[:5].tolist() == ["experiment", "reading", "runs", "playouts/run",
                                          "total playouts"]
