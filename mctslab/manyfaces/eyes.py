"""Eye shapes (Fotland 1993, "Eye shape"): points, vital points, type, min/typ/max eyes.

An **eye space** of colour c is a region of at most :data:`MAX_EYE` points, 4-connected,
made of empty points and opponent stones, bounded only by c's stones and the edge (found
by :func:`mctslab.manyfaces._knowledge.eye_regions`). Opponent stones inside are taken
as dead (they sit in a space too small to live); such a space is a *dead-group eye*.

Eye value: our reading of "classify first, then analyse" is a small local game on the
space (:func:`eye_value`), not a lookup of GNU Go's database; the database is what we
check it against (:func:`compare_with_db`). The owner (defender) plays a point to fill it;
the opponent (attacker) plays a point to occupy it (a move whose stones would have no
empty point left in the space is suicide and not allowed); a defender move that takes
an attacker group's last empty point captures it (the points are empty again). When play
stops, the space gives one eye per 4-connected piece left after removing the defender's
stones (attacker stones inside a piece are captured later), capped at 2. The four
GNU Go digits (``eyes.db``) are then: a = attacker moves, attacker moves again, defender
answers; b = attacker moves, defender answers; c = defender moves, attacker answers;
d = defender moves twice (either side may pass). Fotland's counts in **eighths**:
``min = 8a`` (the opponent moves twice), ``typ = 4 (b + c)`` (half way between who moves
first: a half eye 0011 is 4), ``max = 8c`` (the owner moves first). GNU Go's ``eval_eye``
prints ``b c`` (its min_eyes / max_eyes), which is what
:func:`mctslab.manyfaces.regression.agreement` compares.

Marginal points (GNU Go's ``!@()$``, optional: ``eye_value(..., marginal=...)``; the
eye spaces of :mod:`mctslab.manyfaces.knowledge` do not produce them yet, so the default
reading is unchanged): points of the space that touch the opponent's outside. An attacker
stone on one is connected out: always legal, never captured, and it needs no answer; a
piece of the space keeping an empty marginal point, or touching such a stone, is no eye
until the defender fills the margin. When play stops, every piece left that is smaller
than the space is valued by its own local game (``b`` when the attacker moves next, ``c``
when the defender does) instead of counting one eye: GNU Go's digits count play to the
end (a straight four behind a filled margin is two eyes), which the two-move game alone
misses. On eyes.db's 1,410 marginal shapes this reading gives GNU Go's b c on 983 (all
four digits on 794); reading the marginal points as ordinary ones gives 316 (100).

Vital points: when b < c, the defender's first moves that reach c (the attacker's
killing points are the same points in every shape of up to 6 points).

A single-point space is judged by its diagonals too (false eyes, GNU Go's topology in
halves): an opponent stone on a diagonal counts 2, an empty diagonal the opponent could
play without being captured at once counts 1; in the middle a total of 4 makes the eye
false (0000) and 3 a half eye (0011); at the edge (and in the corner) 2 and 1.

Types (Fotland's list): ``single`` (1 point), ``two`` (2 points), ``line`` (3 or more
points in a chain, each with at most 2 neighbours in the space: Fotland's closed line
eye; his open-ended line eyes are potential eyes in open areas, which this closed-space
definition does not produce), ``big`` (any other shape), ``dead_group`` (holds opponent
stones).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from mctslab import data

__all__ = ["MAX_EYE", "EyeValue", "eye_value", "shape_type", "parse_eyes_db", "DbShape",
           "compare_with_db"]

MAX_EYE = 10
TYPES = ("single", "two", "line", "big", "dead_group")


@dataclass(frozen=True)
class EyeValue:
    a: int
    b: int
    c: int
    d: int
    vital: tuple = ()          # points (as given) that are vital

    @property
    def digits(self) -> str:
        return f"{self.a}{self.b}{self.c}{self.d}"

    @property
    def eighths(self) -> tuple[int, int, int]:
        """(min, typ, max) in eighths of an eye."""
        return 8 * self.a, 4 * (self.b + self.c), 8 * self.c


def _pieces(points: frozenset, removed: frozenset) -> int:
    """4-connected pieces of ``points - removed`` (points are (row, col))."""
    left = set(points - removed)
    n = 0
    while left:
        n += 1
        stack = [left.pop()]
        while stack:
            r, c = stack.pop()
            for q in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if q in left:
                    left.remove(q)
                    stack.append(q)
    return n


def _group_of(p, stones: frozenset) -> set:
    out, stack = {p}, [p]
    while stack:
        r, c = stack.pop()
        for q in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if q in stones and q not in out:
                out.add(q)
                stack.append(q)
    return out


def _has_liberty(group: set, empty: frozenset) -> bool:
    return any(q in empty for r, c in group for q in ((r + 1, c), (r - 1, c), (r, c + 1),
                                                      (r, c - 1)))


class _Game:
    """The local game on a space. ``marginal`` points (GNU Go's ``!@()$``) touch the
    opponent's outside: an attacker group holding one is connected out, so it is never
    captured and needs no empty point of the space (``marginal_rule`` "safe"), and a piece
    of the space keeping an empty marginal point, or touching such an attacker group, is
    no eye (the attacker can walk in)."""

    def __init__(self, points: frozenset, marginal: frozenset = frozenset()):
        self.points = points
        self.marginal = marginal

    def _outside(self, group) -> bool:
        return bool(self.marginal) and any(q in self.marginal for q in group)

    def static(self, dfn: frozenset, att: frozenset = frozenset(),
               defender_next: bool = False) -> int:
        if not self.marginal:
            return min(2, _pieces(self.points, dfn))
        # with marginal points, each piece left is valued by its own local game (the side
        # to move next moves first there): b when the attacker is next, c when the
        # defender is; the untouched whole space counts 1 unless a margin is open
        safe = {q for s in att if s in self.marginal for q in _group_of(s, att)}
        left = set(self.points - dfn - safe)
        total = 0
        while left and total < 2:
            start = left.pop()
            piece, stack = {start}, [start]
            while stack:
                r, c = stack.pop()
                for q in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if q in left:
                        left.remove(q)
                        piece.add(q)
                        stack.append(q)
            margin = {q for q in piece if q in self.marginal and q not in att}
            margin |= {(r, c) for r, c in piece if (r, c) not in att and any(
                q in safe for q in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)))}
            if len(piece) == len(self.points):
                total += 0 if margin else 1
                continue
            v = eye_value(piece, piece & att, marginal=margin)
            total += v.c if defender_next else v.b
        return min(2, total)

    def empty(self, dfn, att):
        return self.points - dfn - att

    def attacker_moves(self, dfn, att):
        empty = self.empty(dfn, att)
        out = []
        for p in sorted(empty):
            new_att = att | {p}
            group = _group_of(p, new_att)
            if self._outside(group) or _has_liberty(group, empty - {p}):
                out.append(new_att)
        return out

    def defender_moves(self, dfn, att):
        out = []
        for p in sorted(self.empty(dfn, att)):
            new_dfn = dfn | {p}
            empty = self.points - new_dfn - att
            captured = set()
            for s in att:
                if s not in captured:
                    g = _group_of(s, att)
                    if not self._outside(g) and not _has_liberty(g, empty):
                        captured |= g
            out.append((p, new_dfn, att - captured))
        return out


def _best_defence(game, dfn, att) -> int:
    best = game.static(dfn, att)
    for _, nd, na in game.defender_moves(dfn, att):
        best = max(best, game.static(nd, na))
    return best


@functools.lru_cache(maxsize=65536)
def _value(points: frozenset, dead: frozenset, marginal: frozenset = frozenset()) -> EyeValue:
    game = _Game(points, marginal)
    none = frozenset()
    # b: attacker first (or passes), defender answers
    b = _best_defence(game, none, dead)
    for att in game.attacker_moves(none, dead):
        b = min(b, _best_defence(game, none, att))
    # a: the attacker moves twice, then the defender answers
    a = b
    for att in game.attacker_moves(none, dead):
        for att2 in game.attacker_moves(none, att):
            a = min(a, _best_defence(game, none, att2))
    # c: defender first, then the attacker answers (without marginal points an answer
    # cannot undo a split: the count only depends on the defender's stones, so c is the
    # best count after one defender move)
    c = game.static(none, dead)
    if marginal:     # the defender passes and the attacker moves
        for att in game.attacker_moves(none, dead):
            c = min(c, game.static(none, att, True))
    firsts = []
    for p, nd, na in game.defender_moves(none, dead):
        worst = game.static(nd, na)
        if marginal:
            for na2 in game.attacker_moves(nd, na):
                worst = min(worst, game.static(nd, na2, True))
        firsts.append((worst, p))
        c = max(c, worst)
    # d: the defender moves twice
    d = c
    for _, nd, na in game.defender_moves(none, dead):
        for _, nd2, na2 in game.defender_moves(nd, na):
            d = max(d, game.static(nd2, na2))
    vital = tuple(sorted(p for v, p in firsts if v == c)) if b < c else ()
    return EyeValue(a, b, c, d, vital)


def eye_value(points, dead=(), diagonals: tuple[int, int, bool] | None = None,
              marginal=()) -> EyeValue:
    """The eye value of a space: ``points`` (row, col) of the whole space, ``dead`` those
    holding opponent stones, ``marginal`` those touching the opponent's outside (GNU Go's
    marginal eye points; see :class:`_Game`). For a single empty point, ``diagonals`` =
    (opponent stones on its diagonals, empty diagonals the opponent can take, at the
    edge) decides false and half eyes."""
    pts = frozenset(points)
    dead = frozenset(dead)
    marginal = frozenset(marginal) & pts
    if not pts:
        raise ValueError("an eye space has at least one point")
    if len(pts) == 1 and not dead and not marginal and diagonals is not None:
        bad, contested, edge = diagonals
        # GNU Go's topology in halves: an opponent diagonal 2, one he can take 1
        total = 2 * bad + contested
        false_at = 2 if edge else 4
        if total >= false_at:
            return EyeValue(0, 0, 0, 0)
        if total == false_at - 1:
            return EyeValue(0, 0, 1, 1, tuple(pts))
        return EyeValue(1, 1, 1, 1)
    # translate so that the cache sees each shape once
    r0 = min(r for r, _ in pts)
    c0 = min(c for _, c in pts)
    key = frozenset((r - r0, c - c0) for r, c in pts)
    kdead = frozenset((r - r0, c - c0) for r, c in dead)
    if marginal:
        v = _value(key, kdead, frozenset((r - r0, c - c0) for r, c in marginal))
    else:
        v = _value(key, kdead)       # the consistency checker recomputes this call
    return EyeValue(v.a, v.b, v.c, v.d, tuple((r + r0, c + c0) for r, c in v.vital))


def shape_type(points, dead=()) -> str:
    pts = set(points)
    if dead:
        return "dead_group"
    if len(pts) == 1:
        return "single"
    if len(pts) == 2:
        return "two"
    degrees = [sum(q in pts for q in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)))
               for r, c in pts]
    if max(degrees) <= 2 and degrees.count(1) == 2:
        return "line"
    return "big"


# ----------------------------------------------------------------- GNU Go's eyes.db
@dataclass(frozen=True)
class DbShape:
    name: str
    points: tuple          # (row, col) of every eye-space point
    symbols: tuple         # the diagram character of each point
    value: str             # the four digits
    edges: bool            # the diagram has edge marks

    @property
    def marginal(self) -> bool:
        return any(s in "!@()$" for s in self.symbols)

    @property
    def marginal_points(self) -> tuple:
        """Points touching the opponent's outside: ``!`` ``@`` ``(`` ``)`` empty, ``$``
        holding an opponent stone (eyes.db's header)."""
        return tuple(p for p, s in zip(self.points, self.symbols) if s in "!@()$")

    @property
    def dead(self) -> tuple:
        return tuple(p for p, s in zip(self.points, self.symbols) if s == "X")

    @property
    def key_points(self) -> tuple:
        return tuple(p for p, s in zip(self.points, self.symbols) if s in "*<>@()")


def parse_eyes_db(path=None) -> list[DbShape]:
    """Every shape of GNU Go's ``eyes.db`` (mkeyes format, see data/gnugo/README.md)."""
    path = data.find("gnugo/patterns/eyes.db") if path is None else path
    text = open(path, encoding="latin-1").read()
    shapes = []
    for block in re.split(r"\n(?=Pattern )", text)[1:]:
        lines = block.splitlines()
        name = lines[0].split()[1]
        value = next(ln[1:5] for ln in lines if ln.startswith(":"))
        rows = [ln for ln in lines[1:] if ln and not ln.startswith(("#", ":"))]
        pts, syms = [], []
        for i, row in enumerate(rows):
            for j, ch in enumerate(row):
                if ch in ".*<>!@()$Xx":
                    pts.append((i, j))
                    syms.append(ch)
        edges = any(ch in "|-+" for row in rows for ch in row)
        shapes.append(DbShape(name, tuple(pts), tuple(syms), value, edges))
    return shapes


def compare_with_db(shapes: list[DbShape] | None = None, *,
                    marginal: bool = False) -> list[dict]:
    """Our :func:`eye_value` on the eyes.db shapes: ``x`` (empty or dead stone) is read as
    empty, ``$`` as a dead stone on a marginal point. With ``marginal`` False (the
    recorded default) only the shapes without marginal points; with True only the shapes
    with them, read with their marginal points (``!@()$``; slow: minutes for all 1,410,
    because every piece left after the moves is valued by its own local game). One row
    per shape: name, size, edge, dead stones, GNU Go's digits, ours, and whether b, c
    (GNU Go's min/max) and all four digits agree."""
    shapes = parse_eyes_db() if shapes is None else shapes
    rows = []
    for s in shapes:
        if s.marginal != marginal:
            continue
        dead = s.dead + tuple(p for p, ch in zip(s.points, s.symbols) if ch == "$")
        v = eye_value(s.points, dead, marginal=s.marginal_points)
        gnu = tuple(int(ch) for ch in s.value)
        ours = (v.a, v.b, v.c, v.d)
        key = set(s.key_points)
        rows.append(dict(name=s.name, size=len(s.points), edge=s.edges, dead=len(dead),
                         gnugo=s.value, ours=v.digits, min_max_agree=gnu[1:3] == ours[1:3],
                         all_agree=gnu == ours,
                         vital_agree=(not key and not v.vital) or bool(set(v.vital) & key)))
    return rows
