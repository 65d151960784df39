"""The "paper vs this run" shape and the one verdict function (verdicts by equivalence, not
overlap), with property tests of the rules a wide interval cannot pass."""

import math

import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mctslab.core import targets
from mctslab.core.compare import (
    COLUMNS,
    DERIVED,
    DIFFERS,
    INCONCLUSIVE,
    NOT_COMPARED,
    NOT_RUN,
    REPRODUCED,
    Measured,
    PaperRow,
    config_rows,
    judge,
    paper_row,
    paper_table,
    protocol_config,
    read_table,
    rejudge,
)
from mctslab.core.stats import sample_to_settle, sd_from_interval
from mctslab.go import experiments as go_experiments
from mctslab.go.tables import protocol_values


def test_columns_are_the_documented_ones():
    assert COLUMNS == ("paper", "artefact", "row", "column", "kind", "paper_value", "our_value",
                       "low", "high", "n", "min_n", "margin", "scale", "departure",
                       "unit_cpu_s", "verdict", "why", "settle_n", "settle_cpu_h", "note")


def _target(kind, value, margin="", min_n=None, sample=""):
    """A target row's fields that :func:`judge` reads."""
    return {"kind": kind, "value": value, "margin": margin, "min_n": min_n, "sample": sample}


SAMPLED = _target("sampled", 0.519, "0.05", min_n=100)  # Go's Table 2 cell, margin +-0.05


@pytest.mark.parametrize("paper, ours, low, high, expected", [
    (0.519, 0.52, 0.49, 0.55, REPRODUCED),     # inside 0.469..0.569
    (0.519, 0.70, 0.67, 0.73, DIFFERS),        # wholly above
    (0.519, 0.50, 0.44, 0.56, INCONCLUSIVE),   # straddles the lower edge
    (0.519, 0.0, 0.0, 0.52, INCONCLUSIVE),     # 0 of 5 games: contains the paper, not inside
])
def test_sampled_quantities_are_judged_by_equivalence(paper, ours, low, high, expected):
    target = dict(SAMPLED, value=paper)
    assert judge(target, Measured(ours, low, high, n=1000)).verdict == expected


def test_the_recorded_sudoku_row_that_passed_by_overlap_is_open_now():
    # Table 2 (c = 1, threshold 40), N = 20: ours 389,231 [0, 1,230,937] against 78,794
    judged = judge(_target("sampled", 78794.0, "x2", min_n=4, sample="seeds"),
                   Measured(389231.0, 0.0, 1230937.0, n=4, unit_cpu_s=3600.0))
    assert judged.verdict == INCONCLUSIVE
    assert judged.settle_n > 4 and "seeds in all settle it" in judged.why
    assert judged.settle_cpu_h == pytest.approx(judged.settle_n - 4)  # an hour per seed


def test_a_zero_of_the_paper_no_longer_passes_by_a_clipped_interval():
    # Sudoku Table 1 "fully random, mean, rules no" N=20: the paper's 0.0, margin +-1 puzzle
    target = targets.target("sudoku_less_clue", "Table 1", "fully random, mean, rules no",
                            "N=20")
    assert (target["value"], target["margin"]) == (0.0, "1")
    zero = _target("sampled", 0.0, "1", min_n=4)
    assert judge(zero, Measured(1.5, 0.0, 3.2, n=4)).verdict == INCONCLUSIVE
    assert judge(zero, Measured(0.25, 0.0, 0.8, n=4)).verdict == REPRODUCED
    assert judge(zero, Measured(4109.0, 0.0, 10327.0, n=4)).verdict == INCONCLUSIVE
    assert judge(zero, Measured(4109.0, 3000.0, 5200.0, n=4)).verdict == DIFFERS


@pytest.mark.parametrize("kwargs, expected, words", [
    (dict(scale="default"), NOT_RUN, "scale default"),
    (dict(departure="9x9 against level 10"), NOT_RUN, "9x9"),
    (dict(n=20), NOT_RUN, "below the 100"),
    (dict(low=None, high=None), INCONCLUSIVE, "no interval"),
])
def test_scale_protocol_and_sample_come_first(kwargs, expected, words):
    args = dict(low=0.49, high=0.55, n=1000)
    args.update(kwargs)
    judged = judge(SAMPLED, Measured(0.52, **args))
    assert judged.verdict == expected and words in judged.why


@pytest.mark.parametrize("kind, paper, ours, margin, expected", [
    ("config", 8000, 8000, "0", REPRODUCED),
    ("config", 19, 9, "0", DIFFERS),
    ("config", "positions", "positions", "", REPRODUCED),
    ("config", "another legal move", "the playout policy", "", DIFFERS),
    ("exact", 4.562, 4.5618, "0.0005", REPRODUCED),
    ("exact", 5000000, 5776000, "10%", DIFFERS),
    ("exact", 300000000, 34228944, "x3", DIFFERS),
    ("exact", 1.2, 1.4, "25%", REPRODUCED),
])
def test_deterministic_quantities_by_equality_or_margin_at_any_scale(kind, paper, ours, margin,
                                                                     expected):
    assert judge(_target(kind, paper, margin), Measured(ours, scale="smoke")).verdict == expected


def test_claims_derived_and_uncompared():
    claim = _target("claim", "yes")
    assert judge(claim, Measured("holds: 3 of 3")).verdict == REPRODUCED
    assert judge(claim, Measured("fails: 1 of 3")).verdict == DIFFERS
    assert judge(claim, Measured("undecided: p = 0.2")).verdict == INCONCLUSIVE
    assert judge(claim, Measured("holds", scale="smoke")).verdict == NOT_RUN
    assert judge(dict(claim, min_n=20), Measured("holds", n=5)).verdict == NOT_RUN
    with pytest.raises(ValueError, match="holds, fails or undecided"):
        judge(claim, Measured("true"))
    assert judge(_target("derived", 685), Measured(700)).verdict == DERIVED
    assert judge(_target("uncompared", 7.0), Measured(16.8)).verdict == NOT_COMPARED
    assert judge(SAMPLED, Measured(None, n=1000)).verdict == NOT_RUN
    assert judge(SAMPLED, Measured(math.nan, n=1000)).verdict == NOT_RUN
    with pytest.raises(ValueError, match="compares numbers"):
        judge(SAMPLED, Measured("0.52", 0.49, 0.55, n=1000))


def test_paper_row_takes_value_kind_and_margin_from_the_targets_file():
    row = paper_row("go_state_tabu", "Table 4", "L = 8", "tabu candidates per playout", 0.2125,
                    n=1, scale="paper")
    # the paper prints 0.213 (1,700 / 8,000 = 0.2125): the value judged is the value shown
    assert row.paper_value == 0.213 == targets.value("go_state_tabu", "Table 4", "L = 8",
                                                     "tabu candidates per playout")
    assert (row.kind, row.margin, row.verdict) == ("sampled", "0.01", INCONCLUSIVE)
    with pytest.raises(KeyError, match="no target Table 9"):
        paper_row("go_state_tabu", "Table 9", "x", "y", 1.0, scale="paper")
    with pytest.raises(ValueError, match="verdict"):
        PaperRow(*(["p"] * 4), "sampled", 1.0, 1.0, None, None, None, None, "0", "smoke", "",
                 None, "close", "", None, None, "")


def _rows():
    return [
        paper_row("tsp_mcts_vs_sa", "Fig. 8", "MCT_RM", "mean ratio to SA", 0.641, low=0.62,
                  high=0.66, n=77, scale="paper", unit_cpu_s=12.5),
        paper_row("tsp_mcts_vs_sa", "Fig. 8", "MCT_UM", "mean ratio to SA", 1.1, low=1.0,
                  high=1.2, n=77, scale="paper", unit_cpu_s=12.5, note="a note, with a comma"),
        paper_row("tsp_mcts_vs_sa", "Sec. 4", "MCT_RM", "time to reach SA's length (% of SA's)",
                  100.0, low=90.0, high=math.inf, n=80, scale="paper"),
        paper_row("tsp_mcts_vs_sa", "Sec. 4", "SA", "cooling factor", 0.99, scale="paper"),
        paper_row("tsp_mcts_vs_sa", "Fig. 9", "roulette", "Cp multipliers", "0, 2, 4",
                  scale="smoke"),
    ]


def test_rows_stack_and_a_target_appears_once():
    table = paper_table(_rows())
    assert tuple(table.columns) == COLUMNS and tuple(paper_table([]).columns) == COLUMNS
    assert list(table.verdict) == [REPRODUCED, INCONCLUSIVE, DIFFERS, REPRODUCED, REPRODUCED]
    with pytest.raises(ValueError, match="compared twice"):
        paper_table(_rows() + _rows()[:1])


def test_a_written_table_reads_back_and_judges_the_same(tmp_path):
    path = tmp_path / "paper_vs_run.csv"
    paper_table(_rows()).to_csv(path, index=False)
    records = read_table(path)
    assert [r["our_value"] for r in records] == [0.641, 1.1, 100.0, 0.99, "0, 2, 4"]
    assert records[2]["high"] == math.inf and records[1]["note"] == "a note, with a comma"
    for record, row in zip(records, _rows()):
        again = rejudge(record)
        assert (again.verdict, again.settle_n) == (row.verdict, row.settle_n)
        assert again.settle_cpu_h == pytest.approx(row.settle_cpu_h)
    pd.DataFrame([{"paper": "x"}]).to_csv(path, index=False)
    with pytest.raises(ValueError, match="columns must be"):
        read_table(path)


def test_rejudging_with_a_target_uses_its_margin():
    record = dict(paper_row("tsp_mcts_vs_sa", "Fig. 8", "MCT_RM", "mean ratio to SA", 0.641,
                            low=0.62, high=0.66, n=77, scale="paper").__dict__)
    target = targets.target("tsp_mcts_vs_sa", "Fig. 8", "MCT_RM", "mean ratio to SA")
    assert rejudge(record, target).verdict == REPRODUCED
    assert rejudge(record, dict(target, margin="0.01")).verdict == INCONCLUSIVE


def test_settling_sample_known_answers():
    # a win rate near 0.5 over 100 games: sd 0.5; 0.02 from the edge of +-0.05 around 0.52
    sd = sd_from_interval(0.40, 0.60, 100)
    assert sd == pytest.approx(0.504, abs=0.01)
    n = sample_to_settle(0.49, 0.5, 0.47, 0.57)
    assert n == math.ceil((2.8016 * 0.5 / 0.02) ** 2)
    assert sample_to_settle(0.47, 0.5, 0.47, 0.57) is None  # on the edge: nothing settles it
    assert sample_to_settle(0.52, 0.5, 0.47, 0.57, n=10_000) == 10_001


def test_an_estimate_on_the_bands_edge_still_states_a_sample_and_its_cost():
    # the recorded Sudoku row: the paper's 0 +- 1, ours 1.0 [0, 2.837] over 4 seeds
    judged = judge(_target("sampled", 0.0, "1", sample="seeds"),
                   Measured(1.0, 0.0, 2.837386, n=4, unit_cpu_s=70.0))
    sd = sd_from_interval(0.0, 2.837386, 4)
    assert judged.verdict == INCONCLUSIVE and "sits on the edge" in judged.why
    assert judged.settle_n == sample_to_settle(0.0, sd, -1.0, 1.0, n=4) > 4
    assert judged.settle_cpu_h == pytest.approx((judged.settle_n - 4) * 70.0 / 3600)


# -- properties of the verdict ------------------------------------------------------------
_SAMPLED = [dict(r, min_n=int(r["min_n"])) for r in targets.all_targets().to_dict("records")
            if r["kind"] == "sampled" and r["value"] != 0]


@settings(max_examples=300, deadline=None)
@given(target=st.sampled_from(_SAMPLED), below=st.floats(0, 1e6), above=st.floats(0, 1e6),
       n=st.integers(2, 100_000))
def test_a_5x_difference_is_never_reproduced_however_wide_the_interval(target, below, above, n):
    ours = 5 * target["value"]
    judged = judge(target, Measured(ours, ours - below, ours + above, n=n))
    assert judged.verdict != REPRODUCED


@settings(max_examples=300, deadline=None)
@given(target=st.sampled_from(_SAMPLED), ours=st.floats(-1e6, 1e6), half=st.floats(0, 1e6),
       scale=st.sampled_from(["smoke", "default", "paper"]))
def test_a_single_seed_never_reproduces_a_sampled_quantity(target, ours, half, scale):
    for low, high in ((ours - half, ours + half), (None, None)):
        judged = judge(dict(target, min_n=None), Measured(ours, low, high, n=1, scale=scale))
        assert judged.verdict != REPRODUCED


@settings(max_examples=300, deadline=None)
@given(target=st.sampled_from(_SAMPLED), a=st.floats(0, 1), b=st.floats(0, 1),
       extra=st.integers(0, 1000))
def test_an_interval_inside_the_margin_always_reproduces(target, a, b, extra):
    lower, upper = targets.margin_bounds(target["value"], target["margin"])
    low, high = sorted((lower + a * (upper - lower), lower + b * (upper - lower)))
    judged = judge(target, Measured((low + high) / 2, low, high,
                                    n=max(2, int(target["min_n"])) + extra))
    assert judged.verdict == REPRODUCED


@settings(max_examples=300, deadline=None)
@given(target=st.sampled_from(_SAMPLED), gap=st.floats(1e-6, 1e6), width=st.floats(0, 1e6),
       side=st.sampled_from([-1, 1]))
def test_an_interval_wholly_outside_the_margin_differs(target, gap, width, side):
    lower, upper = targets.margin_bounds(target["value"], target["margin"])
    low = upper + gap if side > 0 else lower - gap - width
    assume(low + width != (upper if side > 0 else lower))  # rounding onto the edge
    judged = judge(target, Measured(low + width / 2, low, low + width,
                                    n=max(2, int(target["min_n"]))))
    assert judged.verdict == DIFFERS


@settings(max_examples=200, deadline=None)
@given(target=st.sampled_from(_SAMPLED), ours=st.floats(-1e6, 1e6), half=st.floats(0, 1e6),
       n=st.integers(2, 10_000), scale=st.sampled_from(["smoke", "default"]))
def test_a_sampled_quantity_is_never_judged_below_the_papers_scale(target, ours, half, n, scale):
    judged = judge(target, Measured(ours, ours - half, ours + half, n=n, scale=scale))
    assert judged.verdict == NOT_RUN


def test_config_targets_judge_the_runs_overrides_at_paper_scale():
    """A paper-scale run with an override (Go's -p board_size 9) departs from the paper's
    protocol: its config rows read the run's value, not the paper scale's default."""
    def board_row(cfg):
        rows = config_rows("go_state_tabu", protocol_values(protocol_config(cfg, go_experiments.config)),
                           cfg.scale)
        return next(r for r in rows if r.column == "board size")

    nine = board_row(go_experiments.config("paper", board_size=9))
    assert (nine.our_value, nine.verdict) == (9, "differs")
    assert board_row(go_experiments.config("paper")).verdict == "reproduced"
    smoke = board_row(go_experiments.config("smoke"))  # smoke rows are about the paper scale
    assert (smoke.our_value, smoke.verdict) == (19, "reproduced")
