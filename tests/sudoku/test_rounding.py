"""The Sudoku tables are rounded for citing; the task results (the store's values) are not:
means of counts to 2 decimals, mean clues to 0.01, rates to 3 decimals, times,
speeds and yields to 3 significant digits."""

import numpy as np

from mctslab.sudoku import tables


def _counts(values):
    return {str(n): {"count": v, "distinct": max(v - 1, 0), "distinct_paper_heuristic": v}
            for n, v in zip((17, 18, 19, 20), values)}


def _run(seed_index, raw, cpu, histogram):
    return {"config": {"playout": "reducing", "selection": "min", "rules": True,
                       "playouts": 20_000, "c": 1.0, "threshold": 30},
            "variant": "reducing/min/rules", "seed_index": seed_index,
            "histogram": histogram, "cpu_seconds": cpu,
            "raw": {"distinct": _counts(raw)},
            "reduced": {"distinct": _counts((0, 1, 2, 3)), "cpu_seconds": 0.123456789}}


def _runs():
    histogram = np.zeros(82, np.int64)
    histogram[[22, 23, 25]] = (1, 1, 1)  # mean 23.333... clues
    return [_run(0, (0, 1, 2, 7), 12.3456789, histogram),
            _run(1, (0, 0, 3, 1), 10.9876543, histogram),
            _run(2, (0, 0, 0, 0), 11.1111111, histogram)]


def test_table1_count_means_2_decimals_times_and_speeds_3_significant_digits():
    runs = _runs()
    row = tables.table1(runs).iloc[0]
    assert row["N=18"] == 0.33            # 1/3
    assert row["N=19"] == 1.67            # 5/3
    assert row["distinct N=19"] == 1.0    # (1 + 2 + 0) / 3
    assert row["mean clues"] == 23.33
    cpu = (12.3456789 + 10.9876543 + 11.1111111) / 3  # 11.48148...
    assert row["CPU s/run"] == 11.5
    assert row["playouts/s"] == 1740.0    # 20,000 / 11.48 = 1741.9...
    assert row["paper N=20"] == 20551.8   # the paper's own numbers are untouched
    # the task results keep full precision
    assert runs[0]["cpu_seconds"] == 12.3456789
    assert abs(20_000 / cpu - 1741.935) < 1e-3


def test_a_four_run_mean_keeps_its_quarter_resolution():
    runs = _runs() + [_run(3, (0, 0, 0, 0), 11.0, np.ones(82, np.int64))]
    row = tables.table1(runs).iloc[0]
    assert row["N=18"] == 0.25 and row["N=19"] == 1.25 and row["N=20"] == 2.0


def test_table2_yield_baseline_and_heuristic_tables_are_rounded():
    runs = _runs()
    t2 = tables.table2(runs).iloc[0]
    assert t2["N=18"] == 0.33 and t2["CPU s/run"] == 11.5
    yields = tables.yield_table(("t1", runs)).iloc[0]
    search_hours = (12.3456789 + 10.9876543 + 11.1111111) / 3600
    assert yields["CPU hours"] == float(f"{search_hours:.3g}")
    assert yields["N=19 /CPU-h"] == float(f"{3 / search_hours:.3g}")  # distinct 19s: 1+2+0
    histogram = np.zeros(82, np.int64)
    histogram[[20, 24, 25]] = (1, 1, 1)
    base = tables.baseline_table([{"histogram": histogram, "cpu_seconds": 0.7}]).iloc[0]
    assert base["mean clues"] == 23.0
    assert base["runs/s"] == 4.29          # 3 / 0.7 = 4.2857...
    assert base["N=20 per 1M"] == 333000.0  # 1e6 / 3 = 333,333.3...
    one = _run(0, (0, 0, 0, 0), 1.0, histogram)
    one["raw"]["distinct"]["19"] = {"count": 9, "distinct": 4, "distinct_paper_heuristic": 7}
    heuristic = tables.heuristic_table(("t1", [one])).set_index("clues")
    assert heuristic.loc[19, "failure rate"] == 0.429  # (7 - 4) / 7 = 0.42857...
    assert heuristic.loc[19, "unmerged duplicates"] == 3
