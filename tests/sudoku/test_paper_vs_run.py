"""The Sudoku notebook's paper-vs-run rows (issue 22): the core.compare shape; counts judged only
at the paper's budget."""

import numpy as np

from mctslab.core.compare import COLUMNS, DIFFERS, NOT_RUN, REPRODUCED
from mctslab.sudoku import tables

from .test_intervals_hunt import _run


def test_counts_at_the_paper_budget_are_judged_by_the_t_interval():
    # reducing/min/rules at 1M playouts: the paper's N=18, 19, 20 = 41.5, 2337.5, 20551.8
    runs = [_run(i, (0, n18, 2337, 20900 + 10 * i), playouts=1_000_000,
                 raw=[(17, "x" * 81)] if i == 0 else [])
            for i, n18 in enumerate((30, 40, 50, 45))]
    table = tables.paper_vs_run(runs, [], "paper")
    assert tuple(table.columns) == COLUMNS
    rows = table.set_index(["artefact", "row", "column"])
    label = ("Table 1", "candidate-reducing, min, rules yes")
    assert rows.loc[(*label, "N=18"), "verdict"] == REPRODUCED  # 41.25 +- t: 41.5 inside
    assert rows.loc[(*label, "N=19"), "verdict"] == DIFFERS     # 2337 every run, not 2337.5
    n20 = rows.loc[(*label, "N=20")]
    assert n20.our_value == 20915 and n20.n == 4 and n20.verdict == DIFFERS  # +- 24
    hunt = rows.loc[("Sec. 5.1", "17-clue puzzle generated", "share of Table 1 runs")]
    assert hunt.paper_value == 1 / 32 and hunt.our_value == 0.25 and hunt.verdict == REPRODUCED


def test_a_smaller_budget_is_shown_but_not_judged():
    runs = [_run(i, (0, 1, 2, 3)) for i in range(4)]  # 20,000 playouts
    table = tables.paper_vs_run(runs, [_run(0, (0, 1, 2, 3), c=0.5, threshold=10)], "default")
    assert set(table.verdict) == {NOT_RUN}
    counted = table[table.artefact != "Sec. 5.1"]
    assert np.isfinite(counted.our_value.astype(float)).all()
    assert "20,000 playouts per run" in counted.note.iloc[0]
    assert "the paper's 3,000,000" in table[table.artefact == "Table 2"].note.iloc[0]
    one_seed = tables.paper_vs_run([_run(0, (0, 40, 2300, 20500), playouts=1_000_000)], [],
                                   "paper")
    assert set(one_seed[one_seed.artefact == "Table 1"].verdict) == {NOT_RUN}
    assert "one run: no interval" in one_seed.note.iloc[0]
