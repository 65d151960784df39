"""Figures of notebook ``tsp_mcts_vs_sa``: Fig. 8, Fig. 9, baselines and anytime profiles.

Each function takes tables and returns a matplotlib Figure; the notebook saves it with
``run.figure`` (which adds the scale to the title). A figure draws what it is given: the
methods' labels come from :mod:`mctslab.tsp.methods`; the means over seeds, the best known path
and the Cp sweep's methods are passed in, as :mod:`mctslab.tsp.tables` derived them
(``seed_means``, ``best_known_path``, ``roulette_variants``); nothing comes from the experiments.
"""

from __future__ import annotations

import pandas as pd

from mctslab.core.plotting import plt
from mctslab.tsp.methods import method_label

__all__ = ["figure8", "figure9", "figure_baselines", "figure_anytime"]

STYLE = {"sa": ("k", "o"), "mct_um": ("tab:blue", "s"), "mct_rm": ("tab:red", "^"),
         "mct_rm_0mst": ("tab:orange", "v"), "mct_rm_4mst": ("tab:brown", "<"),
         "mct_rs_0sd": ("tab:cyan", ">"), "mct_rs": ("tab:purple", "D"),
         "mct_rs_4sd": ("tab:pink", "p"), "sa_2opt": ("tab:green", "x"), "lkh": ("tab:gray", "+")}


def _floor(ax, frame: pd.DataFrame) -> None:
    """The optimal tour / MST of each instance: a floor for paths (up to the tour's last edge)."""
    known = frame.groupby("instance")[["n", "mst", "optimum"]].first().dropna().sort_values("n")
    if len(known):
        ax.plot(known["n"], known["optimum"] / known["mst"], color="0.6", lw=1, ls="--",
                label="optimal tour / MST")


def _length_over_mst(means, methods, title, labels=None):
    """One scatter per method of ``methods`` that ran (a method absent from ``means`` is left
    out of the legend rather than shown as an empty entry)."""
    fig, ax = plt.subplots(figsize=(7.5, 5))
    labels = labels or {}
    for method in methods:
        part = means[means["method"] == method].sort_values("n")
        if part.empty:
            continue
        color, marker = STYLE.get(method, (None, "o"))
        ax.scatter(part["n"], part["length"] / part["mst"], s=18, color=color, marker=marker,
                   label=labels.get(method, method_label(method)), alpha=0.8)
    _floor(ax, means)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("number of cities n (log)")
    ax.set_ylabel("path length / MST length (log)")
    ax.set_title(title)
    ax.legend(fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    return fig


def _budget(budget_factor: float) -> str:
    return "SA's time" if budget_factor == 1 else f"{budget_factor:g} x SA's time"


def figure8(means: pd.DataFrame, cp: float = 2.0, budget_factor: float = 1.0):
    """Fig. 8: length / MST vs n (log-log) for SA, MCT_UM, MCT_RM; ``means``: the mean over
    seeds per method and instance (``tables.seed_means``).

    ``cp`` and ``budget_factor`` are the run's (the paper: 2 and 1), for the title.
    """
    return _length_over_mst(means, ("sa", "mct_um", "mct_rm"),
                            f"Fig. 8: default policy (Cp = {cp:g} x MST), "
                            f"budget = {_budget(budget_factor)}")


def figure9(means: pd.DataFrame, variants):
    """Fig. 9: roulette MCTS for each Cp = k x MST and k x SD of the run (the paper: k = 0, 2,
    4), SA for reference, from ``means`` (``tables.seed_means``); ``variants``: the (method key, Cp rule, k) of each roulette method to
    draw, in order (``tables.roulette_variants(comparison, cp)``)."""
    keys = tuple(key for key, _, _ in variants)
    labels = {key: f"{'RM' if rule == 'mst' else 'RS'} {k:g}x{rule.upper()}"
              for key, rule, k in variants}
    return _length_over_mst(means, ("sa",) + keys, "Fig. 9: Cp sweep (roulette)", labels)


def figure_baselines(means: pd.DataFrame, best_known: pd.Series, budget_factor: float = 1.0):
    """Path length / the best Hamiltonian path known vs n, for the paper's methods and the two
    baselines, from ``means`` (``tables.seed_means``); ``best_known``: that path's length per instance (``tables.best_known_path``:
    paths against a path)."""
    fig, ax = plt.subplots(figsize=(7.5, 5))
    means = means.assign(best=means["instance"].map(best_known))
    for method in ("sa", "mct_um", "mct_rm", "sa_2opt", "lkh"):
        part = means[means["method"] == method].sort_values("n")
        if part.empty:  # not run (or no known optimum): no empty legend entry
            continue
        color, marker = STYLE[method]
        ax.scatter(part["n"], part["length"] / part["best"], s=18, color=color, marker=marker,
                   label=method_label(method) + (" (own time)" if method == "lkh" else ""))
    ax.axhline(1.0, color="0.6", lw=1, ls="--", label="best known path")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("number of cities n (log)")
    ax.set_ylabel("path length / best known path length (log)")
    ax.set_title(f"Against reasonable baselines (budget = {_budget(budget_factor)}, LKH its own)")
    ax.legend(fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    return fig


def figure_anytime(points: pd.DataFrame, comparison: pd.DataFrame | None = None):
    """Best length / optimum (or / MST) against seconds, one panel per instance.

    LKH's point (its own time) is taken from the comparison table when it is given.
    """
    lkh_rows = None if comparison is None else comparison[comparison["method"] == "lkh"]
    instances = list(dict.fromkeys(points.sort_values("n")["instance"]))
    fig, axes = plt.subplots(1, len(instances), figsize=(4.2 * len(instances), 4), squeeze=False)
    for ax, name in zip(axes[0], instances):
        part = points[points["instance"] == name]
        optimum, mst = part["optimum"].iloc[0], part["mst"].iloc[0]
        norm, label = (optimum, "length / optimal tour") if pd.notna(optimum) else (mst, "length / MST")
        for method in ("sa", "sa_2opt", "mct_rm", "mct_um"):
            series = part[part["method"] == method].sort_values("seconds")
            if series.empty:
                continue
            color, marker = STYLE[method]
            style = dict(where="post") if method.startswith("mct") else \
                dict(marker=None if method == "sa" else marker, ms=4)
            draw = ax.step if method.startswith("mct") else ax.plot
            draw(series["seconds"], series["length"] / norm, color=color, label=method_label(method),
                 **style)
        if lkh_rows is not None:
            row = lkh_rows[lkh_rows["instance"] == name]
            if len(row):
                ax.scatter(row["seconds"], row["length"] / norm, color="tab:gray", marker="*",
                           s=80, label="LKH-3", zorder=5)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("seconds (log)")
        ax.set_ylabel(f"{label} (log)")
        ax.set_title(f"{name} (n = {part['n'].iloc[0]})")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.suptitle("Quality versus time")
    fig.tight_layout()
    return fig
