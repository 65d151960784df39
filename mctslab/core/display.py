"""How a notebook shows its tables and its configuration to a reader.

An executed notebook and its HTML report (``reports/<notebook>.html``) read like a paper's
supplement: tables without pandas' bare 0..n-1 index, each with its caption and the CSV file it
was saved as, and the configuration as a short table of what differs from the paper's protocol
rather than a dataclass repr.

- :class:`ShownTable`: a DataFrame that displays without its index, with a caption
  (:meth:`mctslab.core.report.Run.table` returns one, so ``table2 = run.table(...)`` is still a
  DataFrame for the figures, and a cell ending in it shows the table);
- :func:`config_table`: the run's parameters that differ from ``experiments.config("paper")``,
  its scale first.
"""

from __future__ import annotations

import dataclasses
import html

import pandas as pd

__all__ = ["ShownTable", "shown", "config_table", "short_value"]

MAX_ROWS = 60  # rows shown before the middle is elided (pandas' display.max_rows default)


class ShownTable(pd.DataFrame):
    """A table as a notebook shows it: no index column, its caption underneath.

    Everything computed from it (a slice, a copy, a sum) is a plain DataFrame again."""

    _metadata = ["caption"]

    @property
    def _constructor(self):
        return pd.DataFrame

    def _plain(self) -> pd.DataFrame:
        """The data, with ``None`` in text columns shown blank like NaN."""
        frame = pd.DataFrame(self).copy()
        for position, dtype in enumerate(frame.dtypes):
            if pd.api.types.is_object_dtype(dtype):
                column = frame.iloc[:, position]
                frame.iloc[:, position] = column.where(column.notna(), "")
        return frame

    def _repr_html_(self) -> str:
        frame = self._plain()
        body = frame.to_html(index=False, na_rep="", border=0, max_rows=MAX_ROWS,
                             show_dimensions=len(frame) > MAX_ROWS)
        caption = getattr(self, "caption", None)
        if not caption:
            return body
        return f"{body}\n<p><em>{html.escape(caption)}</em></p>"

    def __repr__(self) -> str:
        text = self._plain().to_string(index=False, na_rep="", max_rows=MAX_ROWS)
        caption = getattr(self, "caption", None)
        return f"{text}\n{caption}" if caption else text


def shown(df: pd.DataFrame, caption: str | None = None) -> ShownTable:
    """``df`` as a :class:`ShownTable` (same data), captioned."""
    table = ShownTable(df)
    table.caption = caption
    return table


def short_value(value, width: int = 60) -> str:
    """A parameter value in at most ``width`` characters: a long sequence says how many items
    it has and shows the first ones."""
    if isinstance(value, (tuple, list)):
        inner = ", ".join(short_value(v, width) for v in value)
        text = f"[{inner}]"
        if len(text) > width:
            head = text[: width - 20].rsplit(",", 1)[0]
            text = f"{len(value)} items: {head.lstrip('[')}, ..."
        return text
    if isinstance(value, float):
        return f"{value:g}"
    text = str(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def config_table(experiments, cfg) -> ShownTable:
    """This run's parameters that differ from the paper's protocol, the scale first.

    ``experiments`` is the domain's module (its ``config("paper")`` is the paper's protocol as
    we run it); ``cfg`` this run's configuration. Columns: parameter, this run, paper scale."""
    paper = experiments.config("paper")
    rows = [("scale", cfg.scale, "paper")]
    same = 0
    for field in dataclasses.fields(cfg):
        if field.name == "scale":
            continue
        ours, theirs = getattr(cfg, field.name), getattr(paper, field.name)
        if ours == theirs:
            same += 1
            continue
        rows.append((field.name, short_value(ours), short_value(theirs)))
    caption = (f"this run's parameters that differ from the paper scale ({len(rows) - 1}); "
               f"the other {same} are as at paper scale")
    return shown(pd.DataFrame(rows, columns=["parameter", "this run", "paper scale"]), caption)
