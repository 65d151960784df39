"""The search over readings: its design, its tasks, its scores and the five claims' verdicts."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from mctslab import paths
from mctslab.core.store import ResultStore, to_jsonable
from mctslab.sudoku import experiments, figures, readings_run
from mctslab.sudoku import readings_search as search
from mctslab.sudoku.generator import GeneratorConfig, generate, variant_name
from mctslab.sudoku.readings_score import (
    permutation_claim,
    ranking_kept,
    table1_claims,
    table1_distance,
    table2_claims,
    table2_distance,
)
from mctslab.sudoku.tables import PAPER_TABLE1, PAPER_TABLE2


def test_design_is_a_balanced_resolution_three_fraction_crossed_with_the_min_only_factors():
    readings = search.design()
    assert len(readings) == 32 and readings[0] == search.DEFAULTS
    assert search.reading_label(readings[0]) == "default"
    assert len({tuple(r.items()) for r in readings}) == 32
    coded = np.array([[levels.index(r[k]) for k, levels in search.FACTORS.items()]
                      for r in readings])
    assert (coded.mean(axis=0) == 0.5).all()  # every level in half of the readings
    signs = 2 * coded - 1
    assert (signs.T @ signs == 32 * np.eye(len(search.FACTORS))).all()  # main effects clear
    shared = {tuple(r[k] for k in search.SHARED) for r in readings}
    assert len(shared) == 8  # 8 settings of the factors a mean run sees


def test_mean_runs_are_shared_by_readings_that_differ_in_min_only_factors():
    tasks, keys = search.table1_tasks(search.design()[:4], 1000)
    ids = {}
    for task, (_, variant, seed) in zip(tasks, keys):
        ids.setdefault((variant, seed), set()).add(task.id)
    assert all(len(v) == 1 for k, v in ids.items() if "/mean/" in k[0])
    assert all(len(v) == 4 for k, v in ids.items() if "/min/" in k[0])


def test_min_only_factors_leave_a_mean_run_unchanged():
    small = dict(selection="mean", playouts=400, threshold=5, max_children=6,
                 verify_backend="none")
    base = generate(GeneratorConfig(**small), 7)
    other = generate(GeneratorConfig(min_of="children", exhausted="drop", **small), 7)
    assert np.array_equal(base.histogram, other.histogram)
    assert base.stats["nodes"] == other.stats["nodes"]


def test_the_default_reading_has_the_paper_records_task_ids():
    tasks, keys = search.table1_tasks([search.DEFAULTS], 1_000_000)
    paper = experiments.table1_tasks(experiments.config("paper"), search.SEED)
    assert [t.id for t in tasks] == [t.id for t in paper]
    assert len(keys) == 32 and keys[0] == (0, "reducing/min/rules", 0)


def test_a_reading_enters_the_task_only_where_it_differs():
    reading = dict(search.DEFAULTS, terminal="revisit", c=1.5, budget="playouts")
    tasks, _ = search.table1_tasks([reading], 1000)
    params = tasks[0].params
    assert params["terminal"] == "revisit" and params["budget"] == "playouts"
    assert params["c"] == 1.5 and "value" not in params and "min_of" not in params
    t2, keys = search.table2_tasks([reading], 3000)
    assert sorted({k[1] for k in keys}) == [0.75, 1.5] and len(t2) == 32


def _counts(means: dict, seeds=4, noise=0.0, rng=None):
    """Per-seed counts whose seed mean is ``means[variant]`` (with multiplicative noise)."""
    rows = []
    rng = rng or np.random.default_rng(0)
    for key, values in means.items():
        for seed in range(seeds):
            factor = np.exp(noise * rng.standard_normal()) if noise else 1.0
            rows.append({"variant": variant_name(*key), "seed": seed,
                         **{f"N={n}": v * factor for n, v in zip((18, 19, 20), values)}})
    return pd.DataFrame(rows)


def test_the_papers_own_table_scores_zero_and_its_claims_hold():
    counts = _counts(PAPER_TABLE1, noise=0.3)
    exact = table1_distance(_counts(PAPER_TABLE1), 1_000_000)
    assert exact == {"distance": 0.0, "near": 24, "within margin": 24, "cells": 24}
    tenth = table1_distance(_counts({k: np.array(v) / 10 for k, v in PAPER_TABLE1.items()}),
                            100_000)
    assert tenth["distance"] == pytest.approx(0.0)  # scaled linearly to 1,000,000
    claims = table1_claims(counts).set_index("claim")["verdict"]
    assert list(claims) == ["holds", "holds", "holds"]


def test_within_margin_counts_a_floor_only_with_the_cell_it_is_the_floor_of():
    """All zeros. In their margins: the eight cells where the paper has 0.0 (margin 1) and its
    two 0.3s; not its 1.3s (0.3..2.3) nor any larger cell. Of the eight zeros all but fully
    random / mean / rules no / N=20 are floors, which count only when the cell they are the
    floor of counts: candidate-reducing / mean / no rules' N=18 (its N=19 is 0.3), fully
    random / mean / rules' N=18 (the same), and the chain N=18 -> N=19 -> N=20 of fully random /
    mean / no rules; not the floors below 147.3, 26.5 and 1.3. So 2 + 2 + 3 = 7."""
    zeros = table1_distance(_counts({k: (0, 0, 0) for k in PAPER_TABLE1}), 1_000_000)
    assert zeros["within margin"] == 7
    half = {k: (v[0], v[1] / 2, v[2]) for k, v in PAPER_TABLE1.items()}
    assert table1_distance(_counts(half), 1_000_000)["within margin"] == 24  # x2 and +-1 hold
    third = {k: (v[0], v[1], v[2] / 3) for k, v in PAPER_TABLE1.items()}
    assert table1_distance(_counts(third), 1_000_000)["within margin"] == 24 - 7  # N=20's x2s


def test_a_reversed_table_fails_and_a_flat_one_is_undecided():
    swapped = {}
    for (playout, selection, rules), values in PAPER_TABLE1.items():
        other = "mean" if selection == "min" else "min"
        swapped[(playout, other, rules)] = values
    claims = table1_claims(_counts(swapped, noise=0.3)).set_index("claim")["verdict"]
    assert claims["min > mean"] == "fails" and claims["reducing > random"] == "holds"
    flat = table1_claims(_counts({k: (5, 5, 5) for k in PAPER_TABLE1}))
    assert set(flat["verdict"]) == {"undecided"}
    assert table1_distance(_counts({k: (5, 5, 5) for k in PAPER_TABLE1}), 10)["distance"] > 1


def test_permutation_claim_repeats_and_counts_strata():
    strata = [(np.array([3.0, 3.1, 2.9, 3.2]), np.array([1.0, 1.2, 0.9, 1.1]))] * 2
    first = permutation_claim(strata)
    assert first == permutation_claim(strata)
    assert first["verdict"] == "holds" and first["agree"] == "2/2" and first["p_greater"] < 0.05


def _table2(values: dict, noise=0.2):
    rng = np.random.default_rng(1)
    rows = []
    for (c, threshold), (n18, _, n19, n20) in values.items():
        for seed in range(4):
            f = np.exp(noise * rng.standard_normal())
            rows.append({"c": c, "threshold": threshold, "seed": seed, "N=18": n18 * f,
                         "N=19": n19 * f, "N=20": n20 * f})
    return pd.DataFrame(rows)


def test_table2_claims_on_the_papers_grid_and_on_a_grid_where_the_threshold_matters():
    claims = table2_claims(_table2(PAPER_TABLE2)).set_index("claim")["verdict"]
    assert claims["c = 1.0 > 0.5"] == "holds"
    assert claims["threshold does not matter"] == "holds"
    steep = {(c, t): (0, 0, 0, 10.0 ** (t / 10)) for c in (0.5, 1.0) for t in (10, 20, 30, 40)}
    claims = table2_claims(_table2(steep)).set_index("claim")["verdict"]
    assert claims["threshold does not matter"] == "fails"
    assert claims["c = 1.0 > 0.5"] == "undecided"


def test_table2_distance_scores_the_papers_grid_zero_and_maps_a_readings_c_in_order():
    exact = table2_distance(_table2(PAPER_TABLE2, noise=0.0), 3_000_000)
    assert exact == {"distance": 0.0, "near": 24, "within margin": 24, "cells": 24}
    # a reading with c = 1.5 runs c in {0.75, 1.5}: its rows stand against c = 0.5 and c = 1
    scaled = {(c * 1.5, t): tuple(v / 10 for v in values)
              for (c, t), values in PAPER_TABLE2.items()}
    assert table2_distance(_table2(scaled, noise=0.0), 300_000)["distance"] == pytest.approx(0.0)
    # ten times too few everywhere: one decade off, nothing within x2 (no cell is near 0)
    tenth = table2_distance(_table2(scaled, noise=0.0), 3_000_000)
    assert tenth["near"] == 0 and tenth["within margin"] == 0
    assert 0.9 < tenth["distance"] < 1.0
    # the smaller c's rows swapped with the larger's: a different table
    swapped = {(1.5 - c, t): v for (c, t), v in PAPER_TABLE2.items()}
    assert table2_distance(_table2(swapped, noise=0.0), 3_000_000)["distance"] > 0.05


def test_ranking_kept_needs_the_same_order_and_the_same_verdicts():
    reference = _counts(PAPER_TABLE1, noise=0.3)
    assert ranking_kept(_counts({k: np.array(v) / 10 for k, v in PAPER_TABLE1.items()},
                                noise=0.3, rng=np.random.default_rng(5)), reference)["kept"]
    swapped = {(p, "mean" if s == "min" else "min", r): v for (p, s, r), v in PAPER_TABLE1.items()}
    check = ranking_kept(_counts(swapped, noise=0.3), reference)
    assert not check["kept"] and check["claims"][0] == "fails"


def test_the_search_record_reads_back_as_a_table_and_a_figure(tmp_path):
    readings = search.design()[:3]
    counts = pd.concat([_counts(PAPER_TABLE1, noise=0.3).assign(reading=r) for r in range(3)])
    for n in (17, 18, 19, 20):
        counts[f"distinct N={n}"] = counts.get(f"N={n}", 0)
    counts["cpu_seconds"] = 1.0
    scores = search.scores(readings, counts, 1_000_000)
    assert list(scores["runs"]) == [32] * 6
    assert search.best_readings(scores, 2) == [0, 1]  # equal distances: by index
    scores.to_csv(tmp_path / "screen_scores.csv", index=False)
    table = readings_run.search_table(tmp_path)
    assert len(table) == 3 and table["distance"].max() < 0.2
    fig = figures.readings_figure(table, reference=1.45)
    assert len(fig.axes) == 2


def _fill_store(out, experiment, tasks, rng):
    """Stand-in results (random counts) for ``tasks`` in ``out``'s store of ``experiment``."""
    folder = paths.results_dir(experiment, out)
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "results.jsonl", "a") as f:
        for task in {t.id: t for t in tasks}.values():
            counts = {str(n): {"count": int(rng.integers(0, 50)), "distinct": 1}
                      for n in (17, 18, 19, 20)}
            f.write(json.dumps({"id": task.id, "result": {"raw": {"distinct": counts},
                                                          "cpu_seconds": 1.0}}) + "\n")


def test_the_later_phases_wait_for_the_screening_and_the_record_follows_the_store(tmp_path):
    out, rng = tmp_path / "store", np.random.default_rng(0)
    tasks, _ = search.table1_tasks(search.design(), readings_run.BUDGET)
    tasks = list({t.id: t for t in tasks}.values())
    _fill_store(out, "readings_screen", tasks[:-1], rng)
    assert readings_run.plan(out, "table2") == ([], [])  # one run missing: nothing further
    _fill_store(out, "readings_screen", tasks[-1:], rng)
    table2, _ = readings_run.plan(out, "table2")
    assert len(table2) == 96 and {t.params["playouts"] for t in table2} == {300_000}
    paper1, _ = readings_run.plan(out, "paper1")
    _fill_store(out, "readings_paper_table1", paper1, rng)
    folder = readings_run.record(out, tmp_path / "record")
    status = json.loads((folder / "status.json").read_text())
    assert status["screen_tasks"] == 640 and status["screen_runs"] == 1024
    assert status["screen_cpu_hours"] == round(640 / 3600, 3)  # a shared run counted once
    assert status["paper1_runs"] == 96 and len(status["best"]) == 3
    scored = pd.read_csv(folder / "paper1_scores.csv")
    assert set(scored["reading"]) == set(status["best"]) and scored["distance"].notna().all()
    assert "32 of 32 readings complete, 640 of 640" in readings_run.summary(folder)
    assert not (folder / "table2_scores.csv").exists()  # no Table 2 run stored yet
    _fill_store(out, "readings_table2", table2, rng)
    readings_run.record(out, folder)
    table2_scores = pd.read_csv(folder / "table2_scores.csv")
    assert len(table2_scores) == 2 * 3 and table2_scores["cells"].eq(24).all()
    assert set(table2_scores["threshold does not matter"]) <= {"holds", "fails", "undecided"}
    best = readings_run.best_table(folder)
    assert list(best["phase"]) == ["screen"] * 3 + ["table2"] * 3 + ["paper1"] * 3
    assert list(best["reading"]) == status["best"] * 3 and best["runs"].eq(32).all()
    assert best.loc[best.phase == "table2", "claims"].str.startswith("c = 1.0 > 0.5: ").all()
    assert "The best readings further" in readings_run.summary(folder)


def test_the_hunt_of_a_paper_scale_phase_is_written_from_its_runs(tmp_path):
    tasks, _ = search.table1_tasks([search.DEFAULTS], 300)
    task = tasks[0]
    result = experiments.generation_task(task.params, np.random.SeedSequence(task.seed,
                                                                             spawn_key=task.spawn_key))
    folder = paths.results_dir("readings_paper_table1", tmp_path)
    folder.mkdir(parents=True)
    (folder / "results.jsonl").write_text(json.dumps({"id": task.id, "result": to_jsonable(result)})
                                          + "\n")
    readings_run._write_hunt(tmp_path, "paper1", tmp_path)
    hunt = pd.read_csv(tmp_path / "paper1_hunt_17.csv")
    assert list(hunt["runs"]) == [1, 4] and hunt["reading"].iloc[0] == "reducing/min/rules"
    assert (tmp_path / "paper1_finds_17.csv").is_file()


def test_the_notebook_under_a_reading_has_the_searchs_paper_scale_tasks():
    """What lets a best reading's notebook record reuse the search's runs: the notebook at
    the paper's scale with a reading's parameters plans exactly the paper phases' tasks."""
    names = set()
    for reading in search.design():
        cfg = experiments.config("paper", **readings_run.notebook_parameters(reading))
        ours = [t.id for t in experiments.table1_tasks(cfg, search.SEED)]
        assert ours == [t.id for t in search.table1_tasks([reading], 1_000_000)[0]]
        ours = [t.id for t in experiments.table2_tasks(cfg, search.SEED)]
        assert ours == [t.id for t in search.table2_tasks([reading], 3_000_000)[0]]
        names.add(readings_run.reading_name(reading))
    assert len(names) == 32 and "default" in names
    assert readings_run.reading_name(search.design()[3]) == "min-of-children-exhausted-drop"
    row = readings_run.reading_row(search.design()[3])
    assert row["reading"] == "min-of-children-exhausted-drop" and "choices 3, 5" in row["rests_on"]


def test_stage_copies_a_readings_stored_runs_once_and_counts_the_missing(tmp_path):
    reading = search.design()[3]
    tasks = search.table1_tasks([reading], 1_000_000)[0]
    source = ResultStore(paths.results_dir(readings_run.EXPERIMENTS["paper1"], tmp_path / "s"))
    for task in tasks[:3]:
        source.append({"id": task.id, "params": task.params, "result": {"cpu_seconds": 1.0}})
    staged = readings_run.stage(tmp_path / "s", 3, tmp_path / "nb")
    assert (staged["copied"], staged["missing"]) == (3, 32 - 3 + 32)
    copied = ResultStore(paths.results_dir("sudoku_table1", tmp_path / "nb")).load()
    assert set(copied) == {t.id for t in tasks[:3]}
    assert readings_run.stage(tmp_path / "s", 3, tmp_path / "nb")["copied"] == 0
    run, save = staged["commands"]
    assert "-p min_of children -p exhausted drop" in run and "--scale paper" in run
    assert save.endswith("--label reading-min-of-children-exhausted-drop")


def test_the_run_verb_takes_its_phases_in_order_and_workers(monkeypatch):
    from mctslab.sudoku import readings_run

    calls = []
    monkeypatch.setattr(readings_run, "run",
                        lambda out, phases, workers=1: calls.append((out, phases, workers)))
    readings_run.main(["run", "--out", "S", "--phases", "paper1", "table2", "--workers", "2"])
    readings_run.main(["run", "--out", "S"])
    assert calls == [("S", ["paper1", "table2"], 2), ("S", list(readings_run.PHASES), 1)]
