"""The paper's numbers and claims judged from a committed record's tables (:func:`record_rows`,
which ``mctslab scorecard --records`` calls): the rows :mod:`mctslab.manyfaces.verdicts` judges
for a new run (:func:`mctslab.manyfaces.tables.paper_vs_run`), at the protocol of the record's
scale (:func:`mctslab.manyfaces.experiments.config`), judged by today's targets.
"""

from __future__ import annotations

from mctslab.core.compare import PaperRow
from mctslab.manyfaces import experiments
from mctslab.manyfaces.verdicts import enclosed_row, joseki_rows, knowledge_row, matcher_rows

__all__ = ["record_rows"]


def record_rows(read) -> list[tuple[str, PaperRow]]:
    """The rows of :mod:`mctslab.manyfaces.verdicts` from a committed record's tables
    (``read(stem)``: its ``<stem>.csv`` as a DataFrame, ``None`` when absent), judged by today's
    targets; ``""`` marks ours, a name the reading. The record's strength games are taken at
    its scale's board size (the record keeps no board size in its tables)."""
    table = read("paper_vs_run")
    scale = str(table.scale.iloc[0]) if table is not None and len(table) else "paper"
    rows = [("", row) for row in matcher_rows(read("pattern_cost_chain"), scale)]
    rows += joseki_rows(read("joseki_dag"), scale)
    rows.append(("", enclosed_row(read("enclosed_field"), scale)))
    rows.append(("", knowledge_row(read("strength"), scale,
                                   experiments.config(scale).strength_size)))
    return rows
