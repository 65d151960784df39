"""Where progress bars go: the terminal of a headless run, or the notebook in Jupyter.

``mctslab reproduce`` gives each notebook kernel a duplicate of its own stderr as an extra file
descriptor, named by ``$MCTSLAB_PROGRESS_FD`` (:mod:`mctslab.kernel`). The executor's tqdm bars
write to :func:`progress_stream`, so in a headless run they show in the terminal that started
it and never enter the executed notebook or its HTML report. Without that variable (a notebook
opened in Jupyter, a script) the stream is ``sys.stderr``, and a bar shows under its cell.
"""

from __future__ import annotations

import os
import sys

__all__ = ["PROGRESS_FD", "PROGRESS_POSITION", "progress_stream", "progress_position"]

PROGRESS_FD = "MCTSLAB_PROGRESS_FD"
PROGRESS_POSITION = "MCTSLAB_PROGRESS_POSITION"  # the bar's line when notebooks run side by side

_streams: dict[int, object] = {}


def progress_stream():
    """The terminal of ``mctslab reproduce`` when this process is one of its kernels, else
    ``sys.stderr`` (also when the descriptor is not open here: a pool worker of the kernel
    inherits the variable but not the descriptor)."""
    text = os.environ.get(PROGRESS_FD)
    if not text:
        return sys.stderr
    try:
        fd = int(text)
        if fd not in _streams:
            os.fstat(fd)
            _streams[fd] = open(fd, "w", buffering=1, closefd=False)  # noqa: SIM115 - kept open
        return _streams[fd]
    except (ValueError, OSError):
        return sys.stderr


def progress_position() -> int:
    """The terminal line of this kernel's bars (``$MCTSLAB_PROGRESS_POSITION``; 0: the first).

    ``mctslab reproduce`` runs two notebooks at a time and gives each kernel its own line, so
    the two bars do not overwrite each other."""
    try:
        return max(0, int(os.environ.get(PROGRESS_POSITION, "0")))
    except ValueError:
        return 0
