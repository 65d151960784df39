"""Committed records of runs: ``records/<notebook>/<scale>[-<label>]-<date>/``.

A **notebook record** is what a reader needs to cite, check and re-judge one run of a notebook
without running it, small enough to commit (:data:`MAX_RECORD_BYTES`):

- every table the notebook wrote (CSV, ``paper_vs_run.csv`` among them) and its small text
  artefacts (up to :data:`MAX_FILE_BYTES` each), with the raw files a text artefact lists one
  per line (a notebook's ``games_index.txt``, say); figures are rebuilt from the tables and not
  kept;
- ``manifest.json`` as the run wrote it (commit, versions, CPU, seed, parameters, wall time,
  each artefact's sha256);
- ``record.json``: notebook, scale, label, date, commit, CPU seconds (the tasks' compute time)
  and wall seconds, the files kept and those left out (with why);
- ``SHA256SUMS`` over every file of the record.

:func:`save` writes one from an output folder of ``mctslab reproduce``; :func:`check` verifies
every record under ``records/`` (``mctslab records check``, part of ``make test``): the
checksums, each kept file against the manifest's sha256, record.json against the manifest, and
every row of ``paper_vs_run.csv`` judged again from its own fields
(:func:`mctslab.core.compare.rejudge`), so a hand-edited table fails; then judged with today's
targets, whose changes are reported, not failed. The scorecard from
the records alone (``mctslab scorecard --records``) is :mod:`mctslab.record_card`'s.

A **search record** is a folder with a ``design.json`` (a search over settings or readings, its
design stated before it ran), checked by its ``SHA256SUMS`` (:func:`mctslab.core.store.write_sums`,
which the search's own command writes). Nothing here writes into a record it checks.

Any other record folder is a domain's own kind, read through the domain's **record hook**: an
optional module ``mctslab/<domain>/record_hooks.py``, found by name for every domain of
``mctslab.DOMAINS`` (:func:`record_hooks`), with

- ``KIND: str``: the kind of record folder it reads (the :class:`Report`'s ``kind``);
- ``check_folder(folder: Path, report: Report) -> bool``: check a folder that is neither a
  notebook nor a search record, appending to ``report.problems`` (failures, each naming its
  file) and ``report.notes``; False, with nothing appended, when the folder is not its kind;
- ``summary_table(folder: Path) -> (DataFrame, str) | None``: the folder's table for
  :func:`markdown_table` (``mctslab records table``) and how its citing line describes it;
  None when the folder is not its kind;
- ``TABLES: dict[str, (build(folder: Path) -> DataFrame, str)]``: further tables a
  ``docs/bench`` block may name on such a folder (:mod:`mctslab.bench_docs`), each with how its
  citing line describes it; ``build`` raises ``KeyError`` (why) for a folder it does not read;
- ``pack(folder: Path) -> str | None``: pack a finished folder of its kind to commit it
  (``mctslab records pack``), returning the line to print; None when it is not its kind.

Each is optional; the checksums of such a folder, when it has ``SHA256SUMS``, are checked here.
"""

from __future__ import annotations

import datetime
import importlib
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from mctslab import DOMAINS, paths
from mctslab.core import compare
from mctslab.core import targets as targets_module
from mctslab.core.display import shown
from mctslab.core.scorecard import md_table
from mctslab.core.store import (
    SUMS,
    same_number,
    sha256,
    utc_now,
    write_json,
    write_sums,
    write_tar_gz,
)

__all__ = ["MAX_FILE_BYTES", "MAX_RECORD_BYTES", "RECORD", "SUMS", "save",
           "Report", "check", "check_record", "find_records", "markdown_table",
           "notebook_records", "is_reading", "READING_PREFIX",
           "recorded_table", "record_hooks", "hooked_tables", "pack"]

MAX_FILE_BYTES = 2_000_000    # a text artefact larger than this is left out (record.json says so)
MAX_RECORD_BYTES = 5_000_000  # a record larger than this is refused ("a few MB per notebook")
MAX_RAW_BYTES = 3_000_000     # raw files a text artefact lists: kept up to this,
                              # as they are or as one .tar.gz, else left out (record.json says)
RECORD = "record.json"
SEARCH = "design.json"        # a search record's design (stated before the search ran)
READING_PREFIX = "reading-"   # the label of a record run under one of the paper's readings
PAPER_VS_RUN = "paper_vs_run.csv"
HOOKS = "record_hooks"         # a domain's record hook: mctslab.<domain>.record_hooks


def record_hooks(domains=None) -> list:
    """The record hook modules (``mctslab.<domain>.record_hooks``, see the module docstring) of
    ``domains`` (default ``mctslab.DOMAINS``) that have one, in that order."""
    found = []
    for domain in DOMAINS if domains is None else domains:
        name = f"mctslab.{domain}.{HOOKS}"
        try:
            found.append(importlib.import_module(name))
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
    return found


def hooked_tables() -> dict[str, tuple[Callable, str]]:
    """Every hook's ``TABLES``: table name -> (build(folder), how the citing line says it)."""
    tables = {}
    for hook in record_hooks():
        tables.update(getattr(hook, "TABLES", {}))
    return tables


def pack(folder) -> str:
    """Pack a finished record folder of a domain's kind to commit it (the hook whose ``pack``
    reads it); a ``FileNotFoundError`` when no hook does."""
    for hook in record_hooks():
        if hasattr(hook, "pack"):
            said = hook.pack(Path(folder))
            if said is not None:
                return said
    raise FileNotFoundError(f"{folder}: no domain's record hook packs this folder (a finished "
                            "folder of a kind a domain's record hook reads)")


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def save(notebook: str, out=None, *, root=None, label: str = "", date: str | None = None) -> Path:
    """Write the record of ``notebook``'s run in the output folder ``out`` (as ``mctslab
    reproduce --out`` left it; ``None``: the project root) to ``<root>/<notebook>/<scale>[-<label>]-<date>/`` and return
    that folder. ``date``: the run's (its manifest's end), else today.

    ``FileNotFoundError`` when the run's manifest or ``paper_vs_run.csv`` is missing,
    ``FileExistsError`` when the record exists, ``ValueError`` when the run did not complete
    or the record would exceed :data:`MAX_RECORD_BYTES` (nothing is left behind then).
    """
    figures, manifest = _finished_run(notebook, out)
    scale = manifest.get("scale") or "unknown"
    date = date or str(manifest.get("finished") or "")[:10] or datetime.date.today().isoformat()
    name = "-".join(part for part in (scale, label, date) if part)
    folder = paths.records_root(root) / notebook / name
    if folder.exists():
        raise FileExistsError(f"{folder} exists: give another --label, or remove it first")
    kept, skipped = _kept_artefacts(figures, manifest)
    raw = _listed_files(figures, [p for p in kept if p.suffix != ".csv"])
    folder.mkdir(parents=True)
    try:
        shutil.copyfile(figures / "manifest.json", folder / "manifest.json")
        for source in kept:
            shutil.copyfile(source, folder / source.name)
        raw_kept = _keep_raw(figures, raw, folder, skipped)
        git = manifest.get("git") or {}
        experiments = manifest.get("experiments") or {}
        write_json(folder / RECORD, {
            "notebook": notebook, "scale": scale, "label": label, "date": date,
            "commit": git.get("commit"), "dirty": git.get("dirty"),
            "mctslab_version": manifest.get("mctslab_version"), "seed": manifest.get("seed"),
            "cpu_seconds": round(sum(float(e.get("task_seconds") or 0.0)
                                     for e in experiments.values()), 3),
            "wall_seconds": manifest.get("wall_seconds"),
            "cpu_model": (manifest.get("platform") or {}).get("cpu_model"),
            "files": sorted(p.name for p in kept), "raw": raw_kept, "skipped": skipped,
            "saved": utc_now(), "source": str(paths.output_root(out))})
        write_sums(folder)
        size = sum(p.stat().st_size for p in _files(folder))
        if size > MAX_RECORD_BYTES:
            raise ValueError(f"the record of {notebook} would take {size:,} bytes, over "
                             f"{MAX_RECORD_BYTES:,}: too large to commit")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return folder


def _finished_run(notebook: str, out) -> tuple[Path, dict]:
    """The figures folder of ``notebook``'s run in ``out`` and its manifest, refused (see
    :func:`save`) unless the run completed and wrote its ``paper_vs_run`` table."""
    if notebook not in targets_module.DOMAINS:
        raise KeyError(f"unknown notebook {notebook!r}; known: "
                       f"{', '.join(targets_module.DOMAINS)}")
    figures = paths.figures_dir(notebook, out)
    manifest_path = figures / "manifest.json"
    if not manifest_path.is_file():
        raise FileNotFoundError(f"no {manifest_path}: run `mctslab reproduce {notebook}"
                                + (f" --out {out}` first" if out is not None else "` first"))
    manifest = json.loads(manifest_path.read_text())
    if manifest.get("status") != "complete":
        raise ValueError(f"{manifest_path}: status {manifest.get('status')!r}, not complete: "
                         "only a finished run is recorded")
    if not (figures / PAPER_VS_RUN).is_file():
        raise FileNotFoundError(f"no {figures / PAPER_VS_RUN}: the run has no paper_vs_run table")
    return figures, manifest


def _kept_artefacts(figures: Path, manifest: dict) -> tuple[list[Path], list[dict]]:
    """The manifest's tables and text artefacts the record keeps (figures are rebuilt from the
    tables), and those it leaves out, each with why."""
    kept, skipped = [], []
    for artefact in (manifest.get("artefacts") or {}).values():
        if artefact.get("kind") == "figure":
            continue
        for file in artefact.get("files", []):
            source = figures / file
            if not source.is_file():
                skipped.append({"file": file, "why": "missing in the output folder"})
            elif artefact.get("kind") != "table" and source.stat().st_size > MAX_FILE_BYTES:
                skipped.append({"file": file, "why": f"{source.stat().st_size:,} bytes, over "
                                                   f"{MAX_FILE_BYTES:,}"})
            else:
                kept.append(source)
    return kept, skipped


def _listed_files(figures: Path, texts: list[Path]) -> list[Path]:
    """The files under ``figures`` that the text artefacts name, one per line (an index of a
    notebook's game records, say: ``games/<name>``)."""
    found = []
    base = figures.resolve()
    for text in texts:
        for line in text.read_text(encoding="utf-8", errors="replace").splitlines():
            name = line.strip()
            if not name or name.startswith("/") or ".." in Path(name).parts:
                continue
            path = (figures / name)
            if path.is_file() and path.resolve().is_relative_to(base):
                found.append(path)
    return sorted(set(found))


def _keep_raw(figures: Path, raw: list[Path], folder: Path, skipped: list) -> list[str]:
    """Copy the raw files into the record (their paths kept) when they fit in
    :data:`MAX_RAW_BYTES`, else as one ``.tar.gz`` when that fits, else leave them out (said
    in ``skipped``). Returns what the record holds of them."""
    if not raw:
        return []
    size = sum(p.stat().st_size for p in raw)
    names = [p.relative_to(figures).as_posix() for p in raw]
    if size <= MAX_RAW_BYTES:
        for path, name in zip(raw, names):
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, folder / name)
        return names
    archive = folder / "raw.tar.gz"
    write_tar_gz(archive, {name: path.read_bytes() for path, name in zip(raw, names)})
    if archive.stat().st_size <= MAX_RAW_BYTES:
        return [archive.name]
    archive.unlink()
    skipped.append({"file": f"{len(raw)} files listed by text artefacts ({names[0]} ...)",
                    "why": f"{size:,} bytes, over {MAX_RAW_BYTES:,} even compressed"})
    return []


@dataclass
class Report:
    """What :func:`check_record` found in one record folder."""

    folder: Path
    kind: str                        # notebook | search | a record hook's KIND | unknown
    problems: list[str] = field(default_factory=list)  # each names its file: the check fails
    notes: list[str] = field(default_factory=list)     # what is worth knowing, not a failure
    verdicts: dict = field(default_factory=dict)       # today's verdict -> targets

    @property
    def ok(self) -> bool:
        return not self.problems


def find_records(root=None) -> list[Path]:
    """Every record folder: ``<root>/<notebook>/<name>/``, in name order."""
    base = paths.records_root(root)
    if not base.is_dir():
        return []
    return sorted(p for notebook in sorted(base.iterdir()) if notebook.is_dir()
                  for p in sorted(notebook.iterdir()) if p.is_dir())


def _check_sums(folder: Path, report: Report) -> None:
    sums = folder / SUMS
    listed = {}
    for number, line in enumerate(sums.read_text(encoding="utf-8").splitlines(), 1):
        digest, _, name = line.partition("  ")
        if not name:
            report.problems.append(f"{sums}: line {number} is not '<sha256>  <file>'")
            continue
        listed[name] = digest
    present = {p.relative_to(folder).as_posix() for p in _files(folder)} - {SUMS}
    for name in sorted(present - set(listed)):
        report.problems.append(f"{folder / name}: not listed in {sums}")
    for name, digest in sorted(listed.items()):
        path = folder / name
        if not path.is_file():
            report.problems.append(f"{path}: listed in {sums} but missing")
        elif sha256(path) != digest:
            report.problems.append(f"{path}: its sha256 differs from {sums}")


def _check_table(path: Path, report: Report, today) -> None:
    try:
        rows = compare.read_table(path)
    except (ValueError, KeyError) as exc:
        report.problems.append(f"{path}: {exc}")
        return
    for number, record in enumerate(rows, 2):  # line 1 is the header
        where = (f"{path}: line {number} ({record['artefact']} / {record['row']} / "
                 f"{record['column']})")
        try:
            own = compare.rejudge(record)
        except (ValueError, KeyError) as exc:
            report.problems.append(f"{where}: cannot be judged again: {exc}")
            continue
        if (own.verdict != record["verdict"] or own.settle_n != record["settle_n"]
                or not same_number(own.settle_cpu_h, record["settle_cpu_h"])):
            report.problems.append(f"{where}: its verdict {record['verdict']!r} (settle "
                                   f"{record['settle_n']}) does not follow from its own values "
                                   f"(judged again: {own.verdict!r}, settle {own.settle_n})")
            continue
        key = (record["paper"], record["artefact"], record["row"], record["column"])
        target = today.get(key)
        if target is None:
            report.problems.append(f"{where}: no such target in today's targets files")
            continue
        now = compare.rejudge(record, target)
        report.verdicts.setdefault(now.verdict, []).append(key)
        if now.verdict != record["verdict"]:
            report.notes.append(f"{where}: {record['verdict']} when recorded, {now.verdict} "
                                f"with today's targets")


def _today_targets() -> dict:
    found = {}
    for record in targets_module.all_targets().to_dict("records"):
        record["min_n"] = None if pd.isna(record["min_n"]) else int(record["min_n"])
        found[(record["paper"], record["artefact"], record["row"], record["column"])] = record
    return found


def _check_notebook(folder: Path, report: Report, today) -> None:
    for name in (RECORD, "manifest.json", PAPER_VS_RUN, SUMS):
        if not (folder / name).is_file():
            report.problems.append(f"{folder / name}: missing")
    if report.problems:
        return
    _check_sums(folder, report)
    try:
        record = json.loads((folder / RECORD).read_text())
        manifest = json.loads((folder / "manifest.json").read_text())
    except json.JSONDecodeError as exc:
        report.problems.append(f"{folder}: {exc}")
        return
    _check_record_json(folder, record, manifest, report)
    _check_kept(folder, record, manifest, report)
    size = sum(p.stat().st_size for p in _files(folder))
    if size > MAX_RECORD_BYTES:
        report.problems.append(f"{folder}: {size:,} bytes, over {MAX_RECORD_BYTES:,}")
    _check_table(folder / PAPER_VS_RUN, report, today)


def _check_record_json(folder: Path, record: dict, manifest: dict, report: Report) -> None:
    """record.json names its folder's notebook and the manifest's notebook, scale, commit
    and seed."""
    if record.get("notebook") != folder.parent.name:
        report.problems.append(f"{folder / RECORD}: notebook {record.get('notebook')!r} in the "
                               f"folder of {folder.parent.name}")
    for key, value in (("notebook", manifest.get("notebook")), ("scale", manifest.get("scale")),
                       ("commit", (manifest.get("git") or {}).get("commit")),
                       ("seed", manifest.get("seed"))):
        if record.get(key) != value:
            report.problems.append(f"{folder / RECORD}: {key} {record.get(key)!r}, the "
                                   f"manifest's {value!r}")


def _check_kept(folder: Path, record: dict, manifest: dict, report: Report) -> None:
    """Every table and text artefact of the manifest is kept (present, with the manifest's
    sha256) or said to be left out."""
    kept = set(record.get("files") or [])
    left_out = {s.get("file") for s in record.get("skipped") or []}
    for artefact in (manifest.get("artefacts") or {}).values():
        if artefact.get("kind") == "figure":
            continue
        for file in artefact.get("files", []):
            path = folder / file
            if file not in kept:
                if file not in left_out:
                    report.problems.append(f"{folder / RECORD}: the manifest's {file} is "
                                           "neither kept nor said to be left out")
                continue
            expected = (artefact.get("sha256") or {}).get(file)
            if not path.is_file():
                report.problems.append(f"{path}: missing (record.json keeps it)")
            elif expected and sha256(path) != expected:
                report.problems.append(f"{path}: its sha256 differs from the manifest's")


def _check_hooked(folder: Path, report: Report) -> None:
    """A folder neither a notebook nor a search record: the first record hook that reads it
    checks it (its kind the hook's); with none, the folder is of no known kind."""
    for hook in record_hooks():
        if hasattr(hook, "check_folder") and hook.check_folder(folder, report):
            report.kind = getattr(hook, "KIND", report.kind)
            break
    else:
        report.kind = "unknown"
        report.problems.append(f"{folder}: neither a notebook record ({RECORD}), a search "
                               f"record ({SEARCH}) nor a kind a domain's record hook reads")
    if (folder / SUMS).is_file():
        _check_sums(folder, report)


def check_record(folder, today: dict | None = None) -> Report:
    """Check one record folder (see the module docstring); ``today``: the targets by key."""
    folder = Path(folder)
    today = _today_targets() if today is None else today
    if (folder / RECORD).is_file() or (folder / PAPER_VS_RUN).is_file():
        report = Report(folder, "notebook")
        _check_notebook(folder, report, today)
    elif (folder / SEARCH).is_file():
        report = Report(folder, "search")
        if not (folder / SUMS).is_file():
            report.problems.append(f"{folder / SUMS}: missing (a search record is checked by "
                                   "its checksums)")
        else:
            _check_sums(folder, report)
    else:
        report = Report(folder, "other")
        _check_hooked(folder, report)
    return report


def check(root=None) -> list[Report]:
    """:func:`check_record` of every record under ``root`` (default ``records/``)."""
    today = _today_targets()
    return [check_record(folder, today) for folder in find_records(root)]


def _shown(path: Path, relative_to) -> str:
    if relative_to is not None:
        try:
            return path.resolve().relative_to(Path(relative_to).resolve()).as_posix()
        except ValueError:
            pass
    return path.as_posix()


def markdown_table(record, stem: str = "paper_vs_run", *, columns=(), relative_to=None) -> str:
    """One CSV of a notebook record as a Markdown table, under a line citing it (path, scale,
    date, commit): for ``docs/bench/*.md``, so a number there comes from a record
    (:mod:`mctslab.bench_docs` keeps them generated). ``columns`` picks and orders columns;
    the path is shown relative to ``relative_to`` when given. For a folder of a domain's own
    kind, the summary table of its record hook."""
    folder = Path(record)
    if not (folder / RECORD).is_file():
        for hook in record_hooks():
            found = hook.summary_table(folder) if hasattr(hook, "summary_table") else None
            if found is not None:
                frame, how = found
                return (f"From `{_shown(folder, relative_to)}` ({how}):\n\n"
                        + md_table(select_columns(frame, columns, folder)))
        raise FileNotFoundError(f"{folder}: no {RECORD}, and no domain's record hook reads it")
    path = folder / f"{stem}.csv"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such table in the record")
    record_info = json.loads((folder / RECORD).read_text())
    frame = pd.read_csv(path, keep_default_na=False, na_values=[""])
    cite = (f"From `{_shown(path, relative_to)}` (scale {record_info.get('scale')}, run "
            f"{record_info.get('date')}, commit {str(record_info.get('commit') or '')[:7]}):")
    return cite + "\n\n" + md_table(select_columns(frame, columns, path))


def notebook_records(notebook: str, scale: str, root=None) -> list[tuple[Path, dict]]:
    """The notebook records of ``notebook`` at ``scale``, newest first, each with its
    ``record.json``."""
    found = []
    for folder in find_records(root):
        if folder.parent.name != notebook or not (folder / RECORD).is_file():
            continue
        record = json.loads((folder / RECORD).read_text())
        if record.get("scale") == scale:
            found.append((folder, record))
    return sorted(found, key=lambda item: (item[1].get("date") or "", item[0].name),
                  reverse=True)


def is_reading(record: dict) -> bool:
    """Whether a ``record.json`` is of a run under one of the paper's readings (its label
    ``reading-<name>``) rather than of our protocol."""
    return str(record.get("label") or "").startswith(READING_PREFIX)


def select_columns(frame: pd.DataFrame, columns, where) -> pd.DataFrame:
    """``frame``'s ``columns`` in that order (all when none are named); a missing one is a
    KeyError naming ``where`` and the columns it has."""
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise KeyError(f"{where}: no column {', '.join(missing)} (it has "
                       f"{', '.join(map(str, frame.columns))})")
    return frame[list(columns)] if columns else frame


def recorded_table(notebook: str, stem: str, scale: str = "paper", root=None,
                   label: str | None = None):
    """Table ``stem`` of the newest committed record of ``notebook`` at ``scale``, to show beside
    a smaller run's (a notebook cell ending in it displays it, captioned with the record's path,
    date, commit and label). Without such a record, a one-row table says so and how to make
    one. ``label`` picks the records of one label (a ``9x9`` record beside a 19x19 one, say)."""
    folder = next((f for f, info in notebook_records(notebook, scale, root)
                   if not is_reading(info) and (f / f"{stem}.csv").is_file()
                   and (label is None or info.get("label") == label)), None)
    if folder is None or not (folder / f"{stem}.csv").is_file():
        where = f"records/{notebook}/" if folder is None else folder.as_posix()
        return shown(pd.DataFrame({"record": [f"no {scale}-scale record with {stem}.csv in "
                                              f"{where}"],
                                   "to make one": [f"mctslab reproduce {notebook} --scale "
                                                   f"{scale}, then mctslab records save "
                                                   f"{notebook}"]}),
                     f"{stem}.csv at {scale} scale: not recorded yet")
    info = json.loads((folder / RECORD).read_text())
    frame = pd.read_csv(folder / f"{stem}.csv")
    label = f", {info['label']}" if info.get("label") else ""
    caption = (f"{stem}.csv of the committed record records/{notebook}/{folder.name} (scale "
               f"{info.get('scale')}{label}; run {info.get('date')}, commit "
               f"{str(info.get('commit') or '')[:7]}), not of this run")
    return shown(frame, caption)
