"""``mctslab manyfaces``: the Many Faces of Go knowledge structures from the command line.

    mctslab manyfaces analyse GAME.sgf [--move N] [--png FILE]
    mctslab manyfaces patterns GAME.sgf [--move N] [--limit K]
    mctslab manyfaces joseki [--stats] [GAME.sgf [--move N]]
    mctslab manyfaces gtp [--size N] [--komi K] [--seed S]

``analyse`` prints strings, groups with strength, connections, eye spaces (min/typ/max in
eighths), the influence map and the territory estimate of the position after N moves (all
moves by default); ``--png`` draws the influence map. ``patterns`` prints the patterns that
match (GNU Go's patterns.db, patterns2.db, conn.db) and the matcher's operation counts for
a full match and for the incremental update from the position one move earlier. ``joseki``
prints the DAG's size and bytes per move (``--stats``) and, given a game, the joseki
continuations in each corner. ``gtp`` serves GTP 2 on stdin/stdout with the knowledge-based
player (:mod:`mctslab.manyfaces.player`); ``mf_reasons`` gives the last genmove's reasons.
"""

from __future__ import annotations

import sys

from mctslab.core import cliargs

__all__ = ["add_parser"]


def _load(args):
    from mctslab.go import sgf

    board, info = sgf.load(args.game, args.move)
    return board, info


def _vertex(board, point) -> str:
    from mctslab.go.api import vertex

    return vertex(board.move_of(int(point)), board.size)


def _influence_text(know) -> str:
    from mctslab.manyfaces.knowledge import TERRITORY_THRESHOLD

    board = know.board
    field = know.field_grid()
    stones = board.stones()
    lines = []
    for row in range(board.size - 1, -1, -1):
        cells = []
        for col in range(board.size):
            s, f = stones[row, col], field[row, col]
            if s:
                cells.append("X" if s == 1 else "O")
            elif f >= TERRITORY_THRESHOLD:
                cells.append("b")
            elif f <= -TERRITORY_THRESHOLD:
                cells.append("w")
            elif f >= 0.2:
                cells.append("+")
            elif f <= -0.2:
                cells.append("-")
            else:
                cells.append(".")
        lines.append(f"{row + 1:>2} " + " ".join(cells))
    return "\n".join(lines)


def _analyse(args) -> int:
    from mctslab.manyfaces.knowledge import Knowledge

    board, info = _load(args)
    know = Knowledge(board)
    name = {1: "B", 2: "W"}
    print(f"{info['source']} after {board.move_number} moves")
    print(board)
    status = know.tactical()
    print(f"\nstrings: {len(status)} ({sum(s != 'safe' for s in status.values())} in atari)")
    for g, s in sorted(status.items()):
        if s != "safe":
            print(f"  {name[int(board.state.color[g])]} {_vertex(board, g)}: {s}")
    print("\ngroups (eyes and potential in eighths of an eye):")
    print("  colour stones libs escapes eyes min potential strength  at")
    for grp in sorted(know.groups(), key=lambda g: -g.stones):
        print(f"  {name[grp.color]:>6} {grp.stones:>6} {grp.liberties:>4} {grp.escapes:>7} "
              f"{grp.eyes:>4} {grp.min_eyes:>3} {grp.potential:>9} {grp.strength:<9} "
              f"{_vertex(board, grp.strings[0])}")
    print("\nconnections (string a - string b: type, strength, points at distance 1/2/3):")
    for c in know.connections():
        print(f"  {name[c.color]} {_vertex(board, c.a)}-{_vertex(board, c.b)}: {c.type}, "
              f"{c.strength}, {c.n1}/{c.n2}/{c.n3}")
    print("\neye spaces (min/typ/max eighths, GNU Go digits abcd):")
    for sp in know.eye_spaces():
        lo, typ, hi = sp.eighths
        pts = " ".join(_vertex(board, p) for p in sp.points)
        vital = " ".join(_vertex(board, p) for p in sp.vital) or "-"
        print(f"  {name[sp.owner]} {sp.type:<10} {lo}/{typ}/{hi} {sp.value.digits} "
              f"vital {vital}: {pts}")
    t = know.territory()
    print("\ninfluence (X O stones; b w at +-0.5 and beyond; + - at +-0.2):")
    print(_influence_text(know))
    print(f"\nterritory estimate: Black {t['black']}, White {t['white']}, neutral "
          f"{t['neutral']}; B - W - komi = {t['estimate']:+.1f} "
          f"(Tromp-Taylor {board.area_score():+.1f})")
    if args.png:
        from mctslab.core.plotting import plt
        from mctslab.manyfaces.figures import influence_map
        from mctslab.manyfaces.knowledge import influence_field

        fig = influence_map(influence_field(know, info["source"], board.move_number))
        fig.savefig(args.png, dpi=120, bbox_inches="tight")
        plt.close(fig)
        print(f"wrote {args.png}")
    return 0


def _patterns(args) -> int:
    from mctslab.go import sgf
    from mctslab.manyfaces.api import Matcher
    from mctslab.manyfaces.patterns import compile_patterns, load_default

    board, info = _load(args)
    comp = compile_patterns(load_default())
    matcher = Matcher(comp, board.size)
    full = matcher.set_board(board.stones())
    matches = matcher.matches()
    print(f"{info['source']} after {board.move_number} moves: {len(matches)} matches of "
          f"{comp.n_patterns} patterns")
    shown = 0
    for m in matches:
        if m.move is None:
            continue
        p = comp.patterns[m.pattern]
        colour = "B" if m.colour == 0 else "W"
        r, c = m.move
        print(f"  {p.name:<10} {p.source:<13} O={colour} move {_vertex(board, board.point((r, c)))}"
              f" class {p.classes or '-'}")
        shown += 1
        if shown >= args.limit:
            print(f"  ... ({len(matches) - shown} more; --limit)")
            break
    print("full match:  " + ", ".join(f"{k} {v:,}" for k, v in full.items()))
    if board.move_number > 0 and args.move != 0:
        before, _ = sgf.load(args.game, board.move_number - 1)
        m2 = Matcher(comp, board.size)
        m2.set_board(before.stones())
        inc = m2.update(board.stones())
        print("incremental: " + ", ".join(f"{k} {v:,}" for k, v in inc.items()))
    return 0


def _joseki(args) -> int:
    from mctslab.manyfaces import joseki

    dag = joseki.load_joseki()
    if args.stats or args.game is None:
        st = dag.stats()
        b = joseki.bytes_per_move(dag)
        print(f"joseki DAG: {st['nodes']:,} nodes, {st['edges']:,} edges, {st['leaves']} "
              f"leaves, {st['merged_nodes']} merged by transpositions")
        print(f"compressed: {b['bytes']:,} bytes for {b['sgf_moves']:,} SGF moves = "
              f"{b['bytes_per_sgf_move']:.3f} bytes/move ({b['untyped_bytes_per_sgf_move']:.3f} "
              f"without edge types; paper 1.2); table {b['table_bytes']} bytes; entry sizes "
              f"{b['entry_sizes']}")
    if args.game is not None:
        board, info = _load(args)
        top_down = board.stones()[::-1]   # corner_stones reads row 0 as the top
        for corner in joseki.CORNERS:
            stones = joseki.corner_stones(top_down, corner, extent=10)
            conts = joseki.continuations(stones, dag=dag) if stones else []
            text = ", ".join(f"{c.colour}{c.point if c.point else ' tenuki'} ({c.type})"
                             for c in conts) or "no joseki continuation"
            print(f"{corner}: {len(stones)} stones: {text}")
    return 0


def _gtp(args) -> int:
    from mctslab.go.api import Board
    from mctslab.go.gtp import EngineSettings
    from mctslab.manyfaces import player

    Board(args.size)  # ValueError for a size outside 5..25, before serving
    settings = EngineSettings(size=args.size, komi=args.komi, seed=args.seed,
                              dead_playouts=args.dead_playouts)
    return player.main(settings, stdin=sys.stdin.buffer, stdout=sys.stdout.buffer)


def add_parser(subparsers):
    p = subparsers.add_parser("manyfaces", help="Many Faces of Go knowledge structures")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)
    a = verbs.add_parser("analyse", help="strings, groups, connections, eyes, influence")
    a.add_argument("game", help="SGF file")
    a.add_argument("--move", type=cliargs.non_negative_int, default=None,
                   help="after N moves (default: all)")
    a.add_argument("--png", default=None, metavar="FILE",
                   help="draw the influence map to this PNG file")
    a.set_defaults(func=_analyse)
    pt = verbs.add_parser("patterns", help="matching patterns and matcher operation counts")
    pt.add_argument("game", help="SGF file")
    pt.add_argument("--move", type=cliargs.non_negative_int, default=None,
                    help="after N moves (default: all)")
    pt.add_argument("--limit", type=cliargs.positive_int, default=40,
                    help="matches with a move to print")
    pt.set_defaults(func=_patterns)
    j = verbs.add_parser("joseki", help="joseki DAG size, bytes per move, continuations")
    j.add_argument("game", nargs="?", default=None, help="SGF file (continuations per corner)")
    j.add_argument("--move", type=cliargs.non_negative_int, default=None,
                   help="after N moves (default: all)")
    j.add_argument("--stats", action="store_true", help="print the DAG's size and bytes/move")
    j.set_defaults(func=_joseki)
    g = verbs.add_parser("gtp", help="serve GTP 2 with the knowledge-based player")
    g.add_argument("--size", type=cliargs.int_range(5, 25), default=19,
                   help="initial board size (5..25)")
    g.add_argument("--komi", type=cliargs.finite_float, default=6.5,
                   help="komi until the controller sets one (default: 6.5)")
    g.add_argument("--seed", type=cliargs.seed, default=0,
                   help="seed of the player's tie-breaking")
    g.add_argument("--dead-playouts", type=cliargs.positive_int, default=200,
                   help="playouts behind final_status_list dead / final_score")
    g.set_defaults(func=_gtp)
