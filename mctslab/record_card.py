"""The scorecard of the committed records (``mctslab scorecard --records``): no computation.

Which records a paper's card is built from, at one scale (``paper`` by default):

- **ours**: every notebook record of the scale whose label does not start ``reading-``
  (``records/<notebook>/<scale>[-<label>]-<date>/``), newest first. A target compared in
  several keeps the newest row that judges it (not ``not run at this scale``), so a record
  of one part of a protocol (Go's 19x19 games beside its 9x9 record) enters beside the rest;
- the domain's own reading of its record (``mctslab.<domain>.claims.record_rows(read)``): rows judged from the record's own tables by today's code,
  the paper's headline claims among them, which replace or add to the record's
  ``paper_vs_run`` rows; a row there may name a reading of the paper
  (:func:`mctslab.core.targets.readings`) instead of ours;
- **readings**: every record labelled ``reading-<name>``, whose ``paper_vs_run`` rows are
  the paper's numbers judged under that reading (the name is one of the paper's readings).

The card itself (ledgers, verdicts, the page) is :mod:`mctslab.core.scorecard`'s.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pandas as pd

from mctslab import DOMAINS, paths
from mctslab.core import compare, scorecard_page
from mctslab.core import targets as targets_module
from mctslab.core.compare import NOT_RUN
from mctslab.core.scorecard import READING_COLUMNS, informative
from mctslab.records import (
    PAPER_VS_RUN,
    READING_PREFIX,
    is_reading,
    notebook_records,
)

__all__ = ["record_rows", "scorecard"]

# each domain's claims module (the domain contract's claims.py): its record_rows(read)
_CLAIMS = {domain: importlib.import_module(f"mctslab.{domain}.claims") for domain in DOMAINS}


def _blank(value) -> bool:
    return value is None or (isinstance(value, float) and value != value)


def _reader(folder: Path):
    def read(stem: str) -> pd.DataFrame | None:
        path = folder / f"{stem}.csv"
        return pd.read_csv(path) if path.is_file() else None
    return read


def record_rows(notebook: str, folder: Path) -> tuple[list[dict], list[dict]]:
    """A record's rows (ours) and its rows under readings (each with ``reading``): its
    ``paper_vs_run.csv`` with the domain's rows from the record's tables in place of or beside
    them (see the module docstring)."""
    ours = {(r["artefact"], r["row"], r["column"]): r
            for r in compare.read_table(folder / PAPER_VS_RUN)}
    readings = []
    hook = _CLAIMS[targets_module.DOMAINS[notebook]].record_rows
    for reading, row in hook(_reader(folder)):
        record = row if isinstance(row, dict) else compare.paper_table([row]).iloc[0].to_dict()
        record = {k: (None if _blank(v) else v) for k, v in record.items()}
        if reading:
            readings.append(dict(record, reading=reading))
        else:
            ours[(record["artefact"], record["row"], record["column"])] = record
    return list(ours.values()), readings


def _check_reading(notebook: str, name: str, where) -> None:
    known = set(targets_module.readings(notebook).reading)
    if name not in known:
        raise ValueError(f"{where}: reading {name!r} is not one of {notebook}'s readings "
                         f"({', '.join(sorted(known)) or 'none'}): add it to "
                         f"{targets_module.readings_path(notebook)}")


def _paper_rows(base: Path, notebook: str, scale: str):
    """Ours (rows, the newest record's manifest, the records used) and the reading rows."""
    ours, readings, used, manifest = {}, [], [], None
    for folder, record in notebook_records(notebook, scale, base):
        rows, read = record_rows(notebook, folder)
        where = folder.relative_to(base).as_posix()
        for row in read:
            _check_reading(notebook, row["reading"], where)
        readings += [dict(r, record=where) for r in read]
        if is_reading(record):
            name = record["label"][len(READING_PREFIX):]
            _check_reading(notebook, name, where)
            readings += [dict(r, reading=name, record=where) for r in rows]
            continue
        used.append(where)
        if manifest is None:
            manifest = json.loads((folder / "manifest.json").read_text())
        for row in rows:
            key = (row["artefact"], row["row"], row["column"])
            judged = compare.rejudge(row).verdict != NOT_RUN
            if key not in ours or (judged and ours[key][1] is False):
                ours[key] = (row, judged)
    return [row for row, _ in ours.values()], manifest or {}, used, readings


def _judged_readings(rows: list[dict]) -> list[dict]:
    """Reading rows of outcomes judged with today's targets (the card's readings section): a
    reproduction whose criterion cannot fail is ``uninformative`` under a reading too (a floor
    by the reading's own row of the next harder cell)."""
    found, judged = {}, {}
    for row in rows:
        key = (row["paper"], row["artefact"], row["row"], row["column"])
        try:
            target = targets_module.target(*key)
        except KeyError:
            continue
        if target["kind"] == "config":
            continue  # a reading departs from the protocol by definition; its constants aside
        verdict = compare.rejudge(row, target)
        found.setdefault(row["reading"], []).append((key, row, target, verdict))
    for reading, entries in found.items():
        resolved = informative(
            {key: (dict(target, paper=key[0]), verdict.verdict)
             for key, _, target, verdict in entries})
        for key, row, target, verdict in entries:
            final, reason = resolved[key]
            judged.setdefault(reading, []).append(
                {**{k: row.get(k) for k in READING_COLUMNS}, "paper_value": target["value"],
                 "verdict": final, "why": f"{reason}; {verdict.why}" if reason else verdict.why})
    return [row for entries in judged.values() for row in entries]


def scorecard(root=None, scale: str = "paper", bench_folder=None):
    """The scorecard from the records alone, written as ``<root>/scorecard-<scale>.csv``,
    ``.md`` and ``.html`` (:func:`mctslab.core.scorecard_page.render`)."""
    base = paths.records_root(root)
    tables, sources, readings = {}, {}, {}
    for notebook in targets_module.DOMAINS:
        rows, manifest, used, read = _paper_rows(base, notebook, scale)
        tables[notebook] = (rows if used else None, manifest)
        sources[notebook] = ", ".join(used)
        readings[notebook] = _judged_readings(read)
    recorded = [n for n, s in sources.items() if s]
    intro = (f"Every number of the five papers' targets files, one row each, beside the "
             f"committed records at scale `{scale}` of each notebook (`records/<notebook>/...`, "
             f"`paper_vs_run.csv`, and the paper's claims judged from the records' own tables), "
             f"judged again with today's targets and verdict code: no new run. Notebooks with "
             f"a record: {', '.join(recorded) or 'none'}. Regenerate with `mctslab scorecard "
             f"--records --scale {scale}`; check the records with `mctslab records check`.")
    return scorecard_page.render(
        tables, base, intro=intro, bench_folder=bench_folder, stem=f"scorecard-{scale}",
        title=f"Scorecard of the committed records ({scale} scale)", sources=sources,
        readings=readings)
