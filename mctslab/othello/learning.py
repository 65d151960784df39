"""DE/rand/1/bin learning of WPCs: individual learning (Sec. 4) and group learning (Sec. 5).

Reading guide
-------------
* An individual is the 10 variables a..j of a symmetric WPC (Fig. 2). DE/rand/1/bin
  (Sec. 3.2, Fig. 4, Eq. 4): every individual is a parent; r1, r2, r3 are distinct and
  differ from it; mutant ``m = x_r1 + F (x_r2 - x_r3)``; binomial crossover with rate
  CR, one gene always from m; the child replaces the parent only if strictly fitter.
  Left open by the paper and chosen here: F = 0.5, CR = 0.9, initial genes uniform in
  [-1, 1] and mutants reflected back into [-1, 1] at the bounds (Storn & Price's usual
  settings; a 1-ply WPC player is scale-invariant, so the box only bounds weight ratios).
* ``weights`` (beyond the paper): the genes of an individual are the paper's
  10 variables (the default), the 20 weights of a WPC with the 4 symmetries of the start
  position, or all 64 weights (:mod:`mctslab.othello.wpc`, learner sizes); the same DE,
  box and protocol. Records hold the genes as learned (10, 20 or 64 values).
* A generation's fitness evaluation is one compiled call (:mod:`mctslab.othello._de`).
* Individual learning (Sec. 4.2): fitness ``score - alpha * sigma`` over S matches of N
  games (Eq. 5, alpha = 1.3). Iteration k: a fresh population; after each generation
  t >= Tmax / 2 (steps 6-7: once t, counted from 1 after initialisation, exceeds
  Tmax / 2) the best replaces the opponent if its fitness exceeds 0.5, and a new
  iteration starts; an iteration that reaches Tmax generations fails (step 8). The
  first opponent is the random player.
* Group learning (Sec. 5.2): fitness = Elo rating (K = 32, start 1500) after N games
  against each member of G (Eq. 6-8). G starts as {random player rated 1500}. In the
  second half of an iteration, a best rated above 1600 triggers a league (N games
  between every pair of best + members, ratings updated after every game); the best
  joins G and, when G then exceeds Gmax = 10, the lowest-rated player leaves ("the
  lowest-rated player leaves the group", Sec. 5: the newcomer can be that player).
  ``elo_reading``: at a league every player keeps its rating ("keep", the default) or
  re-enters at 1500 ("rederive": with "keep" ratings inflate and 1600 stops selecting;
  docs/bench/othello.md, "Elo inflation in the paper-scale run").
  Both "after a failed iteration" branches restart with a fresh population (the
  group text says "back to 3", which would never reset t; we read it as step 2).
* Reference learning (``mode="reference"``, beyond the paper): one population
  evolves for Tmax generations against fixed opponents, ``references`` (the standard WPC,
  the random player or both), never replaced. An individual's fitness is Eq. 5 against each
  reference (S matches of N games), averaged over the references; the run ends with the
  fittest individual of the last generation (``final_variables``). Ten times in a run (and
  at the end) the fittest plays ``eval_games`` games against the standard WPC
  (``checkpoint`` events). The issue's goal is a learned WPC that beats every published one
  against the standard WPC; training against the standard WPC alone overfits it (weaker
  against the random player), so the random player can be a reference too. With
  ``reevaluate`` the parents play fresh games every generation before their children are
  compared with them (twice the games): a parent kept by one lucky fitness cannot block
  its line for the rest of the run.
* Every learning game is counted (``games``); the games that evaluate against the
  standard WPC (1,000 whenever the opponent or group changes, as in the paper) are
  counted separately (``evaluation_games``) and use their own RNG stream, so turning
  them off or on leaves the learning itself unchanged.
* At each replacement (individual learning) the new best also plays ``eval_games`` fresh
  games against the opponent it replaces, from a fourth RNG stream (``fresh_vs_opponent``,
  counted as evaluation games): its fitness games selected it (fitness > 0.5 requires
  score - 1.3 sigma > 0.5), so only fresh games test the paper's "a new best beats the
  opponent it replaced". The learning itself is unchanged.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

import numpy as np

from mctslab.core.params import finite_number, from_mapping, positive_int
from mctslab.othello import wpc as wpc_module
from mctslab.othello._de import group_ratings, individual_scores, league
from mctslab.othello._players import play_match
from mctslab.rng import seed_state

__all__ = ["LearningConfig", "de_rand_1_bin", "random_population", "population_tables",
           "fitness_from_scores", "learn", "games_per_generation", "MODES",
           "LEARNING_MODES", "REFERENCES"]

MODES = ("individual", "group")  # the paper's two kinds of learning
LEARNING_MODES = MODES + ("reference",)  # and learning against fixed references
REFERENCES = ("standard", "random")
ELO_READINGS = ("keep", "rederive")
LEARNER_SIZES = wpc_module.LEARNER_SIZES
_BITS_OF_BYTE = ((np.arange(256)[:, None] >> np.arange(8)) & 1).astype(np.int64)
_REAL_FIELDS = ("scale_factor", "crossover_rate", "lower", "upper", "epsilon", "alpha",
                "replace_threshold", "k_factor", "start_rating", "join_rating")
# What a value must satisfy to mean something (``allowed`` is quoted in the error).
_REAL_RANGES = {
    "scale_factor": (lambda v: v > 0, "> 0 (F = 0 only recombines existing genes)"),
    "crossover_rate": (lambda v: 0 <= v <= 1, "in [0, 1]"),
    "epsilon": (lambda v: 0 <= v <= 1, "in [0, 1]"),
    "alpha": (lambda v: v >= 0, ">= 0"),
    "replace_threshold": (lambda v: 0 <= v < 1, "in [0, 1) (a fitness never exceeds 1)"),
    "k_factor": (lambda v: v > 0, "> 0 (with K = 0 no rating ever moves)"),
}


@dataclass(frozen=True)
class LearningConfig:
    """All constants of one learning run; the defaults are the paper's (Tables 1-2 as stated)."""

    mode: str = "individual"
    population_size: int = 20          # NP
    max_generations: int = 100         # Tmax
    iterations: int = 200              # Kmax
    scale_factor: float = 0.5          # F (our choice; not stated)
    crossover_rate: float = 0.9        # CR (our choice; not stated)
    lower: float = -1.0                # search box for a..j (our choice; not stated)
    upper: float = 1.0
    epsilon: float = 0.1               # epsilon-greedy, both players (Sec. 2.2)
    # individual learning (Sec. 4.1): S matches of N games, S x N = 500 in the paper
    n_matches: int = 10                # S (our split of S x N = 500)
    games_per_match: int = 50          # N
    alpha: float = 1.3                 # Eq. 5
    replace_threshold: float = 0.5     # step 7
    # group learning (Sec. 5.1-5.2)
    games_per_member: int = 50         # N
    k_factor: float = 32.0             # Elo K
    start_rating: float = 1500.0
    join_rating: float = 1600.0        # step 6
    # Ratings at a league (step 6): "keep" = every player enters with its current rating (the
    # newcomer with its candidate rating; ratings inflate); "rederive" = every player
    # re-enters at start_rating, so ratings say how a player does within the group and
    # join_rating = start + 100 means "beats the group".
    elo_reading: str = "keep"
    # Genes of an individual (beyond the paper): 10 = the paper's a..j (8-fold
    # symmetric), 20 = 4-fold symmetric (the start position's symmetries), 64 = every square.
    weights: int = 10
    max_group: int = 10                # Gmax
    # reference learning (beyond the paper): the fixed opponents, a subset of REFERENCES
    references: tuple = REFERENCES
    # reference learning: re-evaluate the parents every generation, so that a parent kept by
    # one lucky fitness (S x N games are noisy) competes with its children on fresh games
    reevaluate: bool = False
    # evaluation against the standard WPC whenever the opponent / group changes (Sec. 4.3, 5.3)
    eval_games: int = 1000

    def __post_init__(self):
        if self.mode not in LEARNING_MODES:
            raise ValueError(f"unknown learning mode {self.mode!r}; "
                             f"choose one of {', '.join(LEARNING_MODES)}")
        self._check_reference_fields()
        self._check_counts()
        self._check_reals()
        if self.elo_reading not in ELO_READINGS:
            raise ValueError(f"elo_reading must be one of {', '.join(ELO_READINGS)}, "
                             f"got {self.elo_reading!r}")
        if isinstance(self.weights, bool) or self.weights not in LEARNER_SIZES:
            raise ValueError(f"weights must be one of {', '.join(map(str, LEARNER_SIZES))}, "
                             f"got {self.weights!r}")
        if not self.lower < self.upper:
            raise ValueError(f"lower ({self.lower}) must be below upper ({self.upper})")

    def _check_reference_fields(self):
        """``references`` a list of distinct names (stored as a tuple), ``reevaluate`` a bool
        for reference learning only, and reference learning's single population."""
        references = self.references
        if isinstance(references, str) or not isinstance(references, (tuple, list)):
            raise ValueError(f"references must be a list of {' and/or '.join(REFERENCES)}, "
                             f"got {references!r}")
        references = tuple(references)  # a task's JSON parameters give a list
        if (not references or len(set(references)) != len(references)
                or not all(r in REFERENCES for r in references)):
            raise ValueError(f"references must be distinct names from {', '.join(REFERENCES)}, "
                             f"got {list(references)!r}")
        object.__setattr__(self, "references", references)
        if not isinstance(self.reevaluate, bool):
            raise ValueError(f"reevaluate must be true or false, got {self.reevaluate!r}")
        if self.reevaluate and self.mode != "reference":
            raise ValueError("reevaluate applies to reference learning only (mode='reference')")
        if self.mode == "reference" and self.iterations != 1:
            raise ValueError(f"reference learning runs one population for max_generations "
                             f"generations: iterations must be 1, got {self.iterations!r}")

    def _check_counts(self):
        """The integer sizes and counts: positive, a population DE/rand/1 can draw from."""
        positive = ("population_size", "max_generations", "iterations", "n_matches",
                    "games_per_match", "games_per_member", "max_group")
        for name in positive:
            positive_int(name, getattr(self, name))
        if self.population_size < 4:
            raise ValueError(f"population_size must be at least 4 for DE/rand/1 "
                             f"(parent + 3 distinct others), got {self.population_size}")
        positive_int("eval_games", self.eval_games, minimum=0)

    def _check_reals(self):
        """The real constants: finite, and each in the range where it means something."""
        for name in _REAL_FIELDS:
            finite_number(name, getattr(self, name))
        for name, (ok, allowed) in _REAL_RANGES.items():
            if not ok(getattr(self, name)):
                raise ValueError(f"{name} must be {allowed}, got {getattr(self, name)!r}")

    @classmethod
    def from_params(cls, params: dict) -> LearningConfig:
        return from_mapping(cls, params, "learning parameter")

    @property
    def first_check(self) -> int:
        """First generation after which the replacement / joining test is made (t > Tmax / 2)."""
        return max(1, self.max_generations // 2)


def random_population(size: int, lower: float, upper: float, rng: np.random.Generator,
                      genes: int = 10) -> np.ndarray:
    """``float64[size, genes]`` uniform in the box (Fig. 4: "NP individuals generated randomly in S")."""
    return rng.uniform(lower, upper, size=(size, genes))


def de_rand_1_bin(population, scale_factor, crossover_rate, lower, upper, rng) -> np.ndarray:
    """One trial vector per parent (Eq. 4 + binomial crossover), reflected into the box."""
    size, genes = population.shape
    children = np.empty_like(population)
    for i in range(size):
        others = rng.choice(size - 1, 3, replace=False)
        r1, r2, r3 = others + (others >= i)  # skip the parent's own index
        mutant = population[r1] + scale_factor * (population[r2] - population[r3])
        take = rng.random(genes) < crossover_rate
        take[rng.integers(genes)] = True  # at least one gene from the mutant
        children[i] = np.where(take, mutant, population[i])
    # Reflect once at each bound, then clip what a very long step still leaves outside.
    children = np.where(children < lower, 2 * lower - children, children)
    children = np.where(children > upper, 2 * upper - children, children)
    return np.clip(children, lower, upper)


def population_tables(population) -> np.ndarray:
    """``int64[n, 8, 256]`` kernel row tables of a population of gene vectors (10, 20 or 64 genes)."""
    population = np.asarray(population, dtype=np.float64)
    weights = population[:, wpc_module.variable_index(population.shape[1])]
    fixed = np.rint(weights * wpc_module.FIXED_POINT_SCALE).astype(np.int64).reshape(-1, 8, 8)
    return np.ascontiguousarray(fixed @ _BITS_OF_BYTE.T)


def fitness_from_scores(scores, alpha) -> np.ndarray:
    """Eq. 5: mean match score minus alpha times its population standard deviation."""
    return scores.mean(axis=1) - alpha * scores.std(axis=1)


def _survive(population, value, score, children, child_value, child_score) -> int:
    """DE selection in place (Fig. 4): each child replaces its parent, with its value (fitness
    or rating) and score, when its value is strictly higher; the index of the best."""
    better = child_value > value
    population[better], value[better], score[better] = (
        children[better], child_value[better], child_score[better])
    return int(np.argmax(value))


def _outcome_record(outcome) -> dict:
    wins, draws, losses = (int(x) for x in outcome)
    games = wins + draws + losses
    return {"wins": wins, "draws": draws, "losses": losses,
            "score": (wins + 0.5 * draws) / games if games else None}


class _Recorder:
    """The learning history: one row per generation, one event per change or failure."""

    def __init__(self, cfg: LearningConfig, seed: np.random.SeedSequence):
        # a fourth stream for the fresh games at a replacement: spawning it last keeps the
        # first three (and so the learning and its evaluations) what they were without it
        de_seed, game_seed, eval_seed, fresh_seed = seed.spawn(4)
        self.cfg = cfg
        self.de_rng = np.random.default_rng(de_seed)
        self.game_rng = seed_state(game_seed)
        self.eval_rng = seed_state(eval_seed)
        self.fresh_rng = seed_state(fresh_seed)
        self.standard = wpc_module.row_tables(wpc_module.STANDARD_WPC)
        self.games = 0
        self.evaluation_games = 0
        self.rows = {"games": [], "iteration": [], "generation": [], "best": [], "best_score": []}
        self.events: list[dict] = []

    def row(self, iteration, generation, best, best_score) -> None:
        for key, value in (("games", self.games), ("iteration", iteration),
                           ("generation", generation), ("best", round(float(best), 6)),
                           ("best_score", round(float(best_score), 6))):
            self.rows[key].append(value)

    def vs_standard(self, variables) -> dict | None:
        if self.cfg.eval_games == 0:
            return None
        outcome = play_match(population_tables(np.asarray(variables)[None])[0], False,
                             self.standard, False, self.cfg.epsilon, self.cfg.eval_games,
                             self.eval_rng)
        self.evaluation_games += self.cfg.eval_games
        return _outcome_record(outcome)

    def vs_replaced(self, variables, opponent, opponent_random) -> dict | None:
        """``variables`` against the opponent it replaces in ``eval_games`` fresh games (their
        own RNG stream: not the fitness games that selected it)."""
        if self.cfg.eval_games == 0:
            return None
        outcome = play_match(population_tables(np.asarray(variables)[None])[0], False,
                             opponent, opponent_random, self.cfg.epsilon, self.cfg.eval_games,
                             self.fresh_rng)
        self.evaluation_games += self.cfg.eval_games
        return _outcome_record(outcome)

    def event(self, **fields) -> None:
        self.events.append({"games": self.games, **fields})


def _individual(cfg: LearningConfig, rec: _Recorder) -> dict:
    opponent = np.zeros((8, 256), dtype=np.int64)
    opponent_random = True
    opponent_variables = None
    evaluations_per_population = cfg.population_size * cfg.n_matches * cfg.games_per_match

    def evaluate(population):
        scores = individual_scores(population_tables(population), opponent, opponent_random,
                                   cfg.n_matches, cfg.games_per_match, cfg.epsilon, rec.game_rng)
        rec.games += evaluations_per_population
        return fitness_from_scores(scores, cfg.alpha), scores.mean(axis=1)

    for iteration in range(1, cfg.iterations + 1):
        population = random_population(cfg.population_size, cfg.lower, cfg.upper, rec.de_rng,
                                       cfg.weights)
        fitness, score = evaluate(population)
        replaced = False
        for generation in range(1, cfg.max_generations + 1):
            children = de_rand_1_bin(population, cfg.scale_factor, cfg.crossover_rate,
                                     cfg.lower, cfg.upper, rec.de_rng)
            child_fitness, child_score = evaluate(children)
            best = _survive(population, fitness, score, children, child_fitness, child_score)
            rec.row(iteration, generation, fitness[best], score[best])
            if generation >= cfg.first_check and fitness[best] > cfg.replace_threshold:
                opponent_variables = population[best].copy()
                rec.event(kind="replace", iteration=iteration, generation=generation,
                          fitness=float(fitness[best]), score_vs_opponent=float(score[best]),
                          variables=opponent_variables.round(6).tolist(),
                          vs_standard=rec.vs_standard(opponent_variables),
                          fresh_vs_opponent=rec.vs_replaced(opponent_variables, opponent,
                                                            opponent_random))
                opponent = population_tables(opponent_variables[None])[0]
                opponent_random = False
                replaced = True
                break
        if not replaced:
            rec.event(kind="fail", iteration=iteration, generation=cfg.max_generations,
                      fitness=float(fitness.max()))
    return {"final_variables": None if opponent_variables is None
            else opponent_variables.round(6).tolist()}


def _reference(cfg: LearningConfig, rec: _Recorder) -> dict:
    """One population against fixed opponents (see the module docstring)."""
    opponents = [(rec.standard, False) if name == "standard"
                 else (np.zeros((8, 256), dtype=np.int64), True) for name in cfg.references]
    games_per_population = (cfg.population_size * cfg.n_matches * cfg.games_per_match
                            * len(opponents))

    def evaluate(population):
        """Eq. 5 against each reference, averaged; and the mean score against each."""
        tables = population_tables(population)
        fitness = np.zeros(len(population))
        scores = np.empty((len(population), len(opponents)))
        for k, (table, is_random) in enumerate(opponents):
            match_scores = individual_scores(tables, table, is_random, cfg.n_matches,
                                             cfg.games_per_match, cfg.epsilon, rec.game_rng)
            fitness += fitness_from_scores(match_scores, cfg.alpha) / len(opponents)
            scores[:, k] = match_scores.mean(axis=1)
        rec.games += games_per_population
        return fitness, scores

    def checkpoint(generation):
        best = int(np.argmax(fitness))
        rec.event(kind="checkpoint", iteration=1, generation=generation,
                  fitness=float(fitness[best]),
                  scores=dict(zip(cfg.references, score[best].round(6).tolist())),
                  vs_standard=rec.vs_standard(population[best]))

    population = random_population(cfg.population_size, cfg.lower, cfg.upper, rec.de_rng,
                                   cfg.weights)
    fitness, score = evaluate(population)
    every = max(1, cfg.max_generations // 10)
    for generation in range(1, cfg.max_generations + 1):
        children = de_rand_1_bin(population, cfg.scale_factor, cfg.crossover_rate,
                                 cfg.lower, cfg.upper, rec.de_rng)
        if cfg.reevaluate:
            fitness, score = evaluate(population)
        child_fitness, child_score = evaluate(children)
        best = _survive(population, fitness, score, children, child_fitness, child_score)
        rec.row(1, generation, fitness[best], score[best].mean())
        if generation % every == 0 or generation == cfg.max_generations:
            checkpoint(generation)
    best = int(np.argmax(fitness))
    return {"final_variables": population[best].round(6).tolist()}


def _member_arrays(group):
    """Row tables and random flags of a group's members (a random player has no variables)."""
    tables = np.zeros((len(group), 8, 256), dtype=np.int64)
    is_random = np.array([m["variables"] is None for m in group])
    for j, m in enumerate(group):
        if m["variables"] is not None:
            tables[j] = population_tables(np.asarray(m["variables"])[None])[0]
    return tables, is_random


def _group(cfg: LearningConfig, rec: _Recorder) -> dict:
    # Member 0 is the random player (no variables); ids grow as members join.
    members = [{"id": 0, "variables": None, "rating": cfg.start_rating, "joined_games": 0}]
    next_id = 1

    def evaluate(population, group):
        """Each individual's Elo rating against the (fixed) group and its mean score."""
        tables, is_random = group
        member_ratings = np.array([m["rating"] for m in members], dtype=np.float64)
        ratings, scores = group_ratings(population_tables(population), tables, is_random,
                                        member_ratings, cfg.games_per_member, cfg.start_rating,
                                        cfg.k_factor, cfg.epsilon, rec.game_rng)
        rec.games += len(population) * cfg.games_per_member * len(members)
        return ratings, scores.mean(axis=1)

    for iteration in range(1, cfg.iterations + 1):
        group = _member_arrays(members)  # G is fixed within an iteration (it changes only at a join)
        population = random_population(cfg.population_size, cfg.lower, cfg.upper, rec.de_rng,
                                       cfg.weights)
        rating, score = evaluate(population, group)
        joined = False
        for generation in range(1, cfg.max_generations + 1):
            children = de_rand_1_bin(population, cfg.scale_factor, cfg.crossover_rate,
                                     cfg.lower, cfg.upper, rec.de_rng)
            child_rating, child_score = evaluate(children, group)
            best = _survive(population, rating, score, children, child_rating, child_score)
            rec.row(iteration, generation, rating[best], score[best])
            if generation >= cfg.first_check and rating[best] > cfg.join_rating:
                next_id = _join(cfg, rec, members, population[best], float(rating[best]), next_id,
                                iteration, generation)
                joined = True
                break
        if not joined:
            rec.event(kind="fail", iteration=iteration, generation=cfg.max_generations,
                      rating=float(rating.max()))
    return {"final_members": [dict(m, rating=round(m["rating"], 3)) for m in members]}


def _join(cfg, rec, members, variables, fitness_rating, next_id, iteration, generation) -> int:
    """Step 6: league among best + members, the best joins, the lowest-rated leaves if G is full.

    The league is played before anyone leaves, among the |G| members and the newcomer, so
    with a full group (|G| = Gmax = 10) it has Gmax + 1 = 11 players and costs
    N * C(11, 2) = 2,750 games. That is the order of step 6 as written (a league among the
    best and every member of G fixes the ratings; then, if |G| + 1 > Gmax, the lowest-rated
    leaves), and only post-league ratings can say who is lowest, the newcomer included.
    Sec. 5.3 instead puts a group update at 50..2,250 games, N * C(|G|, 2) with at most 10
    players; we read that figure as a slip (it also needs |G| to count the newcomer) and
    keep the step's order, so leagues cost 50..2,750 games here.
    """
    newcomer = {"id": next_id, "variables": variables.round(6).tolist(), "rating": fitness_rating,
                "joined_games": rec.games}
    candidates = members + [newcomer]
    tables, is_random = _member_arrays(candidates)
    if cfg.elo_reading == "rederive":  # the league alone rates everyone, from the start rating
        ratings = np.full(len(candidates), cfg.start_rating, dtype=np.float64)
    else:
        ratings = np.array([m["rating"] for m in candidates], dtype=np.float64)
    league(tables, is_random, ratings, cfg.games_per_member, cfg.k_factor, cfg.epsilon, rec.game_rng)
    rec.games += cfg.games_per_member * len(candidates) * (len(candidates) - 1) // 2
    for m, r in zip(candidates, ratings):
        m["rating"] = float(r)
    left = None
    if len(candidates) > cfg.max_group:
        left = candidates.pop(int(np.argmin(ratings)))
    members[:] = candidates
    wpc_members = [m for m in members if m["variables"] is not None]
    top = max(wpc_members, key=lambda m: m["rating"]) if wpc_members else None
    rec.event(kind="join", iteration=iteration, generation=generation, newcomer=newcomer["id"],
              fitness=fitness_rating, rating_after_league=newcomer["rating"],
              variables=newcomer["variables"], left=None if left is None else left["id"],
              group=[[m["id"], round(m["rating"], 3)] for m in members],
              top=None if top is None else top["id"],
              top_vs_standard=None if top is None else rec.vs_standard(top["variables"]),
              newcomer_vs_standard=rec.vs_standard(newcomer["variables"]))
    return next_id + 1


def learn(cfg: LearningConfig, seed) -> dict:
    """One learning experiment; a JSON-ready history (see the module docstring)."""
    if not isinstance(seed, np.random.SeedSequence):
        seed = np.random.SeedSequence(seed)
    rec = _Recorder(cfg, seed)
    start = time.perf_counter()
    final = {"individual": _individual, "group": _group, "reference": _reference}[cfg.mode](cfg, rec)
    config = dataclasses.asdict(cfg)
    for name, default in (("elo_reading", "keep"), ("weights", 10), ("reevaluate", False)):
        if config[name] == default:  # the default: the record stays what it was before the option
            del config[name]
    if cfg.mode == "reference":
        config["references"] = list(cfg.references)
    else:  # only reference learning has references: the paper's records stay as they were
        del config["references"]
    return {"mode": cfg.mode, "config": config, "games": rec.games,
            "evaluation_games": rec.evaluation_games, "seconds": round(time.perf_counter() - start, 3),
            "generations": rec.rows, "events": rec.events, **final}


def games_per_generation(cfg: LearningConfig, group_size: int = 1) -> int:
    """Learning games of one generation (individual: NP S N; reference: NP S N per reference;
    group: NP N |G|)."""
    if cfg.mode == "individual":
        return cfg.population_size * cfg.n_matches * cfg.games_per_match
    if cfg.mode == "reference":
        return (cfg.population_size * cfg.n_matches * cfg.games_per_match * len(cfg.references)
                * (2 if cfg.reevaluate else 1))
    return cfg.population_size * cfg.games_per_member * group_size
