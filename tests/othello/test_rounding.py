"""Othello tables are rounded for citing: scores to 3 decimals, speeds and times to
3 significant digits."""

import pandas as pd

from mctslab.othello import tables
from mctslab.othello.experiments import Evaluated, Learned


def test_run_summary_times_and_speeds_have_3_significant_digits():
    result = dict(repetition=0, games=1_234_567, evaluation_games=2000, seconds=223.98765,
                  events=[{"kind": "replace"}, {"kind": "fail"}])
    learned = Learned({"individual": [result], "group": [dict(result, seconds=0.0123456)]})
    summary = tables.run_summary(learned)
    assert summary["task_seconds"].tolist() == [224.0, 0.0123]
    assert summary["games_per_second"].tolist() == [5510.0, 100_000_000.0]
    assert summary["learning_games"].tolist() == [1_234_567, 1_234_567]  # counts untouched


def test_table4_scores_have_3_decimals():
    rows = pd.DataFrame([
        dict(source="group", repetition=0, member=1, rating=1712.3456, label="group rep 0: member 1",
             games=10_000, wins=4512, draws=101, losses=5387, score=0.45625, ci_low=0.446612,
             ci_high=0.465901),
        dict(source="published", repetition=None, member=None, rating=None, label="x",
             games=10_000, wins=5400, draws=0, losses=4600, score=0.54, ci_low=0.530212,
             ci_high=0.549779)])
    table = tables.table4(Evaluated(rows, [], None)).set_index("label")
    assert table.loc["group rep 0: member 1", "score"] == 0.456
    assert table.loc["group rep 0: member 1", "ci_low"] == 0.447
    assert table.loc["group rep 0: member 1", "rating"] == 1712.3
    assert table.loc["x", "ci_high"] == 0.55
