"""A knowledge-based Go player built only from the Many Faces of Go structures ("beyond the
paper"), its GTP front end, and its matches against GNU Go and our MCTS engine.

Reading guide
-------------
* :class:`KnowledgePlayer` - Fotland's move generation (1993, "Move selection"): candidate
  moves come from **rules** (tactics on liberty counts, eye vital points, contested
  connection points), **patterns** (GNU Go's patterns.db through
  :class:`~mctslab.manyfaces.api.Matcher`: the diagram only, constraints ignored) and
  **joseki** (the DAG's continuations in each corner), each with its reason text as MFG
  shows them; then every candidate is played on a copy and the position is **evaluated at
  1 ply** by :func:`evaluate`.
* Quiet positions. MFG evaluates at 1 ply only in quiet positions and reads tactics
  elsewhere. We have no tactical reader beyond liberty counts, so :func:`evaluate` makes
  each position quiet itself (a one-move quiescence step): after our move the opponent is
  to move, and if it can capture one of our strings (not a ko retake) the position is
  evaluated after it captures the largest. Strings the liberty reader finds captured count
  as dead in the group strengths.
* :func:`static_estimate` (Black's view): the territory estimate (points past the +-0.5
  field threshold) plus the field summed over the neutral points, minus komi, plus group
  strength terms (``STRENGTH_WEIGHT`` x stones x (strength value - 1) per group: weak own
  groups are a liability, weak enemy groups an asset).
* Choice: the best evaluation plus a small bonus for a pattern or joseki reason and a
  seeded jitter (ties); it **passes** when no candidate improves the pass evaluation by
  ``PASS_MARGIN`` (so games end), or when the opponent just passed and the estimate wins.
* :class:`KnowledgeGtpServer` - ``mctslab manyfaces gtp``: :class:`mctslab.go.gtp.GtpServer`
  (framing, board, scoring) with this player's ``choose_move`` and ``mf_reasons``.
* Its matches against GNU Go and our MCTS engine: :mod:`mctslab.manyfaces.player_match`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mctslab.go import BORDER, EMPTY, OK, atari_liberty, check_move
from mctslab.go.api import BLACK, WHITE, vertex
from mctslab.go.gtp import COMMANDS, EngineSettings, GtpServer, non_eye_moves, own_eye
from mctslab.manyfaces import joseki as joseki_module
from mctslab.manyfaces.api import Matcher
from mctslab.manyfaces.knowledge import STRENGTH_VALUE, TERRITORY_THRESHOLD, Knowledge
from mctslab.manyfaces.patterns import default_compiled

__all__ = ["KnowledgePlayer", "Decision", "Candidate", "evaluate", "static_estimate",
           "KnowledgeGtpServer", "main"]

# -- tunables ----------------------------------------------------------------------------
PASS_MARGIN = 0.5          # a move must beat passing by this much (points) or we pass
STRENGTH_WEIGHT = 0.5      # weight of the group-strength term per stone
SURROUNDED = 0.3           # a weak group whose liberties' mean field is this far against it: dead
PATTERN_BONUS = 0.3        # added once when a pattern proposes the move
JOSEKI_BONUS = {"urgent": 2.0, "standard": 1.5, "minor": 0.8, "tenuki_ok": 0.8,
                "trick": 0.0, "antisuji": -2.0}
JITTER = 0.05              # seeded uniform noise on the choice (breaks ties)
MAX_CANDIDATES = 72        # rule and joseki candidates are all kept; beyond this many, the
#                            points only patterns propose, then the rest, are sampled
MAX_REASONS = 4            # reasons kept per candidate (the rest are counted)
PATTERN_CLASSES = {"J": "joseki", "j": "minor joseki", "U": "urgent joseki", "F": "fuseki",
                   "A": "attack", "D": "defend", "C": "connect", "B": "cut", "E": "expand",
                   "e": "eye shape", "I": "invade", "a": "attack", "d": "defend",
                   "b": "cut", "c": "connect"}


CORNER_NAMES = {"ur": "upper right", "ul": "upper left", "lr": "lower right",
                "ll": "lower left"}


@dataclass(frozen=True)
class Candidate:
    move: tuple          # (row, col)
    reasons: tuple       # reason texts, rules first
    value: float         # 1-ply evaluation for the mover (points)
    score: float         # value + bonus + jitter: what the choice maximises


@dataclass(frozen=True)
class Decision:
    move: tuple | None   # None: pass
    reasons: tuple
    value: float         # evaluation after the move (the pass evaluation for a pass)
    pass_value: float
    candidates: tuple    # every evaluated Candidate, best first


def _liberty_points(board) -> dict:
    """String id -> set of its liberty points (kernel points)."""
    st = board.state
    color, group, w = st.color, st.group, board.size + 2
    libs: dict[int, set] = {}
    for p in np.nonzero(color == EMPTY)[0]:
        p = int(p)
        for q in (p + 1, p - 1, p + w, p - w):
            if color[q] in (BLACK, WHITE):
                libs.setdefault(int(group[q]), set()).add(p)
    return libs


def evaluate(board, color: int, know: Knowledge | None = None) -> float:
    """The 1-ply estimate of ``board`` for ``color``, the other side to move; points, komi
    included. Made quiet first: if the side to move can capture a string of ``color`` (its
    largest; a ko retake is illegal, so excluded), the estimate is of the position after that
    capture (see the module docstring)."""
    st = board.state
    to_move = 3 - color
    know = Knowledge(board, evaluate=False) if know is None else know
    libs = know.string_liberties()
    capture, biggest = None, 0
    for g in np.unique(st.group[st.color == color]):
        g = int(g)
        if libs[g] == 1 and st.stones[g] > biggest:
            lib = int(atari_liberty(st, g))
            if lib > 0 and check_move(st, to_move, lib) == OK:
                capture, biggest = lib, int(st.stones[g])
    if capture is not None:
        board = board.copy()
        board.play(to_move, board.move_of(capture))
        know = None
    return static_estimate(board, know) * (1.0 if color == BLACK else -1.0)


def static_estimate(board, know: Knowledge | None = None) -> float:
    """Black's static estimate: the territory count, plus the influence field summed over the
    points it leaves neutral (partial credit, so that the estimate is smooth), minus komi,
    plus the group-strength term. A point past the threshold counts 1 and no more: a stone
    in one's own territory gains nothing, as under area scoring. A weak or unsettled group
    whose liberties lie in the other side's field (mean beyond ``SURROUNDED``) is counted
    dead first, so that an invasion the group classes miss does not win points."""
    know = Knowledge(board) if know is None else know
    st = board.state
    field = know.influence()
    groups = know.groups()
    w = board.size + 2
    surrounded = False
    for g in groups:
        if g.strength in ("weak", "unsettled"):
            points = np.nonzero(np.isin(st.group, g.strings) & (st.color == g.color))[0]
            near = np.concatenate((points + 1, points - 1, points + w, points - w))
            near = np.unique(near[st.color[near] == EMPTY])
            sign = 1.0 if g.color == BLACK else -1.0
            if len(near) and sign * float(field[near].mean()) <= -SURROUNDED:
                g.strength = "dead"      # the Group objects are the Knowledge's own records
                surrounded = True
    if surrounded:                       # influence again, with those groups dead
        know._cache.pop("influence", None)
        field = know.influence()
    t = know.territory()
    neutral = (st.color != BORDER) & (np.abs(field) < TERRITORY_THRESHOLD)
    black = t["black"] - t["white"] + float(field[neutral].sum()) - board.komi
    for g in groups:
        sign = 1.0 if g.color == BLACK else -1.0
        black += sign * STRENGTH_WEIGHT * g.stones * (STRENGTH_VALUE[g.strength] - 1.0)
    return black


def _eye_and_connection_reasons(board, color: int, know: Knowledge, add) -> None:
    """The candidates of shape: the empty vital points of eye spaces (make or destroy an
    eye) and the points of contested connections (connect or cut)."""
    st = board.state
    for sp in know.eye_spaces():
        lo, typ, hi = sp.eighths
        for p in sp.vital:
            if st.color[p] == EMPTY:
                add(p, f"{'make eye' if sp.owner == color else 'destroy eye'} "
                       f"({sp.type}, {lo}/{typ}/{hi} eighths)")
    for c in know.connections():
        if c.strength == "contested" and c.point >= 0:
            add(c.point, f"{'connect' if c.color == color else 'cut'} ({c.type})")


class KnowledgePlayer:
    """Candidate moves with reasons, evaluated at 1 ply. ``seed``: same seed, same moves."""

    def __init__(self, seed: int = 0, *, patterns: bool = True, joseki: bool = True,
                 max_candidates: int = MAX_CANDIDATES):
        self.seed = int(seed)
        self.use_patterns, self.use_joseki = patterns, joseki
        self.max_candidates = int(max_candidates)
        self._matchers: dict = {}

    # -- candidate generation ---------------------------------------------------------
    def candidates(self, board, color: int, know: Knowledge | None = None) -> dict:
        """{(row, col): [reason, ...]} for ``color`` from rules, patterns and joseki."""
        know = Knowledge(board) if know is None else know
        st = board.state
        out: dict = {}

        def add(point, reason):
            out.setdefault(board.move_of(int(point)), []).append(reason)

        self._liberty_reasons(board, color, know, add)
        _eye_and_connection_reasons(board, color, know, add)
        if self.use_patterns:
            for name, classes, move in self._pattern_moves(board, color):
                words = ", ".join(dict.fromkeys(PATTERN_CLASSES[ch] for ch in classes
                                                if ch in PATTERN_CLASSES))
                out.setdefault(move, []).append(f"pattern {name}" + (f": {words}" if words
                                                                       else ""))
        if self.use_joseki:
            for move, kind, corner in self._joseki_moves(board, color):
                out.setdefault(move, []).append(f"joseki: {kind} move in the {corner} corner")
        field = know.influence()
        for p in np.nonzero((st.color == EMPTY) & (np.abs(field) < TERRITORY_THRESHOLD))[0]:
            m = board.move_of(int(p))
            if m not in out:
                out.setdefault(m, []).append(f"territory/influence (field {field[p]:+.2f})")
        return out

    def _liberty_reasons(self, board, color: int, know: Knowledge, add) -> None:
        """The tactical candidates: the liberties of strings in atari (save or capture, or
        save by capturing a neighbour) and of strings with two liberties (extend, atari)."""
        st = board.state
        status = know.tactical()
        for g, points in _liberty_points(board).items():
            n, mine = int(st.stones[g]), int(st.color[g]) == color
            word = f"{n} stone{'s' if n > 1 else ''} at {vertex(board.move_of(g), board.size)}"
            if len(points) == 1:
                add(next(iter(points)), f"save string in atari ({word}, {status[g]})" if mine
                    else f"capture ({word})")
                if mine:       # or capture an adjacent enemy string in atari
                    self._capture_neighbours(board, g, add, word)
            elif len(points) == 2:
                for p in points:
                    add(p, f"extend liberties ({word})" if mine else f"atari ({word})")

    def _capture_neighbours(self, board, g, add, word):
        st, w = board.state, board.size + 2
        s = g
        while True:
            for q in (s + 1, s - 1, s + w, s - w):
                if st.color[q] == 3 - st.color[g]:
                    lib = int(atari_liberty(st, int(st.group[q])))
                    if lib > 0:
                        add(lib, f"save string in atari by capturing ({word})")
            s = int(st.next_stone[s])
            if s == g:
                return

    def _pattern_moves(self, board, color):
        matcher = self._matchers.get(board.size)
        if matcher is None:  # the same compilation the pattern prior uses
            matcher = self._matchers[board.size] = Matcher(default_compiled(), board.size)
        matcher.update(board.stones())
        pats = matcher.compiled.patterns
        seen = set()
        want = 0 if color == BLACK else 1          # Match.colour 0: the pattern's O is Black
        for m in matcher.matches():
            if m.colour == want and m.move is not None and (m.pattern, m.move) not in seen:
                seen.add((m.pattern, m.move))
                if board.get(*m.move) == EMPTY:
                    yield pats[m.pattern].name, pats[m.pattern].classes, m.move

    def _joseki_moves(self, board, color):
        n = board.size
        top_down = board.stones()[::-1]           # corner_stones reads row 0 as the top
        extent = n // 2
        letter = "b" if color == BLACK else "w"
        dag = joseki_module.load_joseki()
        for corner in joseki_module.CORNERS:
            stones = joseki_module.corner_stones(top_down, corner, extent=extent)
            for c in joseki_module.continuations(stones, to_move=letter, dag=dag):
                if c.point is None or c.colour != letter or max(c.point) >= extent:
                    continue
                x, y = c.point
                col = n - 1 - x if corner[1] == "r" else x
                row = n - 1 - y if corner[0] == "u" else y
                if board.get(row, col) == EMPTY:
                    yield (row, col), c.type, CORNER_NAMES[corner]

    # -- choice --------------------------------------------------------------------------
    def genmove(self, board, color: int | None = None) -> Decision:
        """The move for ``color`` (default: the side to move) with its reasons."""
        color = board.to_move if color is None else color
        if board.to_move != color:
            board = board.copy()
            board.play(3 - color, None)
        rng = np.random.default_rng([self.seed, board.move_number, color])
        know = Knowledge(board)
        proposed = self.candidates(board, color, know)
        stones = board.stones()
        legal = [m for m in proposed if board.is_legal(color, m) and
                 not own_eye(stones, m[0], m[1], color)]
        ruled = [m for m in legal if not proposed[m][0].startswith("territory")]
        rest = [m for m in legal if proposed[m][0].startswith("territory")]
        if len(ruled) > self.max_candidates:   # 19x19 mid-game: patterns propose 150+ points
            rest = [m for m in ruled if all(r.startswith("pattern") for r in proposed[m])]
            only_patterns = set(rest)
            ruled = [m for m in ruled if m not in only_patterns]
        room = max(0, self.max_candidates - len(ruled))
        if len(rest) > room:
            rest = [rest[i] for i in sorted(rng.choice(len(rest), room, replace=False))]
        passed = board.copy()
        passed.play(color, None)
        pass_value = evaluate(passed, color)
        evaluated = []
        for m in sorted(ruled + rest):
            after = board.copy()
            after.play(color, m)
            value = evaluate(after, color)
            reasons = proposed[m]
            bonus = PATTERN_BONUS if any(r.startswith("pattern") for r in reasons) else 0.0
            bonus += max((JOSEKI_BONUS[r.split()[1]] for r in reasons
                          if r.startswith("joseki")), default=0.0)
            if len(reasons) > MAX_REASONS:
                reasons = reasons[:MAX_REASONS] + [f"(+{len(reasons) - MAX_REASONS} more)"]
            evaluated.append(Candidate(m, tuple(reasons), value,
                                       value + bonus + JITTER * float(rng.random())))
        evaluated.sort(key=lambda c: -c.score)
        opponent_passed = bool(board.moves) and board.moves[-1] == (3 - color, None)
        if not evaluated or max(c.value for c in evaluated) < pass_value + PASS_MARGIN:
            why = f"pass: no candidate improves the estimate {pass_value:+.1f} by {PASS_MARGIN}"
            return Decision(None, (why,), pass_value, pass_value, tuple(evaluated))
        if opponent_passed and pass_value > 0:
            why = f"pass: the opponent passed and the estimate wins ({pass_value:+.1f})"
            return Decision(None, (why,), pass_value, pass_value, tuple(evaluated))
        best = evaluated[0]
        reasons = best.reasons + (f"1-ply estimate {best.value:+.1f} (pass {pass_value:+.1f}, "
                                  f"{len(evaluated)} candidates)",)
        return Decision(best.move, reasons, best.value, pass_value, tuple(evaluated))


# -- GTP -------------------------------------------------------------------------------------
class KnowledgeGtpServer(GtpServer):
    """``mctslab manyfaces gtp``: the GTP 2 server of :mod:`mctslab.go.gtp` with
    :class:`KnowledgePlayer` choosing the moves; ``mf_reasons`` lists the last genmove's
    reasons (one per line) and the top candidates; every genmove also logs them to stderr."""

    commands = COMMANDS + ("mf_reasons",)
    engine_name = "mctslab-manyfaces"

    def __init__(self, settings: EngineSettings | None = None, stdin=None, stdout=None,
                 stderr=None, player: KnowledgePlayer | None = None):
        super().__init__(settings, stdin=stdin, stdout=stdout, stderr=stderr)
        seed = self.settings.seed if self.settings.seed is not None else 0
        self.player = player or KnowledgePlayer(seed)
        self.last: Decision | None = None

    def choose_move(self, color: int, cleanup: bool = False):
        self.board.komi = self.komi
        decision = self.player.genmove(self.board, color)
        self.last = decision
        self.log(f"genmove {'BW'[color - 1]}: {vertex(decision.move, self.size)}: "
                 + "; ".join(decision.reasons))
        if cleanup and decision.move is None:
            choices = non_eye_moves(self.board, color)
            return choices[0] if choices else None
        return decision.move

    def cmd_mf_reasons(self, args):
        self._args(args, 0)
        if self.last is None:
            return ""
        lines = [f"{vertex(self.last.move, self.size)}: " + "; ".join(self.last.reasons)]
        for c in self.last.candidates[:5]:
            lines.append(f"  {vertex(c.move, self.size)} {c.value:+.1f}: "
                         + "; ".join(c.reasons))
        return "\n".join(lines)


def main(settings: EngineSettings | None = None, stdin=None, stdout=None) -> int:
    """Serve GTP on stdin/stdout (the ``mctslab manyfaces gtp`` verb)."""
    return KnowledgeGtpServer(settings, stdin=stdin, stdout=stdout).run()

