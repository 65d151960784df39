"""The TSP notebook's paper-vs-run rows (issues 22, 27): the core.compare shape, verdicts by
equivalence, only at the paper's scale and protocol, and its protocol constants."""

import math

import numpy as np
import pandas as pd

from mctslab.core.compare import COLUMNS, DIFFERS, INCONCLUSIVE, NOT_RUN, REPRODUCED
from mctslab.tsp import experiments, tables


def _frame(rm_ratios, um_ratio=1.08, reached=None):
    """One instance per ratio, one seed: SA 100, MCT_RM 100 x ratio, MCT_UM 100 x um_ratio."""
    reached = reached or (None,) * len(rm_ratios)
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


def _paper_cfg(**overrides):
    return experiments.config("paper", instances=("eil51",), **overrides)


def test_ratios_close_to_the_paper_over_77_instances_are_reproduced():
    rng = np.random.default_rng(1)
    ratios = 0.632 + rng.uniform(-0.02, 0.02, 77)
    table = tables.paper_vs_run(_frame(ratios, um_ratio=1.2), _paper_cfg())
    assert tuple(table.columns) == COLUMNS
    rows = table.set_index(["artefact", "row", "column"])
    rm = rows.loc[("Fig. 8", "MCT_RM", "mean ratio to SA")]
    assert rm.paper_value == 0.632 and rm.n == 77 and rm.verdict == REPRODUCED
    assert 0.582 <= rm.low and rm.high <= 0.682 and rm.unit_cpu_s == 3.0  # three methods x 1 s
    # MCT_UM 1.2 on every instance: a zero-width interval outside 1.08 +- 0.05
    assert rows.loc[("Fig. 8", "MCT_UM", "mean ratio to SA"), "verdict"] == DIFFERS
    speed = rows.loc[("Sec. 4", "MCT_RM", "time to reach SA's length (% of SA's)")]
    # no run reached SA's length: at least 100% of SA's time, far above 0.15% x 2
    assert speed.verdict == DIFFERS and speed.high == math.inf and "0 of 77" in speed.note


def test_a_wide_interval_is_open_and_says_what_settles_it():
    table = tables.paper_vs_run(_frame([0.3, 0.632, 0.9] * 26), _paper_cfg())
    rm = table.set_index(["artefact", "row"]).loc[("Fig. 8", "MCT_RM")]
    assert rm.verdict == INCONCLUSIVE and rm.settle_n > 78 and rm.settle_cpu_h > 0
    assert "instances in all settle it" in rm.why


def test_below_the_papers_scale_or_protocol_nothing_sampled_is_judged():
    smoke = tables.paper_vs_run(_frame([0.60, 0.63, 0.66]), experiments.config("smoke"))
    sampled = smoke[smoke.kind == "sampled"]
    assert set(sampled.verdict) == {NOT_RUN} and "scale smoke" in sampled.why.iloc[0]
    few = tables.paper_vs_run(_frame([0.632] * 10), _paper_cfg())
    assert "below the 77" in few[few.artefact == "Fig. 8"].why.iloc[0]
    changed = tables.paper_vs_run(_frame([0.632] * 77), _paper_cfg(cp=1.0))
    sampled = changed[changed.kind == "sampled"]
    assert set(sampled.verdict) == {NOT_RUN}
    assert all("cp = 1.0" in departure for departure in sampled.departure)


def test_the_protocol_constants_are_judged_at_paper_scale():
    table = tables.paper_vs_run(_frame([0.63]), experiments.config("smoke"))
    config = table[table.kind == "config"].set_index("column")
    assert config.loc["cooling factor", "verdict"] == REPRODUCED
    assert config.loc["Cp multipliers", "our_value"] == "0, 2, 4"
    # our paper set adds the ATT instances att48 and att532 to the 77 EUC_2D ones
    assert config.loc["instances", "our_value"] == 79
    assert config.loc["instances", "verdict"] == DIFFERS
    assert config.loc["fewest cities", "verdict"] == REPRODUCED
