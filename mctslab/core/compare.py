"""One shape for "the paper's number next to this run's": every domain fills it.

Each paper notebook ends with a table comparing what the paper reports with what this run
measured. Every domain builds it from :class:`PaperRow` rows and :func:`paper_table`, so the
tables of the five papers stack into one scorecard (``pandas.concat``) with the same columns:

=================  ==========================================================================
column             meaning
=================  ==========================================================================
``paper``          which paper (the notebook's name, e.g. ``"tsp_mcts_vs_sa"``)
``artefact``       the paper's table, figure or section (``"Table 2"``, ``"Fig. 8"``, ``"Sec. 4"``)
``row``            the row (or curve) of that artefact, as the paper labels it
``column``         the column (or quantity) of that artefact
``paper_value``    the paper's number (or statement, as text)
``our_value``      this run's number (``None``/NaN: not measured in this run)
``low``/``high``   this run's interval around ``our_value`` (e.g. 95%), when it has one
``n``              how many runs, games or instances ``our_value`` is over
``scale``          the scale of this run (``smoke``, ``default``, ``paper``)
``verdict``        ``reproduced``, ``differs`` or ``not run at this scale``
``note``           how it was judged, or a link to the record (``docs/bench/...``)
=================  ==========================================================================

The verdict is decided by a stated criterion, never written by hand without one
(:func:`judge`): the paper's value inside our interval, or within a stated tolerance of our
value, or equal (text); the note names the criterion. ``not run at this scale`` is for a row
this run cannot judge: its value was not measured, the run is smaller than the paper's
protocol in what the number depends on (fewer playouts per run, say), or a single run leaves
no interval. A domain may pass ``verdict=`` itself for a qualitative claim, and must then say
in ``note`` what decided it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass

import pandas as pd

__all__ = ["REPRODUCED", "DIFFERS", "NOT_RUN", "VERDICTS", "COLUMNS", "PaperRow", "judge",
           "paper_row", "paper_table"]

REPRODUCED = "reproduced"
DIFFERS = "differs"
NOT_RUN = "not run at this scale"
VERDICTS = (REPRODUCED, DIFFERS, NOT_RUN)


@dataclass(frozen=True)
class PaperRow:
    """One compared number: the paper's and ours, with the verdict (see the module docstring)."""

    paper: str
    artefact: str
    row: str
    column: str
    paper_value: float | str | None
    our_value: float | str | None
    low: float | None
    high: float | None
    n: int | None
    scale: str
    verdict: str
    note: str = ""

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {', '.join(map(repr, VERDICTS))}, "
                             f"got {self.verdict!r}")


COLUMNS = tuple(PaperRow.__dataclass_fields__)


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def judge(paper_value, our_value, *, low=None, high=None, tolerance=None,
          relative=None) -> str:
    """The verdict of one comparison by the first criterion that applies.

    - ``our_value`` missing (``None`` or NaN): :data:`NOT_RUN`;
    - ``low`` and ``high`` given: :data:`REPRODUCED` when ``low <= paper_value <= high``;
    - ``tolerance`` (absolute) or ``relative`` (a fraction of the paper's value) given:
      :data:`REPRODUCED` when ``|our_value - paper_value|`` is within it;
    - two texts: :data:`REPRODUCED` when equal;

    otherwise :data:`DIFFERS`. Numbers with no criterion are a ``ValueError``: say how they
    are judged.
    """
    if _missing(our_value):
        return NOT_RUN
    if isinstance(paper_value, str) or isinstance(our_value, str):
        if low is not None or tolerance is not None or relative is not None:
            raise ValueError("a text value is judged by equality, not by an interval or tolerance")
        return REPRODUCED if str(paper_value) == str(our_value) else DIFFERS
    if _missing(paper_value):
        raise ValueError("no paper value to judge against: pass verdict= with a note")
    if low is not None and high is not None and not (_missing(low) or _missing(high)):
        return REPRODUCED if low <= paper_value <= high else DIFFERS
    if tolerance is not None:
        return REPRODUCED if abs(our_value - paper_value) <= tolerance else DIFFERS
    if relative is not None:
        return REPRODUCED if abs(our_value - paper_value) <= relative * abs(paper_value) else DIFFERS
    raise ValueError("numbers need a criterion: an interval (low, high), a tolerance or a "
                     "relative tolerance (or pass verdict= with a note)")


def _number(value):
    """A numpy scalar as the Python number (so rows compare and serialise plainly)."""
    if hasattr(value, "item") and not isinstance(value, str):
        return value.item()
    return value


def paper_row(paper: str, artefact: str, row: str, column: str, paper_value, our_value, *,
              scale: str, low=None, high=None, n=None, tolerance=None, relative=None,
              verdict: str | None = None, note: str = "") -> PaperRow:
    """A :class:`PaperRow` whose verdict is :func:`judge`'s (or ``verdict``, with a ``note``).

    A row whose ``our_value`` is missing is :data:`NOT_RUN` whatever ``verdict`` says; so is a
    row to be judged by an interval that is NaN (a single run or instance has no spread).
    """
    paper_value, our_value = _number(paper_value), _number(our_value)
    low, high = _number(low), _number(high)
    no_interval = (low is not None or high is not None) and (_missing(low) or _missing(high))
    if _missing(our_value):
        verdict = NOT_RUN
    elif verdict is None and no_interval and tolerance is None and relative is None:
        verdict = NOT_RUN  # one run or instance: no spread to judge by
        note = note or "a single run: no interval to judge by"
    elif verdict is None:
        verdict = judge(paper_value, our_value, low=low, high=high, tolerance=tolerance,
                        relative=relative)
        if not note:
            note = _criterion(low, high, tolerance, relative)
    elif not note:
        raise ValueError(f"{artefact} {row} / {column}: a verdict given by hand needs a note "
                         "saying what decided it")
    return PaperRow(paper, artefact, row, column, paper_value, our_value, low, high,
                    None if n is None else int(n), scale, verdict, note)


def _criterion(low, high, tolerance, relative) -> str:
    """The criterion :func:`judge` applied, as the row's note."""
    if low is not None and high is not None and not (_missing(low) or _missing(high)):
        return "criterion: the paper's value inside our interval"
    if tolerance is not None:
        return f"criterion: within {tolerance:g} of the paper's value"
    if relative is not None:
        return f"criterion: within {100 * relative:g}% of the paper's value"
    return "criterion: equal"


def paper_table(rows: Iterable[PaperRow]) -> pd.DataFrame:
    """The rows as a DataFrame with exactly :data:`COLUMNS`, in that order (empty: no rows)."""
    records = [asdict(r) for r in rows]
    return pd.DataFrame.from_records(records, columns=list(COLUMNS))
