"""The TSP notebook's paper-vs-run rows (issue 22): the core.compare shape, verdicts by interval."""

import numpy as np
import pandas as pd

from mctslab.core.compare import COLUMNS, DIFFERS, NOT_RUN, REPRODUCED
from mctslab.tsp import experiments, tables


def _frame(rm_ratios, um_ratio=1.08, reached=(None, None, None)):
    """Three instances, one seed: SA 100, MCT_RM 100 x ratio, MCT_UM 100 x um_ratio."""
    rows = []
    for i, (ratio, reach) in enumerate(zip(rm_ratios, reached)):
        base = dict(instance=f"i{i}", replicate=0, n=10, mst=50.0, optimum=None)
        rows += [dict(base, method="sa", length=100.0, final_length=101.0, seconds=1.0),
                 dict(base, method="mct_rm", length=100.0 * ratio, seconds=1.0, playouts=10,
                      first_playout_seconds=0.01, first_playout_over_budget=False,
                      time_to_beat=reach, playouts_to_beat=None, tree_nodes=5, max_depth=2,
                      cp=1.0),
                 dict(base, method="mct_um", length=100.0 * um_ratio, seconds=1.0, playouts=10)]
    return pd.DataFrame(rows)


def test_ratios_inside_the_interval_are_reproduced():
    cfg = experiments.config("smoke")
    table = tables.paper_vs_run(_frame([0.60, 0.63, 0.66], um_ratio=1.2), cfg)
    assert tuple(table.columns) == COLUMNS
    rows = table.set_index(["artefact", "row"])
    rm = rows.loc[("Fig. 8", "MCT_RM")]
    assert rm.paper_value == 0.632 and np.isclose(rm.our_value, 0.63) and rm.n == 3
    assert rm.low < 0.632 < rm.high and rm.verdict == REPRODUCED
    # MCT_UM 1.2 on every instance: a zero-width interval, the paper's 1.08 outside it
    assert rows.loc[("Fig. 8", "MCT_UM"), "verdict"] == DIFFERS
    speed = rows.loc[("Sec. 4", "MCT_RM")]
    assert speed.verdict == DIFFERS and "none of 3 runs" in speed.note
    assert set(table.scale) == {"smoke"}


def test_far_ratios_differ_and_a_time_share_is_compared():
    cfg = experiments.config("smoke")
    table = tables.paper_vs_run(_frame([0.90, 0.91, 0.92], reached=(0.001, 0.002, 0.0015)), cfg)
    rows = table.set_index(["artefact", "row"])
    assert rows.loc[("Fig. 8", "MCT_RM"), "verdict"] == DIFFERS
    speed = rows.loc[("Sec. 4", "MCT_RM")]
    assert np.isclose(speed.our_value, 0.15) and speed.n == 3  # 0.15% of SA's time
    assert speed.verdict == REPRODUCED


def test_changed_paper_constants_are_not_the_paper_protocol():
    cfg = experiments.config("smoke", cp=1.0)
    table = tables.paper_vs_run(_frame([0.60, 0.63, 0.66]), cfg)
    assert set(table.verdict) == {NOT_RUN}
    assert all("cp = 1.0" in note for note in table.note)
