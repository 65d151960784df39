"""Go figures: a game record drawn as a board (final position, move numbers) passes the figure
checks, draws every stone left and numbers each played one."""

from pathlib import Path

import numpy as np
import pytest

from mctslab.core.figcheck import figure_problems
from mctslab.core.plotting import plt
from mctslab.go import figures, match_record, sgf
from mctslab.go.api import BLACK, WHITE

ROOT = Path(__file__).resolve().parents[2]
FULL = ROOT / "records" / "go_state_tabu" / "strong9-2026-11-26" / "full"  # a match folder

MOVES = [(BLACK, (0, 1)), (WHITE, (0, 0)), (BLACK, (4, 4)), (WHITE, (1, 1)), (BLACK, (1, 0)),
         (WHITE, (5, 5)), (BLACK, None)]


def _texts(ax):
    return sorted(int(t.get_text()) for t in ax.texts)


def test_a_board_draws_the_stones_left_with_their_move_numbers(tmp_path):
    path = sgf.save_game(tmp_path / "g.sgf", 9, 6.5, MOVES, result="B+R",
                         root_props={"PB": "mctslab strong 8000, rave silver", "PW": "GNU Go"})
    fig, ax = plt.subplots()
    info = figures.draw_board(ax, path, "a game")
    # W (0, 0) was captured by move 5: 5 stones left, numbered 1, 3, 4, 5, 6
    assert info["stones"] == 5 == len(ax.patches) and info["numbered"] == 5
    assert _texts(ax) == [1, 3, 4, 5, 6]
    label = ax.get_xlabel()
    assert label.startswith("a game\nBlack: mctslab strong 8000") and "rave" not in label
    assert "7 moves, result B+R" in label
    assert [t.get_text() for t in ax.get_xticklabels()][7:] == ["H", "J"]  # no I
    assert figure_problems(fig) == []
    plt.close(fig)


def test_two_games_side_by_side_and_an_empty_figure_saying_why(tmp_path):
    a = sgf.save_game(tmp_path / "a.sgf", 9, 6.5, MOVES[:3], result="B+1.5")
    fig = figures.game_boards_figure({"won": a, "lost": sgf.game_bytes(9, 6.5, MOVES)})
    # as Run.figure does: the scale appended to the suptitle after the layout
    fig.suptitle(fig._suptitle.get_text() + " (scale: smoke)")
    assert len(fig.axes) == 2 and figure_problems(fig) == []
    assert len(fig.axes[0].patches) == 3 and len(fig.axes[1].patches) == 5
    plt.close(fig)
    empty = figures.game_boards_figure({})
    assert "no committed game record" in empty.axes[0].texts[0].get_text()
    plt.close(empty)


@pytest.mark.skipif(not FULL.is_dir(), reason="no committed strong record")
def test_a_committed_game_of_the_strong_engine_is_drawn_in_full():
    game = match_record.game_sgf(FULL, "0000-B.sgf")  # its games packed or not
    assert game is not None
    board, info, numbers = sgf.numbered_position(game)
    fig, ax = plt.subplots()
    drawn = figures.draw_board(ax, game)
    assert drawn["stones"] == int(np.count_nonzero(board.stones()))
    assert drawn["numbered"] == int(np.count_nonzero(numbers)) == drawn["stones"]
    assert max(_texts(ax)) <= len(info["moves"])
    assert figure_problems(fig) == []
    plt.close(fig)
