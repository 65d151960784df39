"""Kernels against their plain-Python twins (reference.py) and against brute force."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import minimum_spanning_tree

from mctslab.rng import seed_state
from mctslab.tsp import _distance, _sa, api, reference
from mctslab.tsp.reference import PyRng
from tests.tsp.conftest import METRICS, instances, random_instance

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_python_rng_twin_draws_what_the_kernels_draw():
    from mctslab.rng import rng_below, rng_random
    state = seed_state(7)
    twin = PyRng(state.copy())
    for bound in (1, 2, 3, 1000, 2**31 + 11):
        assert [rng_below(state, bound) for _ in range(20)] == [twin.below(bound) for _ in range(20)]
    assert [rng_random(state) for _ in range(20)] == [twin.random() for _ in range(20)]


@FAST
@given(instances(min_n=2, max_n=15))
def test_weights_and_lengths_match_the_reference(instance):
    n = instance.n
    for i in range(n):
        for j in range(n):
            assert _distance.weight(*instance.arrays, i, j) == reference.weight(instance, i, j)
    path = np.random.default_rng(n).permutation(n).astype(np.int32)
    assert api.path_length(instance, path) == reference.path_length(instance, path.tolist())
    assert api.tour_length(instance, path) == reference.tour_length(instance, path.tolist())


@FAST
@given(instances(min_n=1, max_n=25))
def test_mst_matches_reference_prim_and_scipy(instance):
    mst = api.mst_length(instance)
    assert mst == reference.mst_length(instance)
    if instance.n > 1:
        # scipy reads weights near 0 (atol 1e-8) as "no edge"; adding 1e-3 to every weight keeps
        # duplicate cities connected and adds exactly (n - 1) * 1e-3 to any spanning tree
        dense = _distance.distance_matrix(*instance.arrays, instance.n) + 1e-3
        np.fill_diagonal(dense, 0.0)
        assert abs(minimum_spanning_tree(dense).sum() - (instance.n - 1) * 1e-3 - mst) < 1e-6


@FAST
@given(instances(min_n=1, max_n=8), st.integers(0, 2**32 - 1))
def test_sa_kernel_equals_reference(instance, seed):
    n = instance.n
    state = seed_state(seed)
    twin = PyRng(state.copy())
    path = np.empty(n, np.int32)
    _sa.random_permutation(n, state, path)
    assert path.tolist() == reference.random_permutation(n, twin)
    start = path.tolist()
    best_path, trace = np.empty(n, np.int32), np.zeros(30)
    # a hot, short schedule: many acceptances of every kind
    best, final, proposals, accepted = _sa.sa_swap(*instance.arrays, path, state, 60.0, 1.0, 40,
                                                   0.9, best_path, trace)
    r_best, r_final, r_best_path, r_path = reference.sa_swap(instance, start, twin, 60.0, 1.0, 40, 0.9)
    assert (best, final) == (r_best, r_final)
    assert best_path.tolist() == r_best_path and path.tolist() == r_path
    assert api.path_length(instance, best_path) == best
    assert state.tolist() == twin.s  # the same number of draws


def test_paper_schedule_has_688_temperatures_and_688k_proposals():
    assert api.sa_levels(**{k: v for k, v in api.SA_PAPER.items() if k != "iterations"}) == 688
    result = api.sa_paper(random_instance(30, "EUC_2D", 1), seed=3)
    assert result.details["proposals"] == 688_000 and len(result.details["trace"]) == 688
    assert np.all(np.diff(result.details["trace"]) <= 0)
    assert result.length == result.details["trace"][-1] <= result.details["final_length"]


@pytest.mark.parametrize("metric", METRICS)
def test_same_seed_same_sa_result(metric):
    instance = random_instance(40, metric, 5)
    first, second = api.sa_paper(instance, 11), api.sa_paper(instance, 11)
    assert first.length == second.length and np.array_equal(first.path, second.path)
    assert api.sa_paper(instance, 12).details["accepted"] != first.details["accepted"]


@settings(max_examples=20, deadline=None)
@given(instances(min_n=1, max_n=8))
def test_held_karp_equals_brute_force(instance):
    result = api.exact(instance)
    assert result.length == reference.brute_force_path(instance)
    assert api.path_length(instance, result.path) == result.length


@pytest.mark.parametrize("metric", ["EUC_2D", "EXPLICIT"])
def test_held_karp_equals_brute_force_on_nine_cities(metric):
    instance = random_instance(9, metric, 9)
    assert api.exact(instance).length == reference.brute_force_path(instance)


def test_held_karp_beats_or_ties_every_heuristic_on_16_cities():
    instance = random_instance(16, "EUC_2D", 2)
    best = api.exact(instance).length
    assert best <= api.sa_paper(instance, 1).length
    assert best <= api.sa_2opt(instance, 1).length
    assert best <= api.mcts(instance, "roulette", "mst", 2.0, 1, playouts=2000).length


def test_exact_refuses_large_instances():
    with pytest.raises(ValueError, match="limited to 20 cities; euc_2d21 has 21"):
        api.exact(random_instance(21, "EUC_2D", 0))
