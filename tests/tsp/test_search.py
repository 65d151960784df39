"""Default policies and MCTS: kernels equal their twins, the roulette draws 1/w, tree invariants."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from mctslab.core.tree import make_tree, tree_new_node
from mctslab.rng import seed_state
from mctslab.tsp import _distance, _mcts, _playout, api, reference, tsplib
from mctslab.tsp.reference import PyRng
from tests.tsp.conftest import explicit_instance, instances, random_instance

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _scratch(instance):
    n = instance.n
    xs32, ys32 = api.float32_coordinates(instance)
    coords_n = xs32.shape[0]
    return xs32, ys32, _playout.playout_scratch(n, coords_n)


@FAST
@given(instances(min_n=1, max_n=30), st.sampled_from(["uniform", "roulette"]),
       st.integers(0, 2**32 - 1), st.data())
def test_playout_kernel_equals_reference(instance, policy, seed, data):
    n = instance.n
    depth = data.draw(st.integers(0, n))
    prefix = np.random.default_rng(seed).permutation(n)[:depth].tolist()
    state = seed_state(seed)
    twin = PyRng(state.copy())
    xs32, ys32, scratch = _scratch(instance)
    path = np.zeros(n, np.int32)
    path[:depth] = prefix
    code = _playout.UNIFORM if policy == "uniform" else _playout.ROULETTE
    length = _playout.playout(_playout.Cities(*instance.arrays, xs32, ys32), code, path, depth, state, scratch)
    r_path, r_length = reference.playout(instance, policy, prefix, twin)
    assert path.tolist() == r_path and length == r_length
    assert sorted(r_path) == list(range(n)) and state.tolist() == twin.s


@pytest.mark.parametrize("metric", ["EUC_2D", "ATT", "GEO", "EXPLICIT"])
def test_roulette_draws_proportionally_to_inverse_weight(metric):
    instance = random_instance(24, metric, 3, spread=1000.0)
    xs32, ys32, (visited, remaining, rem_x, rem_y, w, block_sum) = _scratch(instance)
    remaining[:] = np.arange(instance.n)
    if xs32.shape[0]:
        rem_x[:], rem_y[:] = xs32, ys32
    m, last = instance.n - 1, instance.n - 1  # last city is the path end, the others remain
    _playout._inverse_weights(*instance.arrays, xs32, ys32, last, remaining, rem_x, rem_y, m, w)
    exact = np.array([1.0 / reference.weight(instance, last, v) for v in range(m)])
    assert np.allclose(w[:m], exact, rtol=1e-6)  # float32 weights, same integer distances
    state, draws = seed_state(5), 40_000
    counts = np.bincount([_playout._roulette_pick(w, m, block_sum, state) for _ in range(draws)],
                         minlength=m)
    # 23 categories, 40,000 draws: a correct sampler fails p < 1e-4 once in 10,000 runs
    assert chisquare(counts, exact / exact.sum() * draws).pvalue > 1e-4


def test_zero_weight_city_is_taken_at_once():
    xy = np.array([[0, 0], [50, 50], [0, 0], [90, 10]], float)  # cities 0 and 2 coincide
    instance = tsplib.from_coordinates(xy, "dup")
    xs32, ys32, scratch = _scratch(instance)
    for seed in range(20):
        path = np.zeros(4, np.int32)
        _playout.playout(_playout.Cities(*instance.arrays, xs32, ys32), _playout.ROULETTE, path, 1, seed_state(seed),
                         scratch)
        assert path[1] == 2


def _group_instance(metric):
    """Cities 0-4 coincide (a group of 5 duplicates); cities 5-9 are apart from them and each other."""
    xy = np.array([[10, 10]] * 5 + [[60, 20], [35, 80], [90, 90], [5, 55], [70, 50]], float)
    instance = tsplib.from_coordinates(xy, "group", "ATT" if metric == "ATT" else "EUC_2D")
    if metric == "EXPLICIT":
        instance = explicit_instance(_distance.distance_matrix(*instance.arrays, instance.n))
    return instance


@pytest.mark.parametrize("metric", ["EUC_2D", "ATT", "EXPLICIT"])
def test_duplicate_cities_are_drawn_uniformly_among_themselves(metric):
    """From city 0, the playout takes its 4 duplicates (weight 0) first, in one of 4! = 24 orders;
    each order must be equally likely, whatever order the swap-removes leave in ``remaining``."""
    instance = _group_instance(metric)
    xs32, ys32, scratch = _scratch(instance)
    state, draws = seed_state(2024), 12_000
    counts = {}
    path = np.zeros(instance.n, np.int32)
    for _ in range(draws):
        _playout.playout(_playout.Cities(*instance.arrays, xs32, ys32), _playout.ROULETTE, path, 1, state, scratch)
        order = tuple(path[1:5])
        assert sorted(order) == [1, 2, 3, 4]  # zero weights always come before the others
        counts[order] = counts.get(order, 0) + 1
    assert len(counts) == 24
    # 24 categories of expected count 500 at a fixed seed: deterministic, and a uniform sampler
    # falls below p = 1e-3 once in 1,000 seeds; taking the first duplicate in ``remaining`` (the
    # old rule) puts all 12,000 draws on one order (p ~ 0), and a 10% bias on one city fails too
    assert chisquare(list(counts.values())).pvalue > 1e-3
    first = np.bincount([order[0] for order in counts for _ in range(counts[order])], minlength=5)
    assert chisquare(first[1:]).pvalue > 1e-3


@pytest.mark.parametrize("metric", ["EUC_2D", "ATT", "EXPLICIT"])
def test_playout_with_duplicates_equals_reference(metric):
    instance = _group_instance(metric)
    xs32, ys32, scratch = _scratch(instance)
    for seed in range(30):
        depth = seed % 3
        prefix = [0, 7][:depth]
        state = seed_state(seed)
        twin = PyRng(state.copy())
        path = np.zeros(instance.n, np.int32)
        path[:depth] = prefix
        length = _playout.playout(_playout.Cities(*instance.arrays, xs32, ys32), _playout.ROULETTE, path, depth,
                                  state, scratch)
        assert (path.tolist(), length) == reference.playout(instance, "roulette", prefix, twin)
        assert state.tolist() == twin.s


def test_float32_artefact_is_not_a_duplicate():
    """Cities 2 and 3 round onto city 1 in float32 (ulp 4 at 2**25), but their exact weights
    from city 1 are 1 and 2: the roulette draws them 2 : 1 instead of always taking city 2."""
    big = 2.0 ** 25
    xy = np.array([[0, 0], [big, 0], [big + 1, 0], [big + 2, 0]])
    instance = tsplib.from_coordinates(xy, "far")
    xs32, ys32, scratch = _scratch(instance)
    assert xs32[1] == xs32[2] == xs32[3]
    state, draws = seed_state(3), 6000
    second = []
    for _ in range(draws):
        path = np.array([1, 0, 0, 0], np.int32)
        _playout.playout(_playout.Cities(*instance.arrays, xs32, ys32), _playout.ROULETTE, path, 1, state, scratch)
        second.append(path[1])
    counts = np.bincount(second, minlength=4)
    # P(2) = 1 / (1 + 1/2 + 2**-25): 4,000 expected, SD 37; city 0 (weight 2**25) about never
    assert abs(counts[2] - 4000) < 4 * 37 and counts[0] <= 1
    twin_state = seed_state(11)
    twin = PyRng(twin_state.copy())
    path = np.array([1, 0, 0, 0], np.int32)
    length = _playout.playout(_playout.Cities(*instance.arrays, xs32, ys32), _playout.ROULETTE, path, 1,
                              twin_state, scratch)
    assert (path.tolist(), length) == reference.playout(instance, "roulette", [1], twin)


@pytest.mark.parametrize("tiny", [1e-50, 1e-40, 1e-39])
def test_tiny_explicit_weight_is_not_a_duplicate(tiny):
    """w(0, 1) is tiny but positive (0 or overflowing 1/w in float32), w(0, 2) = 0: city 2, the
    only true duplicate, is always taken next, although city 1 comes first in ``remaining``."""
    matrix = np.array([[0, tiny, 0, 5], [tiny, 0, tiny, 5], [0, tiny, 0, 5], [5, 5, 5, 0]])
    instance = explicit_instance(matrix)
    xs32, ys32, scratch = _scratch(instance)
    for seed in range(20):
        state = seed_state(seed)
        twin = PyRng(state.copy())
        path = np.zeros(4, np.int32)
        length = _playout.playout(_playout.Cities(*instance.arrays, xs32, ys32), _playout.ROULETTE, path, 1, state,
                                  scratch)
        assert path[1] == 2
        assert (path.tolist(), length) == reference.playout(instance, "roulette", [0], twin)
    # without a duplicate, the tiny weights are capped (no overflowing block sum): a valid draw
    no_zero = explicit_instance(np.where(matrix == 0, 7.0, matrix) * (1 - np.eye(4)))
    for seed in range(20):
        state = seed_state(seed)
        twin = PyRng(state.copy())
        path = np.zeros(4, np.int32)
        length = _playout.playout(_playout.Cities(*no_zero.arrays, xs32, ys32), _playout.ROULETTE, path, 1, state,
                                  scratch)
        assert path[1] == 1  # weight `tiny` against 7 and 5: 1/w capped, still ~certain
        assert (path.tolist(), length) == reference.playout(no_zero, "roulette", [0], twin)


def test_overflowing_block_sum_is_capped_not_a_duplicate():
    """Eight weights of 1e-38 from city 0: each 1/w (~1e38) is finite in float32 but their block
    sum overflows. No city is a duplicate, so the capped weights give a uniform draw."""
    matrix = np.full((9, 9), 1e-38) * (1 - np.eye(9))
    instance = explicit_instance(matrix)
    xs32, ys32, scratch = _scratch(instance)
    seconds = []
    for seed in range(400):
        state = seed_state(seed)
        twin = PyRng(state.copy())
        path = np.zeros(9, np.int32)
        length = _playout.playout(_playout.Cities(*instance.arrays, xs32, ys32), _playout.ROULETTE, path, 1, state,
                                  scratch)
        assert sorted(path.tolist()) == list(range(9))
        if seed < 20:
            assert (path.tolist(), length) == reference.playout(instance, "roulette", [0], twin)
        seconds.append(path[1])
    # 8 categories, 50 expected each: p = 1e-3 is a 1-in-1,000 threshold for a uniform draw
    assert chisquare(np.bincount(seconds, minlength=9)[1:]).pvalue > 1e-3


@FAST
@given(instances(min_n=2, max_n=7), st.sampled_from(["uniform", "roulette"]),
       st.sampled_from([("mst", 2.0), ("mst", 0.0), ("sd", 2.0), ("sd", 4.0)]),
       st.integers(0, 2**32 - 1))
def test_mcts_kernel_equals_reference_and_visits_add_up(instance, policy, cp, seed):
    rule, k = cp
    mst = api.mst_length(instance)
    playouts = 150  # > 1 + 7 + 42: the tree gets past the root on every instance here
    result = api.mcts(instance, policy, rule, k, seed, playouts=playouts, mst=mst)
    r_best, r_path, root = reference.mcts(instance, policy, rule, k, PyRng(seed_state(seed)),
                                          playouts, mst)
    assert result.length == r_best and result.path.tolist() == r_path
    assert result.details["playouts"] == playouts == root.visits
    assert result.details["tree_nodes"] == _count(root)

    def check(node):  # a node's own playout plus its children's
        if node.children:
            assert node.visits == (node is not root) + sum(c.visits for c in node.children.values() if c)
            for child in node.children.values():
                if child:
                    assert child.value_min >= r_best
                    check(child)
    check(root)


def _count(node):
    return 1 + sum(_count(c) for c in (node.children or {}).values() if c)


def test_same_seed_same_mcts_and_sd_cp_is_set_after_the_root_completes():
    instance = random_instance(9, "EUC_2D", 4)
    runs = [api.mcts(instance, "roulette", "sd", 2.0, 8, playouts=200) for _ in range(2)]
    assert runs[0].length == runs[1].length and np.array_equal(runs[0].path, runs[1].path)
    assert runs[0].details["cp"] > 0 and runs[0].details["max_depth"] >= 2
    early = api.mcts(instance, "roulette", "sd", 2.0, 8, playouts=5)  # root has 9 children
    assert early.details["cp"] == 0.0


def test_full_tree_stops_growing_and_search_goes_on():
    instance = random_instance(12, "EUC_2D", 6)
    capped = api.mcts(instance, "uniform", "mst", 2.0, 1, playouts=300, max_nodes=20)
    assert capped.details["tree_nodes"] == 20 and capped.details["playouts"] == 300
    assert capped.details["node_budget_hits"] == 300 - 19
    edges = api.mcts(instance, "uniform", "mst", 2.0, 1, playouts=300, max_edges=12 + 11 * 3)
    assert edges.details["edge_budget_hits"] > 0 and edges.details["playouts"] == 300


def test_time_limit_runs_at_least_one_playout_and_says_when_it_overran():
    instance = random_instance(300, "EUC_2D", 7)
    result = api.mcts(instance, "roulette", "mst", 2.0, 1, time_limit=1e-7)
    assert result.details["playouts"] == 1 and result.details["first_playout_over_budget"]
    improvements = result.details["improvements"]
    assert improvements and improvements[-1][2] == result.length


def test_mcts_records_when_it_reaches_a_target():
    instance = random_instance(20, "EUC_2D", 9)
    result = api.mcts(instance, "roulette", "mst", 2.0, 2, playouts=500, target=np.inf)
    assert result.details["playouts_to_target"] == 1
    unreachable = api.mcts(instance, "roulette", "mst", 2.0, 2, playouts=50, target=0.0)
    assert unreachable.details["time_to_target"] is None


def test_unknown_policy_or_rule_is_named():
    instance = random_instance(5, "EUC_2D", 0)
    with pytest.raises(ValueError, match="unknown default policy 'greedy'"):
        api.mcts(instance, "greedy", playouts=1)
    with pytest.raises(ValueError, match="unknown Cp rule 'mean'"):
        api.mcts(instance, "uniform", "mean", playouts=1)


def test_root_children_sd_kernel():
    tree = make_tree(8, 8)
    root = tree_new_node(tree)
    tree.node_first_edge[root], tree.node_num_edges[root] = 0, 3
    for e, value in enumerate((10.0, 20.0, 60.0)):
        child = tree_new_node(tree)
        tree.edge_child[e] = child
        tree.node_visits[child], tree.node_value_sum[child] = 1, value
    assert _mcts._root_children_sd(tree) == pytest.approx(np.std([10.0, 20.0, 60.0]), rel=1e-12)


# -- one search per committed city (search="step-best" / "step-mean") ---------------------------

@pytest.mark.parametrize("search", ["step-best", "step-mean"])
@pytest.mark.parametrize("rule", ["mst", "sd"])
def test_stepwise_search_commits_every_city_and_splits_the_playouts(search, rule):
    instance = random_instance(10, "EUC_2D", 3)
    result = api.mcts(instance, "roulette", rule, 2.0, 4, playouts=9 * 30, search=search)
    api.check_path(instance, result.path)
    d = result.details
    assert d["steps"] == 9 and d["playouts"] == 9 * 30 and d["search"] == search
    assert d["max_depth"] <= 10  # depth below each step's root
    again = api.mcts(instance, "roulette", rule, 2.0, 4, playouts=9 * 30, search=search)
    assert np.array_equal(again.path, result.path)
    # every step roots a fresh tree at the prefix: its paths all start with it, so the best
    # length never gets worse, and the last improvement is the answer
    lengths = [length for _, _, length in d["improvements"]]
    assert lengths == sorted(lengths, reverse=True) and lengths[-1] == result.length


def test_stepwise_kernel_keeps_the_prefix():
    instance = random_instance(8, "EUC_2D", 2)
    search = api._Search(instance, 1000, 10_000)
    prefix = np.array([5, 1, 6], np.int32)
    search.reroot(prefix)
    best_path, best_length = np.arange(8, dtype=np.int32), np.array([np.inf])
    stats, trace = np.zeros(4, np.int64), np.empty(50)
    cp = np.array([10.0, 1.0, _mcts.CP_FIXED])
    ran = search.run(_playout.ROULETTE, cp, seed_state(1), 50, best_path, best_length, trace,
                     stats, None, len(prefix))
    assert ran == 50 and np.array_equal(best_path[:3], prefix)
    api.check_path(instance, best_path)
    # the root (the prefix) has a child per remaining city, and the tree is at most 5 deep
    assert search.tree.node_num_edges[0] == 5 and stats[_mcts.MAX_DEPTH] <= 5


class _TickingClock:
    """A stand-in for ``time.perf_counter``: each read advances it by ``tick`` seconds, so the
    search's time budget becomes a count of clock reads (the same on every machine)."""

    def __init__(self, tick):
        self.tick, self.reads = tick, 0

    def __call__(self):
        self.reads += 1
        return self.reads * self.tick


def test_stepwise_search_under_a_time_limit_stops_and_keeps_its_best_path(monkeypatch):
    instance = random_instance(300, "EUC_2D", 7)
    clock = _TickingClock(0.001)
    monkeypatch.setattr(api.time, "perf_counter", clock)
    result = api.mcts(instance, "roulette", "mst", 2.0, 1, time_limit=0.02, search="step-best")
    monkeypatch.undo()
    api.check_path(instance, result.path)
    # 20 reads of budget, a few reads per step: the search stops after a handful of the 299
    # steps, and overruns the deadline by at most the reads of the one step it had begun
    # (a search that ignored the deadline would run all 299 steps, ~900 reads)
    assert 1 <= result.details["steps"] < 20
    assert result.seconds <= 0.02 + 4 * clock.tick
    assert result.details["improvements"][-1][2] == result.length
    tiny = random_instance(6, "EUC_2D", 1)
    assert api.mcts(tiny, "uniform", "mst", 2.0, 1, time_limit=1.0,
                    search="step-mean").details["steps"] == 5


def test_unknown_search_is_named():
    with pytest.raises(ValueError, match="unknown MCTS search 'stepwise'"):
        api.mcts(random_instance(5, "EUC_2D", 0), search="stepwise", playouts=1)
