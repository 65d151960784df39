"""Go figures: a game record drawn as a board (final position, move numbers) passes the figure
checks, draws every stone left and numbers each played one; the boards are the arrays of
``experiments.run_game_boards`` (one stored task per game) and a figure opens no file and
replays no game."""

import ast
import builtins
from pathlib import Path

import numpy as np
import pytest

from mctslab.core.executor import run_tasks
from mctslab.core.figcheck import figure_problems
from mctslab.core.plotting import plt
from mctslab.go import experiments, figures, match_record, played, sgf
from mctslab.go.api import BLACK, WHITE

ROOT = Path(__file__).resolve().parents[2]
FULL = ROOT / "records" / "go_state_tabu" / "strong9-2026-11-26" / "full"  # a match folder

MOVES = [(BLACK, (0, 1)), (WHITE, (0, 0)), (BLACK, (4, 4)), (WHITE, (1, 1)), (BLACK, (1, 0)),
         (WHITE, (5, 5)), (BLACK, None)]


class _Run:
    """What ``run_game_boards`` needs of a notebook's Run: a seed and ``map`` (the executor
    in-process, its store under ``out``)."""

    seed = 20261123

    def __init__(self, out):
        self.out = out

    def map(self, experiment, tasks):
        return run_tasks(experiment, tasks, workers=1, out=self.out, progress=False)


def _boards(games: dict, out) -> dict:
    return experiments.run_game_boards(_Run(out), experiments.config("smoke"), games)


def _texts(ax):
    return sorted(int(t.get_text()) for t in ax.texts)


def test_a_board_draws_the_stones_left_with_their_move_numbers(tmp_path):
    path = sgf.save_game(tmp_path / "g.sgf", 9, 6.5, MOVES, result="B+R",
                         root_props={"PB": "mctslab strong 8000, rave silver", "PW": "GNU Go"})
    fig, ax = plt.subplots()
    info = figures.draw_board(ax, _boards({"g": path.read_bytes()}, tmp_path)["g"], "a game")
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
    a = sgf.game_bytes(9, 6.5, MOVES[:3], result="B+1.5")
    fig = figures.game_boards_figure(_boards({"won": a, "lost": sgf.game_bytes(9, 6.5, MOVES)},
                                             tmp_path))
    # as Run.figure does: the scale appended to the suptitle after the layout
    fig.suptitle(fig._suptitle.get_text() + " (scale: smoke)")
    assert len(fig.axes) == 2 and figure_problems(fig) == []
    assert len(fig.axes[0].patches) == 3 and len(fig.axes[1].patches) == 5
    plt.close(fig)
    empty = figures.game_boards_figure({})
    assert "no committed game record" in empty.axes[0].texts[0].get_text()
    plt.close(empty)
    three = figures.game_boards_figure(_boards({"a": a, "b": a, "c": a}, tmp_path))
    assert len(three.axes) == 4 and not three.axes[3].axison  # two to a row, the 4th blank
    three.suptitle(three._suptitle.get_text() + " (scale: smoke)")
    assert figure_problems(three) == []  # captions clear of the next row
    assert [len(ax.patches) for ax in three.axes[:3]] == [3, 3, 3]
    plt.close(three)


@pytest.mark.skipif(not FULL.is_dir(), reason="no committed strong record")
def test_a_committed_game_of_the_strong_engine_is_drawn_in_full(tmp_path):
    game = match_record.game_sgf(FULL, "0000-B.sgf")  # its games packed or not
    assert game is not None
    board, info, numbers = sgf.numbered_position(game)
    fig, ax = plt.subplots()
    drawn = figures.draw_board(ax, _boards({"game": game}, tmp_path)["game"])
    assert drawn["stones"] == int(np.count_nonzero(board.stones()))
    assert drawn["numbered"] == int(np.count_nonzero(numbers)) == drawn["stones"]
    assert max(_texts(ax)) <= len(info["moves"])
    assert figure_problems(fig) == []
    plt.close(fig)


def test_the_boards_are_stored_tasks_giving_the_final_positions_as_arrays(tmp_path, monkeypatch):
    text = sgf.game_bytes(9, 6.5, MOVES, result="B+R", root_props={"PB": "a", "PW": "b"})
    text += "é".encode()  # bytes past ASCII after the game: the task's text gives them back
    board = _boards({"g": text}, tmp_path)["g"]
    final, info, numbers = sgf.numbered_position(text)
    assert board["stones"].dtype == np.int8 and np.array_equal(board["stones"], final.stones())
    assert board["numbers"].dtype == np.int32 and np.array_equal(board["numbers"], numbers)
    assert (board["size"], board["moves"], board["result"], board["black"]) == (9, 7, "B+R", "a")
    # stored: a second run reads the board back from the store and computes nothing
    monkeypatch.setattr(played, "final_board_task", lambda params, seed: pytest.fail("again"))
    again = _boards({"g": text}, tmp_path)["g"]
    assert np.array_equal(again["stones"], board["stones"]) and again["moves"] == 7
    assert _boards({}, tmp_path) == {}


def test_a_board_figure_draws_the_arrays_it_is_given_and_opens_no_file(monkeypatch):
    # a position no game reaches (stones on every point of a row, numbers made up): the figure
    # draws these arrays as they are, with no file opened and no game replayed
    stones = np.zeros((5, 5), np.int8)
    stones[0, :] = BLACK
    stones[4, 1] = WHITE
    numbers = np.zeros((5, 5), np.int32)
    numbers[0, :] = [11, 12, 13, 14, 15]  # the stone at (4, 1) has none: a setup stone
    board = {"size": 5, "stones": stones, "numbers": numbers, "black": "b", "white": "w",
             "result": None, "moves": 99}

    def refuse(*args, **kwargs):
        raise AssertionError("a figure opened a file or replayed a game")

    monkeypatch.setattr(builtins, "open", refuse)
    monkeypatch.setattr(Path, "open", refuse)
    for name in ("numbered_position", "load", "main_line"):
        monkeypatch.setattr(sgf, name, refuse)
    monkeypatch.setattr(played, "final_board_task", refuse)
    fig = figures.game_boards_figure({"made up": board})
    ax = fig.axes[0]
    assert len(ax.patches) == 6 and _texts(ax) == [11, 12, 13, 14, 15]
    assert "99 moves, result ?" in ax.get_xlabel()
    plt.close(fig)


def test_the_figures_module_imports_only_plotting_and_the_colours():
    # what a Go figure may use: numpy, matplotlib, core.plotting and the colour constants;
    # no sgf, tables, experiments, store or path module, and no call that reads a file
    tree = ast.parse(Path(figures.__file__).read_text())
    imported = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update({alias.name: None for alias in node.names})
        elif isinstance(node, ast.ImportFrom):
            imported[node.module] = sorted(alias.name for alias in node.names)
    allowed = {"__future__", "numpy", "matplotlib.patches", "mctslab.core.plotting"}
    assert {m for m in imported if m not in allowed} == {"mctslab.go.api"}
    assert imported["mctslab.go.api"] == ["BLACK", "WHITE"]
    readers = {"open", "read_bytes", "read_text", "Path", "load", "loads", "read_csv",
               "numbered_position", "ResultStore"}
    calls = {node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
             for node in ast.walk(tree) if isinstance(node, ast.Call)}
    assert not calls & readers
