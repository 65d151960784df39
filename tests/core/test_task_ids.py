"""Task ids are what lets a re-run reuse stored results: a refactor must not change them.

The ids below were computed before the domains shared ``core.params`` (scale tables,
``as_real``, ``non_default``) and the Run's seed, with the task versions of that
time (Sudoku ``run_generation`` and TSP ``comparison_task`` at version 2), and Othello's
``learning_task`` at version 2 (fresh games against the replaced opponent). A change
here means every stored result of that experiment is recomputed: make it only with a task
version bump.
"""

from __future__ import annotations

import pytest

from mctslab.othello import experiments as othello
from mctslab.sudoku import experiments as sudoku
from mctslab.tsp import experiments as tsp

SEED = 20261122


class _Recorder:
    """A stand-in for ``Run``: records the tasks each experiment would run, runs none."""

    seed = SEED

    def __init__(self):
        self.tasks = {}

    def map(self, experiment, tasks):
        self.tasks[experiment] = tasks
        return []


@pytest.mark.parametrize("overrides, expected", [
    ({}, "0c55dec362119feaba54"),
    ({"alpha": 1}, "a6554a7e86b5eeff487c"),  # an int for a real constant, and not the default
])
def test_othello_learning_task_ids(overrides, expected):
    run = _Recorder()
    othello.run_learning(run, othello.config("smoke", **overrides))
    assert run.tasks["othello_learning"][0].id == expected


@pytest.mark.parametrize("tasks, overrides, expected", [
    (sudoku.table1_tasks, {}, "42934af82182224a7edb"),
    (sudoku.table1_tasks, {"terminal": "revisit"}, "d0eda5a99675a82d88d7"),
    (sudoku.baseline_tasks, {}, "4d93bfe07ad0c63818ec"),
])
def test_sudoku_task_ids(tasks, overrides, expected):
    assert tasks(sudoku.config("smoke", **overrides), SEED)[0].id == expected


@pytest.mark.parametrize("overrides, comparison", [
    ({}, "f85aea86a13f737f989a"),
    ({"cp": 1}, "08de337cc8433ce0cbbe"),
])
def test_tsp_task_ids(overrides, comparison):
    run = _Recorder()
    with pytest.raises(KeyError):  # the recorder returns no results to tabulate
        tsp.run_comparison(run, tsp.config("smoke", instances=["random-30-1"], **overrides))
    assert run.tasks["tsp_comparison"][0].id == comparison
    assert run.tasks["tsp_lkh"][0].id == "22a5a32f662d031eb2fb"  # cp does not reach LKH
