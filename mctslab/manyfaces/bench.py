"""Many Faces performance figures for ``mctslab bench manyfaces`` (recorded in BENCHMARKS.md
and docs/bench/manyfaces.md).

* ``manyfaces.full_match_ms``: a full-board match of every compiled pattern (patterns.db,
  patterns2.db, conn.db; hash prefilter and early exit on) on the move-100 position of a
  real game; best of 20 by wall clock. Goal <= 5 ms.
* ``manyfaces.incremental_match_ms``: the matcher's update after one move (captures
  included), mean over the 50 moves after that position; best of 5 passes. Goal <= 0.2 ms.
* ``manyfaces.replay_250_moves_s``: the first 250 moves of a real game with every knowledge
  structure maintained and groups, strength and influence recomputed after each move
  (:class:`mctslab.manyfaces.knowledge.Knowledge`); best of 3. Goal <= 1 s.

The machine is shared: the detail adds the CPU time and the load average.
"""

from __future__ import annotations

import os
import time

from mctslab.core.bench import benchmark

_GAME_INDEX = 5     # tom9d game used by every benchmark (sorted file names)


def _game(min_moves: int = 0):
    from mctslab import data
    from mctslab.go import sgf

    for path in sorted(data.find("go-games").glob("tom9d/*.sgf"))[_GAME_INDEX:]:
        _, info = sgf.load(path, 0)
        if len(info["moves"]) >= min_moves:
            return path.name, info["moves"]
    raise ValueError(f"no game with {min_moves} moves")


def _load() -> str:
    return f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"


def _matcher_setup():
    from mctslab.go.api import Board
    from mctslab.manyfaces import warmup
    from mctslab.manyfaces.api import Matcher
    from mctslab.manyfaces.patterns import compile_patterns, load_default

    warmup()
    comp = compile_patterns(load_default())
    name, moves = _game(160)
    board = Board.from_moves(19, moves[:100])
    return comp, name, moves, board, Matcher


@benchmark("manyfaces.full_match_ms", unit="ms", goal=5, higher_is_better=False)
def full_match_ms() -> dict:
    """Full-board match of all compiled patterns on a mid-game position (ms, one core)."""
    comp, name, _, board, Matcher = _matcher_setup()
    m = Matcher(comp, 19)
    stones = board.stones()
    m.set_board(stones)
    best = best_cpu = float("inf")
    for _ in range(20):
        t0, c0 = time.perf_counter(), time.process_time()
        counters = m.set_board(stones)
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    return {"value": 1000 * best,
            "detail": f"{comp.n_patterns} patterns, move 100 of {name}: {counters['matches']} "
                      f"matches, {counters['candidates']:,} candidates, {counters['ops']:,} "
                      f"ops; best CPU {1000 * best_cpu:.2f} ms; {_load()}"}


@benchmark("manyfaces.incremental_match_ms", unit="ms", goal=0.2, higher_is_better=False)
def incremental_match_ms() -> dict:
    """Incremental matcher update after one move, mean over 50 real moves (ms)."""
    comp, name, moves, board, Matcher = _matcher_setup()
    best = best_cpu = float("inf")
    ops = 0
    for _ in range(5):
        b = board.copy()
        m = Matcher(comp, 19)
        m.set_board(b.stones())
        wall = cpu = 0.0
        ops = 0
        for color, move in moves[100:150]:
            b.play(color, move)
            stones = b.stones()
            t0, c0 = time.perf_counter(), time.process_time()
            counters = m.update(stones)
            wall += time.perf_counter() - t0
            cpu += time.process_time() - c0
            ops += counters["ops"]
        best = min(best, wall / 50)
        best_cpu = min(best_cpu, cpu / 50)
    return {"value": 1000 * best,
            "detail": f"moves 101-150 of {name}: {ops / 50:,.0f} ops per update; best CPU "
                      f"{1000 * best_cpu:.3f} ms; {_load()}"}


@benchmark("manyfaces.replay_250_moves_s", unit="s", goal=1.0, higher_is_better=False)
def replay_250_moves_s() -> dict:
    """250 moves of a real game with every knowledge structure and influence each move (s)."""
    from mctslab.go.api import Board
    from mctslab.manyfaces import warmup
    from mctslab.manyfaces.knowledge import Knowledge

    warmup()
    name, moves = _game(250)
    best = best_cpu = float("inf")
    shares = {}
    for _ in range(3):
        t0, c0 = time.perf_counter(), time.process_time()
        know = Knowledge(Board(19))
        for color, move in moves[:250]:
            know.play(color, move)
        wall = time.perf_counter() - t0
        if wall < best:
            best, shares = wall, dict(know.seconds)
        best_cpu = min(best_cpu, time.process_time() - c0)
    total = sum(shares.values())
    parts = ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in shares.items())
    return {"value": best, "detail": f"{name}, 250 moves; best CPU {best_cpu:.3f} s; "
                                     f"{parts}; {_load()}"}
