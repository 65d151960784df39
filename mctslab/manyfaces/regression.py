"""GNU Go's regression suites (``data/gnugo/regression``) against our knowledge structures.

A suite is a GTP script (format in ``data/gnugo/regression/README.md``): ``loadsgf FILE [N]``,
``trymove`` / ``popgo`` / ``play``, and numbered tests followed by ``#? [EXPECTED]`` (a
regular expression; ``*`` after it: GNU Go itself fails the test). We answer:

* ``eval_eye V`` (optics.tst): ``b c`` of the eye space holding V (GNU Go's min_eyes /
  max_eyes, see :mod:`mctslab.manyfaces.eyes`), ``-1`` when V is in no eye space of ours;
  agreement compares the two numbers only (not GNU Go's attack/defence points). With
  ``marginal_spaces`` (the default) a vertex in no eye space of ours gets a *marginal*
  space (:func:`marginal_space`, valued with its marginal points) instead of ``-1``
  (switch it off for the earlier answers: 46 of 90 agree, 55 with it).
* ``connect A B`` - 1 when A and B are in one of our groups or their strings share a
  connection of strength contested, aji or solid (one move connects), else 0;
  ``disconnect A B`` - 1 when they are in different groups and no aji or solid
  connection joins their strings (one opponent move separates them), else 0;
  ``same_dragon A B`` - 1 when they are in one group. Agreement: our 0/1 against whether
  GNU Go's expected answer is a failure (its regular expression accepts ``0``) or a
  success (codes 1-3: we do not distinguish ko results).
"""

from __future__ import annotations

import re

from mctslab import data
from mctslab.go import sgf
from mctslab.go.api import BLACK, WHITE, Board, IllegalMove, parse_vertex
from mctslab.manyfaces import eyes as eyes_module
from mctslab.manyfaces.knowledge import Knowledge

__all__ = ["SUITES", "read_suite", "load_position", "position", "answer", "agreement",
           "marginal_space"]

SUITES = {"optics": ("eval_eye",), "connect": ("connect", "disconnect"),
          "connection": ("connect", "disconnect", "same_dragon")}
_TEST = re.compile(r"^(\d+)\s+(\S+)\s*(.*)$")
_ANSWER = re.compile(r"^#\?\s*\[(.*)\](\*?)")


def read_suite(name: str) -> list[dict]:
    """The tests of ``<name>.tst`` whose command we answer: id, command, arguments, the
    position (file, move number, extra moves), GNU Go's expected answer and its known
    failure flag."""
    path = data.find(f"gnugo/regression/{name}.tst")
    commands = SUITES[name]
    cases, pending = [], None
    current, extra = None, []
    for raw in path.read_text().splitlines():
        line = raw.split("#")[0].strip() if not raw.startswith("#?") else raw.strip()
        if not line:
            continue
        words = line.split()
        if words[0] == "loadsgf":
            current = (words[1], int(words[2]) if len(words) > 2 else None)
            extra = []
            continue
        if words[0] in ("trymove", "play"):
            extra.append((words[1], words[2]))
            continue
        if words[0] == "popgo":
            extra.pop()
            continue
        m = _TEST.match(line)
        if m and m.group(2) in commands:
            pending = dict(id=int(m.group(1)), command=m.group(2), args=m.group(3).split(),
                           file=current[0], move=current[1], extra=tuple(extra))
            continue
        a = _ANSWER.match(line)
        if a and pending is not None:
            pending.update(expected=a.group(1), gnugo_fails=bool(a.group(2)))
            cases.append(pending)
            pending = None
    return cases


def load_position(relpath: str, move_number: int | None = None) -> Board:
    """A regression SGF (setup stones in any node, then moves) as a Board; ``move_number``
    is GNU Go's ``loadsgf FILE N``: stop before move N."""
    size, nodes = sgf.main_line(data.find(f"gnugo/regression/{relpath}"))
    board = Board(size)
    moves = 0
    for b, w, e, played in nodes:
        if b or w or e:
            arr = board.stones()
            stones = {(r, c): int(arr[r, c]) for r in range(size) for c in range(size)
                      if arr[r, c]}
            for p in e:
                stones.pop(p, None)
            stones.update({p: BLACK for p in b})
            stones.update({p: WHITE for p in w})
            board = _rebuild(size, stones)
        if played is not None:
            colour, move = played
            moves += 1
            if move_number is not None and moves >= move_number:
                break
            if move is not None:
                try:
                    board.play(BLACK if colour == "b" else WHITE, move)
                except IllegalMove:
                    continue
    return board


def _rebuild(size, stones) -> Board:
    board = Board(size)
    for p, colour in sorted(stones.items(), key=lambda kv: kv[1]):
        try:
            board.play(colour, p)
        except IllegalMove:
            pass   # a setup stone without liberties
    return board


def position(case: dict) -> Board:
    board = load_position(case["file"], case["move"])
    for colour, vertex in case["extra"]:
        c = BLACK if colour.lower().startswith("b") else WHITE
        board.play(c, parse_vertex(vertex, board.size))
    return board


def marginal_space(know, point: int):
    """An eye space with marginal points around ``point`` (a kernel index) for a vertex
    that is in none of our enclosed eye spaces, or None. GNU Go's spaces stop at the
    opponent's outside; ours: for an owner (the opponent of a stone on ``point``, else
    each colour), flood from ``point`` through empty points and *dead* opponent stones
    (strings with at most one liberty, or the string on ``point``); a point next to a
    *lively* opponent stone (any other opponent string) is marginal, kept in the space
    but not flooded past, unless it is a *false margin* (GNU Go's term: an opponent stone
    there would have one liberty), which is left out of the space. A space of more than ``MAX_EYE`` points or touching no owner
    stone is none. Returns (owner, points, dead, marginal) with kernel indices; of two
    owners, the one with fewer marginal points (then more owner stones around)."""
    st = know.board.state
    color, group, w = st.color, st.group, know.w
    libs = know.string_liberties()
    here = int(color[point])
    owners = (3 - here,) if here in (BLACK, WHITE) else (BLACK, WHITE)
    best = None
    for owner in owners:
        enemy = 3 - owner

        def dead(q, enemy=enemy):
            return color[q] == enemy and (libs[group[q]] <= 1 or (
                here == enemy and group[q] == group[point]))

        region, marginal, stack, contacts = {point}, set(), [point], 0
        while stack and len(region) <= eyes_module.MAX_EYE:
            p = stack.pop()
            nbrs = (p + 1, p - 1, p + w, p - w)
            contacts += sum(int(color[q] == owner) for q in nbrs)
            if any(color[q] == enemy and not dead(q) for q in nbrs):
                if p != point and _false_margin(color, w, p, enemy):
                    region.discard(p)
                    continue
                marginal.add(p)
                continue
            for q in nbrs:
                if q not in region and (color[q] == 0 or dead(q)):
                    region.add(q)
                    stack.append(q)
        if len(region) > eyes_module.MAX_EYE or not contacts:
            continue
        deads = tuple(sorted(q for q in region if color[q] == enemy))
        key = (len(marginal), -contacts)
        if best is None or key < best[0]:
            best = (key, (owner, tuple(sorted(region)), deads, tuple(sorted(marginal))))
    return None if best is None else best[1]


def _false_margin(color, w, p: int, enemy: int) -> bool:
    """Would an ``enemy`` stone on empty ``p`` be a string with one liberty?"""
    seen, stack, libs = {p}, [p], set()
    while stack and len(libs) < 2:
        s = stack.pop()
        for q in (s + 1, s - 1, s + w, s - w):
            if color[q] == 0 and q != p:
                libs.add(q)
            elif color[q] == enemy and q not in seen:
                seen.add(q)
                stack.append(q)
    return len(libs) < 2


def answer(case: dict, know, *, marginal_spaces: bool = True) -> str:
    """Our answer to one test on ``know`` (a Knowledge of the test's position)."""
    board = know.board
    points = [board.point(parse_vertex(v, board.size)) for v in case["args"][:2]]
    if case["command"] == "eval_eye":
        for sp in know.eye_spaces():
            if points[0] in sp.points:
                return f"{sp.value.b} {sp.value.c}"
        space = marginal_space(know, points[0]) if marginal_spaces else None
        if space is None:
            return "-1"
        _owner, pts, dead, marginal = space
        w = know.w
        value = eyes_module.eye_value([divmod(p, w) for p in pts],
                                      [divmod(p, w) for p in dead],
                                      marginal=[divmod(p, w) for p in marginal])
        return f"{value.b} {value.c}"
    st = board.state
    strings = [int(st.group[p]) for p in points]
    if min(st.color[p] for p in points) == 0:
        return "?"         # a vertex without a stone
    group_of = {s: id(g) for g in know.groups() for s in g.strings}
    same = group_of[strings[0]] == group_of[strings[1]]
    pair = {tuple(sorted(strings))}
    strengths = {c.strength for c in know.connections() if (min(c.a, c.b), max(c.a, c.b))
                 in pair}
    if case["command"] == "same_dragon":
        return "1" if same else "0"
    if case["command"] == "connect":
        return "1" if same or strengths & {"contested", "aji", "solid"} else "0"
    return "1" if not same and not strengths & {"aji", "solid"} else "0"


def _expects_success(case) -> bool:
    pattern = case["expected"].strip()
    negate = pattern.startswith("!")
    pattern = pattern.lstrip("!")
    accepts_zero = re.fullmatch(pattern, "0") is not None
    return accepts_zero == negate


def agreement(name: str, *, marginal_spaces: bool = True) -> list[dict]:
    """One row per test of suite ``name``: id, command, GNU Go's expected answer, ours,
    whether they agree, and whether GNU Go itself fails the test. ``marginal_spaces``:
    see :func:`answer`."""
    rows = []
    cache: dict = {}
    for case in read_suite(name):
        key = (case["file"], case["move"], case["extra"])
        if key not in cache:
            cache.clear()
            cache[key] = Knowledge(position(case))
        know = cache[key]
        ours = answer(case, know, marginal_spaces=marginal_spaces)
        if case["command"] == "eval_eye":
            nums = case["expected"].split()
            want = " ".join(nums[:2]) if len(nums) >= 2 else case["expected"].strip()
            agree = ours == want
        else:
            want = "1" if _expects_success(case) else "0"
            agree = ours == want
        rows.append(dict(suite=name, id=case["id"], command=case["command"],
                         args=" ".join(case["args"]), expected=case["expected"],
                         gnugo_answer=want, ours=ours, agree=agree,
                         gnugo_fails=case["gnugo_fails"]))
    return rows
