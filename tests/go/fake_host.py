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


def reply_to(script: dict, name: str, args: list[str]) -> str | None:
    """The reply to command ``name``; None for GNU Go 3.8's bare reply to ``all_move_values``
    when no move has a value."""
    if name == "genmove":
        return script["genmove"]
    if name == "top_moves":
        return script.get("top", "")
    if name == "all_move_values":
        return script.get("values", "") or None
    if name == "unconditional_status":
        return script.get("territory", {}).get(args[0].upper(), "undecided")
    # boardsize, clear_board, komi, play, undo, quit...: an empty reply
    return {"name": "fake host", "version": "3.8", "protocol_version": "2"}.get(name, "")


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
        reply = reply_to(script, name, args)
        if reply is None:
            out.write(f"={ident} \n")  # GNU Go 3.8's reply when no move has a value
            out.flush()
            continue
        out.write(f"={ident} {reply}\n\n")
        out.flush()
        if name == "quit":
            break
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
