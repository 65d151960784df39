"""Run a list of tasks through a local process pool or a Dask cluster, resumably.

:func:`run_tasks` is the one way experiments run:

- tasks whose id is already in the experiment's :class:`~mctslab.core.store.ResultStore` are
  not run again;
- the others go to an executor: in-process when ``workers == 1`` (or only one task is left),
  a local ``ProcessPoolExecutor`` (spawned workers, kept for the process's next experiment;
  ``workers=None`` means every core), or a
  Dask cluster when a scheduler address is given (``scheduler=`` or ``$MCTSLAB_SCHEDULER``);
- every result is appended to the store the moment it arrives, so a killed run loses only the
  tasks that were still running; a tqdm bar shows tasks done / total and the rate;
- a task that raises does not stop the others: their results are stored, then
  :class:`TaskFailed` names the failed tasks;
- one run at a time writes an experiment's store (:class:`~mctslab.core.stopping.OutputLock`
  on ``<store>/.lock``): a second run waits, saying for whom, then finds the first run's
  results stored; ``<store>/progress.json`` says how many of the current run's tasks are stored;
- a stop signal (:mod:`mctslab.core.stopping`) kills the local workers at once and raises
  :class:`~mctslab.core.stopping.Interrupted` with the counts; local workers die with their
  parent even when it is SIGKILLed.

Results come back in task order.
"""

from __future__ import annotations

import atexit
import concurrent.futures as cf
import multiprocessing
import os
import socket
import time
import traceback
from urllib.parse import urlsplit

from tqdm import tqdm

from mctslab import paths
from mctslab.core.progress import progress_position, progress_stream
from mctslab.core.stopping import (
    Interrupted,
    OutputLock,
    children_ignore_sigint,
    die_with_parent,
    signal_number,
)
from mctslab.core.store import ResultStore, utc_now, write_json
from mctslab.core.tasks import Task, run_task

__all__ = ["run_tasks", "ExperimentResults", "TaskFailed", "default_workers", "scheduler_address",
           "check_scheduler", "SchedulerUnreachable", "discard_pool"]


class TaskFailed(RuntimeError):
    """One or more tasks raised; the results of the others were stored."""

    def __init__(self, experiment: str, failures: list[tuple[Task, str]]):
        self.failures = failures
        lines = [f"{len(failures)} task(s) of experiment {experiment!r} failed "
                 "(results of the others are stored; re-run to retry only these):"]
        for task, error in failures[:5]:
            lines.append(f"- {task.fn} {task.params} (id {task.id}):\n{error}")
        super().__init__("\n".join(lines))


class ExperimentResults(list):
    """The task results, in task order, with counts of how they were obtained."""

    def __init__(self, experiment: str, total: int, cached: int):
        super().__init__()
        self.experiment = experiment
        self.total = total
        self.cached = cached
        self.ran = 0
        self.seconds = 0.0
        self.backend = ""
        self.records: list[dict] = []

    def summary(self) -> dict:
        """Counts for the manifest. ``seconds`` is this run's wall time; ``task_seconds`` sums the
        stored per-task compute times (whenever they ran), ``first_finished`` and
        ``last_finished`` bound when the stored results were produced."""
        finished = sorted(r.get("finished", "") for r in self.records if r.get("finished"))
        return {"experiment": self.experiment, "tasks": self.total, "already_stored": self.cached,
                "ran": self.ran, "seconds": round(self.seconds, 3), "backend": self.backend,
                "task_seconds": round(sum(float(r.get("seconds", 0.0)) for r in self.records), 3),
                "first_finished": finished[0] if finished else None,
                "last_finished": finished[-1] if finished else None}


def default_workers() -> int:
    env = os.environ.get("MCTSLAB_WORKERS")
    if env:
        return max(1, int(env))
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def scheduler_address(scheduler: str | None = None) -> str | None:
    return scheduler or os.environ.get("MCTSLAB_SCHEDULER") or None


def _timed(task: Task) -> tuple[dict, float]:
    start = time.perf_counter()
    result = run_task(task)
    return result, time.perf_counter() - start


def _progress_enabled(progress: bool) -> bool:
    return progress and os.environ.get("MCTSLAB_PROGRESS", "1") != "0"


def run_tasks(experiment: str, tasks: list[Task], *, workers: int | None = None,
              scheduler: str | None = None, out=None, progress: bool = True,
              store: ResultStore | None = None) -> ExperimentResults:
    """Run ``tasks`` (skipping those already stored) and return all results in task order."""
    if not experiment or "/" in experiment:
        raise ValueError(f"experiment name must be a non-empty name without '/', got {experiment!r}")
    store = store or ResultStore(paths.results_dir(experiment, out))
    address = scheduler_address(scheduler)
    n_workers = default_workers() if workers is None else int(workers)
    if n_workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    lock = OutputLock(store.directory / ".lock", f"the result store of {experiment!r} "
                      f"({store.directory})").acquire(wait=True)
    try:
        return _run_locked(experiment, tasks, store, address, n_workers, progress)
    finally:
        lock.release()


def _run_locked(experiment, tasks, store, address, n_workers, progress) -> ExperimentResults:
    unique: dict[str, Task] = {}
    for task in tasks:
        unique.setdefault(task.id, task)
    stored = store.load()  # under the lock: what a run that held it before us has stored
    pending = [t for tid, t in unique.items() if tid not in stored]

    outcome = ExperimentResults(experiment=experiment, total=len(unique),
                                cached=len(unique) - len(pending))
    start = time.perf_counter()
    failures: list[tuple[Task, str]] = []
    bar = tqdm(total=len(unique), initial=outcome.cached, desc=experiment, unit="task",
               disable=not _progress_enabled(progress), file=progress_stream(), mininterval=1.0,
               dynamic_ncols=True, position=progress_position())

    def note_progress() -> None:
        if pending:
            write_json(store.directory / "progress.json",
                       {"experiment": experiment, "stored": outcome.cached + outcome.ran,
                        "total": len(unique), "pid": os.getpid(), "updated": utc_now(),
                        "updated_ns": time.time_ns()})  # orders updates within a second

    def finish(task: Task, result: dict, seconds: float) -> None:
        record = task.describe()
        record.update(result=result, finished=utc_now(), seconds=round(seconds, 4))
        store.append(record)
        stored[task.id] = record
        outcome.ran += 1
        bar.update(1)
        note_progress()

    try:
        note_progress()
        outcome.backend = _dispatch(experiment, pending, address, n_workers, finish, failures)
    except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM, SIGHUP (mctslab.core.stopping)
        raise Interrupted(signal_number(exc), experiment, outcome.cached + outcome.ran,
                          len(unique)) from None
    finally:
        bar.close()
    outcome.seconds = time.perf_counter() - start
    if failures:
        raise TaskFailed(experiment, failures)
    for tid in unique:
        outcome.records.append(stored[tid])
        outcome.append(stored[tid]["result"])
    return outcome


def _dispatch(experiment, pending, address, n_workers, finish, failures) -> str:
    """Run the ``pending`` tasks where the settings say (a Dask scheduler, this process or the
    local pool), each result through ``finish``, each failure into ``failures``; return the
    backend's name (``store`` when nothing was pending)."""
    if not pending:
        return "store"
    if address:
        _run_dask(address, experiment, pending, finish, failures)
        return f"dask:{address}"
    if n_workers == 1 or len(pending) == 1:
        for task in pending:
            try:
                finish(task, *_timed(task))
            except Exception:  # noqa: BLE001 - reported together below
                failures.append((task, traceback.format_exc()))
        return "in-process"
    _run_pool(n_workers, pending, finish, failures)
    return f"processes:{min(n_workers, len(pending))}"


# The local pool is kept between experiments (a notebook runs up to seven): a spawned worker
# costs about 3.5 s of CPU to start, import and load its kernels from numba's cache, which at
# the default scale was about 10% of a notebook's time when every experiment spawned its own.
_POOL: cf.ProcessPoolExecutor | None = None
_POOL_KEY: tuple[int, int] | None = None  # (workers, parent pid): a forked child spawns its own


def _pool(n_workers: int) -> cf.ProcessPoolExecutor:
    """The process's local pool of ``n_workers`` spawned workers, made on first use."""
    global _POOL, _POOL_KEY
    key = (n_workers, os.getpid())
    if _POOL is not None and (_POOL_KEY != key or getattr(_POOL, "_broken", False)):
        discard_pool()
    if _POOL is None:
        context = multiprocessing.get_context("spawn")  # fork + threads (Jupyter, tqdm) deadlock
        _POOL = cf.ProcessPoolExecutor(max_workers=n_workers, mp_context=context,
                                       initializer=die_with_parent, initargs=(os.getpid(),))
        _POOL_KEY = key
    return _POOL


@atexit.register
def _close_pool() -> None:
    """At exit, while the interpreter is whole: an executor collected later, in its teardown,
    prints an AttributeError from a weakref callback."""
    global _POOL, _POOL_KEY
    pool, _POOL, _POOL_KEY = _POOL, None, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def discard_pool() -> None:
    """Kill the kept pool's workers at once (a stop, an error) and forget the pool."""
    global _POOL, _POOL_KEY
    pool, _POOL, _POOL_KEY = _POOL, None, None
    if pool is None:
        return
    for process in list((pool._processes or {}).values()):
        process.kill()
    pool.shutdown(wait=False, cancel_futures=True)


def _run_pool(n_workers, pending, finish, failures) -> None:
    pool = _pool(n_workers)
    try:
        # workers are spawned by submit; one still importing when a Ctrl-C reached the process
        # group (before die_with_parent) printed a traceback: they are born ignoring SIGINT
        with children_ignore_sigint():
            futures = {pool.submit(_timed, task): task for task in pending}
        for future in cf.as_completed(futures):
            task = futures[future]
            try:
                result, seconds = future.result()
            except cf.process.BrokenProcessPool as exc:
                raise RuntimeError(
                    "a worker process died (killed, or out of memory?) while running "
                    f"{task.fn} {task.params}; finished tasks are stored, re-run to resume"
                ) from exc
            except Exception:  # noqa: BLE001
                failures.append((task, traceback.format_exc()))
                continue
            finish(task, result, seconds)
    except BaseException:
        # a stop or an error: the running tasks are lost anyway, so do not wait for them
        # (a paper-scale task can take half an hour); kill the workers, then shut down
        discard_pool()
        raise


class SchedulerUnreachable(OSError):
    """The Dask scheduler address does not answer."""


def check_scheduler(address: str, timeout: float = 10.0) -> None:
    """Raise :class:`SchedulerUnreachable` (one line naming the address) unless a Dask scheduler
    answers at ``address``: called before anything runs, so a typo costs seconds, not a
    traceback from inside a notebook."""
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme in ("tcp", "tls") and parts.hostname:
        try:
            socket.create_connection((parts.hostname, parts.port or 8786),
                                     timeout=min(timeout, 5.0)).close()
        except OSError as exc:
            raise SchedulerUnreachable(
                f"cannot reach the Dask scheduler at {address}: {exc.strerror or exc}") from None
    from distributed import Client

    try:
        Client(address, timeout=timeout, set_as_default=False).close()
    except (OSError, TimeoutError) as exc:
        raise SchedulerUnreachable(
            f"no Dask scheduler answered at {address} within {timeout:g} s: {exc}") from None


def _run_dask(address, experiment, pending, finish, failures) -> None:
    try:
        from distributed import Client, as_completed
    except ImportError as exc:  # pragma: no cover - dask is a dependency
        raise RuntimeError("a Dask scheduler was given but dask.distributed is not installed") from exc
    with Client(address, set_as_default=False) as client:
        futures = {}
        for task in pending:
            future = client.submit(_timed, task, key=f"{experiment}-{task.id}", pure=False)
            futures[future.key] = (future, task)
        for future in as_completed([f for f, _ in futures.values()], loop=client.loop):
            task = futures[future.key][1]
            try:
                result, seconds = future.result()
            except Exception:  # noqa: BLE001
                failures.append((task, traceback.format_exc()))
                continue
            finish(task, result, seconds)
