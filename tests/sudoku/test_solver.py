"""Solvers: fast numba backend vs python-sat (independent) vs the plain-Python reference."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mctslab.sudoku import api, reference
from mctslab.sudoku.reference import PEERS


def _valid_solution(board, solution):
    """A full grid that satisfies every unit and keeps the clues."""
    for unit in reference.UNITS:
        assert sorted(solution[unit]) == list(range(1, 10))
    clues = board > 0
    assert np.array_equal(solution[clues], board[clues])


def _agree(boards):
    fast, fast_solutions = api.solve_many(boards, "fast")
    sat, _ = api.solve_many(boards, "sat")
    assert np.array_equal(fast, sat), np.flatnonzero(fast != sat)[:5]
    return fast, fast_solutions


@pytest.mark.parametrize("name", ["sudoku17-sample.txt", "magictour-top1465.txt",
                                  "forum-hardest-1106.txt"])
def test_backends_agree_on_data_sets_and_find_one_solution(name, dataset):
    boards = dataset(name)
    statuses, solutions = _agree(boards)
    assert np.all(statuses == 1)  # every puzzle of these sets has exactly one solution
    for board, solution in zip(boards[:200], solutions[:200]):
        _valid_solution(board, solution)


def test_backends_agree_on_one_clue_deletions(sample17):
    rng = np.random.default_rng(0)
    chosen = sample17[rng.choice(len(sample17), 50, replace=False)]
    deletions = []
    for board in chosen:
        for cell in np.flatnonzero(board):
            smaller = board.copy()
            smaller[cell] = 0
            deletions.append(smaller)
    statuses, _ = _agree(np.array(deletions))
    assert len(deletions) == 50 * 17
    assert np.all(statuses == 2)  # known 17s are minimal: every deletion has >= 2 solutions


def test_own_cases_without_data(puzzle17, solution17):
    """no answer / unique / multiple on boards built here, all three backends."""
    clash = puzzle17.copy()
    empty_cells = np.flatnonzero(clash == 0)
    clash[empty_cells[0]] = solution17[PEERS[empty_cells[0]][0]] or 1
    cases = {"unique": puzzle17, "multiple": np.where(np.arange(81) == np.flatnonzero(puzzle17)[0],
                                                      0, puzzle17).astype(np.uint8)}
    wrong = puzzle17.copy()
    wrong[empty_cells[0]] = next(d for d in range(1, 10) if d != solution17[empty_cells[0]]
                                 and all(puzzle17[p] != d for p in PEERS[empty_cells[0]]))
    cases["none"] = wrong
    for expected, board in cases.items():
        for backend in ("fast", "sat"):
            assert api.solve(board, backend).status == expected, (expected, backend)
        count, _ = reference.count_solutions(board)
        assert api.STATUS_NAMES[count] == expected
    assert api.solve(solution17).status == "unique"
    assert api.solve(np.zeros(81, np.uint8)).status == "multiple"


@pytest.mark.parametrize("solver", ["glucose4", "minisat22", "minicard", "cadical195"])
def test_sat_solver_names(solver, puzzle17):
    assert api.solve(puzzle17, "sat", sat_solver=solver).status == "unique"


@settings(max_examples=60, deadline=None)
@given(keep=st.integers(18, 45), seed=st.integers(0, 2**32 - 1), tweak=st.booleans())
def test_fast_backend_matches_reference(solution17, keep, seed, tweak):
    rng = np.random.default_rng(seed)
    board = np.zeros(81, np.uint8)
    cells = rng.choice(81, keep, replace=False)
    board[cells] = solution17[cells]
    if tweak:  # a wrong digit somewhere: often no answer, sometimes still solvable
        cell = rng.choice(cells)
        board[cell] = rng.integers(1, 10)
    status, solution = api.FastSolver().check(board)
    count, first = reference.count_solutions(board)
    assert status == count
    if count:
        _valid_solution(board, solution)


@pytest.mark.parametrize("line, message", [
    ("123", "has 3 characters"),
    ("x" + "." * 80, "character 1 is 'x'"),
])
def test_bad_input_is_named(line, message):
    with pytest.raises(api.PuzzleFormatError, match=message):
        api.parse_puzzle(line)


def test_read_puzzles_reports_bad_lines(tmp_path, puzzle17):
    path = tmp_path / "p.txt"
    path.write_text(api.format_puzzle(puzzle17) + "\nnot a puzzle\n# comment\n\n"
                    + api.format_puzzle(puzzle17).replace(".", "0") + "\n")
    boards, numbers, errors = api.read_puzzles(path)
    assert numbers == [1, 5] and len(boards) == 2
    assert errors[0][0] == 2 and "12 characters" in errors[0][1]


def test_unknown_backend_and_solver():
    with pytest.raises(ValueError, match="unknown backend 'gpu'"):
        api.make_solver("gpu")
    with pytest.raises(ValueError, match="unknown SAT solver 'sat4j'"):
        api.make_solver("sat", "sat4j")
