"""Go board kernels: a padded 1-D board with incremental strings, pseudo-liberties and Zobrist hash.

Reading guide (michi / Pachi style):

* The ``N x N`` board lives in a 1-D ``int8`` array of ``W * W`` points with ``W = N + 2``: a
  one-point ``BORDER`` frame all round, so the four neighbours of an on-board point ``p`` are
  ``p - 1, p + 1, p - W, p + W`` and its diagonals ``p +- W +- 1``, never out of range. Board
  ``(row, col)`` (row 0 = bottom, sgfmill/GTP convention) is point ``(row + 1) * W + col + 1``.
  Point ``0`` (a border corner) stands for ``PASS``.
* Strings (chains): ``group[p]`` is the string's id (one of its stones), ``next_stone[p]`` a
  ring through its stones, and per id ``stones``, ``libs`` (pseudo-liberties: one per
  stone-empty adjacency, so a liberty shared by k stones counts k times), ``lib_sum`` and
  ``lib_sumsq`` (sums of those liberty points and of their squares). A string is captured
  exactly when ``libs == 0``, and is in atari exactly when all its pseudo-liberties are the same
  point: ``libs * lib_sumsq == lib_sum ** 2`` (Cauchy-Schwarz equality), that point being
  ``lib_sum / libs``. So capture and atari tests are O(1) and exact, and no merge ever has to
  deduplicate liberties.
* Empty points: ``empty[:num_empty]`` lists them, ``empty_index[p]`` is p's place in the list
  (swap-with-last removal), for O(1) random move selection in playouts.
* Zobrist: ``zobrist[c, p]`` for a stone of colour c on p, and ``zobrist[0, 0]`` for "White
  to move". ``hash[0]`` is maintained incrementally; :func:`full_hash` recomputes it.
* Rules: captures, suicide illegal, simple ko (``ko_point`` forbidden to ``ko_color`` on the
  next move only); positional superko is the Python side's job (:mod:`mctslab.go.api`).
* Kernels never raise: :func:`check_move` and :func:`play` return status codes.

``info`` (``int64[INFO_LEN]``) holds the scalars, indexed by the ``I_*`` constants.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mctslab.core.jit import njit

EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3
PASS = 0
OK, OCCUPIED, SUICIDE, KO = 0, 1, 2, 3
STATUS_NAMES = {OCCUPIED: "occupied", SUICIDE: "suicide", KO: "ko"}

I_SIZE, I_WIDTH, I_TO_MOVE, I_KO, I_KO_COLOR, I_NUM_EMPTY = 0, 1, 2, 3, 4, 5
I_PASSES, I_MOVES, I_NUM_CAPTURED, I_CAPTURES_BLACK, I_CAPTURES_WHITE, I_LAST = 6, 7, 8, 9, 10, 11
INFO_LEN = 12

MIN_SIZE, MAX_SIZE = 5, 25


class BoardState(NamedTuple):
    """One position. Arrays indexed by point ``p`` have length ``P = (N + 2) ** 2``."""

    color: np.ndarray        # int8[P]   EMPTY / BLACK / WHITE / BORDER
    group: np.ndarray        # int16[P]  string id of the stone on p
    next_stone: np.ndarray   # int16[P]  next stone of the same string (a ring)
    stones: np.ndarray       # int16[P]  per string id: number of stones
    libs: np.ndarray         # int16[P]  per string id: pseudo-liberties
    lib_sum: np.ndarray      # int32[P]  per string id: sum of pseudo-liberty points
    lib_sumsq: np.ndarray    # int64[P]  per string id: sum of their squares
    empty: np.ndarray        # int16[P]  empty points, first info[I_NUM_EMPTY] valid
    empty_index: np.ndarray  # int16[P]  position of p in ``empty``
    captured: np.ndarray     # int16[P]  points captured by the last move (info[I_NUM_CAPTURED])
    info: np.ndarray         # int64[INFO_LEN] scalars, see I_*
    hash: np.ndarray         # uint64[1] Zobrist hash of stones and side to move
    zobrist: np.ndarray      # uint64[3, P] keys (shared between copies, never written)
    mark: np.ndarray         # int8[P]   scratch for scoring (not part of the position)
    stack: np.ndarray        # int16[P]  scratch for scoring (not part of the position)


# Fields that make up a position (copied by copy_state); zobrist, mark and stack are not.
POSITION_FIELDS = ("color", "group", "next_stone", "stones", "libs", "lib_sum", "lib_sumsq",
                   "empty", "empty_index", "captured", "info", "hash")


def zobrist_keys(size: int) -> np.ndarray:
    """Fixed Zobrist keys for a board size (same size, same keys, so hashes are comparable)."""
    width = size + 2
    keys = np.random.default_rng(0x60B0A2D + size).integers(
        1, 2**64 - 1, size=(3, width * width), dtype=np.uint64, endpoint=True)
    keys[0, 1:] = 0  # row 0 only carries the side-to-move key at [0, 0]
    return keys


def new_state(size: int, zobrist: np.ndarray | None = None) -> BoardState:
    """The empty ``size x size`` board with Black to move (size 5..25, not checked here)."""
    width = size + 2
    points = width * width
    color = np.full(points, BORDER, np.int8)
    on_board = [(r + 1) * width + c + 1 for r in range(size) for c in range(size)]
    color[on_board] = EMPTY
    empty = np.zeros(points, np.int16)
    empty_index = np.zeros(points, np.int16)
    empty[: len(on_board)] = on_board
    empty_index[on_board] = np.arange(len(on_board))
    info = np.zeros(INFO_LEN, np.int64)
    info[I_SIZE] = size
    info[I_WIDTH] = width
    info[I_TO_MOVE] = BLACK
    info[I_NUM_EMPTY] = len(on_board)
    return BoardState(
        color=color, group=np.zeros(points, np.int16), next_stone=np.zeros(points, np.int16),
        stones=np.zeros(points, np.int16), libs=np.zeros(points, np.int16),
        lib_sum=np.zeros(points, np.int32), lib_sumsq=np.zeros(points, np.int64),
        empty=empty, empty_index=empty_index, captured=np.zeros(points, np.int16), info=info,
        hash=np.zeros(1, np.uint64),
        zobrist=zobrist_keys(size) if zobrist is None else zobrist,
        mark=np.zeros(points, np.int8), stack=np.zeros(points, np.int16))


def clone_state(state: BoardState) -> BoardState:
    """A deep copy of the position (keys shared, fresh scratch)."""
    return state._replace(**{f: getattr(state, f).copy() for f in POSITION_FIELDS},
                          mark=state.mark.copy(), stack=state.stack.copy())


@njit(cache=True, _nrt=False)
def copy_state(src, dst):
    """Copy the position ``src`` into the preallocated ``dst`` of the same size (no allocation;
    ``captured`` is not copied: it only describes the last move's captures)."""
    # element loops: numba's ``a[:] = b`` may allocate a temporary copy of ``b``
    for p in range(src.color.shape[0]):
        dst.color[p] = src.color[p]
        dst.group[p] = src.group[p]
        dst.next_stone[p] = src.next_stone[p]
        dst.stones[p] = src.stones[p]
        dst.libs[p] = src.libs[p]
        dst.lib_sum[p] = src.lib_sum[p]
        dst.lib_sumsq[p] = src.lib_sumsq[p]
        dst.empty[p] = src.empty[p]
        dst.empty_index[p] = src.empty_index[p]
    for i in range(src.info.shape[0]):
        dst.info[i] = src.info[i]
    dst.hash[0] = src.hash[0]


# Performance note: numba passes a NamedTuple of 15 arrays to a called kernel at a cost of
# ~130 ns per call inside a loop (measured), so the hot helpers below take the few arrays they
# need, never the whole state.


@njit(cache=True, _nrt=False, inline="always")
def _u(i):
    """``i`` as an unsigned index: numba then skips the negative-index wraparound code that a
    signed index costs at every array access (points are never negative)."""
    return np.uint64(i)


@njit(cache=True, _nrt=False, inline="always")
def _atari(libs, lib_sum, lib_sumsq, g):
    g = _u(g)
    n = np.int64(libs[g])
    s = np.int64(lib_sum[g])
    return n > 0 and n * lib_sumsq[g] == s * s


@njit(cache=True, _nrt=False)
def atari_liberty(st, g):
    """The single liberty of string ``g`` when it is in atari, else -1."""
    if not _atari(st.libs, st.lib_sum, st.lib_sumsq, g):
        return -1
    return np.int64(st.lib_sum[g]) // np.int64(st.libs[g])


@njit(cache=True, _nrt=False)
def check_move(st, color, p):
    """Status of ``color`` playing point ``p``: OK, OCCUPIED, SUICIDE or KO (PASS is OK)."""
    if p == PASS:
        return OK
    col = st.color
    if col[p] != EMPTY:
        return OCCUPIED
    info = st.info
    if p == info[I_KO] and color == info[I_KO_COLOR]:
        return KO
    return _check_neighbours(col, st.group, st.libs, st.lib_sum, st.lib_sumsq, info[I_WIDTH],
                             color, p)


@njit(cache=True, _nrt=False, inline="always")
def _check_neighbours(col, group, libs, lib_sum, lib_sumsq, w, color, p):
    if col[_u(p - 1)] == EMPTY or col[_u(p + 1)] == EMPTY or col[_u(p - w)] == EMPTY or \
            col[_u(p + w)] == EMPTY:
        return OK  # the common case, decided without looking at strings
    return OK if _legal_surrounded(col, group, libs, lib_sum, lib_sumsq, w, color, p) else \
        SUICIDE


@njit(cache=True, _nrt=False, inline="always")
def _legal_surrounded(col, group, libs, lib_sum, lib_sumsq, w, color, p):
    """Legality of ``color`` on empty ``p`` with no empty neighbour: it must join an own
    string that keeps another liberty or capture an enemy string (one in atari)."""
    for q in (p - 1, p + 1, p - w, p + w):
        cq = col[_u(q)]
        if cq == BORDER:
            continue
        atari = _atari(libs, lib_sum, lib_sumsq, group[_u(q)])
        if cq == color:
            if not atari:
                return True  # joins a string that keeps another liberty
        elif atari:
            return True  # captures
    return False


@njit(cache=True, _nrt=False)
def is_eye_like(st, p, color):
    """Single-point eye of ``color`` at empty ``p``: orthogonal neighbours own or border, and at
    most one enemy diagonal in the middle of the board, none at the edge (michi, Pachi, GNU Go)."""
    return _eye_like(st.color, st.info[I_WIDTH], p, color)


@njit(cache=True, _nrt=False, inline="always")
def _eye_like(col, w, p, color):
    # unrolled: the first test rejects most points at once
    c = col[_u(p - 1)]
    if c != color and c != BORDER:
        return False
    c = col[_u(p + 1)]
    if c != color and c != BORDER:
        return False
    c = col[_u(p - w)]
    if c != color and c != BORDER:
        return False
    c = col[_u(p + w)]
    if c != color and c != BORDER:
        return False
    enemy = 3 - color
    bad = 0
    edge = 0
    for d in (p - w - 1, p - w + 1, p + w - 1, p + w + 1):
        c = col[_u(d)]
        if c == BORDER:
            edge = 1
        elif c == enemy:
            bad += 1
    return bad + edge < 2


@njit(cache=True, _nrt=False, inline="always")
def _playable(col, group, libs, lib_sum, lib_sumsq, w, color, p):
    """``check_move(color, p) == OK`` (ko aside) and ``not _eye_like(col, w, p, color)``, for
    an empty ``p``: the light policy's test. The four orthogonal colours are packed into one
    byte (2 bits each: EMPTY 00, BLACK 01, WHITE 10, BORDER 11) so the two common cases, an
    empty neighbour (legal, no eye) and an own eye, cost one or two branches."""
    code = np.int64(col[_u(p - 1)]) | (np.int64(col[_u(p + 1)]) << 2) | \
        (np.int64(col[_u(p - w)]) << 4) | (np.int64(col[_u(p + w)]) << 6)
    low = code & 0x55  # bit 2k: field k is BLACK or BORDER
    high = (code >> 1) & 0x55  # bit 2k: field k is WHITE or BORDER
    if (low | high) != 0x55:
        return True  # an empty neighbour: legal, and not an eye
    if (low if color == BLACK else high) == 0x55:  # every neighbour own or border
        enemy = 3 - color
        d0 = col[_u(p - w - 1)]
        d1 = col[_u(p - w + 1)]
        d2 = col[_u(p + w - 1)]
        d3 = col[_u(p + w + 1)]
        bad = np.int64(d0 == enemy) + np.int64(d1 == enemy) + np.int64(d2 == enemy) + \
            np.int64(d3 == enemy)
        edge = (d0 == BORDER) | (d1 == BORDER) | (d2 == BORDER) | (d3 == BORDER)
        if bad + np.int64(edge) < 2:
            return False  # an own eye
    return _legal_surrounded(col, group, libs, lib_sum, lib_sumsq, w, color, p)


@njit(cache=True, _nrt=False, inline="always")
def _add_lib(libs, lib_sum, lib_sumsq, g, q):
    g = _u(g)
    libs[g] += 1
    lib_sum[g] += q
    lib_sumsq[g] += np.int64(q) * q


@njit(cache=True, _nrt=False, inline="always")
def _remove_lib(libs, lib_sum, lib_sumsq, g, q):
    g = _u(g)
    libs[g] -= 1
    lib_sum[g] -= q
    lib_sumsq[g] -= np.int64(q) * q


@njit(cache=True, _nrt=False, inline="always")
def _merge(group, next_stone, stones, libs, lib_sum, lib_sumsq, a, b):
    """Merge string ``b`` into ``a`` (the larger keeps its id); returns the surviving id."""
    a = _u(a)
    b = _u(b)
    if stones[a] < stones[b]:
        a, b = b, a
    s = b
    while True:
        group[s] = a
        s = _u(next_stone[s])
        if s == b:
            break
    na = next_stone[a]
    next_stone[a] = next_stone[b]
    next_stone[b] = na
    stones[a] += stones[b]
    libs[a] += libs[b]
    lib_sum[a] += lib_sum[b]
    lib_sumsq[a] += lib_sumsq[b]
    return np.int64(a)


@njit(cache=True, _nrt=False, inline="always")
def _capture(col, group, next_stone, libs, lib_sum, lib_sumsq, empty, empty_index, captured,  # noqa: PLR0913 - numba kernel: the unpacked board arrays, not a BoardState (a NamedTuple per call costs ~130 ns in the hot loop)
             info, key_row, g):
    """Remove string ``g``; neighbours gain the freed pseudo-liberties. ``key_row`` is the
    victim's Zobrist row; returns the hash change."""
    w = info[I_WIDTH]
    dh = np.uint64(0)
    start = info[I_NUM_CAPTURED]
    n = start
    k = info[I_NUM_EMPTY]
    s = np.int64(g)
    while True:
        nxt = np.int64(next_stone[_u(s)])
        col[_u(s)] = EMPTY
        dh ^= key_row[_u(s)]
        empty[_u(k)] = s
        empty_index[_u(s)] = k
        k += 1
        captured[_u(n)] = s
        n += 1
        s = nxt
        if s == g:
            break
    info[I_NUM_EMPTY] = k
    info[I_NUM_CAPTURED] = n
    for i in range(start, n):
        s = np.int64(captured[_u(i)])
        for q in (s - 1, s + 1, s - w, s + w):
            cq = col[_u(q)]
            if cq == BLACK or cq == WHITE:
                _add_lib(libs, lib_sum, lib_sumsq, group[_u(q)], s)
    return dh


@njit(cache=True, _nrt=False)
def play_unchecked(st, color, p):
    """Play a move already known to be legal (``check_move == OK``); PASS allowed."""
    play_arrays(st.color, st.group, st.next_stone, st.stones, st.libs, st.lib_sum, st.lib_sumsq,
                st.empty, st.empty_index, st.captured, st.info, st.hash, st.zobrist, color, p)


@njit(cache=True, _nrt=False, inline="always")
def play_arrays(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, empty, empty_index,  # noqa: PLR0913 - numba kernel: the unpacked board arrays, not a BoardState (a NamedTuple per call costs ~130 ns in the hot loop)
                captured, info, hash_, zobrist, color, p):
    """:func:`play_unchecked` on the unpacked arrays (for hot loops, see the note above)."""
    info[I_NUM_CAPTURED] = 0
    info[I_KO] = 0
    h = hash_[0]
    if p == PASS:
        info[I_PASSES] += 1
    else:
        info[I_PASSES] = 0
        g = _place(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, empty, empty_index,
                   info, color, p)
        enemy = 3 - color
        h ^= zobrist[_u(color), _u(p)]
        w = info[I_WIDTH]
        for q in (p - 1, p + 1, p - w, p + w):
            if col[_u(q)] == enemy and libs[_u(group[_u(q)])] == 0:
                h ^= _capture(col, group, next_stone, libs, lib_sum, lib_sumsq, empty,
                              empty_index, captured, info, zobrist[_u(enemy)], group[_u(q)])
        n = info[I_NUM_CAPTURED]
        info[I_CAPTURES_BLACK if color == BLACK else I_CAPTURES_WHITE] += n
        if n == 1 and stones[_u(g)] == 1 and libs[_u(g)] == 1:
            info[I_KO] = captured[0]  # the single stone just taken may not retake at once
            info[I_KO_COLOR] = enemy
    if info[I_TO_MOVE] != 3 - color:
        info[I_TO_MOVE] = 3 - color
        h ^= zobrist[0, 0]
    hash_[0] = h
    info[I_MOVES] += 1
    info[I_LAST] = p


@njit(cache=True, _nrt=False, inline="always")
def _place(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, empty, empty_index, info,  # noqa: PLR0913 - numba kernel: the unpacked board arrays, not a BoardState (a NamedTuple per call costs ~130 ns in the hot loop)
           color, p):
    """Put a stone on ``p`` as a new string, update neighbours' pseudo-liberties and merge with
    friendly strings; returns the id of the string holding ``p``."""
    w = info[I_WIDTH]
    up = _u(p)
    col[up] = color
    k = info[I_NUM_EMPTY] - 1  # remove p from the empty list (swap with the last)
    last = empty[_u(k)]
    i = empty_index[up]
    empty[_u(i)] = last
    empty_index[_u(last)] = i
    info[I_NUM_EMPTY] = k
    group[up] = p
    next_stone[up] = p
    stones[up] = 1
    libs[up] = 0
    lib_sum[up] = 0
    lib_sumsq[up] = 0
    for q in (p - 1, p + 1, p - w, p + w):
        cq = col[_u(q)]
        if cq == EMPTY:
            _add_lib(libs, lib_sum, lib_sumsq, p, q)
        elif cq != BORDER:
            _remove_lib(libs, lib_sum, lib_sumsq, group[_u(q)], p)
    g = np.int64(p)
    for q in (p - 1, p + 1, p - w, p + w):
        if col[_u(q)] == color and group[_u(q)] != g:
            g = _merge(group, next_stone, stones, libs, lib_sum, lib_sumsq, g, group[_u(q)])
    return g


@njit(cache=True, _nrt=False)
def play(st, color, p):
    """Check and play; returns the status (the position is unchanged unless OK)."""
    status = check_move(st, color, p)
    if status == OK:
        play_unchecked(st, color, p)
    return status


@njit(cache=True, _nrt=False)
def full_hash(st):
    """The Zobrist hash recomputed from scratch (stones and side to move)."""
    h = np.uint64(0)
    for p in range(st.color.shape[0]):
        c = st.color[p]
        if c == BLACK or c == WHITE:
            h ^= st.zobrist[c, p]
    if st.info[I_TO_MOVE] == WHITE:
        h ^= st.zobrist[0, 0]
    return h


@njit(cache=True, _nrt=False)
def area_score(st, komi):  # noqa: C901 - numba kernel: the region flood fill inline in the scan over points
    """Tromp-Taylor area: Black's stones and empty regions reaching only Black, minus White's,
    minus ``komi`` (positive: Black ahead)."""
    col = st.color
    mark = st.mark
    stack = st.stack
    w = st.info[I_WIDTH]
    for p in range(col.shape[0]):
        mark[p] = 0
    score = 0
    for p in range(col.shape[0]):
        c = col[p]
        if c == BLACK:
            score += 1
        elif c == WHITE:
            score -= 1
        elif c == EMPTY and mark[p] == 0:
            reach = 0  # bit 1: reaches Black, bit 2: reaches White
            region = 1
            mark[p] = 1
            stack[0] = p
            top = 1
            while top > 0:
                top -= 1
                s = np.int64(stack[top])
                for q in (s - 1, s + 1, s - w, s + w):
                    cq = col[q]
                    if cq == EMPTY:
                        if mark[q] == 0:
                            mark[q] = 1
                            stack[top] = q
                            top += 1
                            region += 1
                    elif cq != BORDER:
                        reach |= cq
            if reach == BLACK:
                score += region
            elif reach == WHITE:
                score -= region
    return score - komi


@njit(cache=True, _nrt=False)
def legal_points(st, color, out):
    """Write every legal point of ``color`` (eyes included, pass excluded) into ``out``, in point
    order; returns how many."""
    n = 0
    for p in range(st.color.shape[0]):
        if st.color[p] == EMPTY and check_move(st, color, p) == OK:
            out[n] = p
            n += 1
    return n


@njit(cache=True, _nrt=False, inline="always")
def _xor_string(next_stone, zobrist_color, g):
    """XOR of the keys of every stone of string ``g`` (one colour's key row)."""
    h = np.uint64(0)
    s = g
    while True:
        h ^= zobrist_color[s]
        s = next_stone[s]
        if s == g:
            break
    return h


@njit(cache=True, _nrt=False, inline="always")
def hash_after(col, group, next_stone, libs, lib_sum, lib_sumsq, info, hash_, zobrist, color, p):  # noqa: PLR0913 - numba kernel: the unpacked board arrays, not a BoardState (a NamedTuple per call costs ~130 ns in the hot loop)
    """The Zobrist hash of the position after ``color`` plays the legal move ``p`` (PASS
    allowed), without playing it: the stone's key, the keys of the enemy strings it captures
    (neighbours in atari, each once) and the side-to-move key. The state-tabu paper's Eq. 3
    with captures, which its 4-bit example leaves out."""
    h = hash_[0]
    if p != PASS:
        h ^= zobrist[color, p]
        enemy = 3 - color
        w = info[I_WIDTH]
        q0, q1, q2, q3 = p - 1, p + 1, p - w, p + w
        g0 = group[q0] if col[q0] == enemy and _atari(libs, lib_sum, lib_sumsq, group[q0]) else -1
        g1 = group[q1] if col[q1] == enemy and _atari(libs, lib_sum, lib_sumsq, group[q1]) else -1
        g2 = group[q2] if col[q2] == enemy and _atari(libs, lib_sum, lib_sumsq, group[q2]) else -1
        g3 = group[q3] if col[q3] == enemy and _atari(libs, lib_sum, lib_sumsq, group[q3]) else -1
        if g0 >= 0:
            h ^= _xor_string(next_stone, zobrist[enemy], g0)
        if g1 >= 0 and g1 != g0:
            h ^= _xor_string(next_stone, zobrist[enemy], g1)
        if g2 >= 0 and g2 != g0 and g2 != g1:
            h ^= _xor_string(next_stone, zobrist[enemy], g2)
        if g3 >= 0 and g3 != g0 and g3 != g1 and g3 != g2:
            h ^= _xor_string(next_stone, zobrist[enemy], g3)
    if info[I_TO_MOVE] != 3 - color:
        h ^= zobrist[0, 0]
    return h


@njit(cache=True, _nrt=False)
def hash_after_move(st, color, p):
    """:func:`hash_after` on a state (tests, Python callers)."""
    return hash_after(st.color, st.group, st.next_stone, st.libs, st.lib_sum, st.lib_sumsq,
                      st.info, st.hash, st.zobrist, color, p)
