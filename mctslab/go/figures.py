"""Figures of the state-tabu paper (notebook ``go_state_tabu``): Fig. 5, Fig. 6, Table 2 and
Table 4 as plots, ours beside the paper's (Fig. 5 and Table 4 also by the strong engine beside
the paper's search); and game records drawn as boards (the final position with move numbers,
:func:`game_boards_figure`, from the arrays of
:func:`mctslab.go.experiments.run_game_boards`). A figure draws what it is given: it reads no
file and replays no game.

Each figure's title is its suptitle (``Run.figure`` appends the scale to it, so the two never
overlap); a symlog axis says so in its label."""

from __future__ import annotations

import numpy as np
from matplotlib.patches import Circle

from mctslab.core.plotting import plt
from mctslab.go.api import BLACK, WHITE

__all__ = ["figure5", "figure5_by_engine", "figure6", "win_rate_figure", "table4_figure",
           "table4_by_engine_figure", "game_boards_figure", "draw_board"]

_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # Go's column letters: no I


def figure5(played, top: int = 50):
    """Occurrence counts of the most frequent positions at playout moves 1..M, per method."""
    tasks, results = played.tasks, played.results
    fig, ax = plt.subplots(figsize=(7, 4))
    for t, r in zip(tasks, results):
        counts = r["counts"][:top]
        ax.plot(np.arange(1, len(counts) + 1), counts, marker=".", label=t.params["config"])
    ax.set_xlabel("position rank (most frequent first)")
    ax.set_ylabel("occurrences in the search")
    playouts = tasks[0].params["playouts"] if tasks else 0
    fig.suptitle(f"Fig. 5: duplicate positions, playout moves 1-{tasks[0].params['moves']}, "
                 f"{playouts:,} playouts" if tasks else "Fig. 5")
    ax.legend()
    fig.tight_layout()
    return fig


def figure5_by_engine(host, strong, top: int = 50):
    """Fig. 5 by two engines side by side, the same y scale: the occurrence counts of the most
    frequent positions at playout moves 1..M per configuration, the paper's search (``host``)
    left, the strong engine right; a figure saying why when the strong engine did not run."""
    title = "Fig. 5 by engine: duplicate positions"
    if strong.skipped:
        return _reason_figure(strong.skipped, title)
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, played, name in zip(axes, (host, strong), ("the paper's search (UCT)",
                                                        "the strong engine")):
        for t, r in zip(played.tasks, played.results):
            counts = r["counts"][:top]
            ax.plot(np.arange(1, len(counts) + 1), counts, marker=".", label=t.params["config"])
        ax.set_title(name)
        ax.set_xlabel("position rank (most frequent first)")
        ax.legend()
    axes[0].set_ylabel("occurrences in the search")
    if strong.tasks:
        params = strong.tasks[0].params
        title += f", playout moves 1-{params['moves']}, {params['playouts']:,} playouts"
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def _skipped_figure(table, title):
    """A figure that says why it is empty (GNU Go not installed), or None."""
    if "skipped" not in table.columns:
        return None
    return _reason_figure(table["skipped"].iloc[0], title)


def _reason_figure(reason, title):
    """A figure holding only ``reason`` (why there is nothing to draw)."""
    fig, ax = plt.subplots(figsize=(7, 2))
    ax.axis("off")
    ax.text(0.5, 0.5, str(reason)[:120], ha="center", va="center", wrap=True)
    fig.suptitle(title)
    return fig


def figure6(thinking):
    """Mean thinking time per game minus GNU Go's: ours and the paper's (Fig. 6)."""
    skipped = _skipped_figure(thinking, "Fig. 6: thinking time per game")
    if skipped is not None:
        return skipped
    fig, ax = plt.subplots(figsize=(7, 4))
    x = np.arange(len(thinking))
    ax.bar(x - 0.2, thinking["difference s/game"], 0.4, label="ours")
    paper = thinking["paper difference s/game"].astype(float)
    ax.bar(x + 0.2, paper, 0.4, label="paper (i7-4790, inside GNU Go)")
    ax.set_xticks(x, thinking["method"], rotation=20)
    ax.set_xlabel("engine (Table 1)")
    ax.set_ylabel("seconds per game, minus GNU Go's (symlog scale)")
    ax.set_yscale("symlog", linthresh=1.0)
    fig.suptitle("Fig. 6: thinking time per game")
    ax.legend()
    fig.tight_layout()
    return fig


def win_rate_figure(table3):
    """Total win rate per engine with its 95% interval, the paper's beside (Tables 2-3): the
    rates and intervals of :func:`mctslab.go.tables.table3`, the paper's as the middle of its
    interval."""
    skipped = _skipped_figure(table3, "Tables 2-3: win rates against GNU Go 3.8")
    if skipped is not None:
        return skipped
    fig, ax = plt.subplots(figsize=(7, 4))
    x = np.arange(len(table3))
    rates = table3["rate"]
    ax.errorbar(x - 0.1, rates, yerr=[rates - table3["ci_low"], table3["ci_high"] - rates],
                fmt="o", capsize=4, label="ours, 95% Clopper-Pearson")
    paper = (table3["paper ci_low"].astype(float) + table3["paper ci_high"].astype(float)) / 2
    ax.plot(x + 0.1, paper, "s", label="paper (1,000 games)")
    ax.axhline(0.5, color="grey", lw=0.8)
    ax.set_xticks(x, table3["method"], rotation=20)
    ax.set_xlabel("row of Table 2")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate against GNU Go")
    fig.suptitle("Tables 2-3: win rates against GNU Go 3.8")
    ax.legend()
    fig.tight_layout()
    return fig


def table4_figure(table4):
    """Tabu candidates per playout against the move-tabu size, with the Eq. 12 bound; with
    several searches per size, ours is their mean inside its 95% t interval (shaded)."""
    searches = int(table4["searches"].max()) if "searches" in table4 and len(table4) else 1
    label = "ours" if searches == 1 else f"ours, mean of {searches} searches"
    fig = _candidates_figure(table4, [("per playout", "o-", label)],
                             "Table 4: rejected candidates")
    if searches > 1:
        ax = fig.axes[0]
        ax.fill_between(table4["L"], table4["low"], table4["high"], alpha=0.25,
                        label="ours, 95% t interval")
        ax.legend()
    return fig


def _candidates_figure(table, ours, title: str):
    """Table 4's plot: the ``ours`` lines (column, style, label), then the paper's and the
    Eq. 12 bound, against the move-tabu size."""
    fig, ax = plt.subplots(figsize=(7, 4))
    for column, style, label in [*ours, ("paper per playout", "s--", "paper"),
                                 ("Eq. 12 bound", ":", "Eq. 12 bound")]:
        ax.plot(table["L"], table[column], style, label=label)
    ax.set_yscale("symlog", linthresh=0.1)
    ax.set_xlabel("tabu size L (move tabu)")
    ax.set_ylabel("tabu candidates per playout (symlog scale)")
    fig.suptitle(title)
    ax.legend()
    fig.tight_layout()
    return fig


def table4_by_engine_figure(table):
    """Tabu candidates per playout against the move-tabu size by both engines (the columns of
    :func:`mctslab.go.tables.table4_by_engine`), the paper's and the Eq. 12 bound."""
    title = "Table 4 by engine: rejected candidates"
    skipped = _skipped_figure(table, title)
    if skipped is not None:
        return skipped
    return _candidates_figure(table, [("host per playout", "o-", "the paper's search (UCT)"),
                                      ("strong per playout", "^-", "the strong engine")], title)


def _player(name: str | None, width: int = 40) -> str:
    """A player's name up to its first comma, at most ``width`` characters (our engine's
    names list every setting)."""
    name = (name or "?").split(",")[0].strip()
    return name if len(name) <= width else name[: width - 3] + "..."


def draw_board(ax, board: dict, title: str | None = None) -> dict:
    """Draw a game's final position on ``ax`` (``board``: one value of
    :func:`mctslab.go.experiments.run_game_boards`): the grid with Go coordinates (column letters
    without I, row 1 at the bottom), each stone with the number of the move that placed it (a
    setup stone has none). Returns the counts drawn: ``stones`` and ``numbered``."""
    size, stones, numbers = board["size"], board["stones"], board["numbers"]
    for k in range(size):
        ax.plot([0, size - 1], [k, k], color="black", lw=0.6, zorder=1)
        ax.plot([k, k], [0, size - 1], color="black", lw=0.6, zorder=1)
    font = max(4.0, 60.0 / size)
    drawn = numbered = 0
    for row in range(size):
        for col in range(size):
            color = int(stones[row, col])
            if color not in (BLACK, WHITE):
                continue
            face, ink = ("black", "white") if color == BLACK else ("white", "black")
            ax.add_patch(Circle((col, row), 0.47, facecolor=face, edgecolor="black", lw=0.6,
                                zorder=2))
            drawn += 1
            if numbers[row, col]:
                ax.text(col, row, str(int(numbers[row, col])), color=ink, ha="center",
                        va="center", fontsize=font, zorder=3)
                numbered += 1
    ax.set_facecolor("#dcb35c")
    ax.set_xlim(-0.7, size - 0.3)
    ax.set_ylim(-0.7, size - 0.3)
    ax.set_aspect("equal")
    ax.set_xticks(range(size), list(_COLUMNS[:size]))
    ax.set_yticks(range(size), [str(k + 1) for k in range(size)])
    ax.tick_params(length=0)
    # the game's caption goes under the board, not above it: Run.figure lengthens the
    # suptitle with the run's scale, which would then run into titles above the boards
    lines = [title] if title else []
    lines += [f"Black: {_player(board['black'])}", f"White: {_player(board['white'])}",
              f"{board['moves']} moves, result {board['result'] or '?'} "
              "(captured stones not shown)"]
    ax.set_xlabel("\n".join(lines), fontsize=9)
    ax.set_ylabel("row")
    return {"stones": drawn, "numbered": numbered}


def game_boards_figure(boards: dict, title: str = "Games of the strong engine"):
    """The final positions ``boards`` (:func:`mctslab.go.experiments.run_game_boards`:
    ``{title: board}``) two to a row, each with its move numbers (:func:`draw_board`); an empty
    dict gives a figure saying there is no game to show."""
    if not boards:
        fig, ax = plt.subplots(figsize=(7, 2))
        ax.axis("off")
        ax.text(0.5, 0.5, "no committed game record to show (records/go_state_tabu/strong9-*)",
                ha="center", va="center")
        fig.suptitle(title)
        return fig
    cols = min(2, len(boards))
    rows = -(-len(boards) // cols)
    # a board's four-line caption below it needs room above the next row's board
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 5.6 + 6.4 * (rows - 1)),
                             squeeze=False)
    for ax, (name, board) in zip(axes.flat, boards.items()):
        draw_board(ax, board, name)
    for ax in axes.flat[len(boards):]:
        ax.axis("off")
    fig.suptitle(title)
    fig.tight_layout()
    return fig
