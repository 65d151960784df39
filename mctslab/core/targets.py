"""The papers' numbers, one place: ``mctslab/<domain>/targets.csv`` (package data).

Each domain ships one targets file holding every number its paper reports (its tables, the
figure values quoted in the text, its headline claims), one row per number:

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
``criterion``  what "reproduced" means for it (inside our interval, a stated tolerance, a
               qualitative test), or ``not compared: <why>`` for a number no notebook judges
``source``     where it is stated: ``docs/papers/<paper>.md`` and the table or section
=============  ============================================================================

The domains' ``tables.py`` read the paper's numbers from here (:func:`value`, :func:`values`)
instead of keeping literals, and :mod:`mctslab.core.scorecard` joins every target with the
notebooks' ``paper_vs_run`` tables, so a number no notebook compared still shows. A value is
read as an ``int`` when written as one (``685``), a ``float`` when it has a point or exponent
(``18940.0``), text otherwise: the tables print exactly what the literals printed.
"""

from __future__ import annotations

import csv
from functools import cache
from pathlib import Path

import pandas as pd

__all__ = ["COLUMNS", "DOMAINS", "NOT_COMPARED_PREFIX", "targets_path", "load", "all_targets",
           "value", "values", "rows"]

COLUMNS = ("paper", "artefact", "row", "column", "value", "unit", "criterion", "source")
# notebook (paper id) -> its domain package (its targets file; mctslab.pipeline's CONFIGS)
DOMAINS = {"othello_wpc_de": "othello", "sudoku_less_clue": "sudoku", "tsp_mcts_vs_sa": "tsp",
           "go_state_tabu": "go", "manyfaces_knowledge": "manyfaces"}
NOT_COMPARED_PREFIX = "not compared: "

_PACKAGE = Path(__file__).resolve().parents[1]


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


@cache
def _rows(paper: str) -> tuple[dict, ...]:
    with targets_path(paper).open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != COLUMNS:
            raise ValueError(f"{targets_path(paper)}: columns must be {', '.join(COLUMNS)}")
        rows = []
        for record in reader:
            if record["paper"] != paper:
                raise ValueError(f"{targets_path(paper)}: a row of paper {record['paper']!r}")
            rows.append(dict(record, value=_parse(record["value"])))
    keys = [(r["artefact"], r["row"], r["column"]) for r in rows]
    if len(set(keys)) != len(keys):
        raise ValueError(f"{targets_path(paper)}: an (artefact, row, column) appears twice")
    return tuple(rows)


def load(paper: str) -> pd.DataFrame:
    """One paper's targets as a DataFrame with :data:`COLUMNS` (``value`` as parsed)."""
    return pd.DataFrame.from_records(list(_rows(paper)), columns=list(COLUMNS))


def all_targets() -> pd.DataFrame:
    """Every paper's targets, in the order of :data:`DOMAINS`."""
    return pd.concat([load(paper) for paper in DOMAINS], ignore_index=True)


def value(paper: str, artefact: str, row: str, column: str):
    """The paper's number (or text) at one cell; ``KeyError`` naming it when absent."""
    for record in _rows(paper):
        if (record["artefact"], record["row"], record["column"]) == (artefact, row, column):
            return record["value"]
    raise KeyError(f"{paper}: no target {artefact} / {row} / {column} in {targets_path(paper)}")


def values(paper: str, artefact: str, row: str, columns) -> tuple:
    """The paper's numbers of one row, in the order of ``columns``."""
    return tuple(value(paper, artefact, row, column) for column in columns)


def rows(paper: str, artefact: str) -> tuple[str, ...]:
    """The row labels of one artefact, in the targets file's order."""
    return tuple(dict.fromkeys(r["row"] for r in _rows(paper) if r["artefact"] == artefact))
