"""The ``mctslab`` command.

    mctslab list                                  notebooks and their parameters
    mctslab reproduce [NAME ...] [--scale S] [-p KEY VALUE ...] [--workers N]
                      [--scheduler ADDRESS] [--out DIR]
    mctslab bench [NAME ...] [--json]             performance figures (see BENCHMARKS.md)
    mctslab results [--clean EXPERIMENT ...]      stored task results (the resumable store)
    mctslab scorecard [--out DIR]                 every paper number beside the last run's
    mctslab scorecard --records [DIR] [--scale S] the same from the committed records
    mctslab records save NOTEBOOK [--out DIR]     record a run under records/<notebook>/
    mctslab records check [RECORD ...]            re-judge and verify every record (exit 1)
    mctslab records table RECORD [TABLE]          a record's table as Markdown (docs/bench)
    mctslab records docs                          regenerate docs/bench's tables from records
    mctslab data [verify|fetch NAME]              data sets: list, check checksums, fetch
    mctslab othello|sudoku|tsp ...                each domain's own verbs

Domains plug in through ``mctslab/<domain>/cli.py: add_parser(subparsers)``, which adds one
sub-parser and sets ``func`` (``args -> exit code``) on each of its verbs.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import shutil
import sys

from mctslab import DOMAINS, __version__, paths
from mctslab.core import cliargs
from mctslab.core.stopping import OutputBusy, install_handlers, interrupted_line, signal_number


def _cmd_list(args) -> int:
    from mctslab import pipeline

    found = pipeline.notebooks()  # FileNotFoundError: no project found (one line, exit 2)
    if not found:
        print("no notebooks found in", pipeline.paths.notebooks_dir())
        return 1
    for name in found:
        print(name)
        for key, p in pipeline.parameters(name).items():
            help_text = f"  # {p['help']}" if p["help"] else ""
            print(f"    {key}: {p['type']} = {p['default']}{help_text}")
    return 0


def _cmd_reproduce(args) -> int:
    from mctslab import pipeline

    params = {key: pipeline.parse_value(value) for key, value in args.parameter or []}
    try:
        names = pipeline.validate(args.names, args.scale, params, args.scheduler)
    except (KeyError, ValueError, OSError) as exc:
        print(f"mctslab reproduce: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2
    print(f"reproducing {', '.join(names)} at scale={args.scale}", file=sys.stderr)
    outcomes = pipeline.reproduce(names, args.scale, params, workers=args.workers,
                                  scheduler=args.scheduler, out=args.out,
                                  progress=not args.quiet)
    failed = 0
    for o in outcomes:
        status = "ok" if o.ok else "FAILED"
        print(f"{o.name}: {status} in {o.seconds:.1f} s -> {o.report}")
        if not o.ok:
            failed += 1
            print(f"  {o.error}", file=sys.stderr)
    if outcomes.scorecard is not None:
        _print_scorecard(outcomes.scorecard)
    return 1 if failed else 0


def _cmd_scorecard(args) -> int:
    from mctslab.core import scorecard_page

    if args.records is not None:
        from mctslab import record_card

        root = paths.records_root(args.records or None)
        if not root.is_dir():
            print(f"mctslab scorecard: error: no records folder {root}", file=sys.stderr)
            return 2
        _print_scorecard(record_card.scorecard(root, scale=args.scale))
        return 0
    try:
        written = scorecard_page.write(args.out)
    except FileNotFoundError as exc:
        print(f"mctslab scorecard: error: {exc}", file=sys.stderr)
        return 2
    _print_scorecard(written)
    return 0


def _print_scorecard(written) -> None:
    from mctslab.core.scorecard import counts

    def ledger(name: str) -> str:
        totals = counts(written.card, name).loc["total"]
        return ", ".join(f"{totals[v]} {v}" for v in totals.index if v != "total" and totals[v])

    print(f"scorecard of {len(written.card)} paper numbers, one per target; outcomes: "
          f"{ledger('outcome')}; protocol: {ledger('protocol')}; notebooks with a "
          f"paper_vs_run table: {', '.join(written.ran) or 'none'}")
    print(f"  -> {written.html} (and .md, .csv)")


def _cmd_records(args) -> int:
    from mctslab import bench_docs, records

    if args.records_verb == "save":
        folder = records.save(args.notebook, args.out, root=args.root, label=args.label,
                              date=args.date)
        size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
        print(f"{folder}: {size:,} bytes")
        return 0
    if args.records_verb == "table":
        print(records.markdown_table(args.record, args.table))
        return 0
    if args.records_verb == "pack":
        for folder in args.matches:
            print(records.pack(folder))
        return 0
    if args.records_verb == "docs":
        changed = bench_docs.update()
        for block in changed:
            print(f"{block.where()}: regenerated from {block.record} {block.table}")
        print(f"{len(changed)} generated tables changed in docs/bench/*.md and BENCHMARKS.md")
        return 0
    return _records_check(args)


def _records_check(args) -> int:
    """Each record's report, then (all of records/) whether docs/bench's tables are current."""
    from mctslab import bench_docs, records

    reports = ([records.check_record(folder) for folder in args.records] if args.records
               else records.check(args.root))
    if not reports:
        print(f"no records under {paths.records_root(args.root)}")
    for report in reports:
        _print_report(report, args.verbose)
    docs = [] if args.records or args.root else bench_docs.stale()
    for problem in docs:
        print(f"error: {problem}")
    if not (args.records or args.root):
        print(f"docs/bench tables generated from records: {'ok' if not docs else 'FAILED'}")
    return 0 if all(r.ok for r in reports) and not docs else 1


def _print_report(report, verbose: bool) -> None:
    judged = ", ".join(f"{len(keys)} {verdict}" for verdict, keys in
                       sorted(report.verdicts.items(), key=lambda kv: -len(kv[1])))
    print(f"{report.folder}: {'ok' if report.ok else 'FAILED'} ({report.kind} record"
          + (f"; today's verdicts: {judged}" if judged else "") + ")")
    for problem in report.problems:
        print(f"  error: {problem}")
    if verbose:
        for note in report.notes:
            print(f"  {note}")
    elif report.notes:
        print(f"  {len(report.notes)} notes (--verbose shows them)")


def _cmd_bench(args) -> int:
    from mctslab.core import bench

    try:
        chosen = bench.select(args.names)
    except KeyError as exc:
        print(f"mctslab bench: {exc.args[0]}", file=sys.stderr)
        return 2
    if not chosen:
        print("no benchmarks registered", file=sys.stderr)
        return 1
    for b in chosen:
        record = bench.run_one(b)
        print(bench.to_json(record) if args.json else bench.to_text(record), flush=True)
    return 0


def _cmd_data(args) -> int:
    from mctslab import data, datasets

    verb = getattr(args, "data_verb", None)
    if verb == "verify":
        names = args.names or [*datasets.SHIPPED, *datasets.FETCHABLE]
        bad = 0
        for name in names:
            folder, problems, checked = datasets.verify(name)
            if name in datasets.FETCHABLE and not checked:
                print(f"{name}: not fetched (mctslab data fetch {name})")
                continue
            print(f"{name}: {checked} files checked, "
                  f"{'ok' if not problems else f'{len(problems)} problem(s)'}"
                  + (f"  [{folder}]" if folder else ""))
            for problem in problems:
                print(f"  {problem.path}: {problem.problem}")
            bad += len(problems)
        return 1 if bad else 0
    if verb == "fetch":
        spec = datasets.FETCHABLE.get(args.name)
        if spec is None:
            raise KeyError(f"unknown fetchable data set {args.name!r}; "
                           f"known: {', '.join(datasets.FETCHABLE)}")
        print(f"{spec.name}: {spec.what}\n  source: {spec.source}\n  licence: {spec.licence}")
        paths = datasets.fetch(args.name, folder=args.dir, progress=sys.stderr.isatty())
        print(f"{len(paths)} files, checksums verified, in {paths[0].parent if paths else '-'}")
        return 0
    if verb == "checksums":
        folder = data.find(args.name)
        print(f"{folder / datasets.CHECKSUMS}: {datasets.write_checksums(folder)} files")
        return 0
    print("data lookup order: an explicit path, then")
    for d in data.search_dirs():
        print(f"  {d}  ({'found' if d.is_dir() else 'absent'})")
    print()
    for row in datasets.status_rows(check=not args.no_check):
        size = f"{row['bytes'] / 1e6:.1f} MB" if row["bytes"] else "-"
        amount = "-" if row["count"] is None else f"{row['count']:,} {row['unit']}"
        print(f"{row['name']:<16} {row['kind']:<8} {amount:<22} {size:>9}  "
              f"checksums {row['checksums']:<16} {row['where']}")
        print(f"{'':<16} {row['what']}")
    return 0


def _cmd_results(args) -> int:
    from mctslab.core.store import ResultStore

    root = paths.results_root(args.out)
    for name in args.clean or []:
        folder = root / name
        if not ResultStore(folder).exists():
            raise KeyError(f"no stored experiment {name!r} under {root}")
        shutil.rmtree(folder)
        print(f"removed {folder}")
    if args.clean:
        return 0
    folders = sorted(p for p in root.glob("*") if ResultStore(p).exists())
    if not folders:
        print(f"no stored results under {root}")
        return 0
    print(f"stored results under {root}:")
    for folder in folders:
        records = ResultStore(folder).load().values()
        compute = sum(float(r.get("seconds", 0.0)) for r in records)
        last = max((r.get("finished", "") for r in records), default="")
        print(f"  {folder.name:32s} {len(records):6d} tasks  {compute:10.1f} task-s  last {last}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mctslab", description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action="version", version=f"mctslab {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_run_parsers(sub)
    _add_records_parser(sub)
    _add_data_parsers(sub)
    _add_domain_parsers(sub)
    return parser


def _add_run_parsers(sub) -> None:
    """list, reproduce, bench and scorecard: running the notebooks and reading their outputs."""
    p = sub.add_parser("list", help="the notebooks and their parameters")
    p.set_defaults(func=_cmd_list)

    p = sub.add_parser("reproduce", help="regenerate notebooks (all by default) with papermill")
    p.add_argument("names", nargs="*", metavar="NAME", help="notebook names (default: all)")
    p.add_argument("--scale", default="default", help="smoke | default | paper (default: default)")
    p.add_argument("-p", "--parameter", nargs=2, action="append", metavar=("KEY", "VALUE"),
                   help="set a notebook parameter (Python literal or string); repeatable")
    p.add_argument("--workers", type=cliargs.positive_int, default=None,
                   help="local worker processes, at least 1 (default: all cores)")
    p.add_argument("--scheduler", default=None,
                   help="Dask scheduler address, e.g. tcp://host:8786 (or $MCTSLAB_SCHEDULER)")
    cliargs.add_out(p)
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=_cmd_reproduce)

    p = sub.add_parser("bench", help="performance figures (recorded in BENCHMARKS.md)")
    p.add_argument("names", nargs="*", metavar="NAME", help="benchmark or domain names (default: all)")
    p.add_argument("--json", action="store_true", help="one JSON object per benchmark")
    p.set_defaults(func=_cmd_bench)

    p = sub.add_parser("scorecard", help="every paper number beside the last run's: "
                       "figures/scorecard.csv, .md and .html")
    cliargs.add_out(p)
    p.add_argument("--records", nargs="?", const="", default=None, metavar="DIR",
                   help="build it from the committed records instead (DIR, default records/): "
                        "<DIR>/scorecard-<scale>.csv, .md and .html")
    p.add_argument("--scale", default="paper",
                   help="with --records: the records of this scale (default: paper)")
    p.set_defaults(func=_cmd_scorecard)


def _add_records_parser(sub) -> None:
    """records and its verbs: save, check, docs, pack, table."""
    p = sub.add_parser("records", help="committed records of runs: save, check, table")
    verbs = p.add_subparsers(dest="records_verb", metavar="VERB", required=True)
    v = verbs.add_parser("save", help="record a run of mctslab reproduce --out DIR under "
                                      "records/<notebook>/<scale>[-<label>]-<date>/")
    v.add_argument("notebook", metavar="NOTEBOOK", help="the notebook whose run is recorded")
    cliargs.add_out(v, help="the output folder of the run (default: the project root)")
    v.add_argument("--label", default="", help="a word for the folder name (e.g. 9x9)")
    v.add_argument("--date", default=None, help="YYYY-MM-DD (default: the run's end)")
    v.add_argument("--root", default=None, help="the records folder (default: records/)")
    v.set_defaults(func=_cmd_records)
    v = verbs.add_parser("check", help="verify every record (checksums, manifest, tables) and "
                                       "judge its paper_vs_run again; exit 1 naming each bad file")
    v.add_argument("records", nargs="*", metavar="RECORD", help="record folders (default: all)")
    v.add_argument("--root", default=None, help="the records folder (default: records/)")
    v.add_argument("--verbose", action="store_true", help="also the notes (verdict changes, "
                                                          "matches in progress)")
    v.set_defaults(func=_cmd_records)
    v = verbs.add_parser("docs", help="regenerate the tables of docs/bench/*.md that come "
                                      "from records (<!-- from-record: ... --> blocks)")
    v.set_defaults(func=_cmd_records)
    v = verbs.add_parser("pack", help="pack finished match folders to commit them: stores to "
                                      "results.jsonl.gz, SGF files to games.tar.gz")
    v.add_argument("matches", nargs="+", metavar="MATCH",
                   help="match folders (mctslab go match --out DIR), each finished")
    v.set_defaults(func=_cmd_records)
    v = verbs.add_parser("table", help="a record's table as Markdown, citing the record")
    v.add_argument("record", metavar="RECORD", help="a record folder")
    v.add_argument("table", nargs="?", default="paper_vs_run",
                   help="the table's stem (default: paper_vs_run)")
    v.set_defaults(func=_cmd_records)


def _add_data_parsers(sub) -> None:
    """results (the stored tasks) and data (the data sets) with its verbs."""
    p = sub.add_parser("results", help="list (or remove) stored experiment results")
    p.add_argument("--clean", nargs="+", metavar="EXPERIMENT",
                   help="remove these experiments' stored results, so they are recomputed")
    cliargs.add_out(p)
    p.set_defaults(func=_cmd_results)

    p = sub.add_parser("data", help="the data sets: list, verify checksums, fetch larger ones")
    p.add_argument("--no-check", action="store_true", help="list without checking checksums")
    p.set_defaults(func=_cmd_data)
    verbs = p.add_subparsers(dest="data_verb", metavar="VERB")
    v = verbs.add_parser("verify", help="check checksums; exit 1 naming each bad file")
    v.add_argument("names", nargs="*", metavar="NAME", help="data sets (default: all)")
    v.set_defaults(func=_cmd_data)
    v = verbs.add_parser("fetch", help="download a larger data set with its pinned sha256")
    v.add_argument("name", metavar="NAME", help="a fetchable set (mctslab data lists them)")
    v.add_argument("--dir", default=None,
                   help="data folder to fetch into (default: $MCTSLAB_DATA, else data/)")
    v.set_defaults(func=_cmd_data)
    v = verbs.add_parser("checksums", help="rewrite a shipped set's SHA256SUMS (maintainers)")
    v.add_argument("name", metavar="NAME", help="a shipped data set (mctslab data lists them)")
    v.set_defaults(func=_cmd_data)


def _add_domain_parsers(sub) -> None:
    """Each domain's ``mctslab <domain>`` verbs, from its ``cli`` module (if it has one)."""
    for domain in DOMAINS:
        try:
            module = importlib.import_module(f"mctslab.{domain}.cli")
        except ModuleNotFoundError as exc:
            if exc.name in (f"mctslab.{domain}", f"mctslab.{domain}.cli"):
                continue
            raise
        module.add_parser(sub)


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    install_handlers()  # SIGTERM and SIGHUP stop a run as Ctrl-C does (mctslab.core.stopping)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt as exc:  # one line, not a traceback: what is stored, how to resume
        # the notebook client's pending cell task would be reported at exit as "Task exception
        # was never retrieved" with the kernel's traceback: the line below says it all
        logging.getLogger("asyncio").setLevel(logging.CRITICAL)
        try:
            print(interrupted_line(exc, argv), file=sys.stderr, flush=True)
        except OSError:  # SIGHUP: the terminal may be gone
            pass
        return 128 + signal_number(exc)
    except OutputBusy as exc:
        print(f"mctslab {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except (ValueError, KeyError, OSError) as exc:
        # bad input (a malformed file, an unknown name): a one-line error, not a traceback
        if os.environ.get("MCTSLAB_DEBUG"):
            raise
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"mctslab {args.command}: error: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
