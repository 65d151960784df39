"""GNU Go's classical move generation as the host of our search: the state-tabu paper's engines.

Itoh & Ohta built gnugo-uct and every gTabu engine inside GNU Go 3.8 (paper, section 5.1). In
GNU Go 3.8 (``engine/genmove.c``, read in the 3.8 release, ``runningskull/gnugo`` fc538acd) the
Monte-Carlo search does not choose the move alone: the classical move generator runs first,
and the search may only *veto* its choice. This module reproduces that arrangement around our
search, with a classical GNU Go 3.8 process (the *host*) spoken to over GTP:

1. The host is fed every move of the game and runs ``genmove`` for the side to move (then
   ``undo``): the classical move, and GNU Go's resignation where it would resign. Its
   ``top_moves`` and ``all_move_values`` give the classical value ``V`` of every move it
   valued (``V > 0``).
2. A pass is passed, and a fuseki-database move (its value exactly 75.00, as GNU Go's own test
   in ``do_genmove``) is played, with no search. With fewer than two allowed moves the
   classical move is played too.
3. Otherwise our UCT (:func:`mctslab.go.api.search`: the configuration's tabu lists, expansion
   threshold, C and playouts) runs over every legal move that is not unconditional territory
   of either colour (``unconditional_status``) and does not fill an own one-point eye, the
   untried root children in order of ``V`` (ties in random order; ``root_order="random"``:
   all random).
4. :func:`shortlist_move`, GNU Go's rule: ``b`` is the root child with the best win rate; the
   shortlist is every move with more than half of ``b``'s visits, or with a win rate above
   0.9 and more than a tenth of ``b``'s visits (every allowed move when ``b``'s win rate is
   below 0.1); the move is the shortlisted move of highest ``V``, ``b`` itself when none has
   ``V > 0``.

Where we differ from GNU Go's own Monte-Carlo mode (``gnugo --monte-carlo``, the named engine
``gnugo-mc`` of :mod:`mctslab.go.match`): our UCB is the paper's Eq. 1 (``X + C sqrt(2 ln n /
n_u)``), not GNU Go's UCB1-tuned variant divided by depth, and has no greedy shortcut (GNU Go
follows a child whose win rate exceeds a bound without exploring); untried children are
ordered by ``V`` once, where GNU Go also promotes moves by a history count during the search;
our playouts score unconditional territory by playing it out, GNU Go's count it for its owner;
GNU Go replaces a shortlisted move that is meaningless in unconditional territory, we never
shortlist one. A fill-liberty move the host finds after a classical pass is searched (GNU Go
would play it).

The host restarts itself when GNU Go crashes, hangs or answers garbage (replaying the game's
moves into a fresh process), at most ``max_restarts`` times per game; then the failure passes
through (:class:`~mctslab.go.gnugo.EngineFailure`) so a match replays the game.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from mctslab.go import _board as kb
from mctslab.go.api import Board, parse_vertex, vertex
from mctslab.go.gnugo import EngineFailure, GtpEngine, gnugo_argv, gtp_color

__all__ = ["Advice", "ClassicalHost", "FUSEKI_VALUE", "ROOT_ORDERS", "root_moves",
           "shortlist_move"]

FUSEKI_VALUE = 75.0  # GNU Go marks fuseki-database moves with this value (engine/fuseki.c)
ROOT_ORDERS = ("value", "random")


@dataclass
class Advice:
    """What the host said about one move.

    ``move``: the classical move ((row, col), None for a pass); ``resign``: GNU Go would resign
    here; ``top``: ``top_moves``' (move, value) pairs, best first; ``values``: ``V`` of every
    move valued above 0 (``all_move_values``); ``territory``: the empty points in unconditional
    territory of either colour; ``seconds``: wall time of the host's replies for this move."""

    move: tuple | None
    resign: bool = False
    top: list = field(default_factory=list)
    values: dict = field(default_factory=dict)
    territory: set = field(default_factory=set)
    seconds: float = 0.0

    @property
    def fuseki(self) -> bool:
        """The classical move is a fuseki-database move (value 75.00): GNU Go plays it as is."""
        return bool(self.top) and self.top[0][0] == self.move and \
            FUSEKI_VALUE <= self.top[0][1] <= FUSEKI_VALUE + 0.01


def _parse_pairs(text: str, size: int) -> list:
    """``"E3 75.00 F7 74.01"`` (or one pair per line) -> [((row, col), 75.0), ...]."""
    words = text.split()
    if len(words) % 2:
        raise ValueError(f"expected vertex-value pairs, got {text[:80]!r}")
    pairs = []
    for i in range(0, len(words), 2):
        move = parse_vertex(words[i], size)
        pairs.append((move, float(words[i + 1])))
    return pairs


class ClassicalHost:
    """A classical GNU Go 3.8 (GTP) that shadows a game and advises on each move.

    ``level``: GNU Go's ``--level`` (the paper's host: 10); ``seed``: its ``--seed`` (GNU Go
    re-seeds every move from it, so the same position gives the same advice); ``resign``:
    allow GNU Go's resignation (otherwise ``--never-resign``); ``argv`` replaces the command
    line (tests use a scripted engine). The process starts at the first :meth:`consult`."""

    def __init__(self, *, level: int = 10, seed: int = 0, komi: float = 6.5, size: int = 19,
                 resign: bool = False, timeout: float = 300.0, max_restarts: int = 3,
                 argv: list[str] | None = None):
        self.level, self.seed, self.resign, self.timeout = level, seed, resign, timeout
        self.max_restarts = max_restarts
        extra = [] if resign else ["--never-resign"]
        self.argv = argv or gnugo_argv(level=level, seed=seed, komi=komi, size=size,
                                       extra=extra)
        self.engine: GtpEngine | None = None
        self.fed: list = []       # moves the host's board holds
        self.setup = None         # (size, komi) the host's board was set up with
        self.restarts = 0
        self.seconds = 0.0        # wall time of all replies
        self.cpu_finished = 0.0   # CPU seconds of host processes already ended

    # -- process and board -----------------------------------------------------------------
    def _start(self) -> None:
        self.engine = GtpEngine(self.argv, timeout=self.timeout)
        self.fed, self.setup = [], None

    def _sync(self, board: Board) -> None:
        """Make the host's board the game's: play what is new, or set up and replay all."""
        if self.engine is None:
            self._start()
        moves = board.moves
        if self.setup != (board.size, board.komi) or self.fed != moves[: len(self.fed)]:
            self.engine.boardsize(board.size)
            self.engine.clear_board()
            self.engine.komi(board.komi)
            self.setup, self.fed = (board.size, board.komi), []
        for color, move in moves[len(self.fed):]:
            self.engine.play(color, move)
            self.fed.append((color, move))

    def cpu_seconds(self) -> float:
        """CPU seconds the host processes of this object have used (Linux; 0 elsewhere)."""
        running = self.engine.cpu_seconds() if self.engine is not None else None
        return self.cpu_finished + (running or 0.0)

    def close(self) -> None:
        if self.engine is not None:
            self.cpu_finished = self.cpu_seconds()
            self.engine.close()
            self.engine = None

    def __enter__(self) -> ClassicalHost:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- advice ----------------------------------------------------------------------------
    def consult(self, board: Board, color: int) -> Advice:
        """The host's advice for ``color`` to move on ``board`` (see the module docstring). A
        failing GNU Go is restarted and the game replayed into it, at most ``max_restarts``
        times in this object's life; then the :class:`EngineFailure` passes through."""
        while True:
            try:
                return self._consult(board, color)
            except EngineFailure:
                if self.engine is not None:
                    self.close()
                if self.restarts >= self.max_restarts:
                    raise
                self.restarts += 1

    def _consult(self, board: Board, color: int) -> Advice:
        start = time.perf_counter()
        self._sync(board)
        engine, size = self.engine, board.size
        reply = engine.send(f"genmove {gtp_color(color)}", timeout=self.timeout)
        resign = reply.strip().lower() == "resign"
        move = None if resign else parse_vertex(reply, size)
        top = _parse_pairs(engine.send_fenced("top_moves"), size)
        values = {m: v for m, v in _parse_pairs(engine.send_fenced("all_move_values"), size)}
        if not resign:
            engine.send("undo")
        territory = set()
        if move is not None:
            for point in board.legal_moves(color):
                status = engine.send(f"unconditional_status {vertex(point, size)}")
                if status.endswith("_territory"):
                    territory.add(point)
        seconds = time.perf_counter() - start
        self.seconds += seconds
        return Advice(move=move, resign=resign, top=top, values=values, territory=territory,
                      seconds=seconds)


def root_moves(board: Board, advice: Advice, order: str = "value", rng=None) -> list:
    """The host engine's root moves for the side to move: legal, not unconditional territory,
    not filling an own one-point eye; best ``V`` first (ties in random order) for
    ``order="value"``, all in random order for ``"random"``. ``rng``: a NumPy Generator."""
    if order not in ROOT_ORDERS:
        raise ValueError(f"root order must be one of {', '.join(ROOT_ORDERS)}, got {order!r}")
    color, state = board.to_move, board.state
    moves = [m for m in board.legal_moves(color)
             if m not in advice.territory and not kb.is_eye_like(state, board.point(m), color)]
    rng = rng if rng is not None else np.random.default_rng(0)
    keys = rng.random(len(moves))
    if order == "value":
        ranked = sorted(range(len(moves)), key=lambda i: (-advice.values.get(moves[i], 0.0),
                                                          keys[i]))
    else:
        ranked = sorted(range(len(moves)), key=lambda i: keys[i])
    return [moves[i] for i in ranked]


def _gnugo_order(move, size: int):
    """GNU Go's board order (``pos`` ascending): the top row first, left to right."""
    row, col = move
    return (size - 1 - row, col)


def shortlist_move(children, values: dict, allowed, size: int):
    """GNU Go's choice after its search (``monte_carlo_genmove``), on our root statistics.

    ``children``: (move, visits, win rate) of the visited root children; ``values``: the
    classical ``V`` per move; ``allowed``: the moves that may be chosen (the root moves).
    Returns ``(move, b, shortlist)``: ``b`` the child with the best win rate (ties: the most
    visits), the shortlist as defined in the module docstring, and the move: the shortlisted
    move of highest ``V`` (ties: GNU Go's board order), ``b`` when none has ``V > 0``."""
    visited = [ch for ch in children if ch[0] is not None and ch[1] > 0]
    if not visited:
        return None, None, []
    b_move, b_visits, b_rate = max(visited, key=lambda ch: (ch[2], ch[1]))
    half, tenth = b_visits // 2, b_visits // 10
    stats = {m: (v, w) for m, v, w in visited}
    shortlist = []
    for move in sorted(allowed, key=lambda m: _gnugo_order(m, size)):
        visits, rate = stats.get(move, (0, 0.0))
        if visits > half or (rate > 0.9 and visits > tenth) or b_rate < 0.1:
            shortlist.append(move)
    chosen, best = b_move, 0.0
    for move in shortlist:
        value = values.get(move, 0.0)
        if value > best:
            chosen, best = move, value
    return chosen, b_move, shortlist
