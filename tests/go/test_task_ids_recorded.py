"""Issue 28: the Go notebook's task ids at every scale are the ones recorded at main a38d89c (Go's
were not pinned by issue 22; the smoke ids equal those a smoke run of the notebook stored); the
strong engine's Fig. 5 and Table 4 (``go_strong_*``, run at paper scale only) were recorded
when issue 29 added them (on main 3596f8b). Issue 27 made the paper scale search each Table 4 size
ten times (``table4_searches``): the paper scale's ``go_candidates`` and
``go_strong_candidates`` were re-recorded then, and their first searches keep their ids (the
last test)."""

import pytest

from mctslab.go import experiments, gnugo
from tests.task_ids import Recorder, check

SEED = 20261123  # the Go notebook's default seed


def _record(cfg) -> dict:
    run = Recorder(seed=SEED)
    experiments.run_matches(run, cfg)
    experiments.run_veto(run, cfg)
    experiments.run_anchors(run, cfg)
    experiments.run_duplicates(run, cfg)
    experiments.run_candidates(run, cfg)
    experiments.run_pure(run, cfg)
    experiments.run_strong_duplicates(run, cfg)  # paper scale only (strong_analysis)
    experiments.run_strong_candidates(run, cfg)
    return run.tasks


@pytest.mark.parametrize("scale", ["smoke", "default", "paper"])
def test_notebook_task_ids_are_unchanged(scale, monkeypatch):
    # the games' tasks do not depend on whether GNU Go is installed here
    monkeypatch.setattr(gnugo, "gnugo_missing", lambda: None)
    check("go", scale, _record(experiments.config(scale)))


def test_more_table4_searches_keep_the_first_searches_ids(monkeypatch):
    """Searches 2..10 of each size come after the ones a one-search run stored (the 9x9
    record's store), with ids of their own."""
    monkeypatch.setattr(gnugo, "gnugo_missing", lambda: None)
    one = _record(experiments.config("paper", table4_searches=1))
    ten = _record(experiments.config("paper"))
    for experiment in ("go_candidates", "go_strong_candidates"):
        sizes = len(experiments.config("paper").table4_sizes)
        assert len(one[experiment]) == sizes and len(ten[experiment]) == 10 * sizes
        assert ten[experiment][:sizes] == one[experiment]
        assert len(set(ten[experiment])) == 10 * sizes
    assert {k: v for k, v in one.items() if "candidates" not in k} == \
        {k: v for k, v in ten.items() if "candidates" not in k}
