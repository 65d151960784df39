"""The paper's protocol as scales, ``Config``, task functions (``*_task``) and runners
(``run_*``) of the notebook ``othello_wpc_de`` (its tables are :mod:`mctslab.othello.tables`,
its figures :mod:`mctslab.othello.figures`, its runs beyond the paper
:mod:`mctslab.othello.beyond`).

Scales
------
* ``paper``: NP = 20, Tmax = 100, Kmax = 200, S x N = 10 x 50 = 500 games per individual
  fitness, N = 50 games per group member, Gmax = 10, 1,000 games against the standard
  WPC at every opponent / group change, 100,000 games per WPC in Table 4; one
  repetition per mode, as in the paper (two learning tasks side by side on 2 cores).
* ``default``: NP = 10, Tmax = 20, Kmax = 60, S x N = 5 x 20, N = 20 per member,
  200 games per change, 10,000 games in Table 4, four repetitions per mode.
* ``smoke``: a few seconds end to end.

Every scale uses the paper's constants (and our choices where it is silent): F = 0.5,
CR = 0.9, genes in [-1, 1], epsilon = 0.1, alpha = 1.3, replacement above a fitness of 0.5,
Elo K = 32 from 1500, joining above 1600 (:class:`~mctslab.othello.learning.LearningConfig`'s
defaults). Each is a field of :class:`Config`, so the notebook can change any of them.

Beyond the paper: ``weights`` sets the learner's genes (10 = the paper's a..j,
the default; 20 = 4-fold symmetric; 64 = every square), and
:func:`~mctslab.othello.beyond.run_learner_sizes` learns with each size of
``compared_weights`` under the same protocol and scores each run's final WPC against the
standard WPC *and* against the random player. :func:`~mctslab.othello.beyond.run_elo_readings`
runs group learning under each reading of ``compared_elo_readings`` ("keep", "rederive"; see
:mod:`~mctslab.othello.learning`) with the same seeds and scores every final group against the
standard WPC, so the two readings sit side by side in one notebook run.
:func:`~mctslab.othello.beyond.run_reference_learning` learns against fixed references instead
of the paper's moving opponents (``reference_sets``: the standard WPC, the random player or both; one population
of ``reference_population`` for ``reference_generations`` generations, each size of
``reference_weights``; ``reference_reevaluate`` re-plays the parents every generation) and
scores the results as the learner sizes are scored, looking for a learned WPC above every
published one against the standard WPC.

Every (mode, repetition) learning run is one task through the executor; every final
evaluation (a WPC against the standard WPC) and every group round robin is a task too.
Task ``i`` of the learning list is (mode ``i % 2``, repetition ``i // 2``), so adding
repetitions keeps the seeds (and stored results) of the existing ones; the other experiments'
tasks have keys of their own (:func:`~mctslab.core.tasks.task_key`: a stream number, then the
WPC's label or the run's size, references and repetition).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mctslab.core.compare import protocol_config
from mctslab.core.params import config_values, non_default, positive_int
from mctslab.core.stats import score_interval
from mctslab.core.tasks import keyed_tasks, make_tasks, task_key, task_version
from mctslab.othello import learning
from mctslab.othello import wpc as wpc_module
from mctslab.othello._de import league
from mctslab.othello._players import play_match
from mctslab.othello.learning import ELO_READINGS, MODES, LearningConfig
from mctslab.rng import seed_state

__all__ = ["Config", "SCALES", "PAPER_CONSTANTS", "config", "run_learning", "run_evaluation",
           "learning_task", "evaluation_task", "round_robin_task", "Learned", "Evaluated",
           "reference_learning_params"]

SCALES = {
    "smoke": dict(population_size=6, max_generations=6, iterations=3, n_matches=2,
                  games_per_match=10, games_per_member=12, max_group=10, eval_games=100,
                  final_games=1_000, round_robin_games=20, repetitions=1,
                  compared_weights=(10, 64), compared_elo_readings=("keep", "rederive"),
                  reference_sets=(("standard", "random"),), reference_weights=(64,),
                  reference_population=6, reference_generations=4),
    "default": dict(population_size=10, max_generations=20, iterations=60, n_matches=5,
                    games_per_match=20, games_per_member=20, max_group=10, eval_games=200,
                    final_games=10_000, round_robin_games=200, repetitions=2,
                    compared_weights=(10, 64), compared_elo_readings=("keep", "rederive"),
                    reference_sets=(("standard",), ("standard", "random")),
                    reference_weights=(10, 64), reference_population=20,
                    reference_generations=100),
    "paper": dict(population_size=20, max_generations=100, iterations=200, n_matches=10,
                  games_per_match=50, games_per_member=50, max_group=10, eval_games=1_000,
                  final_games=100_000, round_robin_games=1_000, repetitions=1,
                  compared_weights=(),  # (10, 64) adds the learning's cost once more
                  # the reading other than elo_reading adds one group-learning run per repetition
                  compared_elo_readings=("keep", "rederive"),
                  # beyond the paper: () (each run costs about a paper learning run); the
                  # recorded runs give reference_sets, reference_weights and repetitions
                  reference_sets=(), reference_weights=(10, 64), reference_population=50,
                  reference_generations=1000),
}


# The constants the paper fixes (or that we chose where it is silent): the same at every scale,
# LearningConfig's defaults.
_LEARNING_DEFAULTS = {f.name: f.default for f in dataclasses.fields(LearningConfig)}
PAPER_CONSTANTS = {name: _LEARNING_DEFAULTS[name] for name in (
    "scale_factor", "crossover_rate", "lower", "upper", "epsilon", "alpha", "replace_threshold",
    "k_factor", "start_rating", "join_rating", "elo_reading")}
# Constants that entered the learning tasks' parameters before they were notebook parameters.
_ALWAYS_IN_TASK_PARAMS = ("epsilon",)
# The others enter a task's parameters only when changed (so the paper's run keeps its ids),
# and so does the learner's size (beyond the paper: the paper's 10 genes by default).
_TASK_DEFAULTS = {k: v for k, v in PAPER_CONSTANTS.items() if k not in _ALWAYS_IN_TASK_PARAMS}
_TASK_DEFAULTS["weights"] = _LEARNING_DEFAULTS["weights"]


@dataclass(frozen=True)
class Config:
    """The constants of one notebook run (see the module docstring for the scales)."""

    scale: str
    population_size: int      # NP
    max_generations: int      # Tmax
    iterations: int           # Kmax
    n_matches: int            # S (individual learning)
    games_per_match: int      # N (individual learning)
    games_per_member: int     # N (group learning: games against each member, and per league pair)
    max_group: int            # Gmax
    eval_games: int           # games against the standard WPC at each opponent / group change
    final_games: int          # games per WPC against the standard WPC in Table 4
    round_robin_games: int    # games per pair in the final round robin of each group (Table 3)
    repetitions: int          # independent learning runs per mode
    compared_weights: tuple   # learner sizes run by run_learner_sizes (beyond the paper)
    compared_elo_readings: tuple  # Elo/join readings run by run_elo_readings (beyond the paper)
    reference_sets: tuple     # reference learning (beyond the paper): sets of fixed opponents
    reference_weights: tuple  # reference learning: learner sizes
    reference_population: int  # reference learning: NP
    reference_generations: int  # reference learning: generations of its one population
    scale_factor: float = PAPER_CONSTANTS["scale_factor"]        # DE F (our choice)
    crossover_rate: float = PAPER_CONSTANTS["crossover_rate"]    # DE CR (our choice)
    lower: float = PAPER_CONSTANTS["lower"]                      # gene bounds (our choice)
    upper: float = PAPER_CONSTANTS["upper"]
    epsilon: float = PAPER_CONSTANTS["epsilon"]                  # epsilon-greedy, every player
    alpha: float = PAPER_CONSTANTS["alpha"]                      # Eq. 5
    replace_threshold: float = PAPER_CONSTANTS["replace_threshold"]  # individual step 7
    k_factor: float = PAPER_CONSTANTS["k_factor"]                # Elo K
    start_rating: float = PAPER_CONSTANTS["start_rating"]        # Elo start rating
    join_rating: float = PAPER_CONSTANTS["join_rating"]          # group step 6
    elo_reading: str = PAPER_CONSTANTS["elo_reading"]            # league ratings: keep | rederive
    weights: int = _LEARNING_DEFAULTS["weights"]                 # genes: 10 (paper) | 20 | 64
    reference_reevaluate: bool = _LEARNING_DEFAULTS["reevaluate"]  # reference learning: fresh parents

    def protocol(self) -> Config:
        """The configuration whose protocol constants the paper's ``config`` targets judge
        (:func:`mctslab.core.compare.protocol_config`): this one at paper scale, else
        ``config("paper")``; the tables read it here, so they need not import this module."""
        return protocol_config(self, config)

    def learning_params(self, mode: str) -> dict:
        """The :class:`LearningConfig` fields of ``mode`` (a task's parameters).

        A paper constant enters only when it differs from LearningConfig's default (which is
        then used): the same run keeps the task id (and stored result) it had before the
        constant became a notebook parameter.
        """
        params = dict(mode=mode, population_size=self.population_size,
                      max_generations=self.max_generations, iterations=self.iterations,
                      n_matches=self.n_matches, games_per_match=self.games_per_match,
                      games_per_member=self.games_per_member, max_group=self.max_group,
                      eval_games=self.eval_games, epsilon=self.epsilon)
        params.update(non_default(self, _TASK_DEFAULTS))
        if mode != "group":  # a reading of group learning's leagues only: individual runs are shared
            params.pop("elo_reading", None)
        return params


def config(scale: str = "default", **overrides) -> Config:
    """The configuration of ``scale``; an override of ``None`` keeps the scale's value.

    Raises ``ValueError`` naming an unknown scale or parameter, or a parameter with a bad value.
    """
    values = config_values(Config, SCALES, scale, overrides, what="Othello parameter",
                           base=PAPER_CONSTANTS, reals=PAPER_CONSTANTS)  # alpha=1 is alpha=1.0
    if isinstance(values["reference_sets"], tuple):  # papermill gives [["standard"], ...]
        values["reference_sets"] = tuple(_as_tuple(refs) for refs in values["reference_sets"])
    cfg = Config(scale=scale, **values)
    for mode in MODES:
        LearningConfig(**cfg.learning_params(mode))  # validates every field, naming the bad one
    for name in ("repetitions", "final_games", "round_robin_games", "reference_population",
                 "reference_generations"):
        positive_int(name, getattr(cfg, name))
    if not isinstance(cfg.compared_weights, tuple) or len(set(cfg.compared_weights)) != len(
            cfg.compared_weights):
        raise ValueError(f"compared_weights must be a tuple of distinct learner sizes, "
                         f"got {cfg.compared_weights!r}")
    for size in cfg.compared_weights:
        LearningConfig(weights=size)  # names a size that is not 10, 20 or 64
    _check_reference_learning(cfg)
    readings = cfg.compared_elo_readings
    if (not isinstance(readings, tuple) or not all(r in ELO_READINGS for r in readings)
            or len(set(readings)) != len(readings)):
        raise ValueError(f"compared_elo_readings must be a tuple of distinct readings from "
                         f"{', '.join(ELO_READINGS)}, got {readings!r}")
    return cfg


def _check_reference_learning(cfg: Config) -> None:
    """Raise ``ValueError`` unless the reference-learning parameters of ``cfg`` (a flag, the
    reference sets and the learner sizes) make a valid :class:`LearningConfig` for every pair."""
    if not isinstance(cfg.reference_reevaluate, bool):
        raise ValueError(f"reference_reevaluate must be true or false, "
                         f"got {cfg.reference_reevaluate!r}")
    sets = cfg.reference_sets
    if not isinstance(sets, tuple) or len(set(map(_as_tuple, sets))) != len(sets):
        raise ValueError(f"reference_sets must be a tuple of distinct reference lists, got {sets!r}")
    if not isinstance(cfg.reference_weights, tuple) or len(set(cfg.reference_weights)) != len(
            cfg.reference_weights):
        raise ValueError(f"reference_weights must be a tuple of distinct learner sizes, "
                         f"got {cfg.reference_weights!r}")
    for refs in sets:
        for size in cfg.reference_weights:
            try:
                LearningConfig(**reference_learning_params(cfg, _as_tuple(refs), size))
            except ValueError as error:
                raise ValueError(f"reference learning (population_size is reference_population, "
                                 f"max_generations is reference_generations): {error}") from error


def _as_tuple(value):
    """A reference set as given (a name list from papermill's JSON, or a tuple) as a tuple;
    a bare name is a ValueError naming it (LearningConfig names bad entries)."""
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise ValueError(f"a reference set is a list of reference names, got {value!r}")
    return tuple(value)


# -- task functions (module level: the executor imports them by name) ----------------------

@task_version("2")  # 2: each replacement's fresh games against the replaced opponent
def learning_task(params: dict, seed: np.random.SeedSequence) -> dict:
    """One learning run; ``params`` = LearningConfig fields + ``repetition``."""
    params = dict(params)
    repetition = params.pop("repetition", 0)
    return dict(learning.learn(LearningConfig.from_params(params), seed),
                repetition=repetition)


def _tables(variables) -> tuple[np.ndarray, bool]:
    if variables is None:
        return np.zeros((8, 256), dtype=np.int64), True
    return wpc_module.row_tables(variables), False


# The opponents a WPC can be evaluated against (None: the random player).
EVALUATION_OPPONENTS = {"standard": wpc_module.STANDARD_WPC, "random": None,
                        "lucas_runarsson": wpc_module.LUCAS_RUNARSSON_2006}


def evaluation_task(params: dict, seed: np.random.SeedSequence) -> dict:
    """``params["weights"]`` (10, 20 or 64 values, None = random) against
    ``params["opponent"]``: the standard WPC (the default), the random player, or Lucas &
    Runarsson's published WPC ("lucas_runarsson", a head-to-head)."""
    tables, is_random = _tables(params["weights"])
    opponent = params.get("opponent", "standard")  # absent in the stored tasks: standard
    if opponent not in EVALUATION_OPPONENTS:
        raise ValueError(f"opponent must be one of {', '.join(EVALUATION_OPPONENTS)}, "
                         f"got {opponent!r}")
    opponent_tables, opponent_random = _tables(EVALUATION_OPPONENTS[opponent])
    outcome = play_match(tables, is_random, opponent_tables, opponent_random,
                         float(params["epsilon"]), int(params["games"]), seed_state(seed))
    return {"wins": int(outcome[0]), "draws": int(outcome[1]), "losses": int(outcome[2])}


def round_robin_task(params: dict, seed: np.random.SeedSequence) -> dict:
    """Scores between all pairs of ``params["members"]`` (a..j lists, None = random player)."""
    members = params["members"]
    tables = np.zeros((len(members), 8, 256), dtype=np.int64)
    is_random = np.zeros(len(members), dtype=np.bool_)
    for j, variables in enumerate(members):
        tables[j], is_random[j] = _tables(variables)
    ratings = np.zeros(len(members))  # K = 0 below: the round robin only scores, it does not rate
    scores = league(tables, is_random, ratings, int(params["games_per_pair"]), 0.0,
                    float(params["epsilon"]), seed_state(seed))
    return {"scores": scores.round(6).tolist()}


# -- running the protocol -----------------------------------------------------------------

@dataclass
class Learned:
    """The learning histories: ``runs[mode][repetition]`` (the task results)."""

    runs: dict

    def mode(self, mode: str) -> list[dict]:
        return self.runs[mode]


def _learning_tasks(cfg: Config, seed: int) -> list:
    """The learning tasks of ``cfg``: task ``i`` is (mode ``i % 2``, repetition ``i // 2``)."""
    return make_tasks("mctslab.othello.experiments:learning_task",
                      [dict(cfg.learning_params(mode), repetition=rep)
                       for rep in range(cfg.repetitions) for mode in MODES], seed=seed)


def run_learning(run, cfg: Config) -> Learned:
    """Every (mode, repetition) learning run as one task through ``run.map`` (one run of
    :func:`mctslab.othello.learning.learn` each)."""
    results = run.map("othello_learning", _learning_tasks(cfg, run.seed))
    runs = {mode: [r for r in results if r["mode"] == mode] for mode in MODES}
    return Learned(runs)


@dataclass
class Evaluated:
    """Final evaluations: one row per evaluated WPC, plus each group's round robin."""

    rows: pd.DataFrame
    round_robins: list[np.ndarray]
    cfg: Config


def _final_candidates(learned: Learned) -> list[dict]:
    rows = []
    for rep, result in enumerate(learned.mode("individual")):
        if result["final_variables"] is not None:
            rows.append(dict(source="individual", repetition=rep, member=None, rating=None,
                             label=f"individual rep {rep}: final best",
                             variables=result["final_variables"]))
    for rep, result in enumerate(learned.mode("group")):
        for member in result["final_members"]:
            label = "random player" if member["variables"] is None else f"member {member['id']}"
            rows.append(dict(source="group", repetition=rep, member=member["id"],
                             rating=member["rating"], label=f"group rep {rep}: {label}",
                             variables=member["variables"]))
    for name, weights in wpc_module.PUBLISHED_WPCS.items():
        rows.append(dict(source="published", repetition=None, member=None, rating=None,
                         label=name, variables=np.asarray(weights).tolist()))
    return rows


def run_evaluation(run, cfg: Config, learned: Learned) -> Evaluated:
    """Table 4's protocol for every learned and published WPC, and Table 3's round robins.

    Both kinds of task go through one ``run.map`` (one worker pool).
    """
    candidates = _final_candidates(learned)
    params = [dict(weights=c["variables"], games=cfg.final_games, epsilon=cfg.epsilon)
              for c in candidates]
    groups = [[m["variables"] for m in result["final_members"]] for result in learned.mode("group")]
    tasks = make_tasks("mctslab.othello.experiments:evaluation_task", params, seed=run.seed)
    robin_params = [dict(members=g, games_per_pair=cfg.round_robin_games, epsilon=cfg.epsilon)
                    for g in groups]
    # Offset the spawn keys so the round robins never share a seed with an evaluation.
    tasks += keyed_tasks("mctslab.othello.experiments:round_robin_task", robin_params,
                         [(len(params) + i,) for i in range(len(robin_params))], run.seed)
    results = run.map("othello_final", tasks)
    # The symmetrised published WPCs in tasks of their own, keyed by name
    # (spawn keys (1, crc32(name)), never those above), so adding them changed no task above.
    references = [dict(source="published", repetition=None, member=None, rating=None,
                       label=name, variables=np.asarray(variables).tolist())
                  for name, variables in wpc_module.SYMMETRISED_WPCS.items()]
    reference_tasks = keyed_tasks(
        "mctslab.othello.experiments:evaluation_task",
        [dict(weights=c["variables"], games=cfg.final_games, epsilon=cfg.epsilon)
         for c in references],
        [task_key(1, c["label"]) for c in references], run.seed)
    reference_results = run.map("othello_reference", reference_tasks) if reference_tasks else []
    records = []
    for candidate, outcome in zip(candidates + references,
                                  results[:len(params)] + reference_results):
        ci = score_interval(outcome["wins"], outcome["draws"], outcome["losses"])
        records.append(dict(candidate, wins=ci.wins, draws=ci.draws, losses=ci.losses,
                            games=ci.games, score=ci.score, ci_low=ci.low, ci_high=ci.high))
    robins = [np.array(r["scores"]) for r in results[len(params):]]
    return Evaluated(pd.DataFrame.from_records(records), robins, cfg)


# -- the task parameters of learning against fixed references (beyond.run_reference_learning) -
_REFERENCE_CONSTANTS = ("scale_factor", "crossover_rate", "lower", "upper", "alpha")


def reference_learning_params(cfg: Config, references: tuple, weights: int) -> dict:
    """The :class:`LearningConfig` fields of one reference-learning run (no repetition)."""
    params = dict(mode="reference", population_size=cfg.reference_population,
                  max_generations=cfg.reference_generations, iterations=1,
                  n_matches=cfg.n_matches, games_per_match=cfg.games_per_match,
                  eval_games=cfg.eval_games, epsilon=cfg.epsilon, weights=weights,
                  references=list(references))
    params.update(non_default(cfg, {k: _TASK_DEFAULTS[k] for k in _REFERENCE_CONSTANTS}))
    if cfg.reference_reevaluate:  # only when asked: the other runs keep their task ids
        params["reevaluate"] = cfg.reference_reevaluate
    return params
