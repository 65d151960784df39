"""Statistics shared by the papers: exact binomial tests, score intervals and Elo ratings.

- Go paper, Table 3: two-sided exact binomial test of total wins against p = 0.5 with 95%
  Clopper-Pearson intervals (:func:`binomial_test`).
- Othello paper, group learning: Elo expectation and update (:func:`elo_expected`,
  :func:`elo_update`), ``E_A = 1 / (1 + 10^((R_B - R_A) / 400))``, ``R_A += K (S_A - E_A)``.
  These two are numba-compiled so that learning kernels can call them; they work from Python too.
- Game scores with draws (win 1, draw 0.5, loss 0): :func:`score_interval`; a mean over
  runs or seeds with its t interval: :func:`mean_interval`.
- Match win rates (Go's Table 3, the Many Faces matches): :func:`win_rate_table`, one row per
  match with the rate, its Clopper-Pearson interval and the binomial test against 0.5; one
  rate's numbers :func:`win_rate_row`, and its two printed cells :func:`win_rate_cells` (the
  interval as text: :func:`interval_text`).
- Paired win/loss outcomes of two engines over the same games (same seeds, same opponent):
  the exact McNemar test (:func:`mcnemar_exact`); games per engine for a given power
  (:func:`games_for_power`), and read backwards, the smallest difference a given number of
  games finds (:func:`detectable_difference`).
- An equivalence verdict left open (:mod:`mctslab.core.compare`): the spread of one unit (game,
  seed, instance) read back from a 95% interval (:func:`sd_from_interval`), and the units that
  would settle it with a given power (:func:`sample_to_settle`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as _st

from mctslab.core.jit import njit
from mctslab.core.rounding import round_table

__all__ = [
    "BinomialTest",
    "binomial_test",
    "clopper_pearson",
    "ScoreInterval",
    "score_interval",
    "mean_interval",
    "elo_expected",
    "elo_update",
    "mcnemar_exact",
    "games_for_power",
    "detectable_difference",
    "sd_from_interval",
    "sample_to_settle",
]


@dataclass(frozen=True)
class BinomialTest:
    """Result of a two-sided exact binomial test with its Clopper-Pearson interval."""

    successes: int
    trials: int
    p0: float
    pvalue: float
    ci_low: float
    ci_high: float
    confidence: float

    @property
    def rate(self) -> float:
        return self.successes / self.trials

    def significant(self, alpha: float = 0.05) -> bool:
        return self.pvalue < alpha


def _check_counts(k: int, n: int) -> None:
    if n <= 0:
        raise ValueError(f"number of trials must be positive, got {n}")
    if not 0 <= k <= n:
        raise ValueError(f"successes must be in [0, {n}], got {k}")


def binomial_test(k: int, n: int, p: float = 0.5, confidence: float = 0.95) -> BinomialTest:
    """Two-sided exact binomial test of ``k`` successes in ``n`` trials against ``p``.

    The interval is the exact (Clopper-Pearson) one. Reproduces the Go paper's Table 3 from
    its Table 2 counts, e.g. ``binomial_test(540, 1000).pvalue`` = 0.012.
    """
    k, n = int(k), int(n)
    _check_counts(k, n)
    result = _st.binomtest(k, n, p, alternative="two-sided")
    ci = result.proportion_ci(confidence_level=confidence, method="exact")
    return BinomialTest(k, n, p, float(result.pvalue), float(ci.low), float(ci.high), confidence)


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value of paired outcomes: ``b`` pairs won by the first engine
    only, ``c`` by the second only (pairs both won or both lost carry no information). It is
    the binomial test of ``b`` successes in ``b + c`` trials against 1/2; 1.0 when b + c = 0."""
    b, c = int(b), int(c)
    if b < 0 or c < 0:
        raise ValueError(f"discordant pair counts must be >= 0, got {b}, {c}")
    if b + c == 0:
        return 1.0
    return float(_st.binomtest(b, b + c, 0.5, alternative="two-sided").pvalue)


def games_for_power(p1: float, p2: float, power: float = 0.8, alpha: float = 0.05) -> int:
    """Games per engine for a two-sided two-proportion z-test at level ``alpha`` to detect win
    rates ``p1`` against ``p2`` with probability ``power`` (independent samples, the normal
    approximation: ``n = (z_{1-alpha/2} + z_power)^2 (p1 q1 + p2 q2) / (p1 - p2)^2``)."""
    if not (0 < p1 < 1 and 0 < p2 < 1) or p1 == p2:
        raise ValueError(f"need two different rates in (0, 1), got {p1}, {p2}")
    z = _st.norm.ppf(1 - alpha / 2) + _st.norm.ppf(power)
    return int(math.ceil(z * z * (p1 * (1 - p1) + p2 * (1 - p2)) / (p1 - p2) ** 2))


def detectable_difference(games: int, p: float, power: float = 0.8, alpha: float = 0.05,
                          lower: bool = False) -> float:
    """The smallest difference ``d`` in win rate from ``p`` (to ``p + d``, or ``p - d`` when
    ``lower``) that ``games`` games per engine find with probability ``power`` at two-sided
    level ``alpha``: :func:`games_for_power` read backwards (the smallest ``d``, to 0.001, with
    ``games_for_power(p, p +- d) <= games``). NaN when no rate in (0, 1) on that side is
    found with so few games. A paired or head-to-head design needs fewer games; this is the
    two-independent-rates bound."""
    if games < 1 or not 0 < p < 1:
        raise ValueError(f"need games >= 1 and 0 < p < 1, got {games}, {p}")
    sign = -1 if lower else 1
    room = p if lower else 1 - p  # the difference must leave a rate inside (0, 1)
    steps = int(math.floor(room * 1000 - 1e-9))

    def enough(thousandths: int) -> bool:
        return games_for_power(p, p + sign * thousandths / 1000, power, alpha) <= games

    if steps < 1 or not enough(steps):
        return math.nan
    low, high = 0, steps  # enough(high) and not enough(low): fewer games find larger gaps
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if enough(middle) else (middle, high)
    return high / 1000


def sd_from_interval(low: float, high: float, n: int, confidence: float = 0.95) -> float:
    """The standard deviation of one unit (a game's outcome, a seed's count, an instance's
    ratio) implied by a two-sided ``confidence`` interval ``[low, high]`` over ``n`` units:
    ``(high - low) / 2 / t * sqrt(n)``, ``t`` Student's quantile with ``n - 1`` degrees of
    freedom (the t interval of :func:`mean_interval` read backwards; for a Clopper-Pearson or
    normal interval over many games t is the normal quantile to three digits). NaN with fewer
    than two units or an unbounded interval."""
    if n is None or n < 2 or not (math.isfinite(low) and math.isfinite(high)):
        return math.nan
    t = float(_st.t.ppf(0.5 + confidence / 2, n - 1))
    return (high - low) / 2 / t * math.sqrt(n)


def sample_to_settle(estimate: float, sd: float, lower: float, upper: float, *, n: int = 0,
                     power: float = 0.8, alpha: float = 0.05) -> int | None:
    """Units (games, seeds, instances) whose ``1 - alpha`` interval around ``estimate`` would
    settle an equivalence verdict with probability ``power``: the interval inside
    ``[lower, upper]`` (the paper's value plus or minus its margin) when ``estimate`` is
    inside, wholly outside when it is outside.

    One-sample analogue of :func:`games_for_power`: the half-width must fall below the distance
    ``d`` from ``estimate`` to the nearer bound, ``n = (z_{1-alpha/2} + z_power)^2 sd^2 / d^2``
    (the normal approximation; ``sd`` of one unit, :func:`sd_from_interval`). At least
    ``n + 1`` (more than the sample that left it open); ``None`` when no sample settles it
    (``estimate`` on a bound, or no spread known)."""
    if not (math.isfinite(estimate) and math.isfinite(sd)) or sd <= 0:
        return None
    distance = min(abs(estimate - lower), abs(estimate - upper))
    if distance <= 0:
        return None
    z = _st.norm.ppf(1 - alpha / 2) + _st.norm.ppf(power)
    return max(int(math.ceil((z * sd / distance) ** 2)), int(n) + 1)


def clopper_pearson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Exact (Clopper-Pearson) interval for a binomial proportion."""
    k, n = int(k), int(n)
    _check_counts(k, n)
    ci = _st.binomtest(k, n).proportion_ci(confidence_level=confidence, method="exact")
    return float(ci.low), float(ci.high)


@dataclass(frozen=True)
class ScoreInterval:
    """Mean game score (win 1, draw 0.5, loss 0) with a normal-approximation interval."""

    wins: int
    draws: int
    losses: int
    score: float
    low: float
    high: float
    confidence: float

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


def score_interval(wins: int, draws: int, losses: int, confidence: float = 0.95) -> ScoreInterval:
    """Mean score and its interval from the per-game score variance (draws count 0.5).

    With many games (the Othello tables use 1,000 to 100,000) the normal approximation is
    accurate; for pure win/loss counts prefer :func:`clopper_pearson`.
    """
    wins, draws, losses = int(wins), int(draws), int(losses)
    if min(wins, draws, losses) < 0:
        raise ValueError("counts must be non-negative")
    n = wins + draws + losses
    if n == 0:
        raise ValueError("no games to score")
    score = (wins + 0.5 * draws) / n
    second_moment = (wins + 0.25 * draws) / n
    variance = max(second_moment - score * score, 0.0)
    z = float(_st.norm.ppf(0.5 + confidence / 2))
    half = z * math.sqrt(variance / n)
    return ScoreInterval(wins, draws, losses, score, max(0.0, score - half),
                         min(1.0, score + half), confidence)


def mean_interval(values, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean of ``values`` (one per run or seed; NaN dropped) and its Student t interval:
    ``(mean, low, high)``, NaN bounds with fewer than two values (no spread is known)."""
    values = np.asarray(values, np.float64)
    values = values[~np.isnan(values)]
    mean = values.mean() if values.size else np.nan
    if values.size < 2:
        return mean, np.nan, np.nan
    half = (float(_st.t.ppf(0.5 + confidence / 2, values.size - 1))
            * values.std(ddof=1) / np.sqrt(values.size))
    return mean, mean - half, mean + half


@njit(cache=True)
def elo_expected(rating_a, rating_b):
    """Expected score of A against B: ``1 / (1 + 10^((R_B - R_A) / 400))``."""
    return 1.0 / (1.0 + 10.0 ** ((rating_b - rating_a) / 400.0))


@njit(cache=True)
def elo_update(rating_a, rating_b, score_a, k):
    """A's new rating after one game scored ``score_a`` (1 win, 0.5 draw, 0 loss) with factor K."""
    return rating_a + k * (score_a - elo_expected(rating_a, rating_b))


def win_rate_row(wins: int, games: int, *, p: float = 0.5, confidence: float = 0.95,
                 alpha: float = 0.05) -> dict:
    """One match's win rate: ``wins``, ``games``, ``rate``, its exact (Clopper-Pearson)
    interval ``ci_low`` / ``ci_high`` and the two-sided binomial ``p_value`` against ``p``,
    ``significant`` at ``alpha``."""
    t = binomial_test(wins, games, p, confidence)
    return {"wins": t.successes, "games": t.trials, "rate": t.rate, "ci_low": t.ci_low,
            "ci_high": t.ci_high, "p_value": t.pvalue, "significant": t.significant(alpha)}


def win_rate_table(rows, *, p: float = 0.5, confidence: float = 0.95, alpha: float = 0.05,
                   rounded: bool = True):
    """The one win-rate table of the package (Go's Table 3, the Many Faces matches).

    ``rows``: mappings, each with ``wins`` and ``games`` and any other columns (``method``,
    ``candidate``, ``as_black`` ...), kept in their order; the columns of :func:`win_rate_row`
    take the place of ``wins`` (``games`` joins them). ``rounded``:
    rates and intervals to 3 decimals, p-values to 3 significant digits
    (:mod:`mctslab.core.rounding`), as cited tables are.
    """
    records = []
    for row in rows:
        stats = win_rate_row(row["wins"], row["games"], p=p, confidence=confidence, alpha=alpha)
        record = {}
        for key, value in row.items():  # the statistics where the counts were
            if key == "wins":
                record.update(stats)
            elif key != "games":
                record[key] = value
        records.append(record)
    table = pd.DataFrame.from_records(records)
    if rounded and len(table):
        table = round_table(table, {"rate": 3, "ci_low": 3, "ci_high": 3}, {"p_value": 3})
    return table


def interval_text(low: float, high: float, digits: int = 3) -> str:
    """An interval as the tables print it in one cell: ``"0.509-0.571"`` (each bound to
    ``digits`` decimals)."""
    return f"{low:.{digits}f}-{high:.{digits}f}"


def win_rate_cells(wins: int, games: int) -> dict:
    """The two cells a table shows of one win rate beside its own counts: ``rate`` to 3
    decimals and ``95% CI``, the Clopper-Pearson interval of :func:`win_rate_row` as
    :func:`interval_text`."""
    row = win_rate_row(wins, games)
    return {"rate": round(row["rate"], 3), "95% CI": interval_text(row["ci_low"], row["ci_high"])}


__all__ += ["win_rate_row", "win_rate_table", "interval_text", "win_rate_cells"]
