"""The Jupyter kernel of a headless run: quiet, local, and with its progress in the terminal.

``mctslab reproduce`` executes each notebook with papermill in a kernel started by
:class:`HeadlessKernel`, which differs from a stock kernel in three ways:

- **IPC transport.** The kernel's sockets are Unix sockets in a private temporary folder
  (mode 0700), not TCP ports on localhost: nothing else on the machine can connect, and the
  kernel has no reason to warn that it "is running over TCP without encryption".
- **The kernel's own output goes to a log.** The kernel process's stdout and stderr (its own
  log lines, and the tracebacks ipykernel and zmq print while a stopped run's kernel shuts
  down) are written to ``reports/<notebook>.kernel.log``, never to the terminal. What the cells
  print still reaches the executed notebook (and papermill passes their stderr on).
- **Progress goes to the terminal, not into the notebook.** The kernel inherits a duplicate of
  this process's stderr as an extra file descriptor, named by ``$MCTSLAB_PROGRESS_FD``;
  the executor's tqdm bars write there, so the bars show while a run
  works and the executed notebook and its HTML report hold none
  (:func:`mctslab.core.progress.progress_stream`). Without a terminal to write to
  (``--quiet``) the kernel gets ``MCTSLAB_PROGRESS=0``: no bar at all.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from jupyter_client.manager import AsyncKernelManager

from mctslab.core.progress import PROGRESS_FD, PROGRESS_POSITION

__all__ = ["HeadlessKernel"]


class HeadlessKernel:
    """One notebook's kernel settings, as a context manager: ``kernel_manager_class`` for
    papermill while the block lasts; the log file and the IPC folder are closed and removed
    at its end.

    ``log``: the file the kernel's own stdout and stderr go to; ``progress``: whether the
    executor's bars reach this process's stderr (else the kernel shows none); ``position``: the
    terminal line of its bars, below the first (two notebooks run at a time each have a line).
    """

    def __init__(self, log: str | os.PathLike, progress: bool = True, position: int = 0):
        self.log_path = Path(log)
        self.progress = progress
        self.position = int(position)
        self._log = None
        self._progress_fd: int | None = None
        self._ipc_dir: str | None = None
        self._managers: list = []

    def __enter__(self) -> HeadlessKernel:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in __exit__
        self._ipc_dir = tempfile.mkdtemp(prefix="mctslab-kernel-")  # 0700: ours alone
        if self.progress:
            try:
                self._progress_fd = os.dup(sys.stderr.fileno())
            except (AttributeError, OSError, ValueError):  # no real stderr (a test's capture)
                self._progress_fd = None
        return self

    def __exit__(self, *exc) -> None:
        if self._progress_fd is not None:
            os.close(self._progress_fd)
            self._progress_fd = None
        if self._log is not None:
            self._log.close()
            self._log = None
        if self._ipc_dir is not None:
            shutil.rmtree(self._ipc_dir, ignore_errors=True)
            self._ipc_dir = None

    def kill(self) -> None:
        """SIGKILL this block's kernel now (another thread runs the notebook in it): its
        notebook client then fails at once, its pool workers die with it (they ask the OS to),
        and the results it stored stay stored. Used when a stop signal ends a run that executes
        several notebooks at a time (:func:`mctslab.pipeline.reproduce`)."""
        for manager in list(self._managers):
            process = getattr(getattr(manager, "provisioner", None), "process", None)
            if process is not None and process.poll() is None:
                try:
                    process.kill()
                except OSError:  # already gone
                    pass

    @property
    def kernel_manager_class(self) -> type[AsyncKernelManager]:
        """A kernel manager class bound to this run's log, progress descriptor and IPC folder
        (nbclient instantiates the class itself, so the settings travel with it)."""
        if self._log is None:
            raise RuntimeError("HeadlessKernel.kernel_manager_class is used inside its with-block")
        settings = self

        class Manager(AsyncKernelManager):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                settings._managers.append(self)
                self.transport = "ipc"
                self.ip = os.path.join(settings._ipc_dir, "kernel")

            async def _async_launch_kernel(self, kernel_cmd, **kw):
                env = dict(kw.get("env") or os.environ)
                env.pop(PROGRESS_FD, None)
                env[PROGRESS_POSITION] = str(settings.position)
                if settings._progress_fd is not None:
                    env[PROGRESS_FD] = str(settings._progress_fd)
                    kw["pass_fds"] = (*kw.get("pass_fds", ()), settings._progress_fd)
                else:
                    env["MCTSLAB_PROGRESS"] = "0"
                kw.update(env=env, stdout=settings._log, stderr=settings._log)
                await super()._async_launch_kernel(kernel_cmd, **kw)

        Manager.__name__ = Manager.__qualname__ = "HeadlessKernelManager"
        return Manager
