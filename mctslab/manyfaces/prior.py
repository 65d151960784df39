"""The Many Faces pattern matcher as prior knowledge for the MCTS engine (issue 13, beyond the
paper), and the games that measure whether it helps.

Reading guide
-------------
* :func:`pattern_weights` - one non-negative weight per compiled pattern from its GNU Go
  classification and values (the ``:`` line).
* :class:`PatternPrior` / :func:`pattern_scores` - a full-board match
  (:class:`~mctslab.manyfaces.patterns.Matcher`) turned into a score in [0, 1] per point for
  the player to move; :func:`pattern_prior` maps it to the win rates
  :func:`mctslab.go.api.search` takes as ``prior`` (Gelly & Silver 2007 prior knowledge,
  root only).
* :func:`play_game`, :func:`prior_match` - MCTS with the prior against MCTS without (or
  either against GNU Go), colours alternating; :func:`match_table` - win rates with
  Clopper-Pearson 95% intervals (``mctslab.core.stats``); :func:`prior_experiment` - the
  whole measurement as one table (the notebook's cell; numbers in
  ``docs/bench/manyfaces.md``, "Pattern prior for MCTS").

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

import functools
import math
import re
import time
from dataclasses import dataclass

import numpy as np

from mctslab.go.api import BLACK, WHITE, Board, search

__all__ = ["CLASS_BONUS", "SCORE_SCALE", "pattern_weights", "PatternPrior", "pattern_scores", "Player",
           "pattern_prior", "play_game", "prior_match", "match_table", "table_row",
           "prior_experiment", "move_prediction"]

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


@functools.lru_cache(maxsize=1)
def _compiled_default():
    from mctslab.manyfaces.patterns import compile_patterns, load_default

    return compile_patterns(load_default())


class PatternPrior:
    """Pattern scores and priors for boards of one size; compiles GNU Go's patterns.db,
    patterns2.db and conn.db once per process (about 4 s) unless ``compiled`` is given."""

    def __init__(self, size: int, compiled=None):
        from mctslab.manyfaces.patterns import Matcher

        self.size = int(size)
        self.compiled = _compiled_default() if compiled is None else compiled
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
    from mctslab.go import sgf

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


# --- games ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Player:
    """An MCTS side: playouts per move, playout policy, prior visits (0: no prior)."""

    playouts: int = 1000
    policy: str = "light"
    prior_visits: int = 0

    @property
    def name(self) -> str:
        tail = f"+prior{self.prior_visits}" if self.prior_visits else ""
        return f"mcts-{self.policy}-{self.playouts}{tail}"


def _winning(board: Board) -> bool:
    margin = board.area_score()
    return margin != 0 and (margin > 0) == (board.to_move == BLACK)


def _mcts_move(board: Board, player: Player, priors: PatternPrior | None, seed, passed: bool):
    """The search's move, with a pass rule for Tromp-Taylor self-play: pass when the opponent
    has just passed and the area count already wins (the game ends, won); otherwise pass only
    when the search prefers it and the area count wins, or nothing else is left. Without the
    last rule a pass picked by noise from a thinly sampled root ends games at move 12."""
    if passed and _winning(board):
        return None
    prior = priors.prior(board) if player.prior_visits and priors is not None else None
    result = search(board, player.playouts, policy=player.policy, seed=seed, prior=prior,
                    prior_visits=player.prior_visits)
    if result.move is not None or _winning(board):
        return result.move
    others = [ch for ch in result.children if ch[0] is not None]
    if not others:
        return None
    floor = max(1, max(v for _, v, _ in others) // 10)  # api.search's "winrate" rule
    return max((ch for ch in others if ch[1] >= floor), key=lambda ch: (ch[2], ch[1]))[0]


def play_game(black, white, *, size: int = 9, komi: float = 7.5, seed: int = 0,
              max_moves: int | None = None, gnugo_level: int = 0) -> dict:
    """One game; ``black``/``white`` a :class:`Player` or ``"gnugo"`` (GNU Go at
    ``gnugo_level``, seeded ``seed``). Ends at two passes or ``max_moves`` (default 3 size^2);
    scored by Tromp-Taylor area (every stone on the board alive), komi ``komi``."""
    from mctslab.go import gnugo

    max_moves = 3 * size * size if max_moves is None else max_moves
    sides = {BLACK: black, WHITE: white}
    priors = PatternPrior(size) if any(isinstance(s, Player) and s.prior_visits
                                       for s in sides.values()) else None
    engine = None
    if "gnugo" in sides.values():
        engine = gnugo.gnugo(level=gnugo_level, seed=seed % 2**31, komi=komi, size=size)
    board = Board(size, komi=komi)
    think = {BLACK: 0.0, WHITE: 0.0}
    passes = 0
    try:
        while board.move_number < max_moves and passes < 2:
            color = board.to_move
            start = time.perf_counter()
            if sides[color] == "gnugo":
                move = engine.genmove(color)
            else:
                move = _mcts_move(board, sides[color], priors,
                                  np.random.SeedSequence([seed, board.move_number, color]),
                                  passes == 1)
                if engine is not None:
                    engine.play(color, move)
            think[color] += time.perf_counter() - start
            if move == "resign":
                return dict(winner=3 - color, score=None, moves=board.move_number,
                            end="resign", think=think)
            board.play(color, move)
            passes = passes + 1 if move is None else 0
    finally:
        if engine is not None:
            engine.close()
    score = board.area_score()
    return dict(winner=BLACK if score > 0 else WHITE, score=score, moves=board.move_number,
                end="passes" if passes == 2 else "max moves", think=think)


def prior_match(candidate, opponent, games: int, *, size: int = 9, komi: float = 7.5,
                seed: int = 0, gnugo_level: int = 0, progress=None) -> list[dict]:
    """``games`` games of ``candidate`` against ``opponent`` (:class:`Player` or ``"gnugo"``),
    the candidate Black in even games and White in odd ones; game ``g`` is seeded
    ``seed + g``. Returns one dict per game with ``candidate_won``."""
    out = []
    for g in range(games):
        cand_color = BLACK if g % 2 == 0 else WHITE
        black, white = (candidate, opponent) if cand_color == BLACK else (opponent, candidate)
        game = play_game(black, white, size=size, komi=komi, seed=seed + g,
                         gnugo_level=gnugo_level)
        game.update(game=g, candidate_color=cand_color,
                    candidate_won=game["winner"] == cand_color)
        out.append(game)
        if progress is not None:
            progress(game)
    return out


def prior_experiment(games: int = 100, gnugo_games: int = 0, *, playouts: int = 1000,
                     policy: str = "light", prior_visits: int = 20, size: int = 9,
                     komi: float = 7.5, seed: int = 0, gnugo_level: int = 0):
    """The issue's measurement as one table (a ``pandas.DataFrame``, one row per pairing):
    MCTS with the pattern prior against the same MCTS without it (``games`` games, colours
    alternating, seeds ``seed + g``) and, when ``gnugo_games > 0``, each of them against GNU Go
    at ``gnugo_level`` (seeds ``seed + 1000 + g``). Columns: wins, games, win rate and its
    Clopper-Pearson 95% interval, by colour too, and the mean game length."""
    import pandas as pd

    with_prior = Player(playouts, policy, prior_visits)
    without = Player(playouts, policy, 0)
    pairings = [(with_prior, without, games, seed)]
    if gnugo_games:
        pairings += [(p, "gnugo", gnugo_games, seed + 1000) for p in (with_prior, without)]
    rows = []
    for cand, opp, n, first in pairings:
        if n <= 0:
            continue
        played = prior_match(cand, opp, n, size=size, komi=komi, seed=first,
                             gnugo_level=gnugo_level)
        rows.append(table_row(match_table(played), cand.name,
                              opp if opp == "gnugo" else opp.name))
    return pd.DataFrame(rows)


def table_row(table: dict, candidate: str, opponent: str) -> dict:
    """One flat row of :func:`match_table`'s result (for a DataFrame or a markdown table)."""
    a, b, w = table["all"], table["black"], table["white"]
    return dict(candidate=candidate, opponent=opponent, games=a["games"], wins=a["wins"],
                win_rate=a["rate"], ci_low=a["low"], ci_high=a["high"],
                black=f"{b['wins']}/{b['games']}", white=f"{w['wins']}/{w['games']}",
                mean_moves=table["mean_moves"])


def match_table(games: list[dict], label: str = "") -> dict:
    """Win rate of the candidate with its Clopper-Pearson 95% interval, overall and by colour."""
    from mctslab.core.stats import clopper_pearson

    def row(subset):
        wins, n = sum(g["candidate_won"] for g in subset), len(subset)
        low, high = clopper_pearson(wins, n) if n else (math.nan, math.nan)
        return dict(wins=wins, games=n, rate=wins / n if n else math.nan, low=low, high=high)

    return dict(label=label, all=row(games),
                black=row([g for g in games if g["candidate_color"] == BLACK]),
                white=row([g for g in games if g["candidate_color"] == WHITE]),
                mean_moves=float(np.mean([g["moves"] for g in games])) if games else math.nan)
