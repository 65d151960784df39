"""Tiny task functions for checking an executor or a Dask cluster end to end (used by the tests)."""

import os
import time

import numpy as np


def square_with_noise(params, seed):
    """A deterministic function of its parameters and seed, optionally slow."""
    time.sleep(params.get("sleep", 0.0))
    rng = np.random.default_rng(seed)
    return {"x": params["x"], "square": params["x"] ** 2, "noise": float(rng.random()),
            "pid": os.getpid()}


def fail_on_three(params, seed):
    if params["x"] == 3:
        raise ValueError("three is not allowed")
    return {"x": params["x"]}
