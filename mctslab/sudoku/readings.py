"""Readings of what the paper (Nasu & Matsuzaki) leaves open in the MCTS generator.

Each option lists its choices, the first being the default: our original reading, the one
every stored result was computed with (task parameters name an option only when it differs
from its default, so those task ids are unchanged). What each choice does is documented on
:class:`~mctslab.sudoku.generator.GeneratorConfig`; measurements in ``docs/bench/sudoku.md``.
Pure Python (no numba), so the command line can list the choices without compiling anything.
"""

from __future__ import annotations

TERMINALS = ("skip", "revisit", "expand")     # _search.TERMINAL_*
REDUCING_COUNTS = ("exclusion", "rules")      # _playout.COUNT_*
MIN_OF = ("playouts", "children")             # _search.MIN_OF_*
CHILD_DRAWS = ("fill", "fixed")               # _search.CHILD_DRAWS_*
EXHAUSTED = ("keep", "drop")                  # _search.EXHAUSTED_*
BUDGETS = ("iterations", "playouts")          # _search.BUDGET_*
VALUES = ("clues", "filled")                  # _search.VALUE_*

READINGS = {"terminal": TERMINALS, "reducing_count": REDUCING_COUNTS, "min_of": MIN_OF,
            "child_draws": CHILD_DRAWS, "exhausted": EXHAUSTED, "budget": BUDGETS,
            "value": VALUES}
# What a task's parameters name only when changed (``mctslab.core.params.non_default``).
READING_DEFAULTS = {name: choices[0] for name, choices in READINGS.items()}
# The options that change min selection only: a mean run is the same search under any of their
# choices (tested), so its task names none of them and is stored once for all.
MIN_ONLY = ("min_of", "exhausted")


def check_readings(values) -> None:
    """``ValueError`` naming the first option of ``values`` (an object with the option names
    as attributes) whose value is not one of its choices."""
    for name, choices in READINGS.items():
        value = getattr(values, name)
        if value not in choices:
            raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, "
                             f"got {value!r}")

