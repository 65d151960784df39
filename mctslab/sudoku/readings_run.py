"""Running the search over readings (:mod:`mctslab.sudoku.readings_search`) and writing its
record: a long, resumable run on one core, and the small files committed under
``records/sudoku_less_clue/readings-<date>/``.

``python -m mctslab.sudoku.readings_run run --out STORE`` runs the phases in order (each
resumes from the result store under ``STORE/data/results/``; ``--phases`` picks some);
``python -m mctslab.sudoku.readings_run record --out STORE --record DIR`` writes what is
stored so far (partial phases too) as CSV files beside the design (``design.json``, written
by ``design`` before anything runs). ``stage --out STORE --reading K --to DIR`` puts a best
reading's paper-scale runs where the notebook finds them and prints the two commands that run
the notebook under that reading and record it as ``reading-<name>`` (the scorecard's verdicts
under the reading; its row of ``mctslab/sudoku/readings.csv`` is printed beside them).
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
from pathlib import Path

import pandas as pd

from mctslab import paths
from mctslab.core.executor import run_tasks
from mctslab.core.scorecard import md_table
from mctslab.core.store import ResultStore, utc_now, write_json, write_sums
from mctslab.sudoku import readings_search as search
from mctslab.sudoku import tables
from mctslab.sudoku.experiments import census_forms
from mctslab.sudoku.readings_score import CRITERIA, ranking_kept, table1_distance, table2_claims

__all__ = ["PHASES", "plan", "run", "record", "main"]

BUDGET = 100_000       # screening playouts per Table 1 run: the smallest that keeps the ranking
PHASES = ("screen", "table2", "paper1", "paper2")
# The committed records: the search's, and the paper-scale run of today's reading it starts from
RECORD = paths.project_root() / "records" / "sudoku_less_clue" / "readings-2026-11-28"
PAPER_RECORD = paths.project_root() / "records" / "sudoku_less_clue" / "paper-2026-11-27"
EXPERIMENTS = {"screen": "readings_screen", "table2": "readings_table2",
               "paper1": "readings_paper_table1", "paper2": "readings_paper_table2"}


def _stored(out, phase) -> dict:
    store = ResultStore(paths.results_dir(EXPERIMENTS[phase], out))
    return {k: v["result"] for k, v in store.load().items()} if store.exists() else {}


def _screen(out, budget):
    readings = search.design()
    tasks, keys = search.table1_tasks(readings, budget)
    counts = search.run_counts(_stored(out, "screen"), tasks, keys)
    return readings, tasks, counts, search.scores(readings, counts, budget)


def plan(out, phase, budget=BUDGET):
    """The tasks of ``phase`` and their keys; the later phases' readings are the best of a
    complete screening (``[]`` before it is complete)."""
    readings, _, _, table = _screen(out, budget)
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


def run(out, phases=PHASES, budget=BUDGET, workers=1) -> None:
    """Run ``phases`` in order, each through the executor (stored, resumable)."""
    for phase in phases:
        tasks, _ = plan(out, phase, budget)
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


def _paper_scores(counts: pd.DataFrame, readings, best) -> pd.DataFrame:
    """The best readings' Table 1 at the paper's scale, scored as the screening is."""
    chosen = [readings[r] for r in best]
    table = search.scores(chosen, counts.drop(columns="reading").rename(
        columns={"rank": "reading"}), 1_000_000)
    return table.rename(columns={"reading": "rank"}).assign(
        reading=lambda t: [best[k] for k in t["rank"]])


def _write_hunt(out, phase, folder) -> None:
    """The 17-clue hunt of a paper-scale phase (``tables.hunt``: runs with a 17, its rate and
    interval, per reading) and every 17 found, checked against the census (``tables.finds``)."""
    results = [r for r in _stored(out, phase).values() if "config" in r]
    if results:
        tables.hunt((phase, results)).to_csv(folder / f"{phase}_hunt_17.csv", index=False)
        tables.finds((phase, results), clues=(17,), census=census_forms()).to_csv(
            folder / f"{phase}_finds_17.csv", index=False)


def _table2_verdicts(counts: pd.DataFrame, best) -> pd.DataFrame:
    rows = []
    for rank, reading in enumerate(best):
        mine = counts[counts["rank"] == rank] if len(counts) else counts
        if len(mine) < 32:
            continue
        for claim in table2_claims(mine).to_dict("records"):
            rows.append({"rank": rank, "reading": reading, **claim})
    return pd.DataFrame(rows)


def _tasks(counts: pd.DataFrame) -> int:
    return int(counts["task"].nunique()) if len(counts) else 0


def _cpu_hours(counts: pd.DataFrame) -> float:
    """CPU hours of the distinct tasks of ``counts`` (a run shared by readings once)."""
    if not len(counts):
        return 0.0
    return round(float(counts.drop_duplicates("task")["cpu_seconds"].sum()) / 3600, 3)


def record(out, folder, budget=BUDGET) -> Path:
    """Write the stored results of every phase into ``folder`` (beside its ``design.json``)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    readings, _, counts, table = _screen(out, budget)
    options = pd.DataFrame([{"reading": r, "label": search.reading_label(x), **x}
                            for r, x in enumerate(readings)])
    options.to_csv(folder / "readings.csv", index=False)
    counts.to_csv(folder / "screen_counts.csv", index=False)
    table.to_csv(folder / "screen_scores.csv", index=False)
    status = {"written": utc_now(), "screen_runs": int(len(counts)),
              "screen_tasks": _tasks(counts), "screen_cpu_hours": _cpu_hours(counts)}
    if table["runs"].min() == 32:
        best = search.best_readings(table)
        status["best"] = best
        for phase, playouts in (("table2", 3 * budget), ("paper1", 1_000_000),
                                ("paper2", 3_000_000)):
            phase_counts = _best_counts(out, phase, readings, best, budget, playouts)
            phase_counts.to_csv(folder / f"{phase}_counts.csv", index=False)
            status[f"{phase}_runs"] = int(len(phase_counts))
            status[f"{phase}_cpu_hours"] = _cpu_hours(phase_counts)
            if phase in ("table2", "paper2") and len(phase_counts):
                _table2_verdicts(phase_counts, best).to_csv(folder / f"{phase}_claims.csv",
                                                            index=False)
                search.table2_scores(phase_counts, playouts, best).to_csv(
                    folder / f"{phase}_scores.csv", index=False)
            if phase == "paper1" and len(phase_counts):
                _paper_scores(phase_counts, readings, best).to_csv(
                    folder / "paper1_scores.csv", index=False)
            if phase in ("paper1", "paper2") and len(phase_counts):
                _write_hunt(out, phase, folder)
    write_json(folder / "status.json", status)
    write_sums(folder)  # a search record: mctslab records check reads its checksums
    return folder


def summary(folder=RECORD) -> str:
    """The search's table (:func:`search_table`) as Markdown under a line saying how far the
    run got (``status.json``), for ``docs/bench/sudoku.md``."""
    folder = Path(folder)
    status = json.loads((folder / "status.json").read_text())
    table = search_table(folder)
    done = int(table["distance"].notna().sum())
    head = (f"From `{folder.name}/` (written {status['written']}): {done} of {len(table)} "
            f"readings complete, {status['screen_tasks']} of 640 screening runs, "
            f"{status['screen_cpu_hours']} CPU hours.")
    text = head + "\n\n" + md_table(table)
    best = best_table(folder)
    if "phase" in best.columns:
        text += ("\n\nThe best readings further (`best_table`: each phase's cells within a "
                 "factor 2 and within the targets' margins, counting every board; the claims "
                 "of that table; CPU hours of its runs):\n\n" + md_table(best))
    return text


# the phases after the screening: (phase, its scores file, the table it scores, playouts per run)
LATER = (("table2", "table2_scores.csv", "Table 2", 3 * BUDGET),
         ("paper1", "paper1_scores.csv", "Table 1", 1_000_000),
         ("paper2", "paper2_scores.csv", "Table 2", 3_000_000))


def best_table(folder) -> pd.DataFrame:
    """The best readings' later phases from a record ``folder`` (their ``*_scores.csv``), one
    row per phase and reading: the table scored and its playouts per run, runs stored, both
    count modes' distances, cells within a factor 2 and within the targets' margins (counting
    every board), the verdicts of that table's claims and the CPU hours; the screening's row of
    each best reading first (Table 1 at the screening budget). Before the screening is
    complete, one row saying how far it got."""
    folder = Path(folder)
    status = json.loads((folder / "status.json").read_text())
    if "best" not in status:
        return pd.DataFrame({"status": [f"the screening is not complete: {status['screen_tasks']}"
                                        f" of 640 runs in this record; no best readings yet"]})
    readings = pd.read_csv(folder / "readings.csv").set_index("reading")["label"]
    frames = [("screen", pd.read_csv(folder / "screen_scores.csv"), "Table 1", BUDGET)]
    frames += [(phase, pd.read_csv(folder / name), table, playouts)
               for phase, name, table, playouts in LATER if (folder / name).is_file()]
    rows = []
    for phase, scored, table, playouts in frames:
        claims = search.TABLE1_CLAIMS if table == "Table 1" else search.TABLE2_CLAIMS
        for reading in status["best"]:
            mine = scored[scored["reading"] == reading].set_index("counts")
            if mine.empty:
                continue
            every, distinct = mine.loc["all"], mine.loc["distinct"]
            rows.append({"phase": phase, "table": table, "playouts/run": playouts,
                         "reading": reading, "label": readings[reading],
                         "runs": int(every["runs"]), "distance": round(every["distance"], 3),
                         "distance (distinct)": round(distinct["distance"], 3),
                         "near (x2)": int(every["near"]),
                         "within margin": int(every["within margin"]),
                         "claims": "; ".join(f"{c}: {every[c]}" for c in claims),
                         "CPU h": round(float(every["cpu_seconds"]) / 3600, 3)})
    return pd.DataFrame(rows)


def reference_distance(paper_record=PAPER_RECORD) -> float:
    """Today's reading's distance to Table 1 at 1,000,000 playouts (its paper-scale record)."""
    tenths = pd.read_csv(Path(paper_record) / "finds_per_tenth_counts.csv")
    return table1_distance(tenth_counts(tenths, 10), 1_000_000)["distance"]


def search_table(folder) -> pd.DataFrame:
    """The screening's scores from a record ``folder``: one row per reading, both count modes'
    distances, cells within a factor 2 and within the targets' margins (a record written before
    that column lacks it), the Table 1 claims (counting every board), runs and CPU hours, best
    distance first."""
    folder = Path(folder)
    scored = pd.read_csv(folder / "screen_scores.csv")
    wide = scored[scored["counts"] == "all"].set_index("reading")
    distinct = scored[scored["counts"] == "distinct"].set_index("reading")
    near = [c for c in ("near", "within margin") if c in wide.columns]
    table = wide[["label", "runs", "distance", *near, "min > mean", "reducing > random",
                  "rules help"]].copy()
    table.insert(3, "distance (distinct)", distinct["distance"])
    table["CPU h"] = (wide["cpu_seconds"] / 3600).round(3)
    table["distance"] = table["distance"].round(3)
    table["distance (distinct)"] = table["distance (distinct)"].round(3)
    best = table[["distance", "distance (distinct)"]].min(axis=1)
    return table.assign(best=best).sort_values("best", kind="stable").drop(columns="best") \
        .reset_index()


def tenth_counts(tenths: pd.DataFrame, parts: int) -> pd.DataFrame:
    """Per-seed Table 1 counts of the first ``parts`` tenths of the record's runs (a record's
    ``finds_per_tenth_counts.csv``): a run of fewer playouts is the start of the longer one."""
    first = tenths[tenths["tenth"] <= parts].rename(columns={"reading": "variant"})
    return first.groupby(["variant", "seed"])[["N=18", "N=19", "N=20"]].sum().reset_index()


def budget_check(out, paper_record, budgets=(25_000, 50_000)) -> pd.DataFrame:
    """The budget check: each budget's ranking against 1,000,000 (``ranking_kept``), its
    24-cell distance and CPU hours; budgets of whole tenths from ``paper_record``'s counts per
    tenth, the others from the stores ``budget_<B>`` under ``out`` (the default reading)."""
    tenths = pd.read_csv(Path(paper_record) / "finds_per_tenth_counts.csv")
    reference = tenth_counts(tenths, 10)
    rows = []
    for budget in budgets:
        tasks, keys = search.table1_tasks([search.DEFAULTS], budget)
        store = ResultStore(paths.results_dir(f"budget_{budget}", out))
        stored = {k: v["result"] for k, v in store.load().items()} if store.exists() else {}
        counts = search.run_counts(stored, tasks, keys)
        if len(counts) == 32:
            rows.append(_budget_row(budget, counts, reference, counts["cpu_seconds"].sum()))
    for parts in range(1, 11):
        rows.append(_budget_row(100_000 * parts, tenth_counts(tenths, parts), reference, None))
    return pd.DataFrame(rows)


def _budget_row(budget, counts, reference, cpu_seconds) -> dict:
    kept = ranking_kept(counts, reference)
    return {"budget": budget, "rho": round(kept["rho"], 3),
            "claims": "; ".join(kept["claims"]), "kept": kept["kept"],
            "distance": round(table1_distance(counts, budget)["distance"], 3),
            "cpu_hours": None if cpu_seconds is None else round(cpu_seconds / 3600, 3)}


def write_design(folder, budget=BUDGET, estimate: dict | None = None) -> Path:
    """``design.json``: the factors, the readings, the budget, the scoring and claims'
    criteria and the ranking rule, written before the screening runs."""
    readings = search.design()
    design = {"factors": {k: list(v) for k, v in search.FACTORS.items()},
              "count_modes": list(search.COUNTS), "readings": len(readings),
              "fraction": "2^(7-4) resolution III of the shared factors (the first three a full "
                          "factorial; then the sums mod 2 of (1, 2), (1, 3), (2, 3), (1, 2, 3), "
                          "in the order of 'factors'), each run crossed with the 4 combinations "
                          "of min_of x exhausted; reading 0 is today's",
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


# -- a best reading as a notebook record (``reading-<name>``) for the scorecard ----------------

# The docs' numbers of the choices (docs/papers/sudoku-less-clue.md, "The space of readings").
CHOICES = {"terminal": 1, "reducing_count": 2, "min_of": 3, "child_draws": 4, "exhausted": 5,
           "exploration_n": 6, "c": 7, "budget": 8, "value": 10}
# The notebook's runs that are not a reading's subject (a baseline and the runs beyond the
# paper, judged against nothing), kept small in a reading's record.
SIDE_RUNS = {"removal_runs": 1_000, "removal_tasks": 1, "beyond_playouts": 10_000,
             "beyond_seeds": 1}
NOTEBOOK = "sudoku_less_clue"


def reading_name(reading: dict) -> str:
    """``reading``'s name on the scorecard (its record is labelled ``reading-<name>``): its
    label in lower case, words joined by hyphens."""
    return re.sub(r"[^a-z0-9.]+", "-", search.reading_label(reading).lower()).strip("-")


def notebook_parameters(reading: dict) -> dict:
    """The notebook parameters (``mctslab reproduce -p``) that run ``reading`` at the paper's
    scale: its options that differ from today's (c with Table 2's c values 0.5 c and c), and
    :data:`SIDE_RUNS`."""
    params = {k: v for k, v in reading.items() if k != "c" and v != search.DEFAULTS[k]}
    if reading["c"] != search.DEFAULTS["c"]:
        params.update(c=float(reading["c"]), table2_c=[0.5 * reading["c"], float(reading["c"])])
    return {**params, **SIDE_RUNS}


def reading_row(reading: dict) -> dict:
    """``reading``'s row of ``mctslab/sudoku/readings.csv`` (the scorecard's readings)."""
    changed = [k for k, v in reading.items() if v != search.DEFAULTS[k]]
    choices = ", ".join(str(CHOICES[k]) for k in changed)
    return {"paper": NOTEBOOK, "reading": reading_name(reading),
            "changes": f"{search.reading_label(reading)}: Tables 1 and 2 run under it (the "
                       f"best readings of the search over readings, {RECORD.name})",
            "rests_on": f"docs/papers/sudoku-less-clue.md, The space of readings, choices "
                        f"{choices}: the sentences of the paper each quotes leave it open",
            "source": f"records/sudoku_less_clue/{RECORD.name}; docs/papers/sudoku-less-clue.md"}


def stage(out, index: int, dest) -> dict:
    """Copy the stored paper-scale runs of design reading ``index`` (phases ``paper1`` and
    ``paper2`` under ``out``) into the notebook's result stores under ``dest``, so that the
    notebook run at the paper's scale under the reading finds them stored (the same tasks).
    Returns the runs copied and missing, and the commands that run the notebook and record it."""
    reading = search.design()[index]
    copied, missing = 0, 0
    for phase, experiment, (tasks, _) in (
            ("paper1", "sudoku_table1", search.table1_tasks([reading], 1_000_000)),
            ("paper2", "sudoku_table2", search.table2_tasks([reading], 3_000_000))):
        source = ResultStore(paths.results_dir(EXPERIMENTS[phase], out)).load()
        target = ResultStore(paths.results_dir(experiment, dest))
        have = target.load() if target.exists() else {}
        for task in tasks:
            if task.id in source and task.id not in have:
                target.append(source[task.id])
                copied += 1
            missing += task.id not in source
    parameters = " ".join(f"-p {k} {shlex.quote(str(v))}"
                          for k, v in notebook_parameters(reading).items())
    return {"copied": copied, "missing": missing, "row": reading_row(reading), "commands": [
        f"mctslab reproduce {NOTEBOOK} --scale paper {parameters} --workers 1 --out {dest}",
        f"mctslab records save {NOTEBOOK} --out {dest} --label reading-{reading_name(reading)}"]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mctslab.sudoku.readings_run")
    parser.add_argument("action", choices=("run", "record", "design", "summary", "stage"))
    parser.add_argument("--out", help="result store root (data/results/ under it)")
    parser.add_argument("--record", help="record folder (record, design)")
    parser.add_argument("--phases", nargs="*", choices=PHASES, default=list(PHASES))
    parser.add_argument("--workers", type=int, default=1, help="processes (run)")
    parser.add_argument("--estimate", help="JSON of the cost estimate (design)")
    parser.add_argument("--reading", type=int, help="a design reading's index (stage)")
    parser.add_argument("--to", help="the notebook run's output folder (stage)")
    args = parser.parse_args(argv)
    if args.action in ("run", "record", "stage") and not args.out:
        parser.error(f"{args.action} needs --out (the result store)")
    if args.action == "run":
        run(args.out, args.phases, workers=args.workers)
    elif args.action == "record":
        print(record(args.out, args.record))
    elif args.action == "stage":
        if args.reading is None or not args.to:
            parser.error("stage needs --reading K and --to DIR")
        print(json.dumps(stage(args.out, args.reading, args.to), indent=1))
    elif args.action == "summary":
        print(summary(args.record or RECORD))
    else:
        print(write_design(args.record, estimate=json.loads(args.estimate or "{}")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
