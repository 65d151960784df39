"""The Go engine from Python: a validated :class:`Board`, GTP vertices and UCT :func:`search`.

Coordinates are sgfmill's ``(row, col)``: row 0 is the bottom row, col 0 the left column, so
GTP ``A1`` is ``(0, 0)``; ``None`` is a pass. Colours are ``BLACK = 1`` and ``WHITE = 2``.
The kernels (:mod:`mctslab.go._board`, ``_playout``, ``_search``) never raise; this module
turns their status codes into :class:`IllegalMove` / ``ValueError`` naming the move.

Positional superko (``Board(superko=True)``) is checked here against the stone-only hashes of
every earlier position of the game; playouts and the search tree use simple ko only.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from mctslab.core.params import finite_number, positive_int
from mctslab.go import _board as kb
from mctslab.go import _playout, uct
from mctslab.go import patterns as pattern_files
from mctslab.go._board import BLACK, EMPTY, WHITE
from mctslab.go.tabu import TabuConfig, parse_config, tabu_size

__all__ = ["EMPTY", "BLACK", "WHITE", "IllegalMove", "Board", "SearchResult", "search",
           "vertex", "parse_vertex", "POLICIES", "COLUMN_LETTERS", "choose_root_move"]

COLUMN_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP columns: no "I"
_COLOR_NAMES = {BLACK: "b", WHITE: "w"}


class IllegalMove(ValueError):
    """An illegal move; ``reason`` is "occupied", "suicide", "ko", "superko" or "off board"."""

    def __init__(self, color: int, move, size: int, reason: str):
        self.reason = reason
        self.color = color
        self.move = move
        try:
            where = vertex(move, size)
        except ValueError:
            where = repr(move)
        super().__init__(f"illegal move {_COLOR_NAMES.get(color, color)} {where}: {reason}")


def vertex(move, size: int) -> str:
    """GTP vertex of ``move`` (``(row, col)`` or None): ``(3, 3) -> "D4"``, ``None -> "pass"``."""
    if move is None:
        return "pass"
    row, col = move
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"vertex {move!r} is off a {size}x{size} board")
    return f"{COLUMN_LETTERS[col]}{row + 1}"


def parse_vertex(text: str, size: int):
    """``(row, col)`` of a GTP vertex ("D4", "pass", case-insensitive; no "I"), None for pass."""
    word = text.strip().upper()
    if word == "PASS":
        return None
    if len(word) >= 2 and word[0] in COLUMN_LETTERS and word[1:].isdigit():
        col = COLUMN_LETTERS.index(word[0])
        row = int(word[1:]) - 1
        if 0 <= row < size and 0 <= col < size:
            return (row, col)
    raise ValueError(f"bad vertex {text!r} for a {size}x{size} board")


def _check_color(color) -> int:
    if color not in (BLACK, WHITE) or isinstance(color, bool):
        raise ValueError(f"bad colour {color!r}: use BLACK (1) or WHITE (2)")
    return int(color)


class Board:
    """A Go position with history (undo), simple ko and optional positional superko."""

    def __init__(self, size: int = 19, komi: float = 6.5, superko: bool = False):
        if not isinstance(size, (int, np.integer)) or not kb.MIN_SIZE <= size <= kb.MAX_SIZE:
            raise ValueError(f"board size must be an integer from {kb.MIN_SIZE} to "
                             f"{kb.MAX_SIZE}, got {size!r}")
        self.size = int(size)
        self.komi = float(komi)
        self.superko = bool(superko)
        self._state = kb.new_state(self.size)
        self._undo: list[tuple] = []  # position arrays before each play
        self._stone_hashes: list[int] = [self._stone_hash()]  # positions seen (for superko)
        self.moves: list[tuple[int, tuple | None]] = []

    # --- coordinates -------------------------------------------------------------------
    def point(self, move) -> int:
        """Kernel point index of ``(row, col)`` (``PASS`` for None); IllegalMove-free, ValueError."""
        if move is None:
            return kb.PASS
        row, col = move
        if not (0 <= row < self.size and 0 <= col < self.size):
            raise ValueError(f"{move!r} is off a {self.size}x{self.size} board")
        return (int(row) + 1) * (self.size + 2) + int(col) + 1

    def move_of(self, point: int):
        """``(row, col)`` of a kernel point (None for PASS)."""
        if point == kb.PASS:
            return None
        row, col = divmod(int(point), self.size + 2)
        return (row - 1, col - 1)

    # --- state -------------------------------------------------------------------------
    @property
    def state(self) -> kb.BoardState:
        """The kernel arrays (read them; do not write)."""
        return self._state

    @property
    def to_move(self) -> int:
        return int(self._state.info[kb.I_TO_MOVE])

    @property
    def move_number(self) -> int:
        return int(self._state.info[kb.I_MOVES])

    @property
    def passes(self) -> int:
        return int(self._state.info[kb.I_PASSES])

    @property
    def hash(self) -> int:
        return int(self._state.hash[0])

    @property
    def ko_point(self):
        """The point the side in ``ko_color`` may not retake now, or None."""
        ko = int(self._state.info[kb.I_KO])
        return None if ko == 0 else self.move_of(ko)

    @property
    def ko_color(self) -> int | None:
        return int(self._state.info[kb.I_KO_COLOR]) if self._state.info[kb.I_KO] else None

    @property
    def captures(self) -> dict[int, int]:
        """Stones captured so far by each colour."""
        info = self._state.info
        return {BLACK: int(info[kb.I_CAPTURES_BLACK]), WHITE: int(info[kb.I_CAPTURES_WHITE])}

    def _stone_hash(self) -> int:
        h = int(self._state.hash[0])
        if self._state.info[kb.I_TO_MOVE] == WHITE:
            h ^= int(self._state.zobrist[0, 0])
        return h

    def get(self, row: int, col: int) -> int:
        return int(self._state.color[self.point((row, col))])

    def stones(self) -> np.ndarray:
        """``int8[size, size]`` of EMPTY/BLACK/WHITE, indexed ``[row, col]`` (row 0 = bottom)."""
        w = self.size + 2
        return self._state.color.reshape(w, w)[1:-1, 1:-1].copy()

    # --- moves -------------------------------------------------------------------------
    def _status(self, color: int, move) -> tuple[str | None, int]:
        """(reason or None, point)."""
        try:
            p = self.point(move)
        except (ValueError, TypeError):
            return "off board", -1
        status = kb.check_move(self._state, color, p)
        if status != kb.OK:
            return kb.STATUS_NAMES[status], p
        if self.superko and p != kb.PASS:
            trial = kb.clone_state(self._state)
            kb.play_unchecked(trial, color, p)
            h = int(trial.hash[0])
            if trial.info[kb.I_TO_MOVE] == WHITE:
                h ^= int(trial.zobrist[0, 0])
            if h in self._stone_hashes:
                return "superko", p
        return None, p

    def play(self, color: int, move) -> list[tuple[int, int]]:
        """Play ``move`` (``(row, col)`` or None for pass) for ``color``; returns the captured
        points. Raises :class:`IllegalMove`. Out-of-turn play is allowed (GTP does it)."""
        color = _check_color(color)
        reason, p = self._status(color, move)
        if reason is not None:
            raise IllegalMove(color, move, self.size, reason)
        st = self._state
        self._undo.append(tuple(getattr(st, f).copy() for f in kb.POSITION_FIELDS))
        kb.play_unchecked(st, color, p)
        self._stone_hashes.append(self._stone_hash())
        self.moves.append((color, None if move is None else (int(move[0]), int(move[1]))))
        n = int(st.info[kb.I_NUM_CAPTURED])
        return [self.move_of(q) for q in st.captured[:n]]

    def is_legal(self, color: int, move) -> bool:
        return self._status(_check_color(color), move)[0] is None

    def legal_moves(self, color: int) -> list[tuple[int, int]]:
        """Every legal point for ``color`` (eyes included, pass excluded), by row then column."""
        color = _check_color(color)
        out = np.zeros(self._state.color.shape[0], np.int16)
        n = kb.legal_points(self._state, color, out)
        moves = [self.move_of(p) for p in out[:n]]
        if self.superko:
            moves = [m for m in moves if self._status(color, m)[0] is None]
        return moves

    def undo(self) -> None:
        if not self._undo:
            raise IndexError("nothing to undo")
        saved = self._undo.pop()
        for name, array in zip(kb.POSITION_FIELDS, saved):
            getattr(self._state, name)[:] = array
        self._stone_hashes.pop()
        self.moves.pop()

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.size, other.komi, other.superko = self.size, self.komi, self.superko
        other._state = kb.clone_state(self._state)
        other._undo = list(self._undo)  # snapshots are never written, sharing is safe
        other._stone_hashes = list(self._stone_hashes)
        other.moves = list(self.moves)
        return other

    def area_score(self, komi: float | None = None) -> float:
        """Tromp-Taylor area score, Black minus White minus komi (positive: Black ahead)."""
        return float(kb.area_score(self._state, self.komi if komi is None else float(komi)))

    @classmethod
    def from_moves(cls, size: int, moves, komi: float = 6.5, superko: bool = False) -> Board:
        board = cls(size, komi, superko)
        for color, move in moves:
            board.play(color, move)
        return board

    def __str__(self) -> str:
        letters = " ".join(COLUMN_LETTERS[: self.size])
        stones = self.stones()
        glyph = {EMPTY: ".", BLACK: "X", WHITE: "O"}
        lines = [f"   {letters}"]
        for row in range(self.size - 1, -1, -1):
            cells = " ".join(glyph[int(v)] for v in stones[row])
            lines.append(f"{row + 1:>2} {cells} {row + 1}")
        lines.append(f"   {letters}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (f"Board(size={self.size}, komi={self.komi}, to_move="
                f"{_COLOR_NAMES[self.to_move]}, move_number={self.move_number})")


# --- search ---------------------------------------------------------------------------

POLICIES: dict[str, int] = {"light": 0, "pattern": 1}
"""Playout policy name -> kernel code (``_playout.playout`` dispatches on the code): "light"
uniform random, "pattern" captures, escapes and GNU Go's 3x3 pattern weights near the last move
(:mod:`mctslab.go._patterns`). A new policy registers its name here and adds its branch in
``_playout.playout``."""


def _policy_data(policy: str, patterns):
    """The kernels' ``policy_data`` for a policy (the pattern table is parsed once)."""
    if policy != "pattern":
        return None
    return pattern_files.policy_data(pattern_files.load_patterns(
        pattern_files.DEFAULT_PATTERN_FILE if patterns is None else patterns))

ROOT_SELECT = ("winrate", "visits")


def _kernel_prior(board: Board, prior, prior_visits):
    """``search``'s ``prior`` as float64 over kernel points (pass: the minimum), or None."""
    positive_int("prior_visits", prior_visits, minimum=0)
    if prior is None or prior_visits == 0:
        return None
    values = np.asarray(prior, dtype=np.float64)
    n = board.size
    if values.shape != (n, n):
        raise ValueError(f"prior must have shape ({n}, {n}), got {values.shape}")
    if not np.all(np.isfinite(values)) or values.min() < 0 or values.max() > 1:
        raise ValueError("prior values must be win rates in [0, 1]")
    out = np.full((n + 2, n + 2), values.min())  # border points; PASS = 0 is one of them
    out[1:-1, 1:-1] = values
    return out.ravel()


def choose_root_move(children: list, root_select: str, root_win_rate: float):
    """``(move, its win rate)`` from the root's ``children`` ((move, visits, win rate), most
    visits first): the most visits (``"visits"``, ties by win rate) or the best win rate among
    the children with at least a tenth of the most-visited child's visits (``"winrate"``);
    ``(None, root_win_rate)`` (a pass) when no child was visited."""
    if not children:
        return None, root_win_rate
    if root_select == "visits":
        move, _, win_rate = max(children, key=lambda item: (item[1], item[2]))
    else:
        floor = max(1, children[0][1] // 10)
        move, _, win_rate = max((ch for ch in children if ch[1] >= floor),
                                key=lambda item: (item[2], item[1]))
    return move, win_rate


@dataclass(frozen=True)
class SearchResult:
    move: tuple | None  # chosen move, None = pass
    color: int  # the colour the move is for
    playouts: int
    seconds: float
    playouts_per_s: float
    children: list  # (move, visits, win_rate) of the root's visited children, most visits first
    root_win_rate: float  # from the viewpoint of ``color``
    win_rate: float  # win rate of the chosen move for ``color`` (a resign signal)
    nodes: int = 0
    tabu_size: int = 0  # L_k used by this search (0: no tabu)
    tabu_candidates: int = 0  # candidate moves the tabu lists rejected, over all playouts
    hashes: np.ndarray | None = None  # uint64[playouts, record_hashes] positions after the
    #                                   first playout moves (0 = the playout ended before)


def search(board: Board, playouts: int, *, policy: str = "light", c: float = 1.5,  # noqa: PLR0913 - the public UCT search: one documented keyword per option, passed through by GTP, Many Faces' prior and the tests
           expansion_threshold: int = 1, root_select: str = "winrate", seed=None,
           komi: float | None = None, max_nodes: int | None = None, tabu=None,
           record_hashes: int = 0, patterns=None, prior=None,
           prior_visits: int = 20, root_moves=None) -> SearchResult:
    """UCT from ``board`` for the side to move with ``playouts`` playouts (see :mod:`mctslab.go._search`
    and :func:`mctslab.go.uct.run_search`).

    ``policy``: a name in :data:`POLICIES` (``patterns``: the "pattern" policy's GNU Go file,
    a name in ``patterns.PATTERN_FILES`` (:mod:`mctslab.go.patterns`) or a path; default ``mc_montegnu_classic``, GNU Go's
    own default); ``c``: the exploration constant C of
    ``X_u + C sqrt(2 ln n / n_u)``; ``expansion_threshold``: visits a leaf needs before it is
    expanded (1 or 30 in the state-tabu paper); ``root_select``: the root move by best win rate
    ("winrate", among the children with at least a tenth of the most-visited child's visits:
    an unguarded maximum takes a child seen twice and won twice) or most visits ("visits",
    ties by win rate); ``tabu``: a :class:`mctslab.go.tabu.TabuConfig` or a configuration name
    (``"gTabu18-hash-win"``; its tabu lists only: playouts, C and threshold come from the
    arguments), sized ``L_k`` by Eq. 8 for the move being searched; ``record_hashes``: keep
    the hash after each of every playout's first ``record_hashes`` moves (the paper's Fig. 5);
    ``seed``: same seed, same result (None: fresh
    entropy); ``komi``: defaults to the board's; ``max_nodes``: a node budget (default
    ``playouts + 2``; the search stops early when it is used up). Win rates are for
    ``board.to_move``. With ``board.superko`` the root moves that would repeat a position are
    dropped (the tree itself uses simple ko only).

    ``prior``: optional prior knowledge (Gelly & Silver 2007), ``float[size, size]`` indexed
    ``[row, col]`` like :meth:`Board.stones`, a win rate in [0, 1] for ``board.to_move`` per
    point (e.g. :func:`mctslab.manyfaces.prior.pattern_prior`; 0.5 is neutral); the pass gets
    the array's minimum. Each root child then starts with ``prior_visits`` (``n_prior``)
    virtual playouts won at its point's rate: root only, deeper nodes start empty. The prior
    steers which children get the playouts; ``children``, ``win_rate`` and the move choice use
    the real playouts only. ``prior=None`` (the default) or ``prior_visits=0``: the search
    without a prior, unchanged (same seed, same result).

    ``root_moves``: the root's children, exactly these ``(row, col)`` moves (legal for
    ``board.to_move``, distinct, no pass), tried in this order before UCB chooses among them
    (a host engine passes every legal move outside unconditional territory, best classical
    value first: :mod:`mctslab.go.host`). None: every legal move that does not fill an own
    one-point eye, plus the pass, in random order. Not combined with ``prior``.
    """

    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; known: {', '.join(POLICIES)}")
    if root_select not in ROOT_SELECT:
        raise ValueError(f"unknown root_select {root_select!r}; use 'winrate' or 'visits'")
    positive_int("playouts", playouts)
    positive_int("expansion_threshold", expansion_threshold, minimum=0)
    if finite_number("c", c) < 0:
        raise ValueError(f"c must be >= 0, got {c!r}")
    if isinstance(tabu, str):
        tabu = parse_config(tabu)
    if tabu is not None and not isinstance(tabu, TabuConfig):
        raise ValueError(f"tabu must be a TabuConfig or a configuration name, got {tabu!r}")
    positive_int("record_hashes", record_hashes, minimum=0)
    size_k = 0 if tabu is None or tabu.mode == 0 else tabu_size(
        tabu.size, board.move_number + 1, board.size)
    komi = board.komi if komi is None else float(komi)
    kernel_prior = _kernel_prior(board, prior, prior_visits)
    kernel_root = None
    if root_moves is not None:
        if kernel_prior is not None:
            raise ValueError("root_moves and prior cannot be combined")
        kernel_root = np.array([board.point(m) for m in root_moves], np.int32)
        if kernel_root.size == 0 or len(set(kernel_root.tolist())) != kernel_root.size:
            raise ValueError("root_moves must be a non-empty list of distinct moves")
        for move in root_moves:
            if move is None or not board.is_legal(board.to_move, move):
                raise ValueError(f"root move {vertex(move, board.size)} is not a legal move "
                                 f"for the side to move")
    start = time.perf_counter()
    run = uct.run_search(
        board.state, int(playouts), c=float(c), expansion_threshold=int(expansion_threshold),
        policy=POLICIES[policy], policy_data=_policy_data(policy, patterns), komi=komi,
        seed=seed, max_nodes=max_nodes,
        tabu_mode=0 if tabu is None else tabu.mode, tabu_size=size_k,
        tabu_moves=5 if tabu is None else tabu.moves,
        tabu_kind=_playout.TABU_MOVE if tabu is not None and tabu.kind == "move"
        else _playout.TABU_STATE, hash_moves=int(record_hashes),
        prior=kernel_prior, prior_visits=int(prior_visits) if kernel_prior is not None else 0,
        tabu_policy_redraws=0 if tabu is None else tabu.policy_redraws, root_moves=kernel_root)
    seconds = time.perf_counter() - start
    children = [(board.move_of(p), int(v), float(wr)) for p, v, wr in run.children]
    if board.superko:  # the tree knows simple ko only: drop root moves that repeat a position
        children = [ch for ch in children if ch[0] is None or board.is_legal(board.to_move, ch[0])]
    children.sort(key=lambda item: -item[1])
    move, win_rate = choose_root_move(children, root_select, run.root_win_rate)
    return SearchResult(move=move, color=board.to_move, playouts=run.playouts, seconds=seconds,
                        playouts_per_s=run.playouts / seconds if seconds > 0 else float("inf"),
                        children=children, root_win_rate=run.root_win_rate, win_rate=win_rate,
                        nodes=run.nodes, tabu_size=size_k, tabu_candidates=run.tabu_candidates,
                        hashes=run.hashes if record_hashes else None)
