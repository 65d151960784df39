"""The Many Faces pattern matcher as prior knowledge for the MCTS engine (beyond the paper),
and the games that measure whether it helps.

Reading guide
-------------
* :func:`pattern_weights` - one non-negative weight per compiled pattern from its GNU Go
  classification and values (the ``:`` line).
* :class:`PatternPrior` / :func:`pattern_scores` - a full-board match
  (:class:`~mctslab.manyfaces.api.Matcher`) turned into a score in [0, 1] per point for
  the player to move; :func:`pattern_prior` maps it to the win rates
  :func:`mctslab.go.api.search` takes as ``prior`` (Gelly & Silver 2007 prior knowledge,
  root only).
* :class:`PriorGtpServer` - ``mctslab go gtp``'s engine searching with the prior (and an
  optional pass rule). The games that measure it (MCTS with the prior against MCTS without,
  and either against GNU Go) are :func:`mctslab.manyfaces.experiments.run_prior`
  (numbers in ``docs/bench/manyfaces.md``, "Pattern prior for MCTS"), played by
  :mod:`mctslab.manyfaces.player_match`: stored tasks, GNU Go as the referee.

From matches to a score (our heuristic, not GNU Go's move valuation)
--------------------------------------------------------------------
A match counts for point ``q`` when its pattern's ``O`` is the player to move, its move
``*`` falls on ``q`` and ``q`` is empty; the same pattern matching at ``q`` in several
orientations counts once. Its weight is::

    w = (1 + class bonus + shape(n) / 2 + (value(n) + terri(n) + followup(n)) / 10)
        x (1/2 if the pattern has a constraint (``;`` line) or a helper, else 1),  at least 0

with class bonuses (GNU Go's classification letters) ``J`` 2 (urgent joseki), ``j`` 1,
``t`` 0.5, ``C``/``B`` 1 (connect / cut), ``c`` 0.5, ``e``/``E`` 0.5 (expand territory /
moyo), ``a``/``d`` 0.5 (strategic attack / defence). The matcher ignores constraints,
helpers and the ``O``/``X`` alive/dead conditions, so a matched pattern is only possibly
applicable: hence the halving. The point's score is ``1 - exp(-sum w / SCORE_SCALE)``:
0 with no match, rising towards 1 with many strong ones.
"""

from __future__ import annotations

import dataclasses
import re

import numpy as np

from mctslab.go import sgf
from mctslab.go.api import BLACK, Board
from mctslab.go.gtp import EngineSettings, GtpServer
from mctslab.manyfaces.api import Matcher
from mctslab.manyfaces.patterns import default_compiled

__all__ = ["CLASS_BONUS", "SCORE_SCALE", "pattern_weights", "PatternPrior", "pattern_scores",
           "pattern_prior", "PriorGtpServer", "move_prediction"]

#: GNU Go classification letter -> weight bonus (letters not listed add nothing)
CLASS_BONUS = {"J": 2.0, "j": 1.0, "t": 0.5, "C": 1.0, "B": 1.0, "c": 0.5, "e": 0.5,
               "E": 0.5, "a": 0.5, "d": 0.5}
SCORE_SCALE = 3.0  # sum of weights giving a score of 1 - 1/e
_VALUE = re.compile(r"(\w+)\(([-\d.]+)\)")


def pattern_weights(patterns) -> np.ndarray:
    """``float64[P]``: the weight of each pattern (module docstring) from its ``:`` line."""
    out = np.zeros(len(patterns), np.float64)
    for i, p in enumerate(patterns):
        values = {k: float(v) for k, v in _VALUE.findall(p.colon)}
        w = 1.0 + sum(CLASS_BONUS.get(ch, 0.0) for ch in set(p.classes))
        w += values.get("shape", 0.0) / 2.0
        w += (values.get("value", 0.0) + values.get("terri", 0.0)
              + values.get("followup", 0.0)) / 10.0
        helper = "helper" in p.colon
        if p.constraints or helper:
            w *= 0.5
        out[i] = max(w, 0.0)
    return out


class PatternPrior:
    """Pattern scores and priors for boards of one size; compiles GNU Go's patterns.db,
    patterns2.db and conn.db once per process (about 4 s) unless ``compiled`` is given."""

    def __init__(self, size: int, compiled=None):
        self.size = int(size)
        self.compiled = default_compiled() if compiled is None else compiled
        self.weights = pattern_weights(self.compiled.patterns)
        self.matcher = Matcher(self.compiled, self.size)

    def scores(self, board: Board) -> np.ndarray:
        """``float64[size, size]`` in [0, 1), indexed ``[row, col]``, for ``board.to_move``."""
        if board.size != self.size:
            raise ValueError(f"a {self.size}x{self.size} PatternPrior got a {board.size}x"
                             f"{board.size} board")
        stones = board.stones()
        self.matcher.set_board(stones)
        own = 0 if board.to_move == BLACK else 1  # Match.colour 0: the pattern's O is Black
        seen, total = set(), np.zeros((self.size, self.size), np.float64)
        for m in self.matcher.matches():
            if m.colour != own or m.move is None or stones[m.move] != 0:
                continue
            if (m.pattern, m.move) in seen:
                continue
            seen.add((m.pattern, m.move))
            total[m.move] += self.weights[m.pattern]
        return 1.0 - np.exp(-total / SCORE_SCALE)

    def prior(self, board: Board, neutral: float = 0.5, spread: float = 0.5) -> np.ndarray:
        """Win rates for :func:`mctslab.go.api.search`: ``neutral + spread * score``."""
        if not (0 <= neutral <= 1 and 0 <= neutral + spread <= 1):
            raise ValueError(f"neutral={neutral}, spread={spread} leave [0, 1]")
        return neutral + spread * self.scores(board)


def pattern_scores(board: Board) -> np.ndarray:
    """:meth:`PatternPrior.scores` with the default patterns (compiled once per process)."""
    return PatternPrior(board.size).scores(board)


def pattern_prior(board: Board, neutral: float = 0.5, spread: float = 0.5) -> np.ndarray:
    """:meth:`PatternPrior.prior` with the default patterns: unmatched points 0.5, matched
    ones up to 1 (``search(board, n, prior=pattern_prior(board))``)."""
    return PatternPrior(board.size).prior(board, neutral, spread)


def move_prediction(paths, *, every: int = 10, first: int = 10, last: int = 200) -> dict:
    """How well the pattern score predicts the moves of real games (a check that the prior has
    signal, independent of the search): over positions ``first, first + every, .. <= last``
    of each SGF game in ``paths`` where the next move is a board point, ``covered`` is the
    share of played moves with a score > 0 against ``covered_random``, the share of empty
    points with one; ``percentile`` the mean mid-rank percentile of the played move among the
    empty points by score (0.5: no better than random; 1: always the top score)."""
    positions = covered = 0
    covered_random = percentile = 0.0
    priors: dict[int, PatternPrior] = {}
    for path in paths:
        _, info = sgf.load(path)
        board = Board(info["size"], komi=info["komi"])
        scorer = priors.setdefault(info["size"], PatternPrior(info["size"]))
        if info["setup_moves"]:
            continue  # handicap stones: not replayed here
        for index, (color, move) in enumerate(info["moves"][:last + 1]):
            sampled = index >= first and (index - first) % every == 0
            if sampled and move is not None and board.to_move == color:
                scores = scorer.scores(board)
                empty = board.stones() == 0
                values = scores[empty]
                mine = scores[move]
                below = float((values < mine).sum()) + 0.5 * float((values == mine).sum() - 1)
                percentile += below / max(len(values) - 1, 1)
                covered += mine > 0
                covered_random += float((values > 0).mean())
                positions += 1
            board.play(color, move)
    n = max(positions, 1)
    return dict(positions=positions, covered=float(covered) / n, covered_random=covered_random / n,
                percentile=percentile / n)


# --- the prior in the GTP engine, and the games -----------------------------------------------

class PriorGtpServer(GtpServer):
    """``mctslab go gtp``'s engine (:class:`~mctslab.go.gtp.GtpServer`) whose searches take the
    pattern prior (:meth:`PatternPrior.prior` of the position, ``prior_visits`` virtual visits
    per root child; 0: no prior, the plain engine), and optionally a pass rule.

    ``careful_pass``: when the search prefers to pass but our count (the server's
    :meth:`~mctslab.go.gtp.GtpServer.score_margin`: area after removing the stones playouts
    find dead, the count its own "opponent passed and we win: pass" rule uses) does not win,
    play the best other root move (by ``root_select``: most visits, or best win rate among the
    children with at least a tenth of the top visits) instead; pass only when the count wins
    or no other move was searched. Without it a pass picked by noise from a thinly sampled root
    can end a game at move 3-16 (seen in both Many Faces match series)."""

    engine_name = "mctslab-prior"

    def __init__(self, settings: EngineSettings | None = None, stdin=None, stdout=None,
                 stderr=None, api=None, *, prior_visits: int = 0, careful_pass: bool = False,
                 compiled=None):
        self.prior_visits, self.careful_pass = int(prior_visits), bool(careful_pass)
        self.compiled = compiled
        self.priors: dict[int, PatternPrior] = {}
        super().__init__(settings, stdin=stdin, stdout=stdout, stderr=stderr, api=api)

    def pattern_prior(self, size: int) -> PatternPrior:
        if size not in self.priors:
            self.priors[size] = PatternPrior(size, self.compiled)
        return self.priors[size]

    def search(self, board, playouts: int, **kw):
        """``api.search`` with the prior, then the ``careful_pass`` rule (class docstring); the
        server's :meth:`~mctslab.go.gtp.GtpServer.search` hook."""
        if self.prior_visits > 0:
            kw.update(prior=self.pattern_prior(board.size).prior(board),
                      prior_visits=self.prior_visits)
        result = self.api.search(board, playouts, **kw)
        if not self.careful_pass or result.move is not None:
            return result
        margin = self.score_margin(board)
        if margin != 0 and (margin > 0) == (board.to_move == self.api.BLACK):
            return result  # the count wins: passing is fine
        others = [ch for ch in result.children
                  if ch[0] is not None and board.is_legal(board.to_move, ch[0])]
        if not others:
            return result
        if kw.get("root_select", "winrate") == "visits":
            move, _, rate = max(others, key=lambda ch: (ch[1], ch[2]))
        else:
            floor = max(1, max(v for _, v, _ in others) // 10)  # api.search's "winrate" rule
            move, _, rate = max((ch for ch in others if ch[1] >= floor),
                                key=lambda ch: (ch[2], ch[1]))
        self.log(f"the search passes but the count ({margin:+g} for Black) does not win: "
                 f"{self.api.vertex(move, board.size)} instead")
        return dataclasses.replace(result, move=move, win_rate=rate)
