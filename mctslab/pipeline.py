"""Regenerating the papers' notebooks headlessly with papermill.

``mctslab reproduce`` and ``mctslab list`` are thin wrappers around this module:

- :func:`notebooks` — the paper notebooks in ``notebooks/`` (one per paper);
- :func:`parameters` — a notebook's parameters, read from its ``parameters`` cell by
  papermill's inspection (name, type, default, the comment as help);
- :func:`validate` — checks notebook names, the scale and every ``-p KEY VALUE`` **before**
  anything runs: names against the notebook's parameters, values through the domain's
  ``experiments.config(scale, **params)`` (:data:`CONFIGS`), so a bad value fails in seconds
  rather than inside a notebook after the earlier ones ran for hours;
- :func:`reproduce` — executes the notebooks, two at a time when there are two workers or more
  (:func:`lanes`), each into ``<out>/reports/<name>.ipynb`` (and a readable
  ``<name>.html`` beside it, with ``reports/index.html``: :mod:`mctslab.reports`); the notebook
  itself writes ``<out>/figures/<name>/`` through :class:`mctslab.core.report.Run`; the manifest
  gets the end time and status here. The kernel runs over IPC with its own output in
  ``reports/<name>.kernel.log`` and its progress bars on the terminal (:mod:`mctslab.kernel`);
  the cells' stdout and results stay in the executed notebook.

One ``reproduce`` at a time writes an output root: a second one stops at once, naming the first
(:class:`~mctslab.core.stopping.OutputLock` on ``<out>/data/results/.lock``). A stop signal ends
the notebook's kernel and its workers and raises :class:`~mctslab.core.stopping.Interrupted`
with the counts of the experiment that was running (from its store's ``progress.json``).
"""

from __future__ import annotations

import ast
import concurrent.futures as cf
import importlib
import json
import logging
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import mctslab
from mctslab import paths, reports
from mctslab.core import schedule, scorecard_page, targets
from mctslab.core.executor import check_scheduler, default_workers, scheduler_address
from mctslab.core.params import SCALES, check_scale, positive_int
from mctslab.core.report import update_manifest
from mctslab.core.stopping import (
    Interrupted,
    OutputLock,
    children_ignore_sigint,
    die_with_parent,
    signal_number,
)
from mctslab.core.store import utc_now
from mctslab.kernel import HeadlessKernel

__all__ = ["notebooks", "parameters", "validate", "reproduce", "parse_value"]

# Parameters every notebook has; the pipeline sets them from command-line options.
STANDARD_PARAMETERS = ("scale", "seed", "workers", "scheduler", "out")

# Notebook -> the domain function its setup cell builds the configuration with
# (``config(scale, **overrides)``, raising ValueError naming a bad value), one per notebook of
# core.targets.DOMAINS (the one notebook -> domain map). The standard parameters go to ``Run``
# (checked here by :func:`check_standard`), never to ``config``.
CONFIGS: dict[str, str | Callable] = {
    notebook: f"mctslab.{domain}.experiments:config"
    for notebook, domain in sorted(targets.DOMAINS.items())}


def notebooks() -> dict[str, Path]:
    """Paper notebooks by name (the file stem), sorted.

    A ``FileNotFoundError`` says how the project is found when there is no ``notebooks/``
    folder (``pip install .`` without ``-e`` run outside the checkout, for instance)."""
    folder = paths.notebooks_dir()
    if not folder.is_dir():
        raise FileNotFoundError(
            f"no notebooks/ folder in {paths.project_root()}: the project (notebooks/, data/) is "
            "$MCTSLAB_HOME, else the checkout an editable install (pip install -e .) points to, "
            "else the current folder; run from the checkout or set MCTSLAB_HOME=/path/to/checkout")
    return {p.stem: p for p in sorted(folder.glob("*.ipynb")) if not p.stem.startswith("_")}


def parameters(name: str) -> dict[str, dict]:
    """The notebook's parameters: ``{name: {"type": ..., "default": ..., "help": ...}}``."""
    import papermill

    path = _path(name)
    inspected = papermill.inspect_notebook(str(path))
    return {key: {"type": p["inferred_type_name"], "default": p["default"], "help": p["help"]}
            for key, p in inspected.items()}


def parse_value(text: str):
    """A ``-p`` value: a Python literal (``3``, ``0.5``, ``None``, ``[1, 2]``) or a plain string.

    A tuple (``(10, 64)``) becomes a list: papermill writes only lists, dicts and scalars as
    literals into the parameters cell, and would pass a tuple on as its string."""
    lowered = text.strip().lower()
    if lowered in ("none", "null"):
        return None
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text
    return list(value) if isinstance(value, tuple) else value


def _path(name: str) -> Path:
    found = notebooks()
    if name not in found:
        raise KeyError(f"unknown notebook {name!r}; known: {', '.join(found) or 'none'}")
    return found[name]


def validate(names, scale: str, params: dict, scheduler: str | None = None) -> list[str]:
    """Check everything before running; return the notebook names to run (all when empty).

    A Dask scheduler (``scheduler``, ``-p scheduler ...`` or ``$MCTSLAB_SCHEDULER``) must answer:
    :class:`~mctslab.core.executor.SchedulerUnreachable` (an ``OSError``) names it otherwise."""
    found = notebooks()
    names = list(names) or list(found)
    unknown = [n for n in names if n not in found]
    if unknown:
        raise KeyError(f"unknown notebook(s) {', '.join(map(repr, unknown))}; "
                       f"known: {', '.join(found) or 'none'}")
    check_scale(scale)
    for key in params:
        if key in ("scale", "out"):
            raise ValueError(f"set {key!r} with --{key}, not -p")
    for name in names:
        known = parameters(name)
        missing = [k for k in params if k not in known]
        if missing:
            raise KeyError(f"notebook {name!r} has no parameter(s) {', '.join(map(repr, missing))}; "
                           f"its parameters: {', '.join(known)}")
    check_standard(params)
    for name in names:
        check_values(name, scale, params)
    address = scheduler_address(scheduler or params.get("scheduler"))
    if address:
        check_scheduler(address)
    return names


def check_standard(params: dict) -> None:
    """The values of the standard parameters given with ``-p`` (``seed``, ``workers``,
    ``scheduler``); ``None`` means the notebook's default."""
    if params.get("seed") is not None:
        positive_int("seed", params["seed"], minimum=0)
    if params.get("workers") is not None:
        positive_int("workers", params["workers"])
    if params.get("scheduler") is not None and not isinstance(params["scheduler"], str):
        raise ValueError(f"scheduler must be an address such as 'tcp://host:8786', "
                         f"got {params['scheduler']!r}")


def check_values(name: str, scale: str, params: dict) -> None:
    """Build notebook ``name``'s configuration from ``params`` as its setup cell will, so a bad
    value is a ``ValueError`` naming the notebook and the parameter before anything runs.
    A notebook without an entry in :data:`CONFIGS` gets its names checked only."""
    if name not in CONFIGS:
        return
    target = CONFIGS[name]
    if isinstance(target, str):
        module, _, function = target.partition(":")
        target = getattr(importlib.import_module(module), function)
    overrides = {k: v for k, v in params.items() if k not in STANDARD_PARAMETERS}
    try:
        target(scale, **overrides)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"notebook {name!r}: {exc}") from exc


class Outcomes(list):
    """The notebooks' :class:`Outcome` in order, and the scorecard written after them
    (``None`` when it could not be written)."""

    scorecard = None


@dataclass
class Outcome:
    name: str
    ok: bool
    seconds: float
    report: Path
    error: str = ""


def reproduce(names=(), scale: str = "default", params: dict | None = None,
              workers: int | None = None, scheduler: str | None = None, out=None,
              progress: bool = True) -> Outcomes:
    """Execute the notebooks (all by default) at ``scale``; never raises for one failure.

    With two or more workers and notebooks (and no Dask scheduler) the notebooks run two at a
    time, each with half the workers (:func:`lanes`). Then write the scorecard of the output
    folder (:mod:`mctslab.core.scorecard`: every notebook's ``paper_vs_run`` table found there,
    this run's and any earlier run's, each labelled with its own scale) and
    ``reports/index.html``, which links it."""

    params = dict(params or {})
    names = validate(names, scale, params, scheduler)
    lock = OutputLock(paths.results_root(out) / ".lock",
                      f"the output folder {paths.output_root(out)}").acquire(wait=False)
    try:
        n_lanes = lanes(names, workers, scheduler)
        if n_lanes > 1:
            each = (workers or default_workers()) // n_lanes
            run = _reproduce_in_lanes(names, n_lanes, scale, params, each, out, progress)
            outcomes = Outcomes(run)
        else:
            warm_up(names, workers)
            outcomes = Outcomes(_reproduce_one(name, scale, params, workers, scheduler, out,
                                               progress) for name in names)
        try:
            outcomes.scorecard = scorecard_page.write(out)
        except Exception as exc:  # noqa: BLE001 - the notebooks' outputs stand without it
            print(f"mctslab reproduce: no scorecard ({type(exc).__name__}: {exc})",
                  file=sys.stderr)
        reports.write_index(out)
        return outcomes
    finally:
        lock.release()


# The warm-up's processes and the lanes' order of every domain's notebook (core.schedule, from
# mctslab.NOTEBOOKS and the domains' measured costs; a domain without them is an error).
WARM_UP_GROUPS = schedule.warm_up_order()
LANE_ORDER = schedule.lane_order()
MAX_LANES = schedule.MAX_LANES


def lanes(names, workers: int | None = None, scheduler: str | None = None) -> int:
    """How many notebooks :func:`reproduce` runs at a time: :data:`MAX_LANES` at most, no more
    than the notebooks or the workers (each lane gets ``workers // lanes``), and one with a
    Dask scheduler (the cluster's workers are shared by every notebook already)."""
    if scheduler_address(scheduler):
        return 1
    return max(1, min(MAX_LANES, len(names), workers or default_workers()))


def warm_up_groups(names) -> list[tuple[str, ...]]:
    """The domains of notebooks ``names`` in :data:`WARM_UP_GROUPS`' groups and order (a
    notebook of no domain has nothing to warm up); a domain in no group is a ``ValueError``."""
    wanted = {targets.DOMAINS[name] for name in names if name in targets.DOMAINS}
    missing = wanted - {d for group in WARM_UP_GROUPS for d in group}
    if missing:
        raise ValueError(f"pipeline.WARM_UP_GROUPS has no group for {', '.join(sorted(missing))}"
                         ": it is derived from mctslab.NOTEBOOKS and DOMAIN_COSTS")
    groups = [tuple(d for d in group if d in wanted) for group in WARM_UP_GROUPS]
    return [g for g in groups if g]


def warm_up(names, workers: int | None = None) -> None:
    """Compile (or load from numba's cache) the kernels of notebooks ``names`` before they run,
    one process per group of :data:`WARM_UP_GROUPS`, ``workers`` at a time (default: every
    core).

    On a fresh clone the kernels are not in numba's cache yet: without this step each notebook's
    pool workers compiled the same kernels side by side (the second core idle in effect) and the
    notebooks' kernels compiled them once more. Here each kernel is compiled once, the cores
    sharing the work; the notebooks then load them from the cache in a second or two."""
    with warming(names, workers) as ready:
        for name in names:
            ready(name)


@contextmanager
def warming(names, workers: int | None = None):
    """:func:`warm_up` in the background: yields ``ready(notebook)``, which returns once that
    notebook's kernels are compiled (raising what compiling them raised). The block's end
    waits for the rest."""
    groups = warm_up_groups(names)
    processes = min(len(groups), workers or default_workers())
    if processes <= 1:
        if groups:
            mctslab.warmup(tuple(d for g in groups for d in g))
        yield lambda name: None
        return
    context = multiprocessing.get_context("spawn")
    with children_ignore_sigint():
        pool = cf.ProcessPoolExecutor(max_workers=processes, mp_context=context,
                                      initializer=die_with_parent, initargs=(os.getpid(),))
    try:
        by_domain = {}
        for group in groups:
            done = pool.submit(mctslab.warmup, group)
            by_domain.update((domain, done) for domain in group)

        def ready(name: str) -> None:
            done = by_domain.get(targets.DOMAINS.get(name))
            if done is not None:
                done.result()

        yield ready
        for done in set(by_domain.values()):
            done.result()
    except BaseException:
        for process in list((pool._processes or {}).values()):
            process.kill()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _reproduce_in_lanes(names, n_lanes, scale, params, workers, out, progress) -> list[Outcome]:
    """Run notebooks ``names`` ``n_lanes`` at a time (threads, each driving one kernel), in
    :data:`LANE_ORDER`, each with ``workers`` workers, while their kernels are compiled.

    A stop signal reaches the main thread only: it kills the running kernels (their stored
    results stay), waits for the lanes to notice, and raises :class:`Interrupted` with the
    counts of the experiment that was running."""
    started = utc_now()
    queue = sorted(names, key=lambda n: LANE_ORDER.index(n) if n in LANE_ORDER else len(LANE_ORDER))
    outcomes: dict[str, Outcome] = {}
    kernels: dict[str, HeadlessKernel] = {}
    stop = threading.Event()
    taking = threading.Lock()

    with warming(names, min(n_lanes * workers, default_workers())) as ready:
        def lane(index: int) -> None:
            while not stop.is_set():
                with taking:
                    if not queue:
                        return
                    name = queue.pop(0)
                ready(name)
                if stop.is_set():
                    return
                outcomes[name] = _reproduce_one(name, scale, params, workers, None, out,
                                                progress, lane=index, kernels=kernels,
                                                stop=stop)

        threads = cf.ThreadPoolExecutor(max_workers=n_lanes, thread_name_prefix="mctslab-lane")
        running = [threads.submit(lane, index) for index in range(n_lanes)]
        try:
            while cf.wait(running, timeout=0.5).not_done:
                pass
        except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM, SIGHUP: end the kernels, then say
            stop.set()
            for logger in ("papermill", "nbclient", "traitlets", "asyncio"):
                logging.getLogger(logger).setLevel(logging.CRITICAL)
            for kernel in list(kernels.values()):
                kernel.kill()
            cf.wait(running, timeout=60)
            threads.shutdown(wait=False, cancel_futures=True)
            progress_now = _running_experiment(out, since=started)
            raise Interrupted(signal_number(exc), progress_now.get("experiment"),
                              progress_now.get("stored"), progress_now.get("total"),
                              notebook=progress_now.get("notebook")) from None
        threads.shutdown(wait=True)
        for done in running:
            done.result()  # a lane's own error (not a notebook's: those are outcomes)
    return [outcomes[name] for name in names if name in outcomes]


def _reproduce_one(name, scale, params, workers, scheduler, out, progress, lane: int = 0,
                   kernels: dict | None = None, stop: threading.Event | None = None) -> Outcome:
    """Execute notebook ``name``. In a lane of :func:`_reproduce_in_lanes` (``lane``, with the
    lanes' shared ``kernels`` and ``stop``), the kernel is registered so that a stop can end it,
    and a notebook whose kernel was ended so is recorded as interrupted, not failed."""
    import papermill

    folder = paths.reports_dir(out)
    folder.mkdir(parents=True, exist_ok=True)
    injected = {"scale": scale, **params}
    if workers is not None:
        injected["workers"] = int(workers)
    if scheduler:
        injected["scheduler"] = scheduler
    if out is not None:
        injected["out"] = str(paths.output_root(out))
    report = folder / f"{name}.ipynb"
    started = utc_now()  # the manifest this execution writes starts at or after this
    start = time.perf_counter()
    error = ""
    try:
        # the kernel's own output goes to <name>.kernel.log, its progress bars to our stderr
        # (mctslab.kernel); what its cells print to stderr (a warning) is passed on too, while
        # stdout and cell results stay in the executed notebook
        with HeadlessKernel(folder / f"{name}.kernel.log", progress=progress,
                            position=lane) as kernel:
            if kernels is not None:
                kernels[name] = kernel
            try:
                papermill.execute_notebook(str(_path(name)), str(report), parameters=injected,
                                           kernel_name="python3", cwd=str(paths.notebooks_dir()),
                                           progress_bar=False, log_output=False,
                                           stderr_file=sys.stderr if progress else None,
                                           kernel_manager_class=kernel.kernel_manager_class)
            finally:
                if kernels is not None:
                    kernels.pop(name, None)
    except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM, SIGHUP: the kernel exits with us
        update_manifest(name, out, since=started, finished=utc_now(), status="interrupted",
                        wall_seconds=round(time.perf_counter() - start, 1))
        running = _running_experiment(out, since=started)
        raise Interrupted(signal_number(exc), running.get("experiment"), running.get("stored"),
                          running.get("total"), notebook=name) from None
    except Exception as exc:  # noqa: BLE001 - reported per notebook, the others still run
        error = f"{type(exc).__name__}: {exc}"
        # a lane's kernel ended by a stop (or hit by the terminal's Ctrl-C before this process
        # saw it): interrupted, not failed
        if stop is not None and stop.wait(1.0):
            update_manifest(name, out, since=started, finished=utc_now(), status="interrupted",
                            wall_seconds=round(time.perf_counter() - start, 1))
            return Outcome(name, False, time.perf_counter() - start, report, "interrupted")
    seconds = time.perf_counter() - start
    update_manifest(name, out, since=started, finished=utc_now(),
                    status="failed" if error else "complete",
                    wall_seconds=round(seconds, 1), executed_notebook=str(report))
    if report.exists():  # a readable page of the run, failed or not (mctslab.reports)
        try:
            reports.notebook_html(report, paths.figures_dir(name, out) / "manifest.json")
        except Exception as exc:  # noqa: BLE001 - the run's outputs stand without the page
            print(f"mctslab reproduce: {name}: no HTML report ({type(exc).__name__}: {exc})",
                  file=sys.stderr)
    return Outcome(name, not error, seconds, report, error)


def _running_experiment(out, since: str) -> dict:
    """The progress of the experiment the kernel updated last (its store's ``progress.json``)."""
    newest: dict = {}
    for path in paths.results_root(out).glob("*/progress.json"):
        try:
            progress = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        order = (progress.get("updated", ""), progress.get("updated_ns", 0))
        if order[0] >= since and order >= (newest.get("updated", ""), newest.get("updated_ns", 0)):
            newest = progress
    return newest


__all__ += ["SCALES", "STANDARD_PARAMETERS", "CONFIGS", "Outcome", "check_standard",
            "check_values"]
