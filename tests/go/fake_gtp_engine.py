"""A fake GTP engine that misbehaves on purpose, for the GTP client's failure tests.

    python fake_gtp_engine.py [--mode ok|crash|hang|garbage|wrong-id|exit-silently] [--after K]
                              [--once FILE]

It answers the first K commands like a tiny, rule-less engine (the board only records stones;
``genmove`` plays the first empty point), then misbehaves:
``crash`` exits with code 3 after writing half a reply, ``hang`` spawns a child that keeps
stdout open and sleeps forever (ignoring SIGTERM, so only a process-group SIGKILL ends it),
``garbage`` writes bytes that are not a GTP reply, ``wrong-id`` answers with another id,
``exit-silently`` exits 0 without a word, ``refuse`` answers every later ``play`` with
``? illegal move``. ``ok`` never misbehaves. With ``--once FILE`` it misbehaves only when FILE
does not exist yet (and creates it), so a restarted engine behaves. Only the standard library.
"""

import argparse
import os
import signal
import subprocess
import sys
import time

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


# replies that never change; komi and time_settings are accepted and ignored
FIXED = {"protocol_version": "2", "name": "Fake", "version": "0.1", "captures": "0",
         "final_score": "W+6.5", "komi": "", "time_settings": ""}


class Board:
    """The fake's whole position: the size and the stones played (vertex -> "b" / "w"); no
    rules beyond "one stone per point"."""

    def __init__(self):
        self.size, self.stones = 19, {}

    def empty(self) -> list[str]:
        return [f"{c}{r}" for r in range(1, self.size + 1) for c in COLUMNS[:self.size]
                if f"{c}{r}" not in self.stones]


def answer(board: Board, command: str, rest: list[str], refuse: bool) -> tuple[bool, str]:
    """``(success, reply)`` to one well-behaved command (``quit`` excepted)."""
    if command in FIXED:
        return True, FIXED[command]
    if command == "boardsize":
        board.size, board.stones = int(rest[0]), {}
    elif command == "clear_board":
        board.stones = {}
    elif command == "play":
        if refuse or (rest[1].lower() != "pass" and rest[1].upper() in board.stones):
            return False, "illegal move"
        if rest[1].lower() != "pass":
            board.stones[rest[1].upper()] = rest[0][0].lower()
    elif command == "genmove":
        empty = board.empty()
        if not empty:
            return True, "pass"
        board.stones[empty[0]] = rest[0][0].lower()
        return True, empty[0]
    elif command == "all_legal":
        return True, " ".join(board.empty())
    elif command == "list_stones":
        return True, " ".join(v for v, c in board.stones.items() if c == rest[0][0].lower())
    elif command == "showboard":
        return True, "\n" + " ".join(sorted(board.stones))
    else:
        return False, "unknown command"
    return True, ""


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="ok")
    parser.add_argument("--after", type=int, default=0)
    parser.add_argument("--once", default=None)
    args = parser.parse_args()
    if args.once is not None:
        if os.path.exists(args.once):
            args.mode = "ok"
        else:
            open(args.once, "w").close()
    out = sys.stdout.buffer
    board, handled = Board(), 0
    for raw in sys.stdin.buffer:
        line = raw.decode("utf-8", "replace").split("#")[0].strip()
        if not line:
            continue
        parts = line.split()
        ident = parts.pop(0) if parts[0].isdigit() else ""
        command, rest = parts[0], parts[1:]
        refuse = args.mode == "refuse" and handled >= args.after and command == "play"
        if args.mode not in ("ok", "refuse") and handled >= args.after:
            misbehave(args.mode, ident, out)
        handled += 1
        if command == "quit":
            out.write(f"={ident}\n\n".encode())
            out.flush()
            return 0
        ok, reply = answer(board, command, rest, refuse)
        out.write(f"{'=' if ok else '?'}{ident} {reply}\n\n".encode())
        out.flush()
    return 0


def misbehave(mode: str, ident: str, out) -> None:
    if mode == "crash":
        out.write(f"={ident} half a rep".encode())
        out.flush()
        print("fake engine: crashing on purpose", file=sys.stderr)
        os._exit(3)
    if mode == "exit-silently":
        os._exit(0)
    if mode == "hang":
        # a child in the same process group holding stdout: killing only the parent would leave
        # the pipe open and the reader waiting
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(3600)
    if mode == "garbage":
        out.write(b"\xff\xfe Segmentation fault?\n\n")
        out.flush()
        time.sleep(3600)
    if mode == "wrong-id":
        out.write(f"={int(ident or 0) + 7} D4\n\n".encode())
        out.flush()
        time.sleep(3600)
    raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    sys.exit(main())
