"""Issue 22: the notebook's task ids at every scale are the ones recorded before the refactor."""

import pytest

from mctslab.sudoku import experiments
from tests.task_ids import Recorder, check


@pytest.mark.parametrize("scale", ["smoke", "default", "paper"])
def test_notebook_task_ids_are_unchanged(scale):
    cfg = experiments.config(scale)
    run = Recorder()
    experiments.table1_runs(run, cfg)
    experiments.table2_runs(run, cfg)
    experiments.removal_runs(run, cfg)
    experiments.beyond_runs(run, cfg)
    check("sudoku", scale, run.tasks)
