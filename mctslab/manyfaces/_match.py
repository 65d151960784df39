"""njit kernels of Fotland's 8x8 mask pattern matcher (Many Faces of Go, "Pattern matcher").

Board: int8 [N*N] (0 empty, 1 black, 2 white), row-major. For each orientation o
(0..7, see :func:`mctslab.manyfaces.patterns.transform_grid`) and anchor a (a point of
the transformed board, the window's top-left), ``win[o, a, 0..2]`` are the black,
white and empty masks of the 8x8 window (bit ``8*i + j``); points off the board have
all three bits. Colour 1 (``O`` = white) swaps the black and white masks.

Patterns: ``pats = (masks[K, 3] uint64, meta[P, 8] int32, block_dr[K], block_dc[K],
key_bits[4], bucket_start[3, 8, 257], bucket_info[M, 8], bucket_masks[M, 3])`` with
meta rows (height, width, orientation bits, edge bits, first block, end block); see
:class:`mctslab.manyfaces.patterns.CompiledPatterns`. A candidate list (the hash
buckets, all patterns, the patterns bigger than 8x8) is a table of info rows (the
pattern index, then its meta row) and first-block masks, sorted by decreasing height.

Matches are kept as bits: ``match_bits[2*o + colour, a, p >> 6]`` bit ``p & 63``, and
``match_count[2*o + colour, a]`` counts them (an anchor without matches is not scanned).

Switches (each tested against the naive matcher): ``use_hash`` (8-bit key
prefilter), ``early_exit`` (compare ``word_bits`` at a time, stop at the first failing
word), and, in :func:`update`, ``incremental`` (re-match only anchors whose pattern
box contains a changed point; otherwise a full re-match).

Counters (int64[N_COUNTERS]; ``matches`` counts the matches found by the call, in an
incremental update only the re-found ones), cost model in basic operations: a word comparison is
6 (3 AND, 2 OR, 1 compare), a hash key 8 (4 points x shift+and), a candidate's
orientation/bounds/edge test 1, a window-mask bit update 4.
"""

import numba
import numpy as np

WINDOWS, HASHES, CANDIDATES, COMPARISONS, WORDS, OPS, MATCHES, MASK_OPS, ANCHORS = range(9)
N_COUNTERS = 9
WORD_OPS = 6
HASH_OPS = 8
CANDIDATE_OPS = 1
MASK_UPDATE_OPS = 4


@numba.njit(cache=True)
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


@numba.njit(cache=True, inline="always")
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


@numba.njit(cache=True)
def clear_bit(match_bits, t, a, p):
    match_bits[t, a, p >> 6] &= ~(np.uint64(1) << np.uint64(p & 63))


@numba.njit(cache=True, inline="always")
def match_anchor(o, colour, ar, ac, n, win, pats, cand_lo, cand_hi, cand_info, cand_masks,
                 q_row, q_col, match_bits, match_count, use_hash, early_exit, word_bits,
                 counters):
    """Try the candidates at one (orientation, colour, anchor) and set their match bits.

    A candidate list is a row range of (info[M, 8] int32, first-block masks[M, 3]):
    info rows are (pattern, height, width, orientation bits, edge bits, first block,
    end block, 0), stored with the masks so that a bucket is read sequentially. With
    q_row >= 0 only patterns whose box contains transformed point (q_row, q_col) are
    tried (incremental re-matching). A pattern needs its orientation bit, its box on
    the board and its edge marks at the board edge (edge anchoring)."""
    masks, meta, block_dr, block_dc, key_bits, bucket_start, bucket_info, bucket_masks = pats
    full = np.uint64(0xFFFFFFFFFFFFFFFF)
    nwords = 64 // word_bits
    wmask = (np.uint64(1) << np.uint64(word_bits % 64)) - np.uint64(1) if word_bits < 64 else full
    a = ar * n + ac
    t = 2 * o + colour
    swap = colour != 0
    e0 = win[o, a, 2]
    b0 = win[o, a, 1] if swap else win[o, a, 0]
    w0 = win[o, a, 0] if swap else win[o, a, 1]
    n_cand = 0
    n_comp = 0
    n_words = 0
    n_match = 0
    ops = 0
    lo = cand_lo
    hi = cand_hi
    info = cand_info
    imasks = cand_masks
    if use_hash:
        cls = 0 if ar > 0 else (1 if ac > 0 else 2)
        h = window_hash(b0, w0, key_bits)
        lo = bucket_start[cls, o, h]
        hi = bucket_start[cls, o, h + 1]
        info = bucket_info
        imasks = bucket_masks
        counters[HASHES] += 1
        ops += HASH_OPS
    for i in range(lo, hi):
        n_cand += 1
        hp = info[i, 1]
        wp = info[i, 2]
        if q_row >= 0:
            if q_row - ar >= hp:
                break           # candidate lists are sorted by decreasing height
            if q_col - ac >= wp:
                continue
        if ar + hp > n or ac + wp > n or (info[i, 3] >> o) & 1 == 0:
            continue
        e = info[i, 4]
        if e != 0:
            if (e & 1 and ar != 0) or (e & 2 and ar + hp != n):
                continue
            if (e & 4 and ac != 0) or (e & 8 and ac + wp != n):
                continue
        n_comp += 1
        ok = True
        k0 = info[i, 5]
        for k in range(k0, info[i, 6]):
            if k == k0:
                hit = (b0 & imasks[i, 0]) | (w0 & imasks[i, 1]) | (e0 & imasks[i, 2])
            else:
                ak = (ar + block_dr[k]) * n + ac + block_dc[k]
                b = win[o, ak, 1] if swap else win[o, ak, 0]
                w = win[o, ak, 0] if swap else win[o, ak, 1]
                hit = (b & masks[k, 0]) | (w & masks[k, 1]) | (win[o, ak, 2] & masks[k, 2])
            if early_exit:
                for q in range(nwords):
                    n_words += 1
                    if (hit >> np.uint64(q * word_bits)) & wmask != wmask:
                        ok = False
                        break
                if not ok:
                    break
            else:
                n_words += nwords
                if hit != full:
                    ok = False
        if ok:
            p = info[i, 0]
            match_bits[t, a, p >> 6] |= np.uint64(1) << np.uint64(p & 63)
            match_count[t, a] += 1
            n_match += 1
    counters[WINDOWS] += 1
    counters[CANDIDATES] += n_cand
    counters[COMPARISONS] += n_comp
    counters[WORDS] += n_words
    counters[MATCHES] += n_match
    counters[OPS] += ops + CANDIDATE_OPS * n_cand + WORD_OPS * n_words


@numba.njit(cache=True)
def match_full(n, win, pats, all_info, all_masks, match_bits, match_count, use_hash, early_exit,
               word_bits, counters):
    """Match every pattern at every anchor, orientation and colour; match_bits is cleared."""
    match_bits[:] = 0
    match_count[:] = 0
    for o in range(8):
        for colour in range(2):
            for a in range(n * n):
                match_anchor(o, colour, a // n, a % n, n, win, pats, 0, all_info.shape[0],
                             all_info, all_masks, -1, -1, match_bits, match_count, use_hash,
                             early_exit, word_bits, counters)


@numba.njit(cache=True)
def update_windows(board, new_board, n, fwd, win, changed, counters):
    """Apply new_board's differences to the window masks; returns the changed points
    (written to changed[]) count. board is updated in place."""
    one = np.uint64(1)
    n_changed = 0
    for p in range(n * n):
        if board[p] == new_board[p]:
            continue
        changed[n_changed] = p
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


@numba.njit(cache=True)
def rematch_near(n, q, o, colour, win, pats, all_info, all_masks, big_info, big_masks, max_h,
                 max_w, match_bits,
                 match_count, use_hash, early_exit, word_bits, counters):
    """Re-match, for one orientation and colour, every (pattern, anchor) whose box
    contains transformed point q: anchors up to 7 rows/columns up-left with the usual
    candidates, anchors further away (only patterns bigger than 8x8) with ``big``."""
    meta = pats[1]
    t = 2 * o + colour
    qr = q // n
    qc = q % n
    for ar in range(max(0, qr - max_h + 1), qr + 1):
        for ac in range(max(0, qc - max_w + 1), qc + 1):
            a = ar * n + ac
            counters[ANCHORS] += 1
            near = qr - ar < 8 and qc - ac < 8
            # forget the old matches whose box contains q, then re-try them
            for wd in range(match_bits.shape[2] if match_count[t, a] > 0 else 0):
                bits = match_bits[t, a, wd]
                while bits != 0:
                    low = bits & (~bits + np.uint64(1))
                    p = wd * 64 + int(np.log2(float(low)) + 0.5)
                    bits ^= low
                    if qr - ar < meta[p, 0] and qc - ac < meta[p, 1]:
                        clear_bit(match_bits, t, a, p)
                        match_count[t, a] -= 1
            if near:
                match_anchor(o, colour, ar, ac, n, win, pats, 0, all_info.shape[0],
                             all_info, all_masks, qr, qc, match_bits, match_count, use_hash,
                             early_exit, word_bits, counters)
            elif big_info.shape[0] > 0:
                match_anchor(o, colour, ar, ac, n, win, pats, 0, big_info.shape[0], big_info,
                             big_masks, qr, qc,
                             match_bits, match_count, False, early_exit, word_bits, counters)


@numba.njit(cache=True)
def update(board, new_board, n, fwd, win, pats, all_info, all_masks, big_info, big_masks,
           max_h, max_w, match_bits,
           match_count, changed, incremental, use_hash, early_exit, word_bits, counters):
    """Bring windows and matches from board to new_board (board updated in place)."""
    n_changed = update_windows(board, new_board, n, fwd, win, changed, counters)
    if not incremental:
        match_full(n, win, pats, all_info, all_masks, match_bits, match_count, use_hash, early_exit,
                   word_bits, counters)
        return n_changed
    for i in range(n_changed):
        for o in range(8):
            for colour in range(2):
                rematch_near(n, fwd[o, changed[i]], o, colour, win, pats, all_info, all_masks,
                             big_info, big_masks, max_h, max_w, match_bits, match_count, use_hash, early_exit,
                             word_bits, counters)
    return n_changed
