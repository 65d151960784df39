"""A GTP client for GNU Go 3.8 (or any GTP engine) running as a subprocess.

GNU Go is the opponent and referee of the state-tabu paper and the independent rules oracle
of the engine tests. Speaking GTP 2 to it must never hang a match or
score a game silently, so every way an engine can fail is detected and named:

- a ``?`` reply raises :class:`GtpError` (the engine is fine, the command was refused);
- the process exits or closes its output: :class:`EngineDied`;
- no complete reply within the deadline: :class:`EngineTimeout`;
- a reply that is not GTP (no ``=``/``?``, wrong id, not UTF-8): :class:`EngineGarbage`.

The last three derive from :class:`EngineFailure`; on any of them the client has already killed
the engine's whole process group, and :meth:`GtpEngine.restart` starts a fresh one (counted in
``restarts``). Replies are read with ``selectors`` against a deadline, no threads.

Vertices go in and out as ``(row, col)`` with row 0 at the bottom (GTP ``A1`` = ``(0, 0)``,
the letter I skipped), ``None`` for a pass; colours as ``1``/``2`` (BLACK/WHITE) or
``"b"``/``"w"``/``"black"``/``"white"``.
"""

from __future__ import annotations

import os
import re
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence

from mctslab.go.api import parse_vertex, vertex

__all__ = [
    "EngineDied", "EngineFailure", "EngineGarbage", "EngineTimeout", "GnuGoNotFound",
    "GtpCommands", "GtpEngine", "GtpError", "MC_SIMULATIONS", "find_gnugo",
    "gnugo", "gnugo_argv", "gnugo_mc_argv", "gnugo_missing", "cpu_seconds",
]

INSTALL_HINT = ("install it with 'sudo apt-get install gnugo' (Debian/Ubuntu, lands in "
                "/usr/games/gnugo), 'brew install gnu-go' (macOS), 'make setup' (as root), "
                "or set MCTSLAB_GNUGO=/path/to/gnugo")
CANDIDATES = ("/usr/games/gnugo", "/opt/homebrew/bin/gnugo", "/usr/local/bin/gnugo")


class GnuGoNotFound(FileNotFoundError):
    """GNU Go is not installed where we look; the message says how to install it."""


class GtpError(RuntimeError):
    """The engine answered ``?``: ``command`` was refused with ``message``."""

    def __init__(self, command: str, message: str):
        super().__init__(f"GTP command {command!r} failed: {message}")
        self.command = command
        self.message = message


class EngineFailure(RuntimeError):
    """The engine process is unusable (it has been killed); :meth:`GtpEngine.restart` it."""


class EngineDied(EngineFailure):
    """The engine exited or closed its output."""


class EngineTimeout(EngineFailure):
    """No complete reply before the deadline."""


class EngineGarbage(EngineFailure):
    """The engine wrote something that is not a GTP reply."""


def find_gnugo(explicit: str | os.PathLike | None = None) -> str:
    """Path of a GNU Go executable: ``explicit``, ``$MCTSLAB_GNUGO``, PATH, then the usual
    Debian and Homebrew locations (as ``scripts/ensure-gnugo``). Raises :class:`GnuGoNotFound`."""
    tried = []
    env = os.environ.get("MCTSLAB_GNUGO")
    for candidate in (explicit, env, shutil.which("gnugo"), *CANDIDATES):
        if not candidate:
            continue
        tried.append(str(candidate))
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return str(candidate)
        if candidate in (explicit, env):  # asked for by name: say so instead of falling back
            raise GnuGoNotFound(f"GNU Go not found at {candidate!r} (from "
                                f"{'the argument' if candidate == explicit else 'MCTSLAB_GNUGO'}); "
                                + INSTALL_HINT)
    raise GnuGoNotFound(f"GNU Go not found (looked on PATH and in {', '.join(CANDIDATES)}); "
                        + INSTALL_HINT)


def check_level(level) -> int:
    """``level`` if it is one of GNU Go's levels (a whole number 0..10), else ``ValueError``."""
    if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= 10:
        raise ValueError(f"GNU Go levels are 0..10, got {level!r}")
    return level


def gnugo_argv(*, level: int = 10, seed: int | None = 0, komi: float = 6.5,
               size: int | None = 19, chinese_rules: bool = True, path: str | None = None,
               extra: Sequence[str] = ()) -> list[str]:
    """Command line of GNU Go in GTP mode. Chinese (area) rules by default, as our playouts and
    the paper's referee score; ``seed`` fixes GNU Go's random choices (``None``: its own; GNU
    Go then seeds from the clock, and two engines started in the same second play alike);
    ``size`` None: no ``--boardsize`` (GNU Go's default, 19)."""
    argv = [find_gnugo(path), "--mode", "gtp", "--level", str(int(level)), "--komi", str(komi)]
    if size is not None:
        argv += ["--boardsize", str(int(size))]
    if chinese_rules:
        argv.append("--chinese-rules")
    if seed is not None:
        argv += ["--seed", str(int(seed))]
    return argv + list(extra)


MC_SIMULATIONS = 8000  # GNU Go 3.8's default mc_games_per_level (engine/globals.c)


def gnugo_mc_argv(*, level: int = 1, simulations: int = MC_SIMULATIONS, seed: int | None = 0,
                  komi: float = 6.5, size: int = 19, path: str | None = None) -> list[str]:
    """GNU Go 3.8's own Monte-Carlo mode (``--monte-carlo``) with ``simulations`` per move:
    ``--level L --mc-games-per-level simulations/max(L, 1)`` (GNU Go's budget is
    ``mc_games_per_level * max(level, 1)``). The classical move generator that runs first plays
    at ``level`` too. GNU Go accepts ``--monte-carlo`` with a board size of at most 9 only
    (``check_boardsize``), but its default board is 19x19: for ``size=19`` the command line has
    no ``--boardsize`` and the engine must never be sent ``boardsize`` (:class:`GtpEngine`'s
    ``fixed_size``)."""
    per_level = simulations // max(int(level), 1)
    if per_level < 1 or per_level * max(int(level), 1) != simulations:
        raise ValueError(f"GNU Go's Monte-Carlo budget is games per level x level: "
                         f"{simulations} simulations do not divide by level {level}")
    return gnugo_argv(level=level, seed=seed, komi=komi, size=None if size == 19 else size,
                      path=path, extra=["--monte-carlo", "--mc-games-per-level", str(per_level)])


def gnugo_missing() -> str | None:
    """Why games against GNU Go cannot be played here (its install hint), or None."""
    try:
        find_gnugo()
    except GnuGoNotFound as exc:
        return f"skipped: GNU Go 3.8 is not installed ({exc})"
    return None


def gnugo(*, timeout: float = 60.0, **settings) -> GtpEngine:
    """A started :class:`GtpEngine` running GNU Go (see :func:`gnugo_argv` for ``settings``)."""
    return GtpEngine(gnugo_argv(**settings), timeout=timeout)


def gtp_color(color) -> str:
    """``"black"``/``"white"`` from 1/2 or any GTP spelling of a colour."""
    text = str(color).strip().lower()
    if text in ("1", "b", "black"):
        return "black"
    if text in ("2", "w", "white"):
        return "white"
    raise ValueError(f"not a colour: {color!r} (use 1/2, 'b'/'w' or 'black'/'white')")


class GtpCommands:
    """The GTP commands as typed calls, for anything with ``send(command, timeout=None)`` (the
    reply text without ``= ``; :class:`GtpError` on ``?``) and a board ``size``: a
    :class:`GtpEngine` subprocess, or an engine driven in-process."""

    size = 19

    fixed_size: int | None = None  # a board size that must never be sent (GNU Go MC on 19x19)

    def boardsize(self, size: int) -> None:
        if self.fixed_size is not None and int(size) == self.fixed_size:
            self.size = int(size)  # the engine's own board size: say nothing
            return
        self.send(f"boardsize {int(size)}")
        self.size = int(size)

    def clear_board(self) -> None:
        self.send("clear_board")

    def komi(self, komi: float) -> None:
        self.send(f"komi {komi}")

    def play(self, color, move) -> None:
        """Play ``move`` ((row, col) or None) for ``color``; GtpError if the engine refuses it."""
        self.send(f"play {gtp_color(color)} {vertex(move, self.size)}")

    def genmove(self, color, timeout: float | None = None):
        """The engine's move for ``color`` (played on its board): (row, col), None for a pass,
        or the string ``"resign"``."""
        reply = self.send(f"genmove {gtp_color(color)}", timeout=timeout)
        if reply.lower() == "resign":
            return "resign"
        return self._vertex(reply, "genmove")

    def all_legal(self, color) -> list[tuple[int, int]]:
        """GNU Go's ``all_legal``: every legal point for ``color`` (eyes included, no pass)."""
        reply = self.send(f"all_legal {gtp_color(color)}")
        return [self._vertex(v, "all_legal") for v in reply.split()]

    def list_stones(self, color) -> list[tuple[int, int]]:
        reply = self.send(f"list_stones {gtp_color(color)}")
        return [self._vertex(v, "list_stones") for v in reply.split()]

    def captures(self, color) -> int:
        """How many stones ``color`` has captured so far (GNU Go extension)."""
        return int(self.send(f"captures {gtp_color(color)}"))

    def final_score(self, timeout: float | None = None) -> str:
        """The engine's score, e.g. ``"B+3.5"``, ``"W+0.5"`` or ``"0"``."""
        return self.send("final_score", timeout=timeout)

    def final_status_list(self, status: str) -> list[tuple[int, int]]:
        reply = self.send(f"final_status_list {status}")
        return [self._vertex(v, "final_status_list") for v in reply.split()]

    def showboard(self) -> str:
        return self.send("showboard")

    def _vertex(self, text: str, command: str):
        try:
            return parse_vertex(text, self.size)
        except ValueError:
            raise self._garbage(f"answered {command!r} with a bad vertex {text!r}") from None

    def _garbage(self, what: str) -> EngineFailure:
        return EngineGarbage(what)


class GtpEngine(GtpCommands):
    """One GTP engine subprocess; ``send`` a command, get the reply text (without ``= ``).

    ``argv`` is the command line; ``timeout`` the default seconds per reply (``send`` can
    override it, e.g. for a long ``genmove``). The engine runs in its own process group, so a
    kill also takes any children it spawned. Use as a context manager, or call :meth:`close`.
    ``fixed_size``: the engine's board size as started, never sent as ``boardsize`` (GNU Go's
    Monte-Carlo mode refuses ``boardsize 19`` but plays on its default 19x19 board).
    """

    def __init__(self, argv: Sequence[str], timeout: float = 60.0, *, cwd=None,
                 fixed_size: int | None = None):
        self.argv = [str(a) for a in argv]
        self.fixed_size = fixed_size
        self.timeout = float(timeout)
        self.cwd = cwd
        self.restarts = 0
        self.size = 19
        self.process: subprocess.Popen | None = None
        self._next_id = 1
        self._buffer = b""
        self._start()

    # -- process lifetime -------------------------------------------------------------------
    def _start(self) -> None:
        self._stderr = tempfile.TemporaryFile()
        try:
            self.process = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
                cwd=self.cwd, start_new_session=True)
        except OSError as exc:
            self._stderr.close()
            raise EngineDied(f"cannot start GTP engine {self.argv[0]!r}: {exc}") from exc
        os.set_blocking(self.process.stdout.fileno(), False)
        self._buffer = b""

    def restart(self) -> None:
        """Kill the engine (if still running) and start a fresh one with the same command."""
        self.kill()
        self._start()
        self.restarts += 1

    def kill(self) -> None:
        """Kill the engine's process group now (no ``quit``)."""
        proc = self.process
        if proc is None:
            return
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                proc.kill()
        else:  # the leader is gone; children it left in the group may not be
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        proc.wait()
        for stream in (proc.stdin, proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self._stderr.close()
        self.process = None

    def close(self, timeout: float = 5.0) -> None:
        """``quit`` politely, then make sure the process group is gone."""
        if self.process is not None and self.process.poll() is None:
            try:
                self.send("quit", timeout=timeout)
                self.process.wait(timeout=timeout)
            except (EngineFailure, GtpError, subprocess.TimeoutExpired):
                pass
        self.kill()

    def __enter__(self) -> GtpEngine:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):  # last resort: never leave an engine running
        try:
            self.kill()
        except Exception:
            pass

    def cpu_seconds(self) -> float | None:
        """CPU seconds the engine process has used so far (Linux ``/proc``), or None."""
        return cpu_seconds(None if self.process is None else self.process.pid)

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stderr_tail(self, chars: int = 400) -> str:
        """The end of what the engine wrote on stderr (for error messages)."""
        try:
            self._stderr.seek(0, os.SEEK_END)
            size = self._stderr.tell()
            self._stderr.seek(max(0, size - chars))
            return self._stderr.read().decode("utf-8", "replace").strip()
        except (OSError, ValueError):
            return ""

    # -- protocol -------------------------------------------------------------------------------
    def _fail(self, kind: type[EngineFailure], what: str) -> EngineFailure:
        code = None
        if self.process is not None:
            try:  # an engine that closed its output is usually exiting: give it a moment
                code = self.process.wait(timeout=2 if kind is EngineDied else 0)
            except subprocess.TimeoutExpired:
                pass
        tail = self.stderr_tail()
        detail = f"GTP engine {os.path.basename(self.argv[0])!r} {what}"
        if code is not None:
            detail += f" (exit code {code})"
        if tail:
            detail += f"; stderr ends: {tail[-200:]!r}"
        self.kill()
        return kind(detail)

    def send(self, command: str, timeout: float | None = None) -> str:
        """Send one command, return the reply's text; :class:`GtpError` on a ``?`` reply,
        :class:`EngineFailure` subclasses when the engine died, hung or answered garbage."""
        command = command.strip()
        if "\n" in command or "\r" in command:
            raise ValueError(f"one GTP command per send, got {command!r}")
        if not self.alive:
            if self.process is None:
                raise EngineDied(f"GTP engine {self.argv[0]!r} is not running (call restart())")
            raise self._fail(EngineDied, f"exited before {command!r}")
        ident = self._next_id
        self._next_id += 1
        try:
            self.process.stdin.write(f"{ident} {command}\n".encode())
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._fail(EngineDied, f"closed its input at {command!r}") from None
        raw = self._read_reply(command, self.timeout if timeout is None else timeout)
        try:
            text = raw.decode("utf-8").replace("\r", "")
        except UnicodeDecodeError:
            raise self._fail(EngineGarbage, f"answered {command!r} with non-UTF-8 bytes "
                             f"{raw[:80]!r}") from None
        m = re.match(r"([=?])(\d*)(.*)", text, re.S)
        if m is None or m.group(2) != str(ident):
            raise self._fail(EngineGarbage, f"answered {command!r} with {text[:80]!r}, not "
                             f"'={ident} ...' or '?{ident} ...'")
        body = m.group(3).strip()
        if m.group(1) == "?":
            raise GtpError(command, body)
        if command == "quit":
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.kill()
        return body

    def send_fenced(self, command: str, timeout: float | None = None) -> str:
        """:meth:`send` for a command whose reply may lack its closing blank line: GNU Go 3.8's
        ``all_move_values`` with nothing to list answers ``= \n`` only, which would leave a
        plain read waiting for ever. The command goes out followed by ``protocol_version`` (a
        fence); the reply is everything before the fence's answer."""
        command = command.strip()
        if "\n" in command or "\r" in command:
            raise ValueError(f"one GTP command per send, got {command!r}")
        if not self.alive:
            raise EngineDied(f"GTP engine {self.argv[0]!r} is not running")
        ident, fence = self._next_id, self._next_id + 1
        self._next_id += 2
        try:
            self.process.stdin.write(f"{ident} {command}\n{fence} protocol_version\n".encode())
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._fail(EngineDied, f"closed its input at {command!r}") from None
        text = ""
        while True:
            raw = self._read_reply(command, self.timeout if timeout is None else timeout)
            chunk = raw.decode("utf-8", "replace").replace("\r", "")
            text = chunk if not text else text + "\n\n" + chunk
            fenced = re.search(rf"(?:^|\n)[=?]{fence}(?!\d)", text)
            if fenced:
                text = text[:fenced.start()]
                break
        m = re.match(r"([=?])(\d*)(.*)", text, re.S)
        if m is None or m.group(2) != str(ident):
            raise self._fail(EngineGarbage, f"answered {command!r} with {text[:80]!r}, not "
                             f"'={ident} ...' or '?{ident} ...'")
        if m.group(1) == "?":
            raise GtpError(command, m.group(3).strip())
        return m.group(3).strip()

    def _read_reply(self, command: str, timeout: float) -> bytes:
        """Bytes up to the blank line ending a reply, ignoring blank lines before it."""
        deadline = time.monotonic() + timeout
        stdout = self.process.stdout
        with selectors.DefaultSelector() as sel:
            sel.register(stdout, selectors.EVENT_READ)
            while True:
                self._buffer = self._buffer.replace(b"\r", b"").lstrip(b"\n")
                end = self._buffer.find(b"\n\n")
                if end >= 0:
                    reply, self._buffer = self._buffer[:end], self._buffer[end + 2:]
                    return reply
                left = deadline - time.monotonic()
                if left <= 0:
                    raise self._fail(EngineTimeout,
                                     f"did not answer {command!r} within {timeout:g} s")
                if not sel.select(left):
                    continue
                try:
                    chunk = os.read(stdout.fileno(), 65536)
                except BlockingIOError:
                    continue
                if not chunk:
                    raise self._fail(EngineDied, f"closed its output while answering {command!r}"
                                     + (f" (partial reply {self._buffer[:80]!r})"
                                        if self._buffer else ""))
                self._buffer += chunk
                if len(self._buffer) > 1 << 22:
                    raise self._fail(EngineGarbage, f"sent over 4 MB without ending its reply "
                                     f"to {command!r}")

    def _garbage(self, what: str) -> EngineFailure:
        return self._fail(EngineGarbage, what)


def cpu_seconds(pid: int | None) -> float | None:
    """User + system CPU seconds of process ``pid`` so far (Linux ``/proc``), or None."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def version(path: str | os.PathLike | None = None) -> str:
    """First line of ``gnugo --version`` (e.g. ``"GNU Go 3.8"``)."""
    out = subprocess.run([find_gnugo(path), "--version"], capture_output=True, text=True,
                         timeout=30)
    return out.stdout.splitlines()[0].strip() if out.stdout else ""

