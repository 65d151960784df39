"""The notebook's measurements are runners of stored tasks, and its tables and figures only
tabulate and draw their results: a second run of every runner computes nothing (its results
come from the store, timings included), the tables built from the stored results are the ones
built from the first run's, and building them opens no file and measures nothing again."""

from __future__ import annotations

import builtins
import io
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from mctslab.core.report import Run
from mctslab.manyfaces import experiments as ex
from mctslab.manyfaces import eyes, figures, joseki, knowledge, measures, regression, tables
from mctslab.manyfaces.api import Matcher

SEED = 20261122
# the runners of the paper's measurements, and the experiment each stores its tasks in
RUNNERS = {ex.run_cost_chain: "manyfaces_cost_chain", ex.run_joseki: "manyfaces_joseki",
           ex.run_influence: "manyfaces_influence", ex.run_territory: "manyfaces_territory",
           ex.run_enclosed: "manyfaces_enclosed", ex.run_regression: "manyfaces_regression",
           ex.run_time_shares: "manyfaces_time_shares"}


def _run_all(out):
    cfg = ex.config("smoke")
    run = Run("manyfaces_runners_test", config=cfg, scale="smoke", seed=SEED, workers=1,
              out=out)
    return run, {experiment: runner(run, cfg) for runner, experiment in RUNNERS.items()}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Every runner run twice into one store (the regression suites cut to ``connect``, the
    quickest)."""
    out = tmp_path_factory.mktemp("manyfaces_store")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ex, "SUITES", {"connect": regression.SUITES["connect"]})
        return _run_all(out), _run_all(out)


def _tables(results) -> dict[str, pd.DataFrame]:
    """Every table of the measurements, built from the runners' results."""
    summary, detail = tables.regression_table(results["manyfaces_regression"])
    built = {"cost": tables.cost_chain_table(results["manyfaces_cost_chain"]),
             "joseki": tables.joseki_table(results["manyfaces_joseki"]),
             "territory": tables.territory_table(results["manyfaces_territory"]),
             "enclosed": tables.enclosed_table(results["manyfaces_enclosed"]),
             "regression": summary, "regression_detail": detail,
             "shares": tables.time_shares_table(results["manyfaces_time_shares"])}
    # the summary quotes the optics suite, which the runs here leave out (a minute of eye
    # values): a row of its shape stands in
    optics = pd.DataFrame([dict(check="optics.tst eval_eye", tests=90, agree=55)])
    built["summary"] = tables.summary(tables.census_tables([]), built["cost"], built["joseki"],
                                      pd.concat([summary, optics]), built["shares"],
                                      built["enclosed"])
    built["paper_vs_run"] = tables.paper_vs_run(built["cost"], built["joseki"], built["shares"],
                                                built["enclosed"], None, ex.config("smoke"))
    return built


def _refuse(*args, **kwargs):
    raise AssertionError("a table or figure opened a file or measured something again")


@pytest.fixture
def nothing_measured(monkeypatch):
    """Any measurement (a task function, the structures it builds, the data it reads) raises."""
    for name in measures.__all__:
        if name.endswith("_task"):
            monkeypatch.setattr(measures, name, _refuse)
    for module, name in [(knowledge, "enclosed_field"), (knowledge, "influence_field"),
                         (joseki, "load_joseki"), (joseki, "bytes_per_move"),
                         (regression, "agreement"), (eyes, "compare_with_db")]:
        monkeypatch.setattr(module, name, _refuse)
    monkeypatch.setattr(knowledge.Knowledge, "__init__", _refuse)
    monkeypatch.setattr(Matcher, "__init__", _refuse)


def test_a_second_run_computes_nothing_and_reads_every_result_back(runs):
    (first, first_results), (second, second_results) = runs
    for experiment in RUNNERS.values():
        done, again = (r.manifest["experiments"][experiment] for r in (first, second))
        assert done["ran"] == done["tasks"] > 0, experiment
        assert again["ran"] == 0 and again["already_stored"] == done["tasks"], experiment
    # the timings too: a re-run repeats what the stored tasks measured
    for key, table in _tables(first_results).items():
        pd.testing.assert_frame_equal(_tables(second_results)[key], table, obj=key)


@pytest.mark.usefixtures("nothing_measured")
def test_tables_open_no_file_and_measure_nothing(runs, monkeypatch):
    (_, results), _ = runs
    expected = _tables(results)  # the targets the tables read are loaded by now
    for module, name in [(builtins, "open"), (io, "open"), (pd, "read_csv"), (np, "load")]:
        monkeypatch.setattr(module, name, _refuse)
    for key, table in _tables(results).items():
        pd.testing.assert_frame_equal(table, expected[key], obj=key)


@pytest.mark.usefixtures("nothing_measured")
def test_figures_draw_what_they_are_given(runs):
    (_, results), _ = runs
    enclosed = results["manyfaces_enclosed"]
    fig = figures.enclosed_figure(tables.enclosed_table(enclosed), enclosed)
    drawn = [ax.images[0].get_array() for ax in fig.axes[1:3]]
    given = {r["side"]: r["field"] for r in enclosed}
    for image, side in zip(drawn, figures.ENCLOSED_SHOWN):
        assert np.array_equal(np.asarray(image), np.asarray(given[side]))
    positions = results["manyfaces_influence"]
    fig = figures.influence_figure(positions)
    assert np.array_equal(np.asarray(fig.axes[0].images[0].get_array()), positions[0].field)


def test_the_runners_return_what_their_tables_and_figures_take(runs):
    (_, results), _ = runs
    positions = results["manyfaces_influence"]
    assert [(p.move, p.field.dtype, p.stones.dtype) for p in positions[:2]] == [
        (100, np.float64, np.int8), (positions[1].move, np.float64, np.int8)]
    assert positions[1].move > 100  # the game's end
    assert [r["side"] for r in results["manyfaces_enclosed"]] == list(ex.ENCLOSED_SIDES)
    # the stored entry sizes read back as the mapping the encoding measured
    entry = tables.joseki_table(results["manyfaces_joseki"]).set_index("quantity")["ours"]
    assert entry["entry sizes (bytes: count)"].startswith("{1: ")


def test_tables_and_figures_import_no_experiments_module():
    """Through any path: importing them loads neither the runners nor the task functions."""
    code = ("import sys, mctslab.manyfaces.tables, mctslab.manyfaces.figures; "
            "print(sorted(m for m in sys.modules if m.endswith(('.experiments', '.measures'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.strip()
    assert loaded == "[]"
