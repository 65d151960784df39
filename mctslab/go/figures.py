"""Figures of the state-tabu paper (notebook ``go_state_tabu``): Fig. 5, Fig. 6, Table 2 and
Table 4 as plots, ours beside the paper's.

Each figure's title is its suptitle (``Run.figure`` appends the scale to it, so the two never
overlap); a symlog axis says so in its label."""

from __future__ import annotations

import numpy as np

from mctslab.core.plotting import plt
from mctslab.core.stats import binomial_test

__all__ = ["figure5", "figure6", "win_rate_figure", "table4_figure"]


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


def _skipped_figure(table, title):
    """A figure that says why it is empty (GNU Go not installed), or None."""
    if "skipped" not in table.columns:
        return None
    fig, ax = plt.subplots(figsize=(7, 2))
    ax.axis("off")
    ax.text(0.5, 0.5, str(table["skipped"].iloc[0])[:120], ha="center", va="center", wrap=True)
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
    """Total win rate per engine with its 95% interval, the paper's beside (Tables 2-3)."""
    skipped = _skipped_figure(table3, "Tables 2-3: win rates against GNU Go 3.8")
    if skipped is not None:
        return skipped
    fig, ax = plt.subplots(figsize=(7, 4))
    x = np.arange(len(table3))
    rates = table3["wins"] / table3["games"]
    tests = [binomial_test(int(w), int(n)) for w, n in zip(table3["wins"], table3["games"])]
    lows, highs = [t.ci_low for t in tests], [t.ci_high for t in tests]
    ax.errorbar(x - 0.1, rates, yerr=[rates - lows, highs - rates], fmt="o", capsize=4,
                label="ours, 95% Clopper-Pearson")
    paper = [np.mean([float(v) for v in ci.split("-")]) if isinstance(ci, str) else np.nan
             for ci in table3["paper 95% CI"]]
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
    """Tabu candidates per playout against the move-tabu size, with the Eq. 12 bound."""
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(table4["L"], table4["per playout"], "o-", label="ours")
    ax.plot(table4["L"], table4["paper per playout"], "s--", label="paper")
    ax.plot(table4["L"], table4["Eq. 12 bound"], ":", label="Eq. 12 bound")
    ax.set_yscale("symlog", linthresh=0.1)
    ax.set_xlabel("tabu size L (move tabu)")
    ax.set_ylabel("tabu candidates per playout (symlog scale)")
    fig.suptitle("Table 4: rejected candidates")
    ax.legend()
    fig.tight_layout()
    return fig
