"""Time controls of ``mctslab go gtp``: the GTP 2 ``time_settings`` and ``time_left`` commands
and KGS's ``kgs-time_settings``, turned into the seconds one move may think.

* :class:`TimeControl` - a game's clock: ``none``, ``absolute`` (sudden death), ``byoyomi``
  (Japanese: ``periods`` periods of ``period`` seconds after the main time) or ``canadian``
  (``stones`` stones in each ``period`` seconds after the main time);
* :func:`from_gtp` (GTP 2, section 6.3.1: Canadian byo-yomi; ``byo_yomi_time > 0`` with
  ``byo_yomi_stones = 0`` means no limit) and :func:`from_kgs` (``none``, ``absolute M``,
  ``byoyomi M T P``, ``canadian M T S``) read the commands' arguments;
* :func:`move_seconds` - the budget of one move from the clock and the last ``time_left``
  (seconds, stones: 0 stones in the main time; in byo-yomi the stones still to play in the
  period, Canadian, or the periods left, Japanese, as KGS sends them): in the main time its
  remainder spread over the moves we still expect to play (half the empty points, at least
  :data:`MIN_MOVES`) plus :data:`BYO_SHARE` of a byo-yomi move, in byo-yomi that share of the
  period's time per stone; :data:`LAG` seconds are kept back for the interface. 0: no limit.

The engine keeps its playout budget as a cap (``--playouts``) and stops a search at the budget
(the strong engine's ``seconds``). The rule is the usual one of MCTS engines (Pachi's
``time_info`` and michi's fixed share were read; no code was taken), kept simple: no extra
time for unclear positions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["KINDS", "TimeControl", "from_gtp", "from_kgs", "move_seconds", "combine"]

KINDS = ("none", "absolute", "byoyomi", "canadian")
MIN_MOVES = 10       # a main time is never spread over fewer of our moves than this
BYO_SHARE = 0.8      # of a byo-yomi move's time a move uses (the rest is the margin)
LAG = 0.3            # seconds kept back per move for the interface and the reply
MIN_SECONDS = 0.05   # the least a move thinks under a clock


@dataclass(frozen=True)
class TimeControl:
    """A game's clock (see the module docstring); seconds, whole stones and periods."""

    kind: str = "none"
    main: float = 0.0
    period: float = 0.0
    stones: int = 0   # canadian: stones per period
    periods: int = 0  # byoyomi: periods

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"unknown time control {self.kind!r}; known: {', '.join(KINDS)}")
        for name in ("main", "period"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value >= 0):
                raise ValueError(f"{name} time must be a finite number of seconds >= 0, got "
                                 f"{value!r}")
        if self.stones < 0 or self.periods < 0:
            raise ValueError("stones and periods must be >= 0")

    def byo_move(self) -> float:
        """Seconds one move may take in byo-yomi (0: there is none)."""
        if self.kind == "canadian" and self.stones > 0:
            return self.period / self.stones
        if self.kind == "byoyomi" and self.periods > 0:
            return self.period
        return 0.0


def from_gtp(main_time: float, byo_yomi_time: float, byo_yomi_stones: int) -> TimeControl:
    """GTP 2's ``time_settings``: Canadian byo-yomi; no byo-yomi when its time is 0 (absolute),
    no limit at all when its time is positive and its stones 0."""
    if byo_yomi_time > 0 and byo_yomi_stones == 0:
        return TimeControl("none")
    if byo_yomi_time == 0 or byo_yomi_stones == 0:
        return TimeControl("absolute", main=main_time)
    return TimeControl("canadian", main=main_time, period=byo_yomi_time, stones=byo_yomi_stones)


def from_kgs(args: list[str]) -> TimeControl:
    """KGS's ``kgs-time_settings`` arguments: ``none``, ``absolute M``, ``byoyomi M T P`` or
    ``canadian M T S``; ValueError for anything else."""
    if not args:
        raise ValueError("kgs-time_settings needs a kind")
    kind, numbers = args[0].lower(), args[1:]
    counts = {"none": 0, "absolute": 1, "byoyomi": 3, "canadian": 3}
    if kind not in counts or len(numbers) != counts[kind]:
        raise ValueError(f"kgs-time_settings {' '.join(args)}: expected none, absolute M, "
                         "byoyomi M T P or canadian M T S")
    if kind == "none":
        return TimeControl("none")
    main = float(numbers[0])
    if kind == "absolute":
        return TimeControl("absolute", main=main)
    period, count = float(numbers[1]), int(numbers[2])
    if kind == "byoyomi":
        return TimeControl("byoyomi", main=main, period=period, periods=count)
    return TimeControl("canadian", main=main, period=period, stones=count)


def move_seconds(control: TimeControl | None, left: tuple[float, int] | None,
                 empty_points: int) -> float:
    """Seconds the next move may think under ``control`` given the last ``time_left``
    (``(seconds, stones)``; None: the clock as set, main time untouched) with
    ``empty_points`` empty points on the board; 0 means no limit."""
    if control is None or control.kind == "none":
        return 0.0
    if left is None:  # not told yet: the clock as it was set
        left = (control.main, 0) if control.main > 0 else \
            (control.period, control.stones or control.periods)
    seconds, stones = float(left[0]), int(left[1])
    if stones == 0:  # the main time
        moves = max(MIN_MOVES, empty_points // 2)
        budget = seconds / moves + BYO_SHARE * control.byo_move()
    elif control.kind == "canadian":
        budget = BYO_SHARE * seconds / stones
    else:  # Japanese byo-yomi: the time left in the current period, each move one period
        budget = BYO_SHARE * seconds
    return max(MIN_SECONDS, budget - LAG)


def combine(*limits: float) -> float:
    """The tightest of several time limits in seconds, where 0 is none (0: none at all)."""
    given = [limit for limit in limits if limit > 0]
    return min(given) if given else 0.0
