"""The Othello figures draw the tables they are given: Figs. 5-7 draw exactly the numbers of
made-up tables (that no figures
module imports a tables module is checked for every domain in
``tests/core/test_architecture_claims.py``)."""

import numpy as np
import pandas as pd

from mctslab.othello import figures, tables

CURVES = pd.DataFrame({
    "mode": ["individual"] * 3 + ["group"] * 3,
    "repetition": [0, 0, 1, 0, 0, 1],
    "games": [10_000, 30_000, 20_000, 40_000, 60_000, 50_000],
    "vs_opponent": [0.6, 0.7, 0.55, np.nan, np.nan, np.nan],
    "rating": [np.nan] * 3 + [1500.0, 1600.0, 1550.0],
    "vs_standard": [0.3, 0.4, 0.35, 0.45, 0.5, 0.48],
    "newcomer_vs_standard": [np.nan] * 3 + [0.2, 0.3, 0.25]})
RATINGS = pd.DataFrame({"games": [0, 20_000, 40_000], "best": [1500.0, 1520.0, 1580.0]})


def _drawn(ax):
    """The lines drawn on ``ax`` as (x, y) lists, the 0.5 guide line left out."""
    return [(list(line.get_xdata()), list(line.get_ydata())) for line in ax.get_lines()
            if list(line.get_ydata()) != [0.5, 0.5]]


def test_figure5_draws_the_individual_changes_it_is_given():
    assert _drawn(figures.figure5(CURVES).axes[0]) == [
        ([1.0, 3.0], [0.6, 0.7]), ([1.0, 3.0], [0.3, 0.4]), ([2.0], [0.35])]


def test_figure6_draws_the_ratings_and_group_changes_it_is_given():
    left, right = figures.figure6(CURVES, RATINGS).axes
    assert _drawn(left) == [([0.0, 2.0, 4.0], [1500.0, 1520.0, 1580.0])]
    assert _drawn(right) == [([4.0, 6.0], [0.45, 0.5]), ([5.0], [0.48])]


def test_figure7_draws_every_run_it_is_given():
    assert _drawn(figures.figure7(CURVES).axes[0]) == [
        ([1.0, 3.0], [0.3, 0.4]), ([2.0], [0.35]), ([4.0, 6.0], [0.45, 0.5]), ([5.0], [0.48])]


class _Learned:
    def __init__(self, runs):
        self.runs = runs

    def mode(self, mode):
        return self.runs[mode]


def test_the_curves_are_every_runs_changes_and_the_ratings_its_generations():
    replace = dict(kind="replace", games=100, score_vs_opponent=0.6, vs_standard={"score": 0.4})
    join = dict(kind="join", games=200, rating_after_league=1510.0,
                top_vs_standard={"score": 0.45}, newcomer_vs_standard=None)
    learned = _Learned({"individual": [{"events": [replace]}, {"events": [replace, replace]}],
                        "group": [{"events": [join], "generations": {"games": [0, 200],
                                                                     "best": [1500, 1510]}}]})
    curves = tables.change_curves(learned)
    assert list(zip(curves["mode"], curves["repetition"])) == [
        ("individual", 0), ("individual", 1), ("individual", 1), ("group", 0)]
    assert curves["vs_standard"].tolist() == [0.4, 0.4, 0.4, 0.45]
    assert curves["rating"].iloc[-1] == 1510.0 and pd.isna(curves["newcomer_vs_standard"].iloc[-1])
    ratings = tables.group_ratings(learned)
    assert ratings.to_dict("list") == {"games": [0, 200], "best": [1500, 1510]}
