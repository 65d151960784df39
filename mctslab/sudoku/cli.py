"""``mctslab sudoku`` verbs: ``check`` (uniqueness of puzzles in a file) and ``generate`` (MCTS).

    mctslab sudoku check FILE [--backend fast|sat] [--sat-solver NAME]
    mctslab sudoku generate --selection min|mean --playout reducing|random --rules/--no-rules
                            --playouts N [--c C] [--threshold T] [--seed S] --puzzle-file FILE

``--puzzle-file`` names the file the puzzles are written to (``--out`` is an output folder in
every ``mctslab`` command).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from mctslab.core import cliargs
from mctslab.sudoku.readings import READINGS

__all__ = ["add_parser"]


def _cmd_check(args) -> int:
    from mctslab.sudoku.api import (  # imported by the verb: a fast --help
        STATUS_NAMES,
        make_solver,
        read_puzzles,
    )

    boards, numbers, errors = read_puzzles(args.file)
    for number, reason in errors:
        print(f"{args.file}:{number}: not a puzzle: {reason}", file=sys.stderr)
    counts = np.zeros(3, np.int64)
    start = time.perf_counter()
    solver = make_solver(args.backend, args.sat_solver)
    try:
        for number, board in zip(numbers, boards):
            status, _ = solver.check(board)
            counts[status] += 1
            print(f"{number}: {STATUS_NAMES[status]}")
    finally:
        solver.close()
    seconds = time.perf_counter() - start
    total = int(counts.sum())
    rate = counts[1] / total if total else 0.0
    speed = f", {total / seconds:,.0f} checks/s" if seconds > 0 and total else ""
    print(f"summary: {total} puzzles, unique {counts[1]} ({rate:.1%}), multiple {counts[2]}, "
          f"none {counts[0]}, not a puzzle {len(errors)} [backend {args.backend}{speed}]")
    return 1 if errors else 0


def _cmd_generate(args) -> int:
    from mctslab.sudoku.api import canonical_form, format_puzzle, parse_puzzle
    from mctslab.sudoku.generator import GeneratorConfig, generate

    readings = {name: getattr(args, name) for name in ("exploration_n", *READINGS)}
    if not 17 <= args.max_clues <= 81:
        raise ValueError(f"--max-clues must be in 17..81, got {args.max_clues}")
    keep = max(20, args.reduce_upto, args.max_clues)
    config = GeneratorConfig(selection=args.selection, playout=args.playout, rules=args.rules,
                             playouts=args.playouts, c=args.c, threshold=args.threshold,
                             record_max_clues=keep, verify_max_clues=keep,
                             reduce_max_clues=args.reduce_upto, **readings)
    result = generate(config, args.seed)
    changed = "".join(f", {k}={v}" for k, v in readings.items()
                      if v != GeneratorConfig.__dataclass_fields__[k].default)
    header = [f"# mctslab sudoku generate: {config.variant}, {config.playouts} playouts, "
              f"c={config.c}, threshold={config.threshold}, seed={args.seed}{changed}",
              f"# wall {result.wall_seconds:.1f} s, cpu {result.cpu_seconds:.1f} s, "
              f"{config.playouts / max(result.wall_seconds, 1e-9):,.0f} playouts/s",
              "# clues: puzzles generated" + (" (after minimal reduction)" if args.reduce_upto else "")]
    # a reduction can end below the fewest clues generated: list those clue numbers too
    for n in np.flatnonzero(result.histogram + result.reduced_histogram):
        reduced = f" ({result.reduced_histogram[n]})" if args.reduce_upto else ""
        header.append(f"#   {n}: {result.histogram[n]}{reduced}")
    # every distinct puzzle (up to the paper's equivalences: its exact canonical form) with at
    # most --max-clues clues, fewest clues first, the first playout that produced it
    found, seen = [], set()
    candidates = [(p, n, i, "generated") for p, n, i in result.puzzles] + \
        [(p, n, i, "reduced") for p, n, i in result.reduced_puzzles]
    for puzzle, n, index, how in sorted(candidates, key=lambda item: (item[1], item[2])):
        if n > args.max_clues:
            continue
        canonical = format_puzzle(canonical_form(parse_puzzle(puzzle)))
        if canonical not in seen:
            seen.add(canonical)
            found.append((canonical, n, index, how))
    lines = list(header)
    header.append(f"# {len(found)} distinct puzzle(s) with at most {args.max_clues} clues "
                  "below, in canonical form, each after its '# clues=' line")
    lines.append(header[-1])
    for puzzle, n, index, how in found:
        lines.append(f"# clues={n} seed={args.seed} playout={index} {how}")
        lines.append(puzzle)
    with open(args.puzzle_file, "w") as handle:
        handle.write("\n".join(lines) + "\n")
    print("\n".join(header))
    print(f"{len(found)} distinct puzzle(s) with at most {args.max_clues} clues written to "
          f"{args.puzzle_file}")
    for key, what in (("verify_failed", "recorded"), ("verify_failed_reduced", "reduced")):
        if result.stats.get(key):
            print(f"warning: {result.stats[key]} {what} puzzle(s) failed the SAT re-check and "
                  "were not written (the clue summary above counts them)", file=sys.stderr)
    return 0


# What each reading of ``readings.READINGS`` means, for ``sudoku generate --help``.
READING_HELP = {
    "terminal": "finished puzzles in the tree: counted once then skipped (default), revisited "
                "(counted each time), or also expanded at the threshold",
    "reducing_count": "candidate-reducing playouts count candidates by basic exclusion "
                      "(default) or after the rules",
    "min_of": "min selection: smallest playout value through the node (default) or smallest "
              "value among its children (a leaf: its mean)",
    "exhausted": "exhausted (finished, counted) subtrees keep their values in their ancestors' "
                 "minima (default) or drop out of them",
    "child_draws": "expansion redraws until it has max children (default) or makes exactly "
                   "max-children draws and drops duplicates",
    "budget": "the playout budget counts every iteration of the search (default) or only the "
              "playouts run (selecting a finished puzzle is free)",
    "value": "the value backed up: the clues (default) or the clues plus the digits the rules "
             "fixed",
}


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("sudoku", help="Sudoku: check puzzles, generate few-clue puzzles")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)

    p = verbs.add_parser("check", help="unique / multiple / none for each puzzle of a file")
    p.add_argument("file", help="one puzzle per line: 81 characters, '.' or '0' for empty")
    p.add_argument("--backend", choices=("fast", "sat"), default="fast",
                   help="solution counter: fast (numba) or sat (python-sat, the paper's encoding)")
    p.add_argument("--sat-solver", default="cadical153",
                   help="python-sat solver for --backend sat (cadical153, glucose4, minisat22...)")
    p.set_defaults(func=_cmd_check)

    p = verbs.add_parser("generate", help="one MCTS generation run (paper Sec. 4)")
    p.add_argument("--selection", choices=("min", "mean"), default="min",
                   help="MCTS value of a child: min or mean of its playouts (paper Eqs. 2-3; default: min)")
    p.add_argument("--playout", choices=("reducing", "random"), default="reducing",
                   help="clue choice in playouts: candidate-reducing or fully random (default: reducing)")
    p.add_argument("--rules", action=argparse.BooleanOptionalAction, default=True,
                   help="apply the human rules in playouts (default: on)")
    p.add_argument("--playouts", type=cliargs.positive_int, required=True,
                   help="playout budget of the search (the paper: 1,000,000)")
    p.add_argument("--c", type=cliargs.non_negative_float, default=1.0,
                   help="exploration constant (default 1.0)")
    p.add_argument("--threshold", type=cliargs.positive_int, default=30,
                   help="expansion threshold (default 30)")
    p.add_argument("--seed", type=cliargs.seed, default=0, help="random seed (default: 0)")
    p.add_argument("--reduce-upto", type=cliargs.non_negative_int, default=0,
                   help="also reduce results with at most this many clues to minimal puzzles "
                        "(uses the search's random stream, so the search differs from a run "
                        "without it)")
    p.add_argument("--exploration-n", choices=("total", "parent"), default="total",
                   help="n in the exploration term: total playouts (default) or parent visits")
    for name, choices in READINGS.items():  # the first choice is the default
        p.add_argument(f"--{name.replace('_', '-')}", choices=choices, default=choices[0],
                       help=READING_HELP[name])
    p.add_argument("--max-clues", type=cliargs.positive_int, default=18,
                   help="write every distinct puzzle generated with at most this many clues "
                        "(default 18), in canonical form")
    p.add_argument("--puzzle-file", required=True, metavar="FILE",
                   help="file for the puzzles found (one per line, '# clues=' comment before "
                        "each; read back by 'mctslab sudoku check')")
    p.set_defaults(func=_cmd_generate)
