"""Large patterns: numba kernels that hash the neighbourhood of a move and look it up.

A *large pattern* of a move ``p`` for the player to move is the content of the points within
Manhattan distance ``r`` of ``p`` (``r`` = 2, 3, 4: 12, 24 and 40 points, the diamonds of
Stern, Herbrich & Graepel 2006 and of Pachi's spatial patterns), each point one of
:data:`VALUES`: empty, own stone, enemy stone, off the board, own stone in atari, enemy stone
in atari. The pattern's key is the smallest of its eight Zobrist hashes under the rotations and
reflections of the board (:func:`pattern_keys`), tagged by its radius, so a shape and its
mirror images share one key and the colours are relative to the side to move.

:mod:`mctslab.go.large_patterns` learns from game records how often each key's move was the
one played when the key was on the board (``played / seen``, the frequency Pachi's
``patterns.prob`` and michi's large-pattern prior hold) and the strong engine's prior reads it
at expansion (:func:`pattern_probability`: the largest radius whose key is in the table).
"""

from __future__ import annotations

import numpy as np

from mctslab.core.jit import njit
from mctslab.go._board import (
    BORDER,
    EMPTY,
    I_NUM_EMPTY,
    I_SIZE,
    I_WIDTH,
    OK,
    PASS,
    _atari,
    _u,
    check_move,
    play,
)

RADII = (2, 3, 4)
VALUES = ("empty", "own", "enemy", "off", "own in atari", "enemy in atari")
KEY_SEED = 0x1A26E  # the Zobrist keys' seed: keys are fixed, tables learned once stay valid


def offsets() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(dr, dc, ends)``: the 40 offsets within distance 4 in rings of distance 1, 2, 3, 4
    (each ring in (dr, dc) order), and ``ends[i]``, the number of offsets up to radius
    ``RADII[i]``."""
    ring = sorted((abs(a) + abs(b), a, b) for a in range(-4, 5) for b in range(-4, 5)
                   if 1 <= abs(a) + abs(b) <= 4)
    dr = np.array([a for _, a, _ in ring], np.int64)
    dc = np.array([b for _, _, b in ring], np.int64)
    ends = np.array([sum(1 for d, _, _ in ring if d <= r) for r in RADII], np.int64)
    return dr, dc, ends


def symmetry_table(dr: np.ndarray, dc: np.ndarray) -> np.ndarray:
    """``perm[s, k]``: the index of offset ``k`` under the board symmetry ``s`` (8 of them:
    the identity, reflections and rotations of ``(dr, dc)``)."""
    index = {(int(a), int(b)): k for k, (a, b) in enumerate(zip(dr, dc, strict=True))}
    maps = (lambda a, b: (a, b), lambda a, b: (a, -b), lambda a, b: (-a, b),
            lambda a, b: (-a, -b), lambda a, b: (b, a), lambda a, b: (b, -a),
            lambda a, b: (-b, a), lambda a, b: (-b, -a))
    return np.array([[index[f(int(a), int(b))] for a, b in zip(dr, dc, strict=True)]
                     for f in maps], np.int64)


def zobrist() -> tuple[np.ndarray, np.ndarray]:
    """``(keys, tags)``: fixed random keys ``uint64[40, 6]`` per offset and value, and one tag
    per radius."""
    rng = np.random.default_rng(KEY_SEED)
    keys = rng.integers(1, 2**64 - 1, size=(40, len(VALUES)), dtype=np.uint64, endpoint=True)
    tags = rng.integers(1, 2**64 - 1, size=len(RADII), dtype=np.uint64, endpoint=True)
    return keys, tags


@njit(cache=True, _nrt=False, inline="always")
def point_value(col, group, libs, lib_sum, lib_sumsq, size, w, color, r, c):
    """The :data:`VALUES` index of the point at row ``r``, column ``c`` (1-based) for
    ``color`` to move."""
    if r < 1 or r > size or c < 1 or c > size:
        return 3
    q = r * w + c
    x = col[_u(q)]
    if x == EMPTY or x == BORDER:
        return 0
    atari = _atari(libs, lib_sum, lib_sumsq, group[_u(q)])
    if x == color:
        return 4 if atari else 1
    return 5 if atari else 2


@njit(cache=True, _nrt=False)
def pattern_keys(col, group, libs, lib_sum, lib_sumsq, size, w, color, p, dr, dc, ends, perm,  # noqa: PLR0913 - numba kernel: the unpacked board arrays and key tables, not bundles (a NamedTuple per call costs ~130 ns in the hot loop)
                 keys, tags, scratch, out):
    """Write the keys of the move ``p`` for ``color`` at radii :data:`RADII` into ``out[0:3]``
    (module docstring); ``scratch`` is a uint64[8] buffer."""
    r0 = p // w
    c0 = p % w
    for s in range(8):
        scratch[s] = np.uint64(0)
    ring = 0
    for k in range(dr.shape[0]):
        v = point_value(col, group, libs, lib_sum, lib_sumsq, size, w, color, r0 + dr[k],
                        c0 + dc[k])
        for s in range(8):
            scratch[s] ^= keys[perm[s, k], v]
        if k + 1 == ends[ring]:
            best = scratch[0]
            for s in range(1, 8):
                if scratch[s] < best:
                    best = scratch[s]
            out[ring] = best ^ tags[ring]
            ring += 1
            if ring == ends.shape[0]:
                break


@njit(cache=True, _nrt=False, inline="always")
def find_key(table, key):
    """The index of ``key`` in the sorted ``table``, or -1."""
    lo = 0
    hi = table.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if table[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < table.shape[0] and table[lo] == key:
        return lo
    return -1


@njit(cache=True, _nrt=False)
def pattern_probability(st, color, p, data):
    """``played / seen`` of the largest-radius key of the move ``p`` in the table ``data``
    (:class:`mctslab.go.large_patterns.LargeData`), or -1.0 when no key of it is there."""
    if p == PASS:
        return -1.0
    pattern_keys(st.color, st.group, st.libs, st.lib_sum, st.lib_sumsq, st.info[I_SIZE],
                 st.info[I_WIDTH], color, p, data.dr, data.dc, data.ends, data.perm, data.keys,
                 data.tags, data.scratch, data.found)
    for ring in range(data.ends.shape[0] - 1, -1, -1):
        i = find_key(data.table, data.found[ring])
        if i >= 0:
            return data.prob[i]
    return -1.0


@njit(cache=True)
def game_keys(st, colors, points, dr, dc, ends, perm, keys, tags, played, table, seen):  # noqa: PLR0913 - numba kernel: a game, the key tables and the outputs
    """Replay a game from ``st`` (the empty board): for move ``i`` write the keys of the move
    played into ``played[i]`` (zeros for a pass); when ``table`` (sorted keys) is not empty, add
    one to ``seen[j]`` for every key ``table[j]`` of every empty point its player could play
    there. Returns the moves replayed (fewer than given at an illegal move)."""
    size = st.info[I_SIZE]
    w = st.info[I_WIDTH]
    scratch = np.zeros(8, np.uint64)
    found = np.zeros(ends.shape[0], np.uint64)
    for i in range(points.shape[0]):
        color = colors[i]
        p = points[i]
        if table.shape[0] > 0:
            for e in range(st.info[I_NUM_EMPTY]):
                q = np.int64(st.empty[e])
                if check_move(st, color, q) != OK:
                    continue
                pattern_keys(st.color, st.group, st.libs, st.lib_sum, st.lib_sumsq, size, w,
                             color, q, dr, dc, ends, perm, keys, tags, scratch, found)
                for ring in range(ends.shape[0]):
                    j = find_key(table, found[ring])
                    if j >= 0:
                        seen[j] += 1
        if p != PASS:
            pattern_keys(st.color, st.group, st.libs, st.lib_sum, st.lib_sumsq, size, w,
                         color, p, dr, dc, ends, perm, keys, tags, scratch, played[i])
        if play(st, color, p) != OK:
            return i
    return points.shape[0]
