"""Compile once per process: the flag every domain's warm-up used to keep by hand.

A task function calls its domain's warm-up first, so that no timing it reports includes numba
compiling (or loading from the cache) its kernels; a worker runs many tasks, and only the
first should pay. Decorate the warm-up::

    @compile_once
    def warmup() -> None:
        ...  # call every kernel on tiny inputs

and call it at the top of every task function: the body runs once per process.
"""

from __future__ import annotations

import functools

__all__ = ["compile_once"]


def compile_once(fn):
    """``fn`` (no arguments) run at most once per process; later calls return at once.

    A call that raises does not count: the next call tries again.
    """
    done = False

    @functools.wraps(fn)
    def once() -> None:
        nonlocal done
        if not done:
            fn()
            done = True

    once.compiled = lambda: done  # for tests: whether the body has run in this process
    return once
