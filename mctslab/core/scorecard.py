"""The scorecard: every number of the five papers beside this output folder's (issue 23, 27).

``mctslab scorecard`` (and the last step of ``mctslab reproduce``) joins the papers' targets
(:mod:`mctslab.core.targets`) with the notebooks' ``figures/<notebook>/paper_vs_run.csv``
(:mod:`mctslab.core.compare`) and writes ``figures/scorecard.csv``, ``.md`` and ``.html``;
``mctslab scorecard --records`` does the same from the committed records
(:mod:`mctslab.records`), with no computation:

- at the top, the counts per paper and per verdict, **one per target** (a target is one row:
  a notebook pools the repetitions of one number), and each notebook's run (scale, status,
  version, commit, finished): a smoke or default run is labelled as such;
- every target as one row: the notebook's comparison judged again with today's targets file
  (:func:`mctslab.core.compare.rejudge`: the value judged is the value shown, and a margin or
  a transcription corrected since the run applies), else ``not compared`` or ``derived`` (the
  target's kind; its criterion says why or from what) or ``not run at this scale`` (the
  notebook's table has no row for it, or the notebook did not run into this folder);
- each ``differs`` row links its explanation in ``docs/bench/`` (the link of its note, else
  the paper's record);
- a last section: the recorded longer runs of ``docs/bench/*.md`` (:func:`bench_runs`),
  each heading with its date and commit.

A comparison matches a target when paper, artefact, row and column are equal; a row of a
table that matches no target is left out of the card (:func:`unmatched` lists them;
``mctslab records check`` reports them).
"""

from __future__ import annotations

import html
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from mctslab import paths
from mctslab.core import compare
from mctslab.core import targets as targets_module
from mctslab.core.compare import COLUMNS as COMPARE_COLUMNS
from mctslab.core.compare import DERIVED, DIFFERS, NOT_COMPARED, NOT_RUN, VERDICTS

__all__ = ["NOT_COMPARED", "VERDICT_ORDER", "COLUMNS", "BenchRun", "read_tables", "build",
           "unmatched", "counts", "bench_runs", "write", "render", "Scorecard"]

VERDICT_ORDER = VERDICTS
COLUMNS = (*COMPARE_COLUMNS, "unit", "criterion", "source", "explanation")
TABLE = "paper_vs_run.csv"
_BENCH_LINK = re.compile(r"docs/bench/[\w.-]+\.md(?:#[\w.-]+)?")


def read_tables(out=None) -> dict[str, tuple[list[dict] | None, dict]]:
    """Per notebook: its ``paper_vs_run`` rows in the output folder
    (:func:`mctslab.core.compare.read_table`; ``None`` when absent) and its manifest (``{}``
    when absent)."""
    found = {}
    for paper in targets_module.DOMAINS:
        folder = paths.figures_dir(paper, out)
        table = folder / TABLE
        manifest = folder / "manifest.json"
        found[paper] = (compare.read_table(table) if table.exists() else None,
                        json.loads(manifest.read_text()) if manifest.exists() else {})
    return found


def _blank(value) -> bool:
    if value is None or isinstance(value, str):
        return value is None
    return bool(pd.api.types.is_scalar(value) and pd.isna(value))


def _explanation(paper: str, verdict: str, note: str, kind: str = "", source: str = "") -> str:
    """Where a ``differs`` row is explained: the ``docs/bench`` link of its note; for a
    departure of our configuration (``config``) or a check of the paper's own arithmetic
    (``exact``), the paper's brief (its criterion says why, the brief's deviations section
    more); else the paper's record in ``docs/bench``."""
    if verdict != DIFFERS:
        return ""
    link = _BENCH_LINK.search(note or "")
    if link:
        return link.group(0)
    if kind in ("config", "exact") and source:
        return source.split(" ")[0]
    return f"docs/bench/{targets_module.DOMAINS.get(paper, paper)}.md"


def _key(record) -> tuple:
    return (record["paper"], record["artefact"], str(record["row"]), record["column"])


def _rows_of(frame) -> list[dict]:
    if frame is None:
        return []
    return frame.to_dict("records") if isinstance(frame, pd.DataFrame) else list(frame)


def build(tables: dict[str, tuple[list[dict] | pd.DataFrame | None, dict]],
          targets: pd.DataFrame | None = None) -> pd.DataFrame:
    """The scorecard rows (:data:`COLUMNS`): one per target, joined with the comparisons.

    ``tables`` maps a notebook to its ``paper_vs_run`` rows (or ``None``) and manifest, as
    :func:`read_tables` returns; ``targets`` defaults to every targets file. A compared row
    is judged again with its target (:func:`mctslab.core.compare.rejudge`).
    """
    targets = targets_module.all_targets() if targets is None else targets
    rows = []
    for paper in dict.fromkeys([*targets.paper, *tables]):
        frame, manifest = tables.get(paper, (None, {}))
        scale = str(manifest.get("scale") or "")
        compared = {_key(c): c for c in _rows_of(frame)}
        for target in targets[targets.paper == paper].to_dict("records"):
            target["min_n"] = None if pd.isna(target["min_n"]) else int(target["min_n"])
            extra = {k: target[k] for k in ("unit", "criterion", "source")}
            hit = compared.get(_key(dict(target, paper=paper)))
            if hit is not None:
                record = {k: hit.get(k) for k in COMPARE_COLUMNS}
                judged = compare.rejudge(record, target)
                record.update(kind=target["kind"], paper_value=target["value"],
                              margin=target["margin"], min_n=target["min_n"],
                              verdict=judged.verdict, why=judged.why,
                              settle_n=judged.settle_n, settle_cpu_h=judged.settle_cpu_h)
                rows.append({**record, **extra})
                continue
            criterion = target["criterion"]
            if target["kind"] == "uncompared":
                verdict = NOT_COMPARED
                why = criterion[len(targets_module.NOT_COMPARED_PREFIX):]
            elif target["kind"] == "derived":
                verdict, why = DERIVED, criterion
            elif frame is None:
                verdict, why = NOT_RUN, "the notebook did not run into this output folder"
            else:
                verdict, why = NOT_RUN, "this run's paper_vs_run has no row for it (not measured)"
            rows.append(dict(paper=paper, artefact=target["artefact"], row=target["row"],
                             column=target["column"], kind=target["kind"],
                             paper_value=target["value"], our_value=None, low=None, high=None,
                             n=None, min_n=target["min_n"], margin=target["margin"],
                             scale=scale, departure="", unit_cpu_s=None, verdict=verdict,
                             why=why, settle_n=None, settle_cpu_h=None, note="", **extra))
    for row in rows:
        for key in ("note", "why", "departure", "margin"):
            row[key] = "" if _blank(row.get(key)) else str(row[key])
        row["explanation"] = _explanation(row["paper"], row["verdict"], row["note"],
                                          row.get("kind") or "", row.get("source") or "")
    card = pd.DataFrame.from_records(rows, columns=list(COLUMNS))
    for key in ("n", "min_n", "settle_n"):
        card[key] = card[key].astype("Int64")
    return card


def unmatched(tables, targets: pd.DataFrame | None = None) -> list[dict]:
    """The compared rows of ``tables`` that match no target (left out of :func:`build`)."""
    targets = targets_module.all_targets() if targets is None else targets
    known = {(r["paper"], r["artefact"], str(r["row"]), r["column"])
             for r in targets.to_dict("records")}
    return [c for frame, _ in tables.values() for c in _rows_of(frame) if _key(c) not in known]


def counts(card: pd.DataFrame) -> pd.DataFrame:
    """Targets per paper and verdict (columns in :data:`VERDICT_ORDER`, then ``total``), with a
    ``total`` row; :func:`build` gives one row per target, so these count targets."""
    table = pd.crosstab(card.paper, card.verdict).reindex(columns=list(VERDICT_ORDER),
                                                           fill_value=0)
    table = table.reindex(list(dict.fromkeys(card.paper)))
    table["total"] = table.sum(axis=1)
    table.loc["total"] = table.sum(axis=0)
    table.index.name = "paper"
    table.columns.name = None
    return table.astype(int)


@dataclass(frozen=True)
class BenchRun:
    """One section of ``docs/bench/<file>.md`` recording a run: its heading, date, commit."""

    file: str
    heading: str
    anchor: str
    date: str
    commit: str


_HEADING = re.compile(r"^(#{2,3})\s+(.*\S)\s*$")
_DATE = re.compile(r"\b(20\d\d-\d\d-\d\d)\b")
_COMMIT = re.compile(r"\bcommits?\s+`?([0-9a-f]{7,40})\b")


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.lower())
    return text.replace(" ", "-")


def bench_runs(folder: Path | None = None) -> list[BenchRun]:
    """The recorded runs of ``docs/bench/*.md``: every ``##`` or ``###`` section that names a
    date (``YYYY-MM-DD``) or a commit (``commit abc1234``), in its heading or its text (the
    first of each; the heading's first)."""
    folder = folder or paths.project_root() / "docs" / "bench"
    runs = []
    for path in sorted(folder.glob("*.md")):
        sections, current = [], None
        for line in path.read_text(encoding="utf-8").splitlines():
            heading = _HEADING.match(line)
            if heading:
                current = [heading.group(2), []]
                sections.append(current)
            elif current is not None:
                current[1].append(line)
        for heading, body in sections:
            text = "\n".join(body)
            date = _DATE.search(heading) or _DATE.search(text)
            commit = _COMMIT.search(heading) or _COMMIT.search(text)
            if date or commit:
                runs.append(BenchRun(path.name, heading, _anchor(heading),
                                     date.group(1) if date else "",
                                     commit.group(1) if commit else ""))
    return runs


@dataclass(frozen=True)
class Scorecard:
    """What :func:`write` wrote: the three files and the rows."""

    csv: Path
    markdown: Path
    html: Path
    card: pd.DataFrame
    ran: tuple[str, ...]


def _runs_frame(tables, sources: dict | None = None) -> pd.DataFrame:
    records = []
    for paper, (frame, manifest) in tables.items():
        git = manifest.get("git") or {}
        scale = manifest.get("scale") or ""
        records.append({
            "paper": paper,
            "table": "yes" if frame is not None else "no",
            "scale": f"{scale} (not the paper's protocol)" if scale and scale != "paper"
            else scale,
            "status": manifest.get("status", ""),
            "version": manifest.get("mctslab_version", ""),
            "commit": (git.get("commit") or "")[:7] + (" (dirty)" if git.get("dirty") else ""),
            "finished": manifest.get("finished") or manifest.get("started") or "",
            **({"record": (sources or {}).get(paper, "")} if sources is not None else {})})
    return pd.DataFrame.from_records(records)


def _cell(value) -> str:
    if _blank(value):
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def _md_table(frame: pd.DataFrame, links: dict[str, callable] | None = None) -> str:
    links = links or {}
    lines = ["| " + " | ".join(map(str, frame.columns)) + " |",
             "|" + "---|" * len(frame.columns)]
    for record in frame.to_dict("records"):
        cells = []
        for column, value in record.items():
            text = _cell(value).replace("|", "\\|").replace("\n", " ")
            if column in links and text:
                text = f"[{text}]({links[column](record)})"
            cells.append(text)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _html_table(frame: pd.DataFrame, links: dict[str, callable] | None = None) -> str:
    links = links or {}
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    body = []
    for record in frame.to_dict("records"):
        cells = []
        for column, value in record.items():
            text = html.escape(_cell(value))
            if column in links and text:
                text = f"<a href=\"{html.escape(links[column](record))}\">{text}</a>"
            cls = f" class=\"{record['verdict'].replace(' ', '-')}\"" \
                if column == "verdict" else ""
            cells.append(f"<td{cls}>{text}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><tr>{head}</tr>\n" + "\n".join(body) + "\n</table>"


_SHOWN = ["artefact", "row", "column", "kind", "paper_value", "margin", "our_value", "low",
          "high", "n", "scale", "verdict", "why", "settle_n", "settle_cpu_h", "note",
          "explanation"]


def write(out=None, bench_folder: Path | None = None) -> Scorecard:
    """Write ``figures/scorecard.csv``, ``.md`` and ``.html`` of the output folder ``out``.

    ``FileNotFoundError`` when the output folder has no ``figures/`` (nothing ran there)."""
    figures = paths.output_root(out) / "figures"
    if not figures.is_dir():
        raise FileNotFoundError(f"no figures/ folder in {paths.output_root(out)}: run "
                                "`mctslab reproduce` first, or pass the --out folder it wrote")
    tables = read_tables(out)
    ran = tuple(p for p, (frame, _) in tables.items() if frame is not None)
    intro = (f"Every number of the five papers' targets files (`mctslab/<domain>/targets.csv`), "
             f"one row each, beside this output folder's `figures/<notebook>/paper_vs_run.csv`, "
             f"judged again with today's targets. Notebooks with a table here: "
             f"{', '.join(ran) or 'none'}. A run at a scale other than `paper` is not the "
             f"paper's protocol: its sampled rows are `not run at this scale`. "
             f"`not compared` and `derived`: the criterion says why, or from what.")
    return render(tables, figures, intro=intro, bench_folder=bench_folder)


def render(tables, folder: Path, *, intro: str, bench_folder: Path | None = None,
           title: str = "Scorecard: the papers' numbers beside this run's",
           stem: str = "scorecard", sources: dict | None = None) -> Scorecard:
    """Build the card of ``tables`` (:func:`build`) and write ``<folder>/<stem>.csv``, ``.md``
    and ``.html``; ``sources`` (notebook -> where its table came from) adds a column to the
    runs section."""
    card = build(tables)
    ran = tuple(p for p, (frame, _) in tables.items() if frame is not None)
    figures = Path(folder)
    figures.mkdir(parents=True, exist_ok=True)
    bench_folder = bench_folder or paths.project_root() / "docs" / "bench"
    runs = bench_runs(bench_folder)
    docs = Path(os.path.relpath(bench_folder.parent.parent, figures))

    def explanation_link(record) -> str:
        return (docs / record["explanation"]).as_posix()

    anchors = {(r.file, r.heading): r.anchor for r in runs}

    def bench_link(record) -> str:
        anchor = anchors[record["file"], record["heading"]]
        return (docs / f"docs/bench/{record['file']}#{anchor}").as_posix()

    bench = pd.DataFrame([(r.file, r.heading, r.date, r.commit) for r in runs],
                         columns=["file", "heading", "date", "commit"])
    # the page once, as (heading, table, links) sections; written as Markdown and as HTML
    sections = [("Verdicts per paper (targets)", counts(card).reset_index(), None),
                ("The runs", _runs_frame(tables, sources), None)]
    sections += [(paper, part[_SHOWN], {"explanation": explanation_link})
                 for paper, part in card.groupby("paper", sort=False)]
    sections.append(("Recorded longer runs (docs/bench)", bench, {"heading": bench_link}))

    csv_path = figures / f"{stem}.csv"
    card.to_csv(csv_path, index=False)
    md = [f"# {title}", "", intro, ""]
    for heading, frame, links in sections:
        md += [f"## {heading}", "", _md_table(frame, links), ""]
    md_path = figures / f"{stem}.md"
    md_path.write_text("\n".join(md), encoding="utf-8")

    style = ("body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;"
             "margin-bottom:1.5em}td,th{padding:0.25em 0.6em;border-bottom:1px solid #ddd;"
             "text-align:left;vertical-align:top}td.reproduced{color:#070}"
             "td.differs{color:#b00}td.inconclusive{color:#a60}"
             "td.not-run-at-this-scale,td.not-compared,td.derived{color:#777}")
    parts = ["<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>mctslab scorecard"
             f"</title><style>{style}</style></head><body>",
             f"<h1>{html.escape(title, quote=False)}</h1>", f"<p>{html.escape(intro)}</p>"]
    for heading, frame, links in sections:
        parts += [f"<h2>{html.escape(heading, quote=False)}</h2>", _html_table(frame, links)]
    parts.append("</body></html>\n")
    html_path = figures / f"{stem}.html"
    html_path.write_text("\n".join(parts), encoding="utf-8")
    return Scorecard(csv_path, md_path, html_path, card, ran)
