"""The state-tabu paper's configurations, tabu-size schedule and candidate bound.

Itoh & Ohta, "An Application of Monte-Carlo Tree Search Including Game State Tabu Lists for
Playing 19x19 Go", Research Reports of Aichi Institute of Technology 51 (2016), pp. 134-143.

- :func:`parse_config`: the named engines of Table 1 (``gnugo-uct``, ``gTabu0``, ``gTabu18``,
  ``gTabu18-hash``, ``gTabu18-hash-win``) and any ``gTabuL[-hash[-win]]``.
- :func:`tabu_size`: Eq. 8, the tabu size ``L_k`` at game move ``k`` on an ``N x N`` board.
- :func:`candidate_bound`: Eq. 12, the upper bound on tabu candidates per playout.
- :data:`GNUGO_SELF`: Table 2's first row (GNU Go against itself); :data:`TABU_POSITION`: the
  position Fig. 5 and Table 4 search (Sec. 5.3).
The queue kernels are in :mod:`mctslab.go._tabu`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from mctslab.go import _tabu

__all__ = ["TabuConfig", "parse_config", "tabu_size", "candidate_bound", "PAPER_CONFIGS",
           "REDRAWS", "POLICY_REDRAWS", "GNUGO_SELF", "TABU_POSITION"]

PAPER_CONFIGS = ("gnugo-uct", "gTabu0", "gTabu18", "gTabu18-hash", "gTabu18-hash-win")
GNUGO_SELF = "gnugo"  # Table 2's first row: GNU Go against itself (no engine of ours)
# A fixed 42-move position from a real game (the paper's Fig. 4 did not survive extraction):
# Black to play move 43.
TABU_POSITION = ("go-games/tom9d/tom-2003-09-354460.sgf", 42)
REDRAWS = ("policy", "light")
POLICY_REDRAWS = 8  # rejections of one playout move redrawn by the policy before uniform
_NAME = re.compile(r"gTabu(\d+)(-hash(-win)?)?")


@dataclass(frozen=True)
class TabuConfig:
    """One engine configuration of Table 1.

    ``kind``: ``"none"``, ``"move"`` (queues of moves, the authors' earlier gTabuX) or
    ``"state"`` (queues of position hashes); ``update``: ``"sequential"`` (Eqs. 6-7) or
    ``"batch-on-loss"`` (Eqs. 9-11); ``size`` the initial tabu size L, ``moves`` M (playout
    moves 1..M carry queues), ``expansion_threshold`` (1 for gnugo-uct, 30 otherwise);
    ``redraw``: how a playout move rejected by a tabu list is drawn again, ``"policy"`` (the
    playout's own policy, up to :data:`POLICY_REDRAWS` rejections of one move, then uniform:
    what GNU Go's weighted policy would do in the paper's engines) or ``"light"`` (uniform at
    once).
    """

    name: str
    kind: str = "none"
    update: str = "sequential"
    size: int = 0
    moves: int = 5
    expansion_threshold: int = 30
    playouts: int = 8000
    c: float = 1.5
    redraw: str = "policy"

    def __post_init__(self):
        if self.redraw not in REDRAWS:
            raise ValueError(f"tabu redraw must be one of {', '.join(REDRAWS)}, got "
                             f"{self.redraw!r}")
        if self.kind not in ("none", "move", "state"):
            raise ValueError(f"tabu kind must be none, move or state, got {self.kind!r}")
        if self.update not in ("sequential", "batch-on-loss"):
            raise ValueError(f"tabu update must be sequential or batch-on-loss, got {self.update!r}")
        if self.size < 0 or self.moves < 1 or self.expansion_threshold < 1 or self.playouts < 1:
            raise ValueError(f"{self.name}: size >= 0, moves >= 1, expansion_threshold >= 1 and "
                             "playouts >= 1 are required")
        if self.kind == "move" and self.update != "sequential":
            raise ValueError(f"{self.name}: the move tabu has the sequential update only")

    @property
    def mode(self) -> int:
        """The kernel's update mode (``_tabu.NONE``, ``SEQUENTIAL``, ``BATCH_ON_LOSS``)."""
        if self.kind == "none" or self.size == 0:
            return _tabu.NONE
        return _tabu.SEQUENTIAL if self.update == "sequential" else _tabu.BATCH_ON_LOSS

    @property
    def policy_redraws(self) -> int:
        """The kernel's ``Tabu.config[4]``: rejections the playout policy may redraw."""
        return POLICY_REDRAWS if self.redraw == "policy" else 0


def parse_config(name: str, *, moves: int = 5, playouts: int = 8000, c: float = 1.5,
                 expansion_threshold: int | None = None, redraw: str = "policy") -> TabuConfig:
    """The configuration named ``name`` (Table 1): ``gnugo-uct`` (expansion threshold 1, no
    tabu), ``gTabu0`` (threshold 30, no tabu), ``gTabuL`` (move tabu of size L),
    ``gTabuL-hash`` (state tabu, sequential update), ``gTabuL-hash-win`` (state tabu, batch
    update on loss). ``expansion_threshold`` overrides the table's value; ``redraw``: see
    :class:`TabuConfig`."""
    if name == "gnugo-uct":
        config = dict(kind="none", size=0, expansion_threshold=1)
    elif (match := _NAME.fullmatch(name)):
        size = int(match.group(1))
        if match.group(3):
            config = dict(kind="state", update="batch-on-loss", size=size)
        elif match.group(2):
            config = dict(kind="state", update="sequential", size=size)
        else:
            config = dict(kind="move" if size else "none", size=size)
        config["expansion_threshold"] = 30
    else:
        raise ValueError(f"unknown engine configuration {name!r}: use gnugo-uct or "
                         "gTabuL[-hash[-win]] (e.g. gTabu18-hash-win)")
    if expansion_threshold is not None:
        config["expansion_threshold"] = expansion_threshold
    return TabuConfig(name=name, moves=moves, playouts=playouts, c=c, redraw=redraw, **config)


def tabu_size(initial: int, move_number: int, board_size: int = 19) -> int:
    """Eq. 8: ``L_k`` for game move ``k`` (1 = the first move of the game) on an N x N board.

    ``L`` up to floor(N^2/4), ``2L/3`` up to floor(2N^2/3), ``L/3`` after; fractional sizes
    are rounded down (the paper's L = 18 gives 18 / 12 / 6 exactly: moves 1-90, 91-240,
    241-). The paper's Sec. 4.3 calls ``k`` the leaf's depth counted from the game's start;
    Sec. 5.1 the game move. We pass the move number of the leaf's position.
    """
    if move_number < 1:
        raise ValueError(f"move numbers start at 1, got {move_number}")
    area = board_size * board_size
    if move_number <= area // 4:
        return initial
    if move_number <= (2 * area) // 3:
        return (2 * initial) // 3
    return initial // 3


def candidate_bound(board_size: int, size: int, moves: int) -> float:
    """Eq. 12: ``T(N, L, M) < (M L / n) (ln n + gamma + L pi^2 / 6)``, ``n = N^2 - L - M``:
    the bound on tabu candidates per playout (``T(19, 12, 5) < 4.562``)."""
    n = board_size * board_size - size - moves
    if n <= 0:
        raise ValueError(f"the bound needs N^2 > L + M, got N={board_size}, L={size}, M={moves}")
    if size == 0:
        return 0.0
    gamma = 0.5772156649015329
    return moves * size / n * (math.log(n) + gamma + size * math.pi ** 2 / 6)
