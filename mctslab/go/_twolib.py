"""Two-liberty tactics for the strong engine's playouts, numba kernels.

After the opponent's move ``last``, the strings next to it (its own string included) that have
exactly two liberties give the side to move candidate moves, read with the ladder reader
(:func:`mctslab.go._ladder.read_ladder`):

* **attack**: an opponent string with two liberties; a liberty of it is a candidate when the
  atari played there captures the string in a ladder (the reading's answer ``CAPTURED``);
* **defence**: an own string with two liberties that the opponent captures in a ladder by an
  atari on one of them; a liberty of it is a candidate when the string, extended there, is not
  captured in a ladder (``ESCAPES``: three liberties or more, or a chase that fails).

This is the two-liberty check of Pachi's moggy playouts (``tactics/2lib.c``: the attacker's
atari that the defender cannot escape, the defender's move that gains liberties) and of michi's
``fix_atari`` read as a whole two-liberty solver; both were read, no code taken. A reading that
hits the ladder reader's bounds (``UNKNOWN``) gives no candidate. The strings' liberties are
counted by the ladder reader's flood fill (exact, up to three), on the position's colour array,
which every reading leaves as it found it.
"""

from __future__ import annotations

from mctslab.core.jit import njit
from mctslab.go._board import BORDER, EMPTY, I_KO, I_KO_COLOR, I_WIDTH, _eye_like, _u
from mctslab.go._ladder import CAPTURED, ESCAPES, fill, new_stamp, read_ladder
from mctslab.go._patterns import _push  # distinct points, at most the scratch's length

STRINGS = 5  # the strings next to ``last`` (4 neighbours) and the last move's own


@njit(cache=True, _nrt=False, inline="always")
def two_liberties(col, w, s, sc):
    """The two liberties of the string through ``s`` when it has exactly two, else (-1, -1)."""
    n, l1, l2, _ = fill(col, w, s, sc.mark, new_stamp(sc.counters, sc.mark), sc.queue, 3)
    if n != 2:
        return -1, -1
    return l1, l2


@njit(cache=True, _nrt=False)
def _attack(col, info, color, s, l1, l2, sc, out, n):
    """Add the ataris on ``l1``/``l2`` that capture the opponent string ``s`` in a ladder."""
    w, ko, ko_color = info[I_WIDTH], info[I_KO], info[I_KO_COLOR]
    for lib in (l1, l2):
        if read_ladder(col, w, ko, ko_color, color, lib, s, sc) == CAPTURED:
            n = _push(out, n, lib)
    return n


@njit(cache=True, _nrt=False)
def _defend(col, info, color, s, l1, l2, sc, out, n):
    """When the opponent captures the own string ``s`` in a ladder by an atari on ``l1`` or
    ``l2``, add the liberties whose extension escapes."""
    w, ko, ko_color = info[I_WIDTH], info[I_KO], info[I_KO_COLOR]
    enemy = 3 - color
    if read_ladder(col, w, ko, ko_color, enemy, l1, s, sc) != CAPTURED and \
            read_ladder(col, w, ko, ko_color, enemy, l2, s, sc) != CAPTURED:
        return n  # not threatened
    for lib in (l1, l2):
        if not _eye_like(col, w, lib, color) and \
                read_ladder(col, w, ko, ko_color, color, lib, s, sc) == ESCAPES:
            n = _push(out, n, lib)
    return n


@njit(cache=True, _nrt=False)
def two_liberty_moves(col, group, info, color, last, out, n, sc):
    """Append to ``out[:n]`` the attack and defence candidates around ``last`` (module
    docstring) for ``color`` to move; returns the new count. ``sc``: a ladder scratch of the
    board's size."""
    w = info[I_WIDTH]
    nb = (last, last - 1, last + 1, last - w, last + w)
    for k in range(STRINGS):
        r = nb[k]
        c = col[_u(r)]
        if c == EMPTY or c == BORDER:
            continue  # empty or off the board
        g = group[_u(r)]
        seen = False  # the string through an earlier point of nb
        for j in range(k):
            seen = seen or (col[_u(nb[j])] == c and group[_u(nb[j])] == g)
        if seen:
            continue
        l1, l2 = two_liberties(col, w, r, sc)
        if l1 < 0:
            continue
        if c == color:
            n = _defend(col, info, color, r, l1, l2, sc, out, n)
        else:
            n = _attack(col, info, color, r, l1, l2, sc, out, n)
    return n
