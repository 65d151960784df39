"""``mctslab go``: the Go engine's verbs.

    mctslab go gtp [--playouts N] [--policy light|pattern] [--size N] [--komi K] [--seed S]
                   [--resign R] [--c C] [--root-select visits|winrate] [--superko]
    mctslab go search POSITION --playouts P [--policy light|pattern] [--seed S] [--move N] [--json]

``gtp`` serves GTP 2 on stdin/stdout (attach it to GoGui or Sabaki: docs/go.md).
``search`` runs one UCT search from POSITION, an SGF file (``--move N``: after N moves of its
main line) or a GTP-style move list such as ``"B D4 W Q16 B pass"`` (``--size``, ``--komi``),
and prints the chosen move, the root's top children and playouts/s.
"""

from __future__ import annotations

import json
import os
import sys

from mctslab.cli import positive_int_arg

__all__ = ["add_parser", "parse_move_list"]


def parse_move_list(text: str, size: int):
    """``"B D4 W Q16 B pass"`` -> ``[(1, (3, 3)), (2, (15, 15)), (1, None)]``; ValueError naming
    the bad token."""
    from mctslab.go.api import BLACK, WHITE, parse_vertex

    tokens = text.replace(",", " ").replace(";", " ").split()
    if len(tokens) % 2:
        raise ValueError(f"move list {text!r}: expected colour-vertex pairs, got {len(tokens)} "
                         f"words")
    moves = []
    for i in range(0, len(tokens), 2):
        word = tokens[i].lower()
        if word not in ("b", "w", "black", "white"):
            raise ValueError(f"move list: {tokens[i]!r} (word {i + 1}) is not a colour "
                             f"(B, W, black, white)")
        moves.append((BLACK if word[0] == "b" else WHITE, parse_vertex(tokens[i + 1], size)))
    return moves


def _position(args):
    """(board, colour to move, description) of the POSITION argument."""
    from mctslab.go import api, sgf

    text = args.position
    if text.lower().endswith(".sgf") or os.path.isfile(text):
        board, info = sgf.load(text, move_number=args.move)
        return board, info["to_move"], f"{text} after {info['move_number']} moves"
    if args.move is not None:
        raise ValueError("--move applies to an SGF file, not to a move list")
    moves = parse_move_list(text, args.size)
    board = api.Board(args.size, komi=6.5 if args.komi is None else args.komi)
    for i, (color, move) in enumerate(moves, start=1):
        try:
            board.play(color, move)
        except api.IllegalMove as exc:
            raise ValueError(f"move list: move {i} is illegal ({exc})") from None
    return board, board.to_move, f"move list of {len(moves)} moves"


def _search(args) -> int:
    from mctslab.go import api

    board, to_move, where = _position(args)
    if args.komi is not None and args.komi != board.komi:
        board.komi = float(args.komi)
    searched = board
    if board.to_move != to_move:  # e.g. after setup stones: let the other side pass first
        searched = board.copy()
        searched.play(3 - to_move, None)
    api.search(api.Board(5), 8, policy=args.policy, seed=0)  # compile before timing
    result = api.search(searched, args.playouts, policy=args.policy, c=args.c, seed=args.seed,
                        root_select=args.root_select,
                        expansion_threshold=args.expansion_threshold)
    top = result.children[: args.top]
    if args.json:
        print(json.dumps({
            "position": where, "size": board.size, "komi": board.komi,
            "to_move": "BW"[to_move - 1], "move": api.vertex(result.move, board.size),
            "win_rate": result.win_rate, "root_win_rate": result.root_win_rate,
            "playouts": result.playouts, "seconds": result.seconds,
            "playouts_per_s": result.playouts_per_s, "policy": args.policy, "seed": args.seed,
            "children": [{"move": api.vertex(m, board.size), "visits": v, "win_rate": w}
                         for m, v, w in top]}))
        return 0
    print(f"position: {where}, {board.size}x{board.size}, komi {board.komi:g}, "
          f"{'Black' if to_move == api.BLACK else 'White'} to move")
    print(f"search: {result.playouts:,} playouts ({args.policy}), {result.seconds:.3f} s, "
          f"{result.playouts_per_s:,.0f} playouts/s, seed {args.seed}")
    print(f"move: {api.vertex(result.move, board.size)}  (win rate {result.win_rate:.3f}, "
          f"root {result.root_win_rate:.3f})")
    print(f"  {'move':>5}  {'visits':>8}  {'win rate':>8}")
    for move, visits, win_rate in top:
        print(f"  {api.vertex(move, board.size):>5}  {visits:>8,}  {win_rate:>8.3f}")
    return 0


def _gtp(args) -> int:
    from mctslab.go import api, gtp, warmup

    if args.policy not in api.POLICIES:
        raise ValueError(f"unknown policy {args.policy!r}; known: {', '.join(api.POLICIES)}")
    if not 0 <= args.resign < 1:
        raise ValueError(f"--resign must be in [0, 1), got {args.resign}")
    api.Board(args.size)  # ValueError for a size outside 5..25, before serving
    threshold, tabu = 1, None
    if args.config:
        from mctslab.go.tabu import parse_config

        threshold, tabu = parse_config(args.config).expansion_threshold, args.config
    settings = gtp.EngineSettings(
        size=args.size, komi=args.komi, playouts=args.playouts, policy=args.policy,
        seed=args.seed, resign=args.resign, c=args.c, root_select=args.root_select,
        superko=args.superko, dead_playouts=args.dead_playouts, expansion_threshold=threshold,
        tabu=tabu)
    warmup()  # compile (or load) the kernels now, not during the first genmove
    return gtp.main(settings, stdin=sys.stdin.buffer, stdout=sys.stdout.buffer)


def _match(args) -> int:
    from pathlib import Path

    from mctslab.core.executor import run_tasks
    from mctslab.core.stats import binomial_test
    from mctslab.core.store import write_json
    from mctslab.go import experiments, gnugo

    cfg = experiments.config("paper", configs=(args.config,), games_per_color=1,
                             board_size=args.size, playouts=args.playouts, komi=args.komi,
                             policy=args.policy, c=args.c, resign=args.resign,
                             timeout=args.timeout, gnugo_level=args.gnugo_level)
    gnugo.find_gnugo()  # a clear error naming how to install GNU Go, before anything runs
    params = [experiments.game_params(cfg, args.config, "BW"[i % 2], args.gnugo_level)
              for i in range(args.games)]
    tasks = experiments.make_tasks("mctslab.go.experiments:game_task", params, seed=args.seed)
    out = Path(args.out)
    results = run_tasks(f"go_match_{args.config}", tasks, workers=args.workers,
                        scheduler=args.scheduler, out=out)
    games = out / "games"
    games.mkdir(parents=True, exist_ok=True)
    for i, result in enumerate(results):
        (games / f"{i:04d}-{params[i]['ours']}.sgf").write_text(result["sgf"])
    summary = {"config": args.config, "gnugo_level": args.gnugo_level, "size": args.size,
               "playouts": args.playouts, "games": len(results)}
    for letter, name in (("B", "as Black"), ("W", "as White")):
        chosen = [r for r, p in zip(results, params) if p["ours"] == letter]
        summary[name] = f"{sum(r['ours_won'] for r in chosen)}/{len(chosen)}"
    wins = sum(r["ours_won"] for r in results)
    test = binomial_test(wins, len(results))
    summary.update(wins=wins, rate=wins / len(results), p_value=test.pvalue,
                   ci95=[test.ci_low, test.ci_high],
                   restarts=sum(r["restarts"] for r in results),
                   area_score_disagrees=sum(r["area_agrees"] is False for r in results))
    write_json(out / "summary.json", summary)
    print(json.dumps(summary, indent=1))
    return 0


def _search_options(p, playouts_default=None) -> None:
    p.add_argument("--playouts", type=positive_int_arg, default=playouts_default,
                   required=playouts_default is None, help="playouts per move")
    p.add_argument("--policy", default="light", help="playout policy: light or pattern")
    p.add_argument("--seed", type=int, default=0, help="search seed (same seed, same move)")
    p.add_argument("--c", type=float, default=1.5, help="UCT exploration constant C")
    p.add_argument("--root-select", default="visits", choices=["visits", "winrate"],
                   help="root move by most visits (default) or best win rate")


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("go", help="Go: GTP engine, one search from a position")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)

    p = verbs.add_parser("gtp", help="serve GTP 2 on stdin/stdout (GoGui, Sabaki, GNU Go)")
    _search_options(p, playouts_default=1000)
    p.add_argument("--size", type=int, default=19, help="initial board size (5..25)")
    p.add_argument("--komi", type=float, default=6.5)
    p.add_argument("--resign", type=float, default=0.1,
                   help="resign below this root win rate (0: never)")
    p.add_argument("--superko", action="store_true", help="positional superko for play")
    p.add_argument("--dead-playouts", type=int, default=200,
                   help="playouts behind final_status_list dead / final_score")
    p.add_argument("--config", default=None,
                   help="a state-tabu paper engine (gnugo-uct, gTabu0, gTabu18, gTabu18-hash, "
                        "gTabu18-hash-win, any gTabuL[-hash[-win]]): its tabu lists and "
                        "expansion threshold")
    p.set_defaults(func=_gtp)

    p = verbs.add_parser("match", help="games against GNU Go 3.8 over GTP (state-tabu paper)")
    p.add_argument("--config", required=True,
                   help="our engine: gnugo-uct, gTabuL[-hash[-win]]; or gnugo (GNU Go against "
                        "itself, the paper's first row of Table 2)")
    p.add_argument("--opponent", default="gnugo", choices=["gnugo"], help="the opponent")
    p.add_argument("--gnugo-level", type=int, default=10, help="GNU Go --level (0..10)")
    p.add_argument("--games", type=positive_int_arg, required=True,
                   help="games in all (colours alternate, ours Black first)")
    p.add_argument("--playouts", type=positive_int_arg, default=8000, help="our playouts per move")
    p.add_argument("--size", type=int, default=19, help="board size")
    p.add_argument("--komi", type=float, default=6.5)
    p.add_argument("--seed", type=int, default=0, help="match seed (per-game seeds spawned)")
    p.add_argument("--policy", default=None,
                   help="our playout policy: pattern (default: GNU Go's 3x3 Monte-Carlo "
                        "patterns, as the paper's engines) or light")
    p.add_argument("--c", type=float, default=1.5, help="UCT exploration constant C")
    p.add_argument("--resign", type=float, default=0.0, help="our resign threshold (0: never)")
    p.add_argument("--timeout", type=float, default=300.0,
                   help="seconds GNU Go may take per reply before it is restarted")
    p.add_argument("--workers", type=int, default=None, help="local worker processes")
    p.add_argument("--scheduler", default=None, help="Dask scheduler address")
    p.add_argument("--out", required=True,
                   help="folder for the SGF of every game, summary.json and the result store")
    p.set_defaults(func=_match)

    p = verbs.add_parser("search", help="one UCT search: move, root children, playouts/s")
    p.add_argument("position", metavar="POSITION",
                   help="an SGF file, or a move list like 'B D4 W Q16 B pass' ('' = empty)")
    _search_options(p)
    p.add_argument("--move", type=int, default=None, help="SGF: the position after N moves")
    p.add_argument("--size", type=int, default=19, help="move list: board size")
    p.add_argument("--komi", type=float, default=None, help="komi (default: SGF KM or 6.5)")
    p.add_argument("--expansion-threshold", type=int, default=1)
    p.add_argument("--top", type=int, default=10, help="root children shown")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=_search)
