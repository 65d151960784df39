"""``mctslab go``: the Go engine's verbs.

    mctslab go gtp [ENGINE OPTIONS] [--size N] [--komi K] [--superko]
    mctslab go search POSITION --playouts P [ENGINE OPTIONS] [--move N] [--json]
    mctslab go match --games N --out DIR [ENGINE OPTIONS] [--candidate mcts|gnugo|gnugo-mc]
                     [--opponent gnugo|gnugo-mc|mcts|gtp] [--opponent-level L] [--size N]
                     [--opponent-command COMMAND] [--opponent-label TAG]
    mctslab go report DIR [DIR ...] [--names NAME ...] [--controls NAME ...] [--csv DIR]
    mctslab go record table2-19x19|reading-uniform-redraw --out DIR [--matches DIR]
    mctslab go plan show|run DIR [ROW ...] [--games N] [--workers W] [--protocol P]
    mctslab go strong validate|ablation|pilot19|tabu|report [GAMES ...] [ROW ...]
    mctslab go records 9x9|19x19|report [ROW ...]
    mctslab go positions [--count N] [--out DIR]

ENGINE OPTIONS are one :class:`~mctslab.go.engine.EngineSettings` everywhere: ``--config``
(a state-tabu paper engine), ``--classical gnugo|none`` (with ``--gnugo-level L``: GNU Go's
classical move generation hosts the search, the paper's engines; none: pure UCT),
``--playouts``, ``--policy``, ``--c``, ``--seed``, ``--root-select``, ``--root-order``,
``--tabu-redraw``, ``--expansion-threshold``, ``--resign``, ``--timeout``, ``--pass-rule``.

``gtp`` serves GTP 2 on stdin/stdout (attach it to GoGui or Sabaki: docs/go.md).
``search`` plays one move of the engine from POSITION, an SGF file (``--move N``: after N moves
of its main line) or a GTP-style move list such as ``"B D4 W Q16 B pass"`` (``--size``,
``--komi``), and prints the move, the host's classical move and shortlist (host engine), the
root's top children and playouts/s.
``match`` plays games against GNU Go 3.8 or any GTP engine through the executor (stored as
they finish, so a killed match resumes), writes every game's SGF and ``summary.json``
(binomial test; the referee's count and the plain count): :mod:`mctslab.go.match_run`.
``report DIR...`` reads recorded match folders back as Tables 2-3 (binomial test, paired
McNemar tests against the control rows), the host engine's vetoes and the thinking time;
``record KIND`` saves one part of the protocol as a record (:mod:`mctslab.go.record_runs`).
``plan`` plays a match record's plan (``plan.json``: rows, their match flags, seed, games;
:mod:`mctslab.go.plans`), rows interleaved ten games at a time and resumed from the stored
games (:mod:`mctslab.go.plan_run`); ``strong`` and ``records`` are the recorded runs' queues
over it (the strong engine's; the state-tabu paper's host-engine rows and veto rates);
``positions`` makes the shipped 9x9 veto positions again (:mod:`mctslab.go.positions`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mctslab.core import cliargs
from mctslab.go import cli_engine
from mctslab.go.cli_engine import LEVEL, parse_move_list

__all__ = ["add_parser", "parse_move_list"]



def _gtp(args) -> int:
    from mctslab.go import api, gnugo, gtp, warmup, warmup_strong

    api.Board(args.size)  # ValueError for a size outside 5..25, before serving
    settings = cli_engine.engine(args, size=args.size, komi=args.komi, superko=args.superko,
                       dead_playouts=args.dead_playouts)
    if settings.classical == "gnugo":
        gnugo.find_gnugo()
    # compile (or load) the kernels now, not during the first genmove (a GUI's clock runs)
    (warmup_strong if settings.engine == "strong" else warmup)()
    return gtp.main(settings, stdin=sys.stdin.buffer, stdout=sys.stdout.buffer)


def _match_engine(args):
    """Our engine's settings when the candidate is our engine (``mcts``), else ``None``."""
    kind = "gnugo" if args.config == "gnugo" else args.candidate
    return cli_engine.engine(args, size=args.size, komi=args.komi) if kind == "mcts" else None


def _match(args) -> int:
    from mctslab.go import match_run

    return match_run.run(args, _match_engine(args))


def _record(args) -> int:
    from mctslab import records
    from mctslab.go import record_runs
    label = record_runs.write(args.kind, args.out, matches=args.matches)
    print(records.save("go_state_tabu", args.out, label=label))
    return 0


def _match_args(argv) -> argparse.Namespace:
    """``mctslab go match`` arguments (the words after ``go match``) parsed as the verb parses
    them; ValueError naming a bad one."""
    parser = argparse.ArgumentParser(prog="mctslab", exit_on_error=False)
    add_parser(parser.add_subparsers(dest="domain"))
    try:
        return parser.parse_args(["go", "match", *argv])
    except (argparse.ArgumentError, SystemExit) as exc:
        raise ValueError(f"go match {' '.join(argv)}: {exc}") from None


def match_tasks(argv) -> list:
    """The games (executor tasks) ``mctslab go match ARGV`` plays, nothing started."""
    from mctslab.go import match_run

    args = _match_args(argv)
    return match_run.match_games(args, *match_run.players(args, _match_engine(args)))


def _play(argv) -> None:
    _match(_match_args(argv))


def _plan(args) -> int:
    from mctslab.go import plan_run, plans

    if args.action == "run":
        failed = plan_run.play_plan(args.folder, _play, match_tasks, rows=args.rows,
                                    games=args.games, workers=args.workers,
                                    protocol=args.protocol)
        return 1 if failed else 0
    if args.rows or args.games is not None:
        raise ValueError("plan show takes a folder only (ROW and --games are for plan run)")
    print(plan_run.describe(args.folder, plans.load(args.folder, args.protocol), match_tasks))
    return 0


def _queue(args) -> int:
    from mctslab.go import plan_run, strong_record

    if args.verb == "strong" and args.queue == "report":
        print(strong_record.markdown(args.record))
        return 0
    if args.queue == "report":
        runs = Path(args.runs).expanduser()
        for folders in ([p for p in sorted((runs / size).glob("*")) if p.is_dir()]
                        for size in ("go9", "go19")):
            if folders:
                _report(argparse.Namespace(folders=folders, names=None, csv=None,
                                           controls=["gTabu0+gnugo10", "gnugo-uct+gnugo10"]))
        return 0
    if args.verb == "strong":
        failed = plan_run.strong_queue(args.queue, args.words, _play, match_tasks,
                                       record=args.record, record19=args.record19,
                                       workers=args.workers)
    else:
        failed = plan_run.records_queue(args.queue, args.rows, _play, match_tasks,
                                        runs=args.runs)
    return 1 if failed else 0


def _positions(args) -> int:
    from mctslab.go import positions

    files = positions.write(args.out, args.count)
    print(f"{args.count} positions in {args.out}; checksums: {files} files")
    return 0


def _large_patterns(args) -> int:
    from mctslab.go import large_patterns

    if args.verb == "learn":
        print(large_patterns.learn_shipped(args.games, args.out))
    else:
        print(large_patterns.describe(args.path))
    return 0


def _report(args) -> int:
    from mctslab.go import tables
    from mctslab.go.played import played_from_stores

    if args.names and len(args.names) != len(args.folders):
        raise ValueError(f"--names gives {len(args.names)} names for {len(args.folders)} folders")
    played = played_from_stores(args.folders, args.names)
    frames = {"table2_wins": tables.table2(played),
              "table3_tests": tables.table3(played, controls=tuple(args.controls)),
              "host_vetoes": tables.host_table(played),
              "thinking_time": tables.thinking_table(played),
              "protocol_cost": tables.cost_tables(played)}
    for name, frame in frames.items():
        print(f"## {name}\n{frame.to_string(index=False)}\n")
        if args.csv:
            Path(args.csv).mkdir(parents=True, exist_ok=True)
            frame.to_csv(Path(args.csv) / f"{name}.csv", index=False)
    return 0


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("go", help="Go: GTP engine, one move from a position, "
                                              "matches against GNU Go")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)

    p = verbs.add_parser("gtp", help="serve GTP 2 on stdin/stdout (GoGui, Sabaki, GNU Go)")
    cli_engine.engine_options(p, playouts=1000)
    p.add_argument("--size", type=int, default=19, help="initial board size (5..25)")
    p.add_argument("--komi", type=cliargs.finite_float, default=6.5, help="komi (default 6.5)")
    p.add_argument("--superko", action="store_true", help="positional superko for play")
    p.add_argument("--dead-playouts", type=cliargs.positive_int, default=200,
                   help="playouts behind final_status_list dead / final_score")
    p.set_defaults(func=_gtp)

    p = verbs.add_parser("match", help="games against GNU Go 3.8 over GTP (state-tabu paper)")
    cli_engine.engine_options(p, playouts=8000, policy="pattern", resign=0.0, root_select="winrate")
    p.add_argument("--candidate", default="mcts", choices=["mcts", "gnugo", "gnugo-mc"],
                   help="who plays: our engine (mcts, the engine options), classical GNU Go, "
                        "or GNU Go's own Monte-Carlo mode (gnugo-mc); --config gnugo is "
                        "--candidate gnugo (the paper's first row of Table 2)")
    p.add_argument("--candidate-level", type=LEVEL, default=None,
                   help="GNU Go --level of a gnugo / gnugo-mc candidate (default --gnugo-level)")
    p.add_argument("--opponent", default="gnugo", choices=["gnugo", "gnugo-mc", "mcts", "gtp"],
                   help="the opponent: classical GNU Go (default), gnugo-mc, our engine "
                        "with the same options and --opponent-config (head to head), or any "
                        "GTP engine (gtp: --opponent-command)")
    p.add_argument("--opponent-command", default=None, metavar="COMMAND",
                   help="--opponent gtp: the engine's command line, e.g. 'pachi -t =8000 -s "
                        "{seed}' ({seed}: each game's seed)")
    p.add_argument("--opponent-label", default=None,
                   help="--opponent gtp: a tag for its label (default: the command's hash)")
    p.add_argument("--opponent-config", default=None,
                   help="--opponent mcts: the opponent's configuration (default --config), "
                        "e.g. gnugo-uct against --config gTabu18-hash-win")
    p.add_argument("--opponent-level", type=LEVEL, default=None,
                   help="the opponent's GNU Go --level (default --gnugo-level)")
    p.add_argument("--mc-simulations", type=cliargs.positive_int, default=8000,
                   help="gnugo-mc simulations per move (default 8000, GNU Go's per level)")
    p.add_argument("--referee-level", type=LEVEL, default=10,
                   help="level of the GNU Go that scores the games (default 10)")
    p.add_argument("--games", type=cliargs.positive_int, required=True,
                   help="games in all (colours alternate, the candidate Black first)")
    p.add_argument("--size", type=cliargs.int_range(5, 25), default=19,
                   help="board size (default 19)")
    p.add_argument("--komi", type=cliargs.finite_float, default=6.5, help="komi (default 6.5)")
    p.add_argument("--workers", type=cliargs.positive_int, default=None,
                   help="local worker processes (default: all cores)")
    p.add_argument("--scheduler", default=None, help="Dask scheduler address")
    p.add_argument("--json", action="store_true", help="no progress bar")
    cliargs.add_out(p, required=True,
                    help="folder for the SGF of every game, summary.json and the result store")
    p.set_defaults(func=_match)

    p = verbs.add_parser("report", help="Tables 2-3 (binomial and paired McNemar tests), "
                                        "vetoes, thinking time and protocol cost of recorded matches")
    p.add_argument("folders", nargs="+", metavar="DIR",
                   help="match folders (mctslab go match --out DIR), one row each; rows built "
                        "with the same --seed pair up game by game")
    p.add_argument("--names", nargs="+", default=None,
                   help="row names, one per folder (default: the candidate's label)")
    p.add_argument("--controls", nargs="*", default=["gTabu0", "gnugo-uct"],
                   help="rows every other row is compared with (McNemar), by name")
    p.add_argument("--csv", default=None, metavar="DIR", help="also write each table as CSV here")
    p.set_defaults(func=_report)

    p = verbs.add_parser("search", help="one move of our engine: move, root children, playouts/s")
    p.add_argument("position", metavar="POSITION",
                   help="an SGF file, or a move list like 'B D4 W Q16 B pass' ('' = empty)")
    cli_engine.engine_options(p, resign=0.0)
    p.add_argument("--move", type=cliargs.non_negative_int, default=None,
                   help="SGF: the position after N moves")
    p.add_argument("--size", type=int, default=19, help="move list: board size")
    p.add_argument("--komi", type=cliargs.finite_float, default=None,
                   help="komi (default: SGF KM or 6.5)")
    p.add_argument("--top", type=cliargs.positive_int, default=10, help="root children shown")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=cli_engine.search)

    p = verbs.add_parser("record", help="save a notebook record of one part of the protocol: "
                         "a 19x19 match record's Table 2 games (--matches), or a reading")
    p.add_argument("kind", choices=["table2-19x19", "reading-uniform-redraw"])
    p.add_argument("--matches", default=None, help="the match record's folder (table2-19x19)")
    cliargs.add_out(p, required=True, help="the run's output folder (then saved as a record)")
    p.set_defaults(func=_record)
    _plan_verbs(verbs)


def _plan_verbs(verbs) -> None:
    """The recorded runs' verbs: ``plan``, ``strong``, ``records``, ``positions``."""
    p = verbs.add_parser("plan", help="play a match record's plan (plan.json: rows, match "
                         "flags, seed, games), interleaved and resumed; or show it")
    p.add_argument("action", choices=["show", "run"],
                   help="show: each row's games stored and planned, and whether the stored "
                        "games are the plan's; run: play the missing games, every row 10 "
                        "games at a time (a row already at its games: its summary rewritten)")
    p.add_argument("folder", metavar="DIR", help="the record: one match folder per row")
    p.add_argument("rows", nargs="*", metavar="ROW", help="run: these rows (default: all); "
                   "a row new to the plan gets its protocol's flags")
    p.add_argument("--games", type=cliargs.positive_int, default=None,
                   help="run: play the rows to N games (the plan keeps the larger of N and "
                        "its own)")
    p.add_argument("--workers", type=cliargs.positive_int, default=1,
                   help="games played at once (each game its own seed: same results)")
    p.add_argument("--protocol", default=None, help="without plan.json: the protocol "
                   "(strong9, strong19, paper9, paper19; default: from DIR's name)")
    p.set_defaults(func=_plan)

    p = verbs.add_parser("strong", help="the strong engine's recorded runs against GNU Go "
                         "(validate, ablation, pilot19, tabu) into a match record; report")
    p.add_argument("queue", choices=["validate", "ablation", "pilot19", "tabu", "report"],
                   help="validate [GAMES=200]: the full engine; ablation [GAMES=60] [ROW...]: "
                        "one piece changed per row; pilot19 [GAMES=20]: the full engine on "
                        "19x19; tabu [GAMES=2178] [PLAYOUTS=2000] [EXPAND=30]: gTabu18-hash-"
                        "win's lists against none, head to head; report: the tables as Markdown")
    p.add_argument("words", nargs="*", metavar="GAMES|ROW")
    p.add_argument("--record", default="records/go_state_tabu/strong9-2026-11-26",
                   help="the 9x9 match record (default %(default)s)")
    p.add_argument("--record19", default=None,
                   help="pilot19's record (default records/go_state_tabu/strong19-<today>)")
    p.add_argument("--workers", type=cliargs.positive_int, default=1,
                   help="games played at once (default 1)")
    p.set_defaults(func=_queue)

    p = verbs.add_parser("records", help="the state-tabu paper's recorded rows against GNU Go "
                         "(9x9, 19x19 and the veto rates), resumable; report")
    p.add_argument("queue", choices=["9x9", "19x19", "report"],
                   help="9x9: Table 2/3 and the validation rows; 19x19: its rows, then the veto "
                        "rates; report: every finished table (go report)")
    p.add_argument("rows", nargs="*", metavar="ROW", help="some rows (default all; 19x19: "
                   "'veto' for the veto rates)")
    p.add_argument("--runs", default="~/mctslab-runs",
                   help="where the rows go: RUNS/go9/ROW, RUNS/go19/ROW, RUNS/veto")
    p.set_defaults(func=_queue)

    p = verbs.add_parser("positions", help="make the 9x9 veto-rate positions again "
                         "(GNU Go 3.8 self-play after random openings)")
    p.add_argument("--count", type=cliargs.positive_int, default=100, help="positions")
    p.add_argument("--out", default="data/go-positions/9x9", help="folder (default %(default)s)")
    p.set_defaults(func=_positions)
    _data_verbs(verbs)


def _data_verbs(verbs) -> None:
    """The verbs that make the engine's data: ``large-patterns``."""
    p = verbs.add_parser("large-patterns", help="learn (from data/go-games/tom9d) or show the "
                         "strong engine's large-pattern table (--large-patterns)")
    p.add_argument("verb", choices=["learn", "show"])
    p.add_argument("path", nargs="?", default=None, help="show: a table (default the shipped)")
    p.add_argument("--games", type=cliargs.positive_int, default=None,
                   help="learn: evenly spaced games (default all 1,784)")
    p.add_argument("--out", default=None, help="learn: the table (default "
                   "data/go-patterns/large.npz)")
    p.set_defaults(func=_large_patterns)
