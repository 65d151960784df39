"""Othello: bitboard engine, 1-ply WPC players and DE individual / group learning.

Companion to the paper on learning WPC evaluation functions for Othello with
differential evolution (notebook ``othello_wpc_de``). Modules:

* ``_bitops``, ``_board`` - bitboard rules and perft (numba); ``_players`` - random and
  epsilon-greedy 1-ply WPC players, games and matches; ``_de`` - a generation's fitness.
* ``wpc`` - WPC layout (10 variables a..j), the standard WPC, published WPCs, WPC files.
* ``api`` - validated Python entry points; ``learning`` - DE/rand/1/bin, individual and
  group learning; ``experiments`` (+ ``tables``, ``figures``) - the paper's protocol;
  ``beyond`` - the runs beyond the paper (learner sizes, fixed references, Elo readings);
  ``claims`` - every change and every final group member as tables, Fig. 7's and Table 4's
  claims judged from them (runs as units) and from a record's tables (``record_rows``).
* ``reference`` - the plain-Python twin used by the tests; ``bench``, ``cli``.
"""

import numpy as np

from mctslab.core.warmup import compile_once
from mctslab.othello import _de
from mctslab.othello.api import MatchResult, Player, match, perft, player
from mctslab.othello.learning import LearningConfig, learn, population_tables
from mctslab.othello.wpc import STANDARD_WPC, load_wpc
from mctslab.rng import seed_state

__all__ = ["MatchResult", "Player", "match", "perft", "player", "LearningConfig", "learn",
           "STANDARD_WPC", "load_wpc", "warmup"]


@compile_once
def warmup() -> None:
    """Compile (or load from numba's cache) every Othello kernel on tiny inputs, once per
    process (``compile_once``)."""
    perft(2)
    match("standard", "random", games=2, seed=0)
    match("standard", "random", games=1, seed=0, alternate=False)
    population = population_tables(np.zeros((2, 10)))
    rng = seed_state(0)
    _de.individual_scores(population, population[0], True, 1, 1, 0.1, rng)
    _de.group_ratings(population, population, np.array([True, False]), np.full(2, 1500.0), 1,
                      1500.0, 32.0, 0.1, rng)
    _de.league(population, np.array([True, False]), np.full(2, 1500.0), 1, 32.0, 0.1, rng)
