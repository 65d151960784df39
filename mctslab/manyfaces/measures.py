"""The task functions of the notebook ``manyfaces_knowledge``'s measurements (each ``*_task``
takes ``(params, seed)`` and returns a JSON-ready dict; the runners of
:mod:`mctslab.manyfaces.experiments` hand them to the executor, so every result is stored at
once, a re-run reads it back, and a task that times something compiles the kernels first):

* :func:`cost_task` - one real position: the pattern matcher's operation counters and wall
  times for each stage of the paper's chain (:data:`COST_STAGES`);
* :func:`time_share_task` - one game replayed with every structure maintained and the matcher
  updated: seconds per component;
* :func:`influence_task` and :func:`territory_task` - one position of a real game: its
  influence field, and its territory estimate beside Tromp-Taylor;
* :func:`enclosed_task` - the raw field inside an empty square of one side, enclosed by a
  Black wall;
* :func:`joseki_task` - the joseki DAG's size and its compressed encoding;
* :func:`regression_task` and :func:`eye_db_task` - our answers to one of GNU Go's regression
  suites, and to GNU Go's eye-shape database.

The tables of :mod:`mctslab.manyfaces.tables` tabulate these results; none of them is
measured again there.
"""

from __future__ import annotations

import time

from mctslab import data
from mctslab.go import sgf
from mctslab.go.api import Board
from mctslab.manyfaces import eyes, joseki, regression, warmup
from mctslab.manyfaces.api import Matcher
from mctslab.manyfaces.knowledge import (
    COMPONENTS,
    INFLUENCE_DAMPING,
    PATTERN_MATCHING,
    Knowledge,
    enclosed_field,
    influence_field,
)
from mctslab.manyfaces.patterns import default_compiled

__all__ = ["COST_STAGES", "game_moves", "cost_task", "time_share_task",
           "influence_task", "territory_task", "enclosed_task", "joseki_task",
           "regression_task", "eye_db_task"]

# the matcher's switches at each stage of the paper's chain (labelled by
# mctslab.manyfaces.verdicts.PAPER_COST): a full match naive, with the 8-bit hash, then
# incremental updates near the last move without and with the word-wise early exit
COST_STAGES = ((dict(use_hash=False, early_exit=False), False),
               (dict(use_hash=True, early_exit=False), False),
               (dict(use_hash=True, early_exit=False), True),
               (dict(use_hash=True, early_exit=True), True))


def game_moves(relpath: str) -> list:
    """The moves of the game ``go-games/<relpath>``."""
    _, info = sgf.load(data.find(f"go-games/{relpath}"), 0)
    return info["moves"]


def _position(params: dict) -> tuple[str, int, list]:
    """(game, moves played, the game's moves) of ``params``: ``move`` moves into ``game``
    (``None``: its end)."""
    moves = game_moves(params["game"])
    move = params.get("move")
    return params["game"], len(moves) if move is None else int(move), moves


# ---------------------------------------------------------------- pattern matcher
def _timed(call, *args):
    t0 = time.perf_counter()
    counts = call(*args)
    return counts, time.perf_counter() - t0


def cost_task(params: dict, seed) -> dict:
    """Move ``move`` of ``game``: for each stage of :data:`COST_STAGES`, the matcher's counters
    summed and the wall time of each measurement (a full match of the position, or each
    incremental update over the next ``incremental_moves`` moves), and the wall time of a
    full match with every speed-up."""
    warmup()
    comp = default_compiled()
    game, move, moves = _position(params)
    board, rest = Board.from_moves(19, moves[:move]), moves[move:]
    stages, full_seconds = [], None
    for switches, incremental in COST_STAGES:
        m = Matcher(comp, 19, **switches)
        counts, seconds = {}, []
        if not incremental:
            m.set_board(board.stones())
            c, wall = _timed(m.set_board, board.stones())
            _add(counts, c)
            seconds.append(wall)
        else:
            b = board.copy()
            m.set_board(b.stones())
            if switches["early_exit"]:   # the full match with every speed-up, for its wall time
                _, full_seconds = _timed(m.set_board, b.stones())
            for color, point in rest[:int(params["incremental_moves"])]:
                b.play(color, point)
                c, wall = _timed(m.update, b.stones())
                _add(counts, c)
                seconds.append(wall)
        stages.append(dict(counts=counts, seconds=seconds))
    return dict(game=game, move=move, stages=stages, full_seconds=full_seconds,
                patterns=comp.n_patterns, tries=comp.n_tries)


def _add(total: dict, counts: dict) -> None:
    for key, n in counts.items():
        total[key] = total.get(key, 0) + int(n)


def time_share_task(params: dict, seed) -> dict:
    """``game`` replayed with every structure maintained, influence recomputed and the
    pattern matcher updated after each move: seconds per component (the knowledge
    structures' :data:`~mctslab.manyfaces.knowledge.COMPONENTS`, then
    :data:`~mctslab.manyfaces.knowledge.PATTERN_MATCHING`) and the moves replayed."""
    warmup()
    moves = game_moves(params["game"])
    know = Knowledge(Board(19))
    matcher = Matcher(default_compiled(), 19)
    matcher.set_board(know.board.stones())
    matching = 0.0
    for color, move in moves:
        know.play(color, move)
        _, wall = _timed(matcher.update, know.board.stones())
        matching += wall
    seconds = dict.fromkeys(COMPONENTS, 0.0)
    seconds.update(know.seconds)
    seconds[PATTERN_MATCHING] = matching
    return dict(game=params["game"], moves=len(moves), seconds=seconds)


# ---------------------------------------------------------------- positions of real games
def influence_task(params: dict, seed) -> dict:
    """The influence field of ``move`` moves into ``game`` (``None``: its end), its stones and
    its territory estimate (what :class:`~mctslab.manyfaces.knowledge.InfluenceField` holds)."""
    game, move, moves = _position(params)
    position = influence_field(Knowledge(Board.from_moves(19, moves[:move])), game, move)
    return dict(game=game, move=move, field=position.field, stones=position.stones,
                estimate=position.estimate)


def territory_task(params: dict, seed) -> dict:
    """The territory estimate of ``move`` moves into ``game`` (``None``: its end): areas from
    the influence field, the estimate (Black - White - komi), Tromp-Taylor on the same
    position and the dead groups."""
    game, move, moves = _position(params)
    know = Knowledge(Board.from_moves(19, moves[:move]))
    t = know.territory()
    dead = sum(group.strength == "dead" for group in know.groups())
    return dict(game=game, move=move, black_area=t["black"], white_area=t["white"],
                neutral=t["neutral"], estimate_b_minus_w_komi=t["estimate"],
                tromp_taylor=know.board.area_score(), dead_groups=dead)


def enclosed_task(params: dict, seed) -> dict:
    """The raw field inside an empty ``side`` x ``side`` square enclosed by a Black wall: the
    1/d field itself, its centre, lowest and highest interior values (and these normalised
    as the influence field normalises), and the 1/d**2 field's centre and highest value."""
    n = int(params["side"])
    f1, f2 = enclosed_field(n), enclosed_field(n, 2.0)
    c = n // 2
    return dict(side=n, area=n * n, centre_1_over_d=f1[c, c], min_1_over_d=f1.min(),
                max_1_over_d=f1.max(), normalised_min=f1.min() / (f1.min() + INFLUENCE_DAMPING),
                normalised_max=f1.max() / (f1.max() + INFLUENCE_DAMPING),
                centre_1_over_d2=f2[c, c], max_1_over_d2=f2.max(), field=f1)


# ---------------------------------------------------------------- data sets
def joseki_task(params: dict, seed) -> dict:
    """The joseki DAG of GNU Go's seven SGF trees: its statistics and its compressed encoding's
    sizes (:func:`~mctslab.manyfaces.joseki.bytes_per_move`; entry sizes as ``[bytes, count]``
    pairs, since a stored mapping's keys are texts)."""
    dag = joseki.load_joseki()
    sizes = joseki.bytes_per_move(dag)
    for key in ("entry_sizes", "untyped_entry_sizes"):
        sizes[key] = sorted(sizes[key].items())
    return dict(stats=dag.stats(), sizes=sizes)


def regression_task(params: dict, seed) -> dict:
    """Our answers to GNU Go's regression suite ``suite`` (one row per test:
    :func:`~mctslab.manyfaces.regression.agreement`)."""
    return dict(suite=params["suite"], rows=regression.agreement(params["suite"]))


def eye_db_task(params: dict, seed) -> dict:
    """Our eye values on GNU Go's eyes.db shapes without marginal points (one row per shape:
    :func:`~mctslab.manyfaces.eyes.compare_with_db`)."""
    return dict(rows=eyes.compare_with_db())
