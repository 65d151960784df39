"""njit kernels of the Many Faces knowledge structures (Fotland 1993, "Dynamic data").

All kernels read the Go board's padded 1-D arrays (:mod:`mctslab.go._board`: ``color``
int8[P] EMPTY/BLACK/WHITE/BORDER, ``group`` int16[P] string ids, width ``w``; the
neighbours of p are ``p +- 1``, ``p +- w``). Plain-Python twins are in
:mod:`mctslab.manyfaces.reference` (tests compare them).

* Incremental per stone: :func:`neighbour_counts` / :func:`update_neighbours` (empty,
  black, white neighbours of each point) and the **connection rays**: ``ray[L, d]`` is
  the first stone met walking 1..3 points from the empty point L in direction d through
  empty points (0 when none within 3), ``ray_len[L, d]`` its distance. A ray only
  changes when a point on it changes, so :func:`update_rays` recomputes the rays of the
  points at distance 0..3 along a line from each changed point.
* On demand: :func:`connection_records` (every liberty L of a string A whose ray reaches
  another string B of A's colour: Fotland's connection points at distance 1..3) and
  :func:`cut_records` (diagonal and one-point-jump shapes whose connecting points the
  opponent already holds).
* Whole board: :func:`id_liberties` (distinct liberties and escape points per string or
  group id), :func:`eye_regions` (regions of empty points and enemy stones bounded by one
  colour) and :func:`influence` (1/distance radiation through empty points).
"""

import numpy as np

from mctslab.core.jit import njit

EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3
MAX_RAY = 3

# geometric relation of two stones linked through a connection point
HANE, ONE_POINT, HALF_KNIGHT, KNIGHT, TWO_POINT, HALF_LARGE_KNIGHT, LARGE_KNIGHT, \
    THREE_POINT, MULTIPLE = range(9)
CUT, CUTTABLE, SHARED, AJI, SOLID = range(5)


@njit(cache=True)
def neighbour_counts(color, w, nb):
    """nb[p, 0..2]: empty, black, white orthogonal neighbours of every point (borders 0)."""
    for p in range(color.shape[0]):
        nb[p, 0] = 0
        nb[p, 1] = 0
        nb[p, 2] = 0
        if color[p] == BORDER:
            continue
        for q in (p + 1, p - 1, p + w, p - w):
            c = color[q]
            if c != BORDER:
                nb[p, c] += 1


@njit(cache=True)
def update_neighbours(color, w, changed, n_changed, nb):
    """Recount the neighbours of the points next to each changed point (a move, captures)."""
    for i in range(n_changed):
        c0 = changed[i]
        for p in (c0 + 1, c0 - 1, c0 + w, c0 - w):
            if color[p] == BORDER:
                continue
            nb[p, 0] = 0
            nb[p, 1] = 0
            nb[p, 2] = 0
            for q in (p + 1, p - 1, p + w, p - w):
                c = color[q]
                if c != BORDER:
                    nb[p, c] += 1


@njit(cache=True)
def _ray_at(color, w, p, ray, ray_len):
    for d in range(4):
        ray[p, d] = 0
        ray_len[p, d] = 0
    if color[p] != EMPTY:
        return
    for d in range(4):
        step = (1, -1, w, -w)[d]
        q = p
        for k in range(1, MAX_RAY + 1):
            q += step
            c = color[q]
            if c == EMPTY:
                continue
            if c != BORDER:
                ray[p, d] = q
                ray_len[p, d] = k
            break


@njit(cache=True)
def all_rays(color, w, ray, ray_len):
    """Every point's four rays (zero for stones and borders)."""
    for p in range(color.shape[0]):
        if color[p] == BORDER:
            for d in range(4):
                ray[p, d] = 0
                ray_len[p, d] = 0
        else:
            _ray_at(color, w, p, ray, ray_len)


@njit(cache=True)
def update_rays(color, w, changed, n_changed, ray, ray_len):
    """Recompute the rays of every point whose rays pass a changed point; returns how many
    points were recomputed (a point may be counted more than once)."""
    n = 0
    for i in range(n_changed):
        c0 = changed[i]
        for d in range(4):
            step = (1, -1, w, -w)[d]
            for k in range(MAX_RAY + 1):
                p = c0 - k * step
                if p < 0 or p >= color.shape[0]:
                    break
                if color[p] == BORDER:
                    break
                _ray_at(color, w, p, ray, ray_len)
                n += 1
    return n


@njit(cache=True)
def connection_records(color, group, w, ray, ray_len, rec):
    """Connection points: rec[i] = (L, a, q, k, relation) for every empty L, stone a next to
    L and ray of L reaching a stone q of a's colour in another string at distance k;
    relation HANE (a, q diagonal), ONE_POINT, TWO_POINT, THREE_POINT (a, L, q on one line)
    or KNIGHT / LARGE_KNIGHT (q's ray perpendicular to L -> a; halves are decided when the
    records of a pair are aggregated). Returns the number of records."""
    n = 0
    for p in range(color.shape[0]):
        if color[p] != EMPTY:
            continue
        for da in range(4):
            a = p + (1, -1, w, -w)[da]
            ca = color[a]
            if ca != BLACK and ca != WHITE:
                continue
            for d in range(4):
                q = ray[p, d]
                if q == 0 or color[q] != ca or group[q] == group[a]:
                    continue
                k = ray_len[p, d]
                opposite = (da ^ 1) == d   # dirs are (+1, -1, +w, -w): pairs differ in bit 0
                if k == 1:
                    rel = ONE_POINT if opposite else HANE
                elif k == 2:
                    rel = TWO_POINT if opposite else KNIGHT
                else:
                    rel = THREE_POINT if opposite else LARGE_KNIGHT
                rec[n, 0] = p
                rec[n, 1] = a
                rec[n, 2] = q
                rec[n, 3] = k
                rec[n, 4] = rel
                n += 1
    return n


@njit(cache=True)
def cut_records(color, group, w, rec):
    """Shapes already cut: rec[i] = (a, q, relation) for stones a, q of one colour in
    different strings that are diagonal with both crossing points held by the opponent
    (HANE) or a one-point jump apart with an opponent stone between (ONE_POINT)."""
    n = 0
    for a in range(color.shape[0]):
        c = color[a]
        if c != BLACK and c != WHITE:
            continue
        enemy = 3 - c
        for q, x1, x2 in ((a + w + 1, a + 1, a + w), (a + w - 1, a - 1, a + w)):
            if color[q] == c and group[q] != group[a] and color[x1] == enemy \
                    and color[x2] == enemy:
                rec[n, 0] = a
                rec[n, 1] = q
                rec[n, 2] = HANE
                n += 1
        for step in (1, w):
            q = a + 2 * step
            if q < color.shape[0] and color[q] == c and group[q] != group[a] \
                    and color[a + step] == enemy:
                rec[n, 0] = a
                rec[n, 1] = q
                rec[n, 2] = ONE_POINT
                n += 1
    return n


@njit(cache=True)
def id_liberties(color, w, ids, ray, libs, esc_open, esc_friend, esc_enemy):  # noqa: C901 - numba kernel: one pass over the board, each neighbour and ray case inline
    """Per id (``ids[p]`` of each stone: a string or group id): distinct liberties, and
    escape points: liberties with two or more empty neighbours and no enemy neighbour,
    split by where their rays lead (a friendly stone of another id within 3 points:
    friend; else an enemy stone: enemy; else open)."""
    for i in range(libs.shape[0]):
        libs[i] = 0
        esc_open[i] = 0
        esc_friend[i] = 0
        esc_enemy[i] = 0
    for p in range(color.shape[0]):
        if color[p] != EMPTY:
            continue
        seen0 = -1
        seen1 = -1
        seen2 = -1
        n_empty = 0
        has_b = False
        has_w = False
        for q in (p + 1, p - 1, p + w, p - w):
            c = color[q]
            if c == EMPTY:
                n_empty += 1
            elif c == BLACK:
                has_b = True
            elif c == WHITE:
                has_w = True
        for q in (p + 1, p - 1, p + w, p - w):
            c = color[q]
            if c != BLACK and c != WHITE:
                continue
            g = ids[q]
            if g == seen0 or g == seen1 or g == seen2:
                continue
            if seen0 < 0:
                seen0 = g
            elif seen1 < 0:
                seen1 = g
            else:
                seen2 = g
            libs[g] += 1
            enemy_next = has_w if c == BLACK else has_b
            if n_empty >= 2 and not enemy_next:
                friend = False
                foe = False
                for d in range(4):
                    r = ray[p, d]
                    if r != 0:
                        if color[r] == c and ids[r] != g:
                            friend = True
                        elif color[r] == 3 - c:
                            foe = True
                if friend:
                    esc_friend[g] += 1
                elif foe:
                    esc_enemy[g] += 1
                else:
                    esc_open[g] += 1


@njit(cache=True)
def eye_regions(color, w, owner, max_size, label, sizes, stack):
    """Regions for ``owner``: 4-connected components of points that are empty or hold the
    opponent's stones (never crossing ``owner``'s stones or the border). label[p] = region
    number (-1 for owner stones and borders); sizes[r] = points in region r; returns the
    number of regions. Regions of at most ``max_size`` points are the eye spaces."""
    enemy = 3 - owner
    for p in range(color.shape[0]):
        label[p] = -1
    n = 0
    for p in range(color.shape[0]):
        c = color[p]
        if (c != EMPTY and c != enemy) or label[p] >= 0:
            continue
        label[p] = n
        stack[0] = p
        top = 1
        size = 0
        while top > 0:
            top -= 1
            s = stack[top]
            size += 1
            for q in (s + 1, s - 1, s + w, s - w):
                cq = color[q]
                if (cq == EMPTY or cq == enemy) and label[q] < 0:
                    label[q] = n
                    stack[top] = q
                    top += 1
        sizes[n] = size
        n += 1
    return n


@njit(cache=True)
def influence(color, w, value, power, black, white, dist, queue):
    """Fotland's influence: each stone p with ``value[p] != 0`` radiates |value| / d**power
    (the paper: power 1) to every empty point at path distance d >= 1 through empty points
    (stones block), into ``black`` (value > 0) or ``white`` (value < 0). ``dist`` and
    ``queue`` are int32 scratch of P."""
    n = color.shape[0]
    for p in range(n):
        black[p] = 0.0
        white[p] = 0.0
    for s in range(n):
        v = value[s]
        if v == 0.0:
            continue
        for p in range(n):
            dist[p] = -1
        dist[s] = 0
        head = 0
        tail = 0
        for q in (s + 1, s - 1, s + w, s - w):
            if color[q] == EMPTY and dist[q] < 0:
                dist[q] = 1
                queue[tail] = q
                tail += 1
        while head < tail:
            p = queue[head]
            head += 1
            d = dist[p]
            f = 1.0 / d if power == 1.0 else d ** -power
            if v > 0:
                black[p] += v * f
            else:
                white[p] -= v * f
            for q in (p + 1, p - 1, p + w, p - w):
                if color[q] == EMPTY and dist[q] < 0:
                    dist[q] = d + 1
                    queue[tail] = q
                    tail += 1


@njit(cache=True)
def aggregate_connections(rec, n_rec, cut, n_cut, color, group, w, dlibs, mark, out):
    """One row per pair of strings linked by connection records or cut shapes:
    out[i] = (string a, string b, type, strength, n1, n2, n3, the single distance-1 point
    or -1), a < b. Types and strengths as in :mod:`mctslab.manyfaces.knowledge`; ``dlibs``
    are the strings' distinct liberties, ``mark`` int32[P] scratch. Returns the row count.
    The records are sorted by pair (:func:`pair_keys`); each pair's run gives one row."""
    P = color.shape[0]
    m = n_rec + n_cut
    keys = pair_keys(rec, n_rec, cut, n_cut, group, P)
    order = np.argsort(keys, kind="mergesort")
    for p in range(P):
        mark[p] = 0
    n_out = 0
    start = 0
    while start < m:
        end = start
        while end < m and keys[order[end]] == keys[order[start]]:
            end += 1
        ga = keys[order[start]] // P
        gb = keys[order[start]] % P
        n1, n2, n3, single, kmin = count_connection_points(rec, n_rec, order, start, end, mark)
        if kmin == 4:     # cut shapes only
            kind = cut_kind(cut, n_rec, order, start, end)
            strength = CUT
        else:
            kind = link_kind(rec, n_rec, order, start, end, kmin)
            if n1 >= 2:
                strength = SOLID
            elif n1 == 1:
                strength = AJI if not safe_for(color, group, w, dlibs, single, 3 - color[ga]) \
                    else SHARED
            else:
                strength = CUTTABLE
        out[n_out, 0] = ga
        out[n_out, 1] = gb
        out[n_out, 2] = kind
        out[n_out, 3] = strength
        out[n_out, 4] = n1
        out[n_out, 5] = n2
        out[n_out, 6] = n3
        out[n_out, 7] = single if n1 == 1 else -1
        n_out += 1
        start = end
    return n_out


@njit(cache=True)
def pair_keys(rec, n_rec, cut, n_cut, group, P):
    """int64[n_rec + n_cut]: the pair of strings ``min(a, b) * P + max(a, b)`` of each
    connection record (stones ``rec[i, 1:3]``), then of each cut shape (``cut[i, 0:2]``)."""
    keys = np.empty(n_rec + n_cut, np.int64)
    for i in range(n_rec):
        ga = np.int64(group[rec[i, 1]])
        gb = np.int64(group[rec[i, 2]])
        keys[i] = min(ga, gb) * P + max(ga, gb)
    for i in range(n_cut):
        ga = np.int64(group[cut[i, 0]])
        gb = np.int64(group[cut[i, 1]])
        keys[n_rec + i] = min(ga, gb) * P + max(ga, gb)
    return keys


@njit(cache=True)
def count_connection_points(rec, n_rec, order, start, end, mark):
    """The distinct connection points of one pair's records ``order[start:end]`` (indices
    >= ``n_rec`` are cut shapes and skipped), each counted at its smallest distance: returns
    ``(n1, n2, n3, the last distance-1 point or -1, the smallest distance or 4 when there is
    no connection record)``. ``mark`` (zero on entry) is left zero."""
    n1 = 0
    n2 = 0
    n3 = 0
    single = -1
    kmin = 4
    for j in range(start, end):
        i = order[j]
        if i >= n_rec:
            continue
        k = rec[i, 3]
        kmin = min(kmin, k)
        L = rec[i, 0]
        if mark[L] == 0 or k < mark[L]:
            mark[L] = k
    for j in range(start, end):
        i = order[j]
        if i >= n_rec:
            continue
        L = rec[i, 0]
        k = mark[L]
        if k > 0:
            if k == 1:
                n1 += 1
                single = L
            elif k == 2:
                n2 += 1
            else:
                n3 += 1
            mark[L] = 0
    return n1, n2, n3, single, kmin


@njit(cache=True)
def cut_kind(cut, n_rec, order, start, end):
    """The type of a pair linked by cut shapes only (``order[start:end]``, all >= ``n_rec``):
    their shape when they agree, else MULTIPLE."""
    kind = cut[order[start] - n_rec, 2]
    for j in range(start, end):
        if cut[order[j] - n_rec, 2] != kind:
            kind = MULTIPLE
    return kind


@njit(cache=True)
def link_kind(rec, n_rec, order, start, end, kmin):
    """The type of a pair from its connection records at the smallest distance ``kmin``:
    their relation when they agree, else MULTIPLE. A knight's or large knight's move counts
    only when two records link the same two stones by it; one alone is the half shape."""
    kind = -1
    for j in range(start, end):
        i = order[j]
        if i >= n_rec or rec[i, 3] != kmin:
            continue
        rel = rec[i, 4]
        if rel == KNIGHT or rel == LARGE_KNIGHT:
            a0 = min(rec[i, 1], rec[i, 2])
            b0 = max(rec[i, 1], rec[i, 2])
            links = 0
            for jj in range(start, end):
                ii = order[jj]
                if ii < n_rec and rec[ii, 4] == rel and min(rec[ii, 1], rec[ii, 2]) == a0 \
                        and max(rec[ii, 1], rec[ii, 2]) == b0:
                    links += 1
            if links < 2:
                rel = HALF_KNIGHT if rel == KNIGHT else HALF_LARGE_KNIGHT
        if kind == -1:
            kind = rel
        elif kind != rel:
            kind = MULTIPLE
    return kind


@njit(cache=True)
def safe_for(color, group, w, dlibs, p, player):
    """Whether ``player`` can play the empty point p without being captured at once: it
    captures an adjacent string in atari, or its stone has two or more liberties
    (empty neighbours plus, for each adjacent own string, its other distinct liberties:
    an upper bound when those strings share liberties)."""
    libs = 0
    for q in (p + 1, p - 1, p + w, p - w):
        c = color[q]
        if c == EMPTY:
            libs += 1
        elif c == player:
            libs += dlibs[group[q]] - 1
        elif c == 3 - player and dlibs[group[q]] == 1:
            return True
    return libs >= 2


@njit(cache=True)
def check_strings(color, group, next_stone, stones, libs, lib_sum, lib_sumsq, empty,  # noqa: C901, PLR0913 - numba kernel: the Go board's unpacked arrays, checked in one flood-fill pass with every case inline
                  empty_index, num_empty, w, mark, stack):
    """The Go board's incremental strings against a flood fill from scratch: 0 when every
    string's ids, stone ring, stone count, pseudo-liberties (count, sum, sum of squares)
    and the empty list agree, else the first bad point (negative codes for the empty
    list)."""
    P = color.shape[0]
    for p in range(P):
        mark[p] = 0
    for p in range(P):
        c = color[p]
        if (c != BLACK and c != WHITE) or mark[p]:
            continue
        g = group[p]
        mark[p] = 1
        stack[0] = p
        top = 1
        size = 0
        n_lib = 0
        s_lib = np.int64(0)
        s2_lib = np.int64(0)
        while top > 0:
            top -= 1
            s = stack[top]
            size += 1
            if group[s] != g:
                return s
            for q in (s + 1, s - 1, s + w, s - w):
                if color[q] == EMPTY:
                    n_lib += 1
                    s_lib += q
                    s2_lib += np.int64(q) * q
                elif color[q] == c and mark[q] == 0:
                    mark[q] = 1
                    stack[top] = q
                    top += 1
        if color[g] != c or stones[g] != size or libs[g] != n_lib or lib_sum[g] != s_lib \
                or lib_sumsq[g] != s2_lib:
            return p
        s = np.int64(g)
        ring = 0
        while True:
            if color[s] != c or group[s] != g:
                return p
            ring += 1
            s = next_stone[s]
            if s == g or ring > size:
                break
        if ring != size:
            return p
    n = 0
    for p in range(P):
        if color[p] == EMPTY:
            n += 1
            i = empty_index[p]
            if i < 0 or i >= num_empty or empty[i] != p:
                return -1 - p
    if n != num_empty:
        return -1
    return 0
