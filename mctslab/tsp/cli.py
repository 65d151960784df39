"""``mctslab tsp`` verbs: the length of a tour file, and solving an instance with one method.

    mctslab tsp length FILE --tour TOURFILE
    mctslab tsp solve FILE --method sa|mct-um|mct-rm|mct-rs|sa-2opt|lkh|exact
                      [--cp K] [--time-limit S] [--seed S] [--tour-file TOURFILE]

FILE is a ``.tsp`` / ``.tsp.gz`` path or an instance name of the data folder (``eil51``).
Without ``--time-limit`` the MCTS methods get the paper's budget: the wall time the paper's SA
takes on the same instance and seed (SA is run first to measure it), and ``sa-2opt`` makes
400 n proposals. ``--time-limit`` applies to the MCTS methods, ``sa-2opt`` and ``lkh`` only
(the paper's SA has a fixed schedule, ``exact`` runs to the end), and ``--cp`` to the MCTS
methods only: any other combination is an error rather than silently ignored. Bad input
raises ``ValueError`` naming the line or keyword; ``mctslab`` prints it as one line and exits
with status 2. ``--tour-file`` names the file the tour is written to (``--out`` is an output
folder in every ``mctslab`` command).
"""

from __future__ import annotations

from mctslab.core import cliargs
from mctslab.tsp import api, tsplib, warmup

METHOD_NAMES = ("sa", "mct-um", "mct-rm", "mct-rs", "sa-2opt", "lkh", "exact")
# The methods each option applies to (the others would ignore it: an error instead).
TIME_LIMIT_METHODS = ("mct-um", "mct-rm", "mct-rs", "sa-2opt", "lkh")
CP_METHODS = ("mct-um", "mct-rm", "mct-rs")
DEFAULT_CP = 2.0


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("tsp", help="TSP paper: tour lengths, solve an instance")
    verbs = parser.add_subparsers(dest="tsp_command", metavar="VERB", required=True)

    p = verbs.add_parser("length", help="tour and path length of a TSPLIB .tour file")
    p.add_argument("file", metavar="FILE", help=".tsp / .tsp.gz path, or an instance name")
    p.add_argument("--tour", required=True, metavar="TOURFILE", help=".tour / .opt.tour(.gz)")
    p.set_defaults(func=_cmd_length)

    p = verbs.add_parser("solve", help="find a short Hamiltonian path with one method")
    p.add_argument("file", metavar="FILE", help=".tsp / .tsp.gz path, or an instance name")
    p.add_argument("--method", required=True, choices=METHOD_NAMES,
                   help="solver: the paper's SA or an MCTS variant, or a baseline")
    p.add_argument("--cp", type=cliargs.non_negative_float, default=None, metavar="K",
                   help=f"MCTS methods only: Cp = K x MST (mct-um, mct-rm) or K x SD (mct-rs); "
                        f"default {DEFAULT_CP:g}")
    p.add_argument("--time-limit", type=cliargs.positive_float, default=None, metavar="S",
                   help="seconds, for the MCTS methods, sa-2opt and lkh (MCTS default: the "
                        "paper SA's time on this instance and seed)")
    p.add_argument("--seed", type=cliargs.seed, default=1, metavar="S",
                   help="random seed (default 1)")
    p.add_argument("--tour-file", default=None, metavar="TOURFILE",
                   help="write the path as a TSPLIB tour")
    p.set_defaults(func=_cmd_solve)


def _cmd_length(args) -> int:
    instance = tsplib.load(args.file)
    tour = tsplib.load_tour(args.tour, instance.n)
    print(f"instance: {instance.name} ({instance.n} cities, {instance.edge_weight_type})")
    print(f"tour length: {api.tour_length(instance, tour):.0f}")
    print(f"path length: {api.path_length(instance, tour):.0f}  (the tour without its closing edge)")
    if instance.optimal_tour_length is not None:
        print(f"published optimal tour: {instance.optimal_tour_length:.0f}")
    return 0


def _solve(instance, args, mst):
    if args.method == "exact":
        return api.exact(instance)
    if args.method == "sa":
        return api.sa_paper(instance, args.seed)
    if args.method == "sa-2opt":
        return api.sa_2opt(instance, args.seed, time_limit=args.time_limit)
    if args.method == "lkh":
        from mctslab.tsp.lkh import lkh  # elkai, imported only when asked for

        return lkh(instance, args.seed, time_limit=args.time_limit)
    policy, rule, _ = api.MCTS_VARIANTS[args.method]
    budget = args.time_limit
    if budget is None:
        budget = api.sa_paper(instance, args.seed).seconds
        print(f"budget: {budget:.4f} s (the paper SA's time on this instance, seed {args.seed})")
    cp = DEFAULT_CP if args.cp is None else args.cp
    return api.mcts(instance, policy, rule, cp, args.seed, time_limit=budget, mst=mst)


def _check_options(args) -> None:
    """Refuse an option that ``args.method`` would ignore (``mctslab`` exits with status 2)."""
    if args.time_limit is not None and args.method not in TIME_LIMIT_METHODS:
        reason = ("runs the paper's fixed schedule" if args.method == "sa"
                  else "always runs to the optimum")
        raise ValueError(f"--time-limit does not apply to --method {args.method} (it {reason}); "
                         f"it applies to {', '.join(TIME_LIMIT_METHODS)}")
    if args.cp is not None and args.method not in CP_METHODS:
        raise ValueError(f"--cp does not apply to --method {args.method}; it applies to "
                         f"{', '.join(CP_METHODS)}")
    if args.time_limit is not None and args.time_limit <= 0:
        raise ValueError(f"--time-limit must be positive, got {args.time_limit}")


def _cmd_solve(args) -> int:
    _check_options(args)
    instance = tsplib.load(args.file)
    warmup()
    mst = api.mst_length(instance)
    result = _solve(instance, args, mst)
    print(f"instance: {instance.name} ({instance.n} cities, {instance.edge_weight_type})")
    print(f"method: {args.method}")
    print(f"path length: {result.length:.0f}")
    print(f"length / MST: {result.length / mst:.4f}" if mst > 0 else "length / MST: n/a")
    if instance.optimal_tour_length:
        print(f"length / optimal tour: {result.length / instance.optimal_tour_length:.4f}")
    print(f"time: {result.seconds:.4f} s")
    if "playouts" in result.details:
        print(f"playouts: {result.details['playouts']}")
        if result.details.get("first_playout_over_budget"):
            print("note: one playout alone took longer than the time budget")
    if args.tour_file:
        lines = [f"NAME : {instance.name}.{args.method}.tour", "TYPE : TOUR",
                 f"COMMENT : Hamiltonian path length {result.length:.0f} ({args.method})",
                 f"DIMENSION : {instance.n}", "TOUR_SECTION"]
        lines += [str(int(city) + 1) for city in result.path] + ["-1", "EOF"]
        with open(args.tour_file, "w") as handle:
            handle.write("\n".join(lines) + "\n")
        print(f"tour written to {args.tour_file}")
    return 0
