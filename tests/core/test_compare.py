"""The "paper vs this run" shape every domain fills (issue 22), and the scorecard it feeds."""

import math

import pandas as pd
import pytest

from mctslab.core.compare import (
    COLUMNS,
    DIFFERS,
    NOT_RUN,
    REPRODUCED,
    PaperRow,
    judge,
    paper_row,
    paper_table,
)


def test_columns_are_the_documented_ones():
    assert COLUMNS == ("paper", "artefact", "row", "column", "paper_value", "our_value", "low",
                       "high", "n", "scale", "verdict", "note")


@pytest.mark.parametrize("paper, ours, kwargs, expected", [
    (0.632, 0.64, dict(low=0.62, high=0.66), REPRODUCED),       # inside our interval
    (0.632, 0.70, dict(low=0.68, high=0.72), DIFFERS),
    (1.2, 1.25, dict(tolerance=0.1), REPRODUCED),                # absolute tolerance
    (1.2, 1.35, dict(tolerance=0.1), DIFFERS),
    (685.0, 700.0, dict(relative=0.05), REPRODUCED),             # within 5%
    (685.0, 760.0, dict(relative=0.05), DIFFERS),
    ("constant", "constant", {}, REPRODUCED),                    # a statement, by equality
    ("constant", "grows", {}, DIFFERS),
    (0.632, None, dict(low=0.6, high=0.7), NOT_RUN),             # not measured in this run
    (0.632, math.nan, {}, NOT_RUN),
])
def test_judge_by_the_stated_criterion(paper, ours, kwargs, expected):
    assert judge(paper, ours, **kwargs) == expected


def test_numbers_need_a_criterion():
    with pytest.raises(ValueError, match="criterion"):
        judge(0.5, 0.6)
    with pytest.raises(ValueError, match="note"):
        paper_row("tsp", "Fig. 8", "MCT_RM", "ratio", 0.632, 0.6, scale="smoke",
                  verdict=REPRODUCED)
    with pytest.raises(ValueError, match="verdict"):
        PaperRow("tsp", "Fig. 8", "r", "c", 1.0, 1.0, None, None, None, "smoke", "close", "")


def test_rows_stack_into_one_scorecard():
    tsp = paper_table([
        paper_row("tsp_mcts_vs_sa", "Fig. 8", "MCT_RM", "mean ratio to SA", 0.632, 0.641,
                  low=0.62, high=0.66, n=17, scale="default"),
        paper_row("tsp_mcts_vs_sa", "Sec. 4", "MCT_RM", "speed-up", 685, None, scale="smoke"),
    ])
    empty = paper_table([])
    card = pd.concat([tsp, empty], ignore_index=True)
    assert tuple(card.columns) == COLUMNS and tuple(empty.columns) == COLUMNS
    assert list(card.verdict) == [REPRODUCED, NOT_RUN]
    assert card.note[0] == "criterion: the paper's value inside our interval"
    assert card.n[0] == 17


def test_a_verdict_by_hand_is_kept_with_its_note():
    row = paper_row("othello_wpc_de", "Sec. 6", "group beats individual", "holds", "yes", 0.1,
                    scale="paper", verdict=DIFFERS, note="Welch p = 0.1 > 0.05")
    assert (row.verdict, row.note) == (DIFFERS, "Welch p = 0.1 > 0.05")


def test_a_nan_interval_cannot_be_judged():
    row = paper_row("tsp_mcts_vs_sa", "Fig. 8", "MCT_RM", "ratio", 0.632, 0.64,
                    low=math.nan, high=math.nan, n=1, scale="smoke")
    assert row.verdict == NOT_RUN and "single run" in row.note
