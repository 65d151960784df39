"""Plain-Python twins of the Many Faces kernels, for the tests.

The pattern matcher (:mod:`mctslab.manyfaces._match`): :func:`naive_matches`. No masks, no
hash prefilter, no incremental shortcut, no early exit: for every pattern, orientation and
colour, a Python loop over the pattern's cells compares each cell's accepted states with the
board (vectorised over the anchors with NumPy only to keep the tests short). The result uses
the matcher's conventions: the board is transformed by orientation ``o``
(:func:`~mctslab.manyfaces.patterns.transform_grid`), the anchor is the top-left point of the
pattern's box in the transformed board, colour 0 means ``O`` is black.

The knowledge structures (:mod:`mctslab.manyfaces._knowledge`): neighbour counts, strings,
rays, connections, liberties, regions, influence, cuts. Each function reads a board as a dict
``{(row, col): colour}`` of an N x N board (0 empty, 1 black, 2 white; off-board points are
absent) and returns plain Python data, computed the obvious way: no rays kept between calls,
no sorting tricks, no scratch arrays.
"""

from __future__ import annotations

import numpy as np

from mctslab.manyfaces._knowledge import (
    AJI,
    CUT,
    CUTTABLE,
    HALF_KNIGHT,
    HALF_LARGE_KNIGHT,
    HANE,
    KNIGHT,
    LARGE_KNIGHT,
    MULTIPLE,
    ONE_POINT,
    SHARED,
    SOLID,
    THREE_POINT,
    TWO_POINT,
)
from mctslab.manyfaces.patterns import ACCEPTS, Pattern, distinct_orientations, transform_grid


# ---------------------------------------------------------------- the pattern matcher
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


# ---------------------------------------------------------------- the knowledge structures
DIRS = ((0, 1), (0, -1), (1, 0), (-1, 0))      # the kernels' (+1, -1, +w, -w)


def grid_of(stones, size: int) -> dict:
    """{(r, c): colour} for every on-board point of an int8[size, size] array."""
    return {(r, c): int(stones[r][c]) for r in range(size) for c in range(size)}


def neighbours(p):
    return [(p[0] + dr, p[1] + dc) for dr, dc in DIRS]


def neighbour_counts(grid) -> dict:
    """{point: (empty, black, white) neighbours}."""
    out = {}
    for p in grid:
        counts = [0, 0, 0]
        for q in neighbours(p):
            if q in grid:
                counts[grid[q]] += 1
        out[p] = tuple(counts)
    return out


def strings(grid) -> dict:
    """{stone point: frozenset of its string's points}."""
    out = {}
    for p, c in grid.items():
        if c == 0 or p in out:
            continue
        members, stack = {p}, [p]
        while stack:
            s = stack.pop()
            for q in neighbours(s):
                if grid.get(q) == c and q not in members:
                    members.add(q)
                    stack.append(q)
        fs = frozenset(members)
        for s in members:
            out[s] = fs
    return out


def rays(grid) -> dict:
    """{(empty point, direction index): (stone point, distance)} within 3 points."""
    out = {}
    for p, c in grid.items():
        if c != 0:
            continue
        for d, (dr, dc) in enumerate(DIRS):
            for k in range(1, 4):
                q = (p[0] + k * dr, p[1] + k * dc)
                if q not in grid:
                    break
                if grid[q] != 0:
                    out[(p, d)] = (q, k)
                    break
    return out


def connection_records(grid) -> set:
    """{(L, a, q, k, relation)} as :func:`~mctslab.manyfaces._knowledge.connection_records`."""
    strs = strings(grid)
    out = set()
    for (p, d), (q, k) in rays(grid).items():
        for dr, dc in DIRS:
            a = (p[0] + dr, p[1] + dc)
            if grid.get(a, 0) == 0 or grid[q] != grid[a] or strs[q] == strs[a]:
                continue
            opposite = DIRS[d] == (-dr, -dc)
            rel = {1: (ONE_POINT, HANE), 2: (TWO_POINT, KNIGHT),
                   3: (THREE_POINT, LARGE_KNIGHT)}[k][0 if opposite else 1]
            out.add((p, a, q, k, rel))
    return out


def distinct_liberties(grid) -> dict:
    """{frozenset string: number of distinct liberties}."""
    out = {}
    for s in set(strings(grid).values()):
        out[s] = len({q for p in s for q in neighbours(p) if grid.get(q) == 0})
    return out


def regions(grid, owner: int) -> list[frozenset]:
    """Components of points that are empty or hold ``3 - owner``'s stones."""
    seen, out = set(), []
    for p, c in grid.items():
        if c == owner or p in seen:
            continue
        members, stack = {p}, [p]
        seen.add(p)
        while stack:
            s = stack.pop()
            for q in neighbours(s):
                if q in grid and grid[q] != owner and q not in seen:
                    seen.add(q)
                    members.add(q)
                    stack.append(q)
        out.append(frozenset(members))
    return out


def influence(grid, values: dict, power: float = 1.0) -> tuple[dict, dict]:
    """(black, white): per empty point, the sum over stones s of |values[s]| / d**power with
    d the breadth-first path length from s through empty points."""
    black = {p: 0.0 for p, c in grid.items() if c == 0}
    white = dict(black)
    for s, v in values.items():
        if v == 0:
            continue
        dist = {}
        frontier = [q for q in neighbours(s) if grid.get(q) == 0]
        for q in frontier:
            dist[q] = 1
        i = 0
        while i < len(frontier):
            p = frontier[i]
            i += 1
            for q in neighbours(p):
                if grid.get(q) == 0 and q not in dist:
                    dist[q] = dist[p] + 1
                    frontier.append(q)
        for p, d in dist.items():
            (black if v > 0 else white)[p] += abs(v) / d ** power
    return black, white


def cut_records(grid) -> set:
    """{(a, q, relation)}: stones of one colour in different strings, diagonal with both
    crossing points held by the opponent (HANE), or two apart on a line with an opponent
    stone between (ONE_POINT); a is the lower (then left) stone of the pair."""
    strs = strings(grid)
    out = set()
    for a, c in grid.items():
        if c == 0:
            continue
        enemy = 3 - c
        for dc in (1, -1):
            q = (a[0] + 1, a[1] + dc)
            if grid.get(q) == c and strs[q] != strs[a] and grid.get((a[0], a[1] + dc)) == enemy \
                    and grid.get((a[0] + 1, a[1])) == enemy:
                out.add((a, q, HANE))
        for dr, dc in ((0, 1), (1, 0)):
            q = (a[0] + 2 * dr, a[1] + 2 * dc)
            if grid.get(q) == c and strs[q] != strs[a] and grid.get((a[0] + dr, a[1] + dc)) == enemy:
                out.add((a, q, ONE_POINT))
    return out


def _opponent_can_play(grid, point, player, libs, strs) -> bool:
    """The kernels' ``safe_for``: ``player`` at ``point`` captures a neighbour in atari or
    has two or more liberties, counting each neighbouring own stone's string's other
    liberties (once per neighbouring stone, as the kernel does)."""
    total = 0
    for q in neighbours(point):
        c = grid.get(q)
        if c == 0:
            total += 1
        elif c == player:
            total += libs[strs[q]] - 1
        elif c == 3 - player and libs[strs[q]] == 1:
            return True
    return total >= 2


def connections(grid) -> dict:
    """{(string, string): (type, strength, n1, n2, n3)} with the strings as frozensets,
    following :mod:`mctslab.manyfaces.knowledge`'s definitions literally."""
    strs = strings(grid)
    libs = distinct_liberties(grid)
    by_pair: dict = {}
    for rec in connection_records(grid):
        key = frozenset((strs[rec[1]], strs[rec[2]]))
        by_pair.setdefault(key, [[], []])[0].append(rec)
    for rec in cut_records(grid):
        key = frozenset((strs[rec[0]], strs[rec[1]]))
        by_pair.setdefault(key, [[], []])[1].append(rec)
    out = {}
    for key, (recs, cuts) in by_pair.items():
        if not recs:
            rels = {r[2] for r in cuts}
            out[key] = (rels.pop() if len(rels) == 1 else MULTIPLE, CUT, 0, 0, 0)
            continue
        nearest = {}
        for L, _, _, k, _ in recs:
            nearest[L] = min(k, nearest.get(L, 4))
        n = [sum(1 for k in nearest.values() if k == d) for d in (1, 2, 3)]
        kmin = min(nearest.values())
        rels = set()
        for _, a, q, k, rel in recs:
            if k != kmin:
                continue
            if rel in (KNIGHT, LARGE_KNIGHT):
                links = sum(1 for r in recs if r[4] == rel and {r[1], r[2]} == {a, q})
                if links < 2:
                    rel = HALF_KNIGHT if rel == KNIGHT else HALF_LARGE_KNIGHT
            rels.add(rel)
        kind = rels.pop() if len(rels) == 1 else MULTIPLE
        if n[0] >= 2:
            strength = SOLID
        elif n[0] == 1:
            point = next(L for L, k in nearest.items() if k == 1)
            colour = grid[recs[0][1]]
            strength = SHARED if _opponent_can_play(grid, point, 3 - colour, libs, strs) \
                else AJI
        else:
            strength = CUTTABLE
        out[key] = (kind, strength, *n)
    return out
