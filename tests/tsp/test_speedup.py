"""The uncapped speed-up: counting logic, the naive O(n) SA, stopping at a target."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mctslab.rng import seed_state
from mctslab.tsp import _sa, api, experiments, tables
from tests.tsp.conftest import instances, random_instance


def test_first_reach_takes_the_first_improvement_at_or_below_the_target():
    improvements = [(0.001, 1, 900.0), (0.004, 7, 700.0), (0.010, 30, 650.0), (0.2, 999, 600.0)]
    assert experiments.first_reach(improvements, 700.0) == (0.004, 7)  # equal counts as reached
    assert experiments.first_reach(improvements, 699.0) == (0.010, 30)
    assert experiments.first_reach(improvements, 1e9) == (0.001, 1)
    assert experiments.first_reach(improvements, 599.0) == (None, None)
    assert experiments.first_reach([], 1.0) == (None, None)


@settings(max_examples=25, deadline=None)
@given(instances(min_n=2, max_n=12), st.integers(0, 2**32 - 1))
def test_naive_sa_makes_the_same_decisions_as_the_compiled_one(instance, seed):
    """Integer TSPLIB weights: recomputing the path gives the same deltas, so the same path,
    acceptances and random draws (the naive SA differs only in its cost per move). The start
    temperature is far above any delta (GEO weights reach ~20,000 km), so acceptances happen
    on every instance; from 60 a small GEO instance could reject every proposal."""
    results = []
    for kernel in ("fast", "naive"):
        state = seed_state(seed)
        path = np.empty(instance.n, np.int32)
        _sa.random_permutation(instance.n, state, path)
        best_path = np.empty(instance.n, np.int32)
        if kernel == "fast":
            out = _sa.sa_swap(*instance.arrays, path, state, 1e5, 1.0, 30, 0.8, best_path,
                              np.zeros(30))
        else:
            out = _sa.sa_swap_naive(*instance.arrays, path, state, 1e5, 1.0, 30, 0.8, best_path)
        results.append((out, path.tolist(), best_path.tolist(), state.tolist()))
    assert results[0] == results[1]
    assert 0 < results[0][0][3] <= results[0][0][2]  # some accepted, at most every proposal


def test_naive_sa_through_the_api_gives_the_paper_sa_length():
    instance = random_instance(40, "EUC_2D", 2)
    fast, naive = api.sa_paper(instance, 5), api.sa_paper(instance, 5, naive=True)
    assert naive.length == fast.length and naive.details["accepted"] == fast.details["accepted"]
    assert naive.details["proposals"] == 688_000
    with pytest.raises(ValueError, match="naive SA runs the Metropolis reading only"):
        api.sa_paper(instance, 5, naive=True, reading="accept-all")


def test_mcts_stops_at_the_target_not_at_the_time_limit():
    instance = random_instance(30, "EUC_2D", 1)
    result = api.mcts(instance, "roulette", "mst", 2.0, 3, time_limit=30.0, target=1e12,
                      stop_at_target=True)
    assert result.details["playouts"] == 1  # the first playout reaches any length
    assert result.details["playouts_to_target"] == 1
    unreachable = api.mcts(instance, "roulette", "mst", 2.0, 3, playouts=500, target=0.0,
                           stop_at_target=True)
    assert unreachable.details["playouts"] == 500


def _speed_frame():
    # two runs reach the paper SA's length, one does not (horizon 2 s); all reach accept-all
    return pd.DataFrame({
        "instance": ["a", "a", "b"], "replicate": [0, 1, 0], "horizon": [2.0] * 3,
        "sa_seconds": [0.1, 0.1, 0.2], "naive_sa_seconds": [1.0, 1.0, 4.0],
        "reach_sa_seconds": [0.01, 0.03, None], "reach_sa_playouts": [10, 30, None],
        "reach_accept_all_seconds": [0.001, 0.001, 0.002],
        "reach_accept_all_playouts": [1, 1, 2]})


def test_speedup_table_counts_unreached_runs_and_both_timings():
    table = tables.speedup_uncapped(_speed_frame()).set_index(["target", "SA timing"])
    row = table.loc[("SA (paper) length", "compiled, O(1) per move")]
    assert (row["runs"], row["reached within the horizon"], row["not reached"]) == (3, 2, 1)
    assert row["mean time to reach / SA time (%)"] == 20.0  # mean(0.1, 0.3) over reached runs
    assert row["implied speed-up (1 / mean share)"] == 5.0
    assert row["median playouts to reach"] == 20.0
    # the unreached run counted at the 2 s horizon: mean(0.1, 0.3, 10) = 3.4667 -> 347%
    assert row["mean share counting unreached at the horizon (%), a lower bound"] == 347.0
    naive = table.loc[("SA (paper) length", "naive, O(n) per move")]
    assert naive["mean time to reach / SA time (%)"] == 2.0  # mean(0.01, 0.03)
    ref = table.loc[("SA accept-all length", "naive, O(n) per move")]
    assert (ref["reached within the horizon"], ref["not reached"]) == (3, 0)
    assert ref["mean time to reach / SA time (%)"] == 0.0833  # 100 x mean(1e-3, 1e-3, 5e-4), 3 digits
