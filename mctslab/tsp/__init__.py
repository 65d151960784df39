"""The TSP paper: MCTS applied to the TSP, compared with simulated annealing.

Shimomura & Takashima (IPSJ report): MCTS over partial Hamiltonian paths with uniform or
roulette (1/w) playouts against the paper's swap SA, on 77 TSPLIB instances, lengths normalised
by the MST. Reading guide:

- ``tsplib``: TSPLIB files (tsplib95 parses; GEO / EXPLICIT / errors handled here);
- ``_distance``, ``_mst``: TSPLIB metrics on the fly and Prim's MST (the normaliser);
- ``_sa``: the paper's SA; ``_sa2opt``: a 2-opt SA baseline; ``lkh``: LKH-3 through elkai;
- ``_playout``, ``_mcts``: default policies and the tree search (on ``mctslab.core.tree``);
- ``_exact``: Held-Karp ground truth; ``reference``: plain-Python twins for the tests;
- ``api``: the solvers' Python API;
- ``methods``: the methods' keys and labels (SA, MCT_UM / RM / RS and the Cp sweep, SA-2opt,
  LKH-3, the SA references), which the experiments write and the tables and figures read;
- ``experiments`` (scales, ``Config``, tasks, runs), ``tables``, ``figures``: notebook
  ``tsp_mcts_vs_sa``; ``claims``: the paper's headline claims and its ratios under the reading
  ``accept-all-sa``, judged from the notebook's tables or a record's (``record_rows``);
  ``cli``: ``mctslab tsp``; ``bench``: ``mctslab bench tsp``.
"""

import numpy as np

from mctslab.core.warmup import compile_once
from mctslab.tsp import lkh  # the module; lkh.lkh(instance, ...) runs LKH-3
from mctslab.tsp.api import (
    SolveResult,
    exact,
    mcts,
    mst_length,
    path_length,
    sa_2opt,
    sa_paper,
    tour_length,
)
from mctslab.tsp.tsplib import Instance, TsplibFormatError, from_coordinates, load, load_tour

__all__ = ["Instance", "TsplibFormatError", "SolveResult", "load", "load_tour", "mst_length",
           "path_length", "tour_length", "sa_paper", "mcts", "sa_2opt", "exact", "lkh", "warmup"]


@compile_once
def warmup() -> None:
    """Compile (or load from cache) every TSP kernel on a tiny instance, once per process
    (``compile_once``); the task functions call it first, so no timing includes it."""
    tiny = from_coordinates(np.random.default_rng(0).uniform(0, 100, (12, 2)), "warmup")
    mst_length(tiny)
    sa_paper(tiny, 0, t_start=10.0, t_end=5.0, iterations=10)
    sa_paper(tiny, 0, t_start=10.0, t_end=5.0, iterations=10, reading="accept-all")
    sa_paper(tiny, 0, t_start=10.0, t_end=5.0, iterations=10, naive=True)
    for policy in ("uniform", "roulette"):
        mcts(tiny, policy, "sd", 2.0, 0, playouts=30)
    sa_2opt(tiny, 0, moves_per_city=10)
    exact(from_coordinates(tiny.coords[:5], "warmup5"))
