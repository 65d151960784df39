"""Learning against fixed references (beyond the paper).

The learning test wraps ``individual_scores`` in a spy (as ``test_learning_rules`` does)
and replays the algorithm in plain Python: one population, fitness = Eq. 5 against each
reference averaged over the references, strictly fitter children survive, the opponents
never change, the run ends with the fittest of the last generation.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from mctslab.core.report import Run
from mctslab.othello import beyond, experiments, learning, tables, wpc
from mctslab.othello.learning import LearningConfig, learn, population_tables
from tests.othello.test_learning_rules import (
    _assert_rows_equal,
    _fitness,
    _rows_as_tuples,
    _Spy,
    _survivors,
)


@pytest.mark.parametrize("references, reevaluate", [
    (("standard", "random"), False), (("random",), False), (("standard", "random"), True)])
def test_reference_learning_replays_one_population_against_fixed_opponents(
        monkeypatch, references, reevaluate):
    cfg = LearningConfig(mode="reference", population_size=5, max_generations=7, iterations=1,
                         n_matches=3, games_per_match=4, eval_games=10, weights=64,
                         references=references, reevaluate=reevaluate)
    spy = _Spy(learning.individual_scores, ["population", "opponent", "opponent_random",
                                            "n_matches", "games_per_match", "epsilon", "rng"])
    monkeypatch.setattr(learning, "individual_scores", spy)
    result = learn(cfg, 4)

    standard = wpc.row_tables(wpc.STANDARD_WPC)
    calls = iter(spy.calls)
    games = 0

    def evaluate():
        nonlocal games
        fitness, score, population = 0.0, [], None
        for name in references:  # one call per reference, in the given order, never another
            call = next(calls)
            if name == "standard":
                assert not call["opponent_random"] and np.array_equal(call["opponent"], standard)
            else:
                assert call["opponent_random"]
            assert population is None or np.array_equal(call["population"], population)
            population = call["population"]
            fitness = fitness + _fitness(call["result"], cfg.alpha) / len(references)
            score.append(call["result"].mean(axis=1))
            games += population.shape[0] * cfg.n_matches * cfg.games_per_match
        return population, fitness, np.mean(score, axis=0)

    tables, fitness, score = evaluate()
    rows = []
    for t in range(1, cfg.max_generations + 1):
        if reevaluate:  # the same parents, fresh games: their new fitness is what counts
            parents = tables
            tables, fitness, score = evaluate()
            assert np.array_equal(tables, parents)
        tables, fitness, score, best = _survivors((tables, fitness, score), evaluate())
        rows.append((games, 1, t, fitness[best], score[best]))
    assert next(calls, None) is None

    _assert_rows_equal(_rows_as_tuples(result["generations"]), rows)
    final = population_tables(np.array(result["final_variables"])[None])[0]
    assert np.abs(final - tables[int(np.argmax(fitness))]).max() <= 64 * 2**32 * 1e-6
    assert len(result["final_variables"]) == 64
    per_population = cfg.population_size * cfg.n_matches * cfg.games_per_match * len(references)
    evaluations = cfg.max_generations * (2 if reevaluate else 1) + 1
    assert result["games"] == games == per_population * evaluations
    assert learning.games_per_generation(cfg) == per_population * (2 if reevaluate else 1)
    # every generation here is a checkpoint (Tmax < 10), each scored vs the standard WPC
    checkpoints = [e for e in result["events"] if e["kind"] == "checkpoint"]
    assert [e["generation"] for e in checkpoints] == list(range(1, cfg.max_generations + 1))
    assert set(checkpoints[-1]["scores"]) == set(references)
    assert result["evaluation_games"] == cfg.eval_games * len(checkpoints)
    assert result["config"]["references"] == list(references)


def test_checkpoints_are_every_tenth_and_the_last_generation():
    cfg = LearningConfig(mode="reference", population_size=4, max_generations=23, iterations=1,
                         n_matches=1, games_per_match=2, eval_games=0, references=["random"])
    result = learn(cfg, 0)
    assert [e["generation"] for e in result["events"]] == [2 * k for k in range(1, 12)] + [23]
    assert all(e["vs_standard"] is None for e in result["events"])  # eval_games = 0


def test_the_paper_modes_records_have_no_references():
    cfg = LearningConfig(mode="individual", population_size=4, max_generations=2, iterations=1,
                         n_matches=1, games_per_match=2, eval_games=0)
    assert "references" not in learn(cfg, 0)["config"]


@pytest.mark.parametrize("fields, named", [
    (dict(references=["standard", "standard"]), "references"),
    (dict(references=[]), "references"),
    (dict(references=["gnugo"]), "gnugo"),
    (dict(references="standard"), "references"),
    (dict(iterations=3), "iterations must be 1"),
    (dict(mode="fixed"), "unknown learning mode 'fixed'"),
    (dict(reevaluate=1), "reevaluate must be true or false"),
    (dict(mode="individual", iterations=2, reevaluate=True), "reference learning only"),
])
def test_bad_reference_learning_parameters_are_named(fields, named):
    with pytest.raises(ValueError, match=named):
        LearningConfig(**dict(dict(mode="reference", iterations=1), **fields))


@pytest.mark.parametrize("overrides, named", [
    (dict(reference_sets=[["standard", "foo"]]), "foo"),
    (dict(reference_sets=["standard"]), "list of reference names"),
    (dict(reference_sets=[["standard"], ["standard"]]), "distinct"),
    (dict(reference_weights=[12]), "12"),
    (dict(reference_population=3), "reference_population"),
    (dict(reference_generations=0), "reference_generations"),
    (dict(reference_reevaluate=1), "reference_reevaluate must be true or false"),
])
def test_bad_notebook_reference_parameters_are_named(overrides, named):
    with pytest.raises(ValueError, match=named):
        experiments.config("smoke", **overrides)


def test_papermill_lists_become_reference_tuples_and_task_params():
    cfg = experiments.config("default", reference_sets=[["standard"], ["random", "standard"]],
                             reference_weights=[64])
    assert cfg.reference_sets == (("standard",), ("random", "standard"))
    params = experiments.reference_learning_params(cfg, ("standard",), 64)
    assert params["references"] == ["standard"] and params["iterations"] == 1
    assert (params["population_size"], params["max_generations"]) == (
        cfg.reference_population, cfg.reference_generations)
    assert "alpha" not in params  # a paper constant enters only when changed
    assert experiments.reference_learning_params(
        experiments.config("default", alpha=1.0), ("standard",), 64)["alpha"] == 1.0
    assert experiments.config("paper").reference_sets == ()
    assert "reevaluate" not in params
    assert experiments.reference_learning_params(
        experiments.config("default", reference_reevaluate=True), ("standard",), 64)["reevaluate"]


def test_reference_learning_rows_score_both_opponents_and_resume(tmp_path):
    cfg = experiments.config("smoke", reference_sets=[["standard"], ["standard", "random"]],
                             reference_weights=[10], final_games=200)
    kwargs = dict(config=cfg, scale="smoke", seed=5, workers=1, out=tmp_path, progress=False)
    rows = beyond.run_reference_learning(Run("othello_refs", **kwargs), cfg)
    learned = rows[rows["mode"] == "reference"]
    assert list(learned["learner"]) == ["10 genes vs standard", "10 genes vs standard+random"]
    assert (learned["games_each"] == 200).all()
    for opponent in ("standard", "random"):
        assert ((learned[f"vs_{opponent}_low"] <= learned[f"vs_{opponent}"])
                & (learned[f"vs_{opponent}"] <= learned[f"vs_{opponent}_high"])).all()
    assert (rows["mode"] == "published").sum() == len(wpc.PUBLISHED_WPCS) + len(
        wpc.SYMMETRISED_WPCS)
    summary = tables.learner_sizes_summary(rows)
    assert set(summary["mode"]) == {"reference", "published"}
    # the head-to-head with Lucas & Runarsson's WPC: every learned WPC, no published one
    assert learned["vs_lucas_runarsson"].between(0, 1).all()
    assert rows.loc[rows["mode"] == "published", "vs_lucas_runarsson"].isna().all()
    assert "best_vs_lucas_runarsson" in summary
    # a second notebook run over the same store reads every task back: the same rows
    again = beyond.run_reference_learning(Run("othello_refs", **kwargs), cfg)
    pd.testing.assert_frame_equal(rows, again)
    # re-evaluated parents: the same seeds (paired runs), other tasks, their own label
    fresh = dataclasses.replace(cfg, reference_reevaluate=True)
    rows_fresh = beyond.run_reference_learning(Run("othello_refs", **kwargs), fresh)
    learned_fresh = rows_fresh[rows_fresh["mode"] == "reference"]
    assert list(learned_fresh["learner"]) == [
        "10 genes vs standard, parents re-evaluated",
        "10 genes vs standard+random, parents re-evaluated"]
    assert not np.array_equal(learned_fresh["vs_standard"], learned["vs_standard"])
    # no reference set: no rows, and the summary of none is empty
    none = beyond.run_reference_learning(None, experiments.config("paper"))
    assert none.empty and tables.learner_sizes_summary(none).empty


def test_the_head_to_head_opponent_is_lucas_and_runarssons_wpc():
    # Their WPC against itself scores 1/2 (colours alternate); against the standard WPC it
    # scores 0.546 on the 100,000-game protocol: 4,000 games tell the two opponents apart.
    weights = wpc.LUCAS_RUNARSSON_2006.tolist()
    seed = np.random.SeedSequence(11)

    def score(opponent):
        out = experiments.evaluation_task(dict(weights=weights, games=4000, epsilon=0.1,
                                               opponent=opponent), seed)
        return (out["wins"] + 0.5 * out["draws"]) / 4000

    assert abs(score("lucas_runarsson") - 0.5) < 0.03
    assert score("standard") > 0.52
    with pytest.raises(ValueError, match="opponent must be one of standard, random, "
                                         "lucas_runarsson, got 'gnugo'"):
        experiments.evaluation_task(dict(weights=weights, games=10, epsilon=0.1,
                                         opponent="gnugo"), seed)
