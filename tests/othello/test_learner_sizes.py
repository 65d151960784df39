"""Learner sizes beyond the paper: 10, 20 (4-fold symmetric) or 64 genes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mctslab.othello import experiments, tables, wpc
from mctslab.othello._board import START_BLACK, START_WHITE
from mctslab.othello._players import play_match
from mctslab.othello.learning import (
    LearningConfig,
    learn,
    population_tables,
    random_population,
)
from mctslab.rng import seed_state


def _bitboard_image(bits, image_of_square) -> int:
    squares = [s for s in range(64) if (int(bits) >> s) & 1]
    return sum(1 << int(image_of_square[s]) for s in squares)


def _square_maps(symmetries):
    """For each symmetry, where each square goes (from the image of one-hot boards)."""
    maps = []
    for k in range(len(symmetries(np.zeros(64)))):
        image_of = np.empty(64, dtype=np.int64)
        for square in range(64):
            one_hot = np.zeros(64)
            one_hot[square] = 1.0
            image_of[square] = int(np.argmax(symmetries(one_hot)[k]))
        maps.append(image_of)
    return maps


def test_ten_genes_expand_to_the_64_weights_with_the_eight_symmetries():
    rng = np.random.default_rng(3)
    for _ in range(5):
        genes = rng.uniform(-1, 1, 10)
        weights = wpc.expand_genes(genes)
        assert np.array_equal(weights, wpc.expand(genes))
        assert wpc.is_symmetric(weights)
        # the 64-gene learner holding those weights is the same player, table for table
        assert np.array_equal(population_tables(genes[None]), population_tables(weights[None]))
        # ... and so is the 20-gene learner (an 8-fold WPC is 4-fold symmetric too)
        first_square = [int(np.flatnonzero(wpc.variable_index(20) == g)[0]) for g in range(20)]
        twenty = weights[first_square]
        assert np.array_equal(wpc.expand_genes(twenty), weights)
        assert np.array_equal(population_tables(twenty[None]), population_tables(genes[None]))
    assert np.array_equal(wpc.expand_genes(np.arange(64.0)), np.arange(64.0))


def test_four_fold_genes_are_the_start_positions_symmetries():
    index = wpc.variable_index(20)
    # 16 diagonal squares in pairs, 48 others in fours: 8 + 12 = 20 classes
    assert sorted(np.bincount(index, minlength=20)) == [2] * 8 + [4] * 12
    rng = np.random.default_rng(5)
    weights = wpc.expand_genes(rng.uniform(-1, 1, 20))
    for image in wpc.start_symmetries(weights):
        assert np.array_equal(image, weights)
    # the four other symmetries of the square move a random 4-fold WPC
    images = wpc.symmetries(weights)
    assert sum(np.array_equal(image, weights) for image in images) == 4
    # the 4 symmetries fix the start position; the other 4 swap the colours of the centre discs
    for image_of in _square_maps(wpc.start_symmetries):
        assert _bitboard_image(START_BLACK, image_of) == int(START_BLACK)
        assert _bitboard_image(START_WHITE, image_of) == int(START_WHITE)
    swapped = [m for m in _square_maps(wpc.symmetries)
               if _bitboard_image(START_BLACK, m) == int(START_WHITE)]
    assert len(swapped) == 4
    with pytest.raises(ValueError, match="10 | 20 | 64 genes, got 12"):
        wpc.variable_index(12)


def test_learner_size_is_validated_and_enters_task_params_only_when_changed():
    with pytest.raises(ValueError, match="weights must be one of 10, 20, 64"):
        LearningConfig(weights=32)
    with pytest.raises(ValueError, match="weights must be one of 10, 20, 64"):
        experiments.config("smoke", weights=16)
    with pytest.raises(ValueError, match="compared_weights must be a tuple of distinct"):
        experiments.config("smoke", compared_weights=(10, 10))
    assert "weights" not in experiments.config("default").learning_params("individual")
    assert experiments.config("default", weights=64).learning_params("group")["weights"] == 64
    tiny = dict(mode="individual", population_size=4, max_generations=2, iterations=1,
                n_matches=2, games_per_match=4, eval_games=10)
    assert "weights" not in learn(LearningConfig(**tiny), 1)["config"]
    sized = learn(LearningConfig(**tiny, weights=20), 1)
    assert sized["config"]["weights"] == 20
    replaced = [e for e in sized["events"] if e["kind"] == "replace"]
    assert all(len(e["variables"]) == 20 for e in replaced)


def test_the_64_weight_learner_improves_over_its_random_start():
    # One individual-learning iteration against the random player (the opponent is replaced
    # at the first check after Tmax / 2 = 15 generations). Out of sample, over 4 seeds, the
    # final WPC vs its own initial population, each against the random player. Measured:
    # learned 0.675, 0.628, 0.674, 0.708 (2,000 games each), initial populations' means 0.549,
    # 0.505, 0.524, 0.536 (200 games per WPC): gaps 0.12-0.17, mean gap 0.14.
    cfg = LearningConfig(mode="individual", population_size=10, max_generations=30, iterations=1,
                         n_matches=2, games_per_match=25, eval_games=0, weights=64)
    random_player = np.zeros((8, 256), dtype=np.int64)

    def score(tables, games, state):
        wins, draws, _ = play_match(tables, False, random_player, True, 0.1, games, state)
        return (wins + 0.5 * draws) / games

    learned, start = [], []
    for seed in range(4):
        result = learn(cfg, seed)
        assert len(result["final_variables"]) == 64
        learned.append(score(population_tables(np.array(result["final_variables"])[None])[0],
                             2000, seed_state(100 + seed)))
        # the run's own initial population: the first draws of its DE generator
        de_rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(3)[0])
        initial = random_population(cfg.population_size, cfg.lower, cfg.upper, de_rng, 64)
        state = seed_state(200 + seed)
        start.append(np.mean([score(t, 200, state) for t in population_tables(initial)]))
    assert min(np.subtract(learned, start)) > 0
    assert np.mean(learned) > np.mean(start) + 0.06


def test_evaluation_task_against_the_random_player():
    params = dict(weights=wpc.STANDARD_VARIABLES.tolist(), games=400, epsilon=0.1)
    seed = np.random.SeedSequence(2)
    standard = experiments.evaluation_task(params, seed)
    assert experiments.evaluation_task(dict(params, opponent="standard"), seed) == standard
    vs_random = experiments.evaluation_task(dict(params, opponent="random"), seed)
    assert vs_random != standard
    # the standard WPC beats the random player about 0.80 of the time (docs/bench/othello.md)
    assert (vs_random["wins"] + 0.5 * vs_random["draws"]) / 400 > 0.7
    with pytest.raises(ValueError, match="opponent must be one of standard, random, lucas_runarsson"):
        experiments.evaluation_task(dict(params, opponent="edax"), seed)


def test_learner_sizes_summary_intervals_over_seeds():
    rows = pd.DataFrame({
        "learner": ["10 genes"] * 3 + ["64 genes"] * 3 + ["standard"],
        "mode": ["individual"] * 6 + ["published"],
        "vs_standard": [0.3, 0.4, 0.5, 0.2, 0.2, 0.2, 0.5],
        "vs_standard_low": [np.nan] * 6 + [0.49], "vs_standard_high": [np.nan] * 6 + [0.51],
        "vs_random": [0.8, 0.9, 0.85, 0.7, 0.75, 0.8, 0.8],
        "vs_random_low": [np.nan] * 6 + [0.79], "vs_random_high": [np.nan] * 6 + [0.81],
    })
    table = tables.learner_sizes_summary(rows).set_index("learner")
    # mean 0.4, sd 0.1, t(0.975, 2) = 4.303: 0.4 +- 0.248
    assert table.loc["10 genes", "vs_standard"] == pytest.approx(0.4)
    assert table.loc["10 genes", "vs_standard_low"] == pytest.approx(0.152)
    assert table.loc["10 genes", "vs_standard_high"] == pytest.approx(0.648)
    assert table.loc["10 genes", "best_vs_standard"] == 0.5
    assert table.loc["10 genes", "best_vs_random"] == 0.85  # both scores of the run best
    assert table.loc["64 genes", "vs_standard_low"] == pytest.approx(0.2)
    assert table.loc["standard", "vs_standard_low"] == 0.49
    assert table.loc["64 genes", "runs"] == 3
