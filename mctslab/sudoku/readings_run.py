"""Running the search over readings (:mod:`mctslab.sudoku.readings_search`) and writing its
record: a long, resumable run on one core, and the small files committed under
``records/sudoku_less_clue/readings-<date>/``.

``python -m mctslab.sudoku.readings_run run --out STORE`` runs the phases in order (each
resumes from the result store under ``STORE/data/results/``; ``--phases`` picks some);
``python -m mctslab.sudoku.readings_run record --out STORE --record DIR`` writes what is
stored so far (partial phases too) as CSV files beside the design (``design.json``, written
by ``design`` before anything runs).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

from mctslab import paths
from mctslab.core.executor import run_tasks
from mctslab.core.store import ResultStore, utc_now, write_json
from mctslab.sudoku import readings_search as search
from mctslab.sudoku.readings_score import CRITERIA, table2_claims

__all__ = ["PHASES", "plan", "run", "record", "main"]

BUDGET = 50_000        # screening playouts per Table 1 run (the budget check: design.json)
READINGS = 40          # readings screened (today's and 39 drawn)
PHASES = ("screen", "table2", "paper1", "paper2")
EXPERIMENTS = {"screen": "readings_screen", "table2": "readings_table2",
               "paper1": "readings_paper_table1", "paper2": "readings_paper_table2"}


def _stored(out, phase) -> dict:
    store = ResultStore(paths.results_dir(EXPERIMENTS[phase], out))
    return {k: v["result"] for k, v in store.load().items()} if store.exists() else {}


def _screen(out, budget, n):
    readings = search.design(n)
    tasks, keys = search.table1_tasks(readings, budget)
    counts = search.run_counts(_stored(out, "screen"), tasks, keys)
    return readings, tasks, counts, search.scores(readings, counts, budget)


def plan(out, phase, budget=BUDGET, n=READINGS):
    """The tasks of ``phase`` and their keys; the later phases' readings are the best of a
    complete screening (``[]`` before it is complete)."""
    readings, _, _, table = _screen(out, budget, n)
    if phase == "screen":
        return search.table1_tasks(readings, budget)
    if table["runs"].min() < 32:
        return [], []
    best = [readings[r] for r in search.best_readings(table)]
    if phase == "table2":
        return search.table2_tasks(best, 3 * budget)
    if phase == "paper1":
        return search.table1_tasks(best, 1_000_000)
    return search.table2_tasks(best, 3_000_000)


def run(out, phases=PHASES, budget=BUDGET, n=READINGS, workers=1) -> None:
    """Run ``phases`` in order, each through the executor (stored, resumable)."""
    for phase in phases:
        tasks, _ = plan(out, phase, budget, n)
        if not tasks:
            print(f"{phase}: nothing to run (the screening is not complete)", flush=True)
            return
        print(f"{utc_now()} {phase}: {len(tasks)} tasks", flush=True)
        run_tasks(EXPERIMENTS[phase], tasks, workers=workers, out=out, progress=False)


def _best_counts(out, phase, readings, best, budget, playouts):
    chosen = [readings[r] for r in best]
    if phase in ("table2", "paper2"):
        tasks, keys = search.table2_tasks(chosen, playouts)
        names = ("rank", "c", "threshold", "seed")
    else:
        tasks, keys = search.table1_tasks(chosen, playouts)
        names = ("rank", "variant", "seed")
    counts = search.run_counts(_stored(out, phase), tasks, keys, names)
    if len(counts):
        counts.insert(1, "reading", [best[k] for k in counts["rank"]])
    return counts


def _table2_verdicts(counts: pd.DataFrame, best) -> pd.DataFrame:
    rows = []
    for rank, reading in enumerate(best):
        mine = counts[counts["rank"] == rank] if len(counts) else counts
        if len(mine) < 32:
            continue
        for claim in table2_claims(mine).to_dict("records"):
            rows.append({"rank": rank, "reading": reading, **claim})
    return pd.DataFrame(rows)


def record(out, folder, budget=BUDGET, n=READINGS) -> Path:
    """Write the stored results of every phase into ``folder`` (beside its ``design.json``)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    readings, _, counts, table = _screen(out, budget, n)
    options = pd.DataFrame([{"reading": r, "label": search.reading_label(x), **x}
                            for r, x in enumerate(readings)])
    options.to_csv(folder / "readings.csv", index=False)
    counts.to_csv(folder / "screen_counts.csv", index=False)
    table.to_csv(folder / "screen_scores.csv", index=False)
    status = {"written": utc_now(), "screen_runs": int(len(counts)),
              "screen_cpu_hours": round(float(counts["cpu_seconds"].sum()) / 3600, 3)
              if len(counts) else 0.0}
    if table["runs"].min() == 32:
        best = search.best_readings(table)
        status["best"] = best
        for phase, playouts in (("table2", 3 * budget), ("paper1", 1_000_000),
                                ("paper2", 3_000_000)):
            phase_counts = _best_counts(out, phase, readings, best, budget, playouts)
            phase_counts.to_csv(folder / f"{phase}_counts.csv", index=False)
            status[f"{phase}_runs"] = int(len(phase_counts))
            status[f"{phase}_cpu_hours"] = (round(float(phase_counts["cpu_seconds"].sum())
                                                  / 3600, 3) if len(phase_counts) else 0.0)
            if phase in ("table2", "paper2") and len(phase_counts):
                _table2_verdicts(phase_counts, best).to_csv(folder / f"{phase}_claims.csv",
                                                            index=False)
    write_json(folder / "status.json", status)
    return folder


def write_design(folder, budget=BUDGET, n=READINGS, estimate: dict | None = None) -> Path:
    """``design.json``: the factors, the readings, the budget, the scoring and claims'
    criteria and the ranking rule, written before the screening runs."""
    readings = search.design(n)
    design = {"factors": {k: list(v) for k, v in search.FACTORS.items()},
              "count_modes": list(search.COUNTS), "readings": n,
              "sample": "today's reading, then n - 1 distinct combinations drawn uniformly "
                        "from the full factorial (numpy default_rng(20261128))",
              "labels": [search.reading_label(r) for r in readings],
              "table1": "8 variants x 4 seeds per reading, experiment seed 20261122",
              "budget": budget, "table2_budget": 3 * budget,
              "score": "mean over Table 1's 24 cells of |log10((ours + 1) / (paper + 1))|, "
                       "ours = mean count per run scaled linearly to 1,000,000 playouts; "
                       "near = cells within a factor 2 on the same scale",
              "ranking": f"the {search.BEST} readings with the smallest score over either "
                         "count mode run Table 2 at 3 x budget, then Table 1 at 1,000,000 "
                         "and Table 2 at 3,000,000 playouts",
              "claims": CRITERIA, "estimate": estimate or {}, "written": utc_now()}
    path = Path(folder) / "design.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json(path, design)
    return path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mctslab.sudoku.readings_run")
    parser.add_argument("action", choices=("run", "record", "design"))
    parser.add_argument("--out", required=True, help="result store root (data/results/ under it)")
    parser.add_argument("--record", help="record folder (record, design)")
    parser.add_argument("--phases", nargs="*", choices=PHASES, default=list(PHASES))
    parser.add_argument("--estimate", help="JSON of the cost estimate (design)")
    args = parser.parse_args(argv)
    if args.action == "run":
        run(args.out, args.phases)
    elif args.action == "record":
        print(record(args.out, args.record))
    else:
        print(write_design(args.record, estimate=json.loads(args.estimate or "{}")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
