"""Fig. 5 and Table 4 by the strong engine beside the paper's search: the scales that
run them, the runners' "not run" path, and the tables and figures on made-up results (no search:
the searches themselves are tested in tests/go/test_strong_hashes.py)."""

from types import SimpleNamespace

import pytest

from mctslab.core.figcheck import figure_problems
from mctslab.core.plotting import plt
from mctslab.go import experiments, figures, tables
from tests.task_ids import Recorder


def _duplicates(duplicates: dict, playouts: int = 8000) -> experiments.Played:
    tasks = [SimpleNamespace(params={"config": name, "moves": 5, "playouts": playouts})
             for name in duplicates]
    results = [dict(positions=5 * playouts, distinct=5 * playouts - d, duplicates=d,
                    counts=[9, 4, 2], tabu_candidates=0 if name == "gTabu0" else 100)
               for name, d in duplicates.items()]
    return experiments.Played(tasks, results, list(duplicates))


def _candidates(totals: dict) -> experiments.Played:
    return experiments.Played([SimpleNamespace(params={"size": size}) for size in totals],
                              [dict(tabu_candidates=t, playouts=8000) for t in totals.values()],
                              [f"L={size}" for size in totals])


def test_only_the_paper_scale_runs_the_strong_engine():
    assert [experiments.config(s).strong_analysis for s in ("smoke", "default", "paper")] == \
        [False, False, True]
    run = Recorder()
    for runner in (experiments.run_strong_duplicates, experiments.run_strong_candidates):
        played = runner(run, experiments.config("default"))
        assert played.results == [] and "not run at this scale" in played.skipped
    assert run.tasks == {}  # nothing was asked of the executor
    cfg = experiments.config("smoke", strong_analysis=True)
    experiments.run_strong_duplicates(run, cfg)
    experiments.run_strong_candidates(run, cfg)
    assert [len(run.tasks[e]) for e in ("go_strong_duplicates", "go_strong_candidates")] == \
        [2, 3]
    # keyed seeds: a configuration's search has the same seed at every scale
    smoke = experiments.strong_duplicate_tasks(cfg, 1)
    paper = experiments.strong_duplicate_tasks(experiments.config("paper"), 1)
    by_name = {t.params["config"]: t.spawn_key for t in paper}
    assert all(t.spawn_key == by_name[t.params["config"]] for t in smoke)
    with pytest.raises(ValueError, match="strong_analysis"):
        experiments.config("smoke", strong_analysis="yes")


def test_fig5_by_engine_puts_both_engines_in_one_table_and_figure():
    host = _duplicates({"gTabu0": 1360, "gTabu18-hash": 308})
    strong = _duplicates({"gTabu0": 1358, "gTabu18-hash": 382})
    frame = tables.duplicates_by_engine(host, strong)
    assert list(frame.columns[:2]) == ["engine", "method"]
    assert frame[["engine", "method", "duplicates"]].values.tolist() == [
        ["host", "gTabu0", 1360], ["host", "gTabu18-hash", 308],
        ["strong", "gTabu0", 1358], ["strong", "gTabu18-hash", 382]]
    fig = figures.figure5_by_engine(host, strong, top=50)
    assert len(fig.axes) == 2 and all(len(ax.lines) == 2 for ax in fig.axes)
    assert "8,000 playouts" in fig._suptitle.get_text()
    assert figure_problems(fig) == []
    plt.close(fig)


def test_table4_by_engine_beside_the_papers_and_the_bound():
    cfg = experiments.config("default")
    frame = tables.table4_by_engine(cfg, _candidates({0: 0, 1: 588, 12: 4092}),
                                    _candidates({0: 0, 1: 892, 12: 3517}))
    assert list(frame.columns) == ["L", "host total", "host per playout", "strong total",
                                   "strong per playout", "paper total", "paper per playout",
                                   "Eq. 12 bound"]
    row = frame.set_index("L").loc[12]
    assert (row["host total"], row["strong total"]) == (4092, 3517)
    # 4092 and 3517 of 8,000, to four decimals
    assert (row["host per playout"], row["strong per playout"]) == (0.5115, 0.4396)
    assert (row["paper per playout"], row["Eq. 12 bound"]) == (0.262, 4.562)
    fig = figures.table4_by_engine_figure(frame)
    assert len(fig.axes[0].lines) == 4 and figure_problems(fig) == []
    plt.close(fig)


def test_not_run_says_so_in_the_tables_and_figures():
    cfg = experiments.config("default")
    skipped = experiments.run_strong_candidates(Recorder(), cfg)
    host = _candidates({0: 0, 1: 588})
    for frame in (tables.table4_by_engine(cfg, host, skipped),
                  tables.duplicates_by_engine(_duplicates({"gTabu0": 1}), skipped)):
        assert list(frame.columns) == ["skipped"] and "not run" in frame["skipped"].iloc[0]
    for fig in (figures.figure5_by_engine(_duplicates({"gTabu0": 1}), skipped),
                figures.table4_by_engine_figure(tables.table4_by_engine(cfg, host, skipped))):
        assert "not run at this scale" in fig.axes[0].texts[0].get_text()
        plt.close(fig)
