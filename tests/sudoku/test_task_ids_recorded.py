"""The notebook's task ids at every scale are the recorded ones (a refactor keeps results)."""

import pytest

from mctslab.sudoku import experiments
from tests.task_ids import Recorder, check


@pytest.mark.parametrize("scale", ["smoke", "default", "paper"])
def test_notebook_task_ids_are_unchanged(scale):
    cfg = experiments.config(scale)
    run = Recorder()
    experiments.run_table1(run, cfg)
    experiments.run_table2(run, cfg)
    experiments.run_removal(run, cfg)
    experiments.run_beyond(run, cfg)
    check("sudoku", scale, run.tasks)
