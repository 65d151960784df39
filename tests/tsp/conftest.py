"""Shared helpers for the TSP tests: small generated instances of every metric, TSPLIB data."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import strategies as st

from mctslab import data
from mctslab.tsp import tsplib
from mctslab.tsp.tsplib import Instance


@pytest.fixture(scope="session")
def tsplib_data():
    """The shipped TSPLIB folder; the repository carries it, so its absence is an error."""
    return data.find("tsplib/optima.csv").parent


needs_tsplib = pytest.mark.usefixtures("tsplib_data")


def explicit_instance(matrix, name="explicit") -> Instance:
    matrix = np.ascontiguousarray(matrix, dtype=np.float64)
    empty = np.zeros(0, np.float64)
    return Instance(name=name, dimension=matrix.shape[0], edge_weight_type="EXPLICIT", metric=4,
                    xs=empty, ys=empty, matrix=matrix, source="generated")


def random_instance(n: int, metric: str, seed: int, spread: float = 100.0) -> Instance:
    """A random instance of ``n`` cities; coordinates may repeat (duplicate cities allowed)."""
    rng = np.random.default_rng(seed)
    if metric == "EXPLICIT":
        upper = np.triu(rng.integers(0, 50, (n, n)), 1)
        return explicit_instance(upper + upper.T)
    if metric == "GEO":  # TSPLIB DDD.MM: degrees plus minutes / 100
        lat = rng.integers(-60, 60, n) + rng.integers(0, 60, n) / 100.0
        lon = rng.integers(-170, 170, n) + rng.integers(0, 60, n) / 100.0
        return tsplib.from_coordinates(np.column_stack([lat, lon]), f"geo{n}", "GEO")
    xy = np.round(rng.uniform(0, spread, (n, 2)), int(rng.integers(0, 3)))
    return tsplib.from_coordinates(xy, f"{metric.lower()}{n}", metric)


METRICS = ["EUC_2D", "CEIL_2D", "ATT", "GEO", "EXPLICIT"]


@st.composite
def instances(draw, min_n=2, max_n=12, metrics=tuple(METRICS)):
    n = draw(st.integers(min_n, max_n))
    metric = draw(st.sampled_from(metrics))
    seed = draw(st.integers(0, 2**31))
    return random_instance(n, metric, seed)
