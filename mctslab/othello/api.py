"""The Othello engine from Python: validated players, matches and perft around the kernels.

* :func:`perft` - leaves of the game tree from the start position (Aart Bik's counts).
* :func:`player` - a :class:`Player` from ``"random"``, ``"standard"``, a WPC file, 10
  variables a..j or 64 weights.
* :func:`match` - many games between two players with colours alternating and an
  explicit seed; a :class:`MatchResult` with the score and its 95% interval.

Kernels never raise; bad input is caught here with an error naming the problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from mctslab.core.stats import score_interval
from mctslab.othello import wpc as wpc_module
from mctslab.othello._board import START_BLACK, START_WHITE
from mctslab.othello._board import perft as _perft
from mctslab.othello._players import play_match as _play_match
from mctslab.othello._players import play_match_fixed_colours as _play_fixed
from mctslab.rng import seed_state

__all__ = ["Player", "MatchResult", "player", "match", "perft", "MAX_PERFT_DEPTH", "random_player",
           "standard_player"]

MAX_PERFT_DEPTH = 20  # beyond ~14 plies perft runs for hours; the bound only catches typos


@dataclass(frozen=True)
class Player:
    """A random player (``weights`` None) or a 1-ply WPC player with 64 float weights."""

    name: str
    weights: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def is_random(self) -> bool:
        return self.weights is None

    def tables(self) -> np.ndarray:
        """The kernels' form: ``int64[8, 256]`` row tables (zeros for the random player)."""
        if self.weights is None:
            return np.zeros((8, 256), dtype=np.int64)
        return wpc_module.row_tables(self.weights)


def random_player() -> Player:
    return Player("random")


def standard_player() -> Player:
    return Player("standard", wpc_module.STANDARD_WPC.copy())


def player(spec, name: str | None = None) -> Player:
    """A player from ``"random"``, ``"standard"``, a WPC file path, or a sequence of 10/64 numbers."""
    if isinstance(spec, Player):
        return spec
    if isinstance(spec, (str, Path)):
        text = str(spec)
        if text == "random":
            return random_player()
        if text == "standard":
            return standard_player()
        path = Path(text)
        if not path.exists():
            raise ValueError(f"unknown player {text!r}: use 'random', 'standard' or a WPC file "
                             "(10 values a..j or 64 weights)")
        return Player(name or path.name, wpc_module.load_wpc(path))
    return Player(name or "wpc", wpc_module.as_weights(spec))


@dataclass(frozen=True)
class MatchResult:
    """Games of A against B and A's score (colours alternating, A Black first, unless not)."""

    a: str
    b: str
    wins: int
    draws: int
    losses: int
    epsilon: float
    seed: int | None
    alternate: bool = True
    confidence: float = 0.95

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games

    @property
    def interval(self) -> tuple[float, float]:
        ci = score_interval(self.wins, self.draws, self.losses, self.confidence)
        return ci.low, ci.high


def _check_epsilon(epsilon: float) -> float:
    epsilon = float(epsilon)
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must lie in [0, 1], got {epsilon}")
    return epsilon


def match(a, b, games: int = 1000, epsilon: float = 0.1, seed=None,
          alternate: bool = True) -> MatchResult:
    """Play ``games`` games of ``a`` against ``b`` (each a :func:`player` spec).

    ``alternate``: colours alternate with ``a`` Black first (the paper's protocol);
    otherwise ``a`` is Black in every game.
    """
    games = int(games)
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    epsilon = _check_epsilon(epsilon)
    pa, pb = player(a), player(b)
    kernel = _play_match if alternate else _play_fixed
    outcome = kernel(pa.tables(), pa.is_random, pb.tables(), pb.is_random, epsilon, games,
                     seed_state(seed))
    return MatchResult(pa.name, pb.name, int(outcome[0]), int(outcome[1]), int(outcome[2]),
                       epsilon, seed if isinstance(seed, int) else None, bool(alternate))


def perft(depth: int) -> int:
    """Leaves of the game tree from the start position at ``depth`` plies."""
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)):
        raise ValueError(f"perft depth must be an integer, got {depth!r}")
    if not 0 <= depth <= MAX_PERFT_DEPTH:
        raise ValueError(f"perft depth must lie in 0..{MAX_PERFT_DEPTH}, got {depth}")
    return int(_perft(START_BLACK, START_WHITE, int(depth)))
