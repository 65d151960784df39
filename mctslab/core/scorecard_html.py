"""The scorecard page's HTML: Markdown in a cell rendered, tables, the page around them.

The card's text is Markdown (a criterion quotes `code`, a note links [text](docs/...) or names
a ``docs/bench/<file>.md#anchor`` bare): :func:`inline` renders the inline part of it (code
spans, links, bold; a bare ``docs/...md`` path becomes a link), so the page shows no literal
backticks. A link into the repository (``docs/...``, ``records/...``) is made relative to the
page's folder by the ``root`` given (the page's way back to the project's root). The page is
static: no script, no file beside it (the forest plots are inline SVG).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

import pandas as pd

from mctslab.core.scorecard import OUTCOME_ORDER, PROTOCOL_ORDER

__all__ = ["Section", "inline", "table", "document", "verdict_class", "page", "bench_href"]


@dataclass(frozen=True)
class Section:
    """One paper's part of the page (:func:`mctslab.core.scorecard_page.render` fills it):
    its card rows (the full table's columns), its ledgers (ledger -> verdict -> targets), its
    run (a row of the runs table), its claims, departures and readings beside ours (tables),
    the paper's readings (``paper, reading, changes, rests_on, source``), the forest plot
    (SVG text, ``None``: no row to plot), how many rows it plots, and the outcome rows it
    leaves out (``"14 not run at this scale, 51 derived"``)."""

    paper: str
    rows: pd.DataFrame
    counts: dict
    run: dict
    claims: pd.DataFrame
    departures: pd.DataFrame
    readings: pd.DataFrame
    reading_names: pd.DataFrame
    forest: str | None
    plotted: int
    left_out: str

_INLINE = re.compile(
    r"`(?P<code>[^`]+)`"
    r"|\[(?P<text>[^\]]+)\]\((?P<href>[^)\s]+)\)"
    r"|\*\*(?P<bold>[^*]+)\*\*"
    r"|(?P<path>\b(?:docs|records)/[\w./<>-]*\w\.(?:md|csv|html)(?:#[\w.-]+)?)")
_REPOSITORY = ("docs/", "records/", "mctslab/", "notebooks/", "README.md")


def _href(target: str, root: str) -> str:
    if target.startswith(_REPOSITORY) and root:
        return f"{root.rstrip('/')}/{target}"
    return target


def inline(text, root: str = "") -> str:
    """``text`` (Markdown) as HTML: `code`, [text](link), **bold**, and bare ``docs/...md``
    paths linked; everything else escaped. ``root``: the page's way to the project's root
    (``".."``), prefixed to a link into the repository."""
    text = "" if text is None else str(text)
    parts, start = [], 0
    for found in _INLINE.finditer(text):
        parts.append(html.escape(text[start:found.start()], quote=False))
        start = found.end()
        if found["code"] is not None:
            parts.append(f"<code>{html.escape(found['code'], quote=False)}</code>")
        elif found["href"] is not None:
            parts.append(f'<a href="{html.escape(_href(found["href"], root))}">'
                         f"{inline(found['text'], root)}</a>")
        elif found["bold"] is not None:
            parts.append(f"<strong>{html.escape(found['bold'], quote=False)}</strong>")
        elif "<" in found["path"]:  # a placeholder (records/<notebook>/...) is no link
            parts.append(f"<code>{html.escape(found['path'], quote=False)}</code>")
        else:
            parts.append(f'<a href="{html.escape(_href(found["path"], root))}">'
                         f"{html.escape(found['path'], quote=False)}</a>")
    parts.append(html.escape(text[start:], quote=False))
    return "".join(parts)


def verdict_class(verdict) -> str:
    """The CSS class of a verdict (``not run at this scale`` -> ``v-not-run-at-this-scale``)."""
    return "v-" + re.sub(r"[^a-z]+", "-", str(verdict).lower()).strip("-")


def table(frame: pd.DataFrame, *, root: str = "", cell=None, links: dict | None = None,
          attrs: str = "") -> str:
    """``frame`` as an HTML table, each cell's text rendered by :func:`inline`. ``cell``:
    ``(record, column, text) -> str``, a cell's text (default: the value, blank for NaN);
    ``links``: column -> ``record -> href`` (the cell a link when the href is not empty); a
    ``verdict`` column, and columns named ``<x> verdict``, get their verdict's class."""
    links = links or {}
    head = "".join(f"<th>{inline(c, root)}</th>" for c in frame.columns)
    body = []
    for record in frame.to_dict("records"):
        cells = []
        for column, value in record.items():
            text = cell(record, column, value) if cell else _text(value)
            shown = inline(text, root)
            href = links[column](record) if column in links and text else ""
            if href:
                shown = f'<a href="{html.escape(href)}">{shown}</a>'
            cls = f' class="{verdict_class(value)}"' \
                if str(column).endswith("verdict") and text else ""
            cells.append(f"<td{cls}>{shown}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (f"<table{(' ' + attrs) if attrs else ''}><thead><tr>{head}</tr></thead><tbody>\n"
            + "\n".join(body) + "\n</tbody></table>")


def _text(value) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return ""
    if value is pd.NA:
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;
 margin:0 auto;padding:1.5em 2em;max-width:1180px;color:#1f2328;line-height:1.45;font-size:15px}
h1{font-size:1.6em;margin-bottom:0.3em}h2{font-size:1.35em;margin-top:2.2em;
 border-bottom:2px solid #d0d7de;padding-bottom:0.2em}h3{font-size:1.05em;margin:1.4em 0 0.5em}
table{border-collapse:collapse;margin:0.4em 0 1em;font-size:13px}
td,th{padding:0.25em 0.55em;border-bottom:1px solid #d8dee4;text-align:left;vertical-align:top}
th{background:#f6f8fa;font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:0.92em;
 background:#eff1f3;padding:0.05em 0.3em;border-radius:4px}
a{color:#0969da}
.v-reproduced{color:#1a7f37;font-weight:600}.v-differs{color:#cf222e;font-weight:600}
.v-uninformative{color:#8c6d1f;font-weight:600}.v-inconclusive{color:#d4760a;font-weight:600}
.v-as-stated{color:#1a7f37}.v-departs{color:#cf222e;font-weight:600}
.v-not-run-at-this-scale,.v-derived,.v-not-compared{color:#6e7781}
.ledger{display:flex;flex-wrap:wrap;gap:0.4em 1.6em;margin:0.6em 0}
.ledger b{margin-right:0.3em}.count{white-space:nowrap;margin-right:0.7em}
.count span{font-size:1.15em}
.forest{margin:0.3em 0 0.2em}.forest svg{width:100%;max-width:1100px;height:auto;display:block}
.note{color:#57606a;font-size:13px}.criterion{color:#57606a;font-size:12px;margin-top:0.15em}
.scroll{overflow-x:auto;max-width:100%}
details{margin:0.6em 0 1em}summary{cursor:pointer;font-weight:600;color:#0969da}
table.ledgers td,table.ledgers th{text-align:right}
table.ledgers td:first-child,table.ledgers th:first-child{text-align:left}
table.ledgers .sep{border-left:2px solid #d0d7de}
table.ledgers th.group{text-align:center}
nav a{margin-right:1em}
"""


def document(title: str, body: list[str]) -> str:
    """The page: ``title`` and the HTML parts of ``body``, with the card's style."""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{html.escape(title, quote=False)}</title>"
            f"<style>{_STYLE}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


_LEGEND = (
    "One row per target (a number or a claim of the paper). <b>Outcomes</b>: what the paper "
    "measured or claims. <span class=\"v-reproduced\">reproduced</span>: our 95% interval "
    "inside the paper's value ± its margin (a claim: its criterion holds); <span "
    "class=\"v-uninformative\">uninformative</span>: reproduced by a criterion that cannot "
    "fail, not counted as a reproduction; <span class=\"v-differs\">differs</span>: wholly "
    "outside (a claim: it fails); <span class=\"v-inconclusive\">inconclusive</span>: "
    "neither. <b>Protocol</b>: the paper's constants in our paper-scale configuration, "
    "<span class=\"v-as-stated\">as stated</span> or <span class=\"v-departs\">departs</span>.")


def page(title: str, intro: str, sections: list[Section], ledgers: list[tuple[str, dict]],
         runs: pd.DataFrame, bench: pd.DataFrame, root: str) -> str:
    """The scorecard page: the two ledgers of every paper (``ledgers``: paper, or
    ``"total"``, with its counts), each paper's :class:`Section`, the runs and the recorded
    longer runs (``bench``: file, heading, date, commit, anchor)."""
    body = [f"<h1>{html.escape(title, quote=False)}</h1>", f"<p>{inline(intro, root)}</p>",
            "<nav>Papers: " + "".join(f'<a href="#{s.paper}">{s.paper}</a>'
                                      for s in sections) + "</nav>",
            "<h2>The two ledgers per paper: outcomes and protocol (targets)</h2>",
            _ledgers(ledgers), f'<p class="note">{_LEGEND}</p>']
    for section in sections:
        body += _section(section, root)
    body += ["<h2>The runs</h2>", f'<div class="scroll">{table(runs, root=root)}</div>',
             "<h2>Recorded longer runs (docs/bench)</h2>",
             table(bench.drop(columns="anchor"), root=root,
                   links={"heading": lambda r: bench_href(r, bench, root)})]
    return document(title, body)


def bench_href(record: dict, bench: pd.DataFrame, root: str) -> str:
    """The link of a recorded run of ``docs/bench`` (a row of ``bench``): its heading."""
    anchor = bench[(bench.file == record["file"]) & (bench.heading == record["heading"])]
    return f"{root}/docs/bench/{record['file']}#{anchor.anchor.iloc[0]}"


def _count_cell(paper: str, ledger: str, verdict: str, n: int, first: bool) -> str:
    cls = " ".join(c for c in ("sep" if first else "", verdict_class(verdict) if n else "")
                   if c)
    return (f'<td class="{cls}" data-paper="{paper}" data-ledger="{ledger}" '
            f'data-verdict="{verdict}">{n}</td>')


_GROUP = {"outcome": "outcomes", "protocol": "protocol (constants)"}
_ALWAYS = ("reproduced", "uninformative", "differs", "inconclusive", "as stated", "departs")


def _ledgers(ledgers: list[tuple[str, dict]]) -> str:
    """Both ledgers, papers by verdict; each count carries its paper, ledger and verdict."""
    orders = {"outcome": OUTCOME_ORDER, "protocol": PROTOCOL_ORDER}
    head = ('<tr><th></th>' + "".join(
        f'<th colspan="{len(order) + 1}" class="sep group">{_GROUP[name]}</th>'
        for name, order in orders.items()) + "</tr><tr><th>paper</th>" + "".join(
        f'<th class="{"sep" if i == 0 else ""}">{v}</th>'
        for order in orders.values() for i, v in enumerate((*order, "total"))) + "</tr>")
    lines = []
    for paper, found in ledgers:
        name = "total" if paper == "total" else f'<a href="#{paper}">{paper}</a>'
        cells = [f"<td>{name}</td>"]
        for ledger, order in orders.items():
            values = [*((v, found[ledger][v]) for v in order),
                      ("total", sum(found[ledger].values()))]
            cells += [_count_cell(paper, ledger, v, n, i == 0)
                      for i, (v, n) in enumerate(values)]
        lines.append("<tr>" + "".join(cells) + "</tr>")
    return (f'<div class="scroll"><table class="ledgers"><thead>{head}</thead><tbody>'
            + "\n".join(lines) + "</tbody></table></div>")




def _ledger_line(section: Section) -> str:
    parts = []
    for ledger, name in (("outcome", "Outcomes"), ("protocol", "Protocol")):
        found = section.counts[ledger]
        shown = "".join(
            f'<span class="count {verdict_class(v) if n else ""}" data-paper="{section.paper}" '
            f'data-ledger="{ledger}" data-verdict="{v}"><span>{n}</span> {v}</span>'
            for v, n in found.items() if n or v in _ALWAYS)
        parts.append(f"<div><b>{name}</b> ({sum(found.values())} targets): {shown}</div>")
    return '<div class="ledger">' + "".join(parts) + "</div>"


def _run_line(run: dict, root: str) -> str:
    if not run:
        return ""
    said = [f"{k} {inline(run[k], root)}" for k in ("scale", "status", "version", "commit",
                                                   "finished") if run.get(k)]
    record = f"Record {inline(run['record'], root)}: " if run.get("record") else "Run: "
    return f'<p class="note">{record}{", ".join(said)}.</p>'


def _section(section: Section, root: str) -> list[str]:
    """One paper: ledgers, run, forest plot, claims, departures, readings, every target."""
    parts = [f'<section id="{section.paper}">', f"<h2>{section.paper}</h2>",
             _ledger_line(section), _run_line(section.run, root)]
    if section.forest:
        parts += [f"<h3>Outcomes: our value against the paper's ({section.plotted} rows)</h3>",
                  f'<div class="forest">{section.forest}</div>']
    left_out = [*(["the claims (below)"] if len(section.claims) else []),
                *([section.left_out + " (in the full table)"] if section.left_out else [])]
    if left_out:
        parts.append(f'<p class="note">Not plotted: {"; ".join(left_out)}.</p>')
    if len(section.claims):
        parts += [f"<h3>Claims ({len(section.claims)})</h3>", _claims_table(section.claims,
                                                                           root)]
    if len(section.departures):
        parts += [f"<h3>Departures from the paper's protocol ({len(section.departures)})</h3>",
                  table(section.departures, root=root)]
    parts += _readings(section, root)
    parts += [f"<details><summary>Every target of {section.paper} ({len(section.rows)} rows, "
              f"{len(section.rows.columns)} columns)</summary>",
              f'<div class="scroll">{table(section.rows, root=root)}</div></details>',
              "</section>"]
    return parts


def _claims_table(claims: pd.DataFrame, root: str) -> str:
    """The claims, each with its criterion under it."""
    lines = []
    for record in claims.to_dict("records"):
        criterion = _text(record.get("criterion"))
        lines.append(
            f"<tr><td>{inline(_text(record['artefact']), root)}</td>"
            f"<td>{inline(_text(record['claim']), root)}"
            + (f'<div class="criterion">{inline(criterion, root)}</div>' if criterion else "")
            + f"</td><td>{inline(_text(record['the paper']), root)}</td>"
            f"<td>{inline(_text(record['ours']), root)}</td>"
            f'<td class="{verdict_class(record["verdict"])}">{record["verdict"]}</td></tr>')
    return ("<table><thead><tr><th>artefact</th><th>claim (and its criterion)</th>"
            "<th>the paper</th><th>ours</th><th>verdict</th></tr></thead><tbody>\n"
            + "\n".join(lines) + "\n</tbody></table>")


def _readings(section: Section, root: str) -> list[str]:
    names = section.reading_names
    if not len(names) and not len(section.readings):
        return []
    parts = ["<h3>Readings of the paper's text: their verdicts beside ours</h3>"]
    if len(names):
        parts.append("<ul>" + "".join(
            f"<li><b>{html.escape(str(r['reading']))}</b>: {inline(r['changes'], root)} "
            f"(rests on: “{inline(r['rests_on'], root)}”, {inline(r['source'], root)})</li>"
            for r in names.to_dict("records")) + "</ul>")
    if len(section.readings):
        records = sorted({r for found in section.readings.records for r in found.split(", ")
                          if r})
        shown = table(section.readings.drop(columns="records"), root=root)
        parts += [f'<div class="scroll">{shown}</div>',
                  f'<p class="note">From the records {", ".join(records)}.</p>']
    else:
        parts.append('<p class="note">No record judges a number under these readings yet.</p>')
    return parts
