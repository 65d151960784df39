"""Issue 22: the notebook's task ids at every scale are the ones recorded before the refactor;
at smoke scale with the recorded learning results, so the evaluation tasks built from the
learned WPCs are checked too."""

import pytest

from mctslab.othello import beyond, experiments
from tests.task_ids import OTHELLO_STORE, Recorder, attempt, check


@pytest.mark.parametrize("scale", ["smoke", "default", "paper"])
def test_notebook_task_ids_are_unchanged(scale):
    cfg = experiments.config(scale)
    run = Recorder(store=OTHELLO_STORE if scale == "smoke" else None)
    learned = experiments.learn(run, cfg)
    attempt(experiments.evaluate, run, cfg, learned)
    attempt(beyond.learner_sizes, run, cfg, learned)
    attempt(beyond.elo_readings, run, cfg, learned)
    attempt(beyond.reference_learning, run, cfg)
    check("othello", scale, run.tasks)
