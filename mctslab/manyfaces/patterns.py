"""GNU Go mkpat pattern databases, parsed and compiled into Fotland's 8x8 mask form.

Many Faces of Go (Fotland 1993, "Pattern database and matcher") stores each 8x8
pattern as three 64-bit masks, one per point state (black, white, empty): a point
that may be "X or empty" has two bits set, a don't-care point all three. A window of
the board matches when ``(board_B & pat_B) | (board_W & pat_W) | (board_E & pat_E)``
has all 64 bits set.

Reading guide
-------------
* :func:`parse_file` / :func:`load` read ``patterns.db``, ``patterns2.db``, ``conn.db``
  (``Pattern NAME``, a diagram, a ``:`` line, then an optional constraint diagram,
  ``;`` constraint and ``>`` action lines). Constraints and actions are **kept as
  text and ignored by the matcher**: matching is on the diagram only.
* :func:`compile_patterns` builds :class:`CompiledPatterns`, the arrays the njit
  matcher in :mod:`mctslab.manyfaces._match` reads; :class:`mctslab.manyfaces.api.Matcher`
  runs it.

Decisions
---------
* Colours: ``O`` (own) is compiled into the *black* mask and ``X`` into the *white*
  mask. Matching for the other colour swaps the board's black and white masks
  (Fotland's colour transformation); patterns are never re-coloured.
* Orientations: as in Fotland, the *board* is transformed (8 orientations), not the
  patterns: the matcher keeps the window masks of the 8 transformed boards (8 x 361 x 3
  words, 8 x 64 bit updates per stone), so the pattern table stays one copy (1,275
  blocks) and a match reads one window; precomputing 8 transformed pattern copies
  would multiply the table and its hash chains by up to 8 for no fewer comparisons.
  A pattern is tried only in the orientations that give distinct placements; these
  are found by comparing the transformed diagrams (edges included), so a symmetric
  pattern is not reported twice. This is never fewer than
  the file's symmetry code allows except for CC507 and CC509 (declared ``O``, 4
  distinct diagrams: we try all 4); 49 patterns declared ``8`` have symmetric diagrams
  and are tried in fewer orientations (tested). Before compiling, each edge pattern
  is turned (:func:`normalise`) so that its edge is on top (a corner top-left).
* Edges: **edge anchoring**. A pattern's anchor is the top-left point of its box (its
  board points, edge marks excluded) in the transformed board. The box must lie on
  the board, and a pattern with an edge mark (``|``, ``-``, ``+``) may only be tried
  at anchors where its box touches that edge. Board points of a window that fall
  off the board get all three bits (they match anything); they can only meet a
  pattern's don't-care padding, because the box itself is on the board. So three
  masks suffice, as in the paper.
* Patterns larger than 8x8 (rows or columns > 8; see :func:`size_report`) are split
  into several 8x8 blocks at offsets (0, 0), (0, 8), (8, 0), ...; a match needs every
  block. None is dropped: 978 of 994 (patterns.db), 226 of 228 (patterns2.db) and all
  35 (conn.db) fit in one block; the other 18 (up to 8 x 12) take two.
* Hash prefilter: an 8-bit key made of the state codes (empty 0, own 1, other 2,
  off-board 3) of 4 window points chosen greedily to make the expected candidate
  list short. A pattern sits in every bucket its key points allow (a don't-care
  key point makes a chain of 3 or 4 buckets), one bucket table per orientation and
  anchor class (interior, top row, top-left corner: edge patterns are listed only
  where they can match).
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from mctslab import data

__all__ = ["Pattern", "CompiledPatterns", "parse_file", "parse_text", "load", "load_default",
           "compile_patterns", "transform_grid", "distinct_orientations", "size_report",
           "PATTERN_FILES", "ACCEPTS", "default_compiled"]

PATTERN_FILES = ("patterns.db", "patterns2.db", "conn.db")

#: states a diagram character accepts: subset of "e" (empty), "o" (own), "x" (other)
ACCEPTS = {".": "e", "*": "e", ",": "e", "!": "e", "O": "o", "X": "x",
           "o": "oe", "x": "xe", "?": "oxe"}
HEADERS = ("attribute_map", "goal_elements", "callback_data")
SYMMETRY_CODES = {"8": 8, "|": 4, "-": 4, "\\": 4, "/": 4, "+": 2, "X": 2, "O": 1}
BLOCK = 8


@dataclass(frozen=True)
class Pattern:
    """One parsed pattern: ``rows`` are the board points only (h strings of w chars)."""

    name: str
    source: str
    line: int
    rows: tuple[str, ...]
    top: bool
    bottom: bool
    left: bool
    right: bool
    symmetry: str
    classes: str
    colon: str
    constraint_diagram: tuple[str, ...] = ()
    constraints: tuple[str, ...] = ()
    actions: tuple[str, ...] = ()

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def move(self) -> tuple[int, int] | None:
        """(row, col) of ``*`` in the box, or None."""
        for i, row in enumerate(self.rows):
            if "*" in row:
                return i, row.index("*")
        return None

    def grid(self) -> np.ndarray:
        """The diagram as a char array with the edges as rows/columns of ``#``."""
        h, w = self.height, self.width
        g = np.full((h + self.top + self.bottom, w + self.left + self.right), "#", dtype="<U1")
        for i, row in enumerate(self.rows):
            g[i + self.top, self.left:self.left + w] = list(row)
        return g


def _diagram_token(raw: str) -> str:
    # Any text after whitespace on a diagram line is a comment.
    return raw.strip().split()[0] if raw.strip() else ""


def _parse_diagram(lines: list[tuple[int, str]], source: str, name: str, line: int) -> tuple:
    def where(n):
        return f"{source}, line {n} (pattern {name})"

    toks = [(n, _diagram_token(s)) for n, s in lines]
    top = bool(toks) and set(toks[0][1]) <= set("-+")
    bottom = len(toks) > 1 and set(toks[-1][1]) <= set("-+")
    body = toks[1 if top else 0:len(toks) - (1 if bottom else 0)]
    if not body:
        raise ValueError(f"{where(line)}: pattern has no board rows")
    left = body[0][1].startswith("|")
    right = body[0][1].endswith("|")
    rows = []
    for n, tok in body:
        if tok.startswith("|") != left or tok.endswith("|") != right:
            raise ValueError(f"{where(n)}: edge '|' inconsistent with the first row: {tok!r}")
        row = tok[1 if left else 0:len(tok) - (1 if right else 0)]
        bad = [ch for ch in row if ch not in ACCEPTS]
        if bad:
            raise ValueError(f"{where(n)}: unknown diagram symbol {bad[0]!r} in {tok!r}")
        if rows and len(row) != len(rows[0]):
            raise ValueError(f"{where(n)}: row {row!r} has {len(row)} points, "
                             f"the first row has {len(rows[0])}")
        rows.append(row)
    for n, tok in (toks[:1] if top else []) + (toks[-1:] if bottom else []):
        width = len(rows[0]) + left + right
        if len(tok) != width:
            raise ValueError(f"{where(n)}: edge line {tok!r} is {len(tok)} wide, "
                             f"expected {width}")
    return tuple(rows), top, bottom, left, right


def _pattern(cur: dict, source: str) -> Pattern:
    """The pattern read into ``cur`` (name, line, diagram, ``:`` line, constraint diagram,
    constraints, actions); a missing ``:`` line or a bad diagram or symmetry raises."""
    if cur["colon"] is None:
        raise ValueError(f"{source}, line {cur['line']} (pattern {cur['name']}): "
                         "no ':' line after the diagram")
    rows, top, bottom, left, right = _parse_diagram(cur["diagram"], source, cur["name"],
                                                    cur["line"])
    colon = cur["colon"][1]
    fields = colon[1:].split(",")
    sym = fields[0].strip()
    if sym not in SYMMETRY_CODES:
        raise ValueError(f"{source}, line {cur['colon'][0]}: unknown symmetry {sym!r}")
    return Pattern(cur["name"], source, cur["line"], rows, top, bottom, left, right,
                   sym, fields[1].strip() if len(fields) > 1 else "", colon,
                   tuple(cur["cdiag"]), tuple(cur["constraints"]), tuple(cur["actions"]))


def _body_line(cur: dict, n: int, line: str, source: str) -> None:
    """Line ``n`` of the pattern being read into ``cur``: a diagram row until the ``:`` line,
    then a constraint (``;``, continued on indented lines), an action (``>``) or a row of
    the constraint diagram."""
    if cur["colon"] is None:
        if line.startswith(":"):
            cur["colon"] = (n, line.strip())
        elif line.startswith((";", ">")):
            raise ValueError(f"{source}, line {n} (pattern {cur['name']}): "
                             f"{line[0]!r} line before the ':' line")
        else:
            cur["diagram"].append((n, line))
    elif line.startswith(";"):
        cur["constraints"].append(line[1:].strip())
    elif line.startswith(">"):
        cur["actions"].append(line[1:].strip())
    elif cur["constraints"] and line.startswith((" ", "\t")):
        cur["constraints"][-1] += " " + line.strip()      # continued constraint
    else:
        cur["cdiag"].append(_diagram_token(line))


def parse_text(text: str, source: str = "<text>") -> list[Pattern]:
    """Parse mkpat text. A malformed pattern raises ValueError naming source and line."""
    patterns: list[Pattern] = []
    cur: dict | None = None

    def finish():
        if cur is not None:
            patterns.append(_pattern(cur, source))

    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if line.startswith("Pattern"):
            finish()
            parts = line.split()
            if len(parts) < 2:
                raise ValueError(f"{source}, line {n}: 'Pattern' without a name")
            cur = dict(name=parts[1], line=n, diagram=[], colon=None, cdiag=[],
                       constraints=[], actions=[])
            continue
        if cur is None or not line.strip() or line.startswith("#"):
            continue
        if line.split()[0] in HEADERS:
            finish()
            cur = None
            continue
        _body_line(cur, n, line, source)
    finish()
    return patterns


def parse_file(path: str | Path) -> list[Pattern]:
    path = Path(path)
    return parse_text(path.read_text(encoding="latin-1"), source=path.name)


def load(name: str) -> list[Pattern]:
    """Parse ``data/gnugo/patterns/<name>`` (found with :func:`mctslab.data.find`)."""
    return parse_file(data.find(f"gnugo/patterns/{name}"))


def load_default() -> list[Pattern]:
    """patterns.db + patterns2.db + conn.db, in that order."""
    return [p for name in PATTERN_FILES for p in load(name)]


@functools.lru_cache(maxsize=1)
def default_compiled() -> CompiledPatterns:
    """GNU Go's patterns.db, patterns2.db and conn.db compiled once per process (~2 s): what
    the knowledge-based player and the pattern prior match."""
    return compile_patterns(load_default())


def transform_grid(g: np.ndarray, o: int) -> np.ndarray:
    """Orientation ``o`` (0..7) of a 2-D array: transpose if o & 4, then flip rows if
    o & 1, flip columns if o & 2. The matcher transforms the board the same way:
    ``T_o(board)[r', c'] = board[r, c]``."""
    a = g.T if o & 4 else g
    if o & 1:
        a = a[::-1]
    if o & 2:
        a = a[:, ::-1]
    return a


def inverse_transform_grid(g: np.ndarray, o: int) -> np.ndarray:
    a = g
    if o & 1:
        a = a[::-1]
    if o & 2:
        a = a[:, ::-1]
    return a.T if o & 4 else a


def distinct_orientations(p: Pattern) -> list[int]:
    """Board orientations in which ``p`` must be tried: the pattern matched on
    ``T_o(board)`` is ``T_o^-1(p)`` on the board; keep ``o`` when that diagram is new."""
    seen, keep = set(), []
    g = p.grid()
    for o in range(8):
        t = inverse_transform_grid(g, o)
        key = (t.shape, "".join(t.ravel()))
        if key not in seen:
            seen.add(key)
            keep.append(o)
    return keep


def size_report(patterns: list[Pattern]) -> dict:
    """How many patterns fit in one 8x8 block (board points only) and how many need more."""
    fit = sum(p.height <= BLOCK and p.width <= BLOCK for p in patterns)
    big = [p.name for p in patterns if p.height > BLOCK or p.width > BLOCK]
    return {"patterns": len(patterns), "fit_8x8": fit, "split": len(big), "split_names": big,
            "max_rows": max(p.height for p in patterns),
            "max_cols": max(p.width for p in patterns)}


# ---------------------------------------------------------------------------- compile
PLANE_BITS = {"o": 0, "x": 1, "e": 2}         # mask planes: 0 own/black, 1 other/white, 2 empty
STATE_CODE = {"e": 0, "o": 1, "x": 2}          # hash codes; 3 = off the board
#: assumed point-state frequencies used only to choose the hash key points
KEY_STATE_WEIGHT = (0.55, 0.2, 0.2, 0.05)


@dataclass
class CompiledPatterns:
    """Struct of arrays for the matcher; P patterns, K blocks (one per 8x8 piece).

    masks[K, 3] uint64: own, other, empty masks of block k (bit 8*row + col);
    block_start[P + 1], block_dr[K], block_dc[K]: the blocks of pattern p and their
    offsets from its anchor; height[P], width[P]: the box; edges[P]: bit 0 top,
    1 bottom, 2 left, 3 right; orient[P]: bit o set when orientation o is tried;
    key_bits[4]: window bit positions of the hash key points;
    key_accept[P, 4]: 4-bit sets of the hash codes each key point accepts;
    bucket_start[3, 8, 257], bucket_items: per anchor class (:func:`anchor_class_allows`)
    and orientation, the patterns of each hash, split into 8 width classes
    (:func:`width_classes`) starting at bucket_sub[3, 8, 256, 9]; big: the patterns of
    more than one block; by_height: all patterns by decreasing height.
    """

    patterns: list[Pattern]
    masks: np.ndarray
    block_start: np.ndarray
    block_dr: np.ndarray
    block_dc: np.ndarray
    height: np.ndarray
    width: np.ndarray
    edges: np.ndarray
    orient: np.ndarray
    move_row: np.ndarray
    move_col: np.ndarray
    key_bits: np.ndarray
    key_accept: np.ndarray
    bucket_start: np.ndarray
    bucket_items: np.ndarray
    bucket_sub: np.ndarray
    big: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    by_height: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))

    @property
    def n_patterns(self) -> int:
        return len(self.patterns)

    @property
    def n_tries(self) -> int:
        """(pattern, orientation) pairs: the patterns tried per window and colour, unfiltered."""
        return int(sum(bin(int(m)).count("1") for m in self.orient))

    def mean_chain(self) -> float:
        """Average number of hash buckets a (pattern, orientation) sits in (interior table)."""
        chain = np.prod([[bin(int(v)).count("1") for v in row] for row in self.key_accept], axis=1)
        n_orient = np.array([bin(int(m)).count("1") for m in self.orient])
        return float((chain * n_orient).sum() / n_orient.sum())


def _cell_accepts(p: Pattern, r: int, c: int) -> str:
    """States accepted at box cell (r, c); outside the box: anything, off-board too."""
    if 0 <= r < p.height and 0 <= c < p.width:
        return ACCEPTS[p.rows[r][c]]
    return "oxe#"


def _block_masks(p: Pattern, dr: int, dc: int) -> tuple[int, int, int]:
    m = [0, 0, 0]
    for i in range(BLOCK):
        for j in range(BLOCK):
            for s in _cell_accepts(p, dr + i, dc + j):
                if s in PLANE_BITS:
                    m[PLANE_BITS[s]] |= 1 << (BLOCK * i + j)
    return m[0], m[1], m[2]


def _accept_codes(p: Pattern, bit: int) -> int:
    acc = _cell_accepts(p, bit // BLOCK, bit % BLOCK)
    return sum(1 << (3 if s == "#" else STATE_CODE[s]) for s in acc)


def choose_key_bits(patterns: list[Pattern], weights: list[int], n_keys: int = 4) -> list[int]:
    """Greedy: the window points that minimise the expected number of candidates."""
    w = np.asarray(KEY_STATE_WEIGHT)
    pass_prob = np.array([[sum(w[k] for k in range(4) if (_accept_codes(p, b) >> k) & 1)
                           for b in range(BLOCK * BLOCK)] for p in patterns])
    chosen: list[int] = []
    prod = np.asarray(weights, dtype=float)
    for _ in range(n_keys):
        cost = [(float(prod @ pass_prob[:, b]), b) for b in range(BLOCK * BLOCK) if b not in chosen]
        best = min(cost)[1]
        chosen.append(best)
        prod = prod * pass_prob[:, best]
    return chosen


def _from_grid(p: Pattern, g: np.ndarray) -> Pattern:
    """A pattern whose diagram (edges as '#') is ``g``; text fields kept from ``p``."""
    top, bottom = bool((g[0] == "#").all()), bool((g[-1] == "#").all()) and g.shape[0] > 1
    left, right = bool((g[:, 0] == "#").all()), bool((g[:, -1] == "#").all()) and g.shape[1] > 1
    body = g[int(top):g.shape[0] - int(bottom), int(left):g.shape[1] - int(right)]
    return replace(p, rows=tuple("".join(r) for r in body), top=top, bottom=bottom, left=left,
                   right=right)


def normalise(p: Pattern) -> Pattern:
    """The same pattern turned so that a single edge is on top and a corner is top-left.

    Since every board orientation is tried, this changes no placement (tested), but
    an edge pattern then only needs anchors on the top row, and the bucket tables are
    split by anchor class (interior, top row, top-left corner)."""
    edges = (p.top, p.bottom, p.left, p.right)
    if sum(edges) == 0 or sum(edges) > 2 or (p.top and p.bottom) or (p.left and p.right):
        return p
    want = (True, False, sum(edges) == 2, False)
    for o in range(8):
        q = _from_grid(p, transform_grid(p.grid(), o))
        if (q.top, q.bottom, q.left, q.right) == want:
            return q
    raise AssertionError(p.name)


def anchor_class_allows(p: Pattern, cls: int) -> bool:
    """Anchor classes: 0 interior (row > 0), 1 top row (col > 0), 2 the top-left corner."""
    if p.bottom or p.right:
        return True          # not normalised (spans the board); checked at run time
    if p.left:
        return cls == 2
    if p.top:
        return cls >= 1
    return True


def width_classes(items, patterns: list[Pattern], n_classes: int) -> list[list[int]]:
    """``items`` split by width class ``min(width, n_classes) - 1``, each by decreasing
    height: an incremental re-match with the changed point ``dc`` columns right of the
    anchor scans only classes >= dc, and each until the first pattern too short."""
    parts: list[list[int]] = [[] for _ in range(n_classes)]
    for i in items:
        parts[min(patterns[i].width, n_classes) - 1].append(i)
    return [sorted(part, key=lambda i: -patterns[i].height) for part in parts]


def _buckets(patterns: list[Pattern], orient: list[int], key_accept: np.ndarray) -> list:
    """``buckets[anchor class][orientation][key hash]``: the indices of the patterns that can
    match there (every key hash a pattern's key points accept, in each orientation it has)."""
    buckets = [[[[] for _ in range(256)] for _ in range(8)] for _ in range(3)]
    for i, p in enumerate(patterns):
        choices = [[c for c in range(4) if (key_accept[i, k] >> c) & 1]
                   for k in range(key_accept.shape[1])]
        hashes = [sum(c << (2 * k) for k, c in enumerate(combo))
                  for combo in itertools.product(*choices)]
        for cls in range(3):
            if not anchor_class_allows(p, cls):
                continue
            for o in range(8):
                if (orient[i] >> o) & 1:
                    for h in hashes:
                        buckets[cls][o][h].append(i)
    return buckets


def _flat_buckets(buckets: list, patterns: list[Pattern]) -> tuple:
    """The buckets as one item list: ``(bucket_start, bucket_sub, items)``, each bucket split
    by :func:`width_classes` (``bucket_sub`` the start of each width class)."""
    bucket_start = np.zeros((3, 8, 257), np.int32)
    bucket_sub = np.zeros((3, 8, 256, BLOCK + 1), np.int32)
    items = []
    for cls in range(3):
        for o in range(8):
            for h in range(256):
                bucket_start[cls, o, h] = len(items)
                for j, part in enumerate(width_classes(buckets[cls][o][h], patterns, BLOCK)):
                    bucket_sub[cls, o, h, j] = len(items)
                    items.extend(part)
                bucket_sub[cls, o, h, BLOCK] = len(items)
            bucket_start[cls, o, 256] = len(items)
    return bucket_start, bucket_sub, items


def compile_patterns(patterns: list[Pattern],
                     key_bits: list[int] | None = None) -> CompiledPatterns:
    """Compile parsed patterns into the matcher's arrays (see the module docstring).

    ``CompiledPatterns.patterns`` holds the :func:`normalise`-d diagrams: matches are
    reported for those."""
    if not patterns:
        raise ValueError("no patterns to compile")
    patterns = [normalise(p) for p in patterns]
    masks, bstart, bdr, bdc = [], [0], [], []
    orient = []
    for p in patterns:
        for dr in range(0, p.height, BLOCK):
            for dc in range(0, p.width, BLOCK):
                masks.append(_block_masks(p, dr, dc))
                bdr.append(dr)
                bdc.append(dc)
        bstart.append(len(masks))
        orient.append(sum(1 << o for o in distinct_orientations(p)))
    n_orient = [bin(m).count("1") for m in orient]
    if key_bits is None:
        key_bits = choose_key_bits(patterns, n_orient)
    key_accept = np.array([[_accept_codes(p, b) for b in key_bits] for p in patterns], np.int8)
    bucket_start, bucket_sub, items = _flat_buckets(
        _buckets(patterns, orient, key_accept), patterns)
    moves = [p.move or (-1, -1) for p in patterns]
    return CompiledPatterns(
        patterns=list(patterns),
        masks=np.array(masks, dtype=np.uint64).reshape(-1, 3),
        block_start=np.array(bstart, np.int32), block_dr=np.array(bdr, np.int32),
        block_dc=np.array(bdc, np.int32),
        height=np.array([p.height for p in patterns], np.int32),
        width=np.array([p.width for p in patterns], np.int32),
        edges=np.array([p.top | p.bottom << 1 | p.left << 2 | p.right << 3 for p in patterns],
                       np.int32),
        orient=np.array(orient, np.int32),
        move_row=np.array([m[0] for m in moves], np.int32),
        move_col=np.array([m[1] for m in moves], np.int32),
        key_bits=np.array(key_bits, np.int32), key_accept=key_accept,
        bucket_start=bucket_start, bucket_items=np.array(items, np.int32),
        bucket_sub=bucket_sub,
        big=np.array(sorted((i for i, p in enumerate(patterns)
                             if p.height > BLOCK or p.width > BLOCK),
                            key=lambda i: -patterns[i].height), np.int32),
        by_height=np.array(sorted(range(len(patterns)), key=lambda i: -patterns[i].height),
                           np.int32))
