"""What may differ between two runs with the same seed: the one declaration.

Same seed, same scale, same code: every table is byte-identical, except the columns declared
here. They are of two kinds:

- ``timing``: a measured time, or a rate or share computed from one (CPU seconds, games per
  second, milliseconds per move). The numbers the paper compares do not depend on them.
- ``time-budgeted``: results of a search whose budget is wall time (the TSP paper gives MCTS and
  SA-2opt the time SA took), so the lengths themselves depend on the machine and its load.

:meth:`mctslab.core.report.Run.table` appends the declaration to the table's caption and records
it in the manifest (``varies``); ``tests/notebooks`` runs every notebook twice from empty stores
and checks that nothing else differs; the README's "Same seed, same tables" lists this table.
Every measurement is a stored task (the Many Faces cost chain and time shares too:
:mod:`mctslab.manyfaces.measures`), and the tables' rates are computed from the stored times, so
a re-run served from the result store repeats every number exactly, timings included; the
columns declared here differ only between runs that compute their tasks afresh.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Varies", "VARIES", "declared", "caption_note"]

ALL = ("*",)  # every column of the table


@dataclass(frozen=True)
class Varies:
    """Columns of one table that vary between runs, and why; ``rows`` limits it to the rows
    whose ``row_column`` (default: the first column) starts with one of these texts."""

    columns: tuple[str, ...]
    kind: str  # "timing" | "time-budgeted"
    why: str
    rows: tuple[str, ...] = ()
    row_column: str = ""


_TSP_BUDGET = ("MCTS and SA-2opt run for the wall time SA took on the same instance (the "
               "paper's protocol), and the quality-versus-time profiles for fixed seconds")

# (notebook, table stem) -> what varies
VARIES: dict[tuple[str, str], Varies] = {
    ("othello_wpc_de", "run_summary"): Varies(
        ("task_seconds", "games_per_second"), "timing", "the learning task's wall time"),
    ("sudoku_less_clue", "table1_variants"): Varies(
        ("CPU s/run", "playouts/s"), "timing", "CPU time of each generation run"),
    ("sudoku_less_clue", "table2_parameters"): Varies(
        ("CPU s/run",), "timing", "CPU time of each generation run"),
    ("sudoku_less_clue", "yield_per_cpu_hour"): Varies(
        ("CPU hours", "N=17 /CPU-h", "N=18 /CPU-h", "N=19 /CPU-h", "reduced N=17 /CPU-h",
         "reduced N=18 /CPU-h", "reduced N=19 /CPU-h"), "timing",
        "finds per CPU hour divide by the runs' CPU time"),
    ("sudoku_less_clue", "baselines"): Varies(
        ("runs/s",), "timing", "CPU time of the removal runs"),
    ("manyfaces_knowledge", "pattern_cost_chain"): Varies(
        ("ours_ms",), "timing", "wall time of each matcher stage, measured in each cost task"),
    ("manyfaces_knowledge", "time_shares"): Varies(
        ("seconds", "share_pct", "ms_per_move"), "timing",
        "wall time of each component, measured in each replay task"),
    ("manyfaces_knowledge", "summary"): Varies(
        ("this run",), "timing", "the shares of run time come from the time_shares table",
        rows=("share of time",)),
    ("manyfaces_knowledge", "paper_vs_run"): Varies(
        ("our_value", "low", "high", "verdict"), "timing",
        "the shares of run time come from the time_shares table", rows=("Time shares",),
        row_column="artefact"),
    ("tsp_mcts_vs_sa", "paper_vs_run"): Varies(
        ("our_value", "low", "high", "verdict", "why", "settle_n", "settle_cpu_h",
         "unit_cpu_s"), "time-budgeted", _TSP_BUDGET),
    **{(notebook, "paper_vs_run"): Varies(
        ("unit_cpu_s", "settle_cpu_h"), "timing",
        f"CPU seconds per {unit}, and what an open row's settling sample costs at them")
       for notebook, unit in (("sudoku_less_clue", "run"), ("go_state_tabu", "game"),
                              ("othello_wpc_de", "replacement or learning run"))},
    ("go_state_tabu", "fig6_thinking_time"): Varies(
        ("ours s/game", "GNU Go s/game", "difference s/game", "ours s/move",
         "CPU s/game, both sides"), "timing", "thinking time per game and per move"),
    ("go_state_tabu", "table4_candidates"): Varies(
        ("s per search",), "timing", "the seconds of one Table 4 search"),
    ("go_state_tabu", "protocol_cost"): Varies(
        ("CPU s/game (measured)", "CPU hours", "wall hours on 64 workers",
         "CPU hours for two such engines"), "timing",
        "the protocol's cost is extrapolated from this run's CPU time per game"),
    **{("tsp_mcts_vs_sa", stem): Varies(ALL, "time-budgeted", _TSP_BUDGET) for stem in (
        "fig8_mean_ratio_to_sa", "ineffective_sa_reference", "time_to_reach_sa",
        "time_to_reach_sa_uncapped", "fig9_mean_ratio_to_sa", "baselines_gap_to_optimum",
        "per_instance", "anytime_points")},
}


def declared(notebook: str, stem: str) -> Varies | None:
    return VARIES.get((notebook, stem))


def caption_note(varies: Varies) -> str:
    """The sentence a varying table's caption ends with."""
    columns = "every column" if varies.columns == ALL else (
        "columns " + ", ".join(f"'{c}'" for c in varies.columns))
    rows = (f" (rows whose {varies.row_column or 'first column'} starts with "
            f"{', '.join(repr(r) for r in varies.rows)})" if varies.rows else "")
    return (f"{'Timing' if varies.kind == 'timing' else 'Time-budgeted'} table: {columns}{rows} "
            f"vary from run to run ({varies.why}); the rest repeats exactly with the same seed.")
