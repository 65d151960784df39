"""The notebook's task ids at every scale are the recorded ones (a refactor keeps results)."""

import pytest

from mctslab.tsp import experiments
from tests.task_ids import Recorder, attempt, check


@pytest.mark.parametrize("scale", ["smoke", "default", "paper"])
def test_notebook_task_ids_are_unchanged(scale):
    cfg = experiments.config(scale)
    run = Recorder()
    attempt(experiments.run_comparison, run, cfg)
    attempt(experiments.run_speedup, run, cfg)
    attempt(experiments.run_anytime, run, cfg)
    check("tsp", scale, run.tasks)
