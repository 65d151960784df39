"""DE/rand/1/bin, the fitness kernels against the reference, and the learning procedures."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mctslab.core.stats import elo_update
from mctslab.othello import api, reference, wpc
from mctslab.othello._de import group_ratings, individual_scores, league
from mctslab.othello.learning import (
    LearningConfig,
    de_rand_1_bin,
    fitness_from_scores,
    learn,
    population_tables,
)
from mctslab.rng import seed_state


def test_de_children_stay_in_bounds_and_cross_over():
    rng = np.random.default_rng(0)
    population = rng.uniform(-1, 1, (8, 10))
    children = de_rand_1_bin(population, 0.9, 0.9, -1.0, 1.0, rng)
    assert children.shape == population.shape
    assert children.min() >= -1.0 and children.max() <= 1.0
    # CR = 0: exactly one gene (the forced one) comes from the mutant.
    children = de_rand_1_bin(population, 0.5, 0.0, -1.0, 1.0, rng)
    assert ((children != population).sum(axis=1) == 1).all()


def test_de_base_vector_is_another_individual():
    # F = 0, CR = 1: the child is x_r1, which must be a different member of the population.
    rng = np.random.default_rng(1)
    population = rng.uniform(-1, 1, (5, 10))
    for _ in range(20):
        children = de_rand_1_bin(population, 0.0, 1.0, -1.0, 1.0, rng)
        for i, child in enumerate(children):
            matches = [j for j in range(5) if np.array_equal(population[j], child)]
            assert len(matches) == 1 and matches[0] != i


def test_fitness_is_mean_minus_alpha_population_sd():
    scores = np.array([[0.6, 0.8], [0.5, 0.5]])
    # mean 0.7, population sd 0.1 -> 0.7 - 1.3 * 0.1
    assert np.allclose(fitness_from_scores(scores, 1.3), [0.57, 0.5])


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_individual_scores_equal_reference_matches(seed):
    rng = np.random.default_rng(seed)
    population = rng.uniform(-1, 1, (3, 10))
    opponent = rng.uniform(-1, 1, 10)
    got = individual_scores(population_tables(population), population_tables(opponent[None])[0],
                            False, 2, 3, 0.1, seed_state(seed))
    state = seed_state(seed)
    for i in range(3):
        for match in range(2):
            outcome = reference.play_match(wpc.quantize(wpc.expand(population[i])), False,
                                           wpc.quantize(wpc.expand(opponent)), False, 0.1, 3, state)
            assert got[i, match] == (outcome[0] + 0.5 * outcome[1]) / 3


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_group_ratings_equal_reference(seed):
    rng = np.random.default_rng(seed)
    population = rng.uniform(-1, 1, (2, 10))
    members = rng.uniform(-1, 1, (2, 10))
    members_random = np.array([True, False])
    member_ratings = np.array([1500.0, 1620.0])
    got, _ = group_ratings(population_tables(population), population_tables(members),
                           members_random, member_ratings, 4, 1500.0, 32.0, 0.1, seed_state(seed))
    state = seed_state(seed)
    member_weights = [wpc.quantize(wpc.expand(m)) for m in members]
    for i in range(2):
        want = reference.rate_against_group(wpc.quantize(wpc.expand(population[i])), member_weights,
                                            members_random, member_ratings, 4, 1500.0, 32.0, 0.1,
                                            state)
        assert got[i] == pytest.approx(want, abs=1e-9)


def test_elo_by_hand_and_league_conserves_rating_points():
    # Equal ratings, a win with K = 32: +16 (Eq. 6-7).
    assert elo_update(1500.0, 1500.0, 1.0, 32.0) == pytest.approx(1516.0)
    rng = np.random.default_rng(4)
    players = population_tables(rng.uniform(-1, 1, (4, 10)))
    ratings = np.array([1500.0, 1550.0, 1700.0, 1620.0])
    before = ratings.sum()
    scores = league(players, np.array([True, False, False, False]), ratings, 6, 32.0, 0.1,
                    seed_state(9))
    assert ratings.sum() == pytest.approx(before)  # Elo with one K is zero-sum
    assert np.allclose(scores + scores.T, 1 - np.eye(4))


def _small(mode, **overrides):
    params = dict(mode=mode, population_size=6, max_generations=6, iterations=3, n_matches=2,
                  games_per_match=10, games_per_member=6, eval_games=50)
    params.update(overrides)
    return LearningConfig(**params)


@pytest.mark.parametrize("mode", ["individual", "group"])
def test_learning_is_reproducible_and_counts_every_game(mode):
    cfg = _small(mode)
    first, second = learn(cfg, 5), learn(cfg, 5)
    first.pop("seconds"), second.pop("seconds")
    assert first == second
    rows = first["generations"]
    assert rows["games"] == sorted(rows["games"])
    assert first["games"] >= rows["games"][-1]
    if mode == "individual":
        # Each iteration: the initial population plus one population per generation.
        per_population = cfg.population_size * cfg.n_matches * cfg.games_per_match
        generations = len(rows["generation"])
        assert first["games"] == per_population * (cfg.iterations + generations)
        changes = [e for e in first["events"] if e["kind"] == "replace"]
        # each change: eval_games against the standard WPC and as many fresh games against
        # the replaced opponent
        assert first["evaluation_games"] == 2 * cfg.eval_games * len(changes)
    else:
        joins = [e for e in first["events"] if e["kind"] == "join"]
        assert len(first["final_members"]) == min(1 + len(joins), cfg.max_group)
    assert len(first["events"]) == cfg.iterations  # one change or one failure per iteration


def test_a_new_best_plays_fresh_games_against_the_opponent_it_replaced():
    """The fitness games that selected a new best cannot fail "it beats the opponent
    it replaced" (fitness > 0.5 needs score - 1.3 sigma > 0.5); fresh games from their own
    stream can, and they leave the learning itself unchanged."""
    with_fresh = learn(_small("individual", iterations=4), 7)
    without = learn(_small("individual", iterations=4, eval_games=0), 7)
    assert with_fresh["generations"] == without["generations"]
    replaced = [e for e in with_fresh["events"] if e["kind"] == "replace"]
    assert replaced, "no replacement to check: pick another seed"
    for event in replaced:
        fresh = event["fresh_vs_opponent"]
        assert fresh["wins"] + fresh["draws"] + fresh["losses"] == 50
        assert fresh["score"] == (fresh["wins"] + 0.5 * fresh["draws"]) / 50
    # fresh games are other games: they differ from the selecting score somewhere
    assert any(e["fresh_vs_opponent"]["score"] != e["score_vs_opponent"] for e in replaced)
    assert all(e["fresh_vs_opponent"] is None for e in without["events"]
               if e["kind"] == "replace")


def test_different_seeds_learn_differently():
    cfg = _small("individual")
    assert learn(cfg, 1)["generations"] != learn(cfg, 2)["generations"]


def test_group_never_exceeds_its_capacity():
    result = learn(_small("group", max_group=2, iterations=4), 3)
    for event in result["events"]:
        if event["kind"] == "join":
            assert len(event["group"]) <= 2


def test_unknown_learning_parameter_is_named():
    with pytest.raises(ValueError, match="unknown learning parameter.*popsize"):
        LearningConfig.from_params({"popsize": 3})
    with pytest.raises(ValueError, match="unknown learning mode 'solo'"):
        LearningConfig(mode="solo")
    with pytest.raises(ValueError, match="population_size must be at least 4"):
        LearningConfig(population_size=3)


def test_small_scale_learning_beats_the_random_player():
    # One iteration of individual learning against the random player (the paper's protocol,
    # epsilon 0.1 in the learning games): ~200k games a seed, ~2 s.
    cfg = LearningConfig(mode="individual", population_size=10, max_generations=200, iterations=1,
                         n_matches=10, games_per_match=20, eval_games=0)
    scores = []
    for seed in range(6):
        result = learn(cfg, seed)
        assert 150_000 <= result["games"] <= 410_000
        learned = wpc.expand(result["final_variables"])
        # The learned WPC plays greedily (epsilon 0); the random player is random anyway.
        scores.append(api.match(learned, "random", games=4000, epsilon=0.0, seed=1).score)
    standard = api.match(wpc.expand(wpc.STANDARD_VARIABLES), "random", games=4000, epsilon=0.0,
                         seed=1).score
    # Measured 2026-11-23 over seeds 0-13 at this budget (4,000 greedy games each): learned mean
    # 0.869, sd 0.028, range 0.826-0.916; the standard WPC 0.798. Issue 3's goal of 0.9 is at the
    # ceiling of 1-ply WPCs (Lucas & Runarsson 2006: 0.90; the paper's NP = 20, S x N = 500
    # reach a mean of 0.903 over 6 seeds): the gap is reported on issue 3. A single seed is
    # not a test (one seed scores 0.83): the mean of 6 seeds (sd ~0.011) must beat the standard
    # WPC by 0.04, ~2.5 sd below the measured mean and far above a learning that does not
    # learn (the standard WPC's level or below); every seed must beat the random player.
    assert np.mean(scores) > standard + 0.04, (scores, standard)
    assert min(scores) > 0.7, scores
