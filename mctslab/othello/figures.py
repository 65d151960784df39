"""Figures of the notebook ``othello_wpc_de``: Figs. 5-7 of the paper and a WPC heat map.

Each function returns a matplotlib Figure drawn from the tables of the run's histories
(:func:`mctslab.othello.tables.change_curves`, :func:`~mctslab.othello.tables.group_ratings`)
or of its evaluations; the notebook saves it with ``run.figure`` (which adds the scale to the title when it is
not ``paper``). The x axis is learning games in units of 10,000, as in the paper.
"""

from __future__ import annotations

import numpy as np

from mctslab.core.plotting import plt
from mctslab.othello import wpc as wpc_module

__all__ = ["figure5", "figure6", "figure7", "heatmap"]

_UNIT = 1e4  # games per x-axis unit


def _runs(curves, mode: str) -> list:
    """The changes of each run of ``mode`` in ``curves``, by repetition."""
    part = curves[curves["mode"] == mode]
    return [rows for _, rows in part.groupby("repetition", sort=True)]


def _faint(ax, runs, column, color):
    for series in runs[1:]:
        ax.plot(series["games"] / _UNIT, series[column], color=color, alpha=0.25, lw=0.8)


def figure5(curves):
    """Individual learning: new best vs the opponent it replaced (thin) and vs standard (thick),
    from the table :func:`~mctslab.othello.tables.change_curves` built."""
    runs = _runs(curves, "individual")
    fig, ax = plt.subplots(figsize=(8, 4.2))
    series = runs[0]
    ax.plot(series["games"] / _UNIT, series["vs_opponent"], lw=0.8, color="tab:gray",
            label="new best vs the opponent it replaced")
    ax.plot(series["games"] / _UNIT, series["vs_standard"], lw=2.2, color="tab:blue",
            label="new best vs standard WPC")
    _faint(ax, runs, "vs_standard", "tab:blue")
    ax.axhline(0.5, color="k", lw=0.6, ls=":")
    ax.set(xlabel="games (x10,000)", ylabel="win rate (score)", ylim=(0, 1),
           title="Fig. 5: individual learning"
           + (f" (repetition 0 bold; {len(runs) - 1} more faint)" if len(runs) > 1 else ""))
    ax.legend(loc="lower right", fontsize=8)
    return fig


def figure6(curves, ratings):
    """Group learning: best rating per generation (thin, ``ratings``:
    :func:`~mctslab.othello.tables.group_ratings`) and group's best vs standard (thick,
    ``curves``: :func:`~mctslab.othello.tables.change_curves`)."""
    runs = _runs(curves, "group")
    fig, ax = plt.subplots(figsize=(8, 4.2))
    ax.plot(ratings["games"].to_numpy() / _UNIT, ratings["best"], lw=0.5, color="tab:gray",
            label="rating of the population's best")
    ax.set(xlabel="games (x10,000)", ylabel="Elo rating")
    right = ax.twinx()
    series = runs[0]
    right.plot(series["games"] / _UNIT, series["vs_standard"], lw=2.2, color="tab:red",
               label="group's top-rated WPC vs standard WPC")
    _faint(right, runs, "vs_standard", "tab:red")
    right.axhline(0.5, color="k", lw=0.6, ls=":")
    right.set(ylabel="win rate (score)", ylim=(0, 1))
    handles = ax.get_legend_handles_labels()[0] + right.get_legend_handles_labels()[0]
    ax.legend(handles, [h.get_label() for h in handles], loc="lower right", fontsize=8)
    ax.set_title("Fig. 6: group learning")
    return fig


def figure7(curves):
    """Individual vs group learning against the standard WPC over games (all repetitions),
    from the table :func:`~mctslab.othello.tables.change_curves` built."""
    fig, ax = plt.subplots(figsize=(8, 4.2))
    for mode, color in (("individual", "tab:blue"), ("group", "tab:red")):
        for rep, series in enumerate(_runs(curves, mode)):
            ax.plot(series["games"] / _UNIT, series["vs_standard"], color=color,
                    lw=1.8 if rep == 0 else 0.8, alpha=1.0 if rep == 0 else 0.35,
                    label=f"{mode} learning" if rep == 0 else None)
    ax.axhline(0.5, color="k", lw=0.6, ls=":")
    ax.set(xlabel="games (x10,000)", ylabel="win rate vs standard WPC (score)", ylim=(0, 1),
           title="Fig. 7: individual vs group learning")
    ax.legend(loc="lower right", fontsize=8)
    return fig


def heatmap(evaluated):
    """The learned WPC that scored best against the standard WPC, next to the standard WPC."""
    rows = evaluated.rows
    learned_rows = rows[rows.source.isin(["individual", "group"]) & rows.variables.notna()]
    best = learned_rows.loc[learned_rows["score"].idxmax()]
    boards = [(f"best learned: {best['label']}\nscore vs standard {best['score']:.3f}",
               wpc_module.as_weights(best["variables"])),
              ("standard WPC (Yoshioka et al. 1999)", wpc_module.STANDARD_WPC)]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.8))
    for ax, (title, weights) in zip(axes, boards):
        # A 1-ply WPC player is scale-invariant: show each WPC divided by its largest |weight|.
        board = weights.reshape(8, 8) / np.max(np.abs(weights))
        image = ax.imshow(board, cmap="RdBu_r", vmin=-1, vmax=1, origin="lower")
        for (r, c), value in np.ndenumerate(board):
            ax.text(c, r, f"{value:.2f}", ha="center", va="center", fontsize=6.5)
        ax.set_xticks(range(8), list("abcdefgh"))
        ax.set_yticks(range(8), [str(i) for i in range(1, 9)])
        ax.set_title(title, fontsize=9)
    fig.colorbar(image, ax=axes, shrink=0.8, label="weight / max |weight|")
    fig.suptitle("Learned vs standard WPC")
    return fig
