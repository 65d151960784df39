"""The Elo/join reading: league ratings kept ("keep") or re-derived from 1500."""

from __future__ import annotations

import numpy as np
import pytest

from mctslab.othello import learning, wpc
from mctslab.othello.learning import LearningConfig


def _league(reading, members):
    cfg = LearningConfig(mode="group", games_per_member=40, eval_games=0, max_group=10,
                         elo_reading=reading)
    rec = learning._Recorder(cfg, np.random.SeedSequence(4))
    members = [dict(m) for m in members]
    learning._join(cfg, rec, members, np.asarray(wpc.STANDARD_VARIABLES), 1650.0, 9, 1, 5)
    return members, rec


# an inflated group: the random player and a weak WPC (all corners negative) rated ~9000
INFLATED = [{"id": 0, "variables": None, "rating": 9000.0, "joined_games": 0},
            {"id": 3, "variables": [-1.0, 0.5, 0.2, 0.1, 0.5, 0.1, 0.1, 0.1, 0.1, 0.1],
             "rating": 9100.0, "joined_games": 10}]


def test_rederive_rates_the_league_from_1500_so_1600_means_beating_the_group():
    members, rec = _league("rederive", INFLATED)
    ratings = {m["id"]: m["rating"] for m in members}
    assert set(ratings) == {0, 3, 9} and rec.games == 40 * 3
    # Elo updates are zero-sum: everyone entered at 1500, so the mean stays 1500
    assert np.mean(list(ratings.values())) == pytest.approx(1500.0)
    # the standard WPC (newcomer, id 9) beats the random player and the weak WPC: top, > 1600
    assert ratings[9] == max(ratings.values()) and ratings[9] > 1600
    assert ratings[0] < 1500


def test_keep_carries_the_inflated_ratings_through_the_league():
    members, _ = _league("keep", INFLATED)
    ratings = {m["id"]: m["rating"] for m in members}
    # zero-sum from the entry ratings 9000, 9100 and the candidate's 1650
    assert sum(ratings.values()) == pytest.approx(9000 + 9100 + 1650)
    # 80 games (32 points a win) cannot undo thousands of points: the newcomer beat both (as in
    # the rederive test) and is still rated lowest, far above the 1600 join bar
    assert ratings[0] > 7000 and ratings[3] > 7000
    assert 1600 < ratings[9] < min(ratings[0], ratings[3])


def test_default_is_keep_and_a_record_without_the_option_is_unchanged():
    assert LearningConfig().elo_reading == "keep"
    tiny = dict(mode="group", population_size=4, max_generations=2, iterations=1,
                games_per_member=4, eval_games=0)
    assert "elo_reading" not in learning.learn(LearningConfig(**tiny), 1)["config"]
    changed = learning.learn(LearningConfig(**tiny, elo_reading="rederive"), 1)
    assert changed["config"]["elo_reading"] == "rederive"


def test_top_rated_member_table_reads_the_standard_wpc_protocol():
    import pandas as pd

    from mctslab.othello.experiments import Evaluated
    from mctslab.othello.tables import top_rated_vs_paper

    def row(rep, member, rating, wins, draws, losses):
        games = wins + draws + losses
        return dict(source="group", repetition=rep, member=member, rating=rating,
                    variables=[0.1] * 10, label=f"m{member}", games=games, wins=wins,
                    draws=draws, losses=losses, score=(wins + draws / 2) / games,
                    ci_low=0.0, ci_high=1.0)

    rows = pd.DataFrame([row(0, 1, 1700.0, 500, 0, 500), row(0, 2, 1800.0, 450, 100, 450),
                         row(1, 5, 1600.0, 600, 0, 400),
                         dict(row(1, 0, 9999.0, 0, 0, 10), variables=None)])  # random player
    table = top_rated_vs_paper(Evaluated(rows, [], None)).set_index("repetition")
    assert table.loc["0", "member"] == 2 and table.loc["1", "member"] == 5  # not the random one
    # per-game variance with draws: (450 + 25) / 1000 - 0.25 = 0.225; / 50 games
    assert table.loc["0", "sd_of_50_game_match"] == round((0.225 / 50) ** 0.5, 4)
    assert table.loc["1", "sd_of_50_game_match"] == round((0.24 / 50) ** 0.5, 4)
    assert table.loc["mean", "score"] == 0.55 and table.loc["0", "paper_score"] == 0.483
    assert table.loc["sd over repetitions", "score"] == round(float(np.std([0.5, 0.6], ddof=1)), 3)


def test_the_reading_enters_group_tasks_only():
    from mctslab.othello import experiments

    keep, rederive = experiments.config("smoke"), experiments.config("smoke", elo_reading="rederive")
    assert rederive.learning_params("group") == dict(keep.learning_params("group"),
                                                     elo_reading="rederive")
    assert rederive.learning_params("individual") == keep.learning_params("individual")
