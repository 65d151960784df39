"""The TSP paper's protocol (Sec. 4): scales, ``Config``, task functions (``*_task``) and
runners (``run_*``) of the notebook ``tsp_mcts_vs_sa`` (its tables are :mod:`mctslab.tsp.tables`, its figures
:mod:`mctslab.tsp.figures`).

Tasks (run through :class:`mctslab.core.report.Run`, resumable):

- ``tsp_comparison``: one task per (instance, replicate). It runs the paper's SA **first** and
  then, in the same process, every method whose budget is SA's wall time on that instance and
  seed (the paper: "SA でかかった時間まで"): MCT_UM, the roulette variants of Fig. 9 (Cp = 0, 2,
  4 x MST and 0, 2, 4 x SD; 2 x MST is MCT_RM, 2 x SD is MCT_RS) and SA with 2-opt moves. One
  task rather than one per method makes the dependency on SA's time explicit and measures all
  of them under the same machine load, back to back.
- ``tsp_lkh``: one task per instance: LKH-3 (elkai) with its own run time (a reference).
- ``tsp_anytime``: quality-versus-time profiles on a few instances (SA, SA-2opt at several
  budgets, MCT_RM and MCT_UM run long).

Per-task seeds are ``SeedSequence(seed, spawn_key=(replicate, crc32(instance)))``: an
(instance, replicate) pair gets the same seed at every scale. Inside a task each method gets
its own child stream (fixed order), and starts from its own random permutation / tree.

The ``paper`` set is every instance of the data folder with 48 to 15,112 cities whose metric is
in ``paper_metrics``: by default the 77 EUC_2D instances (eil51 ... d15112) and the two ATT
(pseudo-Euclidean) instances att48 and att532, 79 in all. The paper says "77 instances, 48 to
15112 cities" without a list: no EUC_2D instance has 48 cities, so its set included att48 (issue
14), and no choice of metrics gives both 77 instances and 48 cities. ``paper_metrics=["EUC_2D"]``
is the 77-instance set of the runs recorded before 2026-11-23 18:00. ATT weights are TSPLIB's
(``r = sqrt((dx^2 + dy^2) / 10)`` rounded up), in every method and in LKH-3. ``linhp318`` is
lin318 plus a fixed edge; the fixed edge is ignored (so it counts as a second run of lin318).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mctslab.core.compare import protocol_config
from mctslab.core.params import config_values, finite_number, non_default, positive_int
from mctslab.core.tasks import Task, task_key, task_version
from mctslab.data import find
from mctslab.tsp import api, tsplib, warmup
from mctslab.tsp.lkh import lkh
from mctslab.tsp.methods import (
    CP_RULES,
    MCTS_METHODS,
    METHODS,
    SA_REFERENCE_KEYS,
    mcts_methods,
    method_cp,
    method_label,
)

__all__ = ["Config", "config", "SCALES", "DEFAULT_INSTANCES", "PAPER_CONSTANTS", "METHODS",
           "METHOD_CHOICES", "CP_RULES", "mcts_methods", "method_label", "method_cp",
           "load_instance", "comparison_task", "sa_reference_task", "speedup_task", "lkh_task",
           "anytime_task", "first_reach", "run_comparison", "run_speedup", "run_anytime"]

# The constants the paper states (Sec. 4), the same at every scale; each is a Config field.
PAPER_CONSTANTS = {"cp": 2.0, "cp_multipliers": (0.0, 2.0, 4.0), "cp_rules": CP_RULES,
                   "sa_t_start": 10000.0, "sa_t_end": 10.0, "sa_iterations": 1000,
                   "sa_cooling": 0.99, "budget_factor": 1.0, "mcts_search": "single"}
# What the comparison can run besides the paper's SA (always run: it sets the budget and is every
# ratio's reference). The Fig. 9 sweep (RM / RS with the other k) follows cp_multipliers and
# cp_rules.
METHOD_CHOICES = ("mct_um", "mct_rm", "mct_rs", "sa_2opt", "lkh")
SEARCH_MODES = api.SEARCH_MODES
# SA readings that can run as references next to the paper's SA (the method key of each:
# methods.SA_REFERENCE_KEYS).
SA_REFERENCES = tuple(r for r in api.SA_READINGS if r != "metropolis")
# The paper's instance range and the metrics of its set (see the module docstring).
PAPER_SIZES = (48, 15112)
PAPER_METRICS = ("EUC_2D", "ATT")
METRIC_CHOICES = ("EUC_2D", "ATT", "CEIL_2D", "GEO", "EXPLICIT")
_SA_ARGUMENTS = {"sa_t_start": "t_start", "sa_t_end": "t_end", "sa_iterations": "iterations",
                 "sa_cooling": "cooling"}


# A representative subset up to ~2,400 cities: short-edge (eil, st, rat) and large-coordinate
# (pr, u, vm, d) instances, every size decade, and att48 (ATT metric, the paper's 48 cities).
DEFAULT_INSTANCES = ("att48", "eil51", "berlin52", "st70", "kroA100", "eil101", "ch150", "kroA200",
                     "a280", "lin318", "pcb442", "rat783", "pr1002", "u1432", "vm1748", "d2103",
                     "pr2392")


@dataclass(frozen=True)
class Config:
    """What one run of the notebook does (``config(scale, **overrides)`` builds it)."""

    scale: str
    instances: tuple[str, ...]  # TSPLIB names, or "random-<n>-<seed>" generated EUC_2D
    replicates: int  # seeds per instance
    lkh_max_trials: int | None  # None: LKH's default (n)
    lkh_time_limit: float | None  # seconds of LKH search per instance
    anytime_instances: tuple[str, ...]
    anytime_horizon: float  # seconds given to MCTS in the quality-vs-time profiles
    anytime_2opt_fractions: tuple[float, ...] = (0.01, 0.03, 0.1, 0.3, 1.0)
    # seconds MCT_RM may run, uncapped by SA's time, to reach SA's length (the speed-up)
    speedup_horizon: float = 2.0
    # The paper's constants (Sec. 4), the same at every scale:
    cp: float = PAPER_CONSTANTS["cp"]  # k of MCT_UM, MCT_RM (k x MST) and MCT_RS (k x SD)
    cp_multipliers: tuple[float, ...] = PAPER_CONSTANTS["cp_multipliers"]  # Fig. 9's k values
    cp_rules: tuple[str, ...] = PAPER_CONSTANTS["cp_rules"]  # Fig. 9's Cp rules: mst, sd
    sa_t_start: float = PAPER_CONSTANTS["sa_t_start"]  # SA's initial temperature
    sa_t_end: float = PAPER_CONSTANTS["sa_t_end"]  # SA's final temperature
    sa_iterations: int = PAPER_CONSTANTS["sa_iterations"]  # SA proposals per temperature
    sa_cooling: float = PAPER_CONSTANTS["sa_cooling"]  # SA's cooling factor
    budget_factor: float = PAPER_CONSTANTS["budget_factor"]  # MCTS / SA-2opt time = this x SA's
    # One search for the whole budget ("single"), or one per city ("step-best", "step-mean"):
    mcts_search: str = PAPER_CONSTANTS["mcts_search"]
    methods: tuple[str, ...] = METHOD_CHOICES  # what runs besides SA (and the Fig. 9 sweep)
    # The "ineffective SA" reference: SA readings run in their own tasks, from the
    # paper SA's start (same stream) with its schedule; () runs none. Not a comparison
    # parameter, so the comparison's task ids do not depend on it.
    sa_references: tuple[str, ...] = ("accept-all",)
    # TSPLIB metrics of the paper set (scale "paper"): ("EUC_2D",) is the 77-instance set.
    paper_metrics: tuple[str, ...] = PAPER_METRICS

    def constants(self) -> dict:
        """The paper constants that differ from the paper's values: they enter the tasks'
        parameters (so a run with the paper's values keeps its task ids and stored results)."""
        return non_default(self, PAPER_CONSTANTS)

    def mcts_methods(self) -> dict:
        """The MCTS methods this configuration runs (:func:`mcts_methods`, less the paper's
        three methods not in ``methods``)."""
        return _selected(mcts_methods(self.cp, self.cp_multipliers, self.cp_rules), self.methods)

    def protocol(self) -> Config:
        """The configuration whose protocol constants the paper's ``config`` targets judge
        (:func:`mctslab.core.compare.protocol_config`): this one at paper scale, else
        ``config("paper")``; the tables read it here, so they need not import this module."""
        return protocol_config(self, config)

    def city_counts(self) -> dict[str, int]:
        """The cities of each TSPLIB instance of ``instances`` the data's optima table lists
        (a generated or unlisted instance is left out): the benchmark set's range."""
        sizes = {name: n for name, n, _, _ in tsplib._optima_table()}
        return {name: sizes[name] for name in self.instances if name in sizes}

    def task_constants(self) -> dict:
        """:meth:`constants`, plus ``methods`` when the comparison runs fewer than all (LKH
        is not part of the comparison task)."""
        chosen = [m for m in METHOD_CHOICES if m in self.methods and m != "lkh"]
        if len(chosen) < len(METHOD_CHOICES) - 1:
            return {**self.constants(), "methods": chosen}
        return self.constants()


# Field values per scale (the paper's constants are the Config defaults at every scale).
SCALES = {
    "smoke": dict(instances=("random-30-1", "random-120-2", "eil51"), replicates=1,
                  lkh_max_trials=50, lkh_time_limit=2.0, anytime_instances=("random-120-2",),
                  anytime_horizon=0.2, anytime_2opt_fractions=(0.1, 1.0), speedup_horizon=0.2),
    "default": dict(instances=DEFAULT_INSTANCES, replicates=3, lkh_max_trials=200,
                    lkh_time_limit=10.0, anytime_instances=("eil101", "pr1002", "pr2392"),
                    anytime_horizon=2.0, speedup_horizon=1.0),
    # instances None: every instance of 48-15112 cities with a paper metric (_paper_instances)
    "paper": dict(instances=None, replicates=5, lkh_max_trials=1000, lkh_time_limit=60.0,
                  anytime_instances=("eil51", "kroA200", "pr1002", "fnl4461"),
                  anytime_horizon=10.0, speedup_horizon=10.0),
}


def _selected(methods: dict, chosen) -> dict:
    return {key: spec for key, spec in methods.items()
            if key not in ("mct_um", "mct_rm", "mct_rs") or key in chosen}


def _paper_instances(metrics=PAPER_METRICS) -> tuple[str, ...]:
    """Instances of 48 to 15,112 cities whose metric is in ``metrics``, in optima.csv order."""
    find("tsplib/optima.csv")  # a clear DataNotFoundError when the data folder is absent
    low, high = PAPER_SIZES
    return tuple(name for name, n, metric, _ in tsplib._optima_table()
                 if metric in metrics and low <= n <= high)


def _check(cfg: Config) -> Config:
    """Each field's type and range, naming the parameter (a ValueError)."""
    for name in ("instances", "anytime_instances"):
        value = getattr(cfg, name)
        if not isinstance(value, tuple) or not all(isinstance(v, str) for v in value):
            raise ValueError(f"{name} must be a list of instance names, got {value!r}")
    if not cfg.instances:
        raise ValueError("instances must name at least one instance")
    _check_numbers(cfg)
    _check_choices(cfg)
    return cfg


def _check_numbers(cfg: Config) -> None:
    """The counts, budgets, SA schedule, Cp and the numeric lists: types and ranges."""
    positive_int("replicates", cfg.replicates)
    positive_int("sa_iterations", cfg.sa_iterations)
    if cfg.lkh_max_trials is not None:
        positive_int("lkh_max_trials", cfg.lkh_max_trials)
    for name in ("lkh_time_limit", "anytime_horizon", "budget_factor", "sa_t_start", "sa_t_end",
                 "speedup_horizon"):
        value = getattr(cfg, name)
        if value is not None and finite_number(name, value) <= 0:
            raise ValueError(f"{name} must be > 0, got {value!r}")
    if not cfg.sa_t_start > cfg.sa_t_end:
        raise ValueError(f"sa_t_start ({cfg.sa_t_start}) must be above sa_t_end ({cfg.sa_t_end})")
    if not 0 < finite_number("sa_cooling", cfg.sa_cooling) < 1:
        raise ValueError(f"sa_cooling must be in (0, 1), got {cfg.sa_cooling!r}")
    if finite_number("cp", cfg.cp) < 0:
        raise ValueError(f"cp must be >= 0, got {cfg.cp!r}")
    for name in ("cp_multipliers", "anytime_2opt_fractions"):
        value = getattr(cfg, name)
        if not isinstance(value, tuple) or not value:
            raise ValueError(f"{name} must be a non-empty list of numbers, got {value!r}")
        for v in value:
            if finite_number(name, v) < 0:
                raise ValueError(f"{name} must hold numbers >= 0, got {value!r}")


def _check_choices(cfg: Config) -> None:
    """The fields that name choices (Cp rules, methods, SA references, the MCTS search)."""
    if not isinstance(cfg.cp_rules, tuple) or not set(cfg.cp_rules) <= set(CP_RULES):
        raise ValueError(f"cp_rules must be a list of {', '.join(CP_RULES)} (empty: no Fig. 9 "
                         f"sweep), got {cfg.cp_rules!r}")
    if not isinstance(cfg.methods, tuple) or not set(cfg.methods) <= set(METHOD_CHOICES):
        raise ValueError(f"methods must be a list of {', '.join(METHOD_CHOICES)} (SA always "
                         f"runs), got {cfg.methods!r}")
    if not isinstance(cfg.sa_references, tuple) or not set(cfg.sa_references) <= set(SA_REFERENCES):
        raise ValueError(f"sa_references must be a list of {', '.join(SA_REFERENCES)} (empty: "
                         f"no reference), got {cfg.sa_references!r}")
    if cfg.mcts_search not in SEARCH_MODES:
        raise ValueError(f"mcts_search must be one of {', '.join(SEARCH_MODES)}, "
                         f"got {cfg.mcts_search!r}")


def config(scale: str = "default", **overrides) -> Config:
    """The configuration of a scale; ``None`` overrides are ignored ("take it from the scale").

    Raises ``ValueError`` naming an unknown scale or parameter, or a parameter with a bad value.
    """
    values = config_values(Config, SCALES, scale, overrides, what="TSP parameter", reals=(
        "cp", "cp_multipliers", "sa_t_start", "sa_t_end", "sa_cooling", "budget_factor",
        "anytime_horizon", "lkh_time_limit", "anytime_2opt_fractions", "speedup_horizon"))
    metrics = values.get("paper_metrics", PAPER_METRICS)
    if not isinstance(metrics, tuple) or not metrics or not set(metrics) <= set(METRIC_CHOICES):
        raise ValueError(f"paper_metrics must be a non-empty list of {', '.join(METRIC_CHOICES)}, "
                         f"got {metrics!r}")
    if values["instances"] is None:  # the paper's: read from the data only when asked for
        values["instances"] = _paper_instances(metrics)
    cfg = _check(Config(scale=scale, **values))
    # the same sweep in another order or with repeats is the same run (and the same task ids)
    return dataclasses.replace(cfg, cp_multipliers=tuple(sorted(set(cfg.cp_multipliers))),
                               cp_rules=tuple(r for r in CP_RULES if r in cfg.cp_rules),
                               methods=tuple(m for m in METHOD_CHOICES if m in cfg.methods))


def load_instance(name: str) -> tsplib.Instance:
    """A TSPLIB instance, or ``random-<n>-<seed>``: n uniform integer points in [0, 1000)^2."""
    if name.startswith("random-"):
        try:
            _, n, seed = name.split("-")
            xy = np.floor(np.random.default_rng(int(seed)).uniform(0, 1000, (int(n), 2)))
        except ValueError:
            raise ValueError(f"generated instance names look like 'random-<n>-<seed>', "
                             f"got {name!r}") from None
        return tsplib.from_coordinates(xy, name)
    return tsplib.load(name)


def _optimum(instance) -> float | None:
    return instance.optimal_tour_length


def _children(seed: np.random.SeedSequence, count: int) -> list[np.random.SeedSequence]:
    return [np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key + (k,))
            for k in range(count)]


# -- task functions --------------------------------------------------------------------------------
# 2: rows gained search_steps (7bd00c1); roulette playouts draw uniformly among zero-weight
# (duplicate) cities and repair float32 artefacts (7196177), which changes MCTS lengths
@task_version("2")
def comparison_task(params: dict, seed: np.random.SeedSequence) -> dict:
    """SA, then every SA-time-budgeted method on one (instance, replicate)."""
    warmup()  # compiled (or loaded) once per process: no timing below includes it
    instance = load_instance(params["instance"])
    constants = {**PAPER_CONSTANTS, **params}  # params hold the constants that differ
    methods = mcts_methods(constants["cp"], constants["cp_multipliers"], constants["cp_rules"])
    chosen = params.get("methods", METHOD_CHOICES)
    mst = api.mst_length(instance)
    # Streams: 0 SA, 1 SA-2opt, then each MCTS key at its place in the paper's list (so a key
    # gets the same stream whatever else runs), keys outside it after those.
    extra = [key for key in methods if key not in MCTS_METHODS]
    place = {key: 2 + (list(MCTS_METHODS).index(key) if key in MCTS_METHODS
                       else len(MCTS_METHODS) + extra.index(key)) for key in methods}
    streams = _children(seed, 2 + len(MCTS_METHODS) + len(extra))
    sa = api.sa_paper(instance, streams[0], **_sa_arguments(constants))
    budget = sa.seconds * constants["budget_factor"]
    rows = [{"method": "sa", "length": sa.length, "final_length": sa.details["final_length"],
             "seconds": sa.seconds, "proposals": sa.details["proposals"],
             "trace": sa.details["trace"][::max(1, len(sa.details["trace"]) // 50)]}]
    for key, (_, policy, rule, cp_k) in _selected(methods, chosen).items():
        result = api.mcts(instance, policy, rule, cp_k, streams[place[key]], time_limit=budget, mst=mst,
                          target=sa.length, search=constants["mcts_search"])
        d = result.details
        rows.append({"method": key, "length": result.length, "seconds": result.seconds,
                     "playouts": d["playouts"], "first_playout_seconds": d["first_playout_seconds"],
                     "first_playout_over_budget": d["first_playout_over_budget"],
                     "time_to_beat": d["time_to_target"], "playouts_to_beat": d["playouts_to_target"],
                     "tree_nodes": d["tree_nodes"], "max_depth": d["max_depth"], "cp": d["cp"],
                     "search_steps": d["steps"]})
    if "sa_2opt" in chosen:
        two_opt = api.sa_2opt(instance, streams[1], time_limit=budget)
        rows.append({"method": "sa_2opt", "length": two_opt.length, "seconds": two_opt.seconds,
                     "proposals": two_opt.details["proposals"]})
    return {"instance": instance.name, "n": instance.n, "mst": mst, "optimum": _optimum(instance),
            "replicate": params["replicate"], "budget": budget, "rows": rows}


def sa_reference_task(params: dict, seed: np.random.SeedSequence) -> dict:
    """One SA reading (``params["reading"]``, e.g. "accept-all") on one (instance, replicate).

    It uses the comparison SA's stream (child 0 of the same task seed), so it starts from the
    same random permutation as the paper's SA and makes the same proposals' positions until
    the first acceptance that differs.
    """
    warmup()
    instance = load_instance(params["instance"])
    constants = {**PAPER_CONSTANTS, **params}
    result = api.sa_paper(instance, _children(seed, 1)[0], reading=params["reading"],
                          **_sa_arguments(constants))
    return {"instance": instance.name, "replicate": params["replicate"],
            "method": SA_REFERENCE_KEYS[params["reading"]], "length": result.length,
            "final_length": result.details["final_length"], "seconds": result.seconds,
            "proposals": result.details["proposals"], "accepted": result.details["accepted"]}


def first_reach(improvements, target: float) -> tuple[float | None, int | None]:
    """(seconds, playouts) of the first improvement whose length is <= ``target`` in an MCTS
    run's ``details["improvements"]`` ((seconds, playouts, length) rows, in order); (None,
    None) when the run never reached it."""
    for seconds, playouts, length in improvements:
        if length <= target:
            return float(seconds), int(playouts)
    return None, None


def speedup_task(params: dict, seed: np.random.SeedSequence) -> dict:
    """The paper's speed-up without the cap at SA's time, on one (instance, replicate).

    Runs the paper's SA (compiled, O(1) per move), the same SA recomputing the whole path per
    move (O(n), as a naive implementation would: same decisions, so the same length with
    integer weights) and the accept-all SA, all on the comparison SA's stream (same start),
    then MCT_RM on its comparison stream until it reaches the paper SA's length or
    ``horizon`` seconds pass. The time and playouts at which MCT_RM first reached each SA's
    length come from its improvement log (None: not within the horizon).
    """
    warmup()
    instance = load_instance(params["instance"])
    constants = {**PAPER_CONSTANTS, **params}
    streams = _children(seed, 2 + len(MCTS_METHODS))
    arguments = _sa_arguments(constants)
    sa = api.sa_paper(instance, streams[0], **arguments)
    naive = api.sa_paper(instance, streams[0], naive=True, **arguments)
    accept_all = api.sa_paper(instance, streams[0], reading="accept-all", **arguments)
    _, policy, rule, cp_k = mcts_methods(constants["cp"])["mct_rm"]
    rm = api.mcts(instance, policy, rule, cp_k, streams[2 + list(MCTS_METHODS).index("mct_rm")],
                  time_limit=params["horizon"], target=sa.length, stop_at_target=True)
    improvements = rm.details["improvements"]
    reach_sa, reach_sa_playouts = first_reach(improvements, sa.length)
    reach_ref, reach_ref_playouts = first_reach(improvements, accept_all.length)
    return {"instance": instance.name, "n": instance.n, "replicate": params["replicate"],
            "horizon": params["horizon"], "sa_length": sa.length, "sa_seconds": sa.seconds,
            "naive_sa_length": naive.length, "naive_sa_seconds": naive.seconds,
            "accept_all_length": accept_all.length, "accept_all_seconds": accept_all.seconds,
            "rm_length": rm.length, "rm_seconds": rm.seconds, "rm_playouts": rm.details["playouts"],
            "reach_sa_seconds": reach_sa, "reach_sa_playouts": reach_sa_playouts,
            "reach_accept_all_seconds": reach_ref, "reach_accept_all_playouts": reach_ref_playouts}


def lkh_task(params: dict, seed: np.random.SeedSequence) -> dict:
    instance = load_instance(params["instance"])
    result = lkh(instance, int(seed.generate_state(1)[0] % 2**31) + 1,
                 max_trials=params["max_trials"], time_limit=params["time_limit"])
    return {"instance": instance.name, "n": instance.n, "length": result.length,
            "tour_length": result.tour_length, "seconds": result.seconds}


@task_version("2")  # 2: the roulette playout change of 7196177 (see comparison_task)
def anytime_task(params: dict, seed: np.random.SeedSequence) -> dict:
    """Best length found versus time for one (instance, method): a list of (seconds, length)."""
    warmup()
    instance = load_instance(params["instance"])
    constants = {**PAPER_CONSTANTS, **params}
    method, horizon = params["method"], params["horizon"]
    if method == "sa":
        result = api.sa_paper(instance, seed, **_sa_arguments(constants))
        trace = result.details["trace"]
        times = result.seconds * np.arange(1, len(trace) + 1) / len(trace)
        points = list(zip(times[::5].tolist(), trace[::5].tolist()))
    elif method == "sa_2opt":
        points = []
        for fraction in params["fractions"]:
            result = api.sa_2opt(instance, seed, time_limit=horizon * fraction)
            points.append((result.seconds, result.length))
    else:
        _, policy, rule, cp_k = mcts_methods(constants["cp"])[method]
        result = api.mcts(instance, policy, rule, cp_k, seed, time_limit=horizon,
                          search=constants["mcts_search"])
        points = [(t, length) for t, _, length in result.details["improvements"]]
        points.append((result.seconds, result.length))
    return {"instance": instance.name, "n": instance.n, "method": method,
            "optimum": _optimum(instance), "mst": api.mst_length(instance), "points": points}


def _sa_arguments(constants: dict) -> dict:
    return {argument: constants[name] for name, argument in _SA_ARGUMENTS.items()}


def _task(fn: str, params: dict, seed: int, replicate: int, name: str) -> Task:
    """A task of ``fn`` (``"module:function"``, written out where the task list is built)
    seeded by (replicate, instance): the same seed at every scale and in any list."""
    return Task(fn, params, seed, task_key(replicate, name))


# -- running -----------------------------------------------------------------------------------------
def run_comparison(run, cfg: Config) -> pd.DataFrame:
    """Run the comparison and LKH tasks; one row per (instance, replicate, method)."""
    seed = run.seed
    for name in cfg.instances:  # fail here, naming the file, rather than in every task
        if not name.startswith("random-"):
            tsplib.data_path(name)
    constants = cfg.task_constants()
    tasks = [_task("mctslab.tsp.experiments:comparison_task",
                   {"instance": name, "replicate": r, **constants}, seed, r, name)
             for name in cfg.instances for r in range(cfg.replicates)]
    results = run.map("tsp_comparison", tasks)
    lkh_tasks = [_task("mctslab.tsp.experiments:lkh_task",
                       {"instance": name, "max_trials": cfg.lkh_max_trials,
                        "time_limit": cfg.lkh_time_limit}, seed, 0, name)
                 for name in cfg.instances if "lkh" in cfg.methods]
    lkh_results = run.map("tsp_lkh", lkh_tasks) if lkh_tasks else []
    sa_constants = {k: v for k, v in constants.items() if k in _SA_ARGUMENTS}
    reference_tasks = [_task("mctslab.tsp.experiments:sa_reference_task",
                             {"instance": name, "replicate": r, "reading": reading,
                              **sa_constants}, seed, r, name)
                       for reading in cfg.sa_references for name in cfg.instances
                       for r in range(cfg.replicates)]
    reference_results = run.map("tsp_sa_reference", reference_tasks) if reference_tasks else []
    rows = []
    for result in results:
        base = {k: result[k] for k in ("instance", "n", "mst", "optimum", "replicate", "budget")}
        rows += [{**base, **{k: v for k, v in row.items() if k != "trace"}}
                 for row in result["rows"]]
    budgets = {(r["instance"]): r for r in results}
    by_task = {(r["instance"], r["replicate"]): r for r in results}
    for result in reference_results:
        base = by_task[(result["instance"], result["replicate"])]
        rows.append({**{k: base[k] for k in ("instance", "n", "mst", "optimum", "replicate",
                                             "budget")},
                     **{k: v for k, v in result.items() if k not in ("instance", "replicate")}})
    for result in lkh_results:
        base = budgets[result["instance"]]
        rows.append({"instance": result["instance"], "n": result["n"], "mst": base["mst"],
                     "optimum": base["optimum"], "replicate": 0, "method": "lkh",
                     "length": result["length"], "tour_length": result["tour_length"],
                     "seconds": result["seconds"]})
    frame = pd.DataFrame(rows)
    frame["label"] = frame["method"].map(method_label)
    return frame


def run_speedup(run, cfg: Config) -> pd.DataFrame:
    """The uncapped speed-up tasks (:func:`speedup_task`): one row per (instance, replicate)."""
    constants = {k: v for k, v in cfg.constants().items() if k == "cp" or k in _SA_ARGUMENTS}
    tasks = [_task("mctslab.tsp.experiments:speedup_task",
                   {"instance": name, "replicate": r, "horizon": cfg.speedup_horizon,
                    **constants}, run.seed, r, name)
             for name in cfg.instances for r in range(cfg.replicates)]
    return pd.DataFrame(run.map("tsp_speedup", tasks))


def run_anytime(run, cfg: Config) -> pd.DataFrame:
    """Quality-versus-time points: columns instance, n, method, seconds, length, optimum, mst."""
    seed = run.seed
    constants = {k: v for k, v in cfg.constants().items()
                 if k in ("cp", "mcts_search") or k in _SA_ARGUMENTS}
    tasks = [_task("mctslab.tsp.experiments:anytime_task",
                   {"instance": name, "method": method, "horizon": cfg.anytime_horizon,
                    "fractions": list(cfg.anytime_2opt_fractions), **constants}, seed, 0, name)
             for name in cfg.anytime_instances for method in ("sa", "sa_2opt", "mct_rm", "mct_um")
             if method == "sa" or method in cfg.methods]
    rows = []
    for result in run.map("tsp_anytime", tasks):
        for seconds, length in result["points"]:
            rows.append({k: result[k] for k in ("instance", "n", "method", "optimum", "mst")}
                        | {"seconds": seconds, "length": length})
    frame = pd.DataFrame(rows)
    frame["label"] = frame["method"].map(method_label)
    return frame
