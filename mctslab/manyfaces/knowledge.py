"""Many Faces of Go's dynamic knowledge on top of :class:`mctslab.go.api.Board` (Fotland 1993).

One :class:`Knowledge` wraps one board (shared: it is the board, never a copy) and keeps the
paper's three update levels:

1. **Incremental, per stone** (:meth:`Knowledge.play`): strings, pseudo-liberties and
   stone rings are the Go board's own (:mod:`mctslab.go._board`); on top, neighbour
   counts per point and the connection rays (``_knowledge.update_neighbours`` /
   ``update_rays``: only points whose neighbours or rays pass a changed point).
2. **On demand, for what changed**: :meth:`connections` (connection points from the
   incremental rays; their aggregation per pair of strings is one njit pass over the whole
   board, cheaper than tracking which pairs a move touched), :meth:`eye_spaces` (regions
   are relabelled in one pass; eye values are memoised per shape, so only new shapes are
   analysed), :meth:`tactical` (string status). Each is computed at most once per position.
3. **Whole board, after each move** (:meth:`evaluate`): groups and their strength, then
   influence and the territory estimate.

Connections (between two strings A, B of one colour)
----------------------------------------------------
The paper: "counts and point lists at distance 1, 2, 3 (liberties from which a straight
line reaches another same-coloured string within 1-3 points)". Ours: a **connection point**
is a liberty L of A from which a straight line through empty points reaches a stone of B
at distance k = 1, 2 or 3 (k = 1: L is a liberty of both). ``n1, n2, n3`` count distinct
points by their smallest k.

Type: the relation of the stones a (next to L) and q (reached), among the records of the
smallest k: **hane** - a and q diagonal (k = 1 through a shared liberty: the paper's word
for the diagonal link; "kosumi" in most books); **one-point jump** - a, L, q on a line
(k = 1); **two-point jump** (k = 2) and **three-point jump** (k = 3) likewise; **knight**
- a, q a knight's move apart (1, 2) with both straight links open (from A's side and from
B's side); **half knight** - only one of them open (the other point or path is held by the
opponent or is off the board); **large knight** / **half large knight** - the same for
(1, 3); **multiple** - several different types at the smallest k.

Strength (our precise reading of "already cut, cuttable, shared (whoever plays first),
connected with aji, solidly connected"): **solid** - two or more distinct distance-1
points (a cut needs two moves); **aji** - exactly one, and the opponent cannot play it
without being captured at once (``_knowledge.safe_for``); **contested** (the paper's
"shared connection") - exactly one, and the opponent can play it: whoever plays first
connects or cuts; **cuttable** - only distance-2/3 points (the opponent can cut; we need
a move to connect); **cut** - no connection point left and a diagonal whose two crossing
points, or a one-point jump whose middle, the opponent holds.

Tactical status (a liberty-count reader, no ladders): **captured** - in atari and neither
extending on the last liberty (to two or more liberties, counting the liberties of the
strings it joins) nor capturing an adjacent string in atari saves it; **threatened** - in
atari otherwise; **safe** - two or more liberties.

Groups: strings joined by strong connections - those one move connects: contested, aji or
solid (a one-point jump is contested unless the opponent cannot play between) - and by sharing an
eye space. Per group:
distinct liberties, escape points (liberties with two or more empty neighbours and no
enemy neighbour, by what their rays meet first: friend, enemy, open), eyes (sum of its
eye spaces' typ eighths; a region of 11 to ``BIG_REGION_MAX`` (80) points bounded by the
group's colour only, at most an eighth of it opponent stones, counts 16), eye
potential in eighths (vital point gains max - typ over its spaces, 8 per adjacent enemy
string captured or threatened up to 16, 4 per cuttable link to another group up
to 8, 2 per escape point up to 16) and a strength class: **alive** (eyes >= 16),
**strong** (eyes + potential >= 24), **unsettled** (>= 12), **weak** (>= 4, or five or
more liberties), **dead** (below, or every string captured).

Influence: each stone radiates ``STRENGTH_VALUE[class]`` / d (d = path length through
empty points; stones block, connections do not: the paper's blocking by connections is left
out); dead stones radiate for the other side. Per empty point
``field = (B - W) / (B + W + INFLUENCE_DAMPING)`` in (-1, 1); stones get +1 / -1 (dead
stones the other side's). Territory estimate (area counting): points with field >=
``TERRITORY_THRESHOLD`` are Black's, <= -threshold White's; Black minus White minus komi.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from mctslab.go import BORDER, EMPTY, I_NUM_EMPTY, atari_liberty, full_hash
from mctslab.go.api import BLACK, WHITE, Board
from mctslab.manyfaces import _knowledge as kk
from mctslab.manyfaces import eyes as eyes_module
from mctslab.manyfaces import groups as groups_module
from mctslab.manyfaces.groups import BIG_REGION_EIGHTHS, Group  # noqa: F401 (re-exported)

__all__ = ["Knowledge", "Connection", "EyeSpace", "Group", "CONNECTION_TYPES",
           "CONNECTION_STRENGTHS", "STRENGTH_CLASSES", "STRENGTH_VALUE", "check",
           "replay", "InfluenceField", "influence_field", "ENCLOSED_CENTRE_LIMIT",
           "PATTERN_MATCHING"]

CONNECTION_TYPES = ("hane", "one_point_jump", "half_knight", "knight", "two_point_jump",
                    "half_large_knight", "large_knight", "three_point_jump", "multiple")
CONNECTION_STRENGTHS = ("cut", "cuttable", "contested", "aji", "solid")
STRENGTH_CLASSES = ("dead", "weak", "unsettled", "strong", "alive")
#: initial influence of a stone by its group's class (dead: radiates for the other side)
STRENGTH_VALUE = {"alive": 1.0, "strong": 0.85, "unsettled": 0.6, "weak": 0.35, "dead": -0.5}
INFLUENCE_DAMPING = 1.0
#: the 1/d field's limit at the centre of a large enclosed square (:func:`enclosed_field`, Manhattan
#: distances, a square wall): 8 ln 2
ENCLOSED_CENTRE_LIMIT = 8 * math.log(2)
TERRITORY_THRESHOLD = 0.5
BIG_REGION_MAX = 80
SECONDS_OF = {"string_libs": "liberties"}
COMPONENTS = ("board", "incremental", "liberties", "connections", "eyes", "tactical",
              "groups", "influence")
#: the time shares' component beside :data:`COMPONENTS`: the pattern matcher's updates
PATTERN_MATCHING = "pattern matching"


@dataclass(frozen=True)
class Connection:
    a: int                    # string ids (kernel points)
    b: int
    color: int
    type: str
    strength: str
    n1: int
    n2: int
    n3: int
    point: int                # the single distance-1 point, or -1


@dataclass(frozen=True)
class EyeSpace:
    owner: int
    points: tuple             # kernel points
    dead: tuple               # kernel points holding opponent stones
    type: str
    value: eyes_module.EyeValue
    vital: tuple              # kernel points

    @property
    def eighths(self) -> tuple[int, int, int]:
        return self.value.eighths


class Knowledge:
    """The knowledge structures of one board (``board`` is shared, not copied)."""

    def __init__(self, board: Board | None = None, size: int = 19, *, evaluate: bool = True,
                 influence_power: float = 1.0):
        self.board = Board(size) if board is None else board
        self.auto_evaluate = evaluate
        self.influence_power = float(influence_power)
        st = self.board.state
        P = st.color.shape[0]
        self.w = self.board.size + 2
        self.nb = np.zeros((P, 3), np.int8)
        self.ray = np.zeros((P, 4), np.int16)
        self.ray_len = np.zeros((P, 4), np.int8)
        self._rec = np.zeros((16 * P, 5), np.int32)
        self._cut = np.zeros((4 * P, 3), np.int32)
        self._conn = np.zeros((16 * P + 4 * P, 8), np.int32)
        self._mark = np.zeros(P, np.int32)
        self._stack = np.zeros(P, np.int32)
        self._label = np.zeros((2, P), np.int32)
        self._sizes = np.zeros((2, P), np.int32)
        self._libs = np.zeros((4, P), np.int32)
        self._changed = np.zeros(P, np.int32)
        self._dist = np.zeros(P, np.int32)
        self._queue = np.zeros(P, np.int32)
        self._value = np.zeros(P, np.float64)
        self.black = np.zeros(P, np.float64)
        self.white = np.zeros(P, np.float64)
        self.field = np.zeros(P, np.float64)
        self.seconds = dict.fromkeys(COMPONENTS, 0.0)
        self.ray_updates = 0
        self._cache: dict = {}
        self._inner = 0.0
        self.rebuild()

    # --- level 1: incremental ----------------------------------------------------------
    def rebuild(self) -> None:
        """Recompute the incremental structures from the stones (after a setup)."""
        st = self.board.state
        kk.neighbour_counts(st.color, self.w, self.nb)
        kk.all_rays(st.color, self.w, self.ray, self.ray_len)
        self._cache.clear()
        if self.auto_evaluate:
            self.evaluate()

    def play(self, color: int, move) -> list:
        """Play on the shared board and update every level; returns the captured points."""
        t0 = time.perf_counter()
        captured = self.board.play(color, move)
        t1 = time.perf_counter()
        self.seconds["board"] += t1 - t0
        if move is not None:
            st = self.board.state
            n = 1 + len(captured)
            self._changed[0] = self.board.point(move)
            for i, m in enumerate(captured):
                self._changed[1 + i] = self.board.point(m)
            kk.update_neighbours(st.color, self.w, self._changed, n, self.nb)
            self.ray_updates += kk.update_rays(st.color, self.w, self._changed, n, self.ray,
                                               self.ray_len)
        self.seconds["incremental"] += time.perf_counter() - t1
        self._cache.clear()
        if self.auto_evaluate:
            self.evaluate()
        return captured

    # --- level 2: on demand ------------------------------------------------------------
    def _timed(self, name, fn):
        """Compute once per position; ``seconds`` gets the time exclusive of nested parts."""
        if name not in self._cache:
            outer, self._inner = self._inner, 0.0
            t0 = time.perf_counter()
            self._cache[name] = fn()
            elapsed = time.perf_counter() - t0
            self.seconds[SECONDS_OF.get(name, name)] += elapsed - self._inner
            self._inner = outer + elapsed
        return self._cache[name]

    def string_liberties(self) -> np.ndarray:
        """Distinct liberties per string id (int32[P])."""
        return self._timed("string_libs", self._string_libs)

    def _string_libs(self):
        st = self.board.state
        libs = self._libs
        kk.id_liberties(st.color, self.w, st.group, self.ray, libs[0], libs[1], libs[2],
                        libs[3])
        return libs[0].copy()

    def connection_array(self) -> np.ndarray:
        """int32[n, 8]: string a, string b, type, strength, n1, n2, n3, single point."""
        return self._timed("connections", self._connections)

    def _connections(self, ray=None, ray_len=None):
        st = self.board.state
        ray = self.ray if ray is None else ray
        ray_len = self.ray_len if ray_len is None else ray_len
        n = kk.connection_records(st.color, st.group, self.w, ray, ray_len, self._rec)
        m = kk.cut_records(st.color, st.group, self.w, self._cut)
        k = kk.aggregate_connections(self._rec, n, self._cut, m, st.color, st.group, self.w,
                                     self.string_liberties(), self._mark, self._conn)
        return self._conn[:k].copy()

    def connections(self) -> list[Connection]:
        color = self.board.state.color
        return [Connection(int(r[0]), int(r[1]), int(color[r[0]]), CONNECTION_TYPES[r[2]],
                           CONNECTION_STRENGTHS[r[3]], int(r[4]), int(r[5]), int(r[6]),
                           int(r[7])) for r in self.connection_array()]

    def eye_spaces(self) -> list[EyeSpace]:
        return self._timed("eyes", self._eye_spaces)

    def _regions(self):
        st = self.board.state
        counts = []
        for i, owner in enumerate((BLACK, WHITE)):
            counts.append(kk.eye_regions(st.color, self.w, owner, eyes_module.MAX_EYE,
                                         self._label[i], self._sizes[i], self._stack))
        return counts

    def _eye_spaces(self):
        st = self.board.state
        color = st.color
        counts = self._regions()
        self._big = {BLACK: [], WHITE: []}
        out = []
        for i, owner in enumerate((BLACK, WHITE)):
            label, sizes = self._label[i], self._sizes[i][:counts[i]]
            small = np.nonzero((label >= 0) & (sizes[np.maximum(label, 0)] <= eyes_module.MAX_EYE))[0]
            order = np.argsort(label[small], kind="stable")
            pts = small[order]
            labs = label[pts]
            bounds = np.flatnonzero(np.diff(labs)) + 1
            for region in np.split(pts, bounds) if len(pts) else []:
                out.append(self._eye_space(owner, region, color))
            # enclosed areas bigger than an eye space (up to BIG_REGION_MAX points, at most
            # an eighth of them opponent stones): territory, two eyes
            for r in np.nonzero((sizes > eyes_module.MAX_EYE) & (sizes <= BIG_REGION_MAX))[0]:
                members = np.nonzero(label == r)[0]
                if 8 * (color[members] == 3 - owner).sum() <= len(members):
                    self._big[owner].append(members)
        return out

    def _eye_space(self, owner, region, color):
        w = self.w
        points = tuple(int(p) for p in region)
        dead = tuple(p for p in points if color[p] != EMPTY)
        rc = [divmod(p, w) for p in points]
        diag = None
        if len(points) == 1 and not dead:
            p = points[0]
            bad = empty = 0
            edge = False
            libs = self.string_liberties()
            for q in (p + w + 1, p + w - 1, p - w + 1, p - w - 1):
                c = color[q]
                if c == BORDER:
                    edge = True
                elif c == 3 - owner:
                    bad += 1
                elif c == EMPTY and kk.safe_for(color, self.board.state.group, w, libs, q,
                                                    3 - owner):
                    empty += 1
            diag = (bad, empty, edge)
        value = eyes_module.eye_value(rc, [divmod(p, w) for p in dead], diag)
        vital = tuple(r * w + c for r, c in value.vital)
        return EyeSpace(owner, points, dead, eyes_module.shape_type(rc, dead), value, vital)

    def tactical(self) -> dict[int, str]:
        """Status of every string id: captured, threatened or safe (see the module doc)."""
        return self._timed("tactical", self._tactical)

    def _tactical(self):
        st = self.board.state
        color, group, w = st.color, st.group, self.w
        libs = self.string_liberties()
        out = {}
        ids = np.unique(group[(color == BLACK) | (color == WHITE)])
        for g in ids:
            g = int(g)
            if libs[g] >= 2:
                out[g] = "safe"
                continue
            c = int(color[g])
            lib = int(atari_liberty(st, g))
            saved = False
            s = g
            while True:      # capture an adjacent string in atari
                for q in (s + 1, s - 1, s + w, s - w):
                    if color[q] == 3 - c and libs[group[q]] == 1:
                        saved = True
                s = int(st.next_stone[s])
                if s == g or saved:
                    break
            if not saved and lib > 0:
                gain = 0
                seen = set()
                for q in (lib + 1, lib - 1, lib + w, lib - w):
                    if color[q] == EMPTY:
                        gain += 1
                    elif color[q] == c and group[q] not in seen:
                        seen.add(group[q])
                        gain += libs[group[q]] - 1
                saved = gain >= 2
            out[g] = "threatened" if saved else "captured"
        return out

    # --- level 3: whole board ----------------------------------------------------------
    def evaluate(self) -> None:
        """Groups and strength, then influence and territory (the whole-board level)."""
        self.groups()
        self.influence()

    def groups(self) -> list[Group]:
        return self._timed("groups", self._groups)

    def _groups(self):
        out, self._group_of = groups_module.analyse(self)
        return out

    def influence(self) -> np.ndarray:
        """The field in (-1, 1) per kernel point (see the module docstring)."""
        return self._timed("influence", self._influence)

    def _influence(self):
        st = self.board.state
        color, group = st.color, st.group
        self.groups()
        value = self._value
        value[:] = 0.0
        stones = np.nonzero((color == BLACK) | (color == WHITE))[0]
        sign = np.where(color[stones] == BLACK, 1.0, -1.0)
        strength = np.array([STRENGTH_VALUE[self._group_of[int(g)].strength]
                             for g in group[stones]])
        value[stones] = sign * strength
        kk.influence(color, self.w, value, self.influence_power, self.black, self.white,
                     self._dist, self._queue)
        field = self.field
        field[:] = (self.black - self.white) / (self.black + self.white + INFLUENCE_DAMPING)
        field[stones] = np.sign(value[stones])
        field[color == BORDER] = 0.0
        return field

    def territory(self) -> dict:
        """Area estimate from the influence field: points per side and Black - White - komi."""
        field = self.influence()
        on = self.board.state.color != BORDER
        b = int(((field >= TERRITORY_THRESHOLD) & on).sum())
        wt = int(((field <= -TERRITORY_THRESHOLD) & on).sum())
        return {"black": b, "white": wt, "neutral": int(on.sum()) - b - wt,
                "estimate": b - wt - self.board.komi}

    def field_grid(self) -> np.ndarray:
        """The influence field as float[size, size], indexed [row, col] (row 0 = bottom)."""
        return self.influence().reshape(self.w, self.w)[1:-1, 1:-1].copy()


def check(know: Knowledge) -> list[str]:
    """The consistency checker: the incrementally maintained data against a from-scratch
    recomputation (the Go board's strings, stone rings, pseudo-liberties, empty list and
    hash; neighbour counts; rays; the connections built from them; memoised eye values).
    Returns one line per mismatch (empty when consistent)."""
    st = know.board.state
    bad = []
    code = kk.check_strings(st.color, st.group, st.next_stone, st.stones, st.libs,
                            st.lib_sum, st.lib_sumsq, st.empty, st.empty_index,
                            int(st.info[I_NUM_EMPTY]), know.w, know._mark, know._stack)
    if code != 0:
        bad.append(f"strings/empty list: first bad point {code}")
    if int(full_hash(st)) != int(st.hash[0]):
        bad.append("Zobrist hash")
    nb = np.zeros_like(know.nb)
    kk.neighbour_counts(st.color, know.w, nb)
    if not np.array_equal(nb, know.nb):
        bad.append(f"neighbour counts at {np.nonzero((nb != know.nb).any(axis=1))[0].tolist()}")
    ray = np.zeros_like(know.ray)
    ray_len = np.zeros_like(know.ray_len)
    kk.all_rays(st.color, know.w, ray, ray_len)
    if not (np.array_equal(ray, know.ray) and np.array_equal(ray_len, know.ray_len)):
        bad.append(f"rays at {np.nonzero((ray != know.ray).any(axis=1))[0].tolist()}")
    fresh = know._connections(ray, ray_len)
    if not np.array_equal(fresh, know.connection_array()):
        bad.append("connections")
    for sp in know.eye_spaces():
        if len(sp.points) > 1 or sp.dead:
            w = know.w
            pts = [divmod(p, w) for p in sp.points]
            r0, c0 = min(r for r, _ in pts), min(c for _, c in pts)
            v = eyes_module._value.__wrapped__(
                frozenset((r - r0, c - c0) for r, c in pts),
                frozenset((r - r0, c - c0) for r, c in (divmod(p, w) for p in sp.dead)))
            if v.digits != sp.value.digits:
                bad.append(f"eye value at {sp.points}")
    return bad


def replay(moves, size: int = 19, *, check_every: int = 0, evaluate: bool = True):
    """Replay ``moves`` ((colour, (row, col) | None)) with every structure maintained; with
    ``check_every`` = k > 0 run :func:`check` after every k-th move. Returns
    (knowledge, list of (move number, mismatch lines))."""
    know = Knowledge(size=size, evaluate=evaluate)
    problems = []
    for i, (color, move) in enumerate(moves, start=1):
        know.play(color, move)
        if check_every and i % check_every == 0:
            found = check(know)
            if found:
                problems.append((i, found))
    return know, problems


def enclosed_field(side: int, power: float = 1.0) -> np.ndarray:
    """The raw influence sum B (value 1 per stone, decay 1/d**power) inside an empty
    ``side`` x ``side`` square enclosed by a one-stone-thick black wall (the first line of a
    (side + 2)-board, side 3..23): float[side, side]. The paper's claim is that with
    power 1 this field is the same inside any enclosed area, whatever its size."""
    size = side + 2
    if not 5 <= size <= 25:
        raise ValueError(f"side must be 3..23, got {side!r}")
    board = Board(size)
    for i in range(size):
        for p in {(0, i), (size - 1, i), (i, 0), (i, size - 1)}:
            if board.get(*p) == 0:
                board.play(BLACK, p)
    st = board.state
    w = size + 2
    value = (st.color == BLACK).astype(np.float64)
    black = np.zeros(len(value))
    white = np.zeros(len(value))
    scratch = np.zeros(len(value), np.int32)
    kk.influence(st.color, w, value, float(power), black, white, scratch,
                 np.zeros(len(value), np.int32))
    return black.reshape(w, w)[2:-2, 2:-2].copy()


@dataclass(frozen=True)
class InfluenceField:
    """One position's influence field, what the influence figures draw."""

    game: str              # the game (a path under go-games, or an SGF's name)
    move: int              # moves played
    field: np.ndarray      # float[size, size]: (B - W) / (B + W + 1), indexed [row, col]
    stones: np.ndarray     # int8[size, size]: 0 empty, 1 black, 2 white
    estimate: float        # territory estimate B - W - komi (Knowledge.territory)


def influence_field(know: Knowledge, game: str, move: int) -> InfluenceField:
    """The influence field of ``know``'s position (``move`` moves into ``game``), its stones
    and its territory estimate."""
    return InfluenceField(game, move, know.field_grid(), know.board.stones(),
                          know.territory()["estimate"])
