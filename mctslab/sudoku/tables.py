"""Tables of the Sudoku notebook (``sudoku_less_clue``), built from the task results of
:mod:`mctslab.sudoku.experiments`; its figures are :mod:`mctslab.sudoku.figures`.

Every number here is computed from results passed in; the paper's published numbers (Tables 1
and 2 of Nasu & Matsuzaki, read from ``mctslab/sudoku/targets.csv``) are kept in
``PAPER_TABLE1`` / ``PAPER_TABLE2`` only to be shown
side by side, in columns named ``paper ...``, and its one 17-clue find in the 4 runs of its best
combination in ``PAPER_HUNT`` (the last row of :func:`hunt`). :func:`paper_vs_run` puts them next to this
run's in the shape every notebook fills (:mod:`mctslab.core.compare`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mctslab.core import targets
from mctslab.core.compare import config_rows, paper_row, paper_table
from mctslab.core.rounding import round_table
from mctslab.core.stats import clopper_pearson, mean_interval
from mctslab.sudoku.generator import variant_name
from mctslab.sudoku.readings import READING_DEFAULTS

__all__ = ["PAPER_TABLE1", "PAPER_TABLE2", "PAPER_HUNT", "table1", "table2", "finds17", "finds",
           "yield_table", "baseline_table", "heuristic_table", "NO_CENSUS", "finds_per_tenth",
           "hunt", "puzzle_list", "paper_vs_run", "clue_histograms"]

NAMES = {"reducing": "candidate-reducing", "random": "fully random"}
# The paper's numbers, read from its targets file (mctslab/sudoku/targets.csv, core.targets)
_ID = "sudoku_less_clue"


def _variant_label(playout: str, selection: str, rules: bool) -> str:
    """Table 1's row label of a variant, as in the targets file and :func:`paper_vs_run`."""
    return f"{NAMES[playout]}, {selection}, rules {'yes' if rules else 'no'}"


# (playout, selection, rules) -> mean counts of N = 18, 19, 20 clues (paper Table 1)
PAPER_TABLE1 = {
    (playout, selection, rules): targets.values(
        _ID, "Table 1", _variant_label(playout, selection, rules), ("N=18", "N=19", "N=20"))
    for playout in ("reducing", "random") for selection in ("min", "mean")
    for rules in (True, False)}
# (playout, selection, rules) -> the targets of its N = 18, 19, 20 cells (margin, floor, ...)
PAPER_TABLE1_TARGETS = {
    key: tuple(targets.target(_ID, "Table 1", _variant_label(*key), column)
               for column in ("N=18", "N=19", "N=20"))
    for key in PAPER_TABLE1}
# (c, threshold) -> (N = 18, distinct N = 18, N = 19, N = 20) (paper Table 2)
PAPER_TABLE2 = {
    (c, threshold): targets.values(_ID, "Table 2", f"c = {c:g}, threshold {threshold}",
                                   ("N=18", "distinct N=18", "N=19", "N=20"))
    for c in (0.5, 1.0) for threshold in (10, 20, 30, 40)}
# The paper's 17-clue hunt: one 17-clue puzzle in the 4 runs of its best combination
# (candidate-reducing, min, rules) at 1,000,000 playouts (Sec. 5.1: "in the generation with
# this combination") -> (runs with a 17, runs, playouts per run); its share, 1/4, is the
# target "Sec. 5.1" row (the other reading, 1 of all 32 Table 1 runs, is in its criterion)
PAPER_HUNT = (1, 4, 1_000_000)
BEST_VARIANT = ("reducing", "min", True)


def _key(result):
    c = result["config"]
    return (c["playout"], c["selection"], bool(c["rules"]))


def _groups(results, key):
    groups = {}
    for r in results:
        groups.setdefault(key(r), []).append(r)
    return groups


def _mean(runs, part, n, field="count"):
    """Mean over runs of a count of re-verified puzzles (``part``: "raw" or "reduced").

    Reported counts never come from the runs' histograms, which also hold puzzles that were
    not (or not successfully) re-checked by the other backend.
    """
    return float(np.mean([r[part]["distinct"][str(n)][field] for r in runs]))


def _t_interval(values, confidence=0.95) -> tuple[float, float]:
    """Student t interval for the mean of ``values`` (one per run), clipped at 0 (counts);
    NaN with fewer than two runs, where no spread over seeds is known."""
    _, low, high = mean_interval(values, confidence)
    return (max(low, 0.0), high) if len(values) >= 2 else (np.nan, np.nan)


def _with_intervals(runs, part="raw", clues=(18, 19, 20)) -> dict:
    """``N=k`` (mean over runs) followed by ``N=k low`` / ``N=k high`` (its 95% t interval over
    seeds) for each ``k`` in ``clues``: columns in this order."""
    out = {}
    for n in clues:
        low, high = _t_interval([r[part]["distinct"][str(n)]["count"] for r in runs])
        out.update({f"N={n}": _mean(runs, part, n), f"N={n} low": low, f"N={n} high": high})
    return out


# -- rounding for citing --------------------------------------------------------------------------
# The task results keep full precision; the tables (and so the CSVs) carry what a reader cites:
# means of counts over a few runs to 2 decimals (exact for 4 runs: their resolution is 0.25),
# mean clue counts to 0.01 clue, rates to 3 decimals, times, speeds and yields to 3 significant
# digits. The 95% t interval of a mean (``N=k low`` / ``N=k high``) is rounded as the mean.
_COUNT_PREFIXES = ("N=", "distinct N=", "reduced N=", "reduced distinct N=", "paper N=",
                   "paper distinct N=")
_SIGNIFICANT = ("CPU s/run", "playouts/s", "CPU hours", "runs/s")


def _rounded(table: pd.DataFrame) -> pd.DataFrame:
    decimals = {c: 2 for c in table.columns if c.startswith(_COUNT_PREFIXES)
                and not c.endswith(("/CPU-h", "per 1M"))}
    decimals.update({"mean clues": 2, "failure rate": 3})
    significant = {c: 3 for c in table.columns
                   if c in _SIGNIFICANT or c.endswith(("/CPU-h", "per 1M"))}
    return round_table(table, decimals, significant)


def table1(results) -> pd.DataFrame:
    """Table 1: mean counts per variant, ours beside the paper's (same row order), rounded for
    citing (:func:`_rounded`). ``N=k low`` / ``N=k high`` (k = 18, 19, 20) follow each mean: its
    95% t interval over seeds (clipped at 0; NaN with a single run)."""
    rows = []
    for key, runs in _groups(results, _key).items():
        playout, selection, rules = key
        paper = PAPER_TABLE1.get(key, (np.nan,) * 3)
        cpu = float(np.mean([r["cpu_seconds"] for r in runs]))
        rows.append({
            "playout": NAMES[playout], "value": selection, "rules": "yes" if rules else "no",
            "runs": len(runs), "playouts/run": runs[0]["config"]["playouts"],
            "N=17": _mean(runs, "raw", 17), **_with_intervals(runs),
            "paper N=18": paper[0], "paper N=19": paper[1], "paper N=20": paper[2],
            "distinct N=18": _mean(runs, "raw", 18, "distinct"),
            "distinct N=19": _mean(runs, "raw", 19, "distinct"),
            "reduced N=17": _mean(runs, "reduced", 17),
            "reduced N=18": _mean(runs, "reduced", 18),
            "reduced N=19": _mean(runs, "reduced", 19),
            "reduced distinct N=18": _mean(runs, "reduced", 18, "distinct"),
            "reduced distinct N=19": _mean(runs, "reduced", 19, "distinct"),
            "mean clues": float(np.mean([_mean_clues(r["histogram"]) for r in runs])),
            "CPU s/run": cpu, "playouts/s": runs[0]["config"]["playouts"] / cpu,
            "runs with records full": _records_full(runs),
        })
    return _rounded(pd.DataFrame(rows))


def _records_full(runs) -> int:
    """Runs that found more puzzles than they could keep (``generator.RECORD_CAPACITY``): their
    counts are lower bounds."""
    return sum(bool(r.get("stats", {}).get("records_overflowed")) for r in runs)


def _mean_clues(histogram):
    h = np.asarray(histogram, float)
    return float((h * np.arange(len(h))).sum() / max(h.sum(), 1))


def table2(results) -> pd.DataFrame:
    """Table 2: best variant, c x threshold; counts, exact distinct and the paper's numbers
    (rounded for citing). ``N=k low`` / ``N=k high`` (k = 18, 19, 20) follow each mean: its 95% t
    interval over seeds (clipped at 0; NaN with a single run)."""
    rows = []
    key = lambda r: (float(r["config"]["c"]), int(r["config"]["threshold"]))  # noqa: E731
    for (c, threshold), runs in sorted(_groups(results, key).items()):
        paper = PAPER_TABLE2.get((c, threshold), (np.nan,) * 4)
        rows.append({
            "c": c, "threshold": threshold, "runs": len(runs),
            "playouts/run": runs[0]["config"]["playouts"],
            "N=17": _mean(runs, "raw", 17), **_with_intervals(runs, clues=(18,)),
            "distinct N=18": _mean(runs, "raw", 18, "distinct"),
            "distinct N=18 (paper heuristic)": _mean(runs, "raw", 18, "distinct_paper_heuristic"),
            **_with_intervals(runs, clues=(19, 20)),
            "distinct N=20": _mean(runs, "raw", 20, "distinct"),
            "paper N=18": paper[0], "paper distinct N=18": paper[1], "paper N=19": paper[2],
            "paper N=20": paper[3],
            "reduced N=17": _mean(runs, "reduced", 17),
            "reduced N=18": _mean(runs, "reduced", 18),
            "CPU s/run": float(np.mean([r["cpu_seconds"] for r in runs])),
            "runs with records full": _records_full(runs),
        })
    return _rounded(pd.DataFrame(rows))


# A census of known 17-clue puzzles: (their exact canonical forms, which list it is); built by
# :func:`mctslab.sudoku.experiments.census_forms`, which reads the list and canonicalises it.
NO_CENSUS = (frozenset(), "no census available")


def finds17(*result_lists, census: tuple[frozenset, str] = NO_CENSUS) -> pd.DataFrame:
    """Every distinct 17-clue puzzle found (raw or after reduction), checked against ``census``
    (:func:`finds`)."""
    return finds(*result_lists, clues=(17,), census=census)


def finds(*result_lists, clues=(17, 18), census: tuple[frozenset, str] = NO_CENSUS
          ) -> pd.DataFrame:
    """Every distinct puzzle found with the given clue counts, with seed and playout number.

    17-clue puzzles are checked against ``census``, the known ones' canonical forms and the
    list's label (:func:`mctslab.sudoku.experiments.census_forms`): ``known`` / ``new`` (against
    Royle's full list) / ``not in <list>``; ``unchecked (no census)`` without one.
    """
    forms, label = census
    rows, seen = [], set()
    for experiment, results in result_lists:
        for r in results:
            for part in ("raw", "reduced"):
                for p in r[part]["puzzles"]:
                    if p["clues"] not in clues or p["canonical"] in seen:
                        continue
                    seen.add(p["canonical"])
                    canonical = bytes(int(ch) if ch != "." else 0 for ch in p["canonical"])
                    if p["clues"] != 17:
                        status = "-"
                    elif canonical in forms:
                        status = "known"
                    else:
                        status = ("new" if label == "Royle 49,151" else "unchecked (no census)"
                                  if not forms else f"not in {label}")
                    rows.append({"experiment": experiment, "variant": r["variant"],
                                 "clues": p["clues"],
                                 "seed": r.get("seed_index", 0), "playout": p["playout"],
                                 "how": "generated" if part == "raw" else "reduced",
                                 "puzzle": p["puzzle"], "census": status})
    columns = ["experiment", "variant", "clues", "seed", "playout", "how", "puzzle", "census"]
    return pd.DataFrame(rows, columns=columns)


def clue_histograms(results) -> pd.DataFrame:
    """Puzzles generated per clue count and variant, summed over seeds, from the fewest to the
    most clues a variant reached (zeros inside that span kept): what the clue histogram draws."""
    rows = []
    for variant, runs in _groups(results, lambda r: r["variant"]).items():
        summed = np.sum([r["histogram"] for r in runs], axis=0)
        clues = np.flatnonzero(summed)
        rows += [{"variant": variant, "clues": int(n), "puzzles": int(summed[n])}
                 for n in (range(clues.min(), clues.max() + 1) if len(clues) else ())]
    return pd.DataFrame(rows, columns=["variant", "clues", "puzzles"])


def yield_table(*result_lists) -> pd.DataFrame:
    """Distinct puzzles with 17, 18, 19 clues per CPU-hour, raw and after reduction, per variant.

    Distinct = different exact canonical forms within a run (summed over runs). Raw yields use
    the search's CPU time; reduced yields add the reduction's CPU time (for the "beyond" runs
    the reduction happens inside the search and is already in its time).
    """
    rows = []
    for experiment, results in result_lists:
        for variant, runs in _groups(results, lambda r: r["variant"]).items():
            search = sum(r["cpu_seconds"] for r in runs) / 3600
            reduction = sum(r["reduced"]["cpu_seconds"] for r in runs) / 3600
            row = {"experiment": experiment, "variant": variant, "runs": len(runs),
                   "playouts/run": runs[0]["config"]["playouts"], "CPU hours": search}
            for n in (17, 18, 19):
                row[f"N={n} /CPU-h"] = sum(_distinct(r, "raw", n) for r in runs) / search
            for n in (17, 18, 19):
                row[f"reduced N={n} /CPU-h"] = (sum(_distinct(r, "reduced", n) for r in runs)
                                                / (search + reduction))
            rows.append(row)
    return _rounded(pd.DataFrame(rows))


def _distinct(result, part, n):
    return result[part]["distinct"][str(n)]["distinct"]


# -- the 17-clue hunt ------------------------------------------------------------------------------
_HUNT_COUNTS = ("runs with raw 17", "runs with 17", "distinct 17", "runs with 18", "distinct 18")
_HUNT_COLUMNS = ["experiment", "reading", "runs", "playouts/run", "total playouts",
                 "runs with raw 17", "raw 17 rate", "raw 17 rate low", "raw 17 rate high",
                 "runs with 17", "17 rate", "17 rate low", "17 rate high",
                 "distinct 17", "17s/run", "17s/run low", "17s/run high",
                 "runs with 18", "distinct 18", "18s/run", "18s/run low", "18s/run high"]


def _hunt_reading(result) -> str:
    """:func:`_reading`, plus ``c`` and ``threshold`` when they are not Table 1's (1.0, 30)."""
    config = result["config"]
    extra = [f"{name}={config[name]}" for name, table1_value in (("c", 1.0), ("threshold", 30))
             if config.get(name, table1_value) != table1_value]
    return ", ".join([_reading(result), *extra])


def _forms(result, n, parts=("raw", "reduced")) -> set:
    """Exact canonical forms of the run's re-verified puzzles with ``n`` clues."""
    return {p["canonical"] for part in parts for p in result[part]["puzzles"] if p["clues"] == n}


def _hunt_row(experiment, reading, runs) -> dict:
    raw17 = [_forms(r, 17, ("raw",)) for r in runs]
    found = {n: [_forms(r, n) for r in runs] for n in (17, 18)}
    row = {"experiment": experiment, "reading": reading, "runs": len(runs),
           "playouts/run": runs[0]["config"]["playouts"],
           "total playouts": sum(r["config"]["playouts"] for r in runs),
           **_rate("raw 17", sum(map(bool, raw17)), len(runs)),
           **_rate("17", sum(map(bool, found[17])), len(runs))}
    for n, per_run in found.items():
        if n != 17:
            row[f"runs with {n}"] = sum(map(bool, per_run))
        sizes = [len(forms) for forms in per_run]
        low, high = _t_interval(sizes)
        row.update({f"distinct {n}": len(set().union(*per_run)), f"{n}s/run": float(np.mean(sizes)),
                    f"{n}s/run low": low, f"{n}s/run high": high})
    return row


def _rate(what, runs_with, runs) -> dict:
    """``runs with <what>``, ``<what> rate`` (per run) and its 95% Clopper-Pearson interval."""
    low, high = clopper_pearson(runs_with, runs)
    return {f"runs with {what}": runs_with, f"{what} rate": runs_with / runs,
            f"{what} rate low": low, f"{what} rate high": high}


def hunt(*result_lists) -> pd.DataFrame:
    """The 17-clue hunt: how many runs find a 17-clue puzzle, beside the paper's 1 in 4.

    One row per (experiment, reading, playouts per run) group of runs, then one ``all`` row per
    experiment and playouts per run holding more than one group, then the paper's row (one run
    with a 17 of the 4 runs of its best combination at 1,000,000 playouts, :data:`PAPER_HUNT`,
    Sec. 5.1; it reduced nothing, so its raw finds are all its finds). The reading is the variant, each non-default
    reading, and ``c`` / ``threshold`` when they are not Table 1's (Table 2's settings).

    Only python-sat re-verified puzzles count (the runs' ``raw`` / ``reduced`` lists). ``runs with
    raw 17``: runs that generated a 17-clue puzzle; ``runs with 17``: a 17 generated or reached by
    minimal reduction. ``... rate``: such runs per run, with the 95% Clopper-Pearson interval
    (``low`` / ``high``). ``distinct 17`` / ``distinct 18``: different exact canonical forms
    among the group's runs (as :func:`finds` counts them); ``17s/run`` / ``18s/run``: distinct
    finds per run, mean over runs with its 95% t interval (NaN with a single run).

    Rounded for citing: rates and their bounds to 3 significant digits (3 decimals would show
    the paper's lower bound, 0.00079, as 0.001), finds per run to 2 decimals.
    """
    rows = []
    key = lambda r: (_hunt_reading(r), r["config"]["playouts"])  # noqa: E731
    for experiment, results in result_lists:
        by_playouts = {}
        for (reading, playouts), runs in _groups(results, key).items():
            rows.append(_hunt_row(experiment, reading, runs))
            by_playouts.setdefault(playouts, []).append(runs)
        for groups in by_playouts.values():
            if len(groups) > 1:
                rows.append(_hunt_row(experiment, f"all ({len(groups)} readings)",
                                      [r for runs in groups for r in runs]))
    found, runs, playouts = PAPER_HUNT
    rows.append({"experiment": "paper (Table 1)", "reading": variant_name(*BEST_VARIANT),
                 "runs": runs,
                 "playouts/run": playouts, "total playouts": runs * playouts,
                 **_rate("raw 17", found, runs), **_rate("17", found, runs), "distinct 17": found})
    table = pd.DataFrame(rows, columns=_HUNT_COLUMNS)
    for column in _HUNT_COUNTS:
        table[column] = table[column].astype("Int64")  # the paper row leaves the 18s empty
    rates = [c for c in table.columns if " rate" in c]
    per_run = [c for c in table.columns if "s/run" in c]
    return round_table(table, dict.fromkeys(per_run, 2), dict.fromkeys(rates, 3))


def baseline_table(removal) -> pd.DataFrame:
    """Random clue removal: clue statistics per million runs."""
    rows = []
    sources = [("random removal from a random grid", [r["histogram"] for r in removal],
                sum(r["cpu_seconds"] for r in removal))]
    for name, histograms, seconds in sources:
        h = np.sum(np.asarray(histograms, np.int64), axis=0)
        runs = int(h.sum())
        rows.append({"method": name, "runs": runs, "mean clues": _mean_clues(h),
                     "min clues": int(np.flatnonzero(h).min()) if runs else None,
                     **{f"N={n} per 1M": h[n] * 1e6 / max(runs, 1) for n in (18, 19, 20, 21)},
                     "runs/s": runs / max(seconds, 1e-9)})
    return _rounded(pd.DataFrame(rows))


def heuristic_table(*result_lists) -> pd.DataFrame:
    """How often the paper's normalisation fails to merge equivalent puzzles (exact vs heuristic)."""
    rows = []
    for experiment, results in result_lists:
        for n in (18, 19, 20):
            exact = sum(r["raw"]["distinct"][str(n)]["distinct"] for r in results)
            heuristic = sum(r["raw"]["distinct"][str(n)]["distinct_paper_heuristic"] for r in results)
            rows.append({"experiment": experiment, "clues": n, "distinct (exact)": exact,
                         "distinct (paper heuristic)": heuristic,
                         "unmerged duplicates": heuristic - exact,
                         "failure rate": (heuristic - exact) / heuristic if heuristic else 0.0})
    return _rounded(pd.DataFrame(rows))


def _reading(result) -> str:
    """The run's variant and every reading of the generator that differs from its default."""
    config = result["config"]
    changed = [f"{name}={config[name]}" for name, default in READING_DEFAULTS.items()
               if config.get(name, default) != default]
    if config.get("exploration_n", "total") != "total":
        changed.append(f"exploration_n={config['exploration_n']}")
    return ", ".join([result["variant"], *changed])


def finds_per_tenth(results, clues=(18, 19, 20)) -> pd.DataFrame:
    """Re-verified puzzles with ``clues`` clues found in each tenth of the run, per
    reading (variant and non-default readings) and seed; ``tenth`` 1 is the first 10% of the
    playouts. Results stored before the runs recorded this (no ``finds_per_tenth``) are left
    out. A search whose finds all fall in the first tenths has stalled; the paper's N=20 count
    grows about linearly with the budget (20,552 at 1M -> 54,061 at 3M playouts)."""
    rows = []
    for r in results:
        per = r.get("finds_per_tenth")
        if per is None:
            continue
        reading = _reading(r)
        for tenth in range(len(per[str(clues[0])])):
            rows.append({"reading": reading, "seed": r.get("seed_index", 0),
                         "playouts/run": r["config"]["playouts"], "tenth": tenth + 1,
                         **{f"N={n}": per[str(n)][tenth] for n in clues}})
    columns = ["reading", "seed", "playouts/run", "tenth", *(f"N={n}" for n in clues)]
    return pd.DataFrame(rows, columns=columns)


def puzzle_list(table) -> str:
    """Finds as text: one 81-character line each, preceded by a comment line saying where from."""
    lines = [f"# {len(table)} distinct puzzle(s); each line below a comment is one puzzle"]
    for row in table.itertuples():
        lines.append(f"# clues={row.clues} {row.experiment} {row.variant} seed={row.seed} "
                     f"playout={row.playout} {row.how} census={row.census}")
        lines.append(row.puzzle)
    return "\n".join(lines) + "\n"



# The paper's playouts per run (Sec. 5.1 and 5.2): a run with fewer is not its protocol.
PAPER_PLAYOUTS = {"Table 1": 1_000_000, "Table 2": 3_000_000}


def protocol_values(paper_cfg) -> dict:
    """Our value of every protocol constant the paper states (its ``config`` targets), from
    the configuration at paper scale (``experiments.config("paper")``)."""
    return {
        ("Table 1", "protocol", "playouts per run"): paper_cfg.table1_playouts,
        ("Table 1", "protocol", "c"): paper_cfg.c,
        ("Table 1", "protocol", "expansion threshold"): paper_cfg.threshold,
        ("Table 1", "protocol", "max children"): paper_cfg.max_children,
        ("Table 1", "protocol", "seeds per variant"): paper_cfg.table1_seeds,
        ("Table 1", "protocol", "variants"): len(paper_cfg.variants),
        ("Table 2", "protocol", "playouts per run"): paper_cfg.table2_playouts,
        ("Table 2", "protocol", "max children"): paper_cfg.max_children,
        ("Table 2", "protocol", "seeds per setting"): paper_cfg.table2_seeds,
        ("Table 2", "protocol", "c values"): ", ".join(f"{c:.1f}" for c in paper_cfg.table2_c),
        ("Table 2", "protocol", "thresholds"): ", ".join(map(str, paper_cfg.table2_thresholds)),
        ("Eqs. 2-3", "selection", "n in the exploration term"): {
            "total": "total playouts", "parent": "the parent's playouts"}.get(
                paper_cfg.exploration_n, paper_cfg.exploration_n),
        ("Sec. 4", "playout", "uniqueness check"):
            "numba solution counter (python-sat re-verifies every listed puzzle)"}


def _task_cpu(run: dict) -> float:
    """CPU seconds of one run's whole task: the search, the python-sat re-verification, the
    canonical forms and the minimal reductions (what one more run would cost; a mean-selection
    run at 1M playouts spends most of it after the search)."""
    return (run["cpu_seconds"] + run.get("verify_cpu_seconds", 0.0)
            + run.get("canonical_cpu_seconds", 0.0) + run.get("reduced", {}).get("cpu_seconds", 0.0))


def paper_vs_run(table1_results, table2_results, cfg) -> pd.DataFrame:
    """The paper's Tables 1 and 2, its 17-clue find and its protocol next to this run's, one
    row per target (:mod:`mctslab.core.compare` judges each by its margin).

    One row per (variant or setting, N): our mean count over seeds with the 95% t interval
    (re-verified puzzles only; the CPU seconds of a run's whole task, :func:`_task_cpu`, size
    what would settle an open row). A run
    with fewer playouts than the paper's (1,000,000 in Table 1, 3,000,000 in Table 2) is not
    its protocol. The 17-clue row: runs of the best combination at the paper's Table 1 budget
    that found a 17-clue puzzle, with the Clopper-Pearson interval, against the paper's 1 of
    4. Then the protocol constants at paper scale (:func:`protocol_values` of
    ``cfg.protocol()``; ``cfg`` is the run's ``experiments.Config``).
    """
    name, scale, rows = "sudoku_less_clue", cfg.scale, []

    def count_rows(artefact, label, runs, columns):
        playouts = runs[0]["config"]["playouts"]
        departure = (f"{playouts:,} playouts per run, the paper's {PAPER_PLAYOUTS[artefact]:,}"
                     if playouts < PAPER_PLAYOUTS[artefact] else "")
        cpu = float(np.mean([_task_cpu(r) for r in runs]))
        for column, field, n in columns:
            values = [r["raw"]["distinct"][str(n)][field] for r in runs]
            low, high = _t_interval(values)
            rows.append(paper_row(name, artefact, label, column, float(np.mean(values)),
                                  low=low, high=high, n=len(runs), scale=scale,
                                  departure=departure, unit_cpu_s=cpu))

    table1_columns = [("N=18", "count", 18), ("N=19", "count", 19), ("N=20", "count", 20)]
    for key, runs in _groups(table1_results, _key).items():
        if key in PAPER_TABLE1:
            count_rows("Table 1", _variant_label(*key), runs, table1_columns)
    table2_columns = [("N=18", "count", 18), ("distinct N=18", "distinct", 18),
                      ("N=19", "count", 19), ("N=20", "count", 20)]
    key2 = lambda r: (float(r["config"]["c"]), int(r["config"]["threshold"]))  # noqa: E731
    for (c, threshold), runs in sorted(_groups(table2_results, key2).items()):
        if (c, threshold) in PAPER_TABLE2:
            count_rows("Table 2", f"c = {c:g}, threshold {threshold}", runs, table2_columns)
    found, runs, playouts = PAPER_HUNT
    best = [r for r in table1_results if _key(r) == BEST_VARIANT]
    at_budget = [r for r in best if r["config"]["playouts"] >= playouts]
    column = "share of the best combination's runs"
    if at_budget:
        with17 = sum(bool(_forms(r, 17, ("raw",))) for r in at_budget)
        low, high = clopper_pearson(with17, len(at_budget))
        rows.append(paper_row(name, "Sec. 5.1", "17-clue puzzle generated", column,
                              with17 / len(at_budget), low=low, high=high, n=len(at_budget),
                              scale=scale,
                              unit_cpu_s=float(np.mean([_task_cpu(r) for r in at_budget])),
                              note=f"{with17} of {len(at_budget)} runs"))
    elif best:
        rows.append(paper_row(name, "Sec. 5.1", "17-clue puzzle generated", column,
                              sum(bool(_forms(r, 17, ("raw",))) for r in best) / len(best),
                              n=len(best), scale=scale,
                              departure=f"{best[0]['config']['playouts']:,} playouts per run, "
                                        f"the paper's {playouts:,}"))
    rows += config_rows(name, protocol_values(cfg.protocol()), scale)
    return paper_table(rows)
