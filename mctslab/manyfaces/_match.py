"""njit kernels of Fotland's 8x8 mask pattern matcher (Many Faces of Go, "Pattern matcher").

Board: int8 [N*N] (0 empty, 1 black, 2 white), row-major. For each orientation o
(0..7, see :func:`mctslab.manyfaces.patterns.transform_grid`) and anchor a (a point of
the transformed board, the window's top-left), ``win[o, a, 0..2]`` are the black,
white and empty masks of the 8x8 window (bit ``8*i + j``); points off the board have
all three bits. Colour 1 (``O`` = white) swaps the black and white masks.

Patterns: ``pats`` (:class:`Patterns`): ``masks[K, 3]`` uint64, ``meta[P, 8]`` int32 with
rows (height, width, orientation bits, edge bits, first block, end block), ``block_dr[K]``,
``block_dc[K]``, ``key_bits[4]``, ``entries[P, 4]`` uint64; see
:class:`mctslab.manyfaces.patterns.CompiledPatterns`. ``lists`` (:class:`Lists`): the
candidate lists, each a :class:`Candidates`: the hash buckets (``starts[3 * 8 * 256, 9]``
int32, ``items[M]`` uint16), all patterns and the patterns bigger than 8x8 (the two used
without the hash). A candidate list (a row of ``starts``) is a list of pattern indices split
into width classes, each by decreasing height; the indices point into ``entries``, one
32-byte row per pattern (packed meta data and the first block's masks), small enough to stay
in the core's caches.

The matcher's other arguments come in three more bundles, built once by
:class:`mctslab.manyfaces.api.Matcher`: :class:`Geometry` (board size, orientation table,
largest pattern box, hash key points), :class:`State` (what the kernels write: window masks,
match bits and counts, counters) and :class:`Switches`.

Matches are kept as bits: ``match_bits[2*o + colour, a, p >> 6]`` bit ``p & 63``, and
``match_count[2*o + colour, a]`` counts them (an anchor without matches is not scanned).

Switches (each tested against the naive matcher): ``use_hash`` (8-bit key
prefilter), ``early_exit`` (stop at the first failing ``word_bits`` word; the kernel
compares 64 bits at once and counts the words the word-wise exit compares), and, in
:func:`update`, ``incremental`` (re-match only the (pattern, anchor) pairs whose box
contains a changed point; otherwise a full re-match). An incremental re-match updates the
match bits in place and compares only the patterns whose cell at the changed point
accepts its new state but rejected its old one (the others keep their result, or lose
it when they reject the new state); see :func:`match_anchor`.

Counters (int64[N_COUNTERS]; ``matches`` counts the matches found by the call, in an
incremental update only the newly compared ones), cost model in basic operations: a word
comparison is 6 (3 AND, 2 OR, 1 compare), a hash key 8 (4 points x shift+and), a
candidate's orientation/bounds/edge test 1, a changed-point test 2, a window-mask bit
update 4.

Kernels run with ``_nrt=False`` (they allocate nothing): without it every array passed
to an inlined helper is reference counted, which cost a third of an incremental update.

Bundles like these cost 2.7-3% of a full and of an incremental match (``BENCHMARKS.md``,
"Kernel argument bundles": numba types a named tuple's arrays in Python at every call from
Python); the kernels take bundles all the same, since the rule is a bundle unless the bench
loses more than 5%.
"""

from typing import NamedTuple

import numpy as np

from mctslab.core.jit import njit

WINDOWS, HASHES, CANDIDATES, COMPARISONS, WORDS, OPS, MATCHES, MASK_OPS, ANCHORS = range(9)
N_COUNTERS = 9
WORD_OPS = 6
HASH_OPS = 8
CANDIDATE_OPS = 1
MASK_UPDATE_OPS = 4
POINT_TEST_OPS = 2


class Patterns(NamedTuple):
    """The compiled patterns as the kernels read them (module docstring)."""

    masks: np.ndarray          # uint64[K, 3]: own, other, empty masks of every 8x8 block
    meta: np.ndarray           # int32[P, 8]
    block_dr: np.ndarray       # [K] row offset of each block in its pattern
    block_dc: np.ndarray       # [K] column offset
    key_bits: np.ndarray       # [4] the window bits of the 8-bit hash key
    entries: np.ndarray        # uint64[P, 4]: info word and first-block masks per pattern


class Candidates(NamedTuple):
    """Candidate lists of one kind: list ``r``, width class ``j`` is
    ``items[starts[r, j]:starts[r, j + 1]]`` (pattern indices, by decreasing height)."""

    starts: np.ndarray         # int32[R, C + 1]
    items: np.ndarray          # uint16[M]


class Lists(NamedTuple):
    """The candidate lists: the hash buckets (row ``(anchor class * 8 + orientation) * 256 +
    key``, :func:`hashed_row`), and without the hash every pattern and the patterns bigger
    than 8x8 (anchors more than 7 columns left of a changed point; one row each)."""

    buckets: Candidates
    all: Candidates
    big: Candidates


class Geometry(NamedTuple):
    """The board and the patterns' extent, fixed for a matcher."""

    n: int                     # board size N
    fwd: np.ndarray            # int32[8, N * N]: where board point p goes in orientation o
    max_h: int                 # the tallest pattern's height
    max_w: int                 # the widest pattern's width
    key_mask: np.uint64        # the window bits of the hash key points (``key_bits``)


class State(NamedTuple):
    """What the kernels write (module docstring)."""

    win: np.ndarray            # uint64[8, N * N, 3]: window masks (black, white, empty)
    match_bits: np.ndarray     # uint64[16, N * N, (P + 63) // 64]
    match_count: np.ndarray    # int32[16, N * N]
    counters: np.ndarray       # int64[N_COUNTERS]: the call's operation counts


class Switches(NamedTuple):
    """The matcher's switches (module docstring)."""

    incremental: bool
    use_hash: bool
    early_exit: bool
    word_bits: int             # 8, 16, 32 or 64


@njit(cache=True, _nrt=False)
def build_windows(board, n, src, win):
    """Fill win[8, n*n, 3] from board[n*n]; src[o, a] is the board point shown at
    transformed point a."""
    one = np.uint64(1)
    for o in range(8):
        for ar in range(n):
            for ac in range(n):
                b = np.uint64(0)
                w = np.uint64(0)
                e = np.uint64(0)
                for i in range(8):
                    r = ar + i
                    for j in range(8):
                        c = ac + j
                        bit = one << np.uint64(8 * i + j)
                        if r >= n or c >= n:
                            b |= bit
                            w |= bit
                            e |= bit
                        else:
                            v = board[src[o, r * n + c]]
                            if v == 1:
                                b |= bit
                            elif v == 2:
                                w |= bit
                            else:
                                e |= bit
                win[o, ar * n + ac, 0] = b
                win[o, ar * n + ac, 1] = w
                win[o, ar * n + ac, 2] = e


@njit(cache=True, _nrt=False, inline="always")
def window_hash(own, other, key_bits):
    """8-bit key: the 2-bit state code of 4 window points, from the window's own and
    other masks (black and white, swapped for colour 1). The code is own | other << 1:
    empty 0, own 1, other 2, and off the board 3 (both bits set there)."""
    h = 0
    one = np.uint64(1)
    for k in range(key_bits.shape[0]):
        s = np.uint64(key_bits[k])
        h |= int(((own >> s) & one) | (((other >> s) & one) << one)) << (2 * k)
    return h


@njit(cache=True, _nrt=False)
def clear_bit(match_bits, t, a, p):
    match_bits[t, a, p >> 6] &= ~(np.uint64(1) << np.uint64(p & 63))


@njit(cache=True, _nrt=False, inline="always")
def words_to_fail(hit, word_bits):
    """Words of ``word_bits`` compared up to and including the first that fails (the
    paper's word-wise early exit; the kernel itself compares 64 bits at once)."""
    wmask = (np.uint64(1) << np.uint64(word_bits % 64)) - np.uint64(1)
    if word_bits == 64:
        return 1
    for q in range(64 // word_bits):
        if (hit >> np.uint64(q * word_bits)) & wmask != wmask:
            return q + 1
    return 64 // word_bits


@njit(cache=True, _nrt=False, inline="always")
def match_anchor(o, colour, ar, ac, n, pats, cands, row, j_lo, q_row, q_col, q_old, in_place,  # noqa: C901, PLR0913, PLR0915 - numba kernel: one candidate list's scan at a window, every case inline in the loop (a call per candidate costs the matcher's speed)
                 state, switches):
    """Try one candidate list at one (orientation, colour, anchor) and set match bits.

    The list is ``items[starts[row, j]:starts[row, j + 1]]`` (pattern indices; ``cands``, a
    :class:`Candidates`) for the width classes j >= j_lo, each by decreasing height;
    ``pats.entries`` is the pattern table ``entries[P, 4]`` (an info word, see
    :func:`mctslab.manyfaces.api.entry_words`, then the pattern's first-block masks: 40 kB for
    GNU Go's patterns). With q_row >= 0 only patterns whose box contains transformed point
    (q_row, q_col) are tried (incremental re-matching; a class's scan stops at the first
    pattern too short to reach q_row). A pattern needs its orientation bit, its box on the board and its
    edge marks at the board edge (edge anchoring). ``in_place``: the tried patterns'
    bits are set *or cleared* (the caller has not cleared them).

    ``q_old`` >= 0 (in place, q in the first block): q's state before this update (0
    empty, 1 black, 2 white). A pattern whose cell at q accepts q's old and new states
    keeps its result (q is the only difference it can see, or another changed point
    will re-try it); one that rejects the new state cannot match; only one that accepts
    the new state and rejected the old one is compared (a changed-point test: 2 ops)."""
    entries, starts, items = pats.entries, cands.starts, cands.items
    win, match_bits, match_count, counters = (state.win, state.match_bits, state.match_count,
                                              state.counters)
    early_exit, word_bits = switches.early_exit, switches.word_bits
    full = np.uint64(0xFFFFFFFFFFFFFFFF)
    nwords = 64 // word_bits
    a = ar * n + ac
    t = 2 * o + colour
    e0 = win[o, a, 2]
    b0 = win[o, a, colour]
    w0 = win[o, a, 1 - colour]
    n_cand = n_comp = n_words = n_match = n_tests = 0
    q_bit = np.uint64(8 * (q_row - ar) + q_col - ac) if q_old >= 0 else np.uint64(0)
    # mask columns of entries (1 own, 2 other, 3 empty) for q's old and new states
    old_col = 3 if q_old <= 0 else 1 + ((q_old - 1) ^ colour)
    new_col = 3 if q_old < 0 else (3 if (e0 >> q_bit) & np.uint64(1) else (
        1 if (b0 >> q_bit) & np.uint64(1) else 2))
    had_matches = match_count[t, a] > 0
    for j in range(j_lo, starts.shape[1] - 1):
        for i in range(starts[row, j], starts[row, j + 1]):
            n_cand += 1
            p = int(items[i])
            x = entries[p, 0]
            hp = int((x >> np.uint64(16)) & np.uint64(0xFF))
            if q_row >= 0:
                if q_row - ar >= hp:
                    break                   # shorter ones follow
                if q_old >= 0:
                    # outside the box a cell accepts everything: the result is unchanged
                    n_tests += 1
                    accept_new = (entries[p, new_col] >> q_bit) & np.uint64(1)
                    if accept_new == (entries[p, old_col] >> q_bit) & np.uint64(1):
                        continue            # accepts both, or neither (it did not match)
                    if accept_new == 0:     # it cannot match now
                        bit = np.uint64(1) << np.uint64(p & 63)
                        if had_matches and match_bits[t, a, p >> 6] & bit:
                            match_bits[t, a, p >> 6] ^= bit
                            match_count[t, a] -= 1
                        continue
                elif q_col - ac >= int((x >> np.uint64(24)) & np.uint64(0xFF)):
                    continue
            wp = int((x >> np.uint64(24)) & np.uint64(0xFF))
            if ar + hp > n or ac + wp > n or (x >> np.uint64(32 + o)) & np.uint64(1) == 0:
                continue
            e = int((x >> np.uint64(40)) & np.uint64(0x1F))
            if e != 0:
                if (e & 1 and ar != 0) or (e & 2 and ar + hp != n):
                    continue
                if (e & 4 and ac != 0) or (e & 8 and ac + wp != n):
                    continue
            n_comp += 1
            hit = (b0 & entries[p, 1]) | (w0 & entries[p, 2]) | (e0 & entries[p, 3])
            ok = hit == full
            n_words += nwords if ok or not early_exit else words_to_fail(hit, word_bits)
            if e & 16:                      # the other blocks of a pattern bigger than 8x8
                ok, more_words = later_blocks_hit(o, colour, ar, ac, n, win, pats, p, ok,
                                                  early_exit, word_bits)
                n_words += more_words
            if in_place and q_old < 0:
                # the bit may be stale (the pattern matched before this update)
                bit = np.uint64(1) << np.uint64(p & 63)
                if (ok or match_count[t, a] > 0) and ok != (match_bits[t, a, p >> 6] & bit != 0):
                    match_bits[t, a, p >> 6] ^= bit
                    match_count[t, a] += 1 if ok else -1
            elif ok:        # (with q_old >= 0 it rejected q's old state: its bit is clear)
                match_bits[t, a, p >> 6] |= np.uint64(1) << np.uint64(p & 63)
                match_count[t, a] += 1
            if ok:
                n_match += 1
    count_window(counters, n_cand, n_comp, n_words, n_match, n_tests)


@njit(cache=True, _nrt=False, inline="always")
def later_blocks_hit(o, colour, ar, ac, n, win, pats, p, ok, early_exit, word_bits):  # noqa: PLR0913 - numba kernel: the window's coordinates and the matcher's switches as scalars (inlined into match_anchor)
    """The other 8x8 blocks of pattern ``p`` (bigger than 8x8) at one window, after its first
    block gave ``ok``: returns ``(ok, words compared)``; with ``early_exit`` the blocks after
    a failing one are not compared."""
    full = np.uint64(0xFFFFFFFFFFFFFFFF)
    nwords = 64 // word_bits
    masks, block_dr, block_dc = pats.masks, pats.block_dr, pats.block_dc
    n_words = 0
    for k in range(pats.meta[p, 4] + 1, pats.meta[p, 5]):
        if ok or not early_exit:
            ak = (ar + block_dr[k]) * n + ac + block_dc[k]
            hit = ((win[o, ak, colour] & masks[k, 0])
                   | (win[o, ak, 1 - colour] & masks[k, 1])
                   | (win[o, ak, 2] & masks[k, 2]))
            n_words += nwords if hit == full or not early_exit else words_to_fail(hit, word_bits)
            ok = ok and hit == full
    return ok, n_words


@njit(cache=True, _nrt=False, inline="always")
def count_window(counters, n_cand, n_comp, n_words, n_match, n_tests):
    """Add one window's counts (:func:`match_anchor`) to the counters."""
    counters[WINDOWS] += 1
    counters[CANDIDATES] += n_cand
    counters[COMPARISONS] += n_comp
    counters[WORDS] += n_words
    counters[MATCHES] += n_match
    counters[OPS] += CANDIDATE_OPS * n_cand + WORD_OPS * n_words + POINT_TEST_OPS * n_tests


@njit(cache=True, _nrt=False, inline="always")
def hashed_row(o, colour, ar, ac, n, win, key_bits, counters):
    """The row of the bucket table (anchor class, orientation, 8-bit key) for a window."""
    a = ar * n + ac
    h = window_hash(win[o, a, colour], win[o, a, 1 - colour], key_bits)
    cls = 0 if ar > 0 else (1 if ac > 0 else 2)
    counters[HASHES] += 1
    counters[OPS] += HASH_OPS
    return (cls * 8 + o) * 256 + h


@njit(cache=True, _nrt=False)
def match_full(n, pats, lists, state, switches):
    """Match every pattern at every anchor, orientation and colour; match_bits is cleared."""
    state.match_bits[:] = 0
    state.match_count[:] = 0
    for o in range(8):
        for colour in range(2):
            for a in range(n * n):
                ar, ac = a // n, a % n
                if switches.use_hash:
                    row = hashed_row(o, colour, ar, ac, n, state.win, pats.key_bits,
                                     state.counters)
                    match_anchor(o, colour, ar, ac, n, pats, lists.buckets, row, 0, -1, -1, -1,
                                 False, state, switches)
                else:
                    match_anchor(o, colour, ar, ac, n, pats, lists.all, 0, 0, -1, -1, -1, False,
                                 state, switches)


@njit(cache=True, _nrt=False)
def update_windows(board, new_board, n, fwd, win, changed, changed_old, counters):
    """Apply new_board's differences to the window masks; returns the number of changed
    points, written to changed[] (their old states to changed_old[]). board is updated
    in place."""
    one = np.uint64(1)
    n_changed = 0
    for p in range(n * n):
        if board[p] == new_board[p]:
            continue
        changed[n_changed] = p
        changed_old[n_changed] = board[p]
        n_changed += 1
        plane = 2 if new_board[p] == 0 else new_board[p] - 1
        board[p] = new_board[p]
        for o in range(8):
            q = fwd[o, p]
            qr = q // n
            qc = q % n
            for ar in range(max(0, qr - 7), qr + 1):
                for ac in range(max(0, qc - 7), qc + 1):
                    bit = one << np.uint64(8 * (qr - ar) + qc - ac)
                    a = ar * n + ac
                    win[o, a, 0] &= ~bit
                    win[o, a, 1] &= ~bit
                    win[o, a, 2] &= ~bit
                    win[o, a, plane] |= bit
                    counters[MASK_OPS] += MASK_UPDATE_OPS
    return n_changed


@njit(cache=True, _nrt=False, inline="always")
def key_point_changed(o, ar, ac, n, fwd, changed, n_changed, key_mask):
    """Did this update change a hash key point of window (o, anchor)? If not, its bucket
    is the one its current match bits were found in."""
    for i in range(n_changed):
        q = fwd[o, changed[i]]
        dr = q // n - ar
        dc = q % n - ac
        if 0 <= dr < 8 and 0 <= dc < 8 and (key_mask >> np.uint64(8 * dr + dc)) & np.uint64(1):
            return True
    return False


@njit(cache=True, _nrt=False)
def forget_matches_through(q_row, q_col, ar, ac, t, a, meta, match_bits, match_count):
    """Clear the match bits at (t, a) of the patterns whose box contains (q_row, q_col)."""
    for wd in range(match_bits.shape[2] if match_count[t, a] > 0 else 0):
        bits = match_bits[t, a, wd]
        while bits != 0:
            low = bits & (~bits + np.uint64(1))
            p = wd * 64 + int(np.log2(float(low)) + 0.5)
            bits ^= low
            if q_row - ar < meta[p, 0] and q_col - ac < meta[p, 1]:
                clear_bit(match_bits, t, a, p)
                match_count[t, a] -= 1


@njit(cache=True, _nrt=False)
def rematch_near(geometry, q, q_old, o, colour, pats, lists, state, changed, n_changed,  # noqa: PLR0913 - numba kernel: the window geometry, the changed point and the matcher's bundles
                 switches):
    """Re-match, for one orientation and colour, every (pattern, anchor) whose box
    contains transformed point q: anchors up to 7 rows/columns up-left with the usual
    candidates (the hash bucket, or all patterns), anchors further away with the patterns
    bigger than 8x8. Only the width classes that reach q's column are scanned.

    A candidate list holds every pattern that can match at its anchor, so its patterns'
    bits are set or cleared in place; only a hash bucket whose key points changed in this
    update is a different list from the one the old bits came from: there the old matches
    through q are cleared first."""
    n, fwd, max_h, max_w, key_mask = geometry
    win, counters = state.win, state.counters
    t = 2 * o + colour
    qr = q // n
    qc = q % n
    for ar in range(max(0, qr - max_h + 1), qr + 1):
        for ac in range(max(0, qc - max_w + 1), qc + 1):
            counters[ANCHORS] += 1
            dr, dc = qr - ar, qc - ac
            if dr < 8 and dc < 8:
                if switches.use_hash:
                    if n_changed == 1:
                        in_place = (key_mask >> np.uint64(8 * dr + dc)) & np.uint64(1) == 0
                    else:
                        in_place = not key_point_changed(o, ar, ac, n, fwd, changed, n_changed,
                                                         key_mask)
                    if not in_place:
                        forget_matches_through(qr, qc, ar, ac, t, ar * n + ac, pats.meta,
                                               state.match_bits, state.match_count)
                    row = hashed_row(o, colour, ar, ac, n, win, pats.key_bits, counters)
                    match_anchor(o, colour, ar, ac, n, pats, lists.buckets, row, dc, qr, qc,
                                 q_old if in_place else -1, in_place, state, switches)
                else:
                    match_anchor(o, colour, ar, ac, n, pats, lists.all, 0, dc, qr, qc, q_old,
                                 True, state, switches)
            elif lists.big.items.shape[0] > 0:
                match_anchor(o, colour, ar, ac, n, pats, lists.big, 0, dc, qr, qc, -1, True,
                             state, switches)


@njit(cache=True, _nrt=False)
def update(board, new_board, geometry, pats, lists, state, changed, changed_old, switches):
    """Bring windows and matches from board to new_board (board updated in place).
    Returns the number of changed points, or -1 (nothing changed) when new_board holds a
    value other than 0, 1, 2."""
    n, fwd = geometry.n, geometry.fwd
    for p in range(n * n):
        if new_board[p] < 0 or new_board[p] > 2:
            return -1
    n_changed = update_windows(board, new_board, n, fwd, state.win, changed, changed_old,
                               state.counters)
    if not switches.incremental:
        match_full(n, pats, lists, state, switches)
        return n_changed
    for i in range(n_changed):
        for o in range(8):
            for colour in range(2):
                rematch_near(geometry, fwd[o, changed[i]], changed_old[i], o, colour, pats,
                             lists, state, changed, n_changed, switches)
    return n_changed
