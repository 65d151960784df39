"""The group level of Many Faces' knowledge (Sec. 3): strings joined into groups, and each
group's eyes, eye potential and strength class.

Strings join when a connection between them is shared or solid (``_knowledge.SHARED`` and up),
when they border the same eye space, or the same big region. A group's eyes are its eye
spaces' typ eighths (plus ``BIG_REGION_EIGHTHS`` per big region); its potential adds what it
could still gain: the eye spaces' vital points, capturing a weak neighbour (8 per string, at
most 16), cutting points it could connect (4 each, at most 8) and escape liberties (2 each, at
most 16). Its class follows from eyes and eyes + potential (:func:`strength_class`).
:func:`analyse` reads a :class:`~mctslab.manyfaces.knowledge.Knowledge` object's levels below.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mctslab.go.api import BLACK, WHITE
from mctslab.manyfaces import _knowledge as kk

__all__ = ["Group", "analyse", "strength_class", "BIG_REGION_EIGHTHS"]

BIG_REGION_EIGHTHS = 16


@dataclass
class Group:
    color: int
    strings: list
    stones: int
    liberties: int
    escape_open: int
    escape_friend: int
    escape_enemy: int
    eyes: int                 # typ eighths
    min_eyes: int
    potential: int            # eighths
    strength: str

    @property
    def escapes(self) -> int:
        return self.escape_open + self.escape_friend + self.escape_enemy


class _Joined:
    """Union-find over string ids (each string's root is its smallest member)."""

    def __init__(self, strings):
        self.parent = {g: g for g in strings}

    def find(self, x):
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, x, y):
        rx, ry = self.find(x), self.find(y)
        if rx != ry:
            self.parent[max(rx, ry)] = min(rx, ry)


def _bordering(points, owner, color, group, w) -> set:
    """The strings of ``owner`` next to any of ``points``."""
    border = set()
    for p in points:
        for q in (p + 1, p - 1, p + w, p - w):
            if color[q] == owner:
                border.add(int(group[q]))
    return border


def _join(know, conns, spaces, status):
    """Strings joined into groups; the strings bordering each eye space and each big region."""
    color, group, w = know.board.state.color, know.board.state.group, know.w
    joined = _Joined(status)
    for r in conns:
        if r[3] >= kk.SHARED:
            joined.union(int(r[0]), int(r[1]))
    space_strings = []
    for sp in spaces:
        border = sorted(_bordering(sp.points, sp.owner, color, group, w))
        for b in border[1:]:
            joined.union(border[0], b)
        space_strings.append(border)
    big_strings = [_bordering(members, owner, color, group, w)
                   for owner in (BLACK, WHITE) for members in know._big[owner]]
    return joined, space_strings, big_strings


def _eye_counts(roots, joined, spaces, space_strings, big_strings):
    """Per group: typ eyes, minimum eyes and what its spaces' vital points would add."""
    eyes = dict.fromkeys(roots, 0)
    min_eyes = dict.fromkeys(roots, 0)
    vital_gain = dict.fromkeys(roots, 0)
    for sp, border in zip(spaces, space_strings):
        if border:
            r = joined.find(border[0])
            lo, typ, hi = sp.eighths
            eyes[r] += typ
            min_eyes[r] += lo
            vital_gain[r] += hi - typ
    for border in big_strings:
        for r in {joined.find(b) for b in border}:
            eyes[r] += BIG_REGION_EIGHTHS
            min_eyes[r] += BIG_REGION_EIGHTHS
    return eyes, min_eyes, vital_gain


def _capture_gain(know, status, roots, joined):
    """Per group: 8 eighths for each string of it next to an opponent string not safe."""
    st, w = know.board.state, know.w
    color, group = st.color, st.group
    gain = dict.fromkeys(roots, 0)
    for g, s in status.items():
        if s == "safe":
            continue
        near = set()
        p = g
        while True:
            for q in (p + 1, p - 1, p + w, p - w):
                if color[q] == 3 - color[g]:
                    near.add(joined.find(int(group[q])))
            p = int(st.next_stone[p])
            if p == g:
                break
        for r in near:
            gain[r] += 8
    return gain


def _connect_gain(conns, roots, joined):
    """Per group: 4 eighths for each cuttable connection to another group."""
    gain = dict.fromkeys(roots, 0)
    for r in conns:
        if r[3] == kk.CUTTABLE:
            ra, rb = joined.find(int(r[0])), joined.find(int(r[1]))
            if ra != rb:
                gain[ra] += 4
                gain[rb] += 4
    return gain


def strength_class(all_captured: bool, eyes: int, total: int, liberties: int) -> str:
    """A group's class from its eyes and eyes + potential (eighths) and its liberties."""
    if all_captured:
        return "dead"
    if eyes >= 16:
        return "alive"
    if total >= 24:
        return "strong"
    if total >= 12:
        return "unsettled"
    if total >= 4 or liberties >= 5:
        return "weak"
    return "dead"


def analyse(know) -> tuple[list[Group], dict]:
    """The groups of ``know``'s position, and each string's group (string id -> Group)."""
    st = know.board.state
    color, group = st.color, st.group
    conns = know.connection_array()
    spaces = know.eye_spaces()
    status = know.tactical()
    joined, space_strings, big_strings = _join(know, conns, spaces, status)
    roots: dict[int, list] = {}
    for g in status:
        roots.setdefault(joined.find(g), []).append(g)
    gid = np.zeros_like(group)
    stones_mask = (color == BLACK) | (color == WHITE)
    gid[stones_mask] = [joined.find(int(g)) for g in group[stones_mask]]
    libs = know._libs
    kk.id_liberties(color, know.w, gid, know.ray, libs[0], libs[1], libs[2], libs[3])
    eyes, min_eyes, vital_gain = _eye_counts(roots, joined, spaces, space_strings, big_strings)
    capture_gain = _capture_gain(know, status, roots, joined)
    connect_gain = _connect_gain(conns, roots, joined)
    out, group_of = [], {}
    for root, strings in sorted(roots.items()):
        esc = int(libs[1][root] + libs[2][root] + libs[3][root])
        potential = (vital_gain[root] + min(16, capture_gain[root])
                     + min(8, connect_gain[root]) + min(16, 2 * esc))
        cls = strength_class(all(status[s] == "captured" for s in strings), eyes[root],
                             eyes[root] + potential, int(libs[0][root]))
        grp = Group(int(color[root]), sorted(strings), int(sum(st.stones[s] for s in strings)),
                    int(libs[0][root]), int(libs[1][root]), int(libs[2][root]),
                    int(libs[3][root]), eyes[root], min_eyes[root], potential, cls)
        for s in strings:
            group_of[s] = grp
        out.append(grp)
    return out, group_of
