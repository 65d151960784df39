"""Human rules (the paper's solveByRule, Sec. 2 / 4.3, Figs. 3-4): hand-made positions per rule,
and the kernel against the plain-Python reference on random positions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mctslab.sudoku import api, reference

ALL = 0x1FF


def bits(*digits):
    return sum(1 << (d - 1) for d in digits)


def digits_of(mask):
    return {d for d in range(1, 10) if mask >> (d - 1) & 1}


def to_sets(masks):
    return [digits_of(int(m)) for m in masks]


def run_both(masks):
    """Kernel and reference on the same position; they must agree exactly."""
    ok, out = api.apply_rules(masks)
    cands = to_sets(masks)
    assert reference.apply_rules(cands) == ok
    if ok:
        assert to_sets(out) == cands
    return ok, out


def open_board():
    return np.full(81, ALL, np.uint16)


def test_naked_single_removes_its_digit_from_peers():
    masks = open_board()
    masks[40] = bits(5)
    ok, out = run_both(masks)
    assert ok
    for p in reference.PEERS[40]:
        assert not out[p] & bits(5)
    assert out[0] == ALL  # not a peer


def test_hidden_single_in_row_column_and_block():
    for unit in (reference.UNITS[0], reference.UNITS[9 + 4], reference.UNITS[18 + 8]):
        masks = open_board()
        target = unit[3]
        for cell in unit:
            if cell != target:
                masks[cell] &= ALL & ~bits(7)
        ok, out = run_both(masks)
        assert ok and out[target] == bits(7)


def test_two_naked_removes_the_pair_from_the_row_and_block():
    """Fig. 3: two cells of a row holding only {1, 2} take 1 and 2 away from their row."""
    masks = open_board()
    masks[0] = masks[1] = bits(1, 2)
    ok, out = run_both(masks)
    assert ok
    for cell in list(range(2, 9)) + [9, 10, 11, 18, 19, 20]:  # rest of row 0 and of block 0
        assert not out[cell] & bits(1, 2), cell
    assert out[27] == ALL


def test_naked_pair_inside_a_column_only():
    masks = open_board()
    masks[4] = masks[4 + 9 * 5] = bits(3, 8)  # column 4, rows 0 and 5 (different blocks)
    ok, out = run_both(masks)
    column = reference.UNITS[9 + 4]
    assert ok
    assert all(not out[c] & bits(3, 8) for c in column if c not in (4, 49))
    assert out[5] == ALL  # same row as cell 4, untouched


def test_two_hidden_keeps_only_the_pair():
    """Fig. 4: digits 4 and 6 fit only two cells of a row, so those cells lose other digits."""
    masks = open_board()
    for cell in range(9, 18):
        if cell not in (12, 16):
            masks[cell] &= ALL & ~bits(4, 6)
    ok, out = run_both(masks)
    assert ok and out[12] == bits(4, 6) and out[16] == bits(4, 6)


def test_three_and_four_naked_and_hidden():
    masks = open_board()
    masks[18 + 0], masks[18 + 4], masks[18 + 8] = bits(1, 2), bits(2, 3), bits(1, 3)  # 3-naked
    masks[45], masks[47], masks[51], masks[53] = bits(5, 6), bits(6, 7), bits(7, 8), bits(5, 8)
    ok, out = run_both(masks)
    assert ok
    assert all(not out[c] & bits(1, 2, 3) for c in reference.UNITS[2] if c not in (18, 22, 26))
    assert all(not out[c] & bits(5, 6, 7, 8) for c in reference.UNITS[5]
               if c not in (45, 47, 51, 53))
    masks = open_board()
    for cell in reference.UNITS[18 + 4]:  # block 4: digits 1-3 fit three cells only (3-hidden)
        if cell not in (30, 40, 50):
            masks[cell] &= ALL & ~bits(1, 2, 3)
    ok, out = run_both(masks)
    assert ok and all(out[c] == bits(1, 2, 3) for c in (30, 40, 50))


@pytest.mark.parametrize("rows", [(0, 5), (0, 5, 7), (0, 2, 5, 7)])
def test_k_hidden_in_a_column(rows):
    """Digits 1..k fit only k cells of column 3, so those cells keep only 1..k (k = 2, 3, 4).

    The rows lie in different blocks (rows 0 and 2 share one, but two cells with four digits
    are no naked subset), so no other rule applies: nothing else changes.
    """
    k = len(rows)
    hidden = bits(*range(1, k + 1))
    column = reference.UNITS[9 + 3]
    chosen = [9 * r + 3 for r in rows]
    masks = open_board()
    for cell in column:
        if cell not in chosen:
            masks[cell] &= ALL & ~hidden
    ok, out = run_both(masks)
    assert ok
    for cell in range(81):
        expected = hidden if cell in chosen else masks[cell]
        assert out[cell] == expected, cell


def test_contradiction_is_reported():
    masks = open_board()
    masks[0] = masks[1] = masks[2] = bits(1, 2)  # three cells, two digits
    ok, _ = api.apply_rules(masks)
    assert not ok
    assert reference.apply_rules(to_sets(masks)) is False


@settings(max_examples=80, deadline=None)
@given(keep=st.integers(12, 40), seed=st.integers(0, 2**32 - 1))
def test_kernel_matches_reference_on_random_positions(solution17, keep, seed):
    """Random clue subsets of a solution, with some wrong candidates removed at random."""
    rng = np.random.default_rng(seed)
    board = np.zeros(81, np.uint8)
    cells = rng.choice(81, keep, replace=False)
    board[cells] = solution17[cells]
    masks = np.array([sum(1 << (d - 1) for d in c) for c in reference.candidates(board)],
                     np.uint16)
    for cell in rng.choice(81, 20):  # deletions of wrong candidates keep the position solvable
        wrong = int(masks[cell]) & ~(1 << (int(solution17[cell]) - 1))
        if wrong:
            masks[cell] &= ~np.uint16(1 << int(rng.choice([d for d in range(9) if wrong >> d & 1])))
    ok, out = run_both(masks)
    assert ok
    assert all(out[c] >> (int(solution17[c]) - 1) & 1 for c in range(81))  # sound
