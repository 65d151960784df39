"""Playouts of the Sudoku generator (paper Sec. 4.1, Fig. 6), in numba.

A playout adds clues to a board until it has exactly one solution; its value is the number of
clues placed (digits fixed by the rules are not clues, footnote 1)::

    loop until solve(board) == unique:
        board <- solveByRule(board)                  # only when rules are on
        hint <- selectHint(board)
        if solve(board + hint) == noAnswer: board <- deleteCand(board, hint)
        else: board <- board + hint

State: ``clues`` (``uint8[81]``, the placed hints) and ``masks`` (``uint16[81]``): candidates
after removing placed digits from their peers, deleted candidates and (with rules) the rules'
deductions. Every deduction is sound, so solving from ``masks`` answers the same question as
solving the clues alone, only faster. One solver call per step answers both "does the hint
leave a solution?" and "is the board now unique?".

Hint selection (``selectHint``) draws a candidate (cell, digit) uniformly over the open cells
(not a clue; with rules, also not already fixed): ``reducing = False`` is the paper's "fully
random"; ``reducing = True`` its "candidate-reducing": three draws, keeping the one that
leaves the fewest candidates when its digit is placed (ties: first drawn). How the candidates
left are counted is not said in the paper (``count_mode``): ``COUNT_EXCLUSION`` (0, the
default) by basic exclusion only (the candidates the placement removes from its cell and its
peers); ``COUNT_RULES`` (1, only when the rules are on) after placing the digit *and* applying
the rules to that board (the total number of candidates left; a placement the rules find
contradictory counts the candidates left where the rules stopped).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mctslab.core.jit import njit
from mctslab.rng import rng_below
from mctslab.sudoku._rules import apply_rules
from mctslab.sudoku._solver import count_solutions


class PlayoutScratch(NamedTuple):
    stack: np.ndarray        # uint16[82, 108] solver stack
    queue: np.ndarray        # uint8[81]
    branch_cell: np.ndarray  # uint8[82]
    todo: np.ndarray         # uint16[82]
    solution: np.ndarray     # uint8[81]
    trial: np.ndarray        # uint16[81] candidate state with the hint placed
    positions: np.ndarray    # uint16[9] rules scratch
    counts: np.ndarray       # int64[1] rules scratch
    order: np.ndarray        # int64[81] reduction order
    board: np.ndarray        # uint8[81] reduction board
    masks: np.ndarray        # uint16[81] reduction candidate state
    node_masks: np.ndarray   # uint16[81] candidate state of a node being expanded
    sets: np.ndarray         # uint16[9] rules scratch
    items: np.ndarray        # int64[9] rules scratch
    unit_masks: np.ndarray   # uint16[9] rules scratch
    decided: np.ndarray      # uint16[108] rules scratch (singles state)


def make_playout_scratch() -> PlayoutScratch:
    return PlayoutScratch(np.empty((82, 108), np.uint16), np.empty(81, np.uint8),
                          np.empty(82, np.uint8), np.empty(82, np.uint16),
                          np.empty(81, np.uint8), np.empty(81, np.uint16),
                          np.empty(9, np.uint16), np.zeros(1, np.int64), np.empty(81, np.int64),
                          np.empty(81, np.uint8), np.empty(81, np.uint16),
                          np.empty(81, np.uint16), np.empty(9, np.uint16), np.empty(9, np.int64),
                          np.empty(9, np.uint16), np.empty(108, np.uint16))


@njit(cache=True)
def _solve(masks, tables, s):
    return count_solutions(masks, 2, tables, s.stack, s.queue, s.branch_cell, s.todo, s.solution)


@njit(cache=True)
def _is_open(masks, clues, rules, cell, popcount):
    return clues[cell] == 0 and (not rules or popcount[masks[cell]] > 1)


@njit(cache=True)
def draw_hint(masks, clues, rules, rng, tables):
    """A uniformly random open (cell, digit bit); cell -1 when no candidate is open."""
    popcount = tables.popcount
    total = 0
    for cell in range(81):
        if _is_open(masks, clues, rules, cell, popcount):
            total += popcount[masks[cell]]
    if total == 0:
        return -1, 0
    k = rng_below(rng, total)
    for cell in range(81):
        if _is_open(masks, clues, rules, cell, popcount):
            m = np.int64(masks[cell])
            n = popcount[m]
            if k < n:
                for _ in range(k):
                    m &= m - 1  # drop the lowest candidates until the k-th is lowest
                return cell, m & -m
            k -= n
    return -1, 0


@njit(cache=True)
def _candidates_removed(masks, cell, bit, tables):
    """How many candidates placing ``bit`` in ``cell`` removes by basic exclusion."""
    removed = tables.popcount[masks[cell]] - 1
    for k in range(20):
        p = tables.peers[cell, k]
        if masks[p] & bit and tables.popcount[masks[p]] > 1:
            removed += 1
    return removed


COUNT_EXCLUSION = 0
COUNT_RULES = 1


@njit(cache=True)
def _place_in_trial(masks, cell, bit, tables, trial):
    """``trial`` = ``masks`` with ``bit`` placed in ``cell`` and removed from its peers."""
    for i in range(81):
        trial[i] = masks[i]
    trial[cell] = bit
    for k in range(20):
        p = tables.peers[cell, k]
        if trial[p] & bit and trial[p] != bit:
            trial[p] ^= bit
    return trial


@njit(cache=True)
def _candidates_left_after_rules(masks, cell, bit, tables, s):
    """Candidates left on the whole board after placing ``bit`` in ``cell`` and applying the
    rules (in ``s.trial``, which :func:`try_hint` overwrites afterwards)."""
    trial = _place_in_trial(masks, cell, bit, tables, s.trial)
    apply_rules(trial, tables, s.queue, s.positions, s.counts, s.sets, s.items, s.unit_masks,
                s.decided)  # a contradiction stops it: count what is left there
    left = 0
    for i in range(81):
        left += tables.popcount[trial[i]]
    return left


@njit(cache=True)
def _reduction_score(masks, cell, bit, count_mode, rules, tables, s):
    """Higher is better: candidates removed (exclusion) or minus the candidates left (rules)."""
    if count_mode == COUNT_RULES and rules:
        return -_candidates_left_after_rules(masks, cell, bit, tables, s)
    return _candidates_removed(masks, cell, bit, tables)


@njit(cache=True)
def select_hint(masks, clues, reducing, rules, rng, tables, count_mode, s):
    """``selectHint``: fully random, or the best of three draws when ``reducing``.

    ``count_mode``: how "fewest candidates left" is counted (module docstring); ``s`` is the
    playout scratch (used by ``COUNT_RULES`` only).
    """
    cell, bit = draw_hint(masks, clues, rules, rng, tables)
    if not reducing or cell < 0:
        return cell, bit
    best = _reduction_score(masks, cell, bit, count_mode, rules, tables, s)
    for _ in range(2):
        other, other_bit = draw_hint(masks, clues, rules, rng, tables)
        score = _reduction_score(masks, other, other_bit, count_mode, rules, tables, s)
        if score > best:
            cell, bit, best = other, other_bit, score
    return cell, bit


@njit(cache=True)
def try_hint(masks, cell, bit, tables, s):
    """Place the hint in ``s.trial`` (a copy of ``masks``) and solve it: 0, 1 or 2 solutions."""
    return _solve(_place_in_trial(masks, cell, bit, tables, s.trial), tables, s)


@njit(cache=True)
def playout(clues, masks, reducing, rules, rng, tables, s, count_mode=COUNT_EXCLUSION):
    """Run Fig. 6 in place on ``clues``/``masks``; returns the number of clues of the result.

    ``masks`` must be the candidate state of ``clues`` (see :func:`start_state`). Returns -1
    if the board has no candidate left to place (cannot happen from a solvable board).
    ``count_mode``: see :func:`select_hint`.
    """
    n_clues = 0
    for cell in range(81):
        if clues[cell]:
            n_clues += 1
    while True:
        if rules:
            apply_rules(masks, tables, s.queue, s.positions, s.counts, s.sets, s.items, s.unit_masks,
                        s.decided)
        cell, bit = select_hint(masks, clues, reducing, rules, rng, tables, count_mode, s)
        if cell < 0:
            return -1
        status = try_hint(masks, cell, bit, tables, s)
        if status == 0:
            masks[cell] &= ~np.uint16(bit)  # deleteCand
            continue
        for i in range(81):
            masks[i] = s.trial[i]
        clues[cell] = tables.digit_of[bit]
        n_clues += 1
        if status == 1:
            return n_clues


@njit(cache=True)
def decided_cells(clues, masks, tables):
    """Cells that are not clues but have a single candidate left in ``masks``: the digits the
    rules (or basic exclusion) fixed, which the paper's value leaves out (footnote 1)."""
    n = 0
    for cell in range(81):
        if clues[cell] == 0 and tables.popcount[masks[cell]] == 1:
            n += 1
    return n


@njit(cache=True)
def start_state(clues, masks, tables):
    """Candidate state of a clue board: clue digits removed from their peers (basic exclusion)."""
    for cell in range(81):
        d = clues[cell]
        masks[cell] = np.uint16(1 << (d - 1)) if d > 0 else np.uint16(0x1FF)
    for cell in range(81):
        d = clues[cell]
        if d > 0:
            bit = np.uint16(1 << (d - 1))
            for k in range(20):
                p = tables.peers[cell, k]
                if masks[p] & bit and clues[p] == 0:
                    masks[p] ^= bit


@njit(cache=True)
def reduce_to_minimal(clues, rng, tables, s):
    """Remove clues (random order) while the puzzle stays unique; returns the clue count left.

    Beyond the paper: a playout stops at the first unique board, which is often not minimal.
    One pass suffices: a clue needed now is still needed after later removals.
    """
    n = 0
    for cell in range(81):
        if clues[cell]:
            s.order[n] = cell
            n += 1
    for i in range(n - 1, 0, -1):  # Fisher-Yates
        j = rng_below(rng, i + 1)
        s.order[i], s.order[j] = s.order[j], s.order[i]
    kept = n
    for i in range(n):
        cell = s.order[i]
        digit = clues[cell]
        clues[cell] = 0
        start_state(clues, s.masks, tables)
        if _solve(s.masks, tables, s) == 1:
            kept -= 1
        else:
            clues[cell] = digit
    return kept
