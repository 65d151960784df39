"""Scoring a reading of the generator against the paper: Table 1's 24 cells and its five claims.

Everything here takes per-seed counts (a DataFrame, one row per run) and returns numbers or
verdicts, with the criterion of each stated in :data:`CRITERIA`; the search over readings
(:mod:`mctslab.sudoku.readings_search`) and the scorecard's claim rows use the same functions.

- :func:`table1_distance`: the mean over the 24 cells (8 variants x N = 18, 19, 20) of
  ``|log10((ours + 1) / (paper + 1))|``, ours being the mean count per run over the seeds,
  scaled linearly to the paper's 1,000,000 playouts; and how many cells lie within a factor 2
  on the same ``+ 1`` scale.
- :func:`table2_distance`: the same over Table 2's 24 cells (c = 0.5 and 1 x thresholds 10-40 x
  N = 18, 19, 20), scaled to its 3,000,000 playouts; a reading's grid (c x {0.5, 1}) is put
  against the paper's rows in order (its smaller c against the paper's c = 0.5).
- :func:`table1_claims`: min > mean, candidate-reducing > fully random, rules help.
- :func:`table2_claims`: the larger c > the smaller, the threshold does not matter.

A run's yield is ``y = log10(1 + N18 + N19 + N20)`` (the boards with 18-20 clues it generated,
the numbers the paper's tables report). A comparison claim ("a > b", Table 1: over the four
pairs of variants that differ in that factor only; Table 2: over the four thresholds) is
tested by a stratified permutation test of the sum over strata of the difference of mean
yields (labels exchanged within each stratum; 20,000 permutations from a fixed seed, so the
verdict repeats): ``holds`` when one-sided p (a > b) < 0.05, ``fails`` when p (a < b) < 0.05,
``undecided`` otherwise.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats

from mctslab.core import targets
from mctslab.core.targets import floor_of, margin_bounds
from mctslab.sudoku.generator import variant_name
from mctslab.sudoku.tables import PAPER_TABLE1, PAPER_TABLE1_TARGETS, PAPER_TABLE2

__all__ = ["CLUES", "CRITERIA", "PAPER_PLAYOUTS", "PAPER_TABLE2_PLAYOUTS", "run_yield",
           "table1_means", "table1_distance", "table2_means", "table2_distance",
           "permutation_claim", "table1_claims", "table2_claims"]

CLUES = (18, 19, 20)
PAPER_PLAYOUTS = 1_000_000          # Table 1's playouts per run
PAPER_TABLE2_PLAYOUTS = 3_000_000   # Table 2's
ALPHA = 0.05
PERMUTATIONS = 20_000
SPREAD = float(np.log10(3.0))       # the threshold claim's largest spread of mean yields
NEAR = float(np.log10(2.0))         # a cell "near" the paper's: within a factor 2 (+1 scale)
COLUMNS = tuple(f"N={n}" for n in CLUES)

CRITERIA = {
    "min > mean": "Table 1, 4 pairs (playout x rules): stratified permutation test of the "
                  "mean yield log10(1 + N18 + N19 + N20), min against mean; holds: p(min > "
                  "mean) < 0.05; fails: p(min < mean) < 0.05; else undecided",
    "reducing > random": "Table 1, 4 pairs (selection x rules), as min > mean with "
                         "candidate-reducing against fully random",
    "rules help": "Table 1, 4 pairs (playout x selection), as min > mean with rules against "
                  "no rules",
    "c = 1.0 > 0.5": "Table 2, 4 pairs (thresholds), as min > mean with the larger c against "
                     "the smaller",
    "threshold does not matter": "Table 2: for each c, the spread (largest - smallest) of the "
                                 "four thresholds' mean yields; holds: every spread <= "
                                 "log10(3); fails: some c has a spread > log10(3) and a "
                                 "Kruskal-Wallis p < 0.05 over its thresholds; else undecided",
}


def run_yield(counts: pd.DataFrame) -> np.ndarray:
    """``log10(1 + N18 + N19 + N20)`` of each run (row) of ``counts``."""
    return np.log10(1.0 + counts[list(COLUMNS)].to_numpy(float).sum(axis=1))


def table1_means(counts: pd.DataFrame) -> pd.DataFrame:
    """Mean count per run of each variant (rows: the paper's 8 variants in its order, columns
    ``N=18..20``); a variant without runs is NaN."""
    means = counts.groupby("variant")[list(COLUMNS)].mean()
    order = [variant_name(*key) for key in PAPER_TABLE1]
    return means.reindex(order)


def table1_distance(counts: pd.DataFrame, playouts: int) -> dict:
    """The 24-cell distance to the paper's Table 1 of per-seed ``counts`` (columns ``variant``,
    ``N=18..20``) at ``playouts`` playouts per run, scaled to the paper's 1,000,000.

    Returns ``{"distance": mean |log10((ours + 1) / (paper + 1))|, "near": cells within a
    factor 2, "within margin": cells whose scaled mean lies in the target's margin (the
    targets file's: x2, or +-1 puzzle near 0; a point estimate, not the verdict, which needs
    the paper's 1,000,000 playouts per run), "cells": cells with runs}``; NaN distance when a
    variant has no run.
    """
    means = table1_means(counts).to_numpy(float) * (PAPER_PLAYOUTS / playouts)
    paper = np.array([PAPER_TABLE1[key] for key in PAPER_TABLE1], float)
    return _distance(means, paper, [PAPER_TABLE1_TARGETS[key] for key in PAPER_TABLE1])


_TABLE2_ROWS = tuple((c, t) for c in (0.5, 1.0) for t in (10, 20, 30, 40))
# (c, threshold) -> the targets of its N = 18, 19, 20 cells (the paper's Table 2)
PAPER_TABLE2_TARGETS = {
    (c, t): tuple(targets.target("sudoku_less_clue", "Table 2", f"c = {c:g}, threshold {t}",
                                 column) for column in COLUMNS)
    for c, t in _TABLE2_ROWS}


def table2_means(counts: pd.DataFrame) -> pd.DataFrame:
    """Mean count per run of each Table 2 setting (rows: the smaller c's thresholds 10-40, then
    the larger c's, as the paper's rows c = 0.5 then c = 1; columns ``N=18..20``); a setting
    without runs is NaN. ``counts`` has columns ``c``, ``threshold``, ``N=18..20``."""
    cs = sorted(counts["c"].unique())
    if len(cs) != 2:
        raise ValueError(f"Table 2 needs two values of c, got {cs}")
    means = counts.groupby(["c", "threshold"])[list(COLUMNS)].mean()
    return means.reindex([(c, t) for c in cs for t in (10, 20, 30, 40)])


def table2_distance(counts: pd.DataFrame, playouts: int) -> dict:
    """:func:`table1_distance` for Table 2: its 24 cells (the paper's c = 0.5 and c = 1 rows,
    thresholds 10-40, N = 18..20; a reading's smaller c against c = 0.5), the means scaled
    from ``playouts`` to the paper's 3,000,000 per run."""
    means = table2_means(counts).to_numpy(float) * (PAPER_TABLE2_PLAYOUTS / playouts)
    paper = np.array([[PAPER_TABLE2[key][k] for k in (0, 2, 3)] for key in _TABLE2_ROWS],
                     float)
    return _distance(means, paper, [PAPER_TABLE2_TARGETS[key] for key in _TABLE2_ROWS])


def _distance(means: np.ndarray, paper: np.ndarray, cell_targets) -> dict:
    gap = np.abs(np.log10((means + 1.0) / (paper + 1.0)))
    done = ~np.isnan(gap)
    return {"distance": float(gap.mean()) if done.all() else float("nan"),
            "near": int(np.sum(gap[done] <= NEAR + 1e-12)),
            "within margin": _within_margin(means, cell_targets), "cells": int(done.sum())}


def _within_margin(means: np.ndarray, cell_targets) -> int:
    """Cells (rows: ``cell_targets``, each row's N = 18..20 targets; ``means`` in the same
    shape) whose value lies in its target's margin; a floor (a zero where the paper has none)
    counts only when the cell it is the floor of counts (the scorecard's rule). A floor of a
    cell outside the table does not count."""
    cells = {}
    for v, row in enumerate(cell_targets):
        for c, record in enumerate(row):
            low, high = margin_bounds(record["value"], record["margin"])
            cells[(record["artefact"], record["row"], record["column"])] = (
                bool(low - 1e-9 <= means[v, c] <= high + 1e-9), floor_of(record))

    def counts(cell, seen=()):
        inside, floor = cells.get(cell, (False, None))
        if not inside or floor is None or cell in seen:
            return inside
        return counts(tuple(floor), (*seen, cell))
    return sum(counts(cell) for cell in cells)


def permutation_claim(strata, *, permutations: int = PERMUTATIONS, seed: int = 0) -> dict:
    """Stratified permutation test that group a exceeds group b.

    ``strata``: ``(a, b)`` pairs of yield arrays. The statistic is the sum over strata of
    ``mean(a) - mean(b)``; labels are permuted within each stratum. Returns the statistic,
    ``p_greater``, ``p_less`` (each ``(1 + hits) / (1 + permutations)``), how many strata
    point a's way (``agree``) and the verdict (module docstring).
    """
    rng = np.random.default_rng(seed)
    observed, simulated, agree = 0.0, np.zeros(permutations), 0
    for a, b in strata:
        a, b = np.asarray(a, float), np.asarray(b, float)
        difference = a.mean() - b.mean()
        observed += difference
        agree += int(difference > 0)
        pooled = np.concatenate([a, b])
        index = rng.permuted(np.tile(np.arange(len(pooled)), (permutations, 1)), axis=1)
        shuffled = pooled[index]
        simulated += shuffled[:, :len(a)].mean(axis=1) - shuffled[:, len(a):].mean(axis=1)
    tolerance = 1e-9
    p_greater = (1 + np.sum(simulated >= observed - tolerance)) / (1 + permutations)
    p_less = (1 + np.sum(simulated <= observed + tolerance)) / (1 + permutations)
    verdict = ("holds" if p_greater < ALPHA else "fails" if p_less < ALPHA else "undecided")
    return {"statistic": float(observed), "p_greater": float(p_greater),
            "p_less": float(p_less), "agree": f"{agree}/{len(strata)}", "verdict": verdict}


def _variant_yields(counts: pd.DataFrame) -> dict:
    y = run_yield(counts)
    return {name: y[(counts["variant"] == name).to_numpy()]
            for name in counts["variant"].unique()}


def table1_claims(counts: pd.DataFrame) -> pd.DataFrame:
    """The paper's three Table 1 claims judged on per-seed ``counts`` (columns ``variant``,
    ``N=18..20``; every one of the 8 variants needs runs): one row per claim with its
    statistic, p values, strata agreeing, verdict and criterion."""
    yields = _variant_yields(counts)
    factors = {"min > mean": (1, "min", "mean"), "reducing > random": (0, "reducing", "random"),
               "rules help": (2, True, False)}
    rows = []
    for claim, (place, better, worse) in factors.items():
        strata = []
        for playout, selection, rules in PAPER_TABLE1:
            key = [playout, selection, rules]
            if key[place] != better:
                continue
            other = list(key)
            other[place] = worse
            strata.append((yields[variant_name(*key)], yields[variant_name(*other)]))
        rows.append({"claim": claim, **permutation_claim(strata), "criterion": CRITERIA[claim]})
    return pd.DataFrame(rows)


def _kruskal(groups) -> float:
    values = np.concatenate(groups)
    if np.all(values == values[0]):
        return 1.0  # every run alike: no difference between thresholds
    return float(scipy_stats.kruskal(*groups).pvalue)


def table2_claims(counts: pd.DataFrame) -> pd.DataFrame:
    """The paper's two Table 2 claims judged on per-seed ``counts`` (columns ``c``,
    ``threshold``, ``N=18..20``; two values of c, the same thresholds under each)."""
    y = run_yield(counts)
    cs = sorted(counts["c"].unique())
    if len(cs) != 2:
        raise ValueError(f"Table 2 needs two values of c, got {cs}")
    thresholds = sorted(counts["threshold"].unique())
    group = {(c, t): y[((counts["c"] == c) & (counts["threshold"] == t)).to_numpy()]
             for c in cs for t in thresholds}
    c_row = {"claim": "c = 1.0 > 0.5",
             **permutation_claim([(group[cs[1], t], group[cs[0], t]) for t in thresholds]),
             "criterion": CRITERIA["c = 1.0 > 0.5"]}
    spreads, pvalues = [], []
    for c in cs:
        means = [group[c, t].mean() for t in thresholds]
        spreads.append(max(means) - min(means))
        pvalues.append(_kruskal([group[c, t] for t in thresholds]))
    if all(s <= SPREAD for s in spreads):
        verdict = "holds"
    elif any(s > SPREAD and p < ALPHA for s, p in zip(spreads, pvalues)):
        verdict = "fails"
    else:
        verdict = "undecided"
    t_row = {"claim": "threshold does not matter", "statistic": float(max(spreads)),
             "p_greater": float("nan"), "p_less": float(min(pvalues)),
             "agree": f"{sum(s <= SPREAD for s in spreads)}/{len(cs)}", "verdict": verdict,
             "criterion": CRITERIA["threshold does not matter"]}
    return pd.DataFrame([c_row, t_row])


def ranking_kept(counts: pd.DataFrame, reference: pd.DataFrame, *, min_rho: float = 0.8) -> dict:
    """Does a smaller budget keep the ranking of the reference budget (both per-seed Table 1
    ``counts``)? Kept when the Spearman correlation of the 8 variants' mean yields is at least
    ``min_rho`` and the three Table 1 claims get the same verdicts. Returns rho, both budgets'
    verdicts (``claims``, ``reference_claims``) and ``kept``."""
    def mean_yields(frame):
        frame = frame.assign(y=run_yield(frame))
        return frame.groupby("variant")["y"].mean()
    ours, ref = mean_yields(counts), mean_yields(reference)
    rho = float(scipy_stats.spearmanr(ours.reindex(ref.index), ref).statistic)
    verdicts = list(table1_claims(counts)["verdict"])
    reference_verdicts = list(table1_claims(reference)["verdict"])
    return {"rho": rho, "claims": verdicts, "reference_claims": reference_verdicts,
            "kept": bool(rho >= min_rho and verdicts == reference_verdicts)}
