"""Naive pattern matcher: the plain twin of :mod:`mctslab.manyfaces._match` for tests.

No masks, no hash prefilter, no incremental shortcut, no early exit: for every pattern,
orientation and colour, a Python loop over the pattern's cells compares each cell's
accepted states with the board (vectorised over the anchors with NumPy only to keep
the tests short). The result uses the matcher's conventions: the board is transformed
by orientation ``o`` (:func:`~mctslab.manyfaces.patterns.transform_grid`), the anchor
is the top-left point of the pattern's box in the transformed board, colour 0 means
``O`` is black.
"""

from __future__ import annotations

import numpy as np

from mctslab.manyfaces.patterns import ACCEPTS, Pattern, distinct_orientations, transform_grid

__all__ = ["naive_matches", "pattern_matches"]


def _planes(tb: np.ndarray, colour: int) -> dict[str, np.ndarray]:
    """Boolean board planes for each set of accepted states ("e", "o", "x", "oe", "xe")."""
    own, other = (1, 2) if colour == 0 else (2, 1)
    e, o, x = tb == 0, tb == own, tb == other
    return {"e": e, "o": o, "x": x, "oe": o | e, "xe": x | e}


def pattern_matches(p: Pattern, board: np.ndarray, orientations=None, planes=None):
    """Yield (anchor_row, anchor_col, orientation, colour) where ``p`` matches ``board``.
    ``planes[o][colour]`` (from :func:`_planes`) may be passed to save recomputing them."""
    n = board.shape[0]
    h, w = p.height, p.width
    if h > n or w > n:
        return
    for o in (distinct_orientations(p) if orientations is None else orientations):
        for colour in (0, 1):
            state = (planes[o][colour] if planes is not None
                     else _planes(np.asarray(transform_grid(board, o)), colour))
            ok = np.ones((n - h + 1, n - w + 1), dtype=bool)
            for i, row in enumerate(p.rows):
                for j, ch in enumerate(row):
                    accepted = ACCEPTS[ch]
                    if len(accepted) < 3:
                        ok &= state[accepted][i:i + n - h + 1, j:j + n - w + 1]
            # an edge mark: the line beyond it is off the board
            if p.top:
                ok[1:, :] = False
            if p.bottom:
                ok[:-1, :] = False
            if p.left:
                ok[:, 1:] = False
            if p.right:
                ok[:, :-1] = False
            for ar, ac in zip(*np.nonzero(ok)):
                yield int(ar), int(ac), o, colour


def naive_matches(patterns: list[Pattern], board) -> set[tuple[int, int, int, int, int]]:
    """{(pattern index, anchor_row, anchor_col, orientation, colour)} over all patterns."""
    board = np.asarray(board, dtype=np.int8)
    planes = [[_planes(np.asarray(transform_grid(board, o)), c) for c in (0, 1)] for o in range(8)]
    return {(k, ar, ac, o, colour) for k, p in enumerate(patterns)
            for ar, ac, o, colour in pattern_matches(p, board, planes=planes)}
