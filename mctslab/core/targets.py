"""The papers' numbers, one place: ``mctslab/<domain>/targets.csv`` (package data).

Each domain ships one targets file holding every number its paper reports (its tables, the
figure values quoted in the text, its headline claims, its protocol constants), one row per
number, and how a run is judged against it (:mod:`mctslab.core.compare`):

=============  ============================================================================
column         meaning
=============  ============================================================================
``paper``      the notebook's name (``"go_state_tabu"``), as in :mod:`mctslab.core.compare`
``artefact``   the paper's table, figure or section (``"Table 2"``, ``"Fig. 8"``)
``row``        the row (or curve) of that artefact, labelled as the notebook's
               ``paper_vs_run`` table labels it
``column``     the column (or quantity)
``value``      the paper's number, or its statement as text
``unit``       what the number counts
``kind``       how it is judged (:data:`KINDS`, below)
``margin``     the equivalence margin around ``value``: ``0.05`` (absolute), ``20%``
               (relative to ``value``), ``x3`` (a factor: ``value / 3`` to ``3 value``),
               ``0`` (equality); empty for a text value
``min_n``      the smallest sample (games, seeds, instances) that judges a ``sampled`` target
``sample``     what ``n`` counts for it (``games``, ``seeds``, ``instances`` ...)
``criterion``  one line of why: why this margin (and minimum), or what decides a claim;
               ``derived from <artefact> / <row> / <column>: ...`` for a number that follows
               from another target, ``not compared: <why>`` for one no notebook judges
``source``     where it is stated: ``docs/papers/<paper>.md`` and the table or section
``uninformative``  empty when the criterion can fail; else why a ``reproduced`` verdict
               says nothing about the paper, stated before judging: ``<why>`` (it cannot fail:
               by construction, arithmetic or a setting echoed back), or
               ``floor of <artefact> / <row> / <column>: <why>`` (a zero matched at a floor:
               informative only when that target, the next harder cell, is ``reproduced``)
``cause``      a measured cause of a gap, where the numbers are:
               ``docs/<file>.md#<anchor>: <one line>`` (empty: none measured)
=============  ============================================================================

Kinds (:data:`KINDS`): ``sampled`` (a statistic of games, seeds or instances: judged by our
95% interval against ``value`` +- ``margin``, only at the paper's protocol and from ``min_n``
units); ``exact`` (a deterministic quantity: arithmetic on the paper's constants, a count fixed
by the data; judged by its margin, no interval needed); ``config`` (a protocol constant, judged
against our configuration at ``paper`` scale, ``experiments.config("paper")``); ``claim`` (a
statement; the domain's criterion, which must be able to fail, says holds / fails /
undecided); ``derived`` (follows from another target, which is the one judged);
``uncompared`` (``not compared: <why>``).

The domains' ``tables.py`` read the paper's numbers from here (:func:`value`, :func:`values`)
instead of keeping literals, and :func:`mctslab.core.compare.paper_row` takes the paper's
value, kind and margin of every comparison from here, so the value judged is the value shown.
A value is read as an ``int`` when written as one (``685``), a ``float`` when it has a point
or exponent (``18940.0``), text otherwise: the tables print exactly what the literals printed.
"""

from __future__ import annotations

import csv
import re
from functools import cache
from pathlib import Path

import pandas as pd

from mctslab import NOTEBOOKS

__all__ = ["COLUMNS", "READING_COLUMNS", "FLOOR_PREFIX", "DOMAINS", "KINDS", "NUMERIC_KINDS", "NOT_COMPARED_PREFIX",
           "DERIVED_PREFIX", "targets_path", "load", "all_targets", "target", "value",
           "values", "rows", "margin_bounds", "check_target", "floor_of", "readings_path",
           "readings", "all_readings"]

COLUMNS = ("paper", "artefact", "row", "column", "value", "unit", "kind", "margin", "min_n",
           "sample", "criterion", "source", "uninformative", "cause")
READING_COLUMNS = ("paper", "reading", "changes", "rests_on", "source")
FLOOR_PREFIX = "floor of "
# notebook (paper id) -> its domain package (its targets file; mctslab.pipeline's CONFIGS), from
# the one list of domains and their notebooks, mctslab.NOTEBOOKS
DOMAINS = {notebook: domain for domain, notebook in NOTEBOOKS.items()}
KINDS = ("sampled", "exact", "config", "claim", "derived", "uncompared")
NUMERIC_KINDS = ("sampled", "exact", "config")  # a number here needs a margin
NOT_COMPARED_PREFIX = "not compared: "
DERIVED_PREFIX = "derived from "

_PACKAGE = Path(__file__).resolve().parents[1]
_CAUSE = re.compile(r"^docs/[\w./-]+\.md(?:#[\w.-]+)?: \S")
_MARGIN = re.compile(r"^(?:x(?P<factor>\d+(?:\.\d+)?)|(?P<number>\d+(?:\.\d+)?)(?P<pct>%)?)$")


def targets_path(paper: str) -> Path:
    """``mctslab/<domain>/targets.csv`` of a notebook (``KeyError`` for an unknown one)."""
    return _PACKAGE / DOMAINS[paper] / "targets.csv"


def _parse(text: str):
    """``"685"`` -> 685, ``"18940.0"`` -> 18940.0, anything else stays text."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def margin_bounds(value, margin: str) -> tuple[float, float]:
    """``value`` +- ``margin`` as ``(lower, upper)``: ``"0.05"`` absolute, ``"20%"`` of
    ``|value|``, ``"x3"`` from ``value / 3`` to ``3 value``, ``"0"`` the value itself.
    ``ValueError`` for a margin of another form."""
    found = _MARGIN.match(str(margin).strip())
    if not found:
        raise ValueError(f"a margin is 0.05, 20% or x3, got {margin!r}")
    value = float(value)
    if found.group("factor"):
        factor = float(found.group("factor"))
        if factor < 1:
            raise ValueError(f"a factor margin is at least x1, got {margin!r}")
        ends = (value / factor, value * factor)
        return min(ends), max(ends)
    half = float(found.group("number"))
    if found.group("pct"):
        half = abs(value) * half / 100
    return value - half, value + half


def check_target(record: dict) -> None:
    """``ValueError`` naming what a target row lacks for its kind (see the module docstring)."""
    where = f"{record['paper']} {record['artefact']} / {record['row']} / {record['column']}"
    kind = record["kind"]
    if kind not in KINDS:
        raise ValueError(f"{where}: kind must be one of {', '.join(KINDS)}, got {kind!r}")
    if not record["criterion"]:
        raise ValueError(f"{where}: a criterion (one line of why) is needed")
    _check_value(record, where)
    _check_criterion(kind, record["criterion"], where)
    uninformative = record.get("uninformative") or ""
    if uninformative and kind in ("config", "derived", "uncompared"):
        raise ValueError(f"{where}: only an outcome (sampled, exact, claim) is uninformative")
    if uninformative.startswith(FLOOR_PREFIX):
        floor_of(record)
    cause = record.get("cause") or ""
    if cause and not _CAUSE.match(cause):
        raise ValueError(f"{where}: a cause is 'docs/<file>.md#<anchor>: <one line>', "
                         f"got {cause!r}")


def _check_value(record: dict, where: str) -> None:
    """A number of a numeric kind has a margin of a known form; a sampled target is a number
    with its minimum sample and what ``n`` counts."""
    kind = record["kind"]
    numeric = isinstance(record["value"], int | float)
    if kind in NUMERIC_KINDS and numeric:
        if not record["margin"]:
            raise ValueError(f"{where}: a {kind} number needs a margin")
        margin_bounds(record["value"], record["margin"])
    if kind == "sampled":
        if not numeric:
            raise ValueError(f"{where}: a sampled target is a number")
        if not (isinstance(record["min_n"], int) and record["min_n"] >= 1) or not record["sample"]:
            raise ValueError(f"{where}: a sampled target needs min_n >= 1 and what n counts "
                             "(sample)")


def _check_criterion(kind: str, criterion: str, where: str) -> None:
    """A derived target's criterion names what it follows from; only an uncompared target's
    says ``not compared``, and it must."""
    if kind == "derived" and not criterion.startswith(DERIVED_PREFIX):
        raise ValueError(f"{where}: a derived target's criterion starts {DERIVED_PREFIX!r}")
    if kind == "uncompared" and not criterion.startswith(NOT_COMPARED_PREFIX):
        raise ValueError(f"{where}: an uncompared target's criterion starts "
                         f"{NOT_COMPARED_PREFIX!r}")
    if kind != "uncompared" and criterion.startswith(NOT_COMPARED_PREFIX):
        raise ValueError(f"{where}: 'not compared' is the kind uncompared")


def floor_of(record: dict) -> tuple[str, str, str] | None:
    """The ``(artefact, row, column)`` a floor target names (``None``: not a floor);
    ``ValueError`` when its ``uninformative`` starts ``floor of`` without naming one."""
    text = record.get("uninformative") or ""
    if not text.startswith(FLOOR_PREFIX):
        return None
    named, _, why = text[len(FLOOR_PREFIX):].partition(": ")
    parts = tuple(part.strip() for part in named.split(" / "))
    if len(parts) != 3 or not all(parts) or not why.strip():
        raise ValueError(f"{record['paper']} {record['artefact']} / {record['row']} / "
                         f"{record['column']}: a floor is 'floor of <artefact> / <row> / "
                         f"<column>: <why>', got {text!r}")
    return parts


@cache
def _rows(paper: str) -> tuple[dict, ...]:
    path = targets_path(paper)
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != COLUMNS:
            raise ValueError(f"{path}: columns must be {', '.join(COLUMNS)}")
        rows = []
        for record in reader:
            if record["paper"] != paper:
                raise ValueError(f"{path}: a row of paper {record['paper']!r}")
            min_n = record["min_n"].strip()
            record = dict(record, value=_parse(record["value"]),
                          min_n=int(min_n) if min_n else None)
            check_target(record)
            rows.append(record)
    keys = [(r["artefact"], r["row"], r["column"]) for r in rows]
    if len(set(keys)) != len(keys):
        raise ValueError(f"{path}: an (artefact, row, column) appears twice")
    for record in rows:
        named = floor_of(record)
        if named is not None and named not in keys:
            raise ValueError(f"{path}: {record['artefact']} / {record['row']} / "
                             f"{record['column']} is a floor of {' / '.join(named)}, which is "
                             "not a target")
    return tuple(rows)


def load(paper: str) -> pd.DataFrame:
    """One paper's targets as a DataFrame with :data:`COLUMNS` (``value`` as parsed, ``min_n``
    an integer or missing)."""
    frame = pd.DataFrame.from_records(list(_rows(paper)), columns=list(COLUMNS))
    frame["min_n"] = frame["min_n"].astype("Int64")
    return frame


def readings_path(paper: str) -> Path:
    """``mctslab/<domain>/readings.csv`` of a notebook: its paper's readings."""
    return _PACKAGE / DOMAINS[paper] / "readings.csv"


@cache
def _readings(paper: str) -> tuple[dict, ...]:
    path = readings_path(paper)
    if not path.is_file():
        return ()
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != READING_COLUMNS:
            raise ValueError(f"{path}: columns must be {', '.join(READING_COLUMNS)}")
        found = list(reader)
    for record in found:
        if record["paper"] != paper:
            raise ValueError(f"{path}: a row of paper {record['paper']!r}")
        empty = [k for k in READING_COLUMNS if not record[k].strip()]
        if empty:
            raise ValueError(f"{path}: reading {record['reading']!r} lacks {', '.join(empty)}")
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", record["reading"]):
            raise ValueError(f"{path}: a reading's name is lower case, digits and hyphens, "
                             f"got {record['reading']!r}")
    names = [r["reading"] for r in found]
    if len(set(names)) != len(names):
        raise ValueError(f"{path}: a reading named twice")
    return tuple(found)


def readings(paper: str) -> pd.DataFrame:
    """One paper's readings: documented alternatives to our protocol that the paper's text
    allows (:data:`READING_COLUMNS`: its name, what it changes, the text it rests on, where);
    empty when the paper has none."""
    return pd.DataFrame.from_records(list(_readings(paper)), columns=list(READING_COLUMNS))


def all_readings() -> pd.DataFrame:
    """Every paper's readings, in the order of :data:`DOMAINS`."""
    return pd.concat([readings(paper) for paper in DOMAINS], ignore_index=True)


def all_targets() -> pd.DataFrame:
    """Every paper's targets, in the order of :data:`DOMAINS`."""
    return pd.concat([load(paper) for paper in DOMAINS], ignore_index=True)


def target(paper: str, artefact: str, row: str, column: str) -> dict:
    """The whole target row of one cell (a copy); ``KeyError`` naming it when absent."""
    for record in _rows(paper):
        if (record["artefact"], record["row"], record["column"]) == (artefact, row, column):
            return dict(record)
    raise KeyError(f"{paper}: no target {artefact} / {row} / {column} in {targets_path(paper)}")


def value(paper: str, artefact: str, row: str, column: str):
    """The paper's number (or text) at one cell; ``KeyError`` naming it when absent."""
    return target(paper, artefact, row, column)["value"]


def values(paper: str, artefact: str, row: str, columns) -> tuple:
    """The paper's numbers of one row, in the order of ``columns``."""
    return tuple(value(paper, artefact, row, column) for column in columns)


def rows(paper: str, artefact: str) -> tuple[str, ...]:
    """The row labels of one artefact, in the targets file's order."""
    return tuple(dict.fromkeys(r["row"] for r in _rows(paper) if r["artefact"] == artefact))


