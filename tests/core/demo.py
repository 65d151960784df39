"""Tiny task functions for checking an executor or a Dask cluster end to end (test-only code:
task functions are named ``"tests.core.demo:square_with_noise"``).

A process that does not inherit the test run's ``sys.path`` (a script run with
``subprocess``, a notebook kernel) finds this module when the checkout is on its
``PYTHONPATH``: :func:`importable_env`. Pool and Dask workers are spawned with the parent's
``sys.path`` and find it anyway.
"""

import os
import time
from pathlib import Path

import numpy as np

CHECKOUT = Path(__file__).resolve().parents[2]  # the folder holding the tests package


def importable_env(env=None) -> dict:
    """``env`` (default: this process's environment) with the checkout first on PYTHONPATH."""
    env = dict(os.environ if env is None else env)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(CHECKOUT), env.get("PYTHONPATH")) if p)
    return env


# A folder where tasks of two processes wait for each other (``$MCTSLAB_TEST_MEET``): a test that
# two notebooks run side by side sees it without measuring time (sequential runs never meet).
MEET = "MCTSLAB_TEST_MEET"
MEET_DEADLINE_S = 300


def meet_another_process(folder: Path) -> None:
    """Leave this process's mark in ``folder`` and wait for a second process's mark."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / str(os.getpid())).touch()
    deadline = time.monotonic() + MEET_DEADLINE_S
    while len(list(folder.iterdir())) < 2:
        if time.monotonic() > deadline:
            raise TimeoutError(f"no other process came to {folder} in {MEET_DEADLINE_S} s")
        time.sleep(0.05)


def square_with_noise(params, seed):
    """A deterministic function of its parameters and seed, optionally slow; with
    ``$MCTSLAB_TEST_MEET`` set, it first waits for a task of another process."""
    if os.environ.get(MEET):
        meet_another_process(Path(os.environ[MEET]))
    time.sleep(params.get("sleep", 0.0))
    rng = np.random.default_rng(seed)
    return {"x": params["x"], "square": params["x"] ** 2, "noise": float(rng.random()),
            "pid": os.getpid()}


def fail_on_three(params, seed):
    if params["x"] == 3:
        raise ValueError("three is not allowed")
    return {"x": params["x"]}
