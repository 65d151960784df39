"""The Go engine's options and its one-position verb, for ``mctslab go`` (:mod:`mctslab.go.cli`):
:func:`engine_options` adds the options of one :class:`~mctslab.go.engine.EngineSettings` to a
verb (``gtp``, ``search``, ``match``), :func:`engine` reads them back, and :func:`search` is the
``search`` verb (one move of the engine from a position: an SGF file or a GTP-style move list,
:func:`parse_move_list`)."""

from __future__ import annotations

import io
import json
import os

from mctslab.core import cliargs

__all__ = ["LEVEL", "engine", "engine_options", "parse_move_list", "search"]

LEVEL = cliargs.int_range(0, 10)  # GNU Go's --level


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


def position(args):
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


def engine(args, **fixed):
    """The :class:`~mctslab.go.engine.EngineSettings` of the engine options (ValueError names a
    bad one): the verb's defaults for the UCT engine, the strong engine's own otherwise."""
    from mctslab.go.engine import engine_settings

    strong = args.engine == "strong"
    verb = {} if strong else args.uct_defaults
    values = dict(playouts=args.playouts, seed=args.seed, config=args.config,
                  classical=args.classical, gnugo_level=args.gnugo_level,
                  root_order=args.root_order, tabu_redraw=args.tabu_redraw,
                  resign=args.resign, timeout=args.timeout, rave=args.rave,
                  rave_equiv=args.rave_equiv, priors=args.priors,
                  prior_weight=args.prior_weight, seconds=args.seconds,
                  pass_rule=args.pass_rule, reuse_tree=args.reuse_tree, ladders=args.ladders,
                  lgrf=args.lgrf, large_patterns=args.large_patterns,
                  two_liberty=args.two_liberty)
    for name in ("policy", "c", "root_select"):
        value = getattr(args, name)
        values[name] = verb.get(name) if value is None else value
    if strong:
        values["expand_visits"] = args.expansion_threshold
    else:
        values["expansion_threshold"] = args.expansion_threshold
    values.update(fixed)
    return engine_settings(args.engine, **values)


def search(args) -> int:
    from mctslab.go import api, gnugo, gtp, warmup, warmup_strong

    board, to_move, where = position(args)
    if args.komi is not None and args.komi != board.komi:
        board.komi = float(args.komi)
    settings = engine(args, size=board.size, komi=board.komi)
    if settings.classical == "gnugo":
        gnugo.find_gnugo()  # a clear error naming how to install GNU Go, before anything runs
    if settings.engine == "strong":  # compile before timing
        warmup_strong()
    else:
        warmup()
    server = gtp.GtpServer(settings, stdin=io.BytesIO(), stdout=io.BytesIO(),
                           stderr=io.StringIO())
    server.board, server.size, server.komi = board, board.size, board.komi
    with server:  # the pure engine: its search alone (no pass or resignation rule)
        if settings.classical == "gnugo":
            move = server.host_move(to_move)
        else:
            move = server._search_for_move(server._position(to_move), to_move).move
    result = server.last_search
    decision = server.decisions[-1] if server.decisions else None
    out = {"position": where, "size": board.size, "komi": board.komi,
           "to_move": "BW"[to_move - 1], "engine": settings.label,
           "move": move if move == "resign" else api.vertex(move, board.size),
           "policy": settings.policy, "seed": args.seed}
    if decision is not None:
        out["classical"] = api.vertex(decision["classical"], board.size)
        out.update(fuseki=decision["fuseki"], searched=decision["searched"],
                   shortlist=decision["shortlist"],
                   vetoed=decision["searched"] and move != decision["classical"])
    top = [] if result is None else result.children[: args.top]
    if result is not None:
        out.update(win_rate=result.win_rate, root_win_rate=result.root_win_rate,
                   playouts=result.playouts, seconds=result.seconds,
                   playouts_per_s=result.playouts_per_s,
                   children=[{"move": api.vertex(m, board.size), "visits": v, "win_rate": w}
                             for m, v, w in top])
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"position: {where}, {board.size}x{board.size}, komi {board.komi:g}, "
          f"{'Black' if to_move == api.BLACK else 'White'} to move")
    if decision is not None:
        print(f"host: GNU Go level {settings.gnugo_level} plays {out['classical']}"
              + (" (fuseki, no search)" if decision["fuseki"] else "")
              + (f"; shortlist {decision['shortlist']} moves" if decision["searched"] else ""))
    if result is not None:
        print(f"search: {result.playouts:,} playouts ({settings.policy}), "
              f"{result.seconds:.3f} s, "
              f"{result.playouts_per_s:,.0f} playouts/s, seed {args.seed}")
    print(f"move: {out['move']}" + (f"  (win rate {result.win_rate:.3f}, root "
                                     f"{result.root_win_rate:.3f})" if result else ""))
    if top:
        print(f"  {'move':>5}  {'visits':>8}  {'win rate':>8}")
    for m, visits, win_rate in top:
        print(f"  {api.vertex(m, board.size):>5}  {visits:>8,}  {win_rate:>8.3f}")
    return 0


def engine_options(p, *, playouts=None, policy="light", resign=0.1, root_select="visits",
                    config=None) -> None:
    """The options of our engine (one :class:`~mctslab.go.engine.EngineSettings`), shared by
    ``gtp``, ``search`` and ``match``; ``policy``, ``root_select`` and C default to these
    values for the UCT engine and to the strong engine's own for ``--engine strong``."""
    p.set_defaults(uct_defaults=dict(policy=policy, c=1.5, root_select=root_select))
    p.add_argument("--engine", default="uct", choices=["uct", "strong"],
                   help="our search: uct (plain UCT, the state-tabu paper's) or strong (RAVE, "
                        "priors, heavy playouts: docs/go.md) (default uct)")
    p.add_argument("--playouts", type=cliargs.positive_int, default=playouts,
                   required=playouts is None, help="playouts per move")
    p.add_argument("--policy", default=None,
                   help=f"playout policy: light, pattern (GNU Go's 3x3 Monte-Carlo patterns) "
                        f"or heavy (strong engine: pattern with a self-atari filter) (default "
                        f"{policy}; strong: heavy)")
    p.add_argument("--seed", type=cliargs.seed, default=0, help="seed (same seed, same moves)")
    p.add_argument("--c", type=cliargs.non_negative_float, default=None,
                   help="UCT exploration constant C (Eq. 1) (default 1.5; strong: 0, RAVE "
                        "explores)")
    p.add_argument("--root-select", default=None, choices=["visits", "winrate"],
                   help=f"pure engine's root move: most visits or best win rate "
                        f"(default {root_select}; strong: visits)")
    p.add_argument("--config", default=config or "gnugo-uct",
                   help="a state-tabu paper engine (gnugo-uct, gTabu0, gTabu18, gTabu18-hash, "
                        "gTabu18-hash-win, any gTabuL[-hash[-win]]): its tabu lists and "
                        "expansion threshold")
    p.add_argument("--classical", default="none", choices=["none", "gnugo"],
                   help="gnugo: GNU Go 3.8's classical move generation hosts the search, which "
                        "may veto GNU Go's move (the paper's engines); none: pure UCT")
    p.add_argument("--gnugo-level", type=LEVEL, default=10,
                   help="GNU Go --level of the host (--classical gnugo) (default 10)")
    p.add_argument("--root-order", default="value", choices=["value", "random"],
                   help="host engine: try untried root moves by GNU Go's value, or at random")
    p.add_argument("--tabu-redraw", default="policy", choices=["policy", "light"],
                   help="a playout move rejected by a tabu list is drawn again by the "
                        "playout policy (default) or uniformly")
    p.add_argument("--expansion-threshold", type=cliargs.non_negative_int, default=None,
                   help="visits before a leaf is expanded (default: the configuration's; "
                        "strong: 2)")
    p.add_argument("--resign", type=cliargs.probability, default=resign,
                   help=f"pure engine: resign below this root win rate; host engine: > 0 lets "
                        f"GNU Go resign where it would; 0 never resigns (default {resign})")
    p.add_argument("--timeout", type=cliargs.positive_float, default=300.0,
                   help="seconds GNU Go may take per reply before it is restarted")
    _strong_options(p)


def _strong_options(p) -> None:
    """The strong engine's options (:func:`engine_options`)."""
    strong = p.add_argument_group("strong engine (--engine strong): each piece on its own")
    strong.add_argument("--rave", default=None, choices=["silver", "gelly", "none"],
                        help="RAVE/AMAF schedule: Silver's beta, Gelly & Silver's, or none "
                             "(default silver)")
    strong.add_argument("--rave-equiv", type=cliargs.positive_float, default=None,
                        help="the RAVE schedule's k (default 3000)")
    strong.add_argument("--priors", default=None,
                        help="prior pieces at expansion, comma-separated: even, capture, "
                             "self-atari, pattern, distance, edge; all or none (default all)")
    strong.add_argument("--prior-weight", type=cliargs.non_negative_float, default=None,
                        help="scale of every prior's virtual playouts (default 1)")
    strong.add_argument("--seconds", type=cliargs.non_negative_float, default=None,
                        help="seconds per move, --playouts stays the cap (default 0: none)")
    strong.add_argument("--pass-rule", default=None, choices=["plain", "estimate"],
                        help="plain: pass only if the count with every stone alive wins "
                             "(strong's default); estimate: if our estimate wins (uct's)")
    strong.add_argument("--reuse-tree", action="store_true", default=None,
                        help="keep the search tree between moves (the subtree under our move "
                             "and the reply); --playouts then counts the reused visits, as "
                             "Pachi's -t =N does (default: a fresh tree per move)")
    strong.add_argument("--ladders", default=None,
                        help="read ladders in: priors (an escape into a ladder gets a loss "
                             "prior, an atari that captures in one the capture bonus), "
                             "playouts (no escape into a ladder), both comma-separated, all or "
                             "none (default none)")
    strong.add_argument("--lgrf", action="store_true", default=None,
                        help="the playouts play the last good reply to the previous move first "
                             "(LGRF-1; default: off)")
    strong.add_argument("--two-liberty", action="store_true", default=None,
                        help="two-liberty tactics in the playouts: an atari that captures a "
                             "string of two liberties in a ladder, an extension that saves an "
                             "own one (default: off)")
    strong.add_argument("--large-patterns", type=cliargs.non_negative_float, default=None,
                        metavar="WEIGHT",
                        help="the large-pattern prior learned from human games: a move whose "
                             "pattern was played a share q of the times it was seen gets "
                             "WEIGHT*sqrt(q) virtual wins (default 0: off; michi uses 100)")
