"""Python API of the TSP paper: validate, prepare arrays, call the kernels, time them, wrap results.

Every solver returns a :class:`SolveResult` for the **Hamiltonian path** problem (the paper's
objective): ``length`` is the path length, ``tour_length`` the closed tour through the same
order. Times are wall-clock seconds of compiled code (:func:`mctslab.tsp.warmup` compiles
every kernel first, so compilation never counts), measured with ``time.perf_counter``.

Solvers: :func:`sa_paper` (Sec. 4), :func:`mcts` (Sec. 2-3; MCT_UM / MCT_RM / MCT_RS),
:func:`sa_2opt` (beyond the paper), :func:`exact` (Held-Karp, n <= 20), and
:func:`mctslab.tsp.lkh.lkh` (LKH-3 through elkai); ``mctslab tsp solve`` (``cli.py``) picks
one by method name.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from scipy.spatial import cKDTree

from mctslab.core.tree import make_tree, tree_grow, tree_new_node
from mctslab.rng import seed_state
from mctslab.tsp import _distance, _exact, _mcts, _mst, _playout, _sa, _sa2opt
from mctslab.tsp.tsplib import Instance

__all__ = ["SolveResult", "mst_length", "path_length", "tour_length", "check_path", "sa_paper",
           "mcts", "sa_2opt", "exact", "SA_PAPER", "MCTS_VARIANTS", "EXACT_MAX_CITIES"]

# The paper's SA schedule (Sec. 4).
SA_PAPER = {"t_start": 10000.0, "t_end": 10.0, "iterations": 1000, "cooling": 0.99}
# The paper's MCTS methods (Sec. 4): default policy and Cp rule (k = 2).
MCTS_VARIANTS = {"mct-um": ("uniform", "mst", 2.0), "mct-rm": ("roulette", "mst", 2.0),
                 "mct-rs": ("roulette", "sd", 2.0)}
EXACT_MAX_CITIES = 20
MAX_TRACE_CHUNK = 1 << 16  # playouts per kernel call at most (bounds the trace buffer)


@dataclass
class SolveResult:
    """A Hamiltonian path found by ``method`` and how it was found (``details``: per method)."""

    method: str
    instance: str
    n: int
    path: np.ndarray
    length: float
    tour_length: float
    seconds: float
    details: dict = field(default_factory=dict)


def _seed(seed):
    return seed_state(seed)


def check_path(instance: Instance, path) -> np.ndarray:
    """``path`` as int32 after checking it is a permutation of the instance's cities."""
    path = np.ascontiguousarray(path, dtype=np.int32)
    n = instance.dimension
    if path.shape != (n,) or not np.array_equal(np.sort(path), np.arange(n, dtype=np.int32)):
        raise ValueError(f"a path of {instance.name} must visit each of its {n} cities once")
    return path


def path_length(instance: Instance, path) -> float:
    return float(_distance.path_length(*instance.arrays, check_path(instance, path)))


def tour_length(instance: Instance, path) -> float:
    return float(_distance.tour_length(*instance.arrays, check_path(instance, path)))


def mst_length(instance: Instance) -> float:
    """Minimum-spanning-tree length (Prim, exact, TSPLIB metric): the paper's normaliser."""
    return float(_mst.mst_length(*instance.arrays, instance.dimension))


def _result(method, instance, path, seconds, **details) -> SolveResult:
    return SolveResult(method=method, instance=instance.name, n=instance.dimension, path=path,
                       length=float(_distance.path_length(*instance.arrays, path)),
                       tour_length=float(_distance.tour_length(*instance.arrays, path)),
                       seconds=seconds, details=details)


# -- the paper's SA ------------------------------------------------------------------------------
def sa_levels(t_start: float, t_end: float, cooling: float) -> int:
    """Number of temperatures of the geometric schedule (688 for the paper's)."""
    count, temperature = 0, t_start
    while temperature > t_end:
        count += 1
        temperature *= cooling
    return count


# How SA decides to accept a proposal: "metropolis" (the paper's SA as we read it) or
# "accept-all" (every proposal accepted, the best path seen kept: a near-random SA whose ratios
# come near the paper's, docs/bench/tsp.md "the ineffective SA"; the same proposals and schedule).
SA_READINGS = ("metropolis", "accept-all")


def sa_paper(instance: Instance, seed=None, *, t_start=10000.0, t_end=10.0, iterations=1000,
             cooling=0.99, reading="metropolis", naive=False) -> SolveResult:
    """The paper's SA (Sec. 4) from a random permutation; ``details['trace']`` = best per level.

    ``length`` is the best path seen (``details['final_length']`` the last state's).
    ``reading`` is one of :data:`SA_READINGS`. ``naive=True`` runs the same SA recomputing the
    whole path length per proposal (O(n), :func:`mctslab.tsp._sa.sa_swap_naive`): the same
    result with integer weights, for timing only (Metropolis only; no trace).
    """
    if not (t_start > t_end > 0 and 0 < cooling < 1 and iterations >= 1):
        raise ValueError("SA needs t_start > t_end > 0, 0 < cooling < 1 and iterations >= 1")
    if reading not in SA_READINGS:
        raise ValueError(f"SA reading must be one of {', '.join(SA_READINGS)}, got {reading!r}")
    if naive and reading != "metropolis":
        raise ValueError("the naive SA runs the Metropolis reading only")
    n = instance.dimension
    rng_state = _seed(seed)
    path = np.empty(n, np.int32)
    _sa.random_permutation(n, rng_state, path)
    best_path = path.copy()
    if naive:
        start = time.perf_counter()
        best, final, proposals, accepted = _sa.sa_swap_naive(
            *instance.arrays, path, rng_state, t_start, t_end, iterations, cooling, best_path)
        seconds = time.perf_counter() - start
        return _result("sa", instance, best_path, seconds, final_length=float(final),
                       proposals=int(proposals), accepted=int(accepted),
                       trace=np.zeros(0, np.float64))
    trace = np.zeros(sa_levels(t_start, t_end, cooling), np.float64)
    start = time.perf_counter()
    best, final, proposals, accepted = _sa.sa_swap(*instance.arrays, path, rng_state, t_start,
                                                   t_end, iterations, cooling, best_path, trace,
                                                   reading == "accept-all")
    seconds = time.perf_counter() - start
    return _result("sa", instance, best_path, seconds, final_length=float(final),
                   proposals=int(proposals), accepted=int(accepted), trace=trace)


# -- MCTS ----------------------------------------------------------------------------------------
def cities(instance: Instance) -> _playout.Cities:
    """``instance`` as the MCTS and playout kernels take it (:class:`_playout.Cities`)."""
    return _playout.Cities(*instance.arrays, *float32_coordinates(instance))


def float32_coordinates(instance: Instance) -> tuple[np.ndarray, np.ndarray]:
    """Coordinates for the roulette's float32 weight pass (empty for GEO and EXPLICIT)."""
    if instance.metric in (_distance.GEO, _distance.EXPLICIT):
        empty = np.zeros(0, np.float32)
        return empty, empty
    # Shift to the bounding box's corner: float32 keeps 24 bits, so small numbers lose less.
    return ((instance.xs - instance.xs.min()).astype(np.float32),
            (instance.ys - instance.ys.min()).astype(np.float32))


class _Search:
    """The arrays one MCTS run owns: tree (grown on demand up to the caps) and scratch."""

    def __init__(self, instance, max_nodes, max_edges):
        self.n = n = instance.dimension
        self.caps = (max_nodes, max_edges)
        self.tree = make_tree(min(256, max_nodes), min(4 * n, max_edges))
        tree_new_node(self.tree)  # the root, node 0
        self.cities = cities(instance)
        self.scratch = _mcts.search_scratch(n)
        self.playout_scratch = _playout.playout_scratch(n, self.cities.xs32.shape[0])

    @property
    def can_grow(self) -> tuple[bool, bool]:
        """Whether the node and the edge arrays are still below their caps."""
        tree = self.tree
        return tree.node_visits.shape[0] < self.caps[0], tree.edge_child.shape[0] < self.caps[1]

    def run(self, code, cp, rng_state, size, best_path, best_length, trace, stats, deadline,
            prefix_len=0):
        """Run ``size`` iterations, growing the tree when the kernel asks; return how many ran.

        Stops early if ``deadline`` (perf_counter time) has passed when the tree must grow.
        The root is the partial path ``self.scratch.path[:prefix_len]``.
        """
        ran = 0
        while ran < size:
            ran += _mcts.mcts_search(self.tree, self.cities, code, cp, rng_state, size - ran,
                                     *self.can_grow, best_path, best_length, trace[ran:], stats,
                                     self.scratch, self.playout_scratch, prefix_len)
            if ran < size:
                if ran and deadline is not None and time.perf_counter() > deadline:
                    break
                self.grow()
        return ran

    def grow(self):
        """Double the tree's node and edge arrays (within the caps), keeping its contents;
        the edges grow by at least one node's worth (``n`` children)."""
        tree, n = self.tree, self.n
        self.tree = tree_grow(tree, min(self.caps[0], 2 * tree.node_visits.shape[0]),
                              min(self.caps[1], max(2 * tree.edge_child.shape[0],
                                                    tree.edge_child.shape[0] + n)))

    def reroot(self, prefix) -> None:
        """Empty the tree (arrays kept) and root it at the partial path ``prefix``."""
        self.tree.sizes[:] = 0
        tree_new_node(self.tree)
        self.scratch.path[:len(prefix)] = prefix


# How MCTS spends its budget (see :func:`mcts`).
SEARCH_MODES = ("single", "step-best", "step-mean")


def mcts(instance: Instance, policy="roulette", cp_rule="mst", cp_k=2.0, seed=None, *,  # noqa: PLR0913 - the public entry point: the paper's settings, then one keyword per budget and option
         time_limit=None, playouts=None, mst=None, target=None, max_nodes=2_000_000,
         max_edges=50_000_000, search="single", stop_at_target=False) -> SolveResult:
    """MCTS (Sec. 2-3) until ``time_limit`` seconds or ``playouts`` iterations, whichever first.

    ``policy``: "uniform" | "roulette"; ``Cp`` = ``cp_k`` x MST length (``cp_rule="mst"``) or
    ``cp_k`` x SD of the root children's lengths (``"sd"``). At least one playout always runs,
    even when it alone exceeds ``time_limit`` (``details['first_playout_over_budget']``).
    ``target``: record when the best length first reaches it (time-to-beat-SA);
    ``stop_at_target``: then stop at the end of that chunk of playouts (``search="single"``).

    ``search`` (the paper's Fig. 2 allows both readings; docs/bench/tsp.md):

    - ``"single"``: one search from the empty path for the whole budget (``MCT_SEARCH`` once);
    - ``"step-best"`` / ``"step-mean"``: ``MCT_SEARCH`` once per city, as a game engine plays
      one move per search. Step d roots a fresh tree at the committed prefix of d cities and
      gets (remaining time or playouts) / (remaining steps), at least one playout; then one
      city is committed: ``step-best`` the next city of the best path found so far (the child
      holding the best path, Sec. 3.4), ``step-mean`` the created root child with the smallest
      mean. When the budget runs out, the remaining steps are not searched.

    The answer is always the best complete path found (for ``step-best`` it runs through the
    committed prefix).
    """
    if policy not in ("uniform", "roulette"):
        raise ValueError(f"unknown default policy {policy!r}; use 'uniform' or 'roulette'")
    if cp_rule not in ("mst", "sd"):
        raise ValueError(f"unknown Cp rule {cp_rule!r}; use 'mst' or 'sd'")
    if search not in SEARCH_MODES:
        raise ValueError(f"unknown MCTS search {search!r}; use one of {', '.join(SEARCH_MODES)}")
    if time_limit is None and playouts is None:
        raise ValueError("MCTS needs a time_limit (seconds) or a number of playouts")
    if cp_rule == "mst":  # the MST is the figures' normaliser too: computed once, not timed
        mst = mst_length(instance) if mst is None else mst
    run = _MctsRun(instance, policy, cp_rule, cp_k, mst, seed, max_nodes, max_edges, time_limit,
                   target)
    steps = 0
    if search == "single":
        run.single(playouts, stop_at_target)
    else:
        steps = run.stepwise(playouts, search)
    return run.result(search, steps, time_limit)


class _MctsRun:
    """One call of :func:`mcts`: its search arrays, its budget and what its chunks of playouts
    recorded (improvements, the first time ``target`` was reached, the playout rate)."""

    def __init__(self, instance, policy, cp_rule, cp_k, mst, seed, max_nodes, max_edges,
                 time_limit, target):
        self.instance, self.n = instance, instance.dimension
        self.policy, self.cp_rule, self.cp_k, self.mst, self.target = (policy, cp_rule, cp_k,
                                                                       mst, target)
        self.start = time.perf_counter()
        self.cp = self.fresh_cp()
        self.arrays = _Search(instance, max_nodes, max_edges)
        self.rng_state = _seed(seed)
        self.best_path = np.arange(self.n, dtype=np.int32)
        self.best_length = np.array([np.inf])
        self.stats = np.zeros(4, np.int64)
        self.code = _playout.UNIFORM if policy == "uniform" else _playout.ROULETTE
        self.improvements, self.reached, self.first_playout, self.per_playout = [], None, None, None
        self.deadline = None if time_limit is None else self.start + time_limit

    def fresh_cp(self) -> np.ndarray:
        if self.cp_rule == "mst":
            return np.array([2.0 * self.cp_k * self.mst, self.cp_k, _mcts.CP_FIXED])
        return np.array([0.0, self.cp_k, _mcts.SD_PENDING])

    def chunk(self, size, prefix_len=0) -> int:
        """Run ``size`` iterations from the current root, record improvements; return how many."""
        done = int(self.stats[0])
        trace = np.empty(size, np.float64)
        chunk_start = time.perf_counter()
        ran = self.arrays.run(self.code, self.cp, self.rng_state, size, self.best_path,
                              self.best_length, trace, self.stats, self.deadline, prefix_len)
        chunk_end = time.perf_counter()
        if self.first_playout is None:
            self.first_playout = chunk_end - self.start
        self.per_playout = (chunk_end - chunk_start) / ran  # the latest rate (trees deepen)
        # Playouts cost about the same, so a playout's time is interpolated within its chunk.
        previous = self.improvements[-1][2] if self.improvements else np.inf
        for index in np.flatnonzero(np.diff(np.concatenate(([previous], trace[:ran]))) < 0):
            at = chunk_start - self.start + (index + 1) / ran * (chunk_end - chunk_start)
            self.improvements.append((at, done + index + 1, float(trace[index])))
            if self.target is not None and self.reached is None and trace[index] <= self.target:
                self.reached = (at, done + index + 1)
        return ran

    def single(self, playouts, stop_at_target) -> None:
        """``search="single"``: one search from the empty path for the whole budget."""
        deadline = self.deadline
        while playouts is None or self.stats[0] < playouts:
            done, now = int(self.stats[0]), time.perf_counter()
            if not done:
                size = 1  # the first chunk times one playout
            elif deadline is not None and now + self.per_playout > deadline:
                break  # the next playout would not finish in time
            else:  # half the remaining time, so the chunks close in on the deadline
                size = (MAX_TRACE_CHUNK if deadline is None
                        else int(0.5 * (deadline - now) / self.per_playout))
            size = max(1, min(size, MAX_TRACE_CHUNK, (playouts or MAX_TRACE_CHUNK) - done))
            if self.chunk(size) < size:
                break  # the deadline passed while the tree was growing
            if stop_at_target and self.reached is not None:
                break

    def stepwise(self, playouts, search) -> int:
        """``search="step-best"`` / ``"step-mean"``: one search per city; the steps searched."""
        n, deadline = self.n, self.deadline
        prefix = np.zeros(n, np.int32)
        steps = 0
        for depth in range(max(n - 1, 1)):  # the last city follows from the others
            done, now = int(self.stats[0]), time.perf_counter()
            if depth and ((playouts is not None and done >= playouts)
                          or (deadline is not None and now >= deadline)):
                break
            if depth:
                self.arrays.reroot(prefix[:depth])
                self.cp = self.fresh_cp()
            ran = 0
            if deadline is not None and self.per_playout is None:
                ran = self.chunk(1, depth)  # the first playout times one
                now = time.perf_counter()
            left = max(n - 1, 1) - depth
            size = MAX_TRACE_CHUNK
            if playouts is not None:
                size = (playouts - done) // left
            if deadline is not None:
                size = min(size, int((deadline - now) / left / self.per_playout) + ran)
            step_size = max(1, min(size, MAX_TRACE_CHUNK))  # at least one playout per step
            if ran < step_size:
                ran += self.chunk(step_size - ran, depth)
            steps += 1
            if search == "step-best" or not ran:
                prefix[depth] = self.best_path[depth]
            else:
                prefix[depth] = self.smallest_mean_child()
        return steps

    def smallest_mean_child(self) -> int:
        """The city of the created root child with the smallest mean (ties: the first)."""
        tree = self.arrays.tree
        first, count = tree.node_first_edge[0], tree.node_num_edges[0]
        children = tree.edge_child[first:first + count]
        created = children >= 0
        means = np.full(count, np.inf)
        means[created] = (tree.node_value_sum[children[created]]
                          / tree.node_visits[children[created]])
        return tree.edge_move[first + int(np.argmin(means))]

    def result(self, search, steps, time_limit) -> SolveResult:
        seconds = time.perf_counter() - self.start
        tree, stats, reached = self.arrays.tree, self.stats, self.reached
        return _result(
            f"mcts-{self.policy}-{self.cp_rule}", self.instance, self.best_path, seconds,
            playouts=int(stats[0]), policy=self.policy, cp_rule=self.cp_rule, cp_k=self.cp_k,
            cp=float(self.cp[0] / 2.0), search=search, steps=steps,
            tree_nodes=int(tree.sizes[0]), tree_edges=int(tree.sizes[1]),
            node_budget_hits=int(stats[1]), edge_budget_hits=int(stats[2]),
            max_depth=int(stats[3]), first_playout_seconds=self.first_playout,
            first_playout_over_budget=bool(time_limit is not None
                                           and self.first_playout > time_limit),
            improvements=self.improvements, target=self.target,
            time_to_target=None if reached is None else reached[0],
            playouts_to_target=None if reached is None else reached[1])


# -- SA with 2-opt moves (beyond the paper) ------------------------------------------------------
def neighbor_lists(instance: Instance, k: int = 10) -> np.ndarray:
    """int32[n, k]: each city's k nearest cities (TSPLIB metrics are monotone in the geometry)."""
    n = instance.dimension
    k = max(1, min(k, n - 1))
    if instance.metric == _distance.EXPLICIT:
        order = np.argsort(instance.matrix + np.diag(np.full(n, np.inf)), axis=1, kind="stable")
        return np.ascontiguousarray(order[:, :k], dtype=np.int32)
    if instance.metric == _distance.GEO:  # chord length on the sphere orders like arc length
        lat, lon = instance.xs, instance.ys
        points = np.column_stack([np.cos(lat) * np.cos(lon), np.cos(lat) * np.sin(lon), np.sin(lat)])
    else:
        points = np.column_stack([instance.xs, instance.ys])
    _, index = cKDTree(points).query(points, k=k + 1)
    index = np.asarray(index).reshape(n, k + 1)
    rows = [row[row != city][:k] for city, row in enumerate(index)]
    return np.ascontiguousarray(np.array(rows), dtype=np.int32)


def sa_2opt(instance: Instance, seed=None, *, time_limit=None, moves_per_city=400,
            t_start_factor=2.0, t_end_factor=0.05, neighbors=10, chunks=20) -> SolveResult:
    """SA with neighbour-list 2-opt moves; temperatures scaled to the instance.

    ``T`` runs geometrically from ``t_start_factor`` to ``t_end_factor`` times the mean
    nearest-neighbour weight. Without ``time_limit`` it makes ``moves_per_city * n`` proposals
    in one call (deterministic for a seed); with it, the budget (including the neighbour lists)
    is split into ``chunks`` whose temperature ranges follow the elapsed fraction.
    """
    n = instance.dimension
    start = time.perf_counter()
    rng_state = _seed(seed)
    path = np.empty(n, np.int32)
    _sa.random_permutation(n, rng_state, path)
    if n < 4:  # nothing to anneal: any order of 1 or 2 cities, or the exact answer for 3
        return _result("sa-2opt", instance, exact(instance).path, time.perf_counter() - start,
                       proposals=0)
    near = neighbor_lists(instance, neighbors)
    nn = np.array([_distance.weight(*instance.arrays, c, near[c, 0]) for c in range(n)])
    scale = max(float(nn.mean()), 1e-9)
    t_hot, t_cold = t_start_factor * scale, t_end_factor * scale
    tour = np.append(path, np.int32(n)).astype(np.int32)
    pos = np.empty(n + 1, np.int32)
    pos[tour] = np.arange(n + 1, dtype=np.int32)
    initial = float(_distance.path_length(*instance.arrays, path))
    lengths, best_tour = np.array([initial, np.inf]), tour.copy()
    proposals = accepted = 0
    profile = []

    def temperature(fraction):
        return t_hot * (t_cold / t_hot) ** min(fraction, 1.0)

    if time_limit is None:
        total = moves_per_city * n
        accepted = _sa2opt.sa_2opt(*instance.arrays, near, tour, pos, lengths, rng_state,
                                   t_hot, t_cold, total, best_tour)
        proposals = total
    else:
        per_move = None
        while True:
            elapsed = time.perf_counter() - start
            if proposals and elapsed >= time_limit:
                break
            fraction = elapsed / time_limit
            if per_move is None:  # a first, short chunk measures the move rate
                moves, span = 1000, 0.0
            else:
                seconds = min(time_limit / chunks, max(time_limit - elapsed, 0.0))
                moves = max(1000, int(seconds / per_move))
                span = moves * per_move / time_limit
            chunk_start = time.perf_counter()
            accepted += _sa2opt.sa_2opt(*instance.arrays, near, tour, pos, lengths, rng_state,
                                        temperature(fraction), temperature(fraction + span),
                                        moves, best_tour)
            per_move = (time.perf_counter() - chunk_start) / moves
            proposals += moves
            profile.append((time.perf_counter() - start, proposals, float(lengths[1])))
    shift = int(np.flatnonzero(best_tour == n)[0])
    best_path = np.roll(best_tour, -shift)[1:].astype(np.int32)
    return _result("sa-2opt", instance, np.ascontiguousarray(best_path), time.perf_counter() - start,
                   proposals=int(proposals), accepted=int(accepted), temperature_scale=scale,
                   profile=profile)


# -- exact ---------------------------------------------------------------------------------------
def exact(instance: Instance) -> SolveResult:
    """Shortest Hamiltonian path by Held-Karp (n <= 20; ground truth for the tests)."""
    n = instance.dimension
    if n > EXACT_MAX_CITIES:
        raise ValueError(f"method 'exact' (Held-Karp, O(2^n n^2)) is limited to "
                         f"{EXACT_MAX_CITIES} cities; {instance.name} has {n}")
    dist = _distance.distance_matrix(*instance.arrays, n)
    path = np.empty(n, np.int32)
    start = time.perf_counter()
    _exact.held_karp_path(dist, path)
    return _result("exact", instance, path, time.perf_counter() - start)

