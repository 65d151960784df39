"""The Sudoku paper's counts and headline claims judged on a scale where they behave.

Counts of boards with N clues per run spread over orders of magnitude between seeds (one
seed's 4,035 twenty-clue boards beside another's 1), so a t interval of the counts, clipped at
0, spans the paper's band whatever the seeds say. Here each Table 1 cell is judged on
``log10(1 + count)`` per seed (the criterion in the targets file says so): our value is the
back-transformed mean, ``10 ** mean - 1``, its 95% interval the t interval of the logs
transformed back, against the paper's value +- its margin (a factor 2, or +-1 board near 0).

The paper's claims (Sec. 5.1 and 5.2, read in ``docs/papers/sudoku-less-clue.md``), each
with the criterion of :data:`mctslab.sudoku.readings_score.CRITERIA` where per-seed counts
are recorded (Table 1), else over the settings of Table 2 as units (its per-seed counts
were not recorded):

- min > mean, candidate-reducing > fully random, the rules help: stratified permutation tests
  of a run's yield ``log10(1 + N18 + N19 + N20)`` (:func:`readings_score.table1_claims`);
- the rules help less than the playout method and the selection do: the rules' summed effect on
  the mean yield is the smallest in size of the three factors';
- c = 1.0 > 0.5: a paired t test over the four thresholds of the settings' yields
  ``log10(1 + mean N18 + mean N19 + mean N20)``;
- the threshold does not matter: for each c, the settings' yields span at most ``log10(3)``
  (holds); a wider span whose extreme settings' 95% intervals of N=20 do not overlap fails;
  else undecided.

:func:`record_rows` gives these rows from a record's tables (``finds_per_tenth_counts``,
``table2_parameters``, ``paper_vs_run``), as :mod:`mctslab.record_card` asks of a domain;
:func:`paper_vs_run` the same rows from a run's results, in the notebook's table.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from mctslab.core.compare import PaperRow, paper_row, paper_table
from mctslab.sudoku import readings_score, tables
from mctslab.sudoku.generator import variant_name
from mctslab.sudoku.tables import PAPER_PLAYOUTS, PAPER_TABLE1, _variant_label

__all__ = ["PAPER", "COUNT_COLUMNS", "log_interval", "log_count_row", "table1_counts",
           "results_counts", "table1_rows", "table1_claim_rows", "table2_claim_rows",
           "record_rows", "paper_vs_run"]

PAPER = "sudoku_less_clue"
COUNT_COLUMNS = ("N=18", "N=19", "N=20")
ALPHA = 0.05
SPREAD = float(np.log10(3.0))
_CLAIMS_T1 = {  # readings_score's claim -> (artefact, row) of its target
    "min > mean": ("Sec. 5.1", "selection by the minimum generates more few-clue boards than "
                               "by the mean"),
    "reducing > random": ("Sec. 5.1", "candidate-reducing playouts generate more few-clue "
                                      "boards than fully random ones"),
    "rules help": ("Sec. 5.1", "the rules help"),
}
RULES_SMALLER = ("Sec. 5.1", "the rules help less than the playout method and the selection")
C_CLAIM = ("Sec. 5.2", "c = 1.0 generates more few-clue boards than c = 0.5")
THRESHOLD_CLAIM = ("Sec. 5.2", "the expansion threshold does not matter")


def log_interval(values, confidence: float = 0.95) -> tuple[float, float, float]:
    """``(10 ** m - 1, low, high)``: ``m`` the mean of ``log10(1 + values)``, ``low``/``high``
    its t interval transformed back (``low`` at least 0; one value: both ends itself)."""
    logs = np.log10(1.0 + np.asarray(values, float))
    mean = float(logs.mean())
    if len(logs) < 2 or np.all(logs == logs[0]):
        half = 0.0
    else:
        half = float(stats.t.ppf(0.5 + confidence / 2, len(logs) - 1)
                     * logs.std(ddof=1) / np.sqrt(len(logs)))
    back = lambda x: max(0.0, float(10.0 ** x - 1.0))  # noqa: E731
    return back(mean), back(mean - half), back(mean + half)


def log_count_row(artefact: str, label: str, column: str, values, *, scale: str,
                  departure: str = "", unit_cpu_s=None) -> PaperRow:
    """A count target judged on the log scale (see the module docstring); the note gives the
    per-seed counts and their arithmetic mean, the paper's statistic."""
    value, low, high = log_interval(values)
    counts = [int(v) for v in values]
    note = (f"per seed {counts}, arithmetic mean {np.mean(counts):g}; judged on log10(1 + "
            f"count) per seed")
    return paper_row(PAPER, artefact, label, column, value, low=low, high=high, n=len(counts),
                     scale=scale, departure=departure, unit_cpu_s=unit_cpu_s, note=note)


def table1_counts(finds_per_tenth: pd.DataFrame) -> pd.DataFrame:
    """Per-seed counts of each Table 1 variant (columns ``variant``, ``seed``, ``playouts``,
    ``N=18..20``) from a ``finds_per_tenth_counts`` table (one row per tenth of a run)."""
    frame = finds_per_tenth.rename(columns={"reading": "variant", "playouts/run": "playouts"})
    return (frame.groupby(["variant", "seed", "playouts"])[list(COUNT_COLUMNS)].sum()
            .reset_index())


def table1_rows(counts: pd.DataFrame, *, scale: str, unit_cpu_s=None) -> list[PaperRow]:
    """Table 1's 24 cells on the log scale, from per-seed ``counts`` (:func:`table1_counts`);
    ``unit_cpu_s`` maps a variant's row label to its CPU seconds per run."""
    rows = []
    for key in PAPER_TABLE1:
        runs = counts[counts.variant == variant_name(*key)]
        if runs.empty:
            continue
        playouts = int(runs.playouts.min())
        wanted = PAPER_PLAYOUTS["Table 1"]
        departure = (f"{playouts:,} playouts per run, the paper's {wanted:,}"
                     if playouts < wanted else "")
        label = _variant_label(*key)
        for column in COUNT_COLUMNS:
            rows.append(log_count_row("Table 1", label, column, runs[column].to_numpy(),
                                      scale=scale, departure=departure,
                                      unit_cpu_s=(unit_cpu_s or {}).get(label)))
    return rows


def _state(verdict: str, text: str) -> str:
    return f"{verdict}: {text}"


def table1_claim_rows(counts: pd.DataFrame, *, scale: str) -> list[PaperRow]:
    """The paper's Table 1 claims (module docstring) judged on per-seed ``counts``."""
    counts = counts.assign(variant=counts.variant)
    judged = readings_score.table1_claims(counts).set_index("claim")
    n = int(counts.groupby("variant").size().min())
    rows = []
    for claim, (artefact, row) in _CLAIMS_T1.items():
        found = judged.loc[claim]
        text = (f"{found['agree']} strata point the paper's way; permutation p (paper's way) = "
                f"{found['p_greater']:.3g}, p (reverse) = {found['p_less']:.3g}")
        rows.append(paper_row(PAPER, artefact, row, "holds", _state(found["verdict"], text),
                              n=n, scale=scale))
    effects = {claim: float(judged.loc[claim, "statistic"]) for claim in _CLAIMS_T1}
    rules, others = effects["rules help"], (effects["min > mean"],
                                            effects["reducing > random"])
    smaller = all(abs(rules) < abs(other) for other in others)
    text = (f"summed effects on the mean yield: rules {rules:.2f}, selection (min - mean) "
            f"{others[0]:.2f}, playout (reducing - random) {others[1]:.2f}")
    rows.append(paper_row(PAPER, *RULES_SMALLER, "holds",
                          _state("holds" if smaller else "fails", text), n=n, scale=scale))
    return rows


def _yield(table2: pd.DataFrame) -> pd.Series:
    total = table2[list(COUNT_COLUMNS)].sum(axis=1)
    return np.log10(1.0 + total)


def table2_claim_rows(table2: pd.DataFrame, *, scale: str) -> list[PaperRow]:
    """The paper's Table 2 claims judged on its settings' mean counts (columns ``c``,
    ``threshold``, ``runs``, ``N=18..20``, ``N=20 low``, ``N=20 high``)."""
    frame = table2.assign(y=_yield(table2))
    cs = sorted(frame.c.unique())
    low_c, high_c = (frame[frame.c == c].set_index("threshold") for c in cs)
    difference = (high_c.y - low_c.y).dropna()
    n = int(frame.runs.min())
    if len(difference) >= 2 and difference.std(ddof=1) > 0:
        greater = stats.ttest_1samp(difference, 0.0, alternative="greater").pvalue
        less = stats.ttest_1samp(difference, 0.0, alternative="less").pvalue
    else:
        greater = less = float("nan")
    verdict = "holds" if greater < ALPHA else "fails" if less < ALPHA else "undecided"
    text = (f"c = {cs[1]:g} above c = {cs[0]:g} at {int((difference > 0).sum())} of "
            f"{len(difference)} thresholds; paired t over thresholds p (paper's way) = "
            f"{greater:.3g}, p (reverse) = {less:.3g}")
    rows = [paper_row(PAPER, *C_CLAIM, "holds", _state(verdict, text), n=n, scale=scale)]
    spans, apart = [], []
    for c in cs:
        part = frame[frame.c == c]
        top, bottom = part.loc[part.y.idxmax()], part.loc[part.y.idxmin()]
        spans.append(float(top.y - bottom.y))
        apart.append(bool(top["N=20 low"] > bottom["N=20 high"]))
    if all(span <= SPREAD for span in spans):
        verdict = "holds"
    elif any(span > SPREAD and sep for span, sep in zip(spans, apart)):
        verdict = "fails"
    else:
        verdict = "undecided"
    text = ("spans of the settings' yields over thresholds: "
            + ", ".join(f"c = {c:g} {span:.2f}{' (extremes apart)' if sep else ''}"
                        for c, span, sep in zip(cs, spans, apart))
            + f" (holds at most log10(3) = {SPREAD:.2f})")
    rows.append(paper_row(PAPER, *THRESHOLD_CLAIM, "holds", _state(verdict, text), n=n,
                          scale=scale))
    return rows


def record_rows(read) -> list[tuple[str, PaperRow]]:
    """Our rows judged from a record's tables (``read(stem)``: a table or ``None``): Table 1's
    cells on the log scale and the paper's claims; empty when the record lacks the tables."""
    recorded = read("paper_vs_run")
    per_tenth = read("finds_per_tenth_counts")
    if recorded is None or per_tenth is None:
        return []
    scale = str(recorded.scale.iloc[0])
    cpu = {row["row"]: row["unit_cpu_s"] for row in recorded.to_dict("records")
           if row["artefact"] == "Table 1" and pd.notna(row["unit_cpu_s"])}
    counts = table1_counts(per_tenth)
    rows = table1_rows(counts, scale=scale, unit_cpu_s=cpu)
    if set(counts.variant) >= {variant_name(*key) for key in PAPER_TABLE1}:
        rows += table1_claim_rows(counts, scale=scale)
    table2 = read("table2_parameters")
    if table2 is not None and table2.c.nunique() == 2:
        rows += table2_claim_rows(table2, scale=scale)
    return [("", row) for row in rows]


def results_counts(results) -> pd.DataFrame:
    """Per-run counts of a run's Table 1 results (columns ``variant``, ``seed`` (the run's
    seed index), ``playouts``, ``N=18..20``), as :func:`table1_counts`."""
    rows = []
    for result in results:
        config = result["config"]
        name = variant_name(config["playout"], config["selection"], bool(config["rules"]))
        rows.append({"variant": name, "seed": result["seed_index"],
                     "playouts": config["playouts"],
                     **{column: result["raw"]["distinct"][column[2:]]["count"]
                        for column in COUNT_COLUMNS}})
    return pd.DataFrame(rows, columns=["variant", "seed", "playouts", *COUNT_COLUMNS])


def _row(record: dict) -> PaperRow:
    return PaperRow(**{k: (None if not isinstance(v, str) and pd.isna(v) else v)
                       for k, v in record.items()})


def paper_vs_run(table1_results, table2_results, cfg) -> pd.DataFrame:
    """:func:`mctslab.sudoku.tables.paper_vs_run` with Table 1's cells on the log scale and
    the paper's claims (module docstring), from this run's results: the notebook's table."""
    base = tables.paper_vs_run(table1_results, table2_results, cfg)
    cpu = {r["row"]: r["unit_cpu_s"] for r in base.to_dict("records")
           if r["artefact"] == "Table 1" and pd.notna(r["unit_cpu_s"])}
    counts = results_counts(table1_results)
    rows = table1_rows(counts, scale=cfg.scale, unit_cpu_s=cpu) if len(counts) else []
    if len(counts) and set(counts.variant) >= {variant_name(*key) for key in PAPER_TABLE1}:
        rows += table1_claim_rows(counts, scale=cfg.scale)
    table2 = tables.table2(table2_results) if table2_results else None
    if table2 is not None and table2.c.nunique() == 2:
        rows += table2_claim_rows(table2, scale=cfg.scale)
    ours = {(r.artefact, r.row, r.column): r for r in rows}
    merged = [ours.pop((r["artefact"], r["row"], r["column"]), None) or _row(r)
              for r in base.to_dict("records")]
    return paper_table([*merged, *ours.values()])
