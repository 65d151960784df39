"""Fitness kernels for DE learning (paper Sec. 4.1 Eq. 5 and Sec. 5.1 Eq. 6-8): one call per generation.

* :func:`individual_scores` plays every individual of a population against the single
  opponent: ``n_matches`` (S) matches of ``games_per_match`` (N) games, colours
  alternating, and returns the S match scores of each individual; Python forms
  ``score - alpha * sigma`` (Eq. 5) from them.
* :func:`group_ratings` rates every individual against the group G: starting from
  ``start_rating`` it plays N games against each member in turn and its Elo rating is
  updated after every game (Eq. 6-7) against the member's current rating, which stays
  fixed while candidates are rated (the group is re-rated only by :func:`league`).
* :func:`league` plays N games between every pair of players (the best individual
  and the members, Sec. 5.2 step 6) and updates both ratings after every game.

Players are row tables ``int64[8, 256]`` (see :mod:`mctslab.othello._players`);
populations stack them as ``int64[n, 8, 256]``. Every game draws from the one explicit
RNG state, so the same state in gives the same fitness out.
"""

from __future__ import annotations

import numpy as np

from mctslab.core.jit import njit
from mctslab.core.stats import elo_update
from mctslab.othello._players import play_game, play_match


@njit(cache=True)
def individual_scores(population, opponent, opponent_random, n_matches, games_per_match,
                      epsilon, rng):
    """``float64[n, S]``: score (wins + draws / 2) / N of each individual in each match."""
    n_individuals = population.shape[0]
    scores = np.empty((n_individuals, n_matches), dtype=np.float64)
    for i in range(n_individuals):
        for match in range(n_matches):
            outcome = play_match(population[i], False, opponent, opponent_random, epsilon,
                                 games_per_match, rng)
            scores[i, match] = (outcome[0] + 0.5 * outcome[1]) / games_per_match
    return scores


@njit(cache=True)
def _game_score(tables_a, random_a, tables_b, random_b, a_is_black, epsilon, rng):
    """A's score in one game (1 win, 0.5 draw, 0 loss)."""
    if a_is_black:
        a_minus_b = play_game(tables_a, random_a, tables_b, random_b, epsilon, rng)
    else:
        a_minus_b = -play_game(tables_b, random_b, tables_a, random_a, epsilon, rng)
    if a_minus_b > 0:
        return 1.0
    if a_minus_b == 0:
        return 0.5
    return 0.0


@njit(cache=True)
def group_ratings(population, members, members_random, member_ratings, games_per_member,
                  start_rating, k_factor, epsilon, rng):
    """Elo rating of each individual against the group, and its score against each member.

    Returns ``(float64[n], float64[n, |G|])``. Candidate Black in the even-numbered games.
    """
    n_individuals = population.shape[0]
    n_members = members.shape[0]
    ratings = np.empty(n_individuals, dtype=np.float64)
    scores = np.zeros((n_individuals, n_members), dtype=np.float64)
    for i in range(n_individuals):
        rating = start_rating
        for m in range(n_members):
            for game in range(games_per_member):
                score = _game_score(population[i], False, members[m], members_random[m],
                                    game % 2 == 0, epsilon, rng)
                rating = elo_update(rating, member_ratings[m], score, k_factor)
                scores[i, m] += score
            scores[i, m] /= games_per_member
        ratings[i] = rating
    return ratings, scores


@njit(cache=True)
def league(players, players_random, ratings, games_per_pair, k_factor, epsilon, rng):
    """Round robin of N games per pair; ``ratings`` updated in place after every game.

    Returns ``float64[n, n]``: the score of row against column (diagonal 0).
    """
    n_players = players.shape[0]
    scores = np.zeros((n_players, n_players), dtype=np.float64)
    for a in range(n_players):
        for b in range(a + 1, n_players):
            for game in range(games_per_pair):
                score = _game_score(players[a], players_random[a], players[b], players_random[b],
                                    game % 2 == 0, epsilon, rng)
                rating_a = ratings[a]
                ratings[a] = elo_update(rating_a, ratings[b], score, k_factor)
                ratings[b] = elo_update(ratings[b], rating_a, 1.0 - score, k_factor)
                scores[a, b] += score
            scores[a, b] /= games_per_pair
            scores[b, a] = 1.0 - scores[a, b]
    return scores
