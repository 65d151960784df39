"""Go performance figures for ``mctslab bench go`` (recorded in BENCHMARKS.md and docs/bench/go.md).

* ``go.light_playouts_per_s``: full UCT search (C 1.5, expansion threshold 1, light
  playouts) from the empty 19x19 board, 20,000 playouts, one core. Goal 15,000 (Pachi 12.90's
  light UCT does 12,100 on this kind of machine, a quoted figure: :data:`PACHI_LIGHT_19`).
* ``go.light_playouts_per_s_9x9``: the same on 9x9, 50,000 playouts (Pachi: 63,000).
* ``go.pattern_playouts_per_s``: the same on 19x19 with the "pattern" policy (captures,
  escapes and GNU Go's ``mc_montegnu_classic`` 3x3 weights near the last move, see
  ``_patterns``), 10,000 playouts. Goal 5,000 (Pachi's moggy playouts: 4,700, quoted from the
  issue; no same-run reference: OpenSpiel has no pattern rollouts).
* ``go.strong_speed_ratio`` (and ``_9x9``): the strong engine's playouts per second with
  RAVE, priors and heavy playouts on, as a share of the UCT engine's pattern playouts per
  second measured alternately in the same run (goal: at least 0.6).
* ``go.strong_ladders_ratio_9x9``: the strong engine's playouts per second with ladder reading
  (priors and playouts) as a share of its own without, alternately in the same run (no goal);
  ``go.strong_large_patterns_ratio_9x9`` the same with the large-pattern prior,
  ``go.strong_two_liberty_ratio_9x9`` with two-liberty tactics in the playouts.
* ``go.tree_memory_mb``: peak memory (tracemalloc: every NumPy array the search allocates,
  tree with its grown edge arrays, scratch board, buffers) of a search that builds a
  100,000-node tree on 19x19. Goal <= 200 MB.

The speed figures are the best of a few runs by wall clock (the machine is shared; the best run
is the least disturbed); the detail adds the best rate by CPU time and the load average, since
on a loaded machine the wall clock also counts the time the process waited for a core. OpenSpiel's ``MCTSBot`` with one random rollout per simulation
(``RandomRolloutEvaluator(n_rollouts=1)``, same C, komi 6.5) is timed in the same run when
``open-spiel`` is installed (``pip install -e .[bench]``) and reported as ``reference`` /
``ratio`` (simulations per second; its own budget is small because it is ~40x slower).
"""

from __future__ import annotations

import io
import os
import time
import tracemalloc

import numpy as np

from mctslab.core.bench import benchmark

PACHI_LIGHT_19 = 12_100  # quoted, not measured here (Pachi 12.90, one core, light UCT playouts)
PACHI_LIGHT_9 = 63_000
PACHI_MOGGY_19 = 4_700  # quoted, not measured here (Pachi's 3x3-pattern "moggy" playouts, one core)


def _openspiel_rate(size: int, simulations: int, moves: int = 1):
    """OpenSpiel MCTSBot simulations per second on an empty board, or (None, reason)."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        return None, "open-spiel not installed (pip install -e .[bench])"
    game = pyspiel.load_game("go", {"board_size": size, "komi": 6.5})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = mcts.MCTSBot(game, uct_c=1.5, max_simulations=simulations, evaluator=evaluator,
                       random_state=np.random.RandomState(0))
    state = game.new_initial_state()
    start = time.perf_counter()
    for _ in range(moves):
        bot.step(state)
    seconds = time.perf_counter() - start
    return simulations * moves / seconds, f"OpenSpiel MCTSBot, {simulations} simulations"


def _search_rate(size: int, playouts: int, repeats: int,
                 policy: str = "light") -> tuple[float, float, int]:
    """Best wall-clock and best CPU-time rate over ``repeats`` searches, and the tree size."""
    from mctslab.go.api import Board, search

    search(Board(size), 50, seed=0, policy=policy)  # compile / load from the cache
    best_wall = best_cpu = 0.0
    nodes = 0
    for seed in range(repeats):
        cpu = time.process_time()
        result = search(Board(size), playouts, seed=seed, policy=policy)
        cpu = time.process_time() - cpu
        best_wall = max(best_wall, result.playouts / result.seconds)
        best_cpu = max(best_cpu, result.playouts / cpu) if cpu > 0 else best_cpu
        nodes = result.nodes
    return best_wall, best_cpu, nodes


def _speed_record(size: int, playouts: int, repeats: int, quoted: int, os_sims: int) -> dict:
    rate, cpu_rate, nodes = _search_rate(size, playouts, repeats)
    reference, reference_detail = _openspiel_rate(size, os_sims)
    record = {"value": rate, "quoted_reference": quoted, "quoted_ratio": rate / quoted,
              "reference": reference, "ratio": None if reference is None else rate / reference,
              "cpu_time_rate": cpu_rate}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    record["detail"] = (f"UCT from the empty {size}x{size} board, {playouts:,} playouts "
                        f"(tree {nodes:,} nodes), best of {repeats} by wall clock; by CPU time "
                        f"{cpu_rate:,.0f}/s (load average {load:.1f} on {os.cpu_count()} cores); "
                        f"reference: {reference_detail}; quoted reference: Pachi 12.90 "
                        "light UCT")
    return record


@benchmark("go.light_playouts_per_s", unit="playouts/s", goal=15_000)
def light_playouts_per_s() -> dict:
    """19x19 UCT with light playouts from the empty board: playouts per second, one core."""
    return _speed_record(19, 20_000, 3, PACHI_LIGHT_19, 100)


@benchmark("go.light_playouts_per_s_9x9", unit="playouts/s")
def light_playouts_per_s_9x9() -> dict:
    """9x9 UCT with light playouts from the empty board: playouts per second, one core."""
    return _speed_record(9, 50_000, 3, PACHI_LIGHT_9, 500)


@benchmark("go.tree_memory_mb", unit="MB", goal=200, higher_is_better=False)
def tree_memory_mb() -> dict:
    """Peak memory of a 19x19 search that builds a 100,000-node tree (tracemalloc)."""
    from mctslab.go import uct
    from mctslab.go._board import new_state

    root = new_state(19)
    uct.run_search(root, 50, seed=0)  # compile / load from the cache
    tracemalloc.start()
    run = uct.run_search(root, 150_000, seed=0, max_nodes=100_000)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    tree_bytes = sum(array.nbytes for array in run.tree)
    return {"value": peak / 1e6,
            "detail": f"{run.nodes:,} nodes, {int(run.tree.sizes[1]):,} edges in use, tree "
                      f"arrays {tree_bytes / 1e6:.1f} MB allocated (edges grown by doubling); "
                      f"peak includes the copy made while growing"}


@benchmark("go.state_tabu_overhead_pct", unit="% time per move vs gTabu0", goal=10,
           higher_is_better=False)
def state_tabu_overhead() -> dict:
    """Extra time per move of gTabu18-hash and gTabu18-hash-win over gTabu0 (goal: at most
    10%; the paper paid +200%): 8,000 playouts, expansion threshold 30, on the 42-move position
    of a real 19x19 game; CPU time, best of 3 per configuration, the larger overhead of the two
    state-tabu variants reported."""
    from mctslab.go.api import Board, search
    from mctslab.go.experiments import tabu_position

    board: Board = tabu_position()
    search(board, 100, expansion_threshold=30, seed=0, tabu="gTabu18-hash-win")  # compile

    def best_cpu(tabu):
        best = float("inf")
        for seed in range(3):
            cpu = time.process_time()
            search(board, 8000, expansion_threshold=30, seed=seed, tabu=tabu)
            best = min(best, time.process_time() - cpu)
        return best

    base = best_cpu("gTabu0")
    seconds = {name: best_cpu(name) for name in ("gTabu18", "gTabu18-hash", "gTabu18-hash-win")}
    overhead = {name: 100.0 * (s / base - 1.0) for name, s in seconds.items()}
    worst = max(overhead["gTabu18-hash"], overhead["gTabu18-hash-win"])
    detail = f"gTabu0 {base:.3f} s/move; " + ", ".join(
        f"{name} {s:.3f} s ({overhead[name]:+.1f}%)" for name, s in seconds.items())
    return {"value": worst, "detail": detail + f"; load {os.getloadavg()[0]:.1f}"}


@benchmark("go.pattern_playouts_per_s", unit="playouts/s", goal=5_000)
def pattern_playouts_per_s() -> dict:
    """19x19 UCT with pattern playouts from the empty board: playouts per second, one core."""
    playouts, repeats = 10_000, 3
    rate, cpu_rate, nodes = _search_rate(19, playouts, repeats, policy="pattern")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return {"value": rate, "quoted_reference": PACHI_MOGGY_19,
            "quoted_ratio": rate / PACHI_MOGGY_19, "cpu_time_rate": cpu_rate,
            "detail": f"UCT from the empty 19x19 board, {playouts:,} playouts with the pattern "
                      f"policy (mc_montegnu_classic; tree {nodes:,} nodes), best of {repeats} by "
                      f"wall clock; by CPU time {cpu_rate:,.0f}/s (load average {load:.1f} on "
                      f"{os.cpu_count()} cores); quoted reference: Pachi 12.90 moggy playouts"}


def _host_vs_gnugo_mc(size: int, positions: int, playouts: int = 8000, level: int = 10) -> dict:
    """Time per move of the host engine (GNU Go's share and our search's) and of stock
    ``gnugo --monte-carlo`` at the same simulations, on the same stored positions."""
    from mctslab.go import gnugo
    from mctslab.go.engine import EngineSettings
    from mctslab.go.experiments import _position, veto_positions
    from mctslab.go.gtp import GtpServer

    gnugo.find_gnugo()
    spots = veto_positions(size, positions)
    host_s = ours_s = mc_s = 0.0
    for i, (path, moves) in enumerate(spots):
        board = _position(path, moves)
        settings = EngineSettings(size=size, komi=board.komi, playouts=playouts,
                                  policy="pattern", classical="gnugo", gnugo_level=level,
                                  root_select="winrate", resign=0.0, seed=i)
        with GtpServer(settings, stdin=io.BytesIO(), stdout=io.BytesIO(),
                       stderr=io.StringIO()) as server:
            server.board, server.size, server.komi = board, size, board.komi
            if i == 0:  # compile the search kernels before the clock (a throw-away move)
                server.host_move(board.to_move)
                server.decisions.clear()
            start = time.perf_counter()
            server.host_move(board.to_move)
            total = time.perf_counter() - start
            decision = server.decisions[-1]
        host_s += decision["host_seconds"]
        ours_s += total - decision["host_seconds"]
        argv = gnugo.gnugo_mc_argv(level=level, simulations=playouts, seed=i, komi=board.komi,
                                   size=size)
        with gnugo.GtpEngine(argv, fixed_size=19 if size == 19 else None) as engine:
            engine.boardsize(size)
            engine.clear_board()
            engine.komi(board.komi)
            for color, move in board.moves:
                engine.play(color, move)
            start = time.perf_counter()
            engine.genmove(board.to_move, timeout=600)
            mc_s += time.perf_counter() - start
    n = len(spots)
    host_move = (host_s + ours_s) / n
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return {"value": host_move, "reference": mc_s / n, "ratio": host_move / (mc_s / n),
            "detail": f"{n} stored {size}x{size} mid-game positions, {playouts:,} pattern "
                      f"playouts, GNU Go level {level}: per move GNU Go (genmove, top_moves, "
                      f"all_move_values, unconditional_status) {host_s / n:.3f} s + our search "
                      f"and shortlist {ours_s / n:.3f} s; reference: stock GNU Go 3.8 "
                      f"--monte-carlo --level {level}, {playouts:,} simulations, "
                      f"{mc_s / n:.3f} s per move (wall clock, load {load:.1f})"}


@benchmark("go.host_move_s_9x9", unit="s/move", higher_is_better=False)
def host_move_s_9x9() -> dict:
    """The host engine's time per move on 9x9 (GNU Go's share and ours), against stock GNU Go
    --monte-carlo at the same simulations on the same positions (goal: ratio <= 1.0)."""
    return _host_vs_gnugo_mc(9, 10)


@benchmark("go.host_move_s_19x19", unit="s/move", higher_is_better=False)
def host_move_s_19x19() -> dict:
    """The same on 19x19 (real games after move 60)."""
    return _host_vs_gnugo_mc(19, 4)


def _strong_vs_pattern(size: int, playouts: int, repeats: int) -> dict:
    """The strong engine's playouts per second (RAVE, priors and heavy playouts on: its
    defaults) against the UCT engine's with pattern playouts, measured alternately in the same
    run from the empty board; best of ``repeats`` each, by CPU time (the machine is shared)."""
    from mctslab.go import strong
    from mctslab.go.api import Board, search

    search(Board(size), 50, seed=0, policy="pattern")  # compile / load from the cache
    strong.search(Board(size), 50, seed=0)
    best = {"pattern": 0.0, "strong": 0.0}
    wall = {"pattern": 0.0, "strong": 0.0}
    nodes = 0
    for seed in range(repeats):
        for name in best:
            cpu = time.process_time()
            if name == "pattern":
                result = search(Board(size), playouts, seed=seed, policy="pattern")
            else:
                result = strong.search(Board(size), playouts, seed=seed)
                nodes = result.nodes
            cpu = time.process_time() - cpu
            best[name] = max(best[name], result.playouts / cpu) if cpu > 0 else best[name]
            wall[name] = max(wall[name], result.playouts_per_s)
    ratio = best["strong"] / best["pattern"]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return {"value": ratio, "reference": best["pattern"], "strong_playouts_per_s": best["strong"],
            "detail": f"{size}x{size} from the empty board, {playouts:,} playouts, best of "
                      f"{repeats} by CPU time: strong engine (RAVE, all priors, heavy playouts, "
                      f"expansion after 2 visits; tree {nodes:,} nodes) {best['strong']:,.0f}/s, "
                      f"UCT with pattern playouts {best['pattern']:,.0f}/s (by wall clock "
                      f"{wall['strong']:,.0f} and {wall['pattern']:,.0f}; load average "
                      f"{load:.1f} on {os.cpu_count()} cores)"}


@benchmark("go.strong_speed_ratio", unit="x pattern playouts/s", goal=0.6)
def strong_speed_ratio() -> dict:
    """19x19: the strong engine's playouts/s with RAVE and priors on, as a share of the UCT
    engine's pattern playouts/s measured in the same run (goal: at least 0.6)."""
    return _strong_vs_pattern(19, 10_000, 3)


@benchmark("go.strong_speed_ratio_9x9", unit="x pattern playouts/s", goal=0.6)
def strong_speed_ratio_9x9() -> dict:
    """The same on 9x9, 20,000 playouts."""
    return _strong_vs_pattern(9, 20_000, 3)


def _piece_ratio_9x9(on: dict, name: str, what: str) -> dict:
    """A piece's cost: the strong engine's playouts per CPU second on the empty 9x9 board with
    the search options ``on`` as a share of the same engine's without, 20,000 playouts, best
    of 3 each, the two arms alternately; ``name`` keys its rate in the result, ``what`` names
    it in the detail."""
    from mctslab.go import strong
    from mctslab.go.api import Board

    arms = {"off": {}, "on": on}
    for kwargs in arms.values():
        strong.search(Board(9), 50, seed=0, **kwargs)  # compile / load from the cache
    best = dict.fromkeys(arms, 0.0)
    for seed in range(3):
        for arm, kwargs in arms.items():
            cpu = time.process_time()
            result = strong.search(Board(9), 20_000, seed=seed, **kwargs)
            cpu = time.process_time() - cpu
            best[arm] = max(best[arm], result.playouts / cpu) if cpu > 0 else best[arm]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    rate, off = best["on"], best["off"]
    return {"value": rate / off, "reference": off, f"{name}_playouts_per_s": rate,
            "detail": f"9x9 from the empty board, 20,000 playouts, best of 3 by CPU time, the "
                      f"two arms alternately: with {what} {rate:,.0f}/s, without {off:,.0f}/s "
                      f"(load average {load:.1f} on {os.cpu_count()} cores)"}


@benchmark("go.strong_ladders_ratio_9x9", unit="x playouts/s without ladders")
def strong_ladders_ratio_9x9() -> dict:
    """9x9, 20,000 playouts from the empty board: the strong engine's playouts per second with
    ladder reading in its priors and playouts (``ladders="priors,playouts"``) as a share of the
    same engine's without, measured alternately in the same run, best of 3 by CPU time each
    (the ladders' cost: docs/bench/go.md, "Ladder reading")."""
    return _piece_ratio_9x9({"ladders": "priors,playouts"}, "ladders",
                            "ladders (priors and playouts)")


@benchmark("go.strong_large_patterns_ratio_9x9", unit="x playouts/s without large patterns")
def strong_large_patterns_ratio_9x9() -> dict:
    """9x9, 20,000 playouts from the empty board: the strong engine's playouts per second with
    the large-pattern prior (``large_patterns=100``) as a share of the same engine's without,
    alternately in the same run, best of 3 by CPU time each (docs/bench/go.md, "Large
    patterns")."""
    return _piece_ratio_9x9({"large_patterns": 100.0}, "large_patterns",
                            "large patterns (weight 100)")


@benchmark("go.strong_two_liberty_ratio_9x9", unit="x playouts/s without two-liberty tactics")
def strong_two_liberty_ratio_9x9() -> dict:
    """9x9, 20,000 playouts from the empty board: the strong engine's playouts per second with
    two-liberty tactics in its playouts (``two_liberty=True``) as a share of the same engine's
    without, alternately in the same run, best of 3 by CPU time each (docs/bench/go.md,
    "Two-liberty tactics")."""
    return _piece_ratio_9x9({"two_liberty": True}, "two_liberty", "two-liberty tactics")
