"""The scorecard: every number of the five papers beside this output folder's.

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

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from mctslab import paths
from mctslab.core import compare
from mctslab.core import targets as targets_module
from mctslab.core.compare import COLUMNS as COMPARE_COLUMNS
from mctslab.core.compare import (
    DERIVED,
    DIFFERS,
    INCONCLUSIVE,
    NOT_COMPARED,
    NOT_RUN,
    REPRODUCED,
)

__all__ = ["NOT_COMPARED", "UNINFORMATIVE", "AS_STATED", "DEPARTS", "UNEXPLAINED",
           "OUTCOME_ORDER", "PROTOCOL_ORDER", "VERDICT_ORDER", "COLUMNS", "READING_COLUMNS",
           "BenchRun", "read_tables", "build", "unmatched", "counts", "ledgers", "bench_runs", "md_table",
           "informative"]

# The card's verdicts. An outcome (sampled, exact, claim, derived, uncompared) keeps the
# comparison's verdict, except that a ``reproduced`` whose criterion cannot fail (the target's
# ``uninformative``) is ``uninformative``; a protocol constant (``config``) is ``as stated``
# or ``departs``.
UNINFORMATIVE = "uninformative"
AS_STATED = "as stated"
DEPARTS = "departs"
UNEXPLAINED = "unexplained"
OUTCOME_ORDER = (REPRODUCED, UNINFORMATIVE, DIFFERS, INCONCLUSIVE, NOT_RUN, DERIVED,
                 NOT_COMPARED)
PROTOCOL_ORDER = (AS_STATED, DEPARTS, NOT_RUN)
VERDICT_ORDER = (*OUTCOME_ORDER, AS_STATED, DEPARTS)
_PROTOCOL = {REPRODUCED: AS_STATED, DIFFERS: DEPARTS}
COLUMNS = (*COMPARE_COLUMNS, "ledger", "unit", "criterion", "source", "uninformative",
           "readings", "explanation")
# a reading's verdict on one target (build's ``readings``; the page's readings section)
READING_COLUMNS = ("paper", "reading", "artefact", "row", "column", "paper_value",
                   "our_value", "low", "high", "n", "verdict", "why", "record")
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


def _explanation(paper: str, verdict: str, note: str, kind: str = "", source: str = "",
                 cause: str = "", readings: str = "") -> str:
    """Where a ``differs`` (or ``departs``) row is explained: its verdicts under the paper's
    readings, when a reading touches it; the measured cause the target names (``cause``);
    the ``docs/bench`` link of its note; for a departure of our configuration (``config``)
    or a check of the paper's own arithmetic (``exact``), the paper's brief (its criterion
    says why, the brief's deviations section more); else :data:`UNEXPLAINED`."""
    if verdict not in (DIFFERS, DEPARTS):
        return ""
    if readings:
        return f"under a reading: {readings}"
    if cause:
        return cause
    link = _BENCH_LINK.search(note or "")
    if link:
        return link.group(0)
    if kind in ("config", "exact") and source:
        return source.split(" ")[0]
    return UNEXPLAINED


def _informative(target: dict, verdict: str, judged) -> tuple[str, str]:
    """The card's verdict of an outcome row and, when uninformative, why: a ``reproduced``
    whose target says its criterion cannot fail, or a floor whose next harder cell (its card
    verdict is ``judged(key)``, itself resolved the same way) is not ``reproduced``, is
    :data:`UNINFORMATIVE`."""
    reason = target.get("uninformative") or ""
    if verdict != REPRODUCED or not reason:
        return verdict, ""
    named = targets_module.floor_of(target)
    if named is None:
        return UNINFORMATIVE, reason
    above = judged((target["paper"], *named))
    if above == REPRODUCED:
        return verdict, ""
    return UNINFORMATIVE, f"{reason} ({' / '.join(named)}: {above})"


def informative(judged: dict[tuple, tuple[dict, str]]) -> dict[tuple, tuple[str, str]]:
    """Each target's card verdict and, when uninformative, why (:func:`_informative`), from
    ``judged``: key ``(paper, artefact, row, column)`` -> (its target, its verdict); a floor
    names a target of the same ``judged`` (one run, or one reading's rows)."""
    resolved: dict[tuple, tuple[str, str]] = {}

    def verdict_of(key: tuple) -> str:
        if key not in judged:
            return NOT_RUN
        if key not in resolved:
            resolved[key] = (NOT_RUN, "")  # a floor that names itself through others
            target, verdict = judged[key]
            resolved[key] = (_informative(target, verdict, verdict_of)
                             if target["kind"] != "config" else (verdict, ""))
        return resolved[key][0]

    for key in judged:
        verdict_of(key)
    return resolved


def _reading_summary(found: list[dict]) -> str:
    return "; ".join(f"{r['reading']}: {r['verdict']}"
                     + (f" ({_cell(r['our_value'])})" if not _blank(r.get("our_value")) else "")
                     for r in found)


def _key(record) -> tuple:
    return (record["paper"], record["artefact"], str(record["row"]), record["column"])


def _rows_of(frame) -> list[dict]:
    if frame is None:
        return []
    return frame.to_dict("records") if isinstance(frame, pd.DataFrame) else list(frame)


def build(tables: dict[str, tuple[list[dict] | pd.DataFrame | None, dict]],
          targets: pd.DataFrame | None = None,
          readings: dict[str, list[dict]] | None = None) -> pd.DataFrame:
    """The scorecard rows (:data:`COLUMNS`): one per target, joined with the comparisons.

    ``tables`` maps a notebook to its ``paper_vs_run`` rows (or ``None``) and manifest, as
    :func:`read_tables` returns; ``targets`` defaults to every targets file; ``readings``
    maps a notebook to its rows judged under the paper's readings (compared rows with a
    ``reading`` and the ``record`` they come from), summarised in the ``readings`` column. A
    compared row is judged again with its target (:func:`mctslab.core.compare.rejudge`); an
    outcome's ``reproduced`` becomes ``uninformative`` where its criterion cannot fail
    (:func:`_informative`), a protocol constant's verdict is ``as stated`` or ``departs``.
    """
    targets = targets_module.all_targets() if targets is None else targets
    rows = []
    for paper in dict.fromkeys([*targets.paper, *tables]):
        frame, manifest = tables.get(paper, (None, {}))
        compared = {_key(c): c for c in _rows_of(frame)}
        for target in targets[targets.paper == paper].to_dict("records"):
            target["min_n"] = None if pd.isna(target["min_n"]) else int(target["min_n"])
            rows.append(_target_row(dict(target, paper=paper), compared, frame is not None,
                                    str(manifest.get("scale") or "")))
    _finish(rows, readings or {})
    card = pd.DataFrame.from_records(rows, columns=list(COLUMNS))
    for key in ("n", "min_n", "settle_n"):
        card[key] = card[key].astype("Int64")
    return card


def _target_row(target: dict, compared: dict, ran: bool, scale: str) -> dict:
    """One target's card row before its ledger: the comparison of ``compared`` judged again
    with the target, else the target's own standing (not compared, derived, not run)."""
    extra = {k: target.get(k) or "" for k in ("unit", "criterion", "source")}
    extra["target"] = target
    hit = compared.get(_key(target))
    if hit is not None:
        record = {k: hit.get(k) for k in COMPARE_COLUMNS}
        judged = compare.rejudge(record, target)
        record.update(kind=target["kind"], paper_value=target["value"],
                      margin=target["margin"], min_n=target["min_n"], verdict=judged.verdict,
                      why=judged.why, settle_n=judged.settle_n,
                      settle_cpu_h=judged.settle_cpu_h)
        return {**record, **extra}
    criterion = target["criterion"]
    if target["kind"] == "uncompared":
        verdict, why = NOT_COMPARED, criterion[len(targets_module.NOT_COMPARED_PREFIX):]
    elif target["kind"] == "derived":
        verdict, why = DERIVED, criterion
    elif not ran:
        verdict, why = NOT_RUN, "the notebook did not run into this output folder"
    else:
        verdict, why = NOT_RUN, "this run's paper_vs_run has no row for it (not measured)"
    return dict(paper=target["paper"], artefact=target["artefact"], row=target["row"],
                column=target["column"], kind=target["kind"], paper_value=target["value"],
                our_value=None, low=None, high=None, n=None, min_n=target["min_n"],
                margin=target["margin"], scale=scale, departure="", unit_cpu_s=None,
                verdict=verdict, why=why, settle_n=None, settle_cpu_h=None, note="", **extra)


def _finish(rows: list[dict], readings: dict[str, list[dict]]) -> None:
    """Each row's ledger, card verdict, readings and explanation (in place)."""
    resolved = informative({_key(row): (row["target"], row["verdict"]) for row in rows})
    by_target = {}
    for paper, found in readings.items():
        for reading in found:
            by_target.setdefault(_key(dict(reading, paper=paper)), []).append(reading)
    for row in rows:
        target = row.pop("target")
        for key in ("note", "why", "departure", "margin"):
            row[key] = "" if _blank(row.get(key)) else str(row[key])
        if row["kind"] == "config":
            row["ledger"], row["uninformative"] = "protocol", ""
            row["verdict"] = _PROTOCOL.get(row["verdict"], row["verdict"])
        else:
            row["ledger"] = "outcome"
            row["verdict"], row["uninformative"] = resolved[_key(row)]
        row["readings"] = _reading_summary(by_target.get(_key(row), []))
        row["explanation"] = _explanation(row["paper"], row["verdict"], row["note"],
                                          row.get("kind") or "", row.get("source") or "",
                                          target.get("cause") or "", row["readings"])


def unmatched(tables, targets: pd.DataFrame | None = None) -> list[dict]:
    """The compared rows of ``tables`` that match no target (left out of :func:`build`)."""
    targets = targets_module.all_targets() if targets is None else targets
    known = {(r["paper"], r["artefact"], str(r["row"]), r["column"])
             for r in targets.to_dict("records")}
    return [c for frame, _ in tables.values() for c in _rows_of(frame) if _key(c) not in known]


def counts(card: pd.DataFrame, ledger: str | None = None) -> pd.DataFrame:
    """Targets per paper and verdict (columns in :data:`VERDICT_ORDER`, or the ledger's order,
    then ``total``), with a ``total`` row; ``ledger`` (``"outcome"``, ``"protocol"``) keeps
    that ledger's rows only. :func:`build` gives one row per target, so these count targets."""
    order = {None: VERDICT_ORDER, "outcome": OUTCOME_ORDER, "protocol": PROTOCOL_ORDER}[ledger]
    papers = list(dict.fromkeys(card.paper))
    part = card if ledger is None else card[card.ledger == ledger]
    table = pd.crosstab(part.paper, part.verdict).reindex(index=papers, columns=list(order),
                                                           fill_value=0)
    table["total"] = table.sum(axis=1)
    table.loc["total"] = table.sum(axis=0)
    table.index.name = "paper"
    table.columns.name = None
    return table.astype(int)


def ledgers(card: pd.DataFrame) -> pd.DataFrame:
    """Both ledgers per paper in one table: the outcomes (reproduced, uninformative, differs,
    inconclusive, not run, derived or not compared) and the protocol (as stated, departs, not
    run), with totals."""
    outcome = counts(card, "outcome").add_prefix("outcome: ")
    protocol = counts(card, "protocol").add_prefix("protocol: ")
    return pd.concat([outcome, protocol], axis=1)


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


def _cell(value) -> str:
    if _blank(value):
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def md_table(frame: pd.DataFrame, links: dict[str, callable] | None = None) -> str:
    """``frame`` as a Markdown table, cells as :func:`_cell` writes them; ``links`` maps a
    column to a function of the row giving its link (empty: none)."""
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
