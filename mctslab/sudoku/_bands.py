"""The band bitboards of the fast solution counter (``_solver.py``): layout, tables, propagation.

- State: 30 ``uint32`` per search depth, at ``state[at:at + 30]`` of a flat stack. Entry
  ``3 d + b`` holds the places of digit ``d + 1`` in band ``b`` (rows ``3b``-``3b + 2``) as 27
  bits, bit ``9 r + c`` for row ``r`` of the band and column ``c``; entry ``27 + b`` the
  band's open cells (not given a digit yet). Cell ``27 b + p`` is place ``p`` of band ``b``.
- A digit-band (:func:`_digit_band`): which *minirows* (a row's three cells in one box) still
  hold the digit, one table look-up per row; the table ``ALLOWED`` keeps those on some way of
  putting the digit once in each row and each box of the band, which is locked candidates of
  both kinds inside the band; a minirow alone in its row or its box with one place left is a
  hidden single.
- A digit's stacks (:func:`_digit_stacks`): the same table on each stack's (band, column)
  pattern gives locked candidates along the columns and hidden singles in columns.
- Placing a digit (:func:`_place`): a few masks per digit-band, no loop over the 20 peers; a
  digit-band's hidden singles all at once (:func:`_place_hidden`). Naked singles
  (:func:`_naked_single`): bit-sliced counts of a band's nine digit masks.
- :func:`propagate_bands`: a worklist of changed digit-bands and digits, naked singles when it
  is empty, to a fixed point or a contradiction.
- The root: a board's clues (:func:`load_board`) or candidate masks' singles
  (:func:`load_masks`, :func:`place_singles`) are placed before any propagation, which then
  starts from the digit-bands they changed or gave a digit.

Written for numba: branch-free where a branch would be mispredicted (which masks a placement
changes), the steps inlined into the one loop (``inline="always"``: a call that takes arrays
costs numba's reference counting of each, more than a step), the tables one ``uint32[8, 512]``
array (:func:`make_band_tables`, passed in as ``Tables.band``).
"""

from __future__ import annotations

import itertools

import numpy as np

from mctslab.core.jit import njit

# Rows of the band tables (make_band_tables). A place p of a band is bit p = 9 r + c; a minirow
# mask has bit 3 r + k for row r of the band and box k.
PEERS = 0      # [p]: the places sharing a row, box or column with place p, p left out
COLUMN = 1     # [p]: the three places of p's column
ROW_SHAPE = 2  # [9 bits of a row]: bit k: minirow k not empty; bit 3 + k: one place only
ALLOWED = 3    # [minirows not empty]: those on a way to put the digit once per row and per box
LONE = 4       # [minirows]: those alone in their row or in their box
CELLS = 5      # [minirows]: their places
SPREAD = 6     # [9 columns]: their places in a band
DEBRUIJN = 7   # [(lowest bit * de Bruijn constant) >> 58]: the bit's index
STRIDE = 32    # uint32 per search depth in the stack (30 used)


def make_band_tables() -> np.ndarray:
    """The band solver's tables, ``uint32[8, 512]``, one row per name above. Read with bands
    for rows and columns for boxes, ALLOWED and LONE serve a stack's bands and columns too."""
    tables = np.zeros((8, 512), np.uint32)
    place_rc = [divmod(p, 9) for p in range(27)]
    for p, (r, c) in enumerate(place_rc):
        for q, (r2, c2) in enumerate(place_rc):
            if q != p and (r2 == r or c2 == c or c2 // 3 == c // 3):
                tables[PEERS, p] |= 1 << q
            if c2 == c:
                tables[COLUMN, p] |= 1 << q
    ways = [sum(1 << (3 * r + k) for r, k in enumerate(p)) for p in itertools.permutations(range(3))]
    for m in range(512):
        for k in range(3):
            n = bin((m >> 3 * k) & 7).count("1")
            tables[ROW_SHAPE, m] |= (n > 0) << k | (n == 1) << (3 + k)
        for way in ways:
            if way & m == way:
                tables[ALLOWED, m] |= way
        for r, k in itertools.product(range(3), range(3)):
            if m >> (3 * r + k) & 1:
                tables[CELLS, m] |= 7 << (9 * r + 3 * k)
                alone = (sum(m >> (3 * r + j) & 1 for j in range(3)) == 1
                         or sum(m >> (3 * i + k) & 1 for i in range(3)) == 1)
                tables[LONE, m] |= alone << (3 * r + k)
        tables[SPREAD, m] = m | m << 9 | m << 18
    for i in range(64):
        tables[DEBRUIJN, ((1 << i) * 0x022FDD63CC95386D & (2**64 - 1)) >> 58] = i
    tables.setflags(write=False)
    return tables


@njit(cache=True, inline="always")
def bit_index(low, bt):
    """Index of the one set bit of ``low`` (a de Bruijn multiply, no loop)."""
    return np.int64(bt[DEBRUIJN, np.uint64(low * np.int64(0x022FDD63CC95386D)) >> np.uint64(58)])


@njit(cache=True, inline="always")
def _stack_pattern(columns, s):
    """Stack ``s`` (columns ``s``-``s + 2``) of a digit's 27-bit (band, column) mask as 9 bits,
    bit ``3 b + j`` for band ``b`` and column ``s + j``: the band tables' layout."""
    return ((columns >> s) & 7) | ((columns >> (9 + s)) & 7) << 3 | ((columns >> (18 + s)) & 7) << 6


@njit(cache=True, inline="always")
def _stack_scatter(pattern, s):
    """The inverse of :func:`_stack_pattern`."""
    return ((pattern & 7) | ((pattern >> 3) & 7) << 9 | ((pattern >> 6) & 7) << 18) << s


@njit(cache=True, inline="always")
def _naked_single(state, at, touched):
    """The first band whose digit-bands changed (``touched``) with an open cell of one candidate:
    (digit, band, the band's cells with that single candidate, touched). Bands found without
    one leave ``touched``; band -1 when there is none, -2 when an open cell has no candidate."""
    for band in range(3):
        if not touched & (np.int64(0x1249249) << band):  # digit-bands 3 d + band
            continue
        open_cells = np.int64(state[at + 27 + band])
        once = np.int64(0)
        twice = np.int64(0)
        for d in range(9):
            f = np.int64(state[at + 3 * d + band])
            twice |= once & f
            once |= f
        if open_cells & ~once:
            return 0, -2, np.int64(0), touched
        single = open_cells & ~twice
        if single:
            low = single & -single
            for d in range(9):
                if np.int64(state[at + 3 * d + band]) & low:
                    return d, band, single & np.int64(state[at + 3 * d + band]), touched
        touched &= ~(np.int64(0x1249249) << band)
    return 0, -1, np.int64(0), touched


@njit(cache=True, inline="always")
def _place(state, at, digit, band, low, bt):
    """Give the cell ``low`` (one bit) of ``band`` the digit: the digit leaves the cell's peers
    and the cell the other digits. Returns the digit-bands changed, -1 if the cell had lost
    the digit. Branch-free: which masks change is unpredictable."""
    place = bit_index(low, bt)
    i = at + 3 * digit + band
    f = np.int64(state[i])
    if not f & low:  # a peer took the digit since the cell was found
        return np.int64(-1)
    changed = np.int64(0)
    column = np.int64(bt[COLUMN, place])
    for b in range(3):
        j = np.uint64(at + 3 * digit + b)  # unsigned: no negative-index fix-up
        g = np.int64(state[j])
        state[j] = g & ~column
        changed |= np.int64(g & column != 0) << (3 * digit + b)
    for d in range(9):
        j = np.uint64(at + 3 * d + band)
        g = np.int64(state[j])
        state[j] = g & ~low
        changed |= ((g & low) >> place) << (3 * d + band)
    peers = np.int64(bt[PEERS, place])
    state[i] = f & ~peers
    state[at + 27 + band] = np.int64(state[at + 27 + band]) ^ low
    own = np.int64(1) << (3 * digit + band)  # changed only if a peer had the digit
    return (changed & ~own) | (np.int64(f & peers != 0) << (3 * digit + band))


@njit(cache=True, inline="always")
def _place_hidden(state, at, i, cells, bt):
    """Give the digit of digit-band ``i`` to ``cells``, its hidden singles there: their
    columns leave the digit's other bands and the cells the other digits (their peers in the
    band have lost the digit already). Returns the digit-bands changed."""
    digit, band = i // 3, i % 3
    f = np.int64(state[at + i])
    columns = np.int64(bt[SPREAD, (cells | cells >> 9 | cells >> 18) & 511])
    changed = np.int64(0)
    for b in range(3):
        j = np.uint64(at + 3 * digit + b)
        g = np.int64(state[j])
        state[j] = g & ~columns
        changed |= np.int64(g & columns != 0) << (3 * digit + b)
    for d in range(9):
        j = np.uint64(at + 3 * d + band)
        g = np.int64(state[j])
        state[j] = g & ~cells
        changed |= np.int64(g & cells != 0) << (3 * d + band)
    state[at + i] = f
    state[at + 27 + band] = np.int64(state[at + 27 + band]) ^ cells
    return changed & ~(np.int64(1) << i)


@njit(cache=True, inline="always")
def _digit_band(state, at, i, bt):
    """Locked candidates inside the band and hidden singles in rows and boxes for digit-band
    ``i``: (the hidden singles' places, or -1 on a contradiction)."""
    f = np.int64(state[at + i])
    s0 = np.int64(bt[ROW_SHAPE, f & 511])
    s1 = np.int64(bt[ROW_SHAPE, (f >> 9) & 511])
    s2 = np.int64(bt[ROW_SHAPE, f >> 18])
    allowed = np.int64(bt[ALLOWED, (s0 & 7) | (s1 & 7) << 3 | (s2 & 7) << 6])
    if allowed == 0:
        return np.int64(-1)
    f &= np.int64(bt[CELLS, allowed])
    state[at + i] = f
    single = np.int64(bt[LONE, allowed]) & ((s0 >> 3) | (s1 >> 3) << 3 | (s2 >> 3) << 6)
    return f & np.int64(bt[CELLS, single]) & np.int64(state[at + 27 + i % 3])


@njit(cache=True, inline="always")
def _digit_stacks(state, at, d, bt):
    """Locked candidates along the columns and hidden singles in columns for digit ``d``:
    (digit-bands changed, the first band with hidden singles or -1, their places); band -2 on
    a contradiction."""
    columns = np.int64(0)  # bit 9 b + c: the digit fits column c in band b ...
    exactly_one = np.int64(0)  # ... in one cell of it
    for b in range(3):
        f = np.int64(state[at + 3 * d + b])
        columns |= ((f | f >> 9 | f >> 18) & 511) << (9 * b)
        exactly_one |= ((f ^ f >> 9 ^ f >> 18) & ~(f & f >> 9 & f >> 18) & 511) << (9 * b)
    keep = np.int64(0)
    lone = np.int64(0)
    for s in range(0, 9, 3):
        allowed = np.int64(bt[ALLOWED, _stack_pattern(columns, s)])
        if allowed == 0:
            return np.int64(0), -2, np.int64(0)
        keep |= _stack_scatter(allowed, s)
        lone |= _stack_scatter(np.int64(bt[LONE, allowed]), s)
    changed = np.int64(0)
    first, places = -1, np.int64(0)
    for b in range(3):
        f = np.int64(state[at + 3 * d + b])
        g = f & np.int64(bt[SPREAD, (keep >> (9 * b)) & 511])
        state[at + 3 * d + b] = g
        changed |= np.int64(g != f) << (3 * d + b)
        found = (g & np.int64(bt[SPREAD, ((lone & exactly_one) >> (9 * b)) & 511])
                 & np.int64(state[at + 27 + b]))
        if found and first < 0:
            first, places = b, found
    return changed, first, places


@njit(cache=True)
def propagate_bands(state, at, digit, band, places, dirty, touched, bt):
    """Give ``digit`` to ``places`` (cells of ``band``), then work through the digit-bands
    changed (``dirty``, bit ``3 d + b``), their digits' stacks and the naked singles of the
    bands whose digit-bands changed (``touched``) until nothing changes, on the state at
    ``state[at:at + 30]``. In place; False on a contradiction."""
    digits = np.int64(0)  # digits whose stacks to look at
    while True:
        if places:
            low = places & -places
            places ^= low
            changed = _place(state, at, digit, band, low, bt)
            if changed < 0:
                return False
            dirty |= changed
        elif dirty:
            low = dirty & -dirty
            dirty ^= low
            touched |= low
            i = bit_index(low, bt)
            digits |= np.int64(1) << (i // 3)
            found = _digit_band(state, at, i, bt)
            if found < 0:
                return False
            if found:
                dirty |= _place_hidden(state, at, i, found, bt)
        elif digits:
            low = digits & -digits
            d = bit_index(low, bt)
            changed, first, found = _digit_stacks(state, at, d, bt)
            if first == -2:
                return False
            dirty |= changed
            if first < 0:
                digits ^= low  # else look again for the other bands' singles
            else:
                digit, band, places = d, first, found
        else:
            digit, band, places, touched = _naked_single(state, at, touched)
            if band < 0:
                return band == -1


@njit(cache=True, inline="always")
def pick_branch_cell(state, at, bt):
    """An open cell with two candidates, else three, else the first open one; -1 if none."""
    fallback = -1
    fewest = 4
    for band in range(3):
        open_cells = np.int64(state[at + 27 + band])
        if open_cells == 0:
            continue
        c1 = c2 = c3 = c4 = np.int64(0)  # bit-sliced counts of candidates: at least 1, 2, 3, 4
        for d in range(9):
            f = np.int64(state[at + 3 * d + band])
            c4 |= c3 & f
            c3 |= c2 & f
            c2 |= c1 & f
            c1 |= f
        two = open_cells & ~c3
        if two:
            return 27 * band + bit_index(two & -two, bt)
        three = open_cells & ~c4
        if three and fewest > 3:
            fallback, fewest = 27 * band + bit_index(three & -three, bt), 3
        elif fallback < 0:
            fallback = 27 * band + bit_index(open_cells & -open_cells, bt)
    return fallback


@njit(cache=True, inline="always")
def candidates(state, at, cell):
    """The 9-bit candidate mask of ``cell``."""
    band, low = cell // 27, np.int64(1) << (cell % 27)
    mask = 0
    for d in range(9):
        mask |= np.int64((np.int64(state[at + 3 * d + band]) & low) != 0) << d
    return mask


@njit(cache=True)
def load_masks(masks_in, state, bt):
    """The band state of ``uint16[81]`` candidate masks at ``state[:30]``, every cell open."""
    for i in range(30):
        state[i] = (1 << 27) - 1
    for cell in range(81):
        missing = ~np.int64(masks_in[cell]) & 511
        band, low = cell // 27, np.int64(1) << (cell % 27)
        while missing:
            bit = missing & -missing
            missing ^= bit
            i = 3 * bit_index(bit, bt) + band
            state[i] = np.int64(state[i]) & ~low


@njit(cache=True)
def load_board(board, state, bt):
    """The band state of a board (``uint8[81]``, 0 = empty, 1-9 a clue) at ``state[:30]``, its
    clues placed: the digit-bands to look at, -1 if two clues clash. The same state and
    digit-bands as :func:`load_masks` and :func:`place_singles` on the board's candidate masks
    (a clue's cell first loses the other digits, then the clue is placed), without the masks.
    ``state[STRIDE:STRIDE + 13]`` (the next depth's) is scratch: a band's empty cells and
    the places of each digit, then each band's empty cells."""
    full = np.int64((1 << 27) - 1)
    for band in range(3):
        for d in range(10):
            state[STRIDE + d] = 0
        for p in range(27):
            j = np.uint64(STRIDE + board[27 * band + p])
            state[j] = np.int64(state[j]) | np.int64(1) << p
        empty = np.int64(state[STRIDE])
        for d in range(9):
            state[3 * d + band] = empty | np.int64(state[STRIDE + 1 + d])
        state[27 + band] = full
        state[STRIDE + 10 + band] = empty
    dirty = np.int64(0)
    for band in range(3):
        clues = full & ~np.int64(state[STRIDE + 10 + band])
        while clues:
            low = clues & -clues
            clues ^= low
            d = np.int64(board[27 * band + bit_index(low, bt)]) - 1
            changed = _place(state, 0, d, band, low, bt)
            if changed < 0:
                return np.int64(-1)
            dirty |= changed | np.int64(1) << (3 * d + band)
    return dirty


@njit(cache=True)
def place_singles(state, bt):
    """Give every open cell of ``state[:30]`` with one candidate its digit, without the
    propagation in between: the digit-bands to look at (those changed and those given a digit),
    -1 if a cell had lost its digit."""
    dirty = np.int64(0)
    for band in range(3):
        once = np.int64(0)
        twice = np.int64(0)
        for d in range(9):
            f = np.int64(state[3 * d + band])
            twice |= once & f
            once |= f
        single = np.int64(state[27 + band]) & once & ~twice
        for d in range(9):
            places = single & np.int64(state[3 * d + band])
            while places:
                low = places & -places
                places ^= low
                changed = _place(state, 0, d, band, low, bt)
                if changed < 0:
                    return np.int64(-1)
                dirty |= changed | np.int64(1) << (3 * d + band)
    return dirty


@njit(cache=True)
def write_solution(state, at, bt, solution):
    """The digits of a state with every cell given one into ``solution`` (``uint8[81]``)."""
    for i in range(27):
        places = np.int64(state[at + i])
        while places:
            low = places & -places
            places ^= low
            solution[27 * (i % 3) + bit_index(low, bt)] = i // 3 + 1
