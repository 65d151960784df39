"""The `mctslab othello` verbs and the experiment plumbing (scales, task functions)."""

import json

import numpy as np
import pytest

from mctslab.cli import main
from mctslab.othello import experiments, wpc


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
    with pytest.raises(ValueError, match="unknown parameter.*generations"):
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
