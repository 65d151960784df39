"""Playing a record's plan (:mod:`mctslab.go.plans`): its rows' matches in the order of
:func:`mctslab.go.plans.schedule` (interleaved, resumed from the stored games), each
``mctslab go match`` of a row run in this process with its console output appended to the
row's log (``DIR/<row>.log``); and the veto-rate steps of the state-tabu notebook's paper
scale (:func:`veto_rates`).

The match itself is the caller's ``play(argv)`` (the ``go match`` verb, :mod:`mctslab.go.cli`);
``tasks(argv)`` gives the games a row's arguments play, so that a row whose stored games are
not the plan's (other settings, another seed) is refused before anything is played into it.
"""

from __future__ import annotations

import contextlib
import datetime
import json
from dataclasses import dataclass, replace
from pathlib import Path

from mctslab.core.executor import run_tasks
from mctslab.go import experiments, match_record, plans, tables
from mctslab.go.played import Played

__all__ = ["VETO_STEPS", "Call", "stored_games", "foreign_games", "describe", "prepare", "run",
           "play_plan", "strong_queue", "records_queue", "veto_rates"]

# the veto rates at the notebook's paper scale: 19x19 positions 20 at a time, then 9x9 (keyed
# tasks: each step reruns nothing of the last)
VETO_STEPS = (((19,), 20), ((19,), 40), ((19,), 60), ((19,), 80), ((19,), 100), ((9,), 100))


@dataclass(frozen=True)
class Call:
    """One match of a row: ``games`` games into ``out``, ``argv`` its ``go match`` arguments,
    its output appended to ``log``."""

    row: str
    games: int
    argv: tuple[str, ...]
    out: Path
    log: Path


def stored_games(folder, plan: plans.Plan) -> dict[str, int]:
    """Games stored in each row's match folder (plain and packed stores)."""
    return {row.name: match_record.games_stored(Path(folder) / row.name) for row in plan.rows}


def _stored_ids(match: Path) -> set[str]:
    return {r["id"] for store in match_record.match_stores(match)
            for r in match_record.stored(store)}


def foreign_games(folder, plan: plans.Plan, row: str, tasks) -> int:
    """Stored games of ``row`` that are not among the plan's games of that row (``tasks(argv)``:
    the tasks of ``go match`` arguments), over as many games as are stored or planned."""
    ids = _stored_ids(Path(folder) / row)
    if not ids:
        return 0
    games = max(len(ids), plan.row(row).games)
    planned = {task.id for task in tasks(plans.match_argv(plan, row, games, "-"))}
    return len(ids - planned)


def describe(folder, plan: plans.Plan, tasks) -> str:
    """The plan in words: its protocol, seed, step and shared flags, then each row's games
    stored and planned, its stored games that are not the plan's (:func:`foreign_games`) and
    its flags."""
    stored = stored_games(folder, plan)
    lines = [f"{folder}: protocol {plan.protocol}, seed {plan.seed}, {plan.step} games of "
             f"every row at a time; every row: mctslab go match {' '.join(plan.match)}"]
    for row in plan.rows:
        foreign = foreign_games(folder, plan, row.name, tasks)
        lines.append(f"  {row.name}: {stored[row.name]} of {row.games} games stored"
                     + (f", {foreign} NOT the plan's" if foreign else "")
                     + (f"; {' '.join(row.flags)}" if row.flags else ""))
    return "\n".join(lines)


def _summary_games(match: Path) -> int | None:
    path = match / "summary.json"
    return int(json.loads(path.read_text())["games"]) if path.is_file() else None


def prepare(folder, *, rows=None, games: int | None = None, workers: int = 1,
            protocol: str | None = None) -> tuple[plans.Plan, list[Call]]:
    """The record's plan with ``rows`` added or raised to ``games`` (:meth:`Plan.with_rows`;
    a record without ``plan.json``: its protocol's plan, or only ``rows`` when named) and the matches that play them (:func:`mctslab.go.plans.schedule`); a match whose games
    are stored and whose summary already counts them is left out."""
    folder = Path(folder)
    plan = plans.load(folder, protocol)
    if rows and not (folder / plans.PLAN).is_file():  # a new record holds the rows asked for
        plan = replace(plan, rows=())
    if rows or games is not None:
        plan = plan.with_rows(rows or [row.name for row in plan.rows], games)
    stored = stored_games(folder, plan)
    calls = []
    for row, n in plans.schedule(plan, stored, rows, games):
        out = folder / row
        if stored[row] >= n and _summary_games(out) == n:
            continue
        calls.append(Call(row, n, tuple(plans.match_argv(plan, row, n, out, workers)), out,
                          folder / f"{row}.log"))
    return plan, calls


def run(folder, plan: plans.Plan, calls: list[Call], play, tasks, echo=print) -> int:
    """Save ``plan`` in ``folder`` (when there is a call) and play ``calls`` in order, each ``play(argv)`` with its
    output appended to its log. Before anything is played, every call's arguments are read
    (``tasks(argv)``, a ValueError for a bad one) and a row whose stored games are not the
    plan's (:func:`foreign_games`) is refused with a ValueError. A match that fails
    (``ValueError``: games that failed, kept stored) is said and the others go on. Returns
    the number that failed."""
    for call in calls:
        tasks(list(call.argv))
        foreign = foreign_games(folder, plan, call.row, tasks)
        if foreign:
            raise ValueError(f"{call.out}: {foreign} stored games are not the plan's (other "
                             f"settings or seed): the plan does not describe this row")
    if calls:  # a record with nothing to play is left as it is
        plans.save(plan, folder)
    failed = 0
    for call in calls:
        echo(f"{call.row}: to {call.games} games (log {call.log})")
        call.log.parent.mkdir(parents=True, exist_ok=True)
        with open(call.log, "a") as log:
            try:
                with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
                    play(list(call.argv))
            except ValueError as exc:
                print(f"error: {exc}", file=log)
                echo(f"{call.row}: failed: {exc}")
                failed += 1
    return failed


def play_plan(folder, play, tasks, *, rows=None, games: int | None = None, workers: int = 1,
              protocol: str | None = None, echo=print) -> int:
    """:func:`prepare` then :func:`run`: the record's plan played; returns the failed
    matches."""
    plan, calls = prepare(folder, rows=rows, games=games, workers=workers, protocol=protocol)
    return run(folder, plan, calls, play, tasks, echo=echo)


def strong_queue(queue: str, words, play, tasks, *, record, record19=None, workers: int = 1,
                 echo=print) -> int:
    """The strong engine's queue ``queue`` (``validate``, ``ablation``, ``pilot19``, ``tabu``:
    :func:`mctslab.go.plans.queue_request`) played into the match record ``record`` (pilot19:
    ``record19``, default ``records/go_state_tabu/strong19-<today>``)."""
    protocol, rows, games = plans.queue_request(queue, words)
    if queue == "pilot19":
        today = datetime.datetime.now(datetime.UTC).date().isoformat()
        record = record19 or f"records/go_state_tabu/strong19-{today}"
    return play_plan(record, play, tasks, rows=rows, games=games, workers=workers,
                     protocol=protocol, echo=echo)


def records_queue(queue: str, rows, play, tasks, *, runs, echo=print) -> int:
    """The state-tabu paper's queue ``9x9`` or ``19x19`` (``rows``: some of its rows; 19x19:
    ``veto`` for the veto rates, which follow its rows) under ``runs``: ``runs/go9/<row>``,
    ``runs/go19/<row>``, ``runs/veto`` (its log ``veto.log``)."""
    runs = Path(runs).expanduser()
    protocol, named, _ = plans.queue_request(queue, [r for r in rows if r != "veto"])
    failed = 0
    if named or not rows:
        failed = play_plan(runs / f"go{queue.split('x')[0]}", play, tasks, rows=named,
                           protocol=protocol, echo=echo)
    if queue == "19x19" and (not rows or "veto" in rows):
        (runs / "veto").mkdir(parents=True, exist_ok=True)
        with open(runs / "veto" / "veto.log", "a") as log:
            veto_rates(runs / "veto", echo=lambda text: print(text, file=log, flush=True))
    return failed


def veto_rates(out, workers: int = 1, echo=print) -> None:
    """The notebook's veto-rate tasks at paper scale (its seed, :data:`VETO_STEPS`) into the
    output folder ``out`` (store ``go_veto``), each step's table echoed."""
    for sizes, positions in VETO_STEPS:
        cfg = experiments.config("paper", veto_sizes=sizes, veto_positions=positions)
        tasks, names = experiments.veto_tasks(cfg, plans.NOTEBOOK_SEED)
        results = run_tasks("go_veto", tasks, workers=workers, out=out, progress=False)
        echo(f"{sizes[0]}x{sizes[0]}, {positions} positions")
        echo(tables.veto_table(Played(tasks, list(results), names)).to_string(index=False))
