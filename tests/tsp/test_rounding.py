"""The TSP tables are rounded for citing; the frame (the store's values) is not."""

import pandas as pd

from mctslab.tsp import tables


def _frame():
    rows = []
    for replicate, (sa, rm, um, seconds) in enumerate([(100.0, 150.0, 301.0, 0.0712345678),
                                                      (200.0, 201.0, 333.0, 0.0698765432),
                                                      (301.0, 151.0, 302.0, 0.0701111111)]):
        rows += [{"method": "sa", "length": sa, "final_length": sa + 7, "seconds": seconds},
                 {"method": "mct_rm", "length": rm, "seconds": seconds, "playouts": 1234 + replicate,
                  "first_playout_seconds": 0.00123456, "first_playout_over_budget": False,
                  "time_to_beat": None, "playouts_to_beat": None, "tree_nodes": 10,
                  "max_depth": 2, "cp": 3.0},
                 {"method": "mct_um", "length": um, "seconds": seconds, "playouts": 5000}]
        for row in rows[-3:]:
            row.update(instance="a", replicate=replicate, n=10, mst=97.123456, optimum=120.0)
    return pd.DataFrame(rows)


def test_ratio_columns_have_3_decimals_and_times_3_significant_digits():
    frame = _frame()
    ratios = tables.mean_ratios(frame).set_index(["method", "compared with"])
    exact = (150 / 100 + 201 / 200 + 151 / 301) / 3  # 1.00239...
    assert ratios.loc[("MCT_RM", "SA best"), "mean ratio"] == round(exact, 3) == 1.002
    table = tables.per_instance(frame).iloc[0]
    assert table["SA ms"] == 70.4  # mean 70.40740 ms -> 3 significant digits
    assert table["SA"] == 200.3  # mean of 100, 200, 301 over 3 seeds -> 0.1
    assert table["MST"] == 97.1
    assert table["RM playouts"] == 1240.0  # mean 1235 -> 3 significant digits
    assert table["RM first playout ms"] == 1.23
    # the frame itself keeps full precision
    assert frame.loc[0, "seconds"] == 0.0712345678
    base = tables.baselines(frame).set_index("method")
    # paths against the best known path of the instance (here SA's 100), never against the
    # optimal tour (120): a path is one closing edge shorter than a tour
    gap = 100 * ((100 + 200 + 301) / 3 / 100 - 1)  # 100.333...%
    assert base.loc["SA (paper)", tables.GAP_COLUMN] == round(gap, 1) == 100.3
    assert (base[tables.GAP_COLUMN].dropna() >= 0).all()
