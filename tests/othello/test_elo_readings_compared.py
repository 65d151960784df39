"""The Elo/join readings side by side: ``compared_elo_readings`` and elo_readings."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from mctslab.core.report import Run
from mctslab.othello import beyond, experiments, tables


@pytest.mark.parametrize("bad", [("keep", "keep"), ("keep", "elo"), "keep", ("rederive", 1),
                                 (["keep"],)])
def test_compared_elo_readings_is_validated(bad):
    with pytest.raises(ValueError, match="compared_elo_readings must be a tuple of distinct"):
        experiments.config("smoke", compared_elo_readings=bad)
    # a list (papermill passes JSON) is the tuple
    assert experiments.config("smoke", compared_elo_readings=["rederive"]).compared_elo_readings == (
        "rederive",)


def test_every_scale_compares_both_readings_and_the_task_params_do_not_change():
    for scale in experiments.SCALES:
        cfg = experiments.config(scale)
        assert cfg.compared_elo_readings == ("keep", "rederive")
        assert "compared_elo_readings" not in cfg.learning_params("group")
    assert experiments.config("smoke", compared_elo_readings=()).compared_elo_readings == ()


class _Recording:
    """A Run that notes the tasks of every ``map`` call."""

    def __init__(self, run):
        self.run, self.seed, self.calls = run, run.seed, []

    def map(self, experiment, tasks):
        self.calls.append((experiment, list(tasks)))
        return self.run.map(experiment, tasks)


# smoke scale, cut down: 2 repetitions of 3 iterations with Tmax = 4, no evaluation at changes
TINY = dict(final_games=40, round_robin_games=4, iterations=3, max_generations=4, repetitions=2,
            eval_games=0)


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    cfg = experiments.config("smoke", **TINY)
    run = Run("othello_elo", config=cfg, scale="smoke", seed=3, workers=1,
              out=tmp_path_factory.mktemp("out"), progress=False)
    recording = _Recording(run)
    learned = experiments.run_learning(recording, cfg)
    rows = beyond.run_elo_readings(recording, cfg, learned)
    return cfg, run, recording, learned, rows


def test_the_other_readings_tasks_are_a_notebook_run_with_that_reading(compared):
    cfg, run, recording, _, _ = compared
    rederive = dataclasses.replace(cfg, elo_reading="rederive")
    before = dict(run.manifest["experiments"]["othello_learning"])
    probe = _Recording(run)
    experiments.run_learning(probe, rederive)
    [(experiment, notebook_tasks)] = probe.calls
    group_ids = [t.id for t in notebook_tasks if t.params["mode"] == "group"]
    learning_calls = [tasks for name, tasks in recording.calls if name == "othello_learning"]
    assert experiment == "othello_learning" and len(learning_calls) == 2
    own_ids = {t.id for t in learning_calls[0]}
    new_ids = [t.id for t in learning_calls[1] if t.id not in own_ids]
    assert new_ids == group_ids and len(group_ids) == cfg.repetitions
    # the same seeds as run_learning()'s group runs, one experiment (store keyed by id): nothing ran
    group_keys = [t.spawn_key for t in learning_calls[0] if t.params["mode"] == "group"]
    assert [t.spawn_key for t in notebook_tasks if t.params["mode"] == "group"] == group_keys
    after = run.manifest["experiments"]["othello_learning"]
    assert after["ran"] == before["ran"] and after["tasks"] == before["tasks"]
    assert after["calls"] == before["calls"] + 1
    # the manifest counts run_learning()'s runs and the other reading's together, each computed once
    assert before["tasks"] == before["ran"] == len(own_ids) + cfg.repetitions
    # ... and the individual runs do not depend on the reading
    assert {t.id for t in notebook_tasks if t.params["mode"] == "individual"} <= own_ids
    # the member evaluations have seeds of their own: (4, crc32(label))
    [(_, evaluations)] = [c for c in recording.calls if c[0] == "othello_elo_readings_eval"]
    assert all(len(t.spawn_key) == 2 and t.spawn_key[0] == 4 for t in evaluations)


def test_one_row_per_reading_and_repetition_with_counts_from_the_events(compared):
    cfg, run, _, learned, rows = compared
    assert list(zip(rows.reading, rows.repetition)) == [
        ("keep", 0), ("keep", 1), ("rederive", 0), ("rederive", 1)]
    runs = {"keep": learned.mode("group"),
            "rederive": experiments.run_learning(run, dataclasses.replace(cfg, elo_reading="rederive"))
            .mode("group")}
    for row in rows.itertuples():
        result = runs[row.reading][row.repetition]
        kinds = [e["kind"] for e in result["events"]]
        assert (row.joins, row.failed_iterations) == (kinds.count("join"), kinds.count("fail"))
        assert row.joins + row.failed_iterations == cfg.iterations
        generations = [e["generation"] for e in result["events"] if e["kind"] == "join"]
        assert row.join_generation_max == max(generations)
        wpcs = [m for m in result["final_members"] if m["variables"] is not None]
        top = max(wpcs, key=lambda m: m["rating"])
        assert (row.top_member, row.top_rating, row.wpc_members) == (top["id"], top["rating"],
                                                                     len(wpcs))
        assert row.top_vs_standard_low <= row.top_vs_standard <= row.best_vs_standard
        assert row.group_mean_vs_standard <= row.best_vs_standard and row.games_each == 40
    # the readings' group runs differ (same seeds, other league ratings)
    for rep in range(cfg.repetitions):
        keep, rederive = runs["keep"][rep], runs["rederive"][rep]
        assert keep["final_members"] != rederive["final_members"]
        assert rederive["config"]["elo_reading"] == "rederive"


def test_summary_and_runs_tables(compared):
    _, _, _, _, rows = compared
    summary = tables.elo_readings_summary(rows).set_index("reading")
    assert list(summary.index) == ["keep", "rederive"]
    for reading, part in rows.groupby("reading"):
        assert summary.loc[reading, "runs"] == 2
        assert summary.loc[reading, "joins"] == pytest.approx(part["joins"].mean(), abs=0.05)
        assert summary.loc[reading, "top_vs_standard"] == pytest.approx(
            part["top_vs_standard"].mean(), abs=5e-4)
        spread = part["top_vs_standard"]
        if spread.nunique() > 1:  # t interval over 2 seeds: mean +- 12.706 x sd / sqrt(2)
            half = 12.706 * spread.std(ddof=1) / np.sqrt(2)
            assert summary.loc[reading, "top_vs_standard_high"] == pytest.approx(
                min(spread.mean() + half, 1.0), abs=2e-3)  # a score is at most 1
    assert (summary["paper_top_rated"] == 0.483).all()
    runs = tables.elo_readings_runs(rows)
    assert "top_variables" not in runs and len(runs) == len(rows)
    assert (runs["top_vs_standard"] == runs["top_vs_standard"].round(3)).all()
    assert (runs["top_rating"] == runs["top_rating"].round(1)).all()


def test_no_reading_compared_gives_empty_tables(compared):
    cfg, run, _, learned, _ = compared
    rows = beyond.run_elo_readings(run, dataclasses.replace(cfg, compared_elo_readings=()), learned)
    assert rows.empty and tables.elo_readings_summary(rows).empty
    assert tables.elo_readings_runs(rows).empty


def test_summary_intervals_stay_in_the_possible_range():
    """A t interval over 3 seeds can leave [0, iterations] (counts) or [0, 1] (scores): the
    paper-scale run's failed iterations 3, 0, 0 gave a raw lower bound of -3.3."""
    rows = pd.DataFrame({"reading": ["rederive"] * 3, "joins": [197, 200, 200],
                         "failed_iterations": [3, 0, 0],
                         "top_vs_standard": [0.95, 0.2, 0.6], "best_vs_standard": [0.99, 0.3, 0.6],
                         "group_mean_vs_standard": [0.5, 0.4, 0.45], "top_rating": [1656.0, 1636, 1592],
                         "join_generation_median": [50.0, 50, 50]})
    row = tables.elo_readings_summary(rows).iloc[0]
    assert row.failed_iterations == 1.0 and row.failed_iterations_low == 0.0
    assert row.joins_high == 200.0 and 194 < row.joins_low < 195
    assert row.top_vs_standard_low == 0.0 and row.best_vs_standard_high == 1.0
    assert 0 < row.group_mean_vs_standard_low < row.group_mean_vs_standard_high < 1
