"""Figures of the notebook ``manyfaces_knowledge`` (the census, the influence field on real
games, the enclosed-field claim) and the influence map of ``mctslab manyfaces analyse --png``.
They draw what they are given: the census tables, the influence fields of
:func:`mctslab.manyfaces.experiments.run_influence` (or
:func:`mctslab.manyfaces.knowledge.influence_field` of one position), the enclosed-field table
and the fields of :func:`mctslab.manyfaces.experiments.run_enclosed`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mctslab.core.plotting import plt
from mctslab.manyfaces.knowledge import ENCLOSED_CENTRE_LIMIT, InfluenceField

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


def _draw_influence(ax, position: InfluenceField, stone_size: float):
    """One position's field on ``ax`` (red Black, blue White) with its stones; the image."""
    image = ax.imshow(position.field, origin="lower", cmap="RdBu_r", vmin=-1, vmax=1)
    for colour, face in ((1, "black"), (2, "white")):
        r, c = np.nonzero(position.stones == colour)
        ax.scatter(c, r, s=stone_size, c=face, edgecolors="0.3", linewidths=0.5)
    ax.set_xticks([])
    ax.set_yticks([])
    return image


def influence_figure(positions: list[InfluenceField]):
    """The influence field of each position (``experiments.run_influence``: move 100 and the
    end of a few real games), stones drawn on it."""
    fig, axes = plt.subplots(1, len(positions), figsize=(4.2 * len(positions), 4.4),
                             squeeze=False)
    for ax, position in zip(axes[0], positions):
        image = _draw_influence(ax, position, 18)
        ax.set_title(f"{position.game.split('/')[-1][:22]}\nmove {position.move}: estimate "
                     f"B-W-komi {position.estimate:+.1f}", fontsize=8)
    fig.colorbar(image, ax=list(axes[0]), shrink=0.8, pad=0.02,
                 label="influence (B - W) / (B + W + 1): +1 Black, -1 White")
    fig.suptitle("Influence field (red: Black, blue: White; 1/d decay, stones block)")
    return fig


ENCLOSED_SHOWN = (7, 21)  # the sides whose 1/d field the enclosed-field figure draws


def enclosed_figure(table: pd.DataFrame, fields: list[dict]):
    """The enclosed-field table's centre and highest values against the square's side, and the
    1/d field of the sides :data:`ENCLOSED_SHOWN` (``fields``: the results of
    ``experiments.run_enclosed``, each a ``side`` and its ``field``)."""
    shown = {int(r["side"]): np.asarray(r["field"]) for r in fields
             if int(r["side"]) in ENCLOSED_SHOWN}
    fig, axes = plt.subplots(1, 3, figsize=(14, 4))
    ax = axes[0]
    ax.plot(table.side, table.centre_1_over_d, "o-", label="1/d: centre (= lowest)")
    ax.plot(table.side, table.max_1_over_d, "s--", label="1/d: highest (next to the wall)")
    ax.plot(table.side, table.centre_1_over_d2, "^-", label="1/d²: centre")
    ax.axhline(ENCLOSED_CENTRE_LIMIT, color="0.5", lw=0.8, ls=":", label="8 ln 2")
    ax.set_xlabel("side of the enclosed square")
    ax.set_ylabel("raw field (sum of v/d)")
    ax.legend(fontsize=8)
    ax.set_title("Field inside an enclosed square vs its size")
    for ax, n in zip(axes[1:], ENCLOSED_SHOWN):
        im = ax.imshow(shown[n], origin="lower", cmap="Reds")
        ax.set_title(f"1/d field inside a {n}x{n} enclosure")
        fig.colorbar(im, ax=ax, shrink=0.8)
        ax.set_xticks([])
        ax.set_yticks([])
    fig.suptitle("The paper's enclosed-area claim: the 1/d field inside a walled square")
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    return fig


def influence_map(position: InfluenceField):
    """One position's influence field with its stones and the territory estimate (the
    figure of ``mctslab manyfaces analyse --png``)."""
    fig, ax = plt.subplots(figsize=(6, 6))
    _draw_influence(ax, position, 40)
    ax.set_title(f"{position.game} move {position.move}\nB - W - komi "
                 f"{position.estimate:+.1f}", fontsize=9)
    return fig
