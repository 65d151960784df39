"""The Sudoku figures draw the tables they are given: the clue histogram draws exactly the
numbers of a made-up table (it aggregates no results itself; that
no figures module imports a tables module is checked for every domain in
``tests/core/test_architecture_claims.py``)."""


import numpy as np
import pandas as pd

from mctslab.sudoku import figures, tables


def test_the_histogram_draws_exactly_its_table():
    table = pd.DataFrame({"variant": ["a", "a", "a", "b"], "clues": [20, 21, 22, 30],
                          "puzzles": [5, 0, 7, 2]})
    lines = figures.histogram_figure(table).axes[0].get_lines()
    assert [line.get_label() for line in lines] == ["a", "b"]
    assert [list(line.get_xdata()) for line in lines] == [[20, 21, 22], [30]]
    assert [list(line.get_ydata()) for line in lines] == [[5, 0, 7], [2]]


def test_the_histogram_table_sums_seeds_over_each_variants_span():
    def run(variant, counts):
        histogram = np.zeros(82, dtype=int)
        for clues, n in counts.items():
            histogram[clues] = n
        return {"variant": variant, "histogram": histogram}

    results = [run("x", {22: 1, 24: 3}), run("x", {22: 2}), run("y", {}), run("z", {30: 4})]
    table = tables.clue_histograms(results)
    assert table.to_dict("records") == [
        {"variant": "x", "clues": 22, "puzzles": 3}, {"variant": "x", "clues": 23, "puzzles": 0},
        {"variant": "x", "clues": 24, "puzzles": 3}, {"variant": "z", "clues": 30, "puzzles": 4}]
