"""The TSP paper's protocol (Sec. 4): scales, tasks, and the tables of notebook ``tsp_mcts_vs_sa``.

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

The ``paper`` set is the 77 EUC_2D instances of the data folder, eil51 ... d15112 (the paper's
"77 instances, 48 to 15112 cities" - its list is not published; no EUC_2D instance has 48
cities). ``linhp318`` is lin318 plus a fixed edge; the fixed edge is ignored (so it counts as a
second run of lin318).
"""

from __future__ import annotations

import dataclasses
import zlib
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.tasks import Task
from . import api, tsplib
from .lkh import lkh

__all__ = ["Config", "config", "SCALES", "DEFAULT_INSTANCES", "PAPER", "load_instance",
           "run_comparison", "run_anytime", "comparison_task", "lkh_task", "anytime_task",
           "mean_ratios", "speedup", "cp_ratios", "baselines", "per_instance", "METHODS"]

# The paper's reported numbers (Sec. 4), for the side-by-side tables.
PAPER = {"mct_um": 1.08, "mct_rm": 0.632, "time_to_beat_percent": 0.15, "speedup": 685,
         "mct_rm_0mst": 0.628, "mct_rm_4mst": 0.633, "mct_rs_0sd": 0.629, "mct_rs": 0.633,
         "mct_rs_4sd": 0.634}
# method key -> (label, default policy, Cp rule, k); "mct_rm" is the paper's MCT_RM (2 x MST)
MCTS_METHODS = {
    "mct_um": ("MCT_UM", "uniform", "mst", 2.0),
    "mct_rm_0mst": ("RM 0xMST", "roulette", "mst", 0.0),
    "mct_rm": ("MCT_RM", "roulette", "mst", 2.0),
    "mct_rm_4mst": ("RM 4xMST", "roulette", "mst", 4.0),
    "mct_rs_0sd": ("RS 0xSD", "roulette", "sd", 0.0),
    "mct_rs": ("MCT_RS", "roulette", "sd", 2.0),
    "mct_rs_4sd": ("RS 4xSD", "roulette", "sd", 4.0),
}
METHODS = {"sa": "SA (paper)", **{k: v[0] for k, v in MCTS_METHODS.items()},
           "sa_2opt": "SA-2opt", "lkh": "LKH-3"}
SCALES = ("smoke", "default", "paper")
# A representative subset up to ~2,400 cities: short-edge (eil, st, rat) and large-coordinate
# (pr, u, vm, d) instances, every size decade.
DEFAULT_INSTANCES = ("eil51", "berlin52", "st70", "kroA100", "eil101", "ch150", "kroA200",
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


def _paper_instances() -> tuple[str, ...]:
    from ..data import find
    find("tsplib/optima.csv")  # a clear DataNotFoundError when the data folder is absent
    return tuple(tsplib.instance_names("EUC_2D"))


def config(scale: str = "default", **overrides) -> Config:
    """The configuration of a scale; ``None`` overrides are ignored ("take it from the scale")."""
    if scale == "smoke":
        base = Config("smoke", ("random-30-1", "random-120-2", "eil51"), 1, 50, 2.0,
                      ("random-120-2",), 0.2, (0.1, 1.0))
    elif scale == "default":
        base = Config("default", DEFAULT_INSTANCES, 3, 200, 10.0, ("eil101", "pr1002", "pr2392"),
                      2.0)
    elif scale == "paper":
        base = Config("paper", _paper_instances(), 5, 1000, 60.0,
                      ("eil51", "kroA200", "pr1002", "fnl4461"), 10.0)
    else:
        raise ValueError(f"unknown scale {scale!r}; choose one of {', '.join(SCALES)}")
    fields = {f.name for f in dataclasses.fields(Config)} - {"scale"}
    unknown = sorted(set(overrides) - fields)
    if unknown:
        raise ValueError(f"unknown TSP parameter(s) {', '.join(unknown)}; known: "
                         + ", ".join(sorted(fields)))
    chosen = {k: (tuple(v) if isinstance(v, list) else v) for k, v in overrides.items()
              if v is not None}
    return dataclasses.replace(base, **chosen)


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


_WARM = False


def _warm() -> None:
    """Compile / load every kernel once per process, so no timing includes it."""
    global _WARM
    if not _WARM:
        api.warmup()
        _WARM = True


def _children(seed: np.random.SeedSequence, count: int) -> list[np.random.SeedSequence]:
    return [np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key + (k,))
            for k in range(count)]


# -- task functions --------------------------------------------------------------------------------
def comparison_task(params: dict, seed: np.random.SeedSequence) -> dict:
    """SA, then every SA-time-budgeted method on one (instance, replicate)."""
    _warm()
    instance = load_instance(params["instance"])
    mst = api.mst_length(instance)
    streams = _children(seed, 2 + len(MCTS_METHODS))
    sa = api.sa_paper(instance, streams[0])
    budget = sa.seconds
    rows = [{"method": "sa", "length": sa.length, "final_length": sa.details["final_length"],
             "seconds": sa.seconds, "proposals": sa.details["proposals"],
             "trace": sa.details["trace"][::max(1, len(sa.details["trace"]) // 50)]}]
    for k, (key, (_, policy, rule, cp_k)) in enumerate(MCTS_METHODS.items()):
        result = api.mcts(instance, policy, rule, cp_k, streams[2 + k], time_limit=budget, mst=mst,
                          target=sa.length)
        d = result.details
        rows.append({"method": key, "length": result.length, "seconds": result.seconds,
                     "playouts": d["playouts"], "first_playout_seconds": d["first_playout_seconds"],
                     "first_playout_over_budget": d["first_playout_over_budget"],
                     "time_to_beat": d["time_to_target"], "playouts_to_beat": d["playouts_to_target"],
                     "tree_nodes": d["tree_nodes"], "max_depth": d["max_depth"], "cp": d["cp"]})
    two_opt = api.sa_2opt(instance, streams[1], time_limit=budget)
    rows.append({"method": "sa_2opt", "length": two_opt.length, "seconds": two_opt.seconds,
                 "proposals": two_opt.details["proposals"]})
    return {"instance": instance.name, "n": instance.n, "mst": mst, "optimum": _optimum(instance),
            "replicate": params["replicate"], "budget": budget, "rows": rows}


def lkh_task(params: dict, seed: np.random.SeedSequence) -> dict:
    instance = load_instance(params["instance"])
    result = lkh(instance, int(seed.generate_state(1)[0] % 2**31) + 1,
                 max_trials=params["max_trials"], time_limit=params["time_limit"])
    return {"instance": instance.name, "n": instance.n, "length": result.length,
            "tour_length": result.tour_length, "seconds": result.seconds}


def anytime_task(params: dict, seed: np.random.SeedSequence) -> dict:
    """Best length found versus time for one (instance, method): a list of (seconds, length)."""
    _warm()
    instance = load_instance(params["instance"])
    method, horizon = params["method"], params["horizon"]
    if method == "sa":
        result = api.sa_paper(instance, seed)
        trace = result.details["trace"]
        times = result.seconds * np.arange(1, len(trace) + 1) / len(trace)
        points = list(zip(times[::5].tolist(), trace[::5].tolist()))
    elif method == "sa_2opt":
        points = []
        for fraction in params["fractions"]:
            result = api.sa_2opt(instance, seed, time_limit=horizon * fraction)
            points.append((result.seconds, result.length))
    else:
        _, policy, rule, cp_k = MCTS_METHODS[method]
        result = api.mcts(instance, policy, rule, cp_k, seed, time_limit=horizon)
        points = [(t, length) for t, _, length in result.details["improvements"]]
        points.append((result.seconds, result.length))
    return {"instance": instance.name, "n": instance.n, "method": method,
            "optimum": _optimum(instance), "mst": api.mst_length(instance), "points": points}


def _task(fn: str, params: dict, seed: int, replicate: int, name: str) -> Task:
    return Task(f"mctslab.tsp.experiments:{fn}", params, seed,
                (replicate, zlib.crc32(name.encode())))


# -- running -----------------------------------------------------------------------------------------
def run_comparison(run, cfg: Config) -> pd.DataFrame:
    """Run the comparison and LKH tasks; one row per (instance, replicate, method)."""
    seed = run.seed or 0
    for name in cfg.instances:  # fail here, naming the file, rather than in every task
        if not name.startswith("random-"):
            tsplib.data_path(name)
    tasks = [_task("comparison_task", {"instance": name, "replicate": r}, seed, r, name)
             for name in cfg.instances for r in range(cfg.replicates)]
    results = run.map("tsp_comparison", tasks)
    lkh_tasks = [_task("lkh_task", {"instance": name, "max_trials": cfg.lkh_max_trials,
                                    "time_limit": cfg.lkh_time_limit}, seed, 0, name)
                 for name in cfg.instances]
    lkh_results = run.map("tsp_lkh", lkh_tasks)
    rows = []
    for result in results:
        base = {k: result[k] for k in ("instance", "n", "mst", "optimum", "replicate", "budget")}
        rows += [{**base, **{k: v for k, v in row.items() if k != "trace"}}
                 for row in result["rows"]]
    budgets = {(r["instance"]): r for r in results}
    for result in lkh_results:
        base = budgets[result["instance"]]
        rows.append({"instance": result["instance"], "n": result["n"], "mst": base["mst"],
                     "optimum": base["optimum"], "replicate": 0, "method": "lkh",
                     "length": result["length"], "tour_length": result["tour_length"],
                     "seconds": result["seconds"]})
    frame = pd.DataFrame(rows)
    frame["label"] = frame["method"].map(METHODS)
    return frame


def run_anytime(run, cfg: Config) -> pd.DataFrame:
    """Quality-versus-time points: columns instance, n, method, seconds, length, optimum, mst."""
    seed = run.seed or 0
    tasks = [_task("anytime_task", {"instance": name, "method": method,
                                    "horizon": cfg.anytime_horizon,
                                    "fractions": list(cfg.anytime_2opt_fractions)}, seed, 0, name)
             for name in cfg.anytime_instances for method in ("sa", "sa_2opt", "mct_rm", "mct_um")]
    rows = []
    for result in run.map("tsp_anytime", tasks):
        for seconds, length in result["points"]:
            rows.append({k: result[k] for k in ("instance", "n", "method", "optimum", "mst")}
                        | {"seconds": seconds, "length": length})
    frame = pd.DataFrame(rows)
    frame["label"] = frame["method"].map(METHODS)
    return frame


# -- tables --------------------------------------------------------------------------------------------
def _ratio_to(frame: pd.DataFrame, reference: str, column: str = "length") -> pd.DataFrame:
    """Per (instance, replicate, method): length / the reference method's length (same seed)."""
    ref = frame[frame["method"] == reference].set_index(["instance", "replicate"])[column]
    paired = frame.join(ref.rename("reference"), on=["instance", "replicate"])
    if reference == "lkh":  # one LKH run per instance: compare every replicate with it
        ref0 = ref.droplevel("replicate")
        paired["reference"] = frame["instance"].map(ref0)
    paired["ratio"] = paired["length"] / paired["reference"]
    return paired


def _per_instance_mean(paired: pd.DataFrame) -> pd.DataFrame:
    return paired.groupby(["method", "instance"], sort=False)["ratio"].mean().reset_index()


def mean_ratios(frame: pd.DataFrame) -> pd.DataFrame:
    """Fig. 8's summary: mean over instances of length / SA length (seed-paired), vs the paper."""
    rows = []
    for reference, column in (("sa", "length"), ("sa", "final_length")):
        per = _per_instance_mean(_ratio_to(frame, reference, column))
        for method in ("mct_um", "mct_rm", "mct_rs", "sa_2opt", "lkh"):
            values = per[per["method"] == method]["ratio"]
            rows.append({"method": METHODS[method],
                         "compared with": "SA best" if column == "length" else "SA final state",
                         "instances": len(values), "mean ratio": values.mean(),
                         "median ratio": values.median(),
                         "instances better than SA": int((values < 1).sum()),
                         "paper mean ratio": PAPER.get(method)})
    return pd.DataFrame(rows)


def speedup(frame: pd.DataFrame) -> pd.DataFrame:
    """Time MCT_RM needed to reach SA's length, as a share of SA's time (paper: 0.15%, ~685x)."""
    rm = frame[frame["method"] == "mct_rm"]
    reached = rm["time_to_beat"].notna()
    share = (rm["time_to_beat"] / rm["budget"])[reached]
    mean_share = share.mean() if len(share) else np.nan
    return pd.DataFrame([{
        "runs": len(rm), "runs where MCT_RM reached SA's length within SA's time": int(reached.sum()),
        "mean time to reach / SA time (%)": 100 * mean_share,
        "median time to reach / SA time (%)": 100 * share.median() if len(share) else np.nan,
        "implied speed-up (1 / mean share)": 1 / mean_share if len(share) else np.nan,
        "runs whose first playout took longer than SA":
            int(rm["first_playout_over_budget"].astype(bool).sum()),
        "paper: time share (%)": PAPER["time_to_beat_percent"], "paper: speed-up": PAPER["speedup"]}])


def cp_ratios(frame: pd.DataFrame) -> pd.DataFrame:
    """Fig. 9's summary: mean ratio to SA for Cp = 0, 2, 4 x MST and 0, 2, 4 x SD (roulette)."""
    per = _per_instance_mean(_ratio_to(frame, "sa"))
    rows = []
    for method in ("mct_rm_0mst", "mct_rm", "mct_rm_4mst", "mct_rs_0sd", "mct_rs", "mct_rs_4sd"):
        values = per[per["method"] == method]["ratio"]
        rows.append({"Cp": METHODS[method].replace("MCT_RM", "RM 2xMST").replace("MCT_RS", "RS 2xSD"),
                     "mean ratio to SA": values.mean(), "median": values.median(),
                     "paper": PAPER.get(method, PAPER["mct_rm"] if method == "mct_rm" else None)})
    return pd.DataFrame(rows)


def baselines(frame: pd.DataFrame) -> pd.DataFrame:
    """How much of MCTS's result survives against SA-2opt and LKH: ratios and gaps to optimum."""
    known = frame[frame["optimum"].notna()].copy()
    known["gap"] = known["length"] / known["optimum"] - 1
    gap = known.groupby(["method", "instance"])["gap"].mean().groupby("method")
    rows = []
    for method in ("sa", "mct_um", "mct_rm", "mct_rs", "sa_2opt", "lkh"):
        row = {"method": METHODS[method], "mean gap to optimal tour (%)": 100 * gap.mean().get(method, np.nan),
               "median gap (%)": 100 * gap.median().get(method, np.nan)}
        for reference in ("sa", "sa_2opt", "lkh"):
            per = _per_instance_mean(_ratio_to(frame, reference))
            row[f"mean ratio to {METHODS[reference]}"] = per[per["method"] == method]["ratio"].mean()
        rows.append(row)
    return pd.DataFrame(rows)


def per_instance(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per instance: sizes, normaliser, optimum, every method (means over seeds), times."""
    mean = frame.pivot_table(index="instance", columns="method", values="length", aggfunc="mean")
    seconds = frame.pivot_table(index="instance", columns="method", values="seconds", aggfunc="mean")
    info = frame.groupby("instance")[["n", "mst", "optimum"]].first()
    rm = frame[frame["method"] == "mct_rm"].groupby("instance")
    table = pd.DataFrame({"n": info["n"], "MST": info["mst"], "optimum (tour)": info["optimum"]})
    table["SA"] = mean["sa"]
    table["SA final"] = frame[frame["method"] == "sa"].groupby("instance")["final_length"].mean()
    table["SA ms"] = 1000 * seconds["sa"]
    for method in ("mct_um", "mct_rm", "mct_rs", "sa_2opt", "lkh"):
        table[METHODS[method]] = mean.get(method)
    table["UM playouts"] = frame[frame["method"] == "mct_um"].groupby("instance")["playouts"].mean()
    table["RM playouts"] = rm["playouts"].mean()
    table["RM tree depth (max)"] = rm["max_depth"].max()
    table["RM first playout ms"] = 1000 * rm["first_playout_seconds"].mean()
    over = frame[frame["method"] == "mct_rm"]["first_playout_over_budget"].astype(bool)
    table["RM over budget (runs)"] = over.groupby(frame["instance"]).sum()
    table["LKH s"] = seconds.get("lkh")
    if "tour_length" in frame:
        lkh_tour = frame[frame["method"] == "lkh"].groupby("instance")["tour_length"].mean()
        table["LKH tour / optimum"] = lkh_tour / info["optimum"]
    table["seeds"] = frame[frame["method"] == "sa"].groupby("instance").size()
    return table.sort_values(["n", "MST"]).reset_index()


def summary_markdown(frame: pd.DataFrame, scale: str) -> str:
    """Our headline numbers next to the paper's, as a short markdown text (all computed here)."""
    ratios = mean_ratios(frame).set_index(["method", "compared with"])["mean ratio"]
    cp = cp_ratios(frame)
    fast = speedup(frame).iloc[0]
    base = baselines(frame).set_index("method")
    instances, seeds = frame["instance"].nunique(), int(frame["replicate"].max()) + 1
    share = fast["mean time to reach / SA time (%)"]
    lines = [
        f"**Scale `{scale}`: {instances} instances x {seeds} seed(s).** Ratios are means over "
        "instances of (method length / SA length), seed by seed.",
        "",
        "| quantity | paper | ours |",
        "|---|---|---|",
        f"| MCT_UM / SA | {PAPER['mct_um']} | {ratios[('MCT_UM', 'SA best')]:.3f} "
        f"(vs SA's final state: {ratios[('MCT_UM', 'SA final state')]:.3f}) |",
        f"| MCT_RM / SA | {PAPER['mct_rm']} | {ratios[('MCT_RM', 'SA best')]:.3f} "
        f"(vs SA's final state: {ratios[('MCT_RM', 'SA final state')]:.3f}) |",
        f"| MCT_RM reaches SA's length within SA's time | on average after 0.15% of it | in "
        f"{int(fast.iloc[1])} of {int(fast['runs'])} runs"
        + (f", after {share:.2f}% of it on average |" if pd.notna(share) else " |"),
        f"| Fig. 9: Cp = 0/2/4 x MST, 0/2/4 x SD | 0.628 ... 0.634 | "
        f"{cp['mean ratio to SA'].min():.3f} ... {cp['mean ratio to SA'].max():.3f} |",
        f"| SA-2opt (same time) / SA | - | {ratios[('SA-2opt', 'SA best')]:.3f} |",
        f"| LKH-3 (own time) / SA | - | {ratios[('LKH-3', 'SA best')]:.3f} |",
        f"| MCT_RM / SA-2opt | - | {base.loc['MCT_RM', 'mean ratio to SA-2opt']:.3f} |",
        "| mean gap to the optimal tour: SA, MCT_RM, SA-2opt, LKH-3 | - | "
        + ", ".join(f"{base.loc[m, 'mean gap to optimal tour (%)']:.1f}%"
                    for m in ("SA (paper)", "MCT_RM", "SA-2opt", "LKH-3")) + " |",
    ]
    return "\n".join(lines)
