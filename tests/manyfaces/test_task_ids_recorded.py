"""The notebook's task ids at every scale are the ones recorded: the census's and the strength
games' before issue 22's refactor, the measurements' (cost chain, time shares, influence,
territory, enclosed field, joseki DAG, regression suites) when they became tasks."""

import pytest

from mctslab.manyfaces import experiments
from tests.task_ids import Recorder, attempt, check

# every runner of the notebook, in the notebook's order
RUNNERS = (experiments.run_cost_chain, experiments.run_joseki, experiments.run_influence,
           experiments.run_territory, experiments.run_enclosed, experiments.run_census,
           experiments.run_regression, experiments.run_time_shares, experiments.run_strength)


def notebook_task_ids(scale: str) -> dict[str, list[str]]:
    """The ids of every task the notebook asks for at ``scale`` (its seed), per experiment."""
    cfg = experiments.config(scale)
    run = Recorder()
    for runner in RUNNERS:
        attempt(runner, run, cfg)
    return run.tasks


@pytest.mark.parametrize("scale", ["smoke", "default", "paper"])
def test_notebook_task_ids_are_unchanged(scale, monkeypatch):
    # the strength matches' tasks do not depend on whether GNU Go is installed here
    monkeypatch.setattr(experiments, "gnugo_missing", lambda: None, raising=False)
    check("manyfaces", scale, notebook_task_ids(scale))
