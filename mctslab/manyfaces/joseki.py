"""GNU Go's joseki trees as Fotland's joseki DAG, and its compressed encoding.

Many Faces of Go (Fotland 1993, "Joseki database"): a directed acyclic graph of move
sequences from an empty corner; (x, y) of a move becomes a 6-bit index into a table of
the 62 most frequent points (63 = escape), sibling/child pointers become 2 bits
(has sibling, has child), nodes are stored depth-first, and a 2-byte pointer is kept
where transpositions merge nodes. The paper reports 1.2 bytes per move.

Reading guide
-------------
* :func:`sgf_census` counts the SGF trees (checked against ``data/gnugo/README.md``).
* :func:`build_dag` replays the 7 trees (``data/gnugo/joseki/*.sgf``, every joseki in
  the upper-right corner) with sgfmill into one :class:`JosekiDag`:

  - corner-relative points ``(x, y)``: lines from the right and top edges, 0-based;
  - a node is a position: the stones in the corner, reduced over the corner's two
    orientations (the mirror images along the diagonal x = y are one node; the
    smaller sorted stone tuple is canonical), plus the player to move. The player to
    move keeps a tenuki (pass) from merging a node with its parent;
  - transpositions merge: the same canonical position reached by two sequences is
    one node (its edges are the union of both);
  - an edge's move is in its parent's canonical frame; at a diagonal-symmetric
    position the two mirror moves are one edge (the smaller point);
  - edge types from the first character of the SGF comment: ``U`` urgent, ``J``/``S``
    standard, ``j``/``s`` minor, ``T`` trick, ``t`` tenuki OK, ``0``/``A`` antisuji,
    anything else or no comment standard. Nodes without a move are skipped.
* :func:`encode` / :func:`decode`: the compressed byte form; :func:`bytes_per_move`.
* :func:`continuations`: the joseki moves from a corner position;
  :func:`corner_stones` reads a corner of a board in corner-relative coordinates.
  Of the board's 8 symmetries only the identity and the mirror along the diagonal
  keep a corner in place, so with corner-relative points those 2 are all that is left.

Encoding of one edge (depth-first; after an edge with has-child its child's edges
follow, then its next sibling)::

    byte 0: code << 2 | has_sibling << 1 | has_child
      code 0..61: table point, standard type, usual colour (the player to move)
      code 62:    typed table point, then a byte: type << 6 | table index, type one
                  of urgent, minor, tenuki OK, antisuji (the 4 common non-standard)
      code 63:    escape, then flags: bits 0-2 type, bit 3 full point, bit 4 colour
                  is not the player to move, bit 5 transposition pointer; then the
                  point byte (table index, or the full point x << 4 | y, 0xFF a pass);
                  then, with bit 5, the 2-byte big-endian offset of the edge that
                  first reached the child (whose edges are not repeated). Longest: 5.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np
from sgfmill import boards, sgf

from mctslab import data

__all__ = ["JOSEKI_FILES", "TYPES", "JosekiDag", "Continuation", "sgf_census", "build_dag",
           "load_joseki", "encode", "decode", "bytes_per_move", "continuations", "replay",
           "comment_type", "corner_stones", "CORNERS"]

JOSEKI_FILES = ("gogo", "hoshi_keima", "hoshi_other", "komoku", "mokuhazushi", "sansan",
                "takamoku")
TYPES = ("standard", "urgent", "minor", "trick", "tenuki_ok", "antisuji")
_TYPE_OF_CHAR = {"U": 1, "J": 0, "S": 0, "j": 2, "s": 2, "T": 3, "t": 4, "0": 5, "A": 5}
TABLE_SIZE = 62
TYPED, ESCAPE = 62, 63
SHORT_TYPES = (1, 2, 4, 5)          # the types a 2-byte TYPED entry can carry
PASS = -1
SIZE = 19


def comment_type(comment: str | None) -> int:
    """Edge type index (into TYPES) from an SGF comment's first character."""
    return _TYPE_OF_CHAR.get(comment[0], 0) if comment else 0


def _comment(node) -> str | None:
    return node.get("C") if node.has_property("C") else None


def _read(name: str):
    return sgf.Sgf_game.from_bytes(data.find(f"gnugo/joseki/{name}.sgf").read_bytes())


def sgf_census(name: str) -> dict:
    """Counts over one SGF file as in data/gnugo/README.md: nodes, moves, passes, leaves,
    pattern nodes (a move and an MA/SQ mark), moves with a sibling / a child, and the
    types of the pattern nodes."""
    c = Counter()
    types = Counter()
    stack = [_read(name).get_root()]
    while stack:
        node = stack.pop()
        c["nodes"] += 1
        colour, move = node.get_move()
        if colour is not None:
            c["moves" if move is not None else "passes"] += 1
        if move is not None:
            c["moves_with_sibling"] += node.parent is not None and len(node.parent) > 1
            c["moves_with_child"] += len(node) > 0
        if len(node) == 0:
            c["leaves"] += 1
        if colour is not None and move is not None and (node.has_property("MA")
                                                        or node.has_property("SQ")):
            c["patterns"] += 1
            types[TYPES[comment_type(_comment(node))]] += 1
        stack.extend(reversed(list(node)))
    return {**c, "types": dict(types)}


def pattern_node_types(name: str) -> list[int]:
    """Types of the pattern nodes of one file in SGF preorder (GNU Go's pattern order)."""
    out = []
    stack = [_read(name).get_root()]
    while stack:
        node = stack.pop()
        colour, move = node.get_move()
        if move is not None and (node.has_property("MA") or node.has_property("SQ")):
            out.append(comment_type(_comment(node)))
        stack.extend(reversed(list(node)))
    return out


# ---------------------------------------------------------------------------- the DAG
def _mirror(stones):
    return tuple(sorted((y, x, c) for x, y, c in stones))


def canonical(stones) -> tuple[tuple, bool]:
    """(canonical sorted stone tuple, True when it is the mirror image of ``stones``)."""
    s = tuple(sorted(stones))
    m = _mirror(s)
    return (m, True) if m < s else (s, False)


def _corner_stones(board: boards.Board) -> tuple:
    return tuple(sorted((SIZE - 1 - col, SIZE - 1 - row, colour)
                        for colour, (row, col) in board.list_occupied_points()))


@dataclass
class JosekiDag:
    """Struct of arrays: node n's edges are edge_start[n]:edge_start[n + 1]; edge e has
    point edge_x[e], edge_y[e] (-1, -1 for a pass) in its parent's canonical frame,
    edge_colour[e] ('b' 1, 'w' 2), edge_type[e] (index into TYPES), edge_child[e].
    Nodes are numbered in depth-first preorder from the root (node 0, the empty corner).
    ``positions[n]`` is (canonical stones, player to move) when known (built or replayed)."""

    edge_start: np.ndarray
    edge_x: np.ndarray
    edge_y: np.ndarray
    edge_colour: np.ndarray
    edge_type: np.ndarray
    edge_child: np.ndarray
    positions: list = field(default_factory=list, compare=False)
    type_conflicts: int = field(default=0, compare=False)

    @property
    def n_nodes(self) -> int:
        return len(self.edge_start) - 1

    @property
    def n_edges(self) -> int:
        return len(self.edge_child)

    def same(self, other: JosekiDag) -> bool:
        return all(np.array_equal(getattr(self, k), getattr(other, k))
                   for k in ("edge_start", "edge_x", "edge_y", "edge_colour", "edge_type",
                             "edge_child"))

    def stats(self) -> dict:
        children = np.diff(self.edge_start)
        parents = np.bincount(self.edge_child, minlength=self.n_nodes)
        return {"nodes": self.n_nodes, "edges": self.n_edges,
                "passes": int((self.edge_x < 0).sum()),
                "leaves": int((children == 0).sum()),
                "merged_nodes": int((parents > 1).sum()),
                "type_conflicts": self.type_conflicts}


def _from_lists(edges: list[list], positions: list, root: int = 0,
                type_conflicts: int = 0) -> JosekiDag:
    """Renumber nodes in depth-first preorder and pack the per-node edge lists."""
    order = _preorder(edges, root)
    new = {old: i for i, old in enumerate(order)}
    start, rows = [0], []
    for old in order:
        rows.extend(edges[old])
        start.append(len(rows))
    arr = np.array(rows, dtype=np.int32).reshape(-1, 5)
    return JosekiDag(np.array(start, np.int32), arr[:, 0].astype(np.int8),
                     arr[:, 1].astype(np.int8), arr[:, 2].astype(np.int8),
                     arr[:, 3].astype(np.int8),
                     np.array([new[c] for c in arr[:, 4]], np.int32),
                     [positions[o] for o in order] if positions else [], type_conflicts)


def _preorder(edges, root):
    """Nodes in the order the encoder first reaches them (recursive depth-first)."""
    order, seen = [], {root}

    def visit(n):
        order.append(n)
        for e in edges[n]:
            if e[4] not in seen:
                seen.add(e[4])
                visit(e[4])

    visit(root)
    return order


def build_dag(names=JOSEKI_FILES) -> JosekiDag:
    """Replay the joseki SGF trees into one DAG (see the module docstring)."""
    index: dict = {}
    positions: list = []
    edges: list[list] = []
    conflicts = 0

    def node_of(key):
        if key not in index:
            index[key] = len(positions)
            positions.append(key)
            edges.append([])
        return index[key]

    root = node_of(((), "b"))
    for name in names:
        stack = [(_read(name).get_root(), boards.Board(SIZE), root, False)]
        while stack:
            node, board, parent, mirrored = stack.pop()
            colour, move = node.get_move()
            if colour is not None:
                board = board.copy()
                if move is None:
                    x = y = PASS
                else:
                    board.play(move[0], move[1], colour)
                    x, y = SIZE - 1 - move[1], SIZE - 1 - move[0]
                    if mirrored:
                        x, y = y, x
                    stones = positions[parent][0]
                    if stones == _mirror(stones) and y < x:
                        x, y = y, x                  # symmetric parent: one of the two
                key, mirrored = canonical(_corner_stones(board))
                child = node_of((key, "w" if colour == "b" else "b"))
                # GNU Go gives a class only to pattern nodes (a move and an MA/SQ mark);
                # an unmarked move is standard (hoshi_keima's first move says C[0])
                marked = node.has_property("MA") or node.has_property("SQ")
                kind = comment_type(_comment(node)) if marked else 0
                same = [e for e in edges[parent] if e[:3] == [x, y, 1 if colour == "b" else 2]]
                if same:
                    assert same[0][4] == child
                    conflicts += same[0][3] != kind
                else:
                    edges[parent].append([x, y, 1 if colour == "b" else 2, kind, child])
                parent = child
            for ch in reversed(list(node)):
                stack.append((ch, board, parent, mirrored))
    return _from_lists(edges, positions, root, conflicts)


_DAG_CACHE: dict = {}


def load_joseki() -> JosekiDag:
    """The DAG of all 7 files (built once per process)."""
    if "all" not in _DAG_CACHE:
        _DAG_CACHE["all"] = build_dag()
    return _DAG_CACHE["all"]


# ---------------------------------------------------------------------------- encoding
def _point_byte(x: int, y: int) -> int:
    if x == PASS:
        return 0xFF
    if not (0 <= x < 16 and 0 <= y < 16):
        raise ValueError(f"joseki point ({x}, {y}) does not fit in 4 + 4 bits")
    return x << 4 | y


def point_table(dag: JosekiDag) -> list[tuple[int, int]]:
    """The 62 most frequent edge points (a pass counts as a point); ties by point."""
    freq = Counter(zip(dag.edge_x.tolist(), dag.edge_y.tolist()))
    return [pt for pt, _ in sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))][:TABLE_SIZE]


def encode(dag: JosekiDag, table: list | None = None) -> tuple[list, bytes]:
    """(point table, bytes): the compressed depth-first form (module docstring)."""
    table = point_table(dag) if table is None else table
    code_of = {pt: i for i, pt in enumerate(table)}
    out = bytearray()
    first_offset: dict[int, int] = {}
    to_move = np.ones(dag.n_nodes, np.int8)          # the root: black to move
    for n in range(dag.n_nodes):
        for e in range(dag.edge_start[n], dag.edge_start[n + 1]):
            to_move[dag.edge_child[e]] = 3 - dag.edge_colour[e]

    def emit(n):
        lo, hi = int(dag.edge_start[n]), int(dag.edge_start[n + 1])
        for e in range(lo, hi):
            child = int(dag.edge_child[e])
            first = child not in first_offset
            pointer = not first
            has_child = first and dag.edge_start[child + 1] > dag.edge_start[child]
            here = len(out)
            if first:
                first_offset[child] = here
            pt = (int(dag.edge_x[e]), int(dag.edge_y[e]))
            kind = int(dag.edge_type[e])
            odd_colour = dag.edge_colour[e] != to_move[n]
            links = (e < hi - 1) << 1 | int(has_child)
            plain = pt in code_of and not odd_colour and not pointer
            if plain and kind == 0:
                out.append(code_of[pt] << 2 | links)
            elif plain and kind in SHORT_TYPES:
                out.extend((TYPED << 2 | links, SHORT_TYPES.index(kind) << 6 | code_of[pt]))
            else:
                full = pt not in code_of
                flags = kind | full << 3 | int(odd_colour) << 4 | pointer << 5
                out.extend((ESCAPE << 2 | links, flags,
                            _point_byte(*pt) if full else code_of[pt]))
                if pointer:
                    out.extend(first_offset[child].to_bytes(2, "big"))
            if has_child:
                emit(child)

    emit(0)
    if len(out) >= 1 << 16:
        raise ValueError(f"encoded joseki DAG is {len(out)} bytes: 2-byte pointers overflow")
    return table, bytes(out)


def _read_entry(table: list, payload: bytes, pos: int, colour: int) -> tuple:
    """The edge at offset ``pos`` as :func:`encode` wrote it: ``(point, kind, colour, pointer,
    has_sibling, has_child, next offset)``; ``colour`` comes in as the colour its node's side to
    move plays (an escape entry may flip it), ``pointer`` is the offset of the edge whose child
    this edge shares (None: a new node)."""
    b0 = payload[pos]
    code, has_sib, has_child = b0 >> 2, (b0 >> 1) & 1, b0 & 1
    pos += 1
    kind, pointer = 0, None
    if code < TYPED:
        pt = table[code]
    elif code == TYPED:
        kind = SHORT_TYPES[payload[pos] >> 6]
        pt = table[payload[pos] & 63]
        pos += 1
    else:
        flags, pb = payload[pos], payload[pos + 1]
        pos += 2
        kind = flags & 7
        pt = ((PASS, PASS) if pb == 0xFF else (pb >> 4, pb & 15)) if flags & 8 else table[pb]
        if flags & 16:
            colour = 3 - colour
        if flags & 32:
            pointer = int.from_bytes(payload[pos:pos + 2], "big")
            pos += 2
    return pt, kind, colour, pointer, has_sib, has_child, pos


def decode(table: list, payload: bytes) -> JosekiDag:
    """Inverse of :func:`encode` (positions not rebuilt: see :func:`replay`)."""
    edges: list[list] = [[]]
    node_at: dict[int, int] = {}
    to_move = [1]
    pos = 0

    def read(n):
        nonlocal pos
        while True:
            here = pos
            pt, kind, colour, pointer, has_sib, has_child, pos = _read_entry(
                table, payload, pos, to_move[n])
            if pointer is None:
                child = len(edges)
                edges.append([])
                to_move.append(3 - colour)
                node_at[here] = child
            else:
                child = node_at[pointer]
            edges[n].append([pt[0], pt[1], colour, kind, child])
            if has_child:
                read(child)
            if not has_sib:
                return

    try:
        if payload:
            read(0)
    except IndexError:
        raise ValueError(f"joseki payload is truncated ({len(payload)} bytes)") from None
    except KeyError as err:
        raise ValueError(f"joseki payload: pointer {err} is not the offset of an edge") from None
    if pos != len(payload):
        raise ValueError(f"joseki payload has {len(payload) - pos} bytes after the last edge")
    return _from_lists(edges, [])


def bytes_per_move(dag: JosekiDag | None = None) -> dict:
    """Measured size of the compressed form, per DAG edge and per SGF move (pass
    included); the table (one byte per point) separately; and the same without the
    edge types (every edge standard), the paper's form having no room for them."""
    dag = load_joseki() if dag is None else dag
    sgf_moves = sum(c.get("moves", 0) + c.get("passes", 0)
                    for c in (sgf_census(n) for n in JOSEKI_FILES))
    untyped = JosekiDag(dag.edge_start, dag.edge_x, dag.edge_y, dag.edge_colour,
                        np.zeros_like(dag.edge_type), dag.edge_child)
    out = {"edges": dag.n_edges, "sgf_moves": sgf_moves}
    for label, d in (("", dag), ("untyped_", untyped)):
        table, payload = encode(d)
        out[label + "bytes"] = len(payload)
        out[label + "bytes_per_edge"] = len(payload) / dag.n_edges
        out[label + "bytes_per_sgf_move"] = len(payload) / sgf_moves
        out[label + "entry_sizes"] = dict(sorted(Counter(_entry_sizes(payload)).items()))
    out["table_bytes"] = len(table)
    out["bytes_per_edge_with_table"] = (out["bytes"] + len(table)) / dag.n_edges
    return out


def _entry_sizes(payload: bytes) -> list[int]:
    sizes, pos = [], 0
    while pos < len(payload):
        code = payload[pos] >> 2
        size = 1 if code < TYPED else 2 if code == TYPED else 3 + 2 * bool(payload[pos + 1] & 32)
        sizes.append(size)
        pos += size
    return sizes


# ---------------------------------------------------------------------------- lookup
def _play(stones: tuple, x: int, y: int, colour: str) -> tuple:
    board = boards.Board(SIZE)
    for sx, sy, c in stones:
        board.play(SIZE - 1 - sy, SIZE - 1 - sx, c)
    if x != PASS:
        board.play(SIZE - 1 - y, SIZE - 1 - x, colour)
    return _corner_stones(board)


def replay(dag: JosekiDag) -> list:
    """Positions of every node, rebuilt by playing the edges' moves from the empty corner
    (captures included); checks that every edge into a node gives the same position."""
    positions: list = [None] * dag.n_nodes
    positions[0] = ((), "b")
    for n in range(dag.n_nodes):                     # preorder: parents come first
        stones = positions[n][0]
        for e in range(dag.edge_start[n], dag.edge_start[n + 1]):
            colour = "b" if dag.edge_colour[e] == 1 else "w"
            key = (canonical(_play(stones, int(dag.edge_x[e]), int(dag.edge_y[e]), colour))[0],
                   "w" if colour == "b" else "b")
            child = int(dag.edge_child[e])
            if positions[child] is None:
                positions[child] = key
            elif positions[child] != key:
                raise ValueError(f"node {child}: edge {e} gives another position")
    return positions


@dataclass(frozen=True)
class Continuation:
    """A joseki move: corner-relative (x, y) in the caller's frame (None: tenuki),
    colour 'b' / 'w' (in the caller's colours), type (one of TYPES)."""

    point: tuple[int, int] | None
    colour: str
    type: str


def continuations(stones, to_move: str | None = None, dag: JosekiDag | None = None,
                  swap_colours: bool = True) -> list[Continuation]:
    """Joseki moves from a corner position.

    ``stones``: (x, y, colour) with x, y lines from the right and top edges (0-based)
    and colour 'b'/'w', black being the player who started the joseki. ``to_move``
    (None: either). With ``swap_colours``, a position found only with the colours
    exchanged (a joseki started by white) is answered in the caller's colours."""
    dag = load_joseki() if dag is None else dag
    index = _index(dag)
    swap = {"b": "w", "w": "b"}
    out = []
    for swapped in (False, True) if swap_colours else (False,):
        st = [(x, y, swap[c] if swapped else c) for x, y, c in stones]
        key, mirrored = canonical(st)
        for tm in ("b", "w"):
            if to_move is not None and tm != (swap[to_move] if swapped else to_move):
                continue
            n = index.get((key, tm))
            if n is None:
                continue
            symmetric = key == _mirror(key)
            for e in range(dag.edge_start[n], dag.edge_start[n + 1]):
                x, y = int(dag.edge_x[e]), int(dag.edge_y[e])
                colour = "b" if dag.edge_colour[e] == 1 else "w"
                colour = swap[colour] if swapped else colour
                kind = TYPES[int(dag.edge_type[e])]
                if x == PASS:
                    out.append(Continuation(None, colour, kind))
                    continue
                pts = {(x, y), (y, x)} if symmetric else {(y, x) if mirrored else (x, y)}
                out.extend(Continuation(pt, colour, kind) for pt in sorted(pts))
        if out:
            break
    return out


CORNERS = ("ur", "ul", "lr", "ll")


def corner_stones(board, corner: str, extent: int = 12) -> list[tuple[int, int, str]]:
    """Stones of an int8 board (row 0 at the top; 1 black, 2 white) within ``extent``
    lines of a corner ('ur', 'ul', 'lr', 'll'), as corner-relative (x, y, colour) for
    :func:`continuations` (x counts lines from the corner's side edge, y from its
    top/bottom edge). The joseki files reach 11 lines out, hence extent 12; on 19x19
    the regions of neighbouring corners then overlap, so pass a smaller extent to keep
    a neighbouring corner's stones out."""
    if corner not in CORNERS:
        raise ValueError(f"corner must be one of {CORNERS}, not {corner!r}")
    b = np.asarray(board)
    n = b.shape[0]
    out = []
    for row, col in zip(*np.nonzero(b)):
        x = n - 1 - col if corner[1] == "r" else col
        y = row if corner[0] == "u" else n - 1 - row
        if x < extent and y < extent:
            out.append((int(x), int(y), "b" if b[row, col] == 1 else "w"))
    return sorted(out)


def _index(dag: JosekiDag) -> dict:
    if not hasattr(dag, "_index_cache"):
        positions = dag.positions or replay(dag)
        dag._index_cache = {key: n for n, key in enumerate(positions)}
    return dag._index_cache
