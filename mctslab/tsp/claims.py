"""The TSP paper's headline claims, and its Fig. 8 ratios under the reading ``accept-all-sa``,
judged from the notebook's own tables (so from a committed record's as well).

The claims (Sec. 1, 4 and 5 of the paper; criteria stated in ``mctslab/tsp/targets.csv``):

- roulette beats uniform (Sec. 4, 5: the playout's randomness "strongly affects" the result):
  MCT_RM's paths are shorter than MCT_UM's;
- the uniform playout is (slightly) worse than SA (Sec. 4, abstract);
- MCTS with roulette gives shorter paths than SA at SA's time (abstract, Sec. 1, 5: about 40%);
- MCTS reaches SA's length faster than SA (Sec. 1, 5: 685 times faster);
- Cp changes the result by about 1% (Fig. 9, Sec. 5).

Each is judged from the tables the notebook writes: ``per_instance`` (per instance, every
method's mean length over seeds), ``paper_vs_run`` (Fig. 8's seed-paired mean ratios with
their t intervals over instances), ``fig9_mean_ratio_to_sa`` and ``time_to_reach_sa``.
:func:`claim_rows` takes them as frames; :func:`record_rows` reads them from a record
(``mctslab scorecard --records``), and the notebook's ``paper_vs_run`` calls
:func:`claim_rows` on the tables it just built.

The reading ``accept-all-sa`` (``mctslab/tsp/readings.csv``): the paper's SA is one that
accepts every move. Its verdicts on Fig. 8 (and on Fig. 9's two rows at Cp = 2, which are
MCT_RM and MCT_RS) use the accept-all SA the notebook runs beside ours, from ``per_instance``:
per instance the method's mean length over seeds / the accept-all SA's, the mean and 95% t
interval over instances (a ratio of seed means, where ``ineffective_sa_reference`` pairs seeds:
the record keeps per-instance means only).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mctslab.core.compare import PaperRow, paper_row
from mctslab.core.stats import clopper_pearson, mean_interval

__all__ = ["ACCEPT_ALL", "FIG8_METHODS", "ROULETTE", "UNIFORM_WORSE", "BEATS_SA", "FASTER",
           "CP_SPREAD", "CP_SPREAD_LIMIT", "PLACES", "ratio_interval", "claim_rows", "record_rows"]

_ID = "tsp_mcts_vs_sa"
_RATIO = "mean ratio to SA"
ACCEPT_ALL = "accept-all-sa"
FIG8_METHODS = ("MCT_UM", "MCT_RM")
# Fig. 9's rows that are the same runs as a per-instance column (Cp = 2: MCT_RM and MCT_RS)
_FIG9_COLUMNS = {"Cp = 2 x MST": "MCT_RM", "Cp = 2 x SD": "MCT_RS"}
ROULETTE = "roulette (MCT_RM) beats uniform (MCT_UM)"
UNIFORM_WORSE = "uniform MCTS (MCT_UM) is worse than SA"
BEATS_SA = "roulette MCTS (MCT_RM) gives shorter paths than SA in SA's time"
FASTER = "roulette MCTS (MCT_RM) reaches SA's length faster than SA"
CP_SPREAD = "Cp changes the mean ratio to SA by about 1%"
CP_SPREAD_LIMIT = 0.02  # "about 1%" (the paper's own spread is 0.96%): at most 2% holds
_CLAIM = "holds"
# where the paper states each claim (the targets' artefact)
PLACES = {ROULETTE: "Sec. 4", UNIFORM_WORSE: "Sec. 4", BEATS_SA: "Sec. 5", FASTER: "Sec. 5",
          CP_SPREAD: "Fig. 9"}


def ratio_interval(per_instance: pd.DataFrame, method: str, reference: str):
    """Per instance, ``method``'s mean length over seeds / ``reference``'s: the mean over
    instances, its 95% t interval and the number of instances (NaN / 0 without the columns)."""
    if per_instance is None or method not in per_instance or reference not in per_instance:
        return np.nan, np.nan, np.nan, 0
    ratios = (per_instance[method] / per_instance[reference]).dropna().to_numpy(np.float64)
    mean, low, high = mean_interval(ratios)
    return mean, low, high, ratios.size


def _side(low: float, high: float, threshold: float, below: bool) -> str:
    """holds when the interval lies wholly on the claimed side of ``threshold``, fails when
    wholly on the other, undecided when it contains it."""
    if np.isnan(low) or np.isnan(high):
        return "undecided"
    if (high < threshold) if below else (low > threshold):
        return "holds"
    if (low > threshold) if below else (high < threshold):
        return "fails"
    return "undecided"


def _fig8(judged: pd.DataFrame | None) -> dict:
    """Fig. 8's rows of a ``paper_vs_run`` table: method -> (mean, low, high, n, departure)."""
    found = {}
    if judged is None:
        return found
    for row in judged[judged["artefact"] == "Fig. 8"].to_dict("records"):
        mean, low, high, n = (_number(row.get(k)) for k in ("our_value", "low", "high", "n"))
        if np.isnan(mean) or np.isnan(n):
            continue
        departure = row.get("departure")
        found[row["row"]] = (mean, low, high, int(n),
                             departure if isinstance(departure, str) else "")
    return found


def _number(value) -> float:
    """A table cell as a float (NaN for an empty one)."""
    return np.nan if value is None or pd.isna(value) else float(value)


def _interval_claim(label: str, values, below: bool, what: str, scale: str,
                    departure: str, note: str) -> PaperRow:
    mean, low, high, n = values
    ours = (f"{_side(low, high, 1.0, below)}: {what} {mean:.3f} [{low:.3f}, {high:.3f}] over "
            f"{n} instances" if n else None)
    return paper_row(_ID, PLACES[label], label, _CLAIM, ours,
                     n=n or None, scale=scale, departure=departure, note=note)


def _faster(time_table: pd.DataFrame | None, scale: str, departure: str) -> PaperRow | None:
    if time_table is None or not len(time_table):
        return None
    row = time_table.iloc[0]
    runs = int(row["runs"])
    if not runs:  # no MCT_RM run in this run's methods
        return None
    reached = int(row["runs where MCT_RM reached SA's length within SA's time"])
    low, high = clopper_pearson(reached, runs, 0.95)
    state = _side(low, high, 0.5, below=False)
    return paper_row(_ID, "Sec. 5", FASTER, _CLAIM,
                     f"{state}: MCT_RM reached SA's length within SA's time in {reached} of "
                     f"{runs} runs ({reached / runs:.3f}, 95% interval [{low:.3f}, {high:.3f}])",
                     n=runs, scale=scale, departure=departure,
                     note="time_to_reach_sa.csv; docs/bench/tsp.md#the-paper-scale-on-record-"
                          "2026-11-27 (the speed-up without the cap)")


def _cp_spread(fig9: pd.DataFrame | None, instances: int, scale: str,
               departure: str) -> PaperRow | None:
    if fig9 is None or len(fig9) < 2:
        return None
    means = fig9["mean ratio to SA"].astype(float)
    spread = (means.max() - means.min()) / means.min()
    state = "holds" if spread <= CP_SPREAD_LIMIT else "fails"
    return paper_row(_ID, "Fig. 9", CP_SPREAD, _CLAIM,
                     f"{state}: the {len(means)} Cp settings' mean ratios to SA span "
                     f"{means.min():.3f} to {means.max():.3f}, {100 * spread:.2f}% of the "
                     f"smallest", n=instances or None, scale=scale, departure=departure,
                     note="fig9_mean_ratio_to_sa.csv")


def _reading_rows(per_instance, scale: str, departure: str) -> list[PaperRow]:
    """Fig. 8 (and Fig. 9 at Cp = 2) and the two claims about SA under ``accept-all-sa``."""
    reference, rows = "SA accept-all", []
    note = ("under the reading accept-all-sa: per instance the mean length over seeds / the "
            "accept-all SA's (per_instance.csv), mean and t interval over instances")
    places = [("Fig. 8", method, method) for method in FIG8_METHODS]
    places += [("Fig. 9", label, method) for label, method in _FIG9_COLUMNS.items()]
    for artefact, label, method in places:
        mean, low, high, n = ratio_interval(per_instance, method, reference)
        if n:
            rows.append(paper_row(_ID, artefact, label, _RATIO, mean, low=low, high=high, n=n,
                                  scale=scale, departure=departure, note=note))
    for label, method, below, what in (
            (UNIFORM_WORSE, "MCT_UM", False, "MCT_UM / accept-all SA"),
            (BEATS_SA, "MCT_RM", True, "MCT_RM / accept-all SA")):
        values = ratio_interval(per_instance, method, reference)
        if values[3]:
            rows.append(_interval_claim(label, values, below, what, scale, departure, note))
    return rows


def claim_rows(per_instance: pd.DataFrame | None, judged: pd.DataFrame | None,
               fig9: pd.DataFrame | None, time_table: pd.DataFrame | None, *,
               scale: str) -> list[tuple[str, PaperRow]]:
    """``(reading, row)`` pairs: the paper's five claims judged from this run's tables (ours,
    reading ``""``) and Fig. 8 / Fig. 9 / the two claims about SA under ``accept-all-sa``.
    ``judged`` is the run's ``paper_vs_run`` (its Fig. 8 rows: seed-paired mean ratios and
    intervals). A table that is missing gives no rows."""
    fig8 = _fig8(judged)
    departure = next((f[4] for f in fig8.values()), "")
    ours = []
    if "MCT_UM" in fig8:
        ours.append(_interval_claim(UNIFORM_WORSE, fig8["MCT_UM"][:4], False,
                                    "MCT_UM / SA (Fig. 8)", scale, departure, ""))
    if "MCT_RM" in fig8:
        ours.append(_interval_claim(BEATS_SA, fig8["MCT_RM"][:4], True,
                                    "MCT_RM / SA (Fig. 8)", scale, departure, ""))
    roulette = ratio_interval(per_instance, "MCT_RM", "MCT_UM")
    if roulette[3]:
        ours.append(_interval_claim(ROULETTE, roulette, True, "MCT_RM / MCT_UM", scale,
                                    departure, "per_instance.csv: per instance the ratio of "
                                    "the mean lengths over seeds"))
    instances = fig8.get("MCT_RM", (0, 0, 0, 0))[3]
    ours += [row for row in (_faster(time_table, scale, departure),
                             _cp_spread(fig9, instances, scale, departure)) if row is not None]
    readings = _reading_rows(per_instance, scale, departure) if per_instance is not None else []
    return [("", row) for row in ours] + [(ACCEPT_ALL, row) for row in readings]


def record_rows(read) -> list[tuple[str, PaperRow]]:
    """:func:`claim_rows` from a committed record's tables (``read(stem)``: its ``<stem>.csv``
    or None), at the scale its ``paper_vs_run`` was judged at."""
    judged = read("paper_vs_run")
    if judged is None or not len(judged):
        return []
    return claim_rows(read("per_instance"), judged, read("fig9_mean_ratio_to_sa"),
                      read("time_to_reach_sa"), scale=str(judged["scale"].iloc[0]))
