"""The TSP figures draw what they are given: the means over seeds, the best known path and the
Cp sweep's methods come in as arguments (made up here, the figures draw exactly them) (that no figures
module imports a tables module is checked for every domain in
``tests/core/test_architecture_claims.py``)."""

import numpy as np
import pandas as pd

from mctslab.tsp import figures, tables

MEANS = pd.DataFrame({
    "method": ["sa", "mct_rm", "mct_rs", "sa", "mct_rm", "mct_rs"],
    "instance": ["a", "a", "a", "b", "b", "b"], "n": [10, 10, 10, 100, 100, 100],
    "mst": [2.0, 2.0, 2.0, 10.0, 10.0, 10.0], "optimum": [np.nan] * 6,
    "length": [4.0, 3.0, 5.0, 30.0, 20.0, 40.0]})


def _points(ax):
    """Label and (x, y) points of each scatter on ``ax``."""
    return {c.get_label(): [tuple(p) for p in c.get_offsets().tolist()] for c in ax.collections}


def test_fig9_draws_the_variants_it_is_given_in_their_order():
    # only MCT_RS, named as a made-up 3 x SD: the figure neither looks for MCT_RM nor relabels
    ax = figures.figure9(MEANS, [("mct_rs", "sd", 3.0)]).axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["SA (paper)", "RS 3xSD"]
    assert _points(ax)["RS 3xSD"] == [(10.0, 2.5), (100.0, 4.0)]


def test_the_baselines_figure_divides_by_the_best_known_path_it_is_given():
    best = pd.Series({"a": 2.0, "b": 25.0})  # not the frame's shortest lengths (3 and 20)
    ax = figures.figure_baselines(MEANS, best).axes[0]
    points = _points(ax)
    assert points["SA (paper)"] == [(10.0, 2.0), (100.0, 1.2)]
    assert points["MCT_RM"] == [(10.0, 1.5), (100.0, 0.8)]


def test_fig8_draws_the_means_it_is_given():
    # two rows of one method and instance: the figure draws both, it averages nothing
    means = pd.concat([MEANS, MEANS.iloc[[1]].assign(length=9.0)], ignore_index=True)
    points = _points(figures.figure8(means).axes[0])
    assert sorted(points["MCT_RM"]) == [(10.0, 1.5), (10.0, 4.5), (100.0, 2.0)]


def test_the_seed_means_average_each_methods_seeds_per_instance():
    frame = pd.concat([MEANS.assign(seed=0), MEANS.assign(seed=1, length=MEANS["length"] * 3)])
    means = tables.seed_means(frame).set_index(["method", "instance"])
    assert means.loc[("mct_rm", "b"), "length"] == 40.0
    assert means.loc[("sa", "a"), ["n", "mst"]].tolist() == [10, 2.0]
    assert len(means) == 6
