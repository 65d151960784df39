"""Issue 22: the notebook's task ids at every scale are the ones recorded before the refactor."""

import pytest

from mctslab.manyfaces import experiments
from tests.task_ids import Recorder, attempt, check


@pytest.mark.parametrize("scale", ["smoke", "default", "paper"])
def test_notebook_task_ids_are_unchanged(scale, monkeypatch):
    # the strength matches' tasks do not depend on whether GNU Go is installed here
    monkeypatch.setattr(experiments, "gnugo_missing", lambda: None, raising=False)
    cfg = experiments.config(scale)
    run = Recorder()
    experiments.run_census(run, cfg)
    attempt(experiments.run_strength, run, cfg)
    check("manyfaces", scale, run.tasks)
