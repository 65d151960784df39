"""Figures of the Sudoku notebook (``sudoku_less_clue``): the clue histogram of the Table 1
runs and the finds per tenth of a run, drawn from the task results of
:mod:`mctslab.sudoku.experiments` (the tables they summarise are :mod:`mctslab.sudoku.tables`).
"""

from __future__ import annotations

import numpy as np

from mctslab.core.plotting import plt
from mctslab.sudoku.tables import _groups, finds_per_tenth

__all__ = ["histogram_figure", "finds_per_tenth_figure"]


def histogram_figure(results, title="Clue counts of generated puzzles (Table 1 runs)"):
    """Histogram of clue counts per variant, summed over seeds (log scale)."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for variant, runs in _groups(results, lambda r: r["variant"]).items():
        h = np.sum([r["histogram"] for r in runs], axis=0)
        clues = np.flatnonzero(h)
        if len(clues):
            span = np.arange(clues.min(), clues.max() + 1)
            ax.step(span, h[span], where="mid", label=variant)
    ax.set_yscale("log")
    ax.set_xlabel("clues")
    ax.set_ylabel("puzzles generated, all seeds (log)")
    ax.legend(fontsize=8)
    fig.suptitle(title)
    return fig


def finds_per_tenth_figure(results, clues=(19, 20), title="Finds per tenth of the run"):
    """One panel per clue count: mean re-verified finds per tenth of the run over seeds, one
    line per reading (its number of runs and playouts per run in the legend)."""
    table = finds_per_tenth(results, clues)
    fig, axes = plt.subplots(1, len(clues), figsize=(5 * len(clues), 4), squeeze=False)
    for ax, n in zip(axes[0], clues):
        for (reading, playouts), rows in table.groupby(["reading", "playouts/run"], sort=False):
            means = rows.groupby("tenth")[f"N={n}"].mean()
            ax.plot(means.index, means.to_numpy(), marker="o",
                    label=f"{reading} ({rows['seed'].nunique()} runs x {playouts:,})")
        ax.set_xlabel("tenth of the run")
        ax.set_ylabel(f"puzzles with {n} clues (mean over runs)")
        ax.set_xticks(range(1, 11))
        ax.set_title(f"N={n}")
    if table.empty:
        axes[0][0].text(0.5, 0.5, "no run recorded when its finds happened",
                        ha="center", transform=axes[0][0].transAxes)
    else:
        axes[0][-1].legend(fontsize=7)
    fig.suptitle(title)
    return fig
