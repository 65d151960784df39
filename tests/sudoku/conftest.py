"""Shared fixtures for the Sudoku tests: small self-made data, and the shipped data sets."""

from __future__ import annotations

import numpy as np
import pytest

from mctslab import data
from mctslab.sudoku import api

# A 17-clue puzzle (Royle's list) and its solution, so core tests run without the data files.
PUZZLE17 = "...8.1..........435............7.8........1...2..3....6......75..34........2..6.."


def load(name: str) -> np.ndarray:
    # The repository ships data/sudoku/: a missing file is an error, not a skip.
    boards, _, errors = api.read_puzzles(data.find(f"sudoku/{name}"))
    assert not errors
    return boards


@pytest.fixture(scope="session")
def puzzle17() -> np.ndarray:
    return api.parse_puzzle(PUZZLE17)


@pytest.fixture(scope="session")
def solution17(puzzle17) -> np.ndarray:
    status, solution = api.solve_many(puzzle17[None], "sat")
    assert status[0] == 1
    return solution[0]


@pytest.fixture(scope="session")
def sample17() -> np.ndarray:
    return load("sudoku17-sample.txt")


@pytest.fixture(scope="session")
def dataset():
    """``dataset(name)``: a shipped data file's boards (DataNotFoundError naming what is missing)."""
    return load
