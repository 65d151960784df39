"""``mctslab othello``: perft, matches between players, one learning experiment.

    mctslab othello perft DEPTH
    mctslab othello match --black P --white P [--games N] [--epsilon 0.1] [--seed S] [--swap]
    mctslab othello learn --mode individual|group [--scale S] [--seed S] [--out DIR]

A player P is ``random``, ``standard`` or a WPC file (10 values a..j or 64 weights,
text or JSON; see :func:`mctslab.othello.wpc.load_wpc`).
"""

from __future__ import annotations

import secrets
import time

from mctslab.core import cliargs

__all__ = ["add_parser"]


def _perft(args) -> int:
    from mctslab.othello import api  # a verb imports what it needs: `mctslab --help` stays fast

    api.perft(1)  # compile (or load from the cache) before timing
    start = time.perf_counter()
    leaves = api.perft(args.depth)
    seconds = time.perf_counter() - start
    rate = f"{leaves / seconds / 1e6:,.1f} M leaves/s" if seconds > 0 else "n/a"
    print(f"perft({args.depth}) = {leaves}  ({seconds:.3f} s, {rate}, one core)")
    return 0


def _match(args) -> int:
    from mctslab.othello import api

    # no --seed: draw one and print it, so that the match can be repeated exactly
    seed = secrets.randbelow(2**32) if args.seed is None else args.seed
    result = api.match(args.black, args.white, games=args.games, epsilon=args.epsilon,
                       seed=seed, alternate=args.swap)
    low, high = result.interval
    setting = "colours alternating" if args.swap else f"{result.a} always Black"
    print(f"{result.a} vs {result.b}: {result.games} games ({setting}), epsilon {result.epsilon}, "
          f"seed {seed}{'' if args.seed is not None else ' (drawn; repeat with --seed ' + str(seed) + ')'}")
    print(f"wins {result.wins}  draws {result.draws}  losses {result.losses}  (for {result.a})")
    print(f"score of {result.a}: {result.score:.4f}  95% interval [{low:.4f}, {high:.4f}]")
    return 0


def _learn(args) -> int:
    from mctslab import paths
    from mctslab.core.executor import run_tasks
    from mctslab.core.store import write_json
    from mctslab.core.tasks import make_tasks
    from mctslab.othello import experiments, wpc

    cfg = experiments.config(args.scale)
    tasks = make_tasks("mctslab.othello.experiments:learning_task",
                       [dict(cfg.learning_params(args.mode), repetition=0)], seed=args.seed)
    experiment = f"othello_learn_{args.mode}_{args.scale}"
    result = run_tasks(experiment, tasks, workers=1, out=args.out)[0]
    folder = paths.results_dir(experiment, args.out) / f"seed-{args.seed}"
    folder.mkdir(parents=True, exist_ok=True)
    write_json(folder / "history.json", result, indent=None)
    if args.mode == "individual":
        finals = [] if result["final_variables"] is None else [
            {"name": "final best", "variables": result["final_variables"]}]
    else:
        finals = [{"name": f"member {m['id']}", "rating": m["rating"], "variables": m["variables"]}
                  for m in result["final_members"] if m["variables"] is not None]
    write_json(folder / "final_wpcs.json", finals, indent=1)
    for final in finals:
        name = final["name"].replace(" ", "_")
        (folder / f"{name}.wpc").write_text(
            "# a..j\n" + " ".join(f"{v:.6f}" for v in final["variables"]) + "\n# 64 weights\n#"
            + wpc.format_board(wpc.expand(final["variables"]), digits=4).replace("\n", "\n#") + "\n")
    print(f"{args.mode} learning at scale {args.scale}: {result['games']:,} learning games, "
          f"{len(result['events'])} iterations, {result['seconds']:.1f} s")
    print(f"history: {folder / 'history.json'}")
    print(f"final WPCs ({len(finals)}): {folder / 'final_wpcs.json'}")
    return 0


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("othello", help="Othello: perft, matches, DE learning")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)

    p = verbs.add_parser("perft", help="leaves of the game tree from the start position")
    p.add_argument("depth", type=cliargs.non_negative_int, metavar="DEPTH",
                   help="plies from the start position (perft(8) = 390,216,624)")
    p.set_defaults(func=_perft)

    p = verbs.add_parser("match", help="play games between two players")
    p.add_argument("--black", required=True, metavar="P", help="random | standard | WPC file")
    p.add_argument("--white", required=True, metavar="P", help="random | standard | WPC file")
    p.add_argument("--games", type=cliargs.positive_int, default=1000,
                   help="games to play (default: 1000)")
    p.add_argument("--epsilon", type=cliargs.probability, default=0.1,
                   help="epsilon-greedy, both players")
    p.add_argument("--seed", type=cliargs.seed, default=None,
                   help="random seed (default: drawn at random and printed, so the match can be repeated)")
    p.add_argument("--swap", action="store_true",
                   help="alternate colours (each player Black in half of the games)")
    p.set_defaults(func=_match)

    p = verbs.add_parser("learn", help="one DE learning experiment through the executor")
    p.add_argument("--mode", required=True, choices=["individual", "group"],
                   help="individual learning (one opponent, replaced by each new best) or group learning (Elo-rated group)")
    p.add_argument("--scale", default="default", help="smoke | default | paper")
    p.add_argument("--seed", type=cliargs.seed, default=20261122,
                   help="experiment seed (default: 20261122, the notebook's)")
    cliargs.add_out(p)
    p.set_defaults(func=_learn)
