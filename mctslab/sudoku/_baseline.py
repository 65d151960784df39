"""Baseline generator and post-hoc reduction (numba): not MCTS, for comparison and beyond-paper.

- :func:`random_grid`: a random full grid: fully random hints (with solvability checks) until
  the board is unique, then its solution. (Random, though not exactly uniform over grids.)
- :func:`removal_baseline`: the classic generator MCTS is compared against: start from a
  random full grid, remove clues in random order while the puzzle stays unique; the result is
  minimal. One run per call; its clue count is returned.
- :func:`reduce_many`: minimal reduction (``_playout.reduce_to_minimal``) of many recorded
  puzzles at once, after a generation run, so its cost is timed apart from the search.
"""

from __future__ import annotations

from mctslab.core.jit import njit
from mctslab.sudoku._playout import playout, reduce_to_minimal


@njit(cache=True)
def random_grid(grid, rng, tables, s):
    """Write a random full grid into ``grid`` (``uint8[81]``)."""
    grid[:] = 0
    masks = s.node_masks
    for cell in range(81):
        masks[cell] = 0x1FF
    playout(grid, masks, False, False, rng, tables, s)
    for cell in range(81):
        grid[cell] = s.solution[cell]


@njit(cache=True)
def removal_baseline(n_runs, histogram, boards, max_clues, counts, rng, tables, s, grid):
    """``n_runs`` random-removal puzzles: clue histogram; boards with <= max_clues stored."""
    for _ in range(n_runs):
        random_grid(grid, rng, tables, s)
        n = reduce_to_minimal(grid, rng, tables, s)
        histogram[n] += 1
        if n <= max_clues:
            k = counts[0]
            if k < boards.shape[0]:
                boards[k, :] = grid
            counts[0] = k + 1


@njit(cache=True)
def reduce_many(boards, out_clues, rng, tables, s):
    """Reduce each row of ``boards`` in place to a minimal puzzle; clue counts out."""
    for i in range(boards.shape[0]):
        out_clues[i] = reduce_to_minimal(boards[i], rng, tables, s)
