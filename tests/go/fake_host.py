"""A scripted classical host for the host-engine tests: a GTP engine that answers GNU Go 3.8's
advice commands with canned replies.

    python fake_host.py SCRIPT.json [LOG]

SCRIPT holds ``genmove`` (a vertex, "pass" or "resign"), ``top`` (the ``top_moves`` reply,
``"E5 75.00 D4 20.00"``), ``values`` (``all_move_values``' lines, ``"D4 20.0\\nC3 5.0"``; an
empty string is answered as GNU Go 3.8 does, ``= \\n`` with no closing blank line) and
``territory`` (vertex -> ``unconditional_status`` reply; other vertices "undecided"). Every
command received is appended to LOG (if given). Only the standard library.
"""

import json
import sys


def main() -> int:
    script = json.load(open(sys.argv[1]))
    log = open(sys.argv[2], "a") if len(sys.argv) > 2 else None
    out = sys.stdout
    for raw in sys.stdin:
        line = raw.split("#")[0].strip()
        if not line:
            continue
        if log:
            log.write(line + "\n")
            log.flush()
        words = line.split()
        ident = words.pop(0) if words[0].isdigit() else ""
        name, args = words[0], words[1:]
        if name == "genmove":
            reply = script["genmove"]
        elif name == "top_moves":
            reply = script.get("top", "")
        elif name == "all_move_values":
            values = script.get("values", "")
            if not values:
                out.write(f"={ident} \n")  # GNU Go 3.8's reply when no move has a value
                out.flush()
                continue
            reply = values
        elif name == "unconditional_status":
            reply = script.get("territory", {}).get(args[0].upper(), "undecided")
        elif name in ("name",):
            reply = "fake host"
        elif name == "version":
            reply = "3.8"
        elif name == "protocol_version":
            reply = "2"
        else:  # boardsize, clear_board, komi, play, undo, quit...
            reply = ""
        out.write(f"={ident} {reply}\n\n")
        out.flush()
        if name == "quit":
            break
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
