"""A tiny GTP engine for the tests of ``mctslab go match --opponent gtp``: it plays random legal
moves (never filling its own one-point eyes) or passes, on our board.

    python random_gtp_engine.py [--seed S] [--pass-rate P] [--name NAME] [--version V]
                                [--mode ok|crash|hang|refuse|no-genmove] [--after K]

``--mode`` (or ``$RANDOM_GTP_MODE``, which wins, so a test can change an engine's behaviour
without changing its command line) misbehaves at its ``K``-th ``genmove`` (default 2):
``crash`` exits with code 3 and a line on stderr, ``hang`` sleeps for an hour, ``refuse``
answers ``? cannot generate move``; ``no-genmove`` never knows ``genmove`` (nor lists it);
``unlisted`` answers ``clear_board`` and ``komi`` but neither lists them nor says it knows them
(as michi-c does with ``clear_board``).
"""

import argparse
import os
import random
import sys
import time

from mctslab.go.api import Board, IllegalMove, parse_vertex, vertex

KNOWN = ["protocol_version", "name", "version", "known_command", "list_commands", "boardsize",
         "clear_board", "komi", "play", "genmove", "quit"]


def own_eye(board, move, color) -> bool:
    row, col = move
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if 0 <= r < board.size and 0 <= c < board.size and board.get(r, c) != color:
            return False
    return True


class Engine:
    """The engine's state and one handler per command: ``(ok, reply)``."""

    def __init__(self, args, mode: str):
        self.args, self.mode = args, mode
        self.known = [c for c in KNOWN if not (mode == "no-genmove" and c == "genmove")]
        self.listed = [c for c in self.known
                       if not (mode == "unlisted" and c in ("clear_board", "komi"))]
        self.rng = random.Random(args.seed)
        self.board, self.komi, self.genmoves = Board(19), 6.5, 0

    def handle(self, command: str, rest: list) -> tuple[bool, str]:
        if command not in self.known:
            return False, "unknown command"
        simple = {"protocol_version": "2", "name": self.args.name,
                  "version": self.args.version, "list_commands": "\n".join(self.listed),
                  "quit": ""}
        if command in simple:
            return True, simple[command]
        if command == "known_command":
            return True, "true" if rest and rest[0] in self.listed else "false"
        if command in ("boardsize", "clear_board"):
            self.board = Board(int(rest[0]) if rest else self.board.size, komi=self.komi)
        elif command == "komi":
            self.komi = float(rest[0])
        elif command == "play":
            try:
                self.board.play(color(rest[0]), parse_vertex(rest[1], self.board.size))
            except (IllegalMove, ValueError):
                return False, "illegal move"
        elif command == "genmove":
            return self.genmove(color(rest[0]))
        return True, ""

    def genmove(self, player: int) -> tuple[bool, str]:
        self.genmoves += 1
        if self.genmoves >= self.args.after and self.mode in ("crash", "hang", "refuse"):
            if self.mode == "crash":
                print("random engine: crashing on purpose", file=sys.stderr, flush=True)
                os._exit(3)
            if self.mode == "hang":
                time.sleep(3600)
            return False, "cannot generate move"
        board = self.board
        moves = [m for m in board.legal_moves(player) if not own_eye(board, m, player)]
        move = None if not moves or self.rng.random() < self.args.pass_rate else \
            self.rng.choice(moves)
        board.play(player, move)
        return True, vertex(move, board.size)


def color(text: str) -> int:
    return 1 if text.lower().startswith("b") else 2


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pass-rate", type=float, default=0.0)
    parser.add_argument("--name", default="Random")
    parser.add_argument("--version", default="1.0")
    parser.add_argument("--mode", default="ok")
    parser.add_argument("--after", type=int, default=2)
    args = parser.parse_args()
    engine = Engine(args, os.environ.get("RANDOM_GTP_MODE") or args.mode)
    for raw in sys.stdin:
        parts = raw.split("#")[0].split()
        if not parts:
            continue
        ident = parts.pop(0) if parts[0].isdigit() else ""
        ok, reply = engine.handle(parts[0], parts[1:])
        sys.stdout.write(f"{'=' if ok else '?'}{ident} {reply}".rstrip(" ") + "\n\n")
        sys.stdout.flush()
        if parts[0] == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
