"""Known answers for the shared statistics (Go paper Table 3; Elo by hand)."""

import math

import pytest

from mctslab.core.stats import (
    binomial_test,
    clopper_pearson,
    detectable_difference,
    elo_expected,
    elo_update,
    games_for_power,
    interval_text,
    score_interval,
    win_rate_cells,
    win_rate_row,
    win_rate_table,
)

# Go paper, Table 2 total wins of 1000 games -> Table 3 (p, 95% CI low, high, significant)
TABLE3 = [
    ("gnugo", 513, 0.429, 0.482, 0.544, False),
    ("gnugo-uct", 519, 0.242, 0.488, 0.550, False),
    ("gTabu18", 491, 0.591, 0.460, 0.522, False),
    ("gTabu18-hash", 523, 0.155, 0.492, 0.554, False),
    ("gTabu18-hash-win", 540, 0.012, 0.509, 0.571, True),
]


@pytest.mark.parametrize("label,wins,p,low,high,significant", TABLE3)
def test_go_paper_table3_from_table2(label, wins, p, low, high, significant):
    t = binomial_test(wins, 1000)
    assert round(t.pvalue, 3) == p
    assert round(t.ci_low, 3) == low
    assert round(t.ci_high, 3) == high
    assert t.significant(0.05) is significant


def test_win_rate_table_and_interval_agree():
    df = win_rate_table([{"method": label, "wins": wins, "games": 1000}
                         for label, wins, *_ in TABLE3], rounded=False)
    assert list(df["significant"]) == [row[-1] for row in TABLE3]
    assert clopper_pearson(540, 1000) == pytest.approx((df.ci_low[4], df.ci_high[4]))


def test_win_rate_table_keeps_the_columns_in_place_and_rounds():
    df = win_rate_table([{"method": "gTabu18-hash-win", "wins": 540, "games": 1000,
                          "as_black": "280/500"}])
    assert list(df.columns) == ["method", "wins", "games", "rate", "ci_low", "ci_high", "p_value",
                                "significant", "as_black"]
    row = df.iloc[0]
    # the Go paper's Table 3 row, rounded as it prints it
    assert (row.rate, row.ci_low, row.ci_high, row.p_value) == (0.54, 0.509, 0.571, 0.0124)
    assert bool(row.significant) is True
    assert win_rate_row(513, 1000)["significant"] is False


def test_win_rate_cells_are_the_rounded_rate_and_the_interval_as_text():
    # the Go paper's Table 3 row of gTabu18-hash-win: 540 of 1,000, interval 0.509-0.571
    assert win_rate_cells(540, 1000) == {"rate": 0.54, "95% CI": "0.509-0.571"}
    assert interval_text(0.5, 0.12345) == "0.500-0.123"
    assert interval_text(0.5, 0.12345, digits=1) == "0.5-0.1"
    row = win_rate_row(7, 9)
    assert win_rate_cells(7, 9) == {"rate": round(row["rate"], 3),
                                    "95% CI": f"{row['ci_low']:.3f}-{row['ci_high']:.3f}"}
    with pytest.raises(ValueError, match="trials"):
        win_rate_cells(0, 0)


def test_binomial_rejects_bad_counts():
    with pytest.raises(ValueError, match="successes"):
        binomial_test(11, 10)
    with pytest.raises(ValueError, match="trials"):
        binomial_test(0, 0)


def test_elo_by_hand():
    # equal ratings: expectation 1/2, a win with K = 32 gains 16 points
    assert elo_expected(1500.0, 1500.0) == pytest.approx(0.5)
    assert elo_update(1500.0, 1500.0, 1.0, 32.0) == pytest.approx(1516.0)
    # 400 points apart: expectation 1/(1+10) for the weaker player
    assert elo_expected(1500.0, 1900.0) == pytest.approx(1 / 11)
    assert elo_update(1500.0, 1900.0, 0.5, 32.0) == pytest.approx(1500 + 32 * (0.5 - 1 / 11))
    # a loss against an equal opponent
    assert elo_update(1600.0, 1600.0, 0.0, 32.0) == pytest.approx(1584.0)


def test_score_interval_counts_draws_as_half():
    s = score_interval(wins=50, draws=20, losses=30)
    assert s.score == pytest.approx(0.6)
    # per-game variance: E[x^2] - E[x]^2 = (50 + 0.25 * 20) / 100 - 0.36 = 0.19
    half = 1.959963984540054 * math.sqrt(0.19 / 100)
    assert (s.low, s.high) == pytest.approx((0.6 - half, 0.6 + half))
    with pytest.raises(ValueError):
        score_interval(0, 0, 0)


@pytest.mark.parametrize("games,p,lower", [(200, 0.785, True), (2178 * 2, 0.5, False),
                                           (40, 0.3, False), (1000, 0.519, True)])
def test_detectable_difference_is_games_for_power_read_backwards(games, p, lower):
    d = detectable_difference(games, p, lower=lower)
    sign = -1 if lower else 1
    assert games_for_power(p, p + sign * d) <= games  # found with these games
    assert games_for_power(p, p + sign * (d - 0.001)) > games  # the next smaller is not


def test_detectable_difference_known_answer_and_limits():
    # docs/bench/go.md: 4,353 games per engine find 0.50 against 0.53 (3 points)
    assert detectable_difference(4353, 0.5) == 0.03
    assert math.isnan(detectable_difference(3, 0.9))  # no rate above 0.9 is found with 3 games
    assert math.isnan(detectable_difference(1, 0.5, lower=True))
    with pytest.raises(ValueError):
        detectable_difference(0, 0.5)
    with pytest.raises(ValueError):
        detectable_difference(10, 1.0)
