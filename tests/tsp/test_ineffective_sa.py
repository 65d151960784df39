"""The "ineffective SA" reference: an SA that accepts every proposed move."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mctslab.core.report import Run
from mctslab.rng import seed_state
from mctslab.tsp import _sa, api, experiments, reference, tables
from mctslab.tsp.reference import PyRng
from tests.tsp.conftest import instances, random_instance


def test_accept_all_accepts_every_proposed_move():
    instance = random_instance(60, "EUC_2D", 4)
    ineffective = api.sa_paper(instance, 7, reading="accept-all")
    assert ineffective.details["proposals"] == 688_000
    assert ineffective.details["accepted"] == ineffective.details["proposals"]
    # the paper's Metropolis SA on the same start rejects many (cold at the end of its schedule)
    metropolis = api.sa_paper(instance, 7)
    assert metropolis.details["accepted"] < 0.9 * metropolis.details["proposals"]
    # a random walk that keeps its best: far worse than annealing, and its last state is random
    assert ineffective.length > 2 * metropolis.length
    assert ineffective.details["final_length"] > ineffective.length
    with pytest.raises(ValueError, match="SA reading must be one of metropolis, accept-all"):
        api.sa_paper(instance, 7, reading="hot")


@settings(max_examples=30, deadline=None)
@given(instances(min_n=2, max_n=8), st.integers(0, 2**32 - 1))
def test_accept_all_kernel_equals_reference(instance, seed):
    """Same path, best path and number of draws as the plain-Python twin; a cold schedule
    (T = 1e-3 .. 1e-4) would reject almost every uphill move without ``accept_all``."""
    n = instance.n
    state = seed_state(seed)
    twin = PyRng(state.copy())
    path = np.empty(n, np.int32)
    _sa.random_permutation(n, state, path)
    start = reference.random_permutation(n, twin)
    best_path, trace = np.empty(n, np.int32), np.zeros(30)
    best, final, proposals, accepted = _sa.sa_swap(*instance.arrays, path, state, 1e-3, 1e-4, 20,
                                                   0.5, best_path, trace, True)
    r_best, r_final, r_best_path, r_path = reference.sa_swap(instance, start, twin, 1e-3, 1e-4, 20,
                                                             0.5, accept_all=True)
    assert accepted == proposals == 80
    assert (best, final) == (r_best, r_final) and path.tolist() == r_path
    assert best_path.tolist() == r_best_path
    assert state.tolist() == twin.s  # no acceptance draws: only the two positions per move


def test_config_validates_the_references_and_keeps_comparison_ids(tmp_path):
    assert experiments.config("smoke").sa_references == ("accept-all",)
    assert experiments.config("smoke", sa_references=[]).sa_references == ()
    with pytest.raises(ValueError, match="sa_references must be a list of accept-all"):
        experiments.config("smoke", sa_references=["metropolis"])
    cfg = experiments.config("smoke", instances=["random-12-1"], methods=["mct_um", "mct_rm"],
                             cp_rules=[])
    run = Run("tsp_ref", config=cfg, scale="smoke", seed=1, workers=1, out=tmp_path, progress=False)
    frame = experiments.run_comparison(run, cfg)
    # the comparison task's parameters do not mention the reference
    stored = [json.loads(line) for line in
              (tmp_path / "data/results/tsp_comparison/results.jsonl").read_text().splitlines()]
    assert "sa_references" not in stored[0]["params"] and "reading" not in stored[0]["params"]
    ref = frame[frame["method"] == "sa_accept_all"].iloc[0]
    sa = frame[frame["method"] == "sa"].iloc[0]
    assert ref["accepted"] == ref["proposals"] == sa["proposals"]
    # same start as the paper's SA: the SA stream of the comparison task
    direct = api.sa_paper(experiments.load_instance("random-12-1"),
                          experiments._children(run_seed(1, 0, "random-12-1"), 1)[0],
                          reading="accept-all")
    assert ref["length"] == direct.length
    table = tables.ineffective_sa(frame).set_index("method")
    rm = frame[frame["method"] == "mct_rm"].iloc[0]
    assert table.loc["MCT_RM", "mean ratio to SA accept-all"] == round(
        rm["length"] / ref["length"], 3)
    assert table.loc["MCT_RM", "mean ratio to SA (paper, Metropolis)"] == round(
        rm["length"] / sa["length"], 3)
    assert table.loc["MCT_UM", "paper (ratio to its SA)"] == 1.08
    text = tables.ineffective_sa_markdown(frame)
    assert f"{rm['length'] / ref['length']:.3f}" in text and "100.0%" in text
    none = experiments.config("smoke", instances=["random-12-1"], methods=["mct_rm"],
                              cp_rules=[], sa_references=[])
    assert tables.ineffective_sa(experiments.run_comparison(run, none)).empty


def run_seed(seed, replicate, name):
    return experiments._task("mctslab.tsp.experiments:comparison_task", {}, seed, replicate,
                             name).seed_sequence()


def test_markdown_says_what_the_ratios_mean():
    """Against the accept-all SA at the paper's ratios and worse than the real SA: the text says
    the paper's claim rests on its SA; far from the paper's ratios: it says it does not show it."""
    rows = []
    for method, length in (("sa", 100.0), ("sa_accept_all", 500.0), ("mct_um", 540.0),
                           ("mct_rm", 316.0)):
        rows.append({"instance": "a", "replicate": 0, "method": method, "length": length,
                     "n": 10, "mst": 1.0, "optimum": None, "proposals": 688_000,
                     "accepted": 688_000 if method == "sa_accept_all" else None})
    frame = pd.DataFrame(rows)
    text = tables.ineffective_sa_markdown(frame)
    assert "MCT_UM / SA = 1.080 and MCT_RM / SA = 0.632" in text
    assert "close to a random search" in text
    far = frame.assign(length=frame["length"].where(frame["method"] != "mct_rm", 100.0))
    assert "does not reproduce both" in tables.ineffective_sa_markdown(far)
