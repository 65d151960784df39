"""The heavy ("pattern") playout policy: tactics near the last move, then GNU Go's 3x3
Monte-Carlo pattern weights, then the light policy (issue 11, "Playouts and search").

Reading guide.

* **Data.** GNU Go's ``patterns/mc_*.db`` files (``mc_mogo_classic``, ``mc_montegnu_classic``,
  ``mc_uniform``; GNU Go's ``doc/montecarlo.texi`` describes the format): 3x3 diagrams with the
  move ``*`` in the middle, each followed by one or more ``:value[,property...]`` lines. Symbols
  (O = the side to move): ``.`` empty, ``O``/``X`` own/opponent stone, ``o``/``x`` own/opponent
  or empty, ``?`` any point on the board, ``%`` anything including off-board, ``|`` ``-`` ``+``
  off-board. Properties (all must hold): ``near``/``far`` (the move is / is not one of the 8
  neighbours of the previous move), ``osafe``/``ounsafe`` (the move is not / is a self-atari),
  ``xsafe``/``xunsafe`` (the same for an opponent move on that point), ``xsuicide``/
  ``xnosuicide``, ``ocapK`` (the move captures K stones, K = 0, 1, 2, 3 = "3 or more"; also
  ``ocap1+``, ``ocap1-``, ``ocap2+``, ``ocap2-``) and ``xcap...`` (the same for an opponent move
  there). Every ``:`` line is one rule; **the first rule that matches gives the value**; a point
  no rule matches has value 1. Each diagram stands for its 8 rotations and reflections.
* **Table** (:func:`build_table`, about 0.1 s, kept in a Python-level cache by
  :func:`load_patterns`). A point's 3x3 neighbourhood code packs the 8 neighbours' board colours
  (2 bits each: empty, black, white, off-board; order NW, N, NE, W, E, SW, S, SE with "N" =
  ``p - W``), 4^8 = 65,536 codes. Codes matched by the same set of diagrams (all symmetries
  expanded) form a *class*: ``pattern_class[mover - 1, code]`` is the class of a code for the
  side to move (the white table is the black one with colours swapped), and
  ``class_weight[class, state]`` the value for each of the 256 *property states* (bit 0 near,
  1 osafe, 2 xsafe, 3 xsuicide, bits 4-5 stones captured by the move (0..3), bits 6-7 by an
  opponent move there). ``class_need[class]`` lists the state bits the value depends on, so a
  kernel computes only those (self-atari tests cost most). A code that makes the point an own
  single-point eye (``_board._eye_like``'s rule; the files' own first three diagrams say the
  same) has value 0 whatever the file says.
* **Policy** (:func:`choose_pattern_move`; the playout falls back on the light policy when it
  returns -1). With ``L`` the previous move (nothing is tried after a pass):

  1. *Tactics* (tried with probability ``params[TACTICS_RATE]``, default 1): the candidates are
     (a) the liberty of every opponent string in atari with a stone on ``L`` or one of its 8
     neighbours (a capture near the last move, the last move's own self-atari included);
     (b) for each of the mover's strings next to ``L`` left in atari, its liberty when playing
     there gives the string at least 2 liberties (an escape; captures counted), and the
     liberty of every opponent string in atari touching it (a counter-capture). Ko-forbidden
     points and the mover's own single-point eyes are left out; duplicates count once. When
     there is a candidate, one is drawn uniformly.
  2. *Patterns*: every neighbour ``q`` of ``L`` (8 points) that is legal, not ko-forbidden and
     not an own eye is weighted by the table (``near`` set); weight-0 points drop out. With
     ``S`` the sum of the weights and ``F`` = ``params[FAR_WEIGHT]`` times the number of empty
     points that are not neighbours of ``L``, a neighbour is played with probability
     ``S / (S + F)``, drawn with probability proportional to its weight. This is GNU Go's
     rule ("moves drawn strictly proportional to their values") with every point away from the
     last move valued ``FAR_WEIGHT`` (1: GNU Go's default value), so only the neighbourhood of
     the last move has to be looked at; ``FAR_WEIGHT = 0`` plays a neighbour whenever one has
     a positive weight (closer to MoGo and Pachi's moggy, which play a matching 3x3 pattern
     near the last move whenever there is one). :func:`sample_near_move` draws this without
     weighing every neighbour (rejection sampling, exact; :func:`near_pattern_moves` is the
     written-out form the tests compare it with).
  3. otherwise -1: the light policy (``_playout.choose_light_move``) picks the move.

  So compared with GNU Go: far-away points get the flat value instead of their patterns (only
  ``mc_montegnu_classic``'s "far" capture bonus, 30 to 60, is lost); the tactical step plays
  at once the captures and escapes near the last move that the files value 2,000 to 20,000
  (so GNU Go too plays them nearly always), also at the edge (where mogo's ``?`` diagrams do
  not match) and for escapes whose liberty is not a neighbour of ``L`` (GNU Go counts those as
  "near" too).
* Kernels run with ``_nrt=False`` and allocate nothing: the tables, ``params`` and the scratch
  candidate buffers come in the ``policy_data`` tuple made by :func:`policy_data`.
  :func:`pattern_move` is what ``_playout.playout`` calls: for a tuple it is the pattern
  policy, for any other ``policy_data`` (the light policy's empty array) it returns -1, so both
  specialisations of ``playout`` compile.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.extending import overload

from ..rng import rng_below, rng_random
from ._board import (
    BLACK,
    BORDER,
    EMPTY,
    I_KO,
    I_KO_COLOR,
    I_LAST,
    I_NUM_EMPTY,
    I_WIDTH,
    OK,
    PASS,
    _atari,
    _check_neighbours,
    _eye_like,
    _u,
)

# Property state bits (the second index of ``class_weight``).
NEAR, OSAFE, XSAFE, XSUICIDE = 1, 2, 4, 8
OCAP_SHIFT, XCAP_SHIFT = 4, 6
OCAP_BITS, XCAP_BITS = 3 << OCAP_SHIFT, 3 << XCAP_SHIFT
NUM_STATES = 256

# ``params`` entries (float64): the tunables of the policy.
TACTICS_RATE, FAR_WEIGHT = 0, 1
CANDIDATES = 64  # scratch size for tactical candidates (distinct points; more are dropped)

PATTERN_FILES = ("mc_mogo_classic", "mc_montegnu_classic", "mc_uniform")
DEFAULT_PATTERN_FILE = "mc_montegnu_classic"  # GNU Go's own default

# --- the file format ------------------------------------------------------------------------

# symbol -> neighbour values it accepts, relative to the side to move: 0 empty, 1 own stone,
# 2 opponent stone, 3 off the board
_SYMBOLS = {".": {0}, "O": {1}, "X": {2}, "o": {0, 1}, "x": {0, 2}, "?": {0, 1, 2},
            "%": {0, 1, 2, 3}, "|": {3}, "-": {3}, "+": {3}}
# (row, col) offsets of the 8 neighbours in code order; row -1 is the diagram's top line
_OFFSETS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
_CAP_SETS = {"0": {0}, "1": {1}, "2": {2}, "3": {3}, "1+": {1, 2, 3}, "1-": {0, 1},
             "2+": {2, 3}, "2-": {0, 1, 2}}


class PatternRule(NamedTuple):
    line: int  # line of the ':' line in the file
    diagram: int  # index of its diagram
    weight: float
    accept: np.ndarray  # bool[256]: the property states the rule applies to


class PatternFile(NamedTuple):
    path: str
    diagrams: list  # 9-character strings, row by row (the middle one is '*')
    diagram_lines: list  # first line of each diagram
    rules: list  # PatternRule, in file order


def _state_values() -> dict[str, np.ndarray]:
    s = np.arange(NUM_STATES)
    return {"near": s & NEAR != 0, "osafe": s & OSAFE != 0, "xsafe": s & XSAFE != 0,
            "xsuicide": s & XSUICIDE != 0, "ocap": (s >> OCAP_SHIFT) & 3,
            "xcap": (s >> XCAP_SHIFT) & 3}


def _accept(props: list[str], where: str) -> np.ndarray:
    values = _state_values()
    accept = np.ones(NUM_STATES, bool)
    flags = {"near": ("near", True), "far": ("near", False), "osafe": ("osafe", True),
             "ounsafe": ("osafe", False), "xsafe": ("xsafe", True),
             "xunsafe": ("xsafe", False), "xsuicide": ("xsuicide", True),
             "xnosuicide": ("xsuicide", False)}
    for prop in props:
        if prop in flags:
            name, value = flags[prop]
            accept &= values[name] == value
        elif prop[:4] in ("ocap", "xcap") and prop[4:] in _CAP_SETS:
            accept &= np.isin(values[prop[:4]], sorted(_CAP_SETS[prop[4:]]))
        else:
            raise ValueError(f"{where}: unknown property {prop!r}")
    return accept


def parse_patterns(path: str | os.PathLike) -> PatternFile:
    """Read a GNU Go ``mc_*.db`` file; a ``ValueError`` names the file and line of a fault."""
    path = str(path)
    with open(path, encoding="latin-1") as handle:  # the headers have a Latin-1 name
        lines = handle.read().splitlines()
    diagrams, diagram_lines, rules = [], [], []
    rows: list[str] = []  # rows of the diagram being read
    first_row = 0
    pending = False  # a complete diagram still waiting for its ':' line

    def close_diagram() -> None:
        nonlocal rows, pending
        if len(rows) != 3:
            raise ValueError(f"{path}:{first_row}: a diagram has {len(rows)} rows, not 3")
        cells = "".join(rows)
        if cells[4] != "*" or cells.count("*") != 1:
            raise ValueError(f"{path}:{first_row}: the move '*' must be the middle point, "
                             f"and only there")
        diagrams.append(cells)
        diagram_lines.append(first_row)
        rows = []
        pending = True

    for lineno, raw in enumerate(lines, 1):
        line = raw.rstrip()
        if not line.strip() or line.startswith("#"):
            if rows:
                close_diagram()
            continue
        if line.startswith(":"):
            if rows:
                close_diagram()
            if not diagrams:
                raise ValueError(f"{path}:{lineno}: a ':' line with no diagram before it")
            fields = [f.strip() for f in line[1:].split(",")]
            if not fields[0].isdigit():
                raise ValueError(f"{path}:{lineno}: the value {fields[0]!r} is not a "
                                 "whole number >= 0")
            accept = _accept([f for f in fields[1:] if f], f"{path}:{lineno}")
            rules.append(PatternRule(lineno, len(diagrams) - 1, float(fields[0]), accept))
            pending = False
            continue
        if pending:
            raise ValueError(f"{path}:{diagram_lines[-1]}: the diagram has no ':' value line")
        if not rows:
            first_row = lineno
        if len(line) != 3 or any(ch not in _SYMBOLS and ch != "*" for ch in line):
            raise ValueError(f"{path}:{lineno}: bad diagram row {line!r} (3 of "
                             f"'.OXox?%|-+*')")
        rows.append(line)
        if len(rows) > 3:
            raise ValueError(f"{path}:{first_row}: a diagram has more than 3 rows")
    if rows:
        close_diagram()
    if pending:
        raise ValueError(f"{path}:{diagram_lines[-1]}: the diagram has no ':' value line")
    if not rules:
        raise ValueError(f"{path}: no patterns")
    return PatternFile(path, diagrams, diagram_lines, rules)


# --- the table ------------------------------------------------------------------------------

class PatternTable(NamedTuple):
    pattern_class: np.ndarray  # int16[2, 65536]: class of a raw code, for Black / White to move
    class_weight: np.ndarray  # float64[classes, 256]: value per property state
    class_need: np.ndarray  # int64[classes]: state bits the value depends on
    class_max: np.ndarray  # float64[classes]: largest value with ``near`` set (a bound)
    class_max_quiet: np.ndarray  # float64[classes]: the same when nothing can be captured
    source: PatternFile


def _symmetries() -> list[list[int]]:
    """For each of the 8 symmetries, where each neighbour position goes (code positions)."""
    index = {off: i for i, off in enumerate(_OFFSETS)}
    maps = []
    for flip in (False, True):
        for turns in range(4):
            perm = []
            for r, c in _OFFSETS:
                if flip:
                    c = -c
                for _ in range(turns):
                    r, c = c, -r
                perm.append(index[(r, c)])
            maps.append(perm)
    return maps


def _digits(codes: np.ndarray) -> np.ndarray:
    return ((codes[:, None] >> (2 * np.arange(8))) & 3).astype(np.int64)


def build_table(source: PatternFile) -> PatternTable:
    """The lookup tables of a parsed pattern file (see the module docstring)."""
    codes = np.arange(4 ** 8, dtype=np.int64)
    digits = _digits(codes)  # relative digits: 0 empty, 1 own, 2 opponent, 3 off-board
    # allowed[symbol][position]: bool[65536], a symbol's test at one neighbour position
    used = set("".join(source.diagrams)) - {"*"}
    lut = {sym: np.isin(np.arange(4), sorted(_SYMBOLS[sym])) for sym in used}
    allowed = {sym: [lut[sym][digits[:, i]] for i in range(8)] for sym in used}
    symmetries = _symmetries()
    masks = np.zeros((len(source.diagrams), codes.size), bool)
    for d, cells in enumerate(source.diagrams):
        around = cells[:4] + cells[5:]
        for perm in symmetries:
            match = np.ones(codes.size, bool)
            for i, sym in enumerate(around):
                match &= allowed[sym][perm[i]]
            masks[d] |= match
    # the mover's own single-point eyes (as _board._eye_like: orthogonal neighbours own or off
    # the board, enemy diagonals + "at the edge" < 2) are never candidates: value 0 whatever
    # the file says, so the kernels need no eye test of their own
    orth, diag = digits[:, [1, 3, 4, 6]], digits[:, [0, 2, 5, 7]]
    eye = ((orth == 1) | (orth == 3)).all(axis=1) & \
        ((diag == 2).sum(axis=1) + (diag == 3).any(axis=1) < 2)
    masks = np.vstack([masks, eye])
    if masks.shape[0] <= 64:  # one integer per code: a 1-D unique is fast
        signature = np.zeros(codes.size, np.uint64)
        for d in range(masks.shape[0]):
            signature |= masks[d].astype(np.uint64) << np.uint64(d)
        _, first, code_class = np.unique(signature, return_index=True, return_inverse=True)
    else:
        _, first, code_class = np.unique(np.packbits(masks.T, axis=1), axis=0,
                                         return_index=True, return_inverse=True)
    code_class = code_class.reshape(-1)
    class_masks = masks[:, first].T  # [classes, diagrams]
    weight = np.ones((first.size, NUM_STATES))  # unmatched: GNU Go's default value 1
    for rule in reversed(source.rules):  # the first matching rule wins
        rows = np.flatnonzero(class_masks[:, rule.diagram])
        weight[np.ix_(rows, np.flatnonzero(rule.accept))] = rule.weight
    weight[class_masks[:, -1]] = 0.0  # own eyes
    need = np.zeros(first.size, np.int64)
    s = np.arange(NUM_STATES)
    for bits in (NEAR, OSAFE, XSAFE, XSUICIDE, OCAP_BITS, XCAP_BITS):
        base = s & ~bits
        need[(weight != weight[:, base]).any(axis=1)] |= bits
    swap = np.array([0, 2, 1, 3])  # a White mover sees Black stones as the opponent's
    swapped = (swap[digits] << (2 * np.arange(8))).sum(axis=1)
    if first.size > np.iinfo(np.int16).max:
        raise ValueError(f"{source.path}: {first.size} pattern classes, more than the table "
                         "holds (32,767)")
    pattern_class = np.stack([code_class, code_class[swapped]]).astype(np.int16)
    near = s & NEAR != 0
    class_max = weight[:, near].max(axis=1)
    class_max_quiet = weight[:, near & (s & (OCAP_BITS | XCAP_BITS) == 0)].max(axis=1)
    return PatternTable(np.ascontiguousarray(pattern_class), np.ascontiguousarray(weight),
                        need, class_max, class_max_quiet, source)


_TABLES: dict[tuple[str, float], PatternTable] = {}


def pattern_path(name_or_path: str | os.PathLike = DEFAULT_PATTERN_FILE) -> Path:
    """The file of a pattern set: a name in :data:`PATTERN_FILES` (found through
    :func:`mctslab.data.find`) or an explicit path."""
    from mctslab.data import find

    if str(name_or_path) in PATTERN_FILES:
        return find(f"gnugo/patterns/{name_or_path}.db")
    return find(Path(name_or_path).name, explicit=name_or_path)


def load_patterns(name_or_path: str | os.PathLike = DEFAULT_PATTERN_FILE) -> PatternTable:
    """Parse and tabulate a pattern file once per process (cached by path and mtime)."""
    path = pattern_path(name_or_path)
    key = (str(path), path.stat().st_mtime)
    if key not in _TABLES:
        _TABLES[key] = build_table(parse_patterns(path))
    return _TABLES[key]


def policy_data(table: PatternTable, *, tactics_rate: float = 1.0,
                far_weight: float = 1.0) -> tuple:
    """The ``policy_data`` tuple of the pattern policy: tables, parameters and fresh scratch
    (one tuple per search: the scratch is written during playouts). ``pattern_class`` goes in
    as ``int8`` when the classes fit (every GNU Go file: 29 to 38 classes), a smaller table
    for the cache; the kernels read either type."""
    params = np.array([tactics_rate, far_weight], np.float64)
    classes = table.class_weight.shape[0]
    # int8 classes when they fit: the two 64 K-entry lookup tables take 128 KB, not 256 KB
    pattern_class = table.pattern_class.astype(np.int8) if classes <= 127 else \
        table.pattern_class
    return (pattern_class, table.class_weight, table.class_need, table.class_max,
            table.class_max_quiet, params, np.zeros(CANDIDATES, np.int64),
            np.zeros(8, np.float64))


# --- kernels --------------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def neighbourhood_code(col, w, p):
    """The 3x3 code of ``p``: the 8 neighbours' board colours, 2 bits each (NW first)."""
    return (np.int64(col[_u(p - w - 1)]) | (np.int64(col[_u(p - w)]) << 2)
            | (np.int64(col[_u(p - w + 1)]) << 4) | (np.int64(col[_u(p - 1)]) << 6)
            | (np.int64(col[_u(p + 1)]) << 8) | (np.int64(col[_u(p + w - 1)]) << 10)
            | (np.int64(col[_u(p + w)]) << 12) | (np.int64(col[_u(p + w + 1)]) << 14))


@njit(cache=True, _nrt=False, inline="always")
def _add_liberty(l1, l2, q):
    """Add point ``q`` to the set {l1, l2} (-1 = free slot); returns the new pair."""
    if q == l1 or q == l2:
        return l1, l2
    if l1 < 0:
        return q, l2
    if l2 < 0:
        return l1, q
    return l1, l2


@njit(cache=True, _nrt=False, inline="always")
def liberties_after(col, group, next_stone, libs, lib_sum, lib_sumsq, w, color, p):
    """Liberties (0, 1, or 2 meaning "2 or more") of ``color``'s string through empty ``p`` if
    ``color`` played there, captures included; exact. 0 means suicide, 1 self-atari."""
    free = 0
    for q in (p - 1, p + 1, p - w, p + w):
        if col[q] == EMPTY:
            free += 1
    if free >= 2:
        return 2  # the common case
    enemy = 3 - color
    l1 = -1
    l2 = -1
    nb = (p - 1, p + 1, p - w, p + w)
    captures = False
    for k in range(4):
        q = nb[k]
        c = col[q]
        if c == EMPTY or (c == enemy and _atari(libs, lib_sum, lib_sumsq, group[q])):
            l1, l2 = _add_liberty(l1, l2, q)  # empty, or a stone the move captures
            captures = captures or c == enemy
    if l2 >= 0:
        return 2
    for k in range(4):
        q = nb[k]
        if col[q] != color:
            continue
        g = group[q]
        seen = False
        on_p = 0  # pseudo-liberties of g on p: one per stone of g next to p
        for j in range(4):
            if col[nb[j]] == color and group[nb[j]] == g:
                on_p += 1
                seen = seen or j < k
        if seen:
            continue
        n = np.int64(libs[g]) - on_p
        if n == 0:
            continue
        s = np.int64(lib_sum[g]) - on_p * p
        sq = np.int64(lib_sumsq[g]) - on_p * p * p
        if n * sq != s * s:
            return 2  # g keeps two different liberties besides p
        l1, l2 = _add_liberty(l1, l2, s // n)
        if l2 >= 0:
            return 2
    if captures:  # captured stones next to the string's other stones become liberties too
        for k in range(4):
            q = nb[k]
            if col[q] != enemy or not _atari(libs, lib_sum, lib_sumsq, group[q]):
                continue
            s = np.int64(q)
            while True:
                for r in (s - 1, s + 1, s - w, s + w):
                    if col[r] == color:
                        g = group[r]
                        for j in range(4):
                            if col[nb[j]] == color and group[nb[j]] == g:
                                l1, l2 = _add_liberty(l1, l2, s)
                if l2 >= 0:
                    return 2
                s = np.int64(next_stone[s])
                if s == q:
                    break
    return 1 if l1 >= 0 else 0


@njit(cache=True, _nrt=False, inline="always")
def atari_stones(col, group, stones, libs, lib_sum, lib_sumsq, w, color, p):
    """Stones of ``color`` a move on ``p`` would capture: strings next to ``p`` in atari
    (their liberty is then ``p``), counted once each; capped at 3."""
    nb = (p - 1, p + 1, p - w, p + w)
    total = 0
    for k in range(4):
        q = nb[k]
        if col[q] != color:
            continue
        g = group[q]
        if not _atari(libs, lib_sum, lib_sumsq, g):
            continue
        seen = False
        for j in range(k):
            if col[nb[j]] == color and group[nb[j]] == g:
                seen = True
        if not seen:
            total += stones[g]
    return min(total, 3)


@njit(cache=True, _nrt=False)
def point_state(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, w, color, p, need,
                near):
    """The property state of ``color`` playing empty ``p`` (only the bits in ``need``)."""
    state = NEAR if near else 0
    if need & OSAFE:
        if liberties_after(col, group, next_stone, libs, lib_sum, lib_sumsq, w, color, p) >= 2:
            state |= OSAFE
    if need & (XSAFE | XSUICIDE):
        n = liberties_after(col, group, next_stone, libs, lib_sum, lib_sumsq, w, 3 - color, p)
        if n >= 2:
            state |= XSAFE
        elif n == 0:
            state |= XSUICIDE
    if need & OCAP_BITS:
        state |= atari_stones(col, group, stones, libs, lib_sum, lib_sumsq, w, 3 - color,
                              p) << OCAP_SHIFT
    if need & XCAP_BITS:
        state |= atari_stones(col, group, stones, libs, lib_sum, lib_sumsq, w, color,
                              p) << XCAP_SHIFT
    return state


@njit(cache=True, _nrt=False)
def pattern_weight(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, w, color, p,
                   near, pattern_class, class_weight, class_need):
    """The table's value of ``color`` playing empty ``p`` (legality not checked)."""
    cls = pattern_class[color - BLACK, neighbourhood_code(col, w, p)]
    need = class_need[cls]
    state = NEAR if near else 0
    if need & ~NEAR:
        state = point_state(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, w, color,
                            p, need, near)
    return class_weight[cls, state]


@njit(cache=True, _nrt=False, inline="always")
def _push(out, n, q):
    for i in range(n):
        if out[i] == q:
            return n
    if n < out.shape[0]:
        out[n] = q
        n += 1
    return n


@njit(cache=True, _nrt=False, inline="always")
def tactical_moves(col, group, next_stone, libs, lib_sum, lib_sumsq, info, color, last, out):
    """Step 1: captures near ``last`` and escapes of the mover's strings it put in atari
    (see the module docstring); writes distinct points to ``out``, returns how many."""
    w = info[I_WIDTH]
    enemy = 3 - color
    ko = info[I_KO] if info[I_KO_COLOR] == color else -1
    n = 0
    last_string = group[_u(last)] if col[_u(last)] == enemy else -1
    for r in (last, last - w - 1, last - w, last - w + 1, last - 1, last + 1, last + w - 1,
              last + w, last + w + 1):
        if col[_u(r)] == enemy:
            g = group[_u(r)]
            if (r == last or g != last_string) and _atari(libs, lib_sum, lib_sumsq, g):
                q = np.int64(lib_sum[_u(g)]) // np.int64(libs[_u(g)])
                if q != ko and not _eye_like(col, w, q, color):
                    n = _push(out, n, q)
    for r in (last - 1, last + 1, last - w, last + w):
        if col[_u(r)] != color:
            continue
        g = group[_u(r)]
        if not _atari(libs, lib_sum, lib_sumsq, g):
            continue
        q = np.int64(lib_sum[_u(g)]) // np.int64(libs[_u(g)])
        if q != ko and not _eye_like(col, w, q, color) and liberties_after(
                col, group, next_stone, libs, lib_sum, lib_sumsq, w, color, q) >= 2:
            n = _push(out, n, q)
        s = np.int64(g)
        while True:  # counter-captures: opponent strings in atari touching g
            for t in (s - 1, s + 1, s - w, s + w):
                if col[_u(t)] == enemy and _atari(libs, lib_sum, lib_sumsq, group[_u(t)]):
                    h = group[_u(t)]
                    q = np.int64(lib_sum[_u(h)]) // np.int64(libs[_u(h)])
                    if q != ko and not _eye_like(col, w, q, color):
                        n = _push(out, n, q)
            s = np.int64(next_stone[_u(s)])
            if s == g:
                break
    return n


@njit(cache=True, _nrt=False)
def near_pattern_moves(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, info, color,
                       last, pattern_class, class_weight, class_need, points, weights):
    """Step 2's candidates: the legal, non-ko, non-own-eye neighbours of ``last`` with a
    positive weight, written to ``points``/``weights``; returns ``(count, total weight)``."""
    w = info[I_WIDTH]
    ko = info[I_KO] if info[I_KO_COLOR] == color else -1
    k = 0
    total = 0.0
    for q in (last - w - 1, last - w, last - w + 1, last - 1, last + 1, last + w - 1,
              last + w, last + w + 1):
        if col[q] != EMPTY or q == ko or _eye_like(col, w, q, color):
            continue
        if _check_neighbours(col, group, libs, lib_sum, lib_sumsq, w, color, q) != OK:
            continue
        weight = pattern_weight(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, w,
                                color, q, True, pattern_class, class_weight, class_need)
        if weight > 0.0:
            points[k] = q
            weights[k] = weight
            total += weight
            k += 1
    return k, total


_NO_CAPTURE, _CAPTURE = -1, -2


@njit(cache=True, _nrt=False, inline="always")
def _quiet_state(col, group, libs, lib_sum, lib_sumsq, w, q):
    """The property state of a near point with two or more empty neighbours and no string in
    atari next to it (legal, safe for both sides, nothing to capture); else ``_NO_CAPTURE``
    (no string in atari next to it) or ``_CAPTURE``."""
    free = 0
    for r in (q - 1, q + 1, q - w, q + w):
        c = col[_u(r)]
        if c == EMPTY:
            free += 1
        elif c != BORDER and _atari(libs, lib_sum, lib_sumsq, group[_u(r)]):
            return _CAPTURE
    return NEAR | OSAFE | XSAFE if free >= 2 else _NO_CAPTURE


@njit(cache=True, _nrt=False, inline="always")
def sample_near_move(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, info, rng,
                     color, last, far_weight, pattern_class, class_weight, class_need, class_max,
                     class_max_quiet, points, weights):
    """Step 2 drawn without weighing every neighbour: a neighbour of ``last`` with probability
    ``w / (S + F)``, or -1 (probability ``F / (S + F)``), as in the module docstring.

    Rejection sampling with lazily tightened bounds: each candidate starts with its class's
    largest value (``class_max``, no property test), a draw landing on a candidate not yet
    weighed computes its exact weight ``w`` (legality, self-atari, captures), keeps the draw
    with probability ``w / bound`` and otherwise draws again with the bound replaced by ``w``.
    Every accepted draw has the exact distribution; few candidates are ever weighed when far
    points dominate; points with two empty neighbours and no string in atari next to them (most)
    are weighed at once. ``points[8:16]`` hold the candidates' classes (-1 once weighed)."""
    w = info[I_WIDTH]
    ko = info[I_KO] if info[I_KO_COLOR] == color else -1
    k = 0
    near_empty = 0
    bound_sum = 0.0
    for q in (last - w - 1, last - w, last - w + 1, last - 1, last + 1, last + w - 1,
              last + w, last + w + 1):
        if col[_u(q)] != EMPTY:
            continue
        near_empty += 1
        if q == ko:
            continue
        # own eyes: value 0
        cls = np.int64(pattern_class[_u(color - BLACK), _u(neighbourhood_code(col, w, q))])
        state = _quiet_state(col, group, libs, lib_sum, lib_sumsq, w, q)
        if state >= 0:  # the common case: weighed at once
            bound = class_weight[cls, state]
            cls = -1
        elif state == _NO_CAPTURE:
            bound = class_max_quiet[cls]
        else:
            bound = class_max[cls]
        if bound > 0.0:
            points[k] = q
            points[8 + k] = cls
            weights[k] = bound
            bound_sum += bound
            k += 1
    if k == 0:
        return -1
    far = far_weight * (info[I_NUM_EMPTY] - near_empty)
    while bound_sum > 0.0:
        x = rng_random(rng) * (bound_sum + far)
        if x >= bound_sum:
            return -1
        i = 0
        while i < k - 1 and x >= weights[i]:
            x -= weights[i]
            i += 1
        cls = points[8 + i]
        if cls < 0:
            return points[i]  # an exact slot
        q = points[i]
        exact = 0.0
        if _check_neighbours(col, group, libs, lib_sum, lib_sumsq, w, color, q) == OK:
            need = class_need[cls]
            state = NEAR
            if need & ~NEAR:
                state = point_state(col, group, next_stone, stones, libs, lib_sum, lib_sumsq,
                                    w, color, q, need, True)
            exact = class_weight[cls, state]
        if x < exact:
            return q
        bound_sum += exact - weights[i]
        weights[i] = exact
        points[8 + i] = -1
    return -1


# Not inline="always": numba's IR-level inlining of this kernel (and the ones it inlines) into
# playout made the first compile of the pattern playout take 150 s of CPU instead of 30 s
# (measured), for about 9% more playouts per second.
@njit(cache=True, _nrt=False)
def choose_pattern_move(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, info, rng,
                        color, policy_data):
    """Steps 1 and 2 of the policy: a point, or -1 for "let the light policy choose"."""
    pattern_class, class_weight, class_need, class_max, class_max_quiet, params, points, \
        weights = policy_data
    last = info[I_LAST]
    if last == PASS:
        return -1
    rate = params[TACTICS_RATE]
    if rate >= 1.0 or (rate > 0.0 and rng_random(rng) < rate):
        n = tactical_moves(col, group, next_stone, libs, lib_sum, lib_sumsq, info, color, last,
                           points)
        if n > 0:
            return points[rng_below(rng, n)]
    return sample_near_move(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, info,
                            rng, color, last, params[FAR_WEIGHT], pattern_class, class_weight,
                            class_need, class_max, class_max_quiet, points, weights)


def pattern_move(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, info, rng, color,
                 policy_data):
    """What ``_playout.playout`` calls (compiled through the overload below)."""
    raise NotImplementedError("call from numba-compiled code only")


@overload(pattern_move, inline="always", jit_options={"_nrt": False})
def _pattern_move_overload(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, info, rng,
                           color, policy_data):
    if isinstance(policy_data, types.BaseTuple):
        def impl(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, info, rng, color,
                 policy_data):
            return choose_pattern_move(col, group, next_stone, stones, libs, lib_sum,
                                       lib_sumsq, info, rng, color, policy_data)
    else:  # the light policy's policy_data: no pattern move
        def impl(col, group, next_stone, stones, libs, lib_sum, lib_sumsq, info, rng, color,
                 policy_data):
            return np.int64(-1)
    return impl
