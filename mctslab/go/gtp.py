"""``mctslab go gtp``: our Go engine as a GTP 2 engine on stdin/stdout (GoGui, Sabaki, GNU Go).

Implements the GTP 2 draft (Farnebäck 2002) commands an interface or a match needs:
protocol_version, name, version, known_command, list_commands, boardsize, clear_board, komi,
play, genmove, undo, showboard, final_score, final_status_list, time_settings, time_left,
kgs-time_settings, kgs-genmove_cleanup, loadsgf, quit.

Framing is the spec's: a command line ``[id] name [args]``; replies ``=id result\\n\\n`` or
``?id message\\n\\n`` (``=id\\n\\n`` when there is nothing to say), with the spec's error strings
(``unknown command``, ``syntax error``, ``illegal move``, ``unacceptable size``, ``cannot undo``,
``cannot load file``). Input is preprocessed as section 3.1 says: control characters other than
HT and LF dropped, HT read as a space, ``#`` comments removed, empty lines ignored (no reply).
Bytes that are not UTF-8 are replaced, so a garbage line gets an error reply and the engine
keeps running. Nothing but replies goes to stdout; logs go to stderr.

Our choices where GTP leaves them open:
- ``genmove``, pure engine (``classical="none"``): one :func:`mctslab.go.api.search` with the
  configured playouts, policy, C, configuration (tabu lists, expansion threshold) and seed (the
  seed advances per call, so a game is reproducible and moves differ); the root move by most
  visits unless ``root_select="winrate"``; with ``engine="strong"`` the search is
  :func:`mctslab.go.strong.search` (RAVE, priors, heavy playouts). It resigns when the root win rate is below
  ``resign`` (never in cleanup). Passing follows ``pass_rule`` (:mod:`mctslab.go.endgame`):
  ``estimate`` (the UCT engine's) passes when the search returns no move, or when the
  opponent just passed and we win the area count after removing the stones our playouts find
  dead (so games against GNU Go end with two passes); ``plain`` (the strong engine's) passes
  only when the count with every stone alive wins, and otherwise plays on to capture the
  opponent's dead stones (:meth:`GtpServer.play_on`).
- ``genmove``, host engine (``classical="gnugo"``, the state-tabu paper's engines): GNU Go 3.8's
  classical move generation, shadowing the game in a subprocess, proposes the move and our
  search may veto it (:mod:`mctslab.go.host`); every decision is kept in ``decisions``.
- ``final_status_list``/``final_score``: a stone is dead when, in ``dead_playouts`` random
  playouts from the position (light playouts: uniform legal moves that never fill an own
  one-point eye, to two passes; under ``pass_rule="plain"`` the strong engine's own heavy
  ones), its point ends owned by the other colour more than ``dead_threshold`` (0.7) of the
  time: the estimate GoGui and Sabaki expect from
  ``final_status_list dead``. ``final_status_list seki`` lists the strings that, once those
  are removed, share a liberty no colour owns that neither colour can play without being
  captured at once (:func:`mctslab.go.endgame.seki_stones`); ``alive`` is every other stone.
  ``final_score`` is the area (Tromp-Taylor) score after removing the dead stones (a seki's
  shared liberties count for neither side).
- ``kgs-genmove_cleanup``: ``genmove`` that never passes while a legal move exists that does
  not fill one of our own one-point eyes (and never resigns): the simplest honest cleanup.
- ``time_settings``, ``kgs-time_settings`` and ``time_left`` set the clock
  (:mod:`mctslab.go.clock`): the strong engine stops each search at the move's share of the
  time left (the playouts stay the cap); the UCT engine records them and keeps its playouts.
- ``loadsgf FILE [N]``: the main line up to and not including move N (GTP's meaning).
"""

from __future__ import annotations

import sys

import numpy as np

from mctslab import __version__
from mctslab.go import api as go_api
from mctslab.go import clock, endgame, sgf, strong
from mctslab.go.endgame import area_owner, dead_stones, non_eye_moves, own_eye, seki_stones
from mctslab.go.engine import EngineSettings
from mctslab.go.host import ClassicalHost, root_moves, shortlist_move

__all__ = ["EngineSettings", "GtpServer", "area_owner", "dead_stones", "main", "non_eye_moves",
           "own_eye"]

COMMANDS = ("protocol_version", "name", "version", "known_command", "list_commands", "boardsize",
            "clear_board", "komi", "play", "genmove", "undo", "showboard", "final_score",
            "final_status_list", "time_settings", "time_left", "kgs-time_settings",
            "kgs-genmove_cleanup", "loadsgf", "quit")


class CommandError(Exception):
    """A ``?`` reply with this message (the spec's error strings)."""


def _api(api):
    return go_api if api is None else api


def score_text(black_margin: float) -> str:
    """GTP score string: ``B+3.5``, ``W+0.5`` or ``0``."""
    if black_margin > 0:
        return f"B+{black_margin:g}"
    if black_margin < 0:
        return f"W+{-black_margin:g}"
    return "0"


class GtpServer:
    """The GTP engine: :meth:`handle` turns one input line into one reply (or None), :meth:`run`
    loops over ``stdin`` until ``quit`` or end of input. ``api`` is the rules/search module
    (:mod:`mctslab.go.api`; tests may pass a stand-in). Another engine subclasses it and
    overrides :meth:`choose_move` (and ``commands``/``engine_name`` with a ``cmd_*`` method per
    extra command): the framing, board and scoring commands stay these."""

    commands: tuple = COMMANDS   # what known_command/list_commands report and handle accepts
    engine_name: str = "mctslab"
    propagate_errors: bool = False  # raise instead of replying "? internal error"

    def __init__(self, settings: EngineSettings | None = None, stdin=None, stdout=None,
                 stderr=None, api=None):
        self.settings = settings or EngineSettings()
        self.api = _api(api)
        self.stdin = stdin if stdin is not None else sys.stdin.buffer
        self.stdout = stdout if stdout is not None else sys.stdout.buffer
        self.stderr = stderr if stderr is not None else sys.stderr
        self.size, self.komi = self.settings.size, self.settings.komi
        self.time_settings = None
        self.time_control: clock.TimeControl | None = None  # time_settings, kgs-time_settings
        self.time_left: dict[int, tuple[float, int]] = {}
        self.searches = 0
        self.quit = False
        self.board = self._new_board(self.size)
        self.host: ClassicalHost | None = None  # the host engine's GNU Go, started on demand
        self.decisions: list[dict] = []  # per genmove: what was searched and chosen
        self.tabu_candidates = 0          # over all searches of this session
        self.last_search = None           # the SearchResult of the last genmove, if it searched

    def close(self) -> None:
        """Stop the host GNU Go, if one was started (``quit`` does it too)."""
        if self.host is not None:
            self.host.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- framing -------------------------------------------------------------------------------
    def handle(self, line: bytes | str) -> str | None:
        """The reply to one command line (``None`` for an empty or comment-only line)."""
        if isinstance(line, bytes):
            line = line.decode("utf-8", "replace")
        line = "".join(ch for ch in line.split("#", 1)[0].replace("\t", " ")
                       if ch >= " " and ch != "\x7f")
        parts = line.split()
        if not parts:
            return None
        ident = ""
        if parts[0].isdigit() and parts[0].isascii():
            ident = parts.pop(0)
            if not parts:
                return f"?{ident} syntax error\n\n"
        name, args = parts[0], parts[1:]
        handler = getattr(self, "cmd_" + name.replace("-", "_"), None)
        if name not in self.commands or handler is None:
            return f"?{ident} unknown command\n\n"
        try:
            result = handler(args)
        except CommandError as exc:
            return f"?{ident} {exc}\n\n"
        except Exception as exc:  # a bug must not kill the session: say so, keep running
            if self.propagate_errors:  # driven in-process (a match): the caller decides
                raise
            self.log(f"internal error in {name!r}: {type(exc).__name__}: {exc}")
            return f"?{ident} internal error: {type(exc).__name__}\n\n"
        return f"={ident} {result}\n\n" if result else f"={ident}\n\n"

    def run(self) -> int:
        """Serve until ``quit`` or end of input; returns the exit code (0)."""
        self.log(f"mctslab GTP engine ready: {self.settings}")
        for raw in self.stdin:
            reply = self.handle(raw)
            if reply is not None:
                self.stdout.write(reply.encode("utf-8"))
                self.stdout.flush()
            if self.quit:
                break
        return 0

    def log(self, message: str) -> None:
        print(f"mctslab-gtp: {message}", file=self.stderr, flush=True)

    # -- argument parsing ------------------------------------------------------------------------
    def _color(self, text: str) -> int:
        t = text.lower()
        if t in ("b", "black"):
            return self.api.BLACK
        if t in ("w", "white"):
            return self.api.WHITE
        raise CommandError("syntax error (invalid color)")

    def _vertex(self, text: str):
        try:
            return self.api.parse_vertex(text, self.size)
        except ValueError:
            raise CommandError("syntax error (invalid vertex)") from None

    def _args(self, args, count: int, optional: int = 0) -> list:
        if not count <= len(args) <= count + optional:
            raise CommandError("syntax error")
        return args

    def _new_board(self, size: int):
        return self.api.Board(size, komi=self.komi, superko=self.settings.superko)

    # -- administrative and setup commands ------------------------------------------------------
    def cmd_protocol_version(self, args):
        return "2"

    def cmd_name(self, args):
        return self.engine_name

    def cmd_version(self, args):
        return __version__

    def cmd_known_command(self, args):
        (name,) = self._args(args, 1)
        return "true" if name in self.commands else "false"

    def cmd_list_commands(self, args):
        return "\n".join(self.commands)

    def cmd_quit(self, args):
        self.quit = True
        self.close()
        return ""

    def cmd_boardsize(self, args):
        (text,) = self._args(args, 1)
        if not (text.isdigit() and text.isascii()):
            raise CommandError("syntax error")
        try:
            board = self._new_board(int(text))
        except ValueError:
            raise CommandError("unacceptable size") from None
        self.size, self.board = int(text), board
        return ""

    def cmd_clear_board(self, args):
        self.board = self._new_board(self.size)
        return ""

    def cmd_komi(self, args):
        (text,) = self._args(args, 1)
        try:
            komi = float(text)
        except ValueError:
            raise CommandError("syntax error") from None
        if not np.isfinite(komi):
            raise CommandError("syntax error")
        self.komi = self.board.komi = komi
        return ""

    def cmd_time_settings(self, args):
        main_time, byo_time, byo_stones = self._args(args, 3)
        try:
            settings = (float(main_time), float(byo_time), int(byo_stones))
            control = clock.from_gtp(*settings)
        except ValueError:
            raise CommandError("syntax error") from None
        self.time_settings, self.time_control, self.time_left = settings, control, {}
        return ""

    def cmd_kgs_time_settings(self, args):
        try:
            control = clock.from_kgs(args)
        except ValueError:
            raise CommandError("syntax error") from None
        self.time_control, self.time_left = control, {}
        return ""

    def move_seconds(self, color: int) -> float:
        """The seconds the next search of ``color`` may take under the clock (0: no limit;
        :mod:`mctslab.go.clock`); only the strong engine stops a search on time."""
        return clock.move_seconds(self.time_control, self.time_left.get(color),
                                  int((self.board.stones() == 0).sum()))

    def cmd_time_left(self, args):
        color, seconds, stones = self._args(args, 3)
        try:
            self.time_left[self._color(color)] = (float(seconds), int(stones))
        except ValueError:
            raise CommandError("syntax error") from None
        return ""

    def cmd_loadsgf(self, args):
        path, *rest = self._args(args, 1, optional=1)
        if rest and not (rest[0].isdigit() and int(rest[0]) >= 1):
            raise CommandError("syntax error")
        # GTP's move_number N: the position before move N, i.e. after N - 1 moves
        moves_played = int(rest[0]) - 1 if rest else None
        try:
            board, _ = sgf.load(path, move_number=moves_played, komi=self.komi)
        except (OSError, ValueError) as exc:
            self.log(f"loadsgf {path}: {exc}")
            raise CommandError("cannot load file") from None
        self.board, self.size, self.komi = board, board.size, board.komi
        return ""

    # -- play ------------------------------------------------------------------------------------
    def cmd_play(self, args):
        color_text, vertex_text = self._args(args, 2)
        color, move = self._color(color_text), self._vertex(vertex_text)
        try:
            self.board.play(color, move)
        except self.api.IllegalMove as exc:
            self.log(f"illegal move {color_text} {vertex_text}: {getattr(exc, 'reason', exc)}")
            raise CommandError("illegal move") from None
        return ""

    def cmd_undo(self, args):
        self._args(args, 0)
        try:
            self.board.undo()
        except IndexError:
            raise CommandError("cannot undo") from None
        return ""

    def cmd_genmove(self, args, cleanup: bool = False):
        (color_text,) = self._args(args, 1)
        color = self._color(color_text)
        move = self.choose_move(color, cleanup)
        if move == "resign":
            return "resign"
        self.board.play(color, move)
        return self.api.vertex(move, self.size)

    def cmd_kgs_genmove_cleanup(self, args):
        return self.cmd_genmove(args, cleanup=True)

    def search(self, board, playouts: int, **kw):
        """The one search of ``genmove`` (``api.search``); an engine that subclasses the server
        overrides it to add to the search (a prior) or to overrule its move."""
        return self.api.search(board, playouts, **kw)

    def _position(self, color: int):
        """The board to search for ``color``: out of turn (GTP allows it), as if the other side
        had passed."""
        board = self.board
        if board.to_move != color:
            board = board.copy()
            board.play(3 - color, None)
        return board

    def _next_seed(self):
        seed = None if self.settings.seed is None else self.settings.seed + self.searches
        self.searches += 1
        return seed

    def _search_for_move(self, board, color: int, **extra):
        s = self.settings
        if s.engine == "strong":
            seconds = clock.combine(s.seconds, self.move_seconds(color))
            result = strong.search(board, s.playouts, policy=s.policy, rave=s.rave,
                                   rave_equiv=s.rave_equiv, priors=s.priors,
                                   prior_weight=s.prior_weight, expand_visits=s.expand_visits,
                                   c=s.c, root_select=s.root_select, seconds=seconds,
                                   seed=self._next_seed(), komi=self.komi, tabu=s.tabu(),
                                   reuse_tree=s.reuse_tree, ladders=s.ladders, lgrf=s.lgrf,
                                   large_patterns=s.large_patterns,
                                   two_liberty=s.two_liberty)
        else:
            tabu = s.tabu()
            result = self.search(board, s.playouts, policy=s.policy, c=s.c,
                                 seed=self._next_seed(), komi=self.komi,
                                 root_select=s.root_select,
                                 expansion_threshold=tabu.expansion_threshold, tabu=tabu,
                                 **extra)
        self.tabu_candidates += result.tabu_candidates
        self.last_search = result
        self.log(f"genmove {'BW'[color - 1]}: {self.api.vertex(result.move, self.size)} "
                 f"win rate {result.root_win_rate:.3f}, {result.playouts} playouts, "
                 f"{result.playouts_per_s:,.0f}/s")
        return result

    def choose_move(self, color: int, cleanup: bool = False):
        """The move ``genmove`` plays: (row, col), None (pass) or "resign"."""
        s = self.settings
        if s.classical == "gnugo" and not cleanup:
            return self.host_move(color)
        board = self._position(color)
        other = 3 - color
        plain = s.pass_rule == "plain" and not cleanup
        if not cleanup and self.board.moves and self.board.moves[-1] == (other, None):
            margin = endgame.plain_margin(board, self.komi) if plain else \
                self.score_margin(board)
            if (margin > 0) == (color == self.api.BLACK) and margin != 0:
                self.log(f"opponent passed and we win the {'plain ' if plain else ''}count: "
                         "pass")
                return None
        result = self._search_for_move(board, color)
        move = result.move
        if move is not None and not self.board.is_legal(color, move):
            # the tree knows simple ko only: under --superko its move may repeat a position
            fallback = [m for m, _, _ in result.children
                        if m is not None and self.board.is_legal(color, m)]
            self.log(f"search move {self.api.vertex(move, self.size)} is illegal here; "
                     f"playing {self.api.vertex(fallback[0] if fallback else None, self.size)}")
            move = fallback[0] if fallback else None
        if plain and move is None:
            move = self.play_on(board, color, result)
        if cleanup:
            if move is None:
                stones = self.board.stones()
                choices = [m for m, _, _ in result.children if m is not None and
                           not own_eye(stones, m[0], m[1], color)]
                choices = choices or non_eye_moves(self.board, color)
                if choices:
                    return choices[0]
            return move
        if s.resign > 0 and result.root_win_rate < s.resign:
            return "resign"
        return move

    def host_move(self, color: int):
        """The host engine's move (:mod:`mctslab.go.host`): GNU Go's classical move unless our
        search vetoes it; each decision is appended to ``decisions``."""
        s = self.settings
        board = self._position(color)
        if self.host is None:
            self.host = ClassicalHost(
                level=s.gnugo_level, seed=(s.seed or 0) % 2**31, komi=self.komi,
                size=self.size, resign=s.resign > 0, timeout=s.timeout,
                argv=list(s.host_argv) if s.host_argv else None)
        advice = self.host.consult(board, color)
        decision = dict(move_number=board.move_number + 1,
                        classical=None if advice.resign else advice.move,
                        fuseki=advice.fuseki, resign=advice.resign, searched=False,
                        shortlist=0, host_seconds=advice.seconds)
        self.decisions.append(decision)
        if advice.resign:
            return "resign"
        if advice.move is None or advice.fuseki:
            decision["move"] = advice.move
            return advice.move
        rng = np.random.default_rng([0 if s.seed is None else s.seed, board.move_number])
        moves = root_moves(board, advice, s.root_order, rng)
        if len(moves) < 2:  # GNU Go searches only with two or more allowed moves
            decision["move"] = advice.move
            return advice.move
        result = self._search_for_move(board, color, root_moves=moves)
        move, best, shortlist = shortlist_move(result.children, advice.values, moves, self.size)
        move = advice.move if move is None else move
        decision.update(searched=True, move=move, best_win_rate_move=best,
                        shortlist=len(shortlist), search_seconds=result.seconds,
                        tabu_candidates=result.tabu_candidates)
        return move

    def play_on(self, board, color: int, result):
        """The ``plain`` pass rule (:mod:`mctslab.go.endgame`): the search prefers to pass;
        pass when the plain count wins, or when it loses and neither the search nor our
        reading of the dead stones sees a win; else the move that plays on (None: pass)."""
        if endgame.plain_count_wins(board, color, self.komi):
            return None
        black, white = self.ownership(board)
        ours, theirs = (black, white) if color == self.api.BLACK else (white, black)
        stones = board.stones()
        dead = [(int(r), int(c)) for r, c in np.argwhere(
            (stones == 3 - color) & (ours > self.settings.dead_threshold))]
        if result.root_win_rate <= 0.5 and not dead:
            return None
        move = endgame.play_on_move(board, color, result.children, dead, own_share=ours)
        self.log(f"pass would lose the plain count ({len(dead)} dead stones of the opponent "
                 f"read): {'pass' if move is None else self.api.vertex(move, self.size)}")
        return move

    # -- scoring ---------------------------------------------------------------------------------
    def _reading_policy(self) -> str:
        """The playouts that read dead stones: the engine's own under the ``plain`` pass rule
        (the strong engine's heavy ones), light ones otherwise (the ``estimate`` rule's)."""
        s = self.settings
        return s.policy if s.pass_rule == "plain" and s.engine == "strong" else "light"

    def ownership(self, board=None):
        """Shares of the reading's playouts each point ends Black's and White's."""
        s = self.settings
        return endgame.ownership(board if board is not None else self.board, s.dead_playouts,
                                 seed=s.seed or 0, policy=self._reading_policy())

    def dead(self, board=None) -> list:
        s = self.settings
        return dead_stones(board if board is not None else self.board, s.dead_playouts,
                           s.dead_threshold, seed=s.seed or 0, policy=self._reading_policy())

    def score_margin(self, board=None) -> float:
        """Black's area margin minus komi after removing the stones playouts find dead."""
        board = board if board is not None else self.board
        stones = board.stones().copy()
        for r, c in self.dead(board):
            stones[r, c] = 0
        owner = area_owner(stones)
        return float((owner == 1).sum() - (owner == 2).sum() - self.komi)

    def cmd_final_score(self, args):
        self._args(args, 0)
        return score_text(self.score_margin())

    def cmd_final_status_list(self, args):
        (status,) = self._args(args, 1)
        status = status.lower()
        if status not in ("dead", "alive", "seki"):
            raise CommandError("syntax error")
        dead = set(self.dead())
        stones = self.board.stones()
        seki = set(seki_stones(stones, dead))
        points = [(int(r), int(c)) for r, c in np.argwhere(stones != 0)]
        status_of = {p: "dead" if p in dead else "seki" if p in seki else "alive" for p in points}
        chosen = [p for p in points if status_of[p] == status]
        return " ".join(self.api.vertex(p, self.size) for p in chosen)

    def cmd_showboard(self, args):
        return "\n" + str(self.board)


def main(settings: EngineSettings | None = None, stdin=None, stdout=None) -> int:
    """Serve GTP on stdin/stdout (the ``mctslab go gtp`` verb)."""
    with GtpServer(settings, stdin=stdin, stdout=stdout) as server:
        return server.run()
