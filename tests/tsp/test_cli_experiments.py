"""The ``mctslab tsp`` verbs and the experiment configuration / tasks."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from mctslab.cli import main
from mctslab.core.report import Run
from mctslab.tsp import api, experiments, figures, tables, tsplib
from tests.tsp.conftest import needs_tsplib

TINY = ("NAME : tiny9\nTYPE : TSP\nDIMENSION : 9\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n"
        + "".join(f"{k + 1} {x} {y}\n" for k, (x, y) in
                  enumerate([(0, 0), (10, 3), (4, 9), (7, 7), (2, 5), (9, 0), (3, 2), (8, 4), (1, 8)]))
        + "EOF\n")


@pytest.fixture
def tiny_file(tmp_path):
    path = tmp_path / "tiny9.tsp"
    path.write_text(TINY)
    return path


@pytest.mark.parametrize("method", ["sa", "mct-um", "mct-rm", "mct-rs", "sa-2opt", "lkh", "exact"])
def test_solve_prints_length_ratio_time_and_writes_a_tour(tiny_file, tmp_path, capsys, method):
    out = tmp_path / f"{method}.tour"
    assert main(["tsp", "solve", str(tiny_file), "--method", method, "--seed", "3",
                 "--tour-file", str(out)]) == 0
    printed = capsys.readouterr().out
    length = float(printed.split("path length: ")[1].split()[0])
    assert "length / MST:" in printed and "time:" in printed
    assert ("playouts:" in printed) == method.startswith("mct")
    instance = tsplib.load(tiny_file)
    assert length >= api.exact(instance).length
    assert main(["tsp", "length", str(tiny_file), "--tour", str(out)]) == 0
    assert f"path length: {length:.0f}" in capsys.readouterr().out


def test_exact_cli_equals_held_karp(tiny_file, capsys):
    main(["tsp", "solve", str(tiny_file), "--method", "exact"])
    best = api.exact(tsplib.load(tiny_file)).length
    assert f"path length: {best:.0f}" in capsys.readouterr().out


def test_malformed_file_is_one_clear_line_and_status_2(tmp_path, capsys):
    bad = tmp_path / "bad.tsp"
    bad.write_text(TINY.replace("3 4 9", "3 4 nine"))
    assert main(["tsp", "solve", str(bad), "--method", "sa"]) == 2
    assert "bad.tsp line 8: NODE_COORD_SECTION expects 'node x y'" in capsys.readouterr().err


@pytest.mark.parametrize("method, option, value", [
    ("sa", "--time-limit", "1"), ("exact", "--time-limit", "1"), ("sa", "--cp", "3"),
    ("exact", "--cp", "3"), ("sa-2opt", "--cp", "3"), ("lkh", "--cp", "0")])
def test_solve_refuses_an_option_the_method_would_ignore(tiny_file, capsys, method, option, value):
    assert main(["tsp", "solve", str(tiny_file), "--method", method, option, value]) == 2
    captured = capsys.readouterr()
    assert f"{option} does not apply to --method {method}" in captured.err
    assert "path length" not in captured.out  # refused before anything ran


@pytest.mark.parametrize("method, option, value", [
    ("mct-rm", "--cp", "0"), ("mct-rs", "--time-limit", "0.01"), ("sa-2opt", "--time-limit", "0.01"),
    ("lkh", "--time-limit", "1")])
def test_solve_accepts_an_option_the_method_uses(tiny_file, capsys, method, option, value):
    assert main(["tsp", "solve", str(tiny_file), "--method", method, option, value]) == 0
    assert "path length:" in capsys.readouterr().out


@needs_tsplib
def test_length_of_a_published_tour(capsys):
    from mctslab import data
    assert main(["tsp", "length", "eil51", "--tour",
                 str(data.find("tsplib/opt_tours/eil51.opt.tour.gz"))]) == 0
    printed = capsys.readouterr().out
    assert "tour length: 426" in printed and "path length:" in printed


def test_config_scales_and_errors():
    assert experiments.config("smoke").replicates == 1
    assert experiments.config("default", replicates=None).replicates == 3
    assert experiments.config("default", instances=["eil51"]).instances == ("eil51",)
    with pytest.raises(ValueError, match="unknown scale 'huge'"):
        experiments.config("huge")
    with pytest.raises(ValueError, match="unknown TSP parameter.* budget"):
        experiments.config("smoke", budget=3)
    with pytest.raises(ValueError, match="random-<n>-<seed>"):
        experiments.load_instance("random-10")


@needs_tsplib
def test_paper_scale_is_every_euc2d_and_att_instance_from_48_cities():
    """The paper's "77 instances, 48 to 15112 cities": the 77 EUC_2D instances plus att48 and
    att532 (ATT); paper_metrics=["EUC_2D"] is the 77-instance set recorded before."""
    instances = experiments.config("paper").instances
    assert len(instances) == 79 and instances[0] == "att48" and instances[-1] == "d15112"
    assert "att532" in instances and "gr48" not in instances  # GEO is not a paper metric
    euc = experiments.config("paper", paper_metrics=["EUC_2D"]).instances
    assert euc == tuple(tsplib.instance_names("EUC_2D")) and len(euc) == 77
    assert experiments.config("default").instances[0] == "att48"
    with pytest.raises(ValueError, match="paper_metrics must be a non-empty list of EUC_2D"):
        experiments.config("paper", paper_metrics=["EUC_3D"])


@needs_tsplib
def test_att48_runs_with_the_att_metric():
    """ATT (pseudo-Euclidean): r = sqrt((dx^2 + dy^2) / 10), rounded up; att48's optimal tour
    is 10,628 in that metric (it would be about 33,500 in EUC_2D)."""
    instance = experiments.load_instance("att48")
    assert instance.edge_weight_type == "ATT"
    expected = 0
    for (x0, y0), (x1, y1) in zip(instance.coords[:-1], instance.coords[1:]):
        r = (((x0 - x1) ** 2 + (y0 - y1) ** 2) / 10) ** 0.5
        expected += round(r) + 1 if round(r) < r else round(r)
    assert api.path_length(instance, np.arange(48, dtype=np.int32)) == expected
    result = experiments.comparison_task({"instance": "att48", "replicate": 0, "methods": ["mct_rm"],
                                          "cp_rules": []}, np.random.SeedSequence(1))
    assert result["optimum"] == 10628
    lengths = {row["method"]: row["length"] for row in result["rows"]}
    # a path is shorter than a tour but not by more than one (ATT) edge; SA near its optimum scale
    assert 0.8 * 10628 < lengths["sa"] < 3 * 10628 and lengths["mct_rm"] > 0.8 * 10628


def test_comparison_task_runs_every_method_with_sa_time_as_budget(tmp_path):
    cfg = experiments.config("smoke", instances=["random-25-3"], anytime_instances=["random-25-3"],
                             anytime_horizon=0.02)
    run = Run("tsp_test", config=cfg, scale="smoke", seed=1, workers=1, out=tmp_path, progress=False)
    frame = experiments.run_comparison(run, cfg)
    assert set(frame["method"]) == set(experiments.METHODS)
    # (the budget = budget_factor x SA's seconds is checked with factor 3 in
    # test_each_constant_reaches_the_comparison_task[budget_factor])
    mcts = frame[frame["method"].str.startswith("mct")]
    assert (mcts["playouts"] >= 1).all()
    assert len(tables.mean_ratios(frame)) == 10 and len(tables.cp_ratios(frame)) == 6
    assert tables.per_instance(frame)["seeds"].tolist() == [1]
    # a second notebook run takes every task from the store and runs none: the time-budgeted
    # rows (whose seconds and playouts differ on every real run) come back to the digit
    second = Run("tsp_test", config=cfg, scale="smoke", seed=1, workers=1, out=tmp_path,
                 progress=False)
    again = experiments.run_comparison(second, cfg)
    counts = second.manifest["experiments"]["tsp_comparison"]
    assert (counts["tasks"], counts["already_stored"], counts["ran"]) == (1, 1, 0)
    pd.testing.assert_frame_equal(again, frame)
    # the same notebook run mapping the experiment twice counts the task once, as computed
    experiments.run_comparison(run, cfg)
    counts = run.manifest["experiments"]["tsp_comparison"]
    assert (counts["tasks"], counts["already_stored"], counts["ran"], counts["calls"]) == (1, 0, 1, 2)
    # a fresh store with the same seed recomputes, and SA (a fixed number of proposals, no
    # time budget) gives the same lengths: the store holds what the seed computes
    fresh = Run("tsp_test", config=cfg, scale="smoke", seed=1, workers=1, out=tmp_path / "fresh",
                progress=False)
    recomputed = experiments.run_comparison(fresh, cfg)
    assert fresh.manifest["experiments"]["tsp_comparison"]["ran"] == 1
    sa = frame["method"] == "sa"
    assert recomputed.loc[sa, ["length", "final_length"]].equals(frame.loc[sa, ["length", "final_length"]])
    points = experiments.run_anytime(run, cfg)
    assert set(points["method"]) == {"sa", "sa_2opt", "mct_rm", "mct_um"}


def _frame(rows):
    frame = pd.DataFrame([dict(zip(("instance", "replicate", "method", "length", "final_length"), r))
                          for r in rows])
    frame["n"], frame["mst"], frame["optimum"], frame["seconds"] = 10, 1.0, 1.0, 0.05
    return frame


def test_lkh_is_compared_with_the_mean_sa_length_over_seeds():
    """LKH runs once per instance (replicate 0): its ratio to SA uses SA's mean over the seeds,
    not SA's replicate 0; the per-seed methods stay paired seed by seed."""
    frame = _frame([("a", 0, "sa", 100.0, 110.0), ("a", 1, "sa", 200.0, 210.0),
                    ("a", 2, "sa", 300.0, 330.0),
                    ("a", 0, "mct_rm", 150.0, None), ("a", 1, "mct_rm", 200.0, None),
                    ("a", 2, "mct_rm", 150.0, None), ("a", 0, "lkh", 100.0, None)])
    paired = tables._ratio_to(frame, "sa").set_index(["method", "replicate"])["ratio"]
    assert paired[("lkh", 0)] == pytest.approx(100 / 200)  # not 100 / 100 (replicate 0)
    assert paired[("mct_rm", 0)] == pytest.approx(1.5) and paired[("mct_rm", 2)] == 0.5
    ratios = tables.mean_ratios(frame).set_index(["method", "compared with"])
    assert ratios.loc[("LKH-3", "SA best"), "mean ratio"] == pytest.approx(0.5)
    # the table is rounded to 3 decimals for citing (the store keeps full precision)
    assert ratios.loc[("LKH-3", "SA final state"), "mean ratio"] == round(100 / 650 * 3, 3) == 0.462
    assert ratios.loc[("LKH-3", "SA best"), "SA length used"] == "mean over the instance's seeds"
    assert ratios.loc[("MCT_RM", "SA best"), "SA length used"] == "same seed"
    # against LKH, every replicate is divided by the one LKH run
    to_lkh = tables._ratio_to(frame, "lkh").set_index(["method", "replicate"])["ratio"]
    assert to_lkh[("sa", 2)] == 3.0 and to_lkh[("lkh", 0)] == 1.0
    base = tables.baselines(frame).set_index("method")
    assert base.loc["LKH-3", "mean ratio to SA (paper)"] == pytest.approx(0.5)
    # one replicate: the mean is replicate 0 itself, and the tables still build
    single = frame[frame["replicate"] == 0]
    assert tables.mean_ratios(single).set_index(["method", "compared with"]).loc[
        ("LKH-3", "SA best"), "mean ratio"] == 1.0
    # the header line (scale, seeds, how ratios pair) is there without changed constants too
    assert "1 instances x 1 seed(s)" in tables.summary_markdown(single, "smoke")
    assert "divided by SA's mean length over the seeds" in tables.summary_markdown(frame, "x")


# -- every constant the paper states is a notebook parameter that reaches the tasks ------------

CHANGED = dict(cp=1.0, cp_multipliers=(0.5, 3.0), cp_rules=("sd",), sa_t_start=500.0,
               sa_t_end=1.0, sa_iterations=50, sa_cooling=0.9, budget_factor=3.0,
               mcts_search="step-best")


def test_paper_constants_are_the_defaults_and_keep_task_params(tmp_path):
    assert set(CHANGED) == set(experiments.PAPER_CONSTANTS)
    for scale in ("smoke", "default"):
        cfg = experiments.config(scale)
        assert cfg.constants() == {}
        assert {name: getattr(cfg, name) for name in CHANGED} == experiments.PAPER_CONSTANTS
    # the paper's method keys and labels, in the order that fixes each method's random stream
    assert experiments.config("smoke").methods == experiments.METHOD_CHOICES
    assert experiments.config("smoke").task_constants() == {}
    assert list(experiments.config("smoke").mcts_methods()) == [
        "mct_um", "mct_rm_0mst", "mct_rm", "mct_rm_4mst", "mct_rs_0sd", "mct_rs", "mct_rs_4sd"]
    # the paper's values given explicitly, as ints, in another order: the same run
    explicit = experiments.config("smoke", cp=2, cp_multipliers=[4, 0, 2, 2], cp_rules=["sd", "mst"],
                                  sa_t_start=10000, sa_iterations=1000, mcts_search="single",
                                  methods=["lkh", "sa_2opt", "mct_rs", "mct_rm", "mct_um"])
    assert explicit == experiments.config("smoke")
    # a comparison task's parameters at the paper's values are what they were before
    cfg = experiments.config("smoke", instances=["random-12-1"], anytime_instances=["random-12-1"])
    run = Run("tsp_keys", config=cfg, scale="smoke", seed=1, workers=1, out=tmp_path, progress=False)
    experiments.run_comparison(run, cfg)
    stored = [json.loads(line) for line in
              (tmp_path / "data/results/tsp_comparison/results.jsonl").read_text().splitlines()]
    assert [set(r["params"]) for r in stored] == [{"instance", "replicate"}]


def _tiny_comparison(**constants):
    params = {"instance": "random-12-1", "replicate": 0, **constants}
    return experiments.comparison_task(params, np.random.SeedSequence(5))


@pytest.mark.parametrize("name", sorted(CHANGED))
def test_each_constant_reaches_the_comparison_task(name):
    cfg = experiments.config("smoke", **{name: CHANGED[name]})
    assert cfg.constants() == {name: list(CHANGED[name]) if isinstance(CHANGED[name], tuple)
                               else CHANGED[name]}
    base, changed = _tiny_comparison(), _tiny_comparison(**cfg.constants())
    rows = {r["method"]: r for r in changed["rows"]}
    if name in ("cp_multipliers", "cp_rules"):
        assert set(rows) - {"sa", "sa_2opt"} == set(cfg.mcts_methods())
        assert set(rows) != {r["method"] for r in base["rows"]}
    elif name == "cp":
        assert {r["method"]: r["cp"] for r in changed["rows"] if r["method"] == "mct_rm"} != \
            {r["method"]: r["cp"] for r in base["rows"] if r["method"] == "mct_rm"}
    elif name == "mcts_search":  # one tree per committed city
        assert rows["mct_rm"]["search_steps"] > 0
        assert next(r for r in base["rows"] if r["method"] == "mct_rm")["search_steps"] == 0
    elif name == "budget_factor":
        assert changed["budget"] == pytest.approx(3.0 * rows["sa"]["seconds"])
    else:  # the SA schedule: a different number of proposals
        base_sa = next(r for r in base["rows"] if r["method"] == "sa")
        assert rows["sa"]["proposals"] != base_sa["proposals"]


def test_changed_sweep_has_its_own_labels_tables_and_figure():
    cfg = experiments.config("smoke", cp=1, cp_multipliers=[0.5, 3], cp_rules=["sd"])
    frame = _tiny_comparison(**cfg.constants())
    rows = [{**{k: frame[k] for k in ("instance", "n", "mst", "optimum", "replicate", "budget")},
             **{k: v for k, v in r.items() if k != "trace"}} for r in frame["rows"]]
    table = pd.DataFrame(rows)
    table["label"] = table["method"].map(experiments.method_label)
    assert list(tables.cp_ratios(table, cfg.cp)["Cp"]) == ["RM 1xMST", "RS 0.5xSD", "RS 1xSD",
                                                                "RS 3xSD"]
    assert tables.cp_ratios(table, cfg.cp)["paper"].isna().all()
    assert tables.mean_ratios(table, cfg.cp)["paper mean ratio"].isna().all()
    assert "cp = 1.0" in tables.summary_markdown(table, "smoke", cfg)
    fig = figures.figure9(tables.seed_means(table), tables.roulette_variants(table, cfg.cp))
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()][:5] == [
        "SA (paper)", "RM 1xMST", "RS 0.5xSD", "RS 1xSD", "RS 3xSD"]


@pytest.mark.parametrize("name, value, message", [
    ("cp", -1.0, "cp must be >= 0"),
    ("cp", "2", "cp must be a finite number"),
    ("cp_multipliers", [], "cp_multipliers must be a non-empty list"),
    ("cp_multipliers", [0, float("nan")], "cp_multipliers must be a finite number"),
    ("cp_rules", ["mst", "median"], "cp_rules must be a list of mst, sd"),
    ("sa_t_start", 5.0, r"sa_t_start \(5.0\) must be above sa_t_end \(10.0\)"),
    ("sa_t_end", 0.0, "sa_t_end must be > 0"),
    ("sa_iterations", 0, "sa_iterations must be a positive integer"),
    ("sa_cooling", 1.0, r"sa_cooling must be in \(0, 1\)"),
    ("budget_factor", 0, "budget_factor must be > 0"),
    ("mcts_search", "stepwise", "mcts_search must be one of single, step-best, step-mean"),
    ("methods", ["mct_rm", "sa"], "methods must be a list of mct_um, mct_rm, mct_rs, sa_2opt, lkh"),
    ("methods", "mct_rm", "methods must be a list of"),
    ("replicates", 1.5, "replicates must be a positive integer"),
    ("instances", [], "instances must name at least one instance"),
    ("instances", [51], "instances must be a list of instance names"),
    ("anytime_horizon", -1, "anytime_horizon must be > 0"),
    ("lkh_max_trials", 0, "lkh_max_trials must be a positive integer"),
])
def test_config_names_a_bad_value(name, value, message):
    with pytest.raises(ValueError, match=message):
        experiments.config("smoke", **{name: value})



def test_methods_choose_what_runs_and_the_tables_follow(tmp_path):
    """A subset of methods: the others do not run, each runs on its own stream as in the full
    run, and every table, figure and the summary still build (NaN where a method is missing)."""
    full = _tiny_comparison()
    cfg = experiments.config("smoke", instances=["random-12-1"], anytime_instances=["random-12-1"],
                             methods=["mct_rm"], cp_rules=[], anytime_horizon=0.05,
                             sa_references=[])
    assert cfg.task_constants() == {"cp_rules": [], "methods": ["mct_rm"]}
    assert list(cfg.mcts_methods()) == ["mct_rm"]
    # the comparison task alone: mct_rm is the same run (stream, budget rule) as in the full task
    part = _tiny_comparison(methods=["mct_rm"], cp_rules=[])
    assert [r["method"] for r in part["rows"]] == ["sa", "mct_rm"]
    assert part["rows"][0]["length"] == full["rows"][0]["length"]  # SA: same stream
    rm = next(r for r in full["rows"] if r["method"] == "mct_rm")
    assert part["rows"][1]["cp"] == rm["cp"]
    run = Run("tsp_subset", config=cfg, scale="smoke", seed=1, workers=1, out=tmp_path,
              progress=False)
    frame = experiments.run_comparison(run, cfg)
    assert set(frame["method"]) == {"sa", "mct_rm"}
    sa_length = frame.loc[frame["method"] == "sa", "length"].iloc[0]
    rm_length = frame.loc[frame["method"] == "mct_rm", "length"].iloc[0]
    ratios = tables.mean_ratios(frame, cfg.cp).set_index(["method", "compared with"])
    assert ratios.loc[("MCT_RM", "SA best"), "mean ratio"] == round(rm_length / sa_length, 3)
    assert ratios.loc[("MCT_RM", "SA best"), "instances"] == 1
    missing = ratios.drop(index="MCT_RM", level="method")
    assert (missing["instances"] == 0).all() and missing["mean ratio"].isna().all()
    assert tables.cp_ratios(frame, cfg.cp)["Cp"].tolist() == ["RM 2xMST"]
    assert tables.speedup(frame)["runs"].tolist() == [1]
    base = tables.baselines(frame).set_index("method")["mean ratio to SA (paper)"]
    assert base["MCT_RM"] == round(rm_length / sa_length, 3)
    assert base.drop(["SA (paper)", "MCT_RM"]).isna().all()
    row = tables.per_instance(frame).iloc[0]
    assert (row["SA"], row["MCT_RM"]) == (round(sa_length, 1), round(rm_length, 1))
    assert pd.isna(row["MCT_UM"]) and pd.isna(row["SA-2opt"]) and pd.isna(row["LKH-3"])
    assert "MCT_RM" in tables.summary_markdown(frame, "smoke", cfg)

    def legend(fig):
        return [t.get_text() for t in fig.axes[0].get_legend().get_texts()]

    # the figures show the methods that ran, not empty legend entries for the others
    means = tables.seed_means(frame)
    assert legend(figures.figure8(means, cfg.cp, cfg.budget_factor)) == ["SA (paper)", "MCT_RM"]
    variants = tables.roulette_variants(frame, cfg.cp)
    assert legend(figures.figure9(means, variants)) == ["SA (paper)", "RM 2xMST"]
    best = tables.best_known_path(frame)
    assert legend(figures.figure_baselines(means, best, cfg.budget_factor)) == [
        "SA (paper)", "MCT_RM", "best known path"]
    points = experiments.run_anytime(run, cfg)
    assert set(points["method"]) == {"sa", "mct_rm"}
    assert legend(figures.figure_anytime(points, frame)) == ["SA (paper)", "MCT_RM"]
    only_sa = experiments.config("smoke", instances=["random-12-1"], methods=[], cp_rules=[],
                                 sa_references=[])
    frame = experiments.run_comparison(run, only_sa)
    assert set(frame["method"]) == {"sa"}
    row = tables.per_instance(frame).iloc[0]
    assert row["SA"] == sa_length and pd.isna(row["MCT_RM"])  # SA: the same stream again
    assert "in 0 of 0 runs" in tables.summary_markdown(frame, "smoke", only_sa)
