"""The band-bitboard solution counter (``_solver.py``, ``_bands.py``) against independent
references: python-sat and the plain-Python search on boards, a plain-Python search on
candidate masks (the generator's input), and the cell-mask kernel it replaced
(``_solver_v1.py``). Counts to two must be identical: 0, 1 or 2."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mctslab.sudoku import _bands, _solver, _solver_v1, api, reference
from mctslab.sudoku.lookup import make_tables
from mctslab.sudoku.reference import PEERS

TABLES = make_tables()


def _fast(masks, stack=None):
    """(count to two, first solution) of the band kernel on ``uint16[81]`` candidate masks."""
    scratch = list(_solver.make_scratch())
    if stack is not None:
        scratch[0] = stack
    solution = np.zeros(81, np.uint8)
    count = _solver.count_solutions(np.asarray(masks, np.uint16), 2, TABLES, *scratch, solution)
    return int(count), solution


def _v1(masks):
    solution = np.zeros(81, np.uint8)
    count = _solver_v1.count_solutions_v1(np.asarray(masks, np.uint16), 2, TABLES,
                                          *_solver_v1.make_scratch_v1(), solution)
    return int(count), solution


def _count_masks(masks, limit=2):
    """Plain-Python count of the grids that give each cell one of its candidates, at most
    ``limit``: the fewest-candidates cell first, a digit kept only if no peer holds it."""
    grid = [0] * 81
    found = []

    def search() -> bool:
        best, options = -1, None
        for cell in range(81):
            if grid[cell] == 0:
                taken = {grid[p] for p in PEERS[cell]}
                fits = [d for d in range(1, 10) if masks[cell] >> (d - 1) & 1 and d not in taken]
                if options is None or len(fits) < len(options):
                    best, options = cell, fits
        if best < 0:
            found.append(list(grid))
            return len(found) >= limit
        for d in options:
            grid[best] = d
            if search():
                return True
        grid[best] = 0
        return False

    search()
    return len(found)


def _is_solution_of(masks, solution):
    for unit in reference.UNITS:
        assert sorted(solution[unit]) == list(range(1, 10))
    assert all(masks[c] >> (solution[c] - 1) & 1 for c in range(81))


def _board_masks(board):
    masks = np.empty(81, np.uint16)
    _solver.board_to_masks(board, masks)
    return masks


def test_band_tables_by_their_definitions():
    bt = _bands.make_band_tables()
    ways = [{(r, k) for r, k in enumerate(p)} for p in itertools.permutations(range(3))]
    for m in range(512):
        cells = {(r, k) for r in range(3) for k in range(3) if m >> (3 * r + k) & 1}
        on_a_way = set().union(*[w for w in ways if w <= cells])
        assert bt[_bands.ALLOWED, m] == sum(1 << (3 * r + k) for r, k in on_a_way)
        lone = {(r, k) for r, k in cells
                if sum((r, j) in cells for j in range(3)) == 1
                or sum((i, k) in cells for i in range(3)) == 1}
        assert bt[_bands.LONE, m] == sum(1 << (3 * r + k) for r, k in lone)
    for p in range(27):
        peers = {q for q in range(27) if q != p and (q // 9 == p // 9 or q % 9 == p % 9
                                                     or q % 9 // 3 == p % 9 // 3)}
        assert bt[_bands.PEERS, p] == sum(1 << q for q in peers)
    assert [bt[_bands.DEBRUIJN, ((1 << i) * 0x022FDD63CC95386D % 2**64) >> 58]
            for i in range(64)] == list(range(64))


def test_both_kernels_agree_on_the_sample_in_one_call(sample17):
    statuses = np.zeros((2, len(sample17)), np.int8)
    solutions = np.zeros((2, len(sample17), 81), np.uint8)
    _solver.solve_many(sample17, TABLES, statuses[0], solutions[0])
    _solver_v1.solve_many_v1(sample17, TABLES, statuses[1], solutions[1])
    assert np.all(statuses == 1)
    assert np.array_equal(solutions[0], solutions[1])  # unique: the same grid


@functools.lru_cache(maxsize=1)
def _sat():
    return api.make_solver("sat")  # one incremental solver for every example


@settings(max_examples=100, deadline=None)
@given(keep=st.integers(0, 55), seed=st.integers(0, 2**32 - 1),
       change=st.sampled_from(["none", "wrong digit", "clash"]))
def test_boards_with_none_one_or_many_solutions(solution17, keep, seed, change):
    """Few clues (many solutions) to many, a wrong digit (often none), two equal digits in a
    unit (none): python-sat, the plain-Python search and both kernels count the same; the band
    kernel loading the board (``count_board``) gives the count and first solution it gives on
    the board's candidate masks (the same root, so the same search tree)."""
    rng = np.random.default_rng(seed)
    board = np.zeros(81, np.uint8)
    cells = rng.choice(81, keep, replace=False)
    board[cells] = solution17[cells]
    if change == "wrong digit" and keep:
        board[rng.choice(cells)] = rng.integers(1, 10)
    elif change == "clash":
        cell = int(rng.integers(81))
        peer = PEERS[cell][int(rng.integers(20))]
        board[cell] = board[peer] = rng.integers(1, 10)
    expected, _ = reference.count_solutions(board)
    masks = _board_masks(board)
    count, solution = _fast(masks)
    assert count == expected == _v1(masks)[0]
    assert _sat().check(board)[0] == count
    if count:
        _is_solution_of(masks, solution)
    assert _from_board(board) == (count, solution.tolist())


def _from_board(board):
    """(count to two, first solution) of the band kernel loading the board itself."""
    stack, _, branch_cell, todo = _solver.make_scratch()
    solution = np.zeros(81, np.uint8)
    count = _solver.count_board(board, 2, TABLES, stack, branch_cell, todo, solution)
    return int(count), solution.tolist()


@settings(max_examples=150, deadline=None)
@given(keep=st.integers(22, 45), deletions=st.integers(0, 120), seed=st.integers(0, 2**32 - 1),
       sound=st.booleans())
def test_candidate_masks_as_the_generator_passes_them(solution17, keep, deletions, seed, sound):
    """Clues plus candidates deleted at random (``sound``: never the solution's, as the rules
    delete; else any): the band kernel, the reference kernel and a plain-Python search over
    the masks count the same, and the generator's ``uint16[82, 108]`` stack gives what the
    kernel's own gives."""
    rng = np.random.default_rng(seed)
    masks = np.full(81, 0x1FF, np.uint16)
    cells = rng.choice(81, keep, replace=False)
    masks[cells] = 1 << (solution17[cells].astype(np.uint16) - 1)
    for cell, digit in zip(rng.integers(0, 81, deletions), rng.integers(0, 9, deletions)):
        if not (sound and solution17[cell] == digit + 1) and masks[cell] != 1 << digit:
            masks[cell] &= ~np.uint16(1 << digit)
    expected = _count_masks([int(m) for m in masks])
    count, solution = _fast(masks)
    assert count == expected == _v1(masks)[0]
    assert _fast(masks, np.empty((82, 108), np.uint16))[0] == count
    if count:
        _is_solution_of(masks, solution)


def test_limit_one_stops_at_the_first_solution():
    solution = np.zeros(81, np.uint8)
    empty = np.full(81, 0x1FF, np.uint16)
    assert _solver.count_solutions(empty, 1, TABLES, *_solver.make_scratch(), solution) == 1
    _is_solution_of(empty, solution)
    assert _fast(empty)[0] == 2


@pytest.mark.parametrize("name", ["magictour-top1465.txt", "forum-hardest-1106.txt"])
def test_hard_sets_with_one_clue_removed_have_many_solutions(name, dataset):
    """Deep searches that must find a second solution: both kernels say multiple."""
    boards = dataset(name)[:40].copy()
    for board in boards:
        board[np.flatnonzero(board)[0]] = 0
    statuses = np.zeros((2, len(boards)), np.int8)
    solutions = np.zeros((2, len(boards), 81), np.uint8)
    _solver.solve_many(boards, TABLES, statuses[0], solutions[0])
    _solver_v1.solve_many_v1(boards, TABLES, statuses[1], solutions[1])
    assert np.array_equal(statuses[0], statuses[1])
    assert np.all(statuses[0] >= 1)


def test_board_and_masks_paths_search_the_same_tree(sample17):
    """3,000 boards cut from the sample's solutions (0-74 clues; a quarter with one digit
    changed): loading the board and loading its candidate masks give the same count and the
    same first solution, also where there are many solutions (a different root would change
    which one is found first)."""
    _, solutions = api.solve_many(sample17[:200])
    rng = np.random.default_rng(43)
    stack, _, branch_cell, todo = _solver.make_scratch()
    first = np.zeros((2, 81), np.uint8)
    counts = np.zeros(3, int)
    for i in range(3000):
        board = np.zeros(81, np.uint8)
        cells = rng.choice(81, rng.integers(0, 75), replace=False)
        board[cells] = solutions[i % 200][cells]
        if i % 4 == 1 and len(cells):
            board[rng.choice(cells)] = rng.integers(1, 10)
        count = _solver.count_board(board, 2, TABLES, stack, branch_cell, todo, first[0])
        assert _solver.count_solutions(_board_masks(board), 2, TABLES, *_solver.make_scratch(),
                                       first[1]) == count
        if count:
            assert np.array_equal(first[0], first[1])
        counts[count] += 1
    assert counts.min() > 300  # none, unique and multiple all exercised
