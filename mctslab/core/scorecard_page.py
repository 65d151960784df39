"""The scorecard's page: ``figures/scorecard.csv``, ``.md`` and ``.html`` of an output folder
(``mctslab scorecard``, the last step of ``mctslab reproduce``), or of the committed records
(:mod:`mctslab.record_card`). The card itself, its ledgers and verdicts, is
:mod:`mctslab.core.scorecard`'s.
"""

from __future__ import annotations

import html
import os
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from mctslab import paths
from mctslab.core.scorecard import (
    READING_COLUMNS,
    _cell,
    bench_runs,
    build,
    ledgers,
    read_tables,
)

__all__ = ["Scorecard", "md_table", "write", "render"]


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


def md_table(frame: pd.DataFrame, links: dict[str, callable] | None = None) -> str:
    links = links or {}
    lines = ["| " + " | ".join(map(str, frame.columns)) + " |",
             "|" + "---|" * len(frame.columns)]
    for record in frame.to_dict("records"):
        cells = []
        for column, value in record.items():
            text = _cell(value).replace("|", "\\|").replace("\n", " ")
            link = links[column](record) if column in links and text else ""
            if link:
                text = f"[{text}]({link})"
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
            link = links[column](record) if column in links and text else ""
            if link:
                text = f"<a href=\"{html.escape(link)}\">{text}</a>"
            cls = f" class=\"{record['verdict'].replace(' ', '-')}\"" \
                if column == "verdict" else ""
            cells.append(f"<td{cls}>{text}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><tr>{head}</tr>\n" + "\n".join(body) + "\n</table>"


_SHOWN = ["ledger", "artefact", "row", "column", "kind", "paper_value", "margin", "our_value",
          "low", "high", "n", "scale", "verdict", "why", "uninformative", "readings",
          "settle_n", "settle_cpu_h", "note", "explanation"]


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
           stem: str = "scorecard", sources: dict | None = None,
           readings: dict[str, list[dict]] | None = None) -> Scorecard:
    """Build the card of ``tables`` (:func:`build`, with ``readings``: notebook -> its rows
    judged under the paper's readings) and write ``<folder>/<stem>.csv``, ``.md`` and
    ``.html``; ``sources`` (notebook -> where its table came from) adds a column to the runs
    section."""
    card = build(tables, readings=readings)
    reading_frame = pd.DataFrame([r for found in (readings or {}).values() for r in found],
                                 columns=list(READING_COLUMNS))
    ran = tuple(p for p, (frame, _) in tables.items() if frame is not None)
    figures = Path(folder)
    figures.mkdir(parents=True, exist_ok=True)
    bench_folder = bench_folder or paths.project_root() / "docs" / "bench"
    runs = bench_runs(bench_folder)
    docs = Path(os.path.relpath(bench_folder.parent.parent, figures))

    def explanation_link(record) -> str:
        target = record["explanation"].split(":", 1)[0].split(" ", 1)[0]
        if not target.startswith("docs/"):
            return ""
        return (docs / target).as_posix()

    anchors = {(r.file, r.heading): r.anchor for r in runs}

    def bench_link(record) -> str:
        anchor = anchors[record["file"], record["heading"]]
        return (docs / f"docs/bench/{record['file']}#{anchor}").as_posix()

    bench = pd.DataFrame([(r.file, r.heading, r.date, r.commit) for r in runs],
                         columns=["file", "heading", "date", "commit"])
    # the page once, as (heading, table, links) sections; written as Markdown and as HTML
    sections = [("The two ledgers per paper: outcomes and protocol (targets)",
                 ledgers(card).reset_index(), None),
                ("The runs", _runs_frame(tables, sources), None)]
    sections += [(paper, part[_SHOWN], {"explanation": explanation_link})
                 for paper, part in card.groupby("paper", sort=False)]
    if len(reading_frame):
        sections.append(("The papers' numbers under readings of their text", reading_frame,
                         None))
    sections.append(("Recorded longer runs (docs/bench)", bench, {"heading": bench_link}))

    csv_path = figures / f"{stem}.csv"
    card.to_csv(csv_path, index=False)
    md = [f"# {title}", "", intro, ""]
    for heading, frame, links in sections:
        md += [f"## {heading}", "", md_table(frame, links), ""]
    md_path = figures / f"{stem}.md"
    md_path.write_text("\n".join(md), encoding="utf-8")

    html_path = figures / f"{stem}.html"
    _write_html(html_path, title, intro, sections)
    return Scorecard(csv_path, md_path, html_path, card, ran)


def _write_html(path: Path, title: str, intro: str, sections) -> None:
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
    path.write_text("\n".join(parts), encoding="utf-8")
