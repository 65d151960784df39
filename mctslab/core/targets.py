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

__all__ = ["COLUMNS", "DOMAINS", "KINDS", "NUMERIC_KINDS", "NOT_COMPARED_PREFIX",
           "DERIVED_PREFIX", "targets_path", "load", "all_targets", "target", "value",
           "values", "rows", "margin_bounds", "check_target"]

COLUMNS = ("paper", "artefact", "row", "column", "value", "unit", "kind", "margin", "min_n",
           "sample", "criterion", "source")
# notebook (paper id) -> its domain package (its targets file; mctslab.pipeline's CONFIGS), from
# the one list of domains and their notebooks, mctslab.NOTEBOOKS
DOMAINS = {notebook: domain for domain, notebook in NOTEBOOKS.items()}
KINDS = ("sampled", "exact", "config", "claim", "derived", "uncompared")
NUMERIC_KINDS = ("sampled", "exact", "config")  # a number here needs a margin
NOT_COMPARED_PREFIX = "not compared: "
DERIVED_PREFIX = "derived from "

_PACKAGE = Path(__file__).resolve().parents[1]
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
    kind, margin, criterion = record["kind"], record["margin"], record["criterion"]
    if kind not in KINDS:
        raise ValueError(f"{where}: kind must be one of {', '.join(KINDS)}, got {kind!r}")
    if not criterion:
        raise ValueError(f"{where}: a criterion (one line of why) is needed")
    numeric = isinstance(record["value"], int | float)
    if kind in NUMERIC_KINDS and numeric:
        if not margin:
            raise ValueError(f"{where}: a {kind} number needs a margin")
        margin_bounds(record["value"], margin)
    if kind == "sampled":
        if not numeric:
            raise ValueError(f"{where}: a sampled target is a number")
        if not (isinstance(record["min_n"], int) and record["min_n"] >= 1) or not record["sample"]:
            raise ValueError(f"{where}: a sampled target needs min_n >= 1 and what n counts "
                             "(sample)")
    if kind == "derived" and not criterion.startswith(DERIVED_PREFIX):
        raise ValueError(f"{where}: a derived target's criterion starts {DERIVED_PREFIX!r}")
    if kind == "uncompared" and not criterion.startswith(NOT_COMPARED_PREFIX):
        raise ValueError(f"{where}: an uncompared target's criterion starts "
                         f"{NOT_COMPARED_PREFIX!r}")
    if kind != "uncompared" and criterion.startswith(NOT_COMPARED_PREFIX):
        raise ValueError(f"{where}: 'not compared' is the kind uncompared")


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
    return tuple(rows)


def load(paper: str) -> pd.DataFrame:
    """One paper's targets as a DataFrame with :data:`COLUMNS` (``value`` as parsed, ``min_n``
    an integer or missing)."""
    frame = pd.DataFrame.from_records(list(_rows(paper)), columns=list(COLUMNS))
    frame["min_n"] = frame["min_n"].astype("Int64")
    return frame


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


