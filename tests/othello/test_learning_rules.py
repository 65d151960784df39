"""The learning rules of Sec. 4.2 and 5.2, checked step by step against the recorded history.

Each learning test wraps the fitness kernels (``individual_scores``, ``group_ratings``,
``league``) in a spy that passes their real results through and records what they were
given and returned. The test then replays the paper's algorithm on those results in
plain Python (``t = 1`` after initialisation, ``t += 1`` after each generation, the
replacement / join test once ``t > Tmax / 2``, failure once ``t > Tmax``) and demands
that ``learning.learn`` produced the same generation rows, events, opponents, group and
game counts. Small configurations (a handful of games per fitness) keep each run well
under a second; each test also asserts that its run exercised the branch it checks.
"""

import math

import numpy as np
import pytest
from scipy import stats

from mctslab.core.stats import elo_update
from mctslab.othello import learning, wpc
from mctslab.othello._board import START_BLACK, START_WHITE, legal_moves
from mctslab.othello._players import choose_move
from mctslab.othello.learning import LearningConfig, learn, population_tables
from mctslab.rng import seed_state


class _Spy:
    """Calls ``kernel`` and records copies of its arguments and results."""

    def __init__(self, kernel, names):
        self.kernel, self.names, self.calls = kernel, names, []

    def __call__(self, *args):
        before = [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]
        result = self.kernel(*args)
        record = dict(zip(self.names, before))
        # Copies: the learning code updates the arrays it is handed back in place.
        record["result"] = (tuple(np.copy(r) for r in result) if isinstance(result, tuple)
                            else np.copy(result))
        record["args_after"] = args  # league updates its ratings argument in place
        self.calls.append(record)
        return result


def _rows_as_tuples(rows):
    return list(zip(rows["games"], rows["iteration"], rows["generation"], rows["best"],
                    rows["best_score"]))


def _assert_rows_equal(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g[:3] == w[:3]
        assert g[3] == pytest.approx(w[3], abs=1e-6) and g[4] == pytest.approx(w[4], abs=1e-6)


# ---------------------------------------------------------------- individual learning


def _fitness(scores, alpha):
    # Eq. 5 by hand: mean of the S match scores minus alpha times their population sd.
    mean = scores.mean(axis=1)
    sd = np.sqrt(((scores - mean[:, None]) ** 2).mean(axis=1))
    return mean - alpha * sd


def _survivors(parents, children):
    """DE selection, replayed: each child replaces its parent when its value (fitness or
    rating) is strictly higher. ``(tables, value, score)`` of the survivors, and the best's
    index."""
    (tables, value, score), (child_tables, child_value, child_score) = parents, children
    better = child_value > value
    value = np.where(better, child_value, value)
    return (np.where(better[:, None, None], child_tables, tables), value,
            np.where(better, child_score, score), int(np.argmax(value)))


def test_individual_learning_follows_steps_1_to_9(monkeypatch):
    # Tmax = 5 is odd so that "t > Tmax / 2" is not the same as "generation >= Tmax / 2".
    cfg = LearningConfig(mode="individual", population_size=4, max_generations=5, iterations=12,
                         n_matches=3, games_per_match=4, replace_threshold=0.55, eval_games=10)
    spy = _Spy(learning.individual_scores, ["population", "opponent", "opponent_random",
                                            "n_matches", "games_per_match", "epsilon", "rng"])
    monkeypatch.setattr(learning, "individual_scores", spy)
    result = learn(cfg, 0)

    calls = iter(spy.calls)
    games = 0
    opponent, opponent_random = np.zeros((8, 256), dtype=np.int64), True
    rows, events = [], []
    early_exceed = fail_after_replace = False

    def evaluate():
        nonlocal games
        call = next(calls)
        # The learner always plays the current opponent (step 3), also after a failed iteration.
        assert call["opponent_random"] == opponent_random
        assert np.array_equal(call["opponent"], opponent)
        assert (call["n_matches"], call["games_per_match"]) == (cfg.n_matches, cfg.games_per_match)
        games += call["population"].shape[0] * cfg.n_matches * cfg.games_per_match
        return call["population"], _fitness(call["result"], cfg.alpha), call["result"].mean(axis=1)

    for k in range(1, cfg.iterations + 1):
        tables, fitness, score = evaluate()  # steps 2-3
        t = 1
        while True:
            # step 4, then step 5: strictly fitter children survive
            tables, fitness, score, best = _survivors((tables, fitness, score), evaluate())
            rows.append((games, k, t, fitness[best], score[best]))
            t += 1  # step 6
            if t <= cfg.max_generations / 2:
                early_exceed |= bool(fitness[best] > cfg.replace_threshold)
                continue
            if fitness[best] > cfg.replace_threshold:  # step 7: replace the opponent, back to 2
                events.append(("replace", games, k, t - 1, fitness[best], score[best], tables[best]))
                opponent, opponent_random = tables[best], False
                break
            if t > cfg.max_generations:  # step 8: this iteration failed
                events.append(("fail", games, k, cfg.max_generations, fitness.max(), None, None))
                fail_after_replace |= not opponent_random
                break
    assert next(calls, None) is None  # no fitness evaluation beyond the algorithm's

    _assert_rows_equal(_rows_as_tuples(result["generations"]), rows)
    assert len(result["events"]) == len(events)
    for got, (kind, at_games, k, generation, fitness, score, best_tables) in zip(
            result["events"], events):
        assert (got["kind"], got["games"], got["iteration"], got["generation"]) == (
            kind, at_games, k, generation)
        assert got["fitness"] == pytest.approx(fitness)
        if kind == "replace":
            assert got["fitness"] > cfg.replace_threshold
            assert got["score_vs_opponent"] == pytest.approx(score)
            # The recorded WPC is the new opponent, up to its rounding to 6 decimals in the
            # record (at most 8 weights of 2**32 * 5e-7 each per table entry).
            recorded = population_tables(np.array(got["variables"])[None])[0]
            assert np.abs(recorded - best_tables).max() <= 8 * 2**32 * 1e-6
    # Every game is counted: NP S N per population, initial population included.
    per_population = cfg.population_size * cfg.n_matches * cfg.games_per_match
    assert result["games"] == games == per_population * (cfg.iterations + len(rows))
    replaces = sum(e[0] == "replace" for e in events)
    # at each replacement: eval_games against the standard WPC, and as many fresh games
    # against the replaced opponent
    assert result["evaluation_games"] == 2 * cfg.eval_games * replaces
    # The run exercised every branch: an early best above the threshold that did not
    # replace, replacements, and a failed iteration against a learned opponent.
    assert early_exceed and replaces >= 2 and fail_after_replace


# ---------------------------------------------------------------- group learning


def _elo_against_group(member_ratings, scores, start_rating, k_factor):
    # One game per member (N = 1): the rating after each game against the member's fixed rating.
    rating = start_rating
    for member_rating, score in zip(member_ratings, scores):
        rating = elo_update(rating, member_rating, score, k_factor)
    return rating


def _elo_league(ratings, scores, k_factor):
    # One game per pair (N = 1), pairs (a, b), a < b, in order; both updated after the game.
    ratings = list(ratings)
    for a in range(len(ratings)):
        for b in range(a + 1, len(ratings)):
            rating_a = ratings[a]
            ratings[a] = elo_update(rating_a, ratings[b], scores[a, b], k_factor)
            ratings[b] = elo_update(ratings[b], rating_a, 1.0 - scores[a, b], k_factor)
    return np.array(ratings)


def _league_step(call, members, newcomer_tables, newcomer_rating, newcomer_id, cfg):
    # Step 6: the league among the members and the newcomer, checked against its recorded
    # scores; returns the group after the league and the id of the member who left (or None).
    assert np.array_equal(call["players"][:-1], np.stack([m["tables"] for m in members]))
    # The newcomer is the best individual, as its variables rounded to 6 decimals
    # (at most 8 weights of 2**32 * 5e-7 each per table entry).
    assert np.abs(call["players"][-1] - newcomer_tables).max() <= 8 * 2**32 * 1e-6
    assert np.allclose(call["ratings"], [m["rating"] for m in members] + [newcomer_rating])
    assert (call["games_per_pair"], call["k_factor"]) == (1, cfg.k_factor)
    after = _elo_league(call["ratings"], call["result"], cfg.k_factor)
    assert np.allclose(call["args_after"][2], after, atol=1e-9)
    newcomer = {"id": newcomer_id, "tables": call["players"][-1], "random": False,
                "rating": newcomer_rating}
    candidates = members + [newcomer]
    for m, r in zip(candidates, after):
        m["rating"] = float(r)
    left = None
    if len(candidates) > cfg.max_group:  # the lowest-rated player leaves
        left = candidates.pop(int(np.argmin(after)))["id"]
    return candidates, left


def _assert_events_equal(got_events, events, cfg):
    # The run's join / fail events against the replay's, field by field.
    assert len(got_events) == len(events)
    for got, want in zip(got_events, events):
        assert (got["kind"], got["games"], got["iteration"], got["generation"]) == want[:4]
        if want[0] == "fail":
            assert got["rating"] == pytest.approx(want[4])
            continue
        assert got["fitness"] == pytest.approx(want[4]) and got["fitness"] > cfg.join_rating
        assert (got["newcomer"], got["left"]) == want[5:7]
        assert len(got["group"]) <= cfg.max_group
        assert [i for i, _ in got["group"]] == [i for i, _ in want[7]]
        assert np.allclose([r for _, r in got["group"]], [r for _, r in want[7]], atol=1e-3)


def test_group_learning_follows_steps_1_to_8(monkeypatch):
    # N = 1 game per member / pair makes each Elo update recoverable from the recorded
    # scores. K and the start rating differ from the defaults to show they are the ones used.
    # join_rating = start + 10 < start + K / 2 (one win against the random player) so the
    # first join is possible, Gmax = 4 so that members leave; this seed also has failures.
    cfg = LearningConfig(mode="group", population_size=4, max_generations=4, iterations=20,
                         games_per_member=1, k_factor=24.0, start_rating=1400.0,
                         join_rating=1410.0, max_group=4, eval_games=10)
    rating_spy = _Spy(learning.group_ratings, ["population", "members", "members_random",
                                               "member_ratings", "games_per_member",
                                               "start_rating", "k_factor", "epsilon", "rng"])
    league_spy = _Spy(learning.league, ["players", "players_random", "ratings", "games_per_pair",
                                        "k_factor", "epsilon", "rng"])
    monkeypatch.setattr(learning, "group_ratings", rating_spy)
    monkeypatch.setattr(learning, "league", league_spy)
    result = learn(cfg, 2)

    rating_calls, league_calls = iter(rating_spy.calls), iter(league_spy.calls)
    # Step 1: G = {random player rated start_rating}.
    members = [{"id": 0, "tables": np.zeros((8, 256), dtype=np.int64), "random": True,
                "rating": cfg.start_rating}]
    next_id, games = 1, 0
    rows, events = [], []
    early_exceed = fail_with_members = False

    def evaluate():
        nonlocal games
        call = next(rating_calls)
        assert np.array_equal(call["members"], np.stack([m["tables"] for m in members]))
        assert list(call["members_random"]) == [m["random"] for m in members]
        assert np.allclose(call["member_ratings"], [m["rating"] for m in members])
        assert (call["start_rating"], call["k_factor"]) == (cfg.start_rating, cfg.k_factor)
        ratings, scores = call["result"]
        assert set(np.unique(scores)) <= {0.0, 0.5, 1.0}  # one game per member
        for i in range(len(ratings)):
            assert ratings[i] == pytest.approx(_elo_against_group(
                call["member_ratings"], scores[i], cfg.start_rating, cfg.k_factor), abs=1e-9)
        games += len(ratings) * cfg.games_per_member * len(members)
        return call["population"], ratings.copy(), scores.mean(axis=1)

    for k in range(1, cfg.iterations + 1):
        tables, rating, score = evaluate()  # step 2
        t = 1
        while True:
            # step 3, then the higher-rated of parent and child survives
            tables, rating, score, best = _survivors((tables, rating, score), evaluate())
            rows.append((games, k, t, rating[best], score[best]))
            t += 1  # step 5
            if t <= cfg.max_generations / 2:
                early_exceed |= bool(rating[best] > cfg.join_rating)
                continue
            if rating[best] > cfg.join_rating:  # step 6: league among best + members
                games += cfg.games_per_member * math.comb(len(members) + 1, 2)
                members, left = _league_step(next(league_calls), members, tables[best],
                                             rating[best], next_id, cfg)
                events.append(("join", games, k, t - 1, rating[best], next_id, left,
                               [[m["id"], round(m["rating"], 3)] for m in members]))
                next_id += 1
                break
            if t > cfg.max_generations:  # step 7: failed; G is kept as it is
                events.append(("fail", games, k, cfg.max_generations, rating.max()))
                fail_with_members |= len(members) > 1
                break
    assert next(rating_calls, None) is None and next(league_calls, None) is None

    _assert_rows_equal(_rows_as_tuples(result["generations"]), rows)
    _assert_events_equal(result["events"], events, cfg)
    joins = [e for e in result["events"] if e["kind"] == "join"]
    assert result["games"] == games
    assert result["evaluation_games"] == cfg.eval_games * sum(
        (e["top"] is not None) + 1 for e in joins)
    assert [m["id"] for m in result["final_members"]] == [m["id"] for m in members]
    # The run exercised every branch.
    assert early_exceed and fail_with_members
    assert sum(e[0] == "join" and e[6] is not None for e in events) >= 2  # members left


# ---------------------------------------------------------------- 1-ply tie-breaking


def _first_move_counts(tables, draws, seed):
    """Black's first move (epsilon = 0) ``draws`` times from one RNG stream: {square: count}."""
    moves = np.uint64(legal_moves(START_BLACK, START_WHITE))  # the kernels take uint64 boards
    rng = seed_state(seed)
    counts = {}
    for _ in range(draws):
        move = int(choose_move(START_BLACK, START_WHITE, moves, tables, False, 0.0, rng))
        square = move.bit_length() - 1
        counts[square] = counts.get(square, 0) + 1
    return counts


# Black's four opening moves (index = row * 8 + col, a1 = 0): d3, c4, f5, e6.
_OPENING_MOVES = (19, 26, 37, 44)


def test_standard_wpc_breaks_the_four_opening_ties_uniformly():
    # The opening position is symmetric and so is the standard WPC: the four moves tie exactly.
    counts = _first_move_counts(wpc.row_tables(wpc.STANDARD_WPC), 4000, seed=2024)
    assert sorted(counts) == list(_OPENING_MOVES)
    observed = [counts[s] for s in _OPENING_MOVES]
    # Uniform: 1000 expected per move, sd ~27; a biased tie-break (e.g. always the first or
    # the last tie, or reservoir sampling with 1/c off by one) gives p < 1e-100.
    p_value = stats.chisquare(observed).pvalue
    assert p_value > 1e-4, (observed, p_value)


def test_tie_break_only_among_the_best_moves():
    # An asymmetric 64-weight WPC valuing only d3 and f5: they tie, c4 and e6 are worse.
    weights = np.zeros(64)
    weights[[19, 37]] = 1.0
    counts = _first_move_counts(wpc.row_tables(weights), 2000, seed=7)
    assert sorted(counts) == [19, 37]
    p_value = stats.binomtest(counts[19], 2000, 0.5).pvalue
    assert p_value > 1e-4, (counts, p_value)
