"""Figures of the Sudoku notebook (``sudoku_less_clue``): the clue histogram of the Table 1
runs (drawn from the table :func:`mctslab.sudoku.tables.clue_histograms` built), the finds per tenth of a run (drawn from the table
:func:`mctslab.sudoku.tables.finds_per_tenth` built) and the search over readings (from
its table). A figure draws what it is given: it reads no file and runs nothing.
"""

from __future__ import annotations

import numpy as np

from mctslab.core.plotting import plt

__all__ = ["histogram_figure", "finds_per_tenth_figure", "readings_figure"]


def histogram_figure(table, title="Clue counts of generated puzzles (Table 1 runs)"):
    """Histogram of clue counts per variant, summed over seeds (log scale), from the table
    :func:`~mctslab.sudoku.tables.clue_histograms` built (columns variant, clues, puzzles)."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for variant, rows in table.groupby("variant", sort=False):
        ax.step(rows["clues"].to_numpy(), rows["puzzles"].to_numpy(), where="mid", label=variant)
    ax.set_yscale("log")
    ax.set_xlabel("clues")
    ax.set_ylabel("puzzles generated, all seeds (log)")
    ax.legend(fontsize=8)
    fig.suptitle(title)
    return fig


def finds_per_tenth_figure(table, clues=(19, 20), title="Finds per tenth of the run"):
    """One panel per clue count of ``clues``: mean re-verified finds per tenth of the run over
    seeds, one line per reading (its number of runs and playouts per run in the legend), from
    the table :func:`~mctslab.sudoku.tables.finds_per_tenth` built (its ``N=<clues>`` columns:
    one per clue count drawn)."""
    missing = [f"N={n}" for n in clues if f"N={n}" not in table]
    if missing:
        raise ValueError(f"the finds-per-tenth table has no column {', '.join(missing)} "
                         f"(build it with tables.finds_per_tenth(results, clues))")
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


def readings_figure(table, reference: float | None = None):
    """The search over readings: each reading's distance to Table 1 (both count modes), best
    first, marked by how many of the three Table 1 claims hold (``readings_run.search_table``);
    ``reference``: the default reading's distance at 1,000,000 playouts, as a line."""
    done = table.dropna(subset=["distance"])
    claims = ["min > mean", "reducing > random", "rules help"]
    holding = (done[claims] == "holds").sum(axis=1).to_numpy()
    y = np.arange(len(done))
    fig, ax = plt.subplots(figsize=(8, max(3.0, 0.22 * len(done) + 1.2)))
    ax.scatter(done["distance (distinct)"], y, marker="x", color="0.5", label="distinct boards")
    points = ax.scatter(done["distance"], y, c=holding, cmap="viridis", vmin=0, vmax=3,
                        label="every board", zorder=3)
    if reference is not None:
        ax.axvline(reference, color="0.3", linestyle=":", label="default reading at 1M")
    ax.set_yticks(y, [f"{r}: {label}" for r, label in zip(done["reading"], done["label"])],
                  fontsize=6)
    ax.invert_yaxis()
    ax.set_xlabel("distance to Table 1: mean |log10((ours + 1) / (paper + 1))| over 24 cells")
    fig.colorbar(points, ax=ax, label="Table 1 claims that hold (of 3)", ticks=[0, 1, 2, 3])
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=3)
    fig.suptitle("Readings of the generator against the paper's Table 1")
    fig.tight_layout()
    return fig
