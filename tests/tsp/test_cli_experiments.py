"""The ``mctslab tsp`` verbs and the experiment configuration / tasks."""

from __future__ import annotations

import numpy as np
import pytest

from mctslab.cli import main
from mctslab.core.report import Run
from mctslab.tsp import api, experiments, tsplib

from .conftest import needs_tsplib

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
                 "--out", str(out)]) == 0
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
def test_paper_scale_is_the_77_euc2d_instances():
    assert len(experiments.config("paper").instances) == 77


def test_comparison_task_runs_every_method_with_sa_time_as_budget(tmp_path):
    cfg = experiments.config("smoke", instances=["random-25-3"], anytime_instances=["random-25-3"],
                             anytime_horizon=0.02)
    run = Run("tsp_test", config=cfg, scale="smoke", seed=1, workers=1, out=tmp_path, progress=False)
    frame = experiments.run_comparison(run, cfg)
    assert set(frame["method"]) == set(experiments.METHODS)
    budget = frame["budget"].dropna().iloc[0]
    sa_seconds = frame.loc[frame["method"] == "sa", "seconds"].iloc[0]
    assert budget == sa_seconds
    mcts = frame[frame["method"].str.startswith("mct")]
    assert (mcts["playouts"] >= 1).all()
    assert len(experiments.mean_ratios(frame)) == 10 and len(experiments.cp_ratios(frame)) == 6
    assert experiments.per_instance(frame)["seeds"].tolist() == [1]
    again = experiments.run_comparison(run, cfg)  # resumed from the store: same numbers
    assert np.allclose(again["length"], frame["length"])
    points = experiments.run_anytime(run, cfg)
    assert set(points["method"]) == {"sa", "sa_2opt", "mct_rm", "mct_um"}
