"""GNU Go's 3x3 Monte-Carlo pattern files: reading them, and the lookup table the pattern
playout policy's kernels (:mod:`mctslab.go._patterns`) use. Python only, no kernels.

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
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

import numpy as np

from mctslab.data import find
from mctslab.go._patterns import (
    CANDIDATES,
    NEAR,
    NUM_STATES,
    OCAP_BITS,
    OCAP_SHIFT,
    OSAFE,
    XCAP_BITS,
    XCAP_SHIFT,
    XSAFE,
    XSUICIDE,
    PatternPolicy,
)

__all__ = ["PATTERN_FILES", "DEFAULT_PATTERN_FILE", "PatternRule", "PatternFile",
           "PatternTable", "parse_patterns", "build_table", "pattern_path", "load_patterns",
           "policy_data"]

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


def _rule(path: str, lineno: int, line: str, diagram: int) -> PatternRule:
    """The ``:`` line ``line`` (line ``lineno``): the value and properties of diagram number
    ``diagram`` (-1: none read yet, a fault)."""
    if diagram < 0:
        raise ValueError(f"{path}:{lineno}: a ':' line with no diagram before it")
    fields = [f.strip() for f in line[1:].split(",")]
    if not fields[0].isdigit():
        raise ValueError(f"{path}:{lineno}: the value {fields[0]!r} is not a "
                         "whole number >= 0")
    accept = _accept([f for f in fields[1:] if f], f"{path}:{lineno}")
    return PatternRule(lineno, diagram, float(fields[0]), accept)


def _diagram_row(path: str, lineno: int, line: str) -> str:
    """``line`` if it is a diagram row (3 symbols), else a ``ValueError`` naming it."""
    if len(line) != 3 or any(ch not in _SYMBOLS and ch != "*" for ch in line):
        raise ValueError(f"{path}:{lineno}: bad diagram row {line!r} (3 of "
                         f"'.OXox?%|-+*')")
    return line


def _diagram(path: str, first_row: int, rows: list[str]) -> str:
    """The diagram of ``rows`` (starting at line ``first_row``) as one 9-character string: 3
    rows, the move ``*`` in the middle and only there; else a ``ValueError`` naming its line."""
    if len(rows) != 3:
        raise ValueError(f"{path}:{first_row}: a diagram has {len(rows)} rows, not 3")
    cells = "".join(rows)
    if cells[4] != "*" or cells.count("*") != 1:
        raise ValueError(f"{path}:{first_row}: the move '*' must be the middle point, "
                         f"and only there")
    return cells


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
        diagrams.append(_diagram(path, first_row, rows))
        diagram_lines.append(first_row)
        rows = []
        pending = True

    for lineno, raw in enumerate(lines, 1):
        line = raw.rstrip()
        if not line.strip() or line.startswith(("#", ":")):
            if rows:  # a blank, comment or ':' line ends the diagram being read
                close_diagram()
            if line.startswith(":"):
                rules.append(_rule(path, lineno, line, len(diagrams) - 1))
                pending = False
            continue
        if pending:
            raise ValueError(f"{path}:{diagram_lines[-1]}: the diagram has no ':' value line")
        if not rows:
            first_row = lineno
        rows.append(_diagram_row(path, lineno, line))
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
                far_weight: float = 1.0) -> PatternPolicy:
    """The ``policy_data`` bundle of the pattern policy: tables, parameters and fresh scratch
    (one tuple per search: the scratch is written during playouts). ``pattern_class`` goes in
    as ``int8`` when the classes fit (every GNU Go file: 29 to 38 classes), a smaller table
    for the cache; the kernels read either type."""
    params = np.array([tactics_rate, far_weight], np.float64)
    classes = table.class_weight.shape[0]
    # int8 classes when they fit: the two 64 K-entry lookup tables take 128 KB, not 256 KB
    pattern_class = table.pattern_class.astype(np.int8) if classes <= 127 else \
        table.pattern_class
    return PatternPolicy(pattern_class, table.class_weight, table.class_need, table.class_max,
                         table.class_max_quiet, params, np.zeros(CANDIDATES, np.int64),
                         np.zeros(8, np.float64))


