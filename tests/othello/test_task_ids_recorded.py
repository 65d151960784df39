"""The notebook's task ids at every scale are the recorded ones (a refactor keeps results);
at smoke scale with the recorded learning results, so the evaluation tasks built from the
learned WPCs are checked too."""

import pytest

from mctslab.othello import beyond, experiments
from tests.task_ids import OTHELLO_STORE, Recorder, attempt, check


@pytest.mark.parametrize("scale", ["smoke", "default", "paper"])
def test_notebook_task_ids_are_unchanged(scale):
    cfg = experiments.config(scale)
    run = Recorder(store=OTHELLO_STORE if scale == "smoke" else None)
    learned = experiments.run_learning(run, cfg)
    attempt(experiments.run_evaluation, run, cfg, learned)
    attempt(beyond.run_learner_sizes, run, cfg, learned)
    attempt(beyond.run_elo_readings, run, cfg, learned)
    attempt(beyond.run_reference_learning, run, cfg)
    check("othello", scale, run.tasks)
