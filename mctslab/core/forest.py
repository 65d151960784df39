"""The scorecard's forest plot: one paper's outcome rows, ours against the paper's.

Each judged outcome row with a number (:func:`points`) is one line of the plot, on one axis
for every row: **our value divided by the paper's**, on a log scale, so that a win rate of
0.74 against 0.75 and a count of 547,915 against 16,399 share it. The grey bar is the paper's
value +- the target's margin (:func:`mctslab.core.targets.margin_bounds`), divided likewise;
ours is a dot, with its 95% interval as a line where the row has one (a row without one, an
``exact`` number, is a dot alone), coloured by the card's verdict. A value the axis cannot
show (0, below or above its ends, an infinite interval end) sits at the axis's end as an
arrow head; a row whose paper value is 0 or negative has no ratio and is written as text on
its line. The numbers themselves are written right of the plot. Claims are not plotted (the
page lists them).

:func:`forest_svg` draws it as SVG text, for the page to embed: the same rows give the same
bytes (no date, fixed ids), and nothing is written to disk.
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass

import pandas as pd
from matplotlib import ticker

from mctslab.core import targets as targets_module
from mctslab.core.compare import DIFFERS, INCONCLUSIVE, REPRODUCED
from mctslab.core.plotting import plt
from mctslab.core.scorecard import UNINFORMATIVE

__all__ = ["PLOTTED", "COLOURS", "Point", "points", "number", "short", "forest_svg"]

PLOTTED = (REPRODUCED, UNINFORMATIVE, DIFFERS, INCONCLUSIVE)
COLOURS = {REPRODUCED: "#1a7f37", UNINFORMATIVE: "#8c6d1f", DIFFERS: "#cf222e",
           INCONCLUSIVE: "#d4760a"}
AXIS_ENDS = (1e-4, 1e4)   # the widest the ratio axis gets; beyond, an arrow head at the end
ROW_INCHES = 0.27
LABEL_CHARS = 60
WIDTH_INCHES = 11.5
FONT = 9


@dataclass(frozen=True)
class Point:
    """One plotted row: its label, verdict, our value, interval and the paper's band as
    ratios to the paper's value (``None``: absent; ``ratio`` ``None`` with ``text``: a row
    with no ratio), and the numbers written beside it."""

    label: str
    verdict: str
    ratio: float | None
    low: float | None
    high: float | None
    band: tuple[float, float] | None
    numbers: str
    text: str = ""


def number(value) -> float | None:
    """``value`` as a float, or ``None`` (text, blank, NaN)."""
    if value is None or isinstance(value, bool):
        return None
    try:
        found = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(found) else found


def short(value: float | None) -> str:
    """A number in at most about 5 characters: 0.741, 8.75, 2,338, 16.4k, 1.17M."""
    if value is None:
        return "?"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    size = abs(value)
    if size >= 1e6:
        return f"{value / 1e6:.3g}M"
    if size >= 1e4:
        return f"{value / 1e3:.3g}k"
    if size >= 1000:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def _label(record: dict) -> str:
    text = f"{record['artefact']} · {record['row']} · {record['column']}"
    text = re.sub(r"`([^`]*)`", r"\1", text)
    return text if len(text) <= LABEL_CHARS else text[:LABEL_CHARS - 1] + "…"


def _band(paper: float, margin) -> tuple[float, float] | None:
    if margin is None or (isinstance(margin, float) and math.isnan(margin)) or margin == "":
        return None
    try:
        return targets_module.margin_bounds(paper, str(margin))
    except ValueError:
        return None


def _numbers(ours: float, low: float | None, high: float | None, paper: float,
             margin, band) -> str:
    text = f"ours {short(ours)}"
    if low is not None and high is not None:
        text += f" [{short(low)}, {short(high)}]"
    text += f" · paper {short(paper)}"
    if band is not None:
        text += f" (margin {margin})" if str(margin).startswith("x") else f" ± {margin}"
    return text


def points(rows: pd.DataFrame) -> list[Point]:
    """The plotted rows of one paper's card rows, in their order: outcome rows judged
    (:data:`PLOTTED`) whose paper value and our value are numbers (claims are text). A row
    whose paper value is 0 is divided by its margin instead (its band is then -1..1); one
    with a negative paper value, or 0 and no margin, is written as text."""
    found = []
    for record in rows.to_dict("records"):
        paper, ours = number(record.get("paper_value")), number(record.get("our_value"))
        if record.get("ledger") != "outcome" or record["verdict"] not in PLOTTED \
                or paper is None or ours is None:
            continue
        low, high = number(record.get("low")), number(record.get("high"))
        band = _band(paper, record.get("margin"))
        numbers = _numbers(ours, low, high, paper, record.get("margin"), band)
        scale = paper if paper > 0 else band[1] if paper == 0 and band and band[1] > 0 \
            else None
        if scale is None:
            found.append(Point(_label(record), record["verdict"], None, None, None, None,
                               numbers, "no ratio to the paper's value"))
            continue
        if paper == 0:
            numbers += " (÷ margin)"
        found.append(Point(
            _label(record), record["verdict"], ours / scale,
            None if low is None else low / scale, None if high is None else high / scale,
            None if band is None else (band[0] / scale, band[1] / scale), numbers))
    return found


def _limits(found: list[Point]) -> tuple[float, float]:
    values = [v for p in found for v in (p.ratio, p.low, p.high, *(p.band or ()))
              if v is not None and 0 < v < math.inf]
    low = min([0.5, *values]) / 1.6
    high = max([2.0, *values]) * 1.6
    return max(low, AXIS_ENDS[0]), min(high, AXIS_ENDS[1])


def _draw_row(ax, y: float, point: Point, limits: tuple[float, float]) -> None:
    """One row: the paper's band, our interval and our value (an arrow head at an end)."""
    lo_end, hi_end = limits
    colour = COLOURS[point.verdict]
    if point.ratio is None:
        ax.text(1.0, y, point.text, ha="center", va="center", color=colour,
                style="italic")
        return
    if point.band is not None:
        left, right = max(point.band[0], lo_end), min(point.band[1], hi_end)
        if right > left:
            ax.barh(y, right - left, left=left, height=0.62, color="#d0d7de", zorder=1)
        else:
            ax.plot([point.band[0]] * 2, [y - 0.31, y + 0.31], color="#8c959f", lw=1.5,
                    zorder=1)
    if point.low is not None and point.high is not None:
        left, right = max(point.low, lo_end), min(point.high, hi_end)
        ax.plot([left, right], [y, y], color=colour, lw=1.6, zorder=2, solid_capstyle="butt")
        for end, clipped, marker in ((left, point.low <= lo_end, "<"),
                                     (right, point.high >= hi_end, ">")):
            if clipped:
                ax.plot(end, y, marker=marker, color=colour, ms=6, zorder=3, clip_on=False)
    value = min(max(point.ratio, lo_end), hi_end)
    off = point.ratio <= lo_end or point.ratio >= hi_end
    marker = ("<" if point.ratio <= lo_end else ">") if off else "o"
    ax.plot(value, y, marker=marker, color=colour, ms=6.5, zorder=4, clip_on=False,
            markeredgecolor="white", markeredgewidth=0.6)


def _ratio_label(value: float, _position=None) -> str:
    """A tick of the ratio axis: ×1/1000, ×1/2, ×1, ×5, ×100."""
    if value >= 1:
        return f"×{value:,.0f}" if value == round(value) else f"×{value:g}"
    inverse = 1 / value
    return f"×1/{inverse:,.0f}" if abs(inverse - round(inverse)) < 1e-6 else f"×{value:g}"


def forest_svg(rows: pd.DataFrame) -> str | None:
    """The forest plot of one paper's card rows as SVG text (``None``: no row to plot)."""
    found = points(rows)
    if not found:
        return None
    style = {"svg.fonttype": "none", "svg.hashsalt": "mctslab-scorecard",
             "font.family": "DejaVu Sans", "font.size": FONT}
    height = 1.05 + ROW_INCHES * len(found)
    with plt.rc_context(style):
        fig, ax = plt.subplots(figsize=(WIDTH_INCHES, height))
        try:
            fig.subplots_adjust(left=0.35, right=0.71, top=1 - 0.5 / height,
                                bottom=0.55 / height)
            _axes(ax, found, _limits(found))
            buffer = io.StringIO()
            fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
        finally:
            plt.close(fig)
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def _axes(ax, found: list[Point], limits: tuple[float, float]) -> None:
    """Rows top to bottom (every other one shaded, a line where the artefact changes), the
    log ratio axis, the numbers at the right, the legend above."""
    ax.set_xscale("log")
    ax.set_xlim(*limits)
    ax.set_ylim(len(found) - 0.5, -0.5)
    narrow = limits[1] / limits[0] < 200
    ax.xaxis.set_major_locator(ticker.LogLocator(base=10, subs=(1, 2, 5) if narrow else (1,)))
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(_ratio_label))
    ax.xaxis.set_minor_formatter(ticker.NullFormatter())
    ax.axvline(1.0, color="#57606a", lw=0.9, ls="--", zorder=0)
    for y, point in enumerate(found):
        if y % 2:
            ax.axhspan(y - 0.5, y + 0.5, color="#f6f8fa", zorder=0, lw=0)
        if y and point.label.split(" · ")[0] != found[y - 1].label.split(" · ")[0]:
            ax.axhline(y - 0.5, color="#8c959f", lw=0.6, zorder=0)
        _draw_row(ax, y, point, limits)
        ax.annotate(point.numbers, (1.01, y), xycoords=("axes fraction", "data"),
                    va="center", fontsize=FONT - 1, color="#24292f")
    ax.set_yticks(range(len(found)), [p.label for p in found])
    ax.tick_params(axis="y", length=0, pad=9)  # room for an arrow head at the left end
    ax.grid(axis="x", which="major", color="#d8dee4", lw=0.6, zorder=0)
    ax.set_axisbelow(True)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    ax.set_xlabel("our value ÷ the paper's (log scale; ×1: the paper's value)")
    verdicts = [v for v in PLOTTED if any(p.verdict == v for p in found)]
    handles = [plt.Line2D([], [], color=COLOURS[v], marker="o", lw=1.8, label=v)
               for v in verdicts]
    handles.append(plt.Rectangle((0, 0), 1, 1, color="#d0d7de",
                                 label="the paper's value ± its margin"))
    ax.legend(handles=handles, loc="lower left", bbox_to_anchor=(0, 1.0), ncol=len(handles),
              frameon=False, handlelength=1.8, borderaxespad=0.3)
