"""Stopping a run cleanly: signals, worker processes that die with their run, one output lock.

What a stop leaves behind, by signal (``mctslab reproduce`` and every verb that runs tasks):

- **SIGINT** (Ctrl-C), **SIGTERM** (``kill``, systemd, cluster schedulers) and **SIGHUP** (a closed
  terminal) raise :class:`Stopped` in the main thread (:func:`install_handlers`); the executor
  turns it into :class:`Interrupted` with the experiment's counts, kills its local workers and
  ``mctslab`` prints one line (:func:`interrupted_line`): what stopped, how many tasks are stored,
  the command that resumes.
- **SIGKILL** cannot be caught: every local worker asked the kernel to kill it when its parent dies
  (:func:`die_with_parent`, ``prctl(PR_SET_PDEATHSIG)`` on Linux, a watchdog thread elsewhere), and
  a notebook's Jupyter kernel exits within a second when ``mctslab`` is gone (ipykernel's parent
  poller), taking its workers with it.

Two runs writing one output folder: :class:`OutputLock` is an ``fcntl.flock`` on a file in the
result store. The kernel drops the lock when its holder dies, however it dies, so a killed run
never leaves it stuck; the file holds the holder's pid, command and start time, so the second run
can name the first.
"""

from __future__ import annotations

import ctypes
import json
import os
import shlex
import signal
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from mctslab.core.store import utc_now

__all__ = ["Stopped", "Interrupted", "install_handlers", "die_with_parent", "children_ignore_sigint",
           "interrupted_line", "OutputLock", "OutputBusy", "command_line"]

STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")
_PR_SET_PDEATHSIG = 1


class Stopped(KeyboardInterrupt):
    """A stop signal arrived (``signum``); a KeyboardInterrupt so every cleanup path sees it."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(signal.Signals(signum).name)
        self.signum = int(signum)


class Interrupted(Stopped):
    """A run of tasks was stopped: ``stored`` of ``total`` tasks of ``experiment`` are stored."""

    def __init__(self, signum: int, experiment: str | None = None, stored: int | None = None,
                 total: int | None = None, notebook: str | None = None):
        super().__init__(signum)
        self.experiment, self.stored, self.total, self.notebook = experiment, stored, total, notebook


def signal_number(exc: BaseException) -> int:
    return getattr(exc, "signum", int(signal.SIGINT))


def _raise_stopped(signum, frame):
    raise Stopped(signum)


def install_handlers() -> None:
    """SIGTERM and SIGHUP raise :class:`Stopped` like Ctrl-C does (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGINT, _raise_stopped)
    for name in STOP_SIGNALS[1:]:
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _raise_stopped)


def die_with_parent(parent_pid: int) -> None:
    """Run first in every local worker process: it dies when ``parent_pid`` does.

    On Linux the kernel sends SIGKILL when the parent exits (``PR_SET_PDEATHSIG``), even when the
    parent was SIGKILLed; elsewhere a daemon thread polls the parent. A worker ignores SIGINT:
    Ctrl-C reaches the terminal's whole process group, and the parent decides (it kills its
    workers), so a worker prints no traceback of its own.
    """
    armed = False
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
    if not armed:
        threading.Thread(target=_watch_parent, args=(parent_pid,), daemon=True,
                         name="mctslab-parent-watchdog").start()
    if os.getppid() != parent_pid:  # the parent died before the signal was armed
        os._exit(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def children_ignore_sigint():
    """Processes started meanwhile are born ignoring SIGINT (an ignored signal stays ignored
    across ``exec``, and Python keeps it so), not only once :func:`die_with_parent` has run.

    Ctrl-C, and a Jupyter kernel's interrupt, reach the whole process group: a pool worker still
    importing (a second or two) printed a ``KeyboardInterrupt`` traceback of its own. This
    process ignores SIGINT too while the block lasts (the few milliseconds of starting the
    workers; a SIGINT in that window is lost, where before it made a worker print a traceback).
    Off the main thread it does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _watch_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(0.5)
    os._exit(1)


def command_line(argv=None) -> str:
    """The command as typed (``mctslab ...``), to say how to resume."""
    args = list(sys.argv[1:] if argv is None else argv)
    return shlex.join(["mctslab", *args])


def interrupted_line(exc: BaseException, argv=None) -> str:
    """One line for a stopped run: which signal, what is stored, the command that resumes."""
    name = signal.Signals(signal_number(exc)).name
    done = ""
    if getattr(exc, "total", None) is not None:
        where = f" of notebook {exc.notebook}" if getattr(exc, "notebook", None) else ""
        done = (f"; {exc.stored} of {exc.total} tasks of experiment {exc.experiment!r}{where} "
                "stored")
    return (f"mctslab: interrupted ({name}){done}; finished tasks are kept, resume with: "
            f"{command_line(argv)}")


class OutputBusy(RuntimeError):
    """Another live run holds the lock."""


class OutputLock:
    """An exclusive ``flock`` on ``path``, released when the holder exits (even by SIGKILL).

    ``acquire(wait=False)`` raises :class:`OutputBusy` naming the holder; ``wait=True`` says once
    on stderr whom it waits for, then blocks. Without ``fcntl`` (Windows) it is a no-op.
    """

    def __init__(self, path: str | os.PathLike, what: str):
        self.path = Path(path)
        self.what = what
        self._fd: int | None = None

    def holder(self) -> str:
        try:
            info = json.loads(self.path.read_text() or "{}")
        except (OSError, ValueError):
            info = {}
        if not info:
            return "another run"
        return (f"run pid {info.get('pid')} ({info.get('command')}, started "
                f"{info.get('started')})")

    def acquire(self, wait: bool = False) -> OutputLock:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX
            return self
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if not wait:
                os.close(fd)
                raise OutputBusy(f"{self.what} is in use by {self.holder()}; wait for it to "
                                 "finish, stop it, or write elsewhere (--out)") from None
            print(f"mctslab: waiting for {self.holder()}, which is writing {self.what}",
                  file=sys.stderr, flush=True)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
            except BaseException:
                os.close(fd)
                raise
        info = json.dumps({"pid": os.getpid(), "command": command_line(), "started": utc_now()})
        os.ftruncate(fd, 0)
        os.pwrite(fd, info.encode(), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # closing the descriptor drops the flock

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()
