"""The paper's numbers and claims judged from the notebook's tables: the rows of
:func:`mctslab.manyfaces.tables.paper_vs_run` for a new run, and the same rows of a committed
record (:func:`mctslab.manyfaces.claims.record_rows`, ``mctslab scorecard --records``).

- The matcher's cost chain ("Pattern database and matcher"): the naive and the final operation
  counts, and each speed-up on its own: the 8-bit hash's share of the patterns tried (the
  paper's 1/20), the points re-matched near the last move (361 -> 50), the operations per
  comparison with the word-wise early exit (6), from ``pattern_cost_chain`` (whose stages,
  with the paper's figures, are :data:`PAPER_COST`).
- The joseki encoding's bytes per move ("Joseki database"), ours and under the reading
  ``untyped-joseki`` (``mctslab/manyfaces/readings.csv``), from ``joseki_dag``.
- The 1/d field "constant inside a completely enclosed area, however large" (Structures,
  influence), over the whole area, from ``enclosed_field``.
- The introduction's and the conclusion's claim, a knowledge-intensive approach rather than a
  large search, from the ``strength`` games.

Each criterion is the target's (``mctslab/manyfaces/targets.csv``), stated there before judging;
the functions here only measure and say what the criterion reads (``constant``; ``holds`` /
``fails`` / ``undecided``). Pure: tables in, rows out (no files, no kernels, no experiments).
"""

from __future__ import annotations

import pandas as pd

from mctslab.core import targets
from mctslab.core.compare import PaperRow, paper_row
from mctslab.manyfaces.knowledge import ENCLOSED_CENTRE_LIMIT

__all__ = ["NAME", "UNTYPED", "SPREAD", "PAPER_BOARD", "PAPER_COST", "paper_value",
           "matcher_rows", "joseki_rows", "enclosed_row", "knowledge_row"]

NAME = "manyfaces_knowledge"
UNTYPED = "untyped-joseki"  # the reading of mctslab/manyfaces/readings.csv
# the enclosed-field claim's tolerance, highest / lowest interior value at every side (the
# target's criterion)
SPREAD = 1.25
PAPER_BOARD = 19        # the board the paper's argument for knowledge over search is about
WINDOWS_PER_POINT = 16  # 8 orientations x 2 colours
MATCHER = "Pattern matcher"
_BENCH = "docs/bench/manyfaces.md#"
CHAIN = _BENCH + "matcher-cost-chain-100-positions-at-move-100-then-incremental-updates"
STEPS = _BENCH + "the-papers-speed-ups-in-the-records-chain"
ARITHMETIC = _BENCH + "the-papers-5000000-comparisons"
JOSEKI = _BENCH + "joseki-dag"
ENCLOSED = _BENCH + "the-enclosed-area-field-over-the-whole-area"
GAMES = _BENCH + "games-the-knowledge-player-against-search"
TYPED_BYTES = "bytes per move (SGF moves)"
UNTYPED_BYTES = "bytes per move, edge types dropped (the paper's form)"


def paper_value(artefact: str, row: str, column: str):
    """The paper's number (or statement) of a target of ``mctslab/manyfaces/targets.csv``."""
    return targets.value(NAME, artefact, row, column)


# the paper's naive match compares this many operations' worth per pattern and window (the
# unit of its "32 bits at a time" target: "48 without" the early exit)
NAIVE_OPS_PER_COMPARISON = paper_value(MATCHER, "naive match, per board",
                                       "operations per comparison")


def _paper_cost() -> tuple:
    """The paper's chain, one stage per row of ``pattern_cost_chain`` (the stages of
    :data:`mctslab.manyfaces.measures.COST_STAGES`): (stage, patterns tried per window,
    points, operations per board), the paper's figures read from its targets."""
    patterns = paper_value(MATCHER, "naive match, per board", "patterns")
    share = paper_value(MATCHER, "8-bit hash prefilter", "share of patterns tried")
    near = paper_value(MATCHER, "re-match near the last move", "points matched")
    per_comparison = paper_value(MATCHER, "32 bits at a time with early exit",
                                 "operations per comparison")
    board = PAPER_BOARD * PAPER_BOARD
    hashed = f"~{round(patterns * share)} x {WINDOWS_PER_POINT}"
    return (
        (f"naive: {patterns} patterns x {board} points x {WINDOWS_PER_POINT} transformations x "
         f"{NAIVE_OPS_PER_COMPARISON} ops", f"{patterns} x {WINDOWS_PER_POINT}", board,
         paper_value(MATCHER, "naive match, per board", "operations")),
        (f"+ 8-bit hash prefilter (~1/{round(1 / share)} of the patterns)", hashed, board, None),
        (f"+ re-match near the last move only (~{near} points)", hashed, near, None),
        (f"+ 32 bits at a time with early exit (~{per_comparison} ops)", hashed, near,
         paper_value(MATCHER, "every speed-up, per incremental update", "operations")))


PAPER_COST = _paper_cost()


def matcher_rows(cost: pd.DataFrame | None, scale: str) -> list[PaperRow]:
    """The matcher's rows from the cost chain (:func:`mctslab.manyfaces.tables.cost_chain_table`:
    one row per stage of :data:`PAPER_COST`, means per full board or per incremental update)."""
    naive, hashed, near, last = (label for label, *_ in PAPER_COST)
    rows = [paper_row(NAME, MATCHER, "naive match, per board", "comparisons", None,
                      scale=scale, note=f"the paper's own arithmetic, not a run: {ARITHMETIC}")]
    if cost is None or not len(cost):
        for where, column in (("naive match, per board", "operations"),
                              ("every speed-up, per incremental update", "operations"),
                              ("8-bit hash prefilter", "share of patterns tried"),
                              ("re-match near the last move", "points matched"),
                              ("32 bits at a time with early exit", "operations per comparison")):
            rows.append(paper_row(NAME, MATCHER, where, column, None, scale=scale))
        return rows
    stage = cost.set_index("stage")

    def at(label: str, column: str) -> float:
        return float(stage.loc[label, column])

    def over(label: str) -> int:
        return int(stage.loc[label, "measured_over"])

    for label, where in ((naive, "naive match, per board"),
                         (last, "every speed-up, per incremental update")):
        rows.append(paper_row(NAME, MATCHER, where, "operations", at(label, "ours_ops"),
                              n=over(label), scale=scale,
                              note=f"mean over {over(label)} positions or updates; the chain: "
                                   f"{CHAIN}"))
    tried, all_tried = at(hashed, "ours_candidates"), at(naive, "ours_candidates")
    compared = at(hashed, "ours_comparisons") / at(naive, "ours_comparisons")
    rows.append(paper_row(
        NAME, MATCHER, "8-bit hash prefilter", "share of patterns tried", tried / all_tried,
        n=over(hashed), scale=scale,
        note=f"{tried:,.0f} of {all_tried:,.0f} (pattern, window) candidates per board, 1/"
             f"{all_tried / tried:.1f}; mask comparisons {compared:.3f} of the naive stage's: "
             f"{STEPS}"))
    windows = at(near, "ours_windows")
    rows.append(paper_row(
        NAME, MATCHER, "re-match near the last move", "points matched",
        windows / WINDOWS_PER_POINT, n=over(near), scale=scale,
        note=f"{windows:,.1f} windows per update / {WINDOWS_PER_POINT} (a full board: "
             f"{at(naive, 'ours_windows') / WINDOWS_PER_POINT:.0f} points): {STEPS}"))
    rows.append(paper_row(
        NAME, MATCHER, "32 bits at a time with early exit", "operations per comparison",
        at(last, "ours_ops_per_comparison"), n=over(last), scale=scale,
        note=f"every operation of an update over its {at(last, 'ours_comparisons'):,.0f} mask "
             f"comparisons ({at(near, 'ours_ops_per_comparison'):.1f} without the early exit): "
             f"{STEPS}"))
    return rows


def joseki_rows(joseki: pd.DataFrame | None, scale: str) -> list[tuple[str, PaperRow]]:
    """The bytes per move of the joseki encoding (:func:`mctslab.manyfaces.tables.joseki_table`):
    ours (edge types encoded), and under the reading ``untyped-joseki`` (every edge standard)
    where the table has it."""
    where = ("Joseki", "compressed DAG", "bytes per move")
    ours = None if joseki is None else joseki.set_index("quantity")["ours"]
    if ours is None or TYPED_BYTES not in ours:
        return [("", paper_row(NAME, *where, None, scale=scale))]
    rows = [("", paper_row(NAME, *where, float(ours[TYPED_BYTES]), scale=scale,
                           note=f"GNU Go's seven joseki trees, edge types encoded: {JOSEKI}"))]
    if UNTYPED_BYTES in ours:
        rows.append((UNTYPED, paper_row(NAME, *where, float(ours[UNTYPED_BYTES]), scale=scale,
                                        note=f"every edge standard: {JOSEKI}")))
    return rows


def enclosed_row(enclosed: pd.DataFrame | None, scale: str) -> PaperRow:
    """"A 1/d field is constant inside a completely enclosed area, however large": ours is
    ``constant`` when the highest interior value is at most :data:`SPREAD` times the lowest at
    every side of :func:`mctslab.manyfaces.tables.enclosed_table`, else ``not constant``."""
    where = ("Influence", "1/d field inside an enclosed area", "constant")
    if enclosed is None or not len(enclosed):
        return paper_row(NAME, *where, None, scale=scale)
    field = enclosed.set_index("side")
    ratio = field.max_1_over_d / field.min_1_over_d
    over = ratio[ratio > SPREAD]
    small, large = int(ratio.index[0]), int(ratio.index[-1])
    note = (f"highest / lowest interior value {ratio[small]:.2f} at side {small} to "
            f"{ratio[large]:.2f} at side {large}"
            + (f", above {SPREAD} from side {int(over.index[0])}" if len(over) else
               f", at most {SPREAD} at every side")
            + f"; 1/d centre (lowest) {field.min_1_over_d[small]:.2f} -> "
            f"{field.min_1_over_d[large]:.2f} (limit 8 ln 2 = {ENCLOSED_CENTRE_LIMIT:.3f}), next to "
            f"the wall (highest) {field.max_1_over_d[small]:.2f} -> "
            f"{field.max_1_over_d[large]:.2f}: {ENCLOSED}")
    value = "not constant" if len(over) else "constant"
    return paper_row(NAME, *where, value, n=len(field), scale=scale, note=note)


def _pairing(strength: pd.DataFrame, candidate: str, opponent: str):
    """The first row whose candidate is ``candidate`` and whose opponent's name starts with
    ``opponent`` (``mcts`` is the engine without the prior, ``gnugo`` GNU Go at any level)."""
    found = strength[strength.candidate.astype(str).eq(candidate)
                     & strength.opponent.astype(str).str.startswith(opponent)]
    return None if found.empty else found.iloc[0]


def knowledge_row(strength: pd.DataFrame | None, scale: str, board_size: int) -> PaperRow:
    """"A knowledge-intensive approach is needed, not a large search": our knowledge player
    against our knowledge-free MCTS engine in the ``strength`` games
    (:func:`mctslab.manyfaces.experiments.run_strength`); games on a board other than 19x19
    are a departure."""
    where = ("Introduction and conclusion", "a knowledge-intensive approach, not a large search",
             "knowledge player against a search engine")
    games = (None if strength is None or "candidate" not in strength
             else _pairing(strength, "knowledge", "mcts"))
    if games is None:
        return paper_row(NAME, *where, None, scale=scale)
    low, high = float(games.ci_low), float(games.ci_high)
    state = "holds" if low > 0.5 else "fails" if high < 0.5 else "undecided"
    value = (f"{state}: {int(games.wins)}/{int(games.games)} = {float(games.rate):.2f} "
             f"[{low:.3f}, {high:.3f}] against {games.opponent}")
    departure = ("" if board_size == PAPER_BOARD else
                 f"{board_size}x{board_size} games: the paper's argument is about the 19x19 "
                 "board, whose size makes a large search impractical")
    search = _pairing(strength, str(games.opponent), "gnugo")
    note = GAMES if search is None else (
        f"the same search engine against GNU Go (a knowledge-based program) "
        f"{int(search.wins)}/{int(search.games)}: {GAMES}")
    return paper_row(NAME, *where, value, n=int(games.games), departure=departure, scale=scale,
                     note=note)
