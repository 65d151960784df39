"""Figures of the notebook ``manyfaces_knowledge`` (the census, the influence field on real
games, the enclosed-field claim) and the influence map of ``mctslab manyfaces analyse --png``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mctslab.core.plotting import plt
from mctslab.go.api import Board
from mctslab.manyfaces import experiments
from mctslab.manyfaces.knowledge import Knowledge, enclosed_field

__all__ = ["census_figure", "influence_figure", "enclosed_figure", "influence_map"]


def census_figure(tables):
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.5))
    ct = tables["connections"].set_index("type").drop(columns="total")
    ct.plot.bar(stacked=True, ax=axes[0])
    axes[0].set_ylabel("connections (summed over census positions)")
    axes[0].set_title("Connection types by strength")
    et = tables["eyes"]
    if len(et):
        by_type = et.groupby("type")["count"].sum()
        top = et.groupby("value")["count"].sum().sort_values(ascending=False).head(8)
        axes[1].bar(range(len(by_type)), by_type.values)
        axes[1].set_xticks(range(len(by_type)), by_type.index)
        axes[1].set_title("Eye-space types; most common values: " +
                          ", ".join(f"{v} ({n})" for v, n in top.head(4).items()))
    axes[1].set_xlabel("eye-space type")
    axes[1].set_ylabel("eye spaces")
    fig.suptitle("Census of connections and eye spaces")
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    return fig


def influence_figure(cfg: experiments.Config):
    """The influence field at move 100 and at the end of a few real games (stones drawn on it)."""
    pos = experiments.influence_positions(cfg)
    fig, axes = plt.subplots(1, len(pos), figsize=(4.2 * len(pos), 4.4), squeeze=False)
    for ax, (g, move, moves) in zip(axes[0], pos):
        know = Knowledge(Board.from_moves(19, moves[:move]))
        field = know.field_grid()
        image = ax.imshow(field, origin="lower", cmap="RdBu_r", vmin=-1, vmax=1)
        stones = know.board.stones()
        for colour, face in ((1, "black"), (2, "white")):
            r, c = np.nonzero(stones == colour)
            ax.scatter(c, r, s=18, c=face, edgecolors="0.3", linewidths=0.5)
        t = know.territory()
        ax.set_title(f"{g.split('/')[-1][:22]}\nmove {move}: estimate B-W-komi "
                     f"{t['estimate']:+.1f}", fontsize=8)
        ax.set_xticks([])
        ax.set_yticks([])
    fig.colorbar(image, ax=list(axes[0]), shrink=0.8, pad=0.02,
                 label="influence (B - W) / (B + W + 1): +1 Black, -1 White")
    fig.suptitle("Influence field (red: Black, blue: White; 1/d decay, stones block)")
    return fig


def enclosed_figure(table: pd.DataFrame):
    fig, axes = plt.subplots(1, 3, figsize=(14, 4))
    ax = axes[0]
    ax.plot(table.side, table.centre_1_over_d, "o-", label="1/d: centre (= lowest)")
    ax.plot(table.side, table.max_1_over_d, "s--", label="1/d: highest (next to the wall)")
    ax.plot(table.side, table.centre_1_over_d2, "^-", label="1/d²: centre")
    ax.axhline(8 * np.log(2), color="0.5", lw=0.8, ls=":", label="8 ln 2")
    ax.set_xlabel("side of the enclosed square")
    ax.set_ylabel("raw field (sum of v/d)")
    ax.legend(fontsize=8)
    ax.set_title("Field inside an enclosed square vs its size")
    for ax, n in zip(axes[1:], (7, 21)):
        im = ax.imshow(enclosed_field(n), origin="lower", cmap="Reds")
        ax.set_title(f"1/d field inside a {n}x{n} enclosure")
        fig.colorbar(im, ax=ax, shrink=0.8)
        ax.set_xticks([])
        ax.set_yticks([])
    fig.suptitle("The paper's enclosed-area claim: the 1/d field inside a walled square")
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    return fig


def influence_map(know: Knowledge, title: str):
    """One position's influence field with its stones and the territory estimate (the
    figure of ``mctslab manyfaces analyse --png``)."""
    fig, ax = plt.subplots(figsize=(6, 6))
    ax.imshow(know.field_grid(), origin="lower", cmap="RdBu_r", vmin=-1, vmax=1)
    stones = know.board.stones()
    for colour, face in ((1, "black"), (2, "white")):
        r, c = np.nonzero(stones == colour)
        ax.scatter(c, r, s=40, c=face, edgecolors="0.3", linewidths=0.5)
    t = know.territory()
    ax.set_title(f"{title}\nB - W - komi {t['estimate']:+.1f}", fontsize=9)
    ax.set_xticks([])
    ax.set_yticks([])
    return fig
