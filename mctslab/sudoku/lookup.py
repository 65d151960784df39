"""The lookup tables every Sudoku kernel receives (units, peers, bit counts), built once in
Python and passed to the kernels as arguments.

numba freezes module globals into its on-disk cache, so the kernels never read tables from
module scope: :func:`make_tables` builds them and every kernel receives the :class:`Tables`
tuple as an argument.

Board conventions shared by all kernels (see ``api.py`` for the text format):

- a *board* is ``uint8[81]``, row-major, ``0`` for an empty cell and ``1``-``9`` for a digit;
- a *candidate mask* is ``uint16``, bit ``d - 1`` set when digit ``d`` is still possible;
  a board's candidate state is ``uint16[81]``;
- units are numbered rows ``0-8``, columns ``9-17``, blocks ``18-26``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from mctslab.sudoku._bands import make_band_tables

__all__ = ["Tables", "make_tables", "ALL_DIGITS"]

ALL_DIGITS = 0x1FF  # the nine candidate bits


class Tables(NamedTuple):
    peers: np.ndarray          # uint8[81, 20]: the 20 cells sharing a unit with each cell
    units: np.ndarray          # uint8[27, 9]: the cells of each row, column, block
    cell_units: np.ndarray     # uint8[81, 3]: the row, column and block unit of each cell
    cell_unit_bits: np.ndarray  # int64[81]: bit u set for the 3 units u holding each cell
    popcount: np.ndarray       # uint8[512]: number of candidates in a mask
    digit_of: np.ndarray       # uint8[512]: the digit of a one-candidate mask, 0 otherwise
    subset_masks: np.ndarray   # uint16[S]: 9-bit masks with 2, 3 or 4 bits set (k-subsets)
    subset_sizes: np.ndarray   # uint8[S]: the k of each subset mask
    debruijn: np.ndarray       # uint8[64]: bit index from (lowest bit * de Bruijn) >> 58
    outside: np.ndarray        # uint8[9, 6, 6]: block b, line i (rows 0-2, columns 3-5) of it:
                               # the line's six cells outside the block
    band: np.ndarray           # uint32[8, 512]: the band solver's tables (_bands.make_band_tables)


def _units() -> np.ndarray:
    units = np.empty((27, 9), np.uint8)
    for i in range(9):
        units[i] = [9 * i + j for j in range(9)]
        units[9 + i] = [9 * j + i for j in range(9)]
        band, stack = divmod(i, 3)
        units[18 + i] = [9 * (3 * band + r) + 3 * stack + c for r in range(3) for c in range(3)]
    return units


@lru_cache(maxsize=1)
def make_tables() -> Tables:
    """Build (once per process) the lookup tables for 9x9 Sudoku."""
    units = _units()
    cell_units = np.empty((81, 3), np.uint8)
    peers = np.empty((81, 20), np.uint8)
    for cell in range(81):
        r, c = divmod(cell, 9)
        cell_units[cell] = [r, 9 + c, 18 + 3 * (r // 3) + c // 3]
        mates = sorted({int(x) for u in cell_units[cell] for x in units[u]} - {cell})
        peers[cell] = mates
    cell_unit_bits = np.zeros(81, np.int64)
    for cell in range(81):
        for u in cell_units[cell]:
            cell_unit_bits[cell] |= 1 << int(u)
    popcount = np.array([bin(m).count("1") for m in range(512)], np.uint8)
    digit_of = np.zeros(512, np.uint8)
    for d in range(1, 10):
        digit_of[1 << (d - 1)] = d
    subsets = [m for m in range(512) if 2 <= popcount[m] <= 4]
    subsets.sort(key=lambda m: (popcount[m], m))
    subset_masks = np.array(subsets, np.uint16)
    subset_sizes = popcount[subset_masks].astype(np.uint8)
    debruijn = np.zeros(64, np.uint8)
    for i in range(64):
        debruijn[((1 << i) * 0x022FDD63CC95386D & (2**64 - 1)) >> 58] = i
    outside = np.zeros((9, 6, 6), np.uint8)
    for b in range(9):
        br, bc = divmod(b, 3)
        for i in range(3):
            outside[b, i] = [9 * (3 * br + i) + c for c in range(9) if c // 3 != bc]
            outside[b, 3 + i] = [9 * r + 3 * bc + i for r in range(9) if r // 3 != br]
    arrays = (peers, units, cell_units, cell_unit_bits, popcount, digit_of, subset_masks,
              subset_sizes, debruijn, outside)
    for arr in arrays:
        arr.setflags(write=False)
    return Tables(*arrays, make_band_tables())
