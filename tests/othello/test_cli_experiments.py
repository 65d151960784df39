"""The `mctslab othello` verbs and the experiment plumbing (scales, task functions)."""

import json

import numpy as np
import pytest

from mctslab.cli import main
from mctslab.othello import experiments, wpc
from mctslab.othello.learning import LearningConfig


def test_perft_verb_prints_the_leaf_count(capsys):
    assert main(["othello", "perft", "5"]) == 0
    assert "perft(5) = 1396" in capsys.readouterr().out


def test_match_verb_with_a_wpc_file(tmp_path, capsys):
    path = tmp_path / "lr.json"
    path.write_text(json.dumps(wpc.LUCAS_RUNARSSON_2006.tolist()))
    assert main(["othello", "match", "--black", str(path), "--white", "standard", "--games", "200",
                 "--seed", "3", "--swap"]) == 0
    out = capsys.readouterr().out
    assert "200 games (colours alternating)" in out
    assert "score of lr.json" in out and "95% interval" in out


def test_match_verb_names_a_malformed_file(tmp_path, capsys):
    path = tmp_path / "bad.wpc"
    path.write_text("0.1 0.2 oops")
    assert main(["othello", "match", "--black", str(path), "--white", "random"]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "'oops' is not a number" in err


def test_learn_verb_writes_history_and_final_wpcs(tmp_path, capsys):
    assert main(["othello", "learn", "--mode", "group", "--scale", "smoke", "--seed", "4",
                 "--out", str(tmp_path)]) == 0
    folder = tmp_path / "data" / "results" / "othello_learn_group_smoke" / "seed-4"
    history = json.loads((folder / "history.json").read_text())
    finals = json.loads((folder / "final_wpcs.json").read_text())
    assert history["mode"] == "group" and history["games"] > 0
    assert len(finals) == len(history["final_members"]) - sum(
        m["variables"] is None for m in history["final_members"])
    for final in finals:  # each written WPC file reads back as the same WPC
        name = final["name"].replace(" ", "_")
        assert np.allclose(wpc.load_wpc(folder / f"{name}.wpc"), wpc.expand(final["variables"]),
                           atol=1e-6)


def test_config_scales_and_errors():
    paper = experiments.config("paper")
    assert (paper.population_size, paper.max_generations, paper.iterations) == (20, 100, 200)
    assert paper.n_matches * paper.games_per_match == 500 and paper.final_games == 100_000
    assert experiments.config("default", repetitions=None).repetitions >= 2
    with pytest.raises(ValueError, match="unknown scale 'huge'"):
        experiments.config("huge")
    with pytest.raises(ValueError, match="unknown Othello parameter.*generations"):
        experiments.config("smoke", generations=3)
    with pytest.raises(ValueError, match="population_size must be at least 4"):
        experiments.config("smoke", population_size=2)


def test_task_functions_are_reproducible():
    seed = np.random.SeedSequence(8)
    params = dict(weights=wpc.STANDARD_VARIABLES.tolist(), games=300, epsilon=0.1)
    first = experiments.evaluation_task(params, seed)
    assert first == experiments.evaluation_task(params, np.random.SeedSequence(8))
    assert sum(first.values()) == 300
    robin = experiments.round_robin_task(
        dict(members=[None, wpc.STANDARD_VARIABLES.tolist(), [0.5] * 10], games_per_pair=20,
             epsilon=0.1), seed)
    scores = np.array(robin["scores"])
    assert scores.shape == (3, 3) and np.allclose(scores + scores.T, 1 - np.eye(3))
    assert scores[1, 0] > 0.5  # the standard WPC beats the random player


# -- every constant the paper states is a notebook parameter that reaches the learning runs -----

CHANGED = dict(scale_factor=0.8, crossover_rate=0.3, lower=-2.0, upper=0.5, epsilon=0.2, alpha=0.0,
               replace_threshold=0.99, k_factor=16.0, start_rating=1400.0, join_rating=1200.0,
               elo_reading="rederive")
# The keys the learning tasks had before the paper constants became parameters: with every
# constant at the paper's value the task ids (and the results stored under them) stay the same.
LEGACY_KEYS = {"mode", "population_size", "max_generations", "iterations", "n_matches",
               "games_per_match", "games_per_member", "max_group", "eval_games", "epsilon"}


def test_paper_constants_are_the_learning_defaults_and_keep_task_params():
    assert set(CHANGED) == set(experiments.PAPER_CONSTANTS)
    for scale in experiments.SCALES:
        cfg = experiments.config(scale)
        for name, value in experiments.PAPER_CONSTANTS.items():
            assert getattr(cfg, name) == value == getattr(LearningConfig(), name)
        for mode in ("individual", "group"):
            assert set(cfg.learning_params(mode)) == LEGACY_KEYS
    # the paper's value given explicitly, or as an int literal, is the same run
    explicit = experiments.config("smoke", alpha=1.3, k_factor=32, start_rating=1500)
    assert explicit.learning_params("group") == experiments.config("smoke").learning_params("group")
    assert isinstance(explicit.k_factor, float)
    assert (experiments.config("smoke", alpha=1).learning_params("individual")
            == experiments.config("smoke", alpha=1.0).learning_params("individual"))


@pytest.mark.parametrize("name", sorted(CHANGED))
def test_each_constant_reaches_the_learning_run(name):
    cfg = experiments.config("smoke", **{name: CHANGED[name]})
    mode = ("group" if name in ("k_factor", "start_rating", "join_rating", "elo_reading")
            else "individual")
    assert getattr(LearningConfig.from_params(cfg.learning_params(mode)), name) == CHANGED[name]
    # ... and changes what a (tiny) run computes, with the same seed
    tiny = dict(population_size=4, max_generations=2, iterations=2, n_matches=2, games_per_match=4,
                games_per_member=4, eval_games=0)
    if name == "elo_reading":  # a reading of the league: make sure leagues happen
        tiny["join_rating"] = 1200.0
    base = experiments.config("smoke", **tiny).learning_params(mode)
    changed = experiments.config("smoke", **tiny, **{name: CHANGED[name]}).learning_params(mode)
    first = experiments.learning_task(base, np.random.SeedSequence(5))
    second = experiments.learning_task(changed, np.random.SeedSequence(5))
    assert (first["generations"], first["events"]) != (second["generations"], second["events"])


@pytest.mark.parametrize("name, value, message", [
    ("scale_factor", 0.0, "scale_factor must be > 0"),
    ("crossover_rate", 1.5, r"crossover_rate must be in \[0, 1\]"),
    ("lower", 2.0, r"lower \(2.0\) must be below upper \(1.0\)"),
    ("upper", float("nan"), "upper must be a finite number"),
    ("epsilon", -0.1, r"epsilon must be in \[0, 1\]"),
    ("alpha", "1.3", "alpha must be a finite number, got '1.3'"),
    ("replace_threshold", 1.0, r"replace_threshold must be in \[0, 1\)"),
    ("k_factor", 0, "k_factor must be > 0"),
    ("start_rating", True, "start_rating must be a finite number"),
    ("join_rating", float("inf"), "join_rating must be a finite number"),
    ("elo_reading", "reset", "elo_reading must be one of keep, rederive"),
    ("n_matches", 0, "n_matches must be a positive integer"),
    ("games_per_match", 2.5, "games_per_match must be a positive integer"),
    ("games_per_member", -1, "games_per_member must be a positive integer"),
    ("max_group", 0, "max_group must be a positive integer"),
    ("eval_games", -5, "eval_games must be an integer >= 0"),
    ("final_games", 0, "final_games must be a positive integer"),
    ("round_robin_games", "many", "round_robin_games must be a positive integer"),
    ("repetitions", 1.0, "repetitions must be a positive integer"),
])
def test_config_names_a_bad_value(name, value, message):
    with pytest.raises(ValueError, match=message):
        experiments.config("smoke", **{name: value})
