"""The scorecard's page: ``figures/scorecard.csv``, ``.md`` and ``.html`` of an output folder
(``mctslab scorecard``, the last step of ``mctslab reproduce``), or of the committed records
(:mod:`mctslab.record_card`). The card itself, its ledgers and verdicts, is
:mod:`mctslab.core.scorecard`'s.

The page opens with the two ledgers of every paper (outcomes, protocol: targets per verdict),
then gives each paper a section: its ledgers, its run, a forest plot of its outcome rows
(:mod:`mctslab.core.forest`, inline SVG), its claims with their verdicts and criteria, its
protocol departures, its readings (the verdicts under each reading of the paper's text beside
ours), and its full table (folded, in the HTML). The runs and the recorded longer runs of
``docs/bench`` close it. The same rows give the same files: nothing on the page depends on
the time it was written.

Written for the committed records (``records/scorecard-paper.*``), it also rewrites the block
of the project's ``README.md`` between :data:`HEADLINE_START` and :data:`HEADLINE_END`
(:func:`headline`: both ledgers' totals and a table per paper), so the README quotes the
committed card and cannot go stale (``tests/core/test_scorecard_page.py`` checks it).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from mctslab import paths
from mctslab.core import forest
from mctslab.core import scorecard_html as page_html
from mctslab.core import targets as targets_module
from mctslab.core.scorecard import (
    OUTCOME_ORDER,
    PROTOCOL_ORDER,
    READING_COLUMNS,
    _cell,
    bench_runs,
    build,
    counts,
    ledgers,
    md_table,
    read_tables,
)
from mctslab.core.scorecard_html import Section

__all__ = ["Scorecard", "HEADLINE_START", "HEADLINE_END", "write", "render",
           "headline", "update_headline"]

HEADLINE_START = ("<!-- scorecard-headline: written by `mctslab scorecard --records` from "
                  "records/scorecard-paper.csv; do not edit by hand -->")
HEADLINE_END = "<!-- /scorecard-headline -->"
_ALWAYS = ("reproduced", "uninformative", "differs", "inconclusive", "as stated", "departs")


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
    return pd.DataFrame.from_records(records, columns=[
        "paper", "table", "scale", "status", "version", "commit", "finished",
        *(["record"] if sources is not None else [])])


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
    section. The project's ``records/scorecard-paper`` also rewrites the README's headline
    (:func:`update_headline`)."""
    card = build(tables, readings=readings)
    reading_frame = pd.DataFrame([r for found in (readings or {}).values() for r in found],
                                 columns=list(READING_COLUMNS))
    ran = tuple(p for p, (frame, _) in tables.items() if frame is not None)
    figures = Path(folder)
    figures.mkdir(parents=True, exist_ok=True)
    bench_folder = bench_folder or paths.project_root() / "docs" / "bench"
    root = Path(os.path.relpath(bench_folder.parent.parent, figures)).as_posix()
    runs = bench_runs(bench_folder)
    bench = pd.DataFrame([(r.file, r.heading, r.date, r.commit, r.anchor) for r in runs],
                         columns=["file", "heading", "date", "commit", "anchor"])
    run_frame = _runs_frame(tables, sources)
    parts = [_section(paper, part, reading_frame, run_frame)
             for paper, part in card.groupby("paper", sort=False)]

    csv_path = figures / f"{stem}.csv"
    card.to_csv(csv_path, index=False)
    md_path = figures / f"{stem}.md"
    md_path.write_text(_markdown(title, intro, card, parts, run_frame, bench, root,
                                     stem),
                       encoding="utf-8")
    html_path = figures / f"{stem}.html"
    html_path.write_text(page_html.page(
        title, intro, parts, _ledger_table(card), run_frame, bench, root), encoding="utf-8")
    if stem == "scorecard-paper" and \
            figures.resolve() == (paths.project_root() / "records").resolve():
        update_headline(paths.project_root() / "README.md", card)
    return Scorecard(csv_path, md_path, html_path, card, ran)


def _section(paper: str, rows: pd.DataFrame, reading_frame: pd.DataFrame,
             run_frame: pd.DataFrame) -> Section:
    """One paper's section of the page: its rows, ledgers, run, forest plot, claims (and
    judged outcome rows whose values are text), departures and readings."""
    plotted = forest.points(rows)
    numeric = rows.apply(lambda r: forest.number(r.paper_value) is not None
                         and forest.number(r.our_value) is not None, axis=1)
    judged = rows.verdict.isin(forest.PLOTTED) & (rows.ledger == "outcome")
    claims = rows[(rows.kind == "claim") | (judged & ~numeric)]
    rest = rows[(rows.ledger == "outcome") & ~rows.index.isin(claims.index)
                & ~(judged & numeric)].verdict.value_counts()
    left_out = ", ".join(f"{rest[v]} {v}" for v in OUTCOME_ORDER if rest.get(v, 0))
    run = run_frame[run_frame.paper == paper].to_dict("records")
    names = targets_module.readings(paper) if paper in targets_module.DOMAINS else \
        pd.DataFrame(columns=list(targets_module.READING_COLUMNS))
    names = names[names.paper == paper]
    return Section(
        paper=paper, rows=rows[_SHOWN],
        counts={ledger: _ledger_counts(rows, ledger) for ledger in ("outcome", "protocol")},
        run=run[0] if run else {}, claims=_claims_frame(claims, True),
        departures=_departures_frame(rows[(rows.ledger == "protocol")
                                          & (rows.verdict == "departs")]),
        readings=_readings_beside(rows, reading_frame[reading_frame.paper == paper]),
        reading_names=names, forest=forest.forest_svg(rows), plotted=len(plotted),
        left_out=left_out)


def _value_text(record: dict) -> str:
    value = _cell(record.get("our_value"))
    low, high = forest.number(record.get("low")), forest.number(record.get("high"))
    if value and low is not None and high is not None:
        value += f" [{_cell(low)}, {_cell(high)}]"
    return value


def _readings_beside(rows: pd.DataFrame, found: pd.DataFrame) -> pd.DataFrame:
    """One row per outcome a reading touches (a reading record's protocol constants are
    the run's settings, not a verdict on the paper): the paper's value, ours and our
    verdict, then each reading's value and verdict, and the records they come from."""
    by_key = {(r["artefact"], str(r["row"]), r["column"]): r for r in rows.to_dict("records")
              if r["ledger"] == "outcome"}
    found = found[[(r["artefact"], str(r["row"]), r["column"]) in by_key
                   for r in found.to_dict("records")]]
    if found.empty:
        return pd.DataFrame()
    names = list(dict.fromkeys(found.reading))
    table = {}
    for record in found.to_dict("records"):
        key = (record["artefact"], str(record["row"]), record["column"])
        ours = by_key[key]
        line = table.setdefault(key, {
            "target": " · ".join(key), "the paper": _cell(record.get("paper_value")),
            "ours": _value_text(ours), "our verdict": ours.get("verdict", ""),
            **{f"{n}": "" for n in names}, **{f"{n} verdict": "" for n in names}})
        line[record["reading"]] = _value_text(record)
        line[f"{record['reading']} verdict"] = record["verdict"]
        line.setdefault("records", {})[record.get("record") or ""] = None
    columns = ["target", "the paper", "ours", "our verdict"]
    for name in names:
        columns += [name, f"{name} verdict"]
    frame = pd.DataFrame(list(table.values()), columns=[*columns, "records"])
    frame["records"] = frame.records.map(lambda found: ", ".join(r for r in found if r))
    return frame


def _claims_frame(claims: pd.DataFrame, with_criterion: bool) -> pd.DataFrame:
    frame = pd.DataFrame({
        "artefact": claims.artefact, "claim": claims.row, "the paper": claims.paper_value,
        "ours": claims.our_value.map(_cell), "verdict": claims.verdict})
    if with_criterion:
        frame["criterion"] = claims.criterion
    return frame


def _departures_frame(rows: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({"artefact": rows.artefact, "row": rows.row, "column": rows.column,
                         "the paper": rows.paper_value.map(_cell),
                         "ours": rows.our_value.map(_cell), "why": rows.why})


def _ledger_counts(rows: pd.DataFrame, ledger: str) -> dict[str, int]:
    order = OUTCOME_ORDER if ledger == "outcome" else PROTOCOL_ORDER
    found = rows[rows.ledger == ledger].verdict.value_counts()
    return {v: int(found.get(v, 0)) for v in order}


def _ledger_line(found_counts: dict) -> str:
    """Both ledgers of one paper in a line of Markdown."""
    parts = []
    for ledger, name in (("outcome", "Outcomes"), ("protocol", "Protocol")):
        found = found_counts[ledger]
        shown = ", ".join(f"{n} {v}" for v, n in found.items() if n or v in _ALWAYS)
        parts.append(f"**{name}** ({sum(found.values())}): {shown}")
    return " · ".join(parts)


def _ledger_table(card: pd.DataFrame) -> list[tuple[str, dict]]:
    """Both ledgers' counts per paper, then their totals (``"total"``)."""
    papers = list(dict.fromkeys(card.paper))
    return [(paper, {ledger: _ledger_counts(card if paper == "total" else
                                            card[card.paper == paper], ledger)
                     for ledger in ("outcome", "protocol")}) for paper in (*papers, "total")]


def _said(found, order) -> str:
    """``found[v]`` for each ``v`` of ``order`` as "5 a, 2 b and 1 c"."""
    parts = [f"{found[v]} {v}" for v in order]
    return ", ".join(parts[:-1]) + f" and {parts[-1]}"


def headline(card: pd.DataFrame) -> str:
    """The README's headline (Markdown): both ledgers' totals in a sentence, and each
    paper's counts in a table."""
    outcome, protocol = counts(card, "outcome"), counts(card, "protocol")
    total, constants = outcome.loc["total"], protocol.loc["total"]
    table = pd.concat([outcome.drop(columns="total"), protocol.drop(
        columns="total").add_prefix("protocol: ")], axis=1)
    return (f"**Paper-scale verdicts you can cite** "
            f"([`records/scorecard-paper.md`](records/scorecard-paper.md); the page "
            f"[`records/scorecard-paper.html`](records/scorecard-paper.html) adds a forest plot "
            f"per paper): of the papers' {total['total']} **outcomes** (numbers they measured, "
            f"claims they make), {_said(total, OUTCOME_ORDER)}; `uninformative` is reproduced "
            f"by a criterion that cannot fail, and not counted as a reproduction. Of their "
            f"{constants['total']} **protocol** constants, "
            f"{_said(constants, PROTOCOL_ORDER)}.\n\n" + md_table(table.reset_index()))


def update_headline(readme: Path, card: pd.DataFrame) -> bool:
    """Rewrite ``readme``'s block between :data:`HEADLINE_START` and :data:`HEADLINE_END`
    with :func:`headline`; ``False`` (nothing written) when it has no such block."""
    text = readme.read_text(encoding="utf-8") if readme.is_file() else ""
    pattern = re.compile(re.escape(HEADLINE_START) + r"\n(?:.*?\n)?" + re.escape(HEADLINE_END),
                         re.S)
    if not pattern.search(text):
        return False
    block = f"{HEADLINE_START}\n{headline(card)}\n{HEADLINE_END}"
    new = pattern.sub(lambda _: block, text, count=1)
    if new != text:
        readme.write_text(new, encoding="utf-8")
    return True


def _markdown(title, intro, card, parts: list[Section], run_frame, bench, root,
              stem) -> str:
    md = [f"# {title}", "", intro, "",
          "## The two ledgers per paper: outcomes and protocol (targets)", "",
          md_table(ledgers(card).reset_index()), "",
          f"The forest plot of each paper's outcome rows is on the page, `{stem}.html`.", ""]
    for part in parts:
        md += [f"## {part.paper}", "", _ledger_line(part.counts), ""]
        if part.run.get("record"):
            md += [f"Record: {part.run['record']}", ""]
        if len(part.claims):
            md += ["### Claims", "", md_table(part.claims), ""]
        if len(part.departures):
            md += ["### Departures from the protocol", "",
                   md_table(part.departures), ""]
        if len(part.readings):
            md += ["### Readings of the paper: their verdicts beside ours", "",
                   md_table(part.readings), ""]
        md += ["### Every target", "", md_table(part.rows), ""]
    md += ["## The runs", "", md_table(run_frame), "",
           "## Recorded longer runs (docs/bench)", "",
           md_table(bench.drop(columns="anchor"), {"heading": lambda r: page_html.bench_href(
               r, bench, root)}),
           ""]
    return "\n".join(md)

