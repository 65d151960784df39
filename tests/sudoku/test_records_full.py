"""A run that finds more puzzles than it can keep says so, and the tables count such runs
(a 3,000,000-playout run once filled a 1,000,000-puzzle buffer, and its table count was
silently a lower bound)."""

import numpy as np

from mctslab.sudoku import generator, tables
from mctslab.sudoku.generator import GeneratorConfig, generate


def test_a_full_record_buffer_is_flagged_and_keeps_what_fits(monkeypatch):
    config = GeneratorConfig(playouts=300, record_max_clues=81, verify_max_clues=17,
                             verify_backend="none")
    whole = generate(config, seed=5)
    assert not whole.stats["records_overflowed"] and len(whole.boards) > 40
    monkeypatch.setattr(generator, "RECORD_CAPACITY", 40)
    cut = generate(config, seed=5)
    assert cut.stats["records_overflowed"] and len(cut.boards) == 40
    assert np.array_equal(cut.boards, whole.boards[:40])      # the first finds, in order
    assert np.array_equal(cut.histogram, whole.histogram)     # the histogram counts them all


def test_paper_length_runs_fit():
    assert generator.RECORD_CAPACITY >= 3_000_064  # Table 2: 3,000,000 playouts, one find each


def _run(overflowed):
    counts = {str(n): {"count": 1, "distinct": 1, "distinct_paper_heuristic": 1}
              for n in (17, 18, 19, 20)}
    return {"config": {"playout": "reducing", "selection": "min", "rules": True,
                       "playouts": 100, "c": 1.0, "threshold": 40},
            "variant": "reducing/min/rules", "seed_index": 0, "cpu_seconds": 1.0,
            "histogram": np.ones(82, np.int64), "raw": {"distinct": counts},
            "reduced": {"distinct": counts}, "stats": {"records_overflowed": overflowed}}


def test_tables_count_the_runs_with_records_full():
    runs = [_run(False), _run(True), _run(True)]
    assert tables.table1(runs).iloc[0]["runs with records full"] == 2
    assert tables.table2(runs).iloc[0]["runs with records full"] == 2
    assert tables.table2(runs[:1]).iloc[0]["runs with records full"] == 0
