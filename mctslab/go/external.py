"""Any GTP engine as a match player (``mctslab go match --opponent gtp --opponent-command``):
Pachi, michi-c, GNU Go with other options, or a script, started from a command line.

* :func:`probe` starts the engine once before a match and asks it what the match needs: its
  ``name`` and ``version``, the commands a game sends (:data:`NEEDED`, from ``list_commands``,
  else ``known_command``; one it does not list that can be sent without changing a game,
  :data:`TRIABLE`, is sent, and known if answered: michi-c answers ``clear_board`` without
  listing it), and that it takes the match's board size. A command it does not
  know, a refusal, a crash, a hang past the timeout or a reply that is not GTP is a
  ``ValueError`` naming the command line and the problem, before any game is played;
* :func:`gtp_player` turns a command line into a :class:`~mctslab.go.match.Player` of kind
  ``"gtp"`` whose name says what the engine is: ``<name> <version> <tag>``, the tag being the
  user's label or the first 8 hex digits of the SHA-256 of the command line (so the label, and
  the match's experiment name ``go_match_<candidate>_vs_<label>``, are stable for the same
  engine and command).

``{seed}`` in the command line becomes each game's seed for that side (Pachi's ``-s {seed}``,
GNU Go's ``--seed {seed}``): game ``i`` of two matches with the same match seed meets the same
engine. During a game the engine is a :class:`~mctslab.go.gnugo.GtpEngine`: a crash, a hang
past ``--timeout`` or garbage replays the game (at most three times, then the game fails with
the engine's last failure named), a refused command fails it; the games stored stay stored.
"""

from __future__ import annotations

import hashlib
import shlex
from dataclasses import dataclass

from mctslab.go import gnugo
from mctslab.go.match import Player

__all__ = ["NEEDED", "TRIABLE", "EngineInfo", "command_argv", "command_tag", "probe", "gtp_player"]

# what a match sends to a player (mctslab.go.game.play_game, GtpEngine.close)
NEEDED = ("boardsize", "clear_board", "komi", "play", "genmove", "quit")
# the commands the probe may send to an engine that does not list them, to see if it knows them
TRIABLE = {"boardsize": "boardsize {size}", "clear_board": "clear_board", "komi": "komi 6.5"}


@dataclass(frozen=True)
class EngineInfo:
    """What a GTP engine says it is, and the commands it knows."""

    name: str
    version: str
    commands: tuple


def command_argv(command: str) -> list[str]:
    """A command line as its words (shell quoting); ValueError when it is empty or badly
    quoted."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ValueError(f"the engine command {command!r} cannot be split into words: "
                         f"{exc}") from None
    if not argv:
        raise ValueError("the engine command is empty")
    return argv


def command_tag(argv) -> str:
    """The first 8 hex digits of the SHA-256 of the command line (its words, shell-quoted)."""
    return hashlib.sha256(shlex.join(argv).encode()).hexdigest()[:8]


def probe(argv, *, size: int = 19, timeout: float = 60.0) -> EngineInfo:
    """Start the engine of ``argv`` (``{seed}`` as 0), ask its name, version and commands, check
    it knows :data:`NEEDED` and takes ``boardsize size``, and quit it. ValueError naming the
    command line and the problem otherwise."""
    argv = [str(a).replace("{seed}", "0") for a in argv]
    where = f"the GTP engine {shlex.join(argv)!r}"
    try:
        engine = gnugo.GtpEngine(argv, timeout=timeout)
    except gnugo.EngineFailure as exc:
        raise ValueError(f"{where} does not start: {exc}") from None
    try:
        name = engine.send("name") or argv[0]
        version = engine.send("version")
        try:
            commands = tuple(engine.send("list_commands").split())
        except gnugo.GtpError:  # an engine without list_commands: ask one by one
            commands = tuple(c for c in NEEDED
                             if engine.send(f"known_command {c}").strip() == "true")
        commands += tuple(c for c in NEEDED if c not in commands and _answers(engine, c, size))
        missing = [c for c in NEEDED if c not in commands]
        if missing:
            raise ValueError(f"{where} ({name} {version}) does not know "
                             f"{', '.join(missing)}, which a match sends")
        engine.send(f"boardsize {int(size)}")
    except gnugo.GtpError as exc:
        raise ValueError(f"{where}: {exc}") from None
    except gnugo.EngineFailure as exc:
        raise ValueError(f"{where} failed when probed: {exc}") from None
    finally:
        engine.close()
    return EngineInfo(name.strip(), version.strip(), commands)


def _answers(engine, command: str, size: int) -> bool:
    """Whether the engine answers ``command`` (one of :data:`TRIABLE`, sent with a valid
    argument) with a success."""
    if command not in TRIABLE:
        return False
    try:
        engine.send(TRIABLE[command].format(size=int(size)))
    except gnugo.GtpError:
        return False
    return True


def gtp_player(command: str, *, label: str | None = None, size: int = 19,
               timeout: float = 60.0) -> Player:
    """The ``"gtp"`` player of ``command`` (probed first, :func:`probe`), named
    ``<name> <version> <label or command tag>``."""
    argv = command_argv(command)
    info = probe(argv, size=size, timeout=timeout)
    tag = label or command_tag(argv)
    return Player("gtp", argv=tuple(argv), name=" ".join(
        part for part in (info.name, info.version, tag) if part))
