"""When the finds happen: finds per tenth of a run, from the generator to the figure."""

import numpy as np
import pytest

from mctslab.sudoku import figures, tables
from mctslab.sudoku.generator import GeneratorConfig, finds_per_part, generate


def test_finds_per_part_by_hand():
    per = finds_per_part([0, 9, 10, 55, 99, 42], [20, 20, 19, 20, 18, 21], 100, (18, 19, 20))
    assert per == {18: [0] * 9 + [1], 19: [0, 1] + [0] * 8, 20: [2, 0, 0, 0, 0, 1, 0, 0, 0, 0]}
    # a run that is not a multiple of the parts: the last playout is in the last part
    assert finds_per_part([0, 6], [20, 20], 7, (20,), parts=3) == {20: [1, 0, 1]}
    with pytest.raises(ValueError):
        finds_per_part([1], [20, 20], 10)


def test_finds_per_tenth_add_up_to_the_run_histogram():
    config = GeneratorConfig(playouts=1_500, record_max_clues=27, verify_max_clues=27,
                             verify_backend="none")
    run = generate(config, seed=3)
    clues = np.count_nonzero(run.boards, axis=1)
    per = finds_per_part(run.playout_of, clues, config.playouts, range(17, 28))
    assert sum(map(sum, per.values())) == len(run.boards) > 100  # ~1,200 of 1,500 have <= 27
    for n, counts in per.items():
        assert sum(counts) == run.histogram[n]


def _result(seed_index, per_tenth, **config):
    config = {"playouts": 1000, "min_of": "playouts", "exhausted": "keep", **config}
    out = {"config": config, "variant": "reducing/min/rules", "seed_index": seed_index}
    if per_tenth is not None:
        out["finds_per_tenth"] = {str(n): list(per_tenth) for n in (17, 18, 19, 20)}
    return out


def test_finds_per_tenth_table_and_figure_per_reading():
    runs = [_result(0, range(10)), _result(1, [5] * 10),
            _result(0, [1] + [0] * 9, min_of="children", exhausted="drop"),
            _result(1, None)]  # stored before the runs recorded it: left out
    table = tables.finds_per_tenth(runs)
    assert len(table) == 30
    assert set(table["reading"]) == {"reducing/min/rules",
                                     "reducing/min/rules, min_of=children, exhausted=drop"}
    first = table[(table["reading"] == "reducing/min/rules") & (table["tenth"] == 10)]
    assert list(first["N=20"]) == [9, 5]
    fig = figures.finds_per_tenth_figure(table)
    assert len(fig.axes) == 2
    line = fig.axes[1].get_lines()[0]  # N=20, default reading: mean of the two seeds
    assert list(line.get_ydata()) == [(t + 5) / 2 for t in range(10)]
    empty = tables.finds_per_tenth([_result(0, None)])
    assert figures.finds_per_tenth_figure(empty).axes  # nothing recorded: a note


def test_the_finds_figure_draws_the_table_it_is_given():
    """The figure plots the table's numbers (here ones no run produced), never results."""
    table = tables.finds_per_tenth([_result(0, range(10)), _result(1, [5] * 10)])
    table["N=20"] = 100 * table["tenth"]
    fig = figures.finds_per_tenth_figure(table, clues=(20,))
    assert list(fig.axes[0].get_lines()[0].get_ydata()) == [100 * t for t in range(1, 11)]
    with pytest.raises(ValueError, match="N=19"):
        figures.finds_per_tenth_figure(table.drop(columns="N=19"))
