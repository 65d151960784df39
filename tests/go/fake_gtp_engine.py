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
    size, stones, handled = 19, {}, 0
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
        ok, reply = True, ""
        if command == "protocol_version":
            reply = "2"
        elif command == "name":
            reply = "Fake"
        elif command == "version":
            reply = "0.1"
        elif command == "boardsize":
            size, stones = int(rest[0]), {}
        elif command == "clear_board":
            stones = {}
        elif command in ("komi", "time_settings"):
            pass
        elif command == "play":
            if refuse:
                ok, reply = False, "illegal move"
            elif rest[1].lower() != "pass":
                if rest[1].upper() in stones:
                    ok, reply = False, "illegal move"
                else:
                    stones[rest[1].upper()] = rest[0][0].lower()
        elif command == "genmove":
            empty = [f"{c}{r}" for r in range(1, size + 1) for c in COLUMNS[:size]
                     if f"{c}{r}" not in stones]
            reply = empty[0] if empty else "pass"
            if empty:
                stones[reply] = rest[0][0].lower()
        elif command in ("all_legal",):
            reply = " ".join(f"{c}{r}" for r in range(1, size + 1) for c in COLUMNS[:size]
                             if f"{c}{r}" not in stones)
        elif command == "list_stones":
            reply = " ".join(v for v, c in stones.items() if c == rest[0][0].lower())
        elif command == "captures":
            reply = "0"
        elif command == "final_score":
            reply = "W+6.5"
        elif command == "showboard":
            reply = "\n" + " ".join(sorted(stones))
        elif command == "quit":
            out.write(f"={ident}\n\n".encode())
            out.flush()
            return 0
        else:
            ok, reply = False, "unknown command"
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
