"""``mctslab bench tsp``: the TSP paper's performance figures (recorded in BENCHMARKS.md).

Each figure compiles first (``mctslab.tsp.warmup``), then times several repetitions on one core
and reports the best (least disturbed) with the median in ``detail``: the machine is shared, so the
median moves with other people's load. Instances come from the data folder; without it a
random instance of the same size stands in (and ``detail`` says so).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

import numpy as np

from mctslab.core.bench import benchmark
from mctslab.data import available
from mctslab.rng import seed_state
from mctslab.tsp import _playout, api, tsplib, warmup
from mctslab.tsp.experiments import load_instance


def _instance(name: str, n: int):
    if available(f"tsplib/{name}.tsp.gz"):
        return tsplib.load(name), name
    return load_instance(f"random-{n}-1"), f"random-{n}-1 (data folder absent, stands in for {name})"


def _rates(work, repetitions: int) -> tuple[float, float]:
    rates = []
    for _ in range(repetitions):
        start = time.perf_counter()
        amount = work()
        rates.append(amount / (time.perf_counter() - start))
    return max(rates), statistics.median(rates)


@benchmark("tsp.sa_moves_per_s", unit="proposals/s", goal=30e6)
def sa_moves_per_s():
    """The paper's SA (688,000 swap proposals) on pr1002, one core."""
    warmup()
    instance, label = _instance("pr1002", 1002)
    seeds = iter(range(1000))
    best, median = _rates(lambda: api.sa_paper(instance, next(seeds)).details["proposals"], 9)
    return {"value": best, "detail": f"{label}; best of 9 runs, median {median / 1e6:.1f} M/s"}


def _roulette(name: str, n: int, repetitions: int, playouts: int):
    warmup()
    instance, label = _instance(name, n)
    cities = api.cities(instance)
    path = np.zeros(n, np.int32)
    state = seed_state(1)
    scratch = _playout.playout_scratch(n, cities.xs32.shape[0])

    def work():
        for _ in range(playouts):  # complete playouts from the empty path: n - 1 roulette draws
            _playout.playout(cities, _playout.ROULETTE, path, 0, state, scratch)
        return playouts

    best, median = _rates(work, repetitions)
    return {"value": best, "detail": f"{label}; {playouts} playouts x {repetitions}, best; "
                                     f"median {median:,.1f}/s"}


@benchmark("tsp.roulette_playouts_per_s", unit="playouts/s", goal=1000)
def roulette_playouts_per_s():
    """Complete roulette playouts (probability ~ 1/w) on pr1002, one core."""
    return _roulette("pr1002", 1002, 5, 200)


@benchmark("tsp.roulette_playouts_per_s_d15112", unit="playouts/s", goal=4)
def roulette_playouts_per_s_d15112():
    """Complete roulette playouts on d15112, one core."""
    return _roulette("d15112", 15112, 3, 4)


def _mcts(name: str, n: int, search: str, playouts: int, repetitions: int):
    warmup()
    instance, label = _instance(name, n)
    mst = api.mst_length(instance)
    seeds = iter(range(1000))

    def work():
        return api.mcts(instance, "roulette", "mst", 2.0, next(seeds), playouts=playouts,
                        mst=mst, search=search).details["playouts"]

    best, median = _rates(work, repetitions)
    return {"value": best, "detail": f"{label}; MCT_RM, search {search}, {playouts:,} playouts "
                                     f"x {repetitions}, best; median {median:,.0f}/s"}


@benchmark("tsp.mcts_playouts_per_s", unit="playouts/s")
def mcts_playouts_per_s():
    """MCT_RM iterations (tree policy, roulette playout, backup) on pr1002, one search."""
    return _mcts("pr1002", 1002, "single", 3000, 5)


@benchmark("tsp.mcts_step_playouts_per_s", unit="playouts/s")
def mcts_step_playouts_per_s():
    """MCT_RM with one search per city on eil101: many short kernel calls (100 playouts per
    step), where the cost of passing the kernel its arrays shows."""
    return _mcts("eil101", 101, "step-best", 10_000, 5)


@benchmark("tsp.mst_seconds_d15112", unit="s", higher_is_better=False)
def mst_seconds_d15112():
    """Prim's MST on d15112 (O(n^2), weights on the fly)."""
    warmup()
    instance, label = _instance("d15112", 15112)
    best, median = _rates(lambda: (api.mst_length(instance), 1)[1], 3)
    return {"value": 1 / best, "detail": f"{label}; best of 3, median {1 / median:.2f} s"}


_PEAK_SCRIPT = """
import json, resource
from mctslab.tsp import api, experiments, warmup
warmup()
instance = experiments.load_instance({name!r})
mst = api.mst_length(instance)
sa = api.sa_paper(instance, 1)
api.mcts(instance, "roulette", "mst", 2.0, 1, time_limit=sa.seconds, mst=mst)
api.mcts(instance, "uniform", "mst", 2.0, 1, time_limit=sa.seconds, mst=mst)
api.sa_2opt(instance, 1, time_limit=sa.seconds)
print(json.dumps(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))
"""


@benchmark("tsp.peak_memory_mb_d15112", unit="MB", goal=2048, higher_is_better=False)
def peak_memory_mb_d15112():
    """Peak resident memory of a process running every method once on d15112."""
    name = "d15112" if available("tsplib/d15112.tsp.gz") else "random-15112-1"
    output = subprocess.run([sys.executable, "-c", _PEAK_SCRIPT.format(name=name)],
                            capture_output=True, text=True, check=True).stdout
    return {"value": float(json.loads(output.strip().splitlines()[-1])),
            "detail": f"{name}: load, MST, SA, MCT_RM and MCT_UM at SA's time, SA-2opt "
                      "(includes the Python interpreter, numpy, numba)"}
