"""One shape for "the paper's number next to this run's", and the one verdict function.

Each paper notebook ends with a table comparing what the paper reports with what this run
measured. Every domain builds it from :func:`paper_row` rows and :func:`paper_table`, so the
tables of the five papers stack into one scorecard with the same columns (:data:`COLUMNS`):

================  =========================================================================
column            meaning
================  =========================================================================
``paper``         which paper (the notebook's name, e.g. ``"tsp_mcts_vs_sa"``)
``artefact``      the paper's table, figure or section (``"Table 2"``, ``"Fig. 8"``)
``row``           the row (or curve) of that artefact, as the targets file labels it
``column``        the column (or quantity) of that artefact
``kind``          the target's kind (:data:`mctslab.core.targets.KINDS`)
``paper_value``   the paper's number (or statement), from the targets file
``our_value``     this run's number (``None``/NaN: not measured in this run); a claim's is
                  ``holds: ...``, ``fails: ...`` or ``undecided: ...``
``low``/``high``  this run's 95% interval around ``our_value``, when it has one
``n``             how many units (games, seeds, instances) ``our_value`` is over
``min_n``         the target's minimum sample; ``margin`` its equivalence margin
``scale``         the scale of this run (``smoke``, ``default``, ``paper``)
``departure``     where this run departs from the paper's protocol in what the number
                  depends on (empty: it does not)
``unit_cpu_s``    this run's CPU seconds per unit (game, seed, instance), when measured
``verdict``       :data:`VERDICTS`
``why``           what decided the verdict (recomputed by :func:`judge` from the row)
``settle_n``      ``inconclusive``: the units in all that would settle it (80% power);
                  ``settle_cpu_h`` what the missing ones cost at ``unit_cpu_s``
``note``          the domain's note (what was measured, a link to ``docs/bench/...``)
================  =========================================================================

The verdict is :func:`judge`'s, by equivalence rather than overlap (a wide interval that
merely contains the paper's value proves nothing), from the target's kind and margin (:mod:`mctslab.core.targets`):

- ``reproduced``: our 95% interval lies inside the paper's value +- margin; ``differs``: it
  lies wholly outside; ``inconclusive``: anything else, with the sample that would settle it
  (:func:`mctslab.core.stats.sample_to_settle`) and its cost. A sampled quantity measured once
  (no interval, or ``n < 2``) is ``inconclusive``, never ``reproduced``.
- ``not run at this scale``: not measured, or the run is not at the paper's scale, departs from
  its protocol, or has fewer units than the target's minimum.
- an ``exact`` or ``config`` quantity is judged by its margin (or equality), no interval;
  a ``claim`` by the domain's criterion (``holds`` / ``fails`` / ``undecided``).
- ``derived`` and ``not compared`` (the target's kind says so; a row may still show ours).

A row carries everything its verdict needs, so a recorded table is judged again from its own
fields (:func:`rejudge`, ``mctslab records check``), or with today's targets.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass

import pandas as pd

from mctslab.core import targets as targets_module
from mctslab.core.stats import sample_to_settle, sd_from_interval

__all__ = ["REPRODUCED", "DIFFERS", "INCONCLUSIVE", "NOT_RUN", "DERIVED", "NOT_COMPARED",
           "VERDICTS", "CLAIM_STATES", "COLUMNS", "PaperRow", "Judgement", "Measured", "judge",
           "paper_row", "paper_table", "rejudge", "read_table", "config_rows"]

REPRODUCED = "reproduced"
DIFFERS = "differs"
INCONCLUSIVE = "inconclusive"
NOT_RUN = "not run at this scale"
DERIVED = "derived"
NOT_COMPARED = "not compared"
VERDICTS = (REPRODUCED, DIFFERS, INCONCLUSIVE, NOT_RUN, DERIVED, NOT_COMPARED)
CLAIM_STATES = {"holds": REPRODUCED, "fails": DIFFERS, "undecided": INCONCLUSIVE}
POWER = 0.8  # the power a settling sample is sized for (as core.stats.games_for_power)


@dataclass(frozen=True)
class PaperRow:
    """One compared number: the paper's and ours, with the verdict (see the module docstring)."""

    paper: str
    artefact: str
    row: str
    column: str
    kind: str
    paper_value: float | str | None
    our_value: float | str | None
    low: float | None
    high: float | None
    n: int | None
    min_n: int | None
    margin: str
    scale: str
    departure: str
    unit_cpu_s: float | None
    verdict: str
    why: str
    settle_n: int | None
    settle_cpu_h: float | None
    note: str = ""

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {', '.join(map(repr, VERDICTS))}, "
                             f"got {self.verdict!r}")


COLUMNS = tuple(PaperRow.__dataclass_fields__)


@dataclass(frozen=True)
class Judgement:
    """A verdict, what decided it and (inconclusive) what would settle it."""

    verdict: str
    why: str
    settle_n: int | None = None
    settle_cpu_h: float | None = None


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _number(value):
    """A numpy scalar as the Python number (so rows compare and serialise plainly)."""
    if hasattr(value, "item") and not isinstance(value, str):
        return value.item()
    return value


def _g(x) -> str:
    return f"{x:.4g}"


def _equal(paper_value, our_value, margin: str) -> tuple[bool, str]:
    """Whether a deterministic value matches: numbers within the margin, texts equal."""
    if isinstance(paper_value, str) or isinstance(our_value, str):
        same = str(paper_value) == str(our_value)
        return same, f"ours {our_value!s} {'equals' if same else 'is not'} the paper's"
    lower, upper = targets_module.margin_bounds(paper_value, margin or "0")
    inside = lower <= float(our_value) <= upper
    return inside, (f"ours {_g(our_value)} {'inside' if inside else 'outside'} "
                    f"{_g(lower)}..{_g(upper)} (the paper's {_g(paper_value)} +- {margin})")


@dataclass(frozen=True)
class Measured:
    """This run's side of one comparison: its value (``None``/NaN: not measured), 95% interval
    ``low``..``high``, the units ``n`` it is over, the run's scale, where it departs from the
    paper's protocol (empty: it does not) and its CPU seconds per unit."""

    value: float | str | None
    low: float | None = None
    high: float | None = None
    n: int | None = None
    scale: str = "paper"
    departure: str = ""
    unit_cpu_s: float | None = None


def judge(target: Mapping, ours: Measured) -> Judgement:
    """The verdict of one comparison (the rules of the module docstring).

    ``target`` is the target's row (:mod:`mctslab.core.targets`: its ``kind``, ``value``,
    ``margin``, ``min_n`` and, optionally, ``sample``); ``ours`` this run's. ``ValueError``
    for a sampled target whose value is not a number, or a claim whose value is not
    ``holds``/``fails``/``undecided`` followed by ``:`` or nothing.
    """
    kind, paper_value = target["kind"], target["value"]
    margin, sample = target.get("margin") or "", target.get("sample") or "units"
    if kind == "derived":
        return Judgement(DERIVED, "derived: the target it follows from is the one judged")
    if kind == "uncompared":
        return Judgement(NOT_COMPARED, "not compared (the target says why)")
    if _missing(ours.value):
        return Judgement(NOT_RUN, "not measured in this run")
    if kind in ("exact", "config"):
        same, why = _equal(paper_value, ours.value, margin)
        if kind == "config":
            why += " (our configuration at paper scale)"
        return Judgement(REPRODUCED if same else DIFFERS, why)
    if kind not in ("sampled", "claim"):
        raise ValueError(f"unknown kind {kind!r}")
    outside = _outside_protocol(ours, target.get("min_n"), sample)
    if outside is not None:
        return outside
    if kind == "claim":
        return _judge_claim(ours.value)
    return _judge_sampled(paper_value, ours, margin, sample)


def _outside_protocol(ours: Measured, min_n, sample: str) -> Judgement | None:
    """``not run at this scale`` when the run departs from the paper's protocol, is not at
    its scale or has fewer units than the target's minimum; ``None`` when it may be judged."""
    if ours.departure:
        return Judgement(NOT_RUN, f"not the paper's protocol: {ours.departure}")
    if ours.scale != "paper":
        return Judgement(NOT_RUN, f"scale {ours.scale}: not the paper's protocol")
    if min_n is not None and (ours.n is None or ours.n < min_n):
        return Judgement(NOT_RUN, f"{ours.n or 0} {sample}, below the {min_n} this target needs")
    return None


def _judge_claim(our_value) -> Judgement:
    state = str(our_value).split(":", 1)[0].strip()
    if state not in CLAIM_STATES:
        raise ValueError(f"a claim's value is holds, fails or undecided (then ': ...'), "
                         f"got {our_value!r}")
    return Judgement(CLAIM_STATES[state], f"the claim {state} by its criterion")


def _judge_sampled(paper_value, ours: Measured, margin: str, sample: str) -> Judgement:
    """A sampled quantity by equivalence: our interval inside the band, wholly outside it, or
    straddling an edge (:func:`_unsettled`)."""
    if isinstance(ours.value, str) or isinstance(paper_value, str):
        raise ValueError(f"a sampled target compares numbers, got {paper_value!r} and "
                         f"{ours.value!r}")
    n, low, high = ours.n, ours.low, ours.high
    if n is None or n < 2 or _missing(low) or _missing(high):
        return Judgement(INCONCLUSIVE, f"measured once ({n or 1} {sample}): no interval; a "
                         "spread needs two or more")
    lower, upper = targets_module.margin_bounds(paper_value, margin)
    band = f"{_g(lower)}..{_g(upper)} (the paper's {_g(paper_value)} +- {margin})"
    interval = f"our 95% interval [{_g(low)}, {_g(high)}] over {n} {sample}"
    if lower <= low and high <= upper:
        return Judgement(REPRODUCED, f"{interval} lies inside {band}")
    if high < lower or low > upper:
        return Judgement(DIFFERS, f"{interval} lies wholly outside {band}")
    return _unsettled(ours, lower, upper, f"{interval} straddles an edge of {band}", sample)


def _unsettled(ours: Measured, lower: float, upper: float, straddles: str,
               sample: str) -> Judgement:
    """``inconclusive``, with the sample that would settle it and what the missing units
    cost (or why no sample can be sized)."""
    n, low, high = ours.n, ours.low, ours.high
    sd = sd_from_interval(low, high, n)
    settle = sample_to_settle(float(ours.value), sd, lower, upper, n=n, power=POWER)
    on_edge = settle is None and math.isfinite(low) and math.isfinite(high)
    if on_edge:  # no size settles it for sure: the least that lets the interval fit the band
        settle = sample_to_settle((lower + upper) / 2, sd, lower, upper, n=n, power=POWER)
    if settle is None:
        reason = ("the interval is open, so no sample can be sized from it"
                  if not on_edge else "ours sits on the edge: no sample settles it")
        return Judgement(INCONCLUSIVE, f"{straddles}; {reason}")
    more = settle - n
    # the cost is a column of its own (settle_cpu_h): a measured time varies from run to run,
    # and the reason stays the same text for the same numbers (core.varying)
    cost = None if _missing(ours.unit_cpu_s) else more * float(ours.unit_cpu_s) / 3600
    size = (f"ours sits on the edge, so no sample settles it for sure: at least {settle:,} "
            f"{sample} in all before the interval can fit inside the band ({POWER:.0%} power "
            "for a value at its centre)" if on_edge else
            f"about {settle:,} {sample} in all settle it ({POWER:.0%} power)")
    return Judgement(INCONCLUSIVE, f"{straddles}; {size}: {more:,} more (settle_cpu_h: their "
                                   "CPU hours at this run's CPU time per unit)", settle, cost)


def paper_row(paper: str, artefact: str, row: str, column: str, our_value, *, scale: str,  # noqa: PLR0913 - a target's 4 keys and our measure, by keyword at ~70 call sites
              low=None, high=None, n=None, departure: str = "", unit_cpu_s=None,
              note: str = "") -> PaperRow:
    """A :class:`PaperRow` for the target ``(paper, artefact, row, column)``: its value, kind
    and margin from the targets file (``KeyError`` when there is none), judged by
    :func:`judge` against this run's value, interval, ``n`` and ``departure`` from the
    paper's protocol (empty: none). ``note`` is the domain's (what was measured)."""
    target = targets_module.target(paper, artefact, row, column)
    our_value, low, high = _number(our_value), _number(low), _number(high)
    n = None if _missing(_number(n)) else int(n)
    unit_cpu_s = None if _missing(_number(unit_cpu_s)) else float(unit_cpu_s)
    low = None if _missing(low) else float(low)
    high = None if _missing(high) else float(high)
    judged = judge(target, Measured(our_value, low, high, n, scale, departure, unit_cpu_s))
    return PaperRow(paper, artefact, row, column, target["kind"], target["value"], our_value,
                    low, high, n, target["min_n"], target["margin"], scale, departure,
                    unit_cpu_s, judged.verdict, judged.why, judged.settle_n, judged.settle_cpu_h,
                    note)


def protocol_config(cfg, config):
    """The configuration whose protocol constants the ``config`` targets judge: at ``paper``
    scale the run's own, so an override (``-p board_size 9``) shows as a departure from the
    paper's protocol; at smoke and default scale the ``paper`` scale's (``config("paper")``),
    which is what those rows are about."""
    return cfg if cfg.scale == "paper" else config("paper")


def config_rows(paper: str, ours: dict, scale: str) -> list[PaperRow]:
    """One ``config`` row per protocol constant: ``ours`` maps ``(artefact, row, column)`` to
    our value at ``paper`` scale (``experiments.config("paper")``, or a constant of the code
    that stands for it); every ``config`` target of ``paper`` not in ``ours`` is a
    ``KeyError`` (a constant left unchecked)."""
    wanted = targets_module.load(paper)
    wanted = wanted[wanted.kind == "config"]
    keys = list(zip(wanted.artefact, wanted.row, wanted.column))
    missing = [k for k in keys if k not in ours]
    if missing:
        raise KeyError(f"{paper}: no value of ours for the config targets {missing}")
    return [paper_row(paper, *key, ours[key], scale=scale) for key in keys]


def paper_table(rows: Iterable[PaperRow]) -> pd.DataFrame:
    """The rows as a DataFrame with exactly :data:`COLUMNS`, in that order (empty: no rows);
    ``ValueError`` when a target appears twice (one row per target: pool repetitions)."""
    records = [asdict(r) for r in rows]
    keys = [(r["paper"], r["artefact"], r["row"], r["column"]) for r in records]
    twice = {k for k in keys if keys.count(k) > 1}
    if twice:
        raise ValueError(f"a target compared twice (pool its repetitions): {sorted(twice)}")
    frame = pd.DataFrame.from_records(records, columns=list(COLUMNS))
    for key in _INTS:  # counts stay integers beside missing values (written 4, not 4.0)
        frame[key] = frame[key].astype("Int64")
    return frame


# -- reading and judging again -------------------------------------------------------------
_INTS = ("n", "min_n", "settle_n")
_FLOATS = ("low", "high", "unit_cpu_s", "settle_cpu_h")


def _cell(text: str, kind: str = ""):
    if text == "":
        return None
    if kind == "claim":
        return text
    return targets_module._parse(text)


def read_table(path) -> list[dict]:
    """A ``paper_vs_run.csv`` as written by :func:`paper_table`, one dict per row with the
    types it was written with (``ValueError`` naming the file for other columns)."""
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    if tuple(frame.columns) != COLUMNS:
        raise ValueError(f"{path}: columns must be {', '.join(COLUMNS)}, got "
                         f"{', '.join(frame.columns)}")
    records = []
    for raw in frame.to_dict("records"):
        record = dict(raw)
        for key in _INTS:
            record[key] = None if raw[key] == "" else int(float(raw[key]))
        for key in _FLOATS:
            record[key] = None if raw[key] == "" else float(raw[key])
        record["paper_value"] = _cell(raw["paper_value"])
        record["our_value"] = _cell(raw["our_value"], raw["kind"])
        records.append(record)
    return records


def rejudge(record: dict, target: Mapping | None = None) -> Judgement:
    """:func:`judge` applied to a row's own fields, or with ``target``'s value, kind, margin
    and minimum (today's targets file) in place of the row's."""
    source = target or {"kind": record["kind"], "value": record["paper_value"],
                        "margin": record["margin"], "min_n": record["min_n"], "sample": ""}
    return judge(source, Measured(record["our_value"], record["low"], record["high"],
                                  record["n"], record["scale"], record["departure"] or "",
                                  record["unit_cpu_s"]))
