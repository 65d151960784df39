"""Issue 28: the Go notebook's task ids at every scale are the ones recorded at main a38d89c (Go's
were not pinned by issue 22; the smoke ids equal those a smoke run of the notebook stored); the
strong engine's Fig. 5 and Table 4 (``go_strong_*``, run at paper scale only) were recorded
when issue 29 added them (on main 3596f8b)."""

import pytest

from mctslab.go import experiments, gnugo
from tests.task_ids import Recorder, check

SEED = 20261123  # the Go notebook's default seed


@pytest.mark.parametrize("scale", ["smoke", "default", "paper"])
def test_notebook_task_ids_are_unchanged(scale, monkeypatch):
    # the games' tasks do not depend on whether GNU Go is installed here
    monkeypatch.setattr(gnugo, "gnugo_missing", lambda: None)
    cfg = experiments.config(scale)
    run = Recorder(seed=SEED)
    experiments.run_matches(run, cfg)
    experiments.run_veto(run, cfg)
    experiments.run_anchors(run, cfg)
    experiments.run_duplicates(run, cfg)
    experiments.run_candidates(run, cfg)
    experiments.run_pure(run, cfg)
    experiments.run_strong_duplicates(run, cfg)  # paper scale only (strong_analysis)
    experiments.run_strong_candidates(run, cfg)
    check("go", scale, run.tasks)
