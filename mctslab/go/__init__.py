"""Go: numba board (incremental strings, pseudo-liberties, Zobrist hash), playouts and UCT.

The substrate for the state-tabu and Many Faces papers (issue 11). Modules:

* ``_board`` - padded 1-D board kernels: play, legality, eyes, area score, hash (numba);
* ``_playout`` - playout policies (light: uniform random, never filling an own eye);
* ``_patterns`` - the pattern policy: GNU Go's 3x3 Monte-Carlo patterns, captures, escapes;
* ``_search`` - UCT on ``mctslab.core.tree``;
* ``api`` - :class:`Board`, :func:`search`, GTP vertices; ``reference`` - the plain-Python
  twin used by the tests; ``bench`` - ``mctslab bench go``.
"""

from mctslab.go.api import (
    BLACK,
    EMPTY,
    POLICIES,
    WHITE,
    Board,
    IllegalMove,
    SearchResult,
    parse_vertex,
    search,
    vertex,
)

__all__ = ["EMPTY", "BLACK", "WHITE", "Board", "IllegalMove", "SearchResult", "search",
           "vertex", "parse_vertex", "POLICIES", "warmup"]

# What the Many Faces domain calls on Board.state (issue 22): the board's point value off the
# board, the move status "legal", the empty-point count slot and three kernels.
from mctslab.go._board import (  # noqa: E402
    BORDER,
    I_NUM_EMPTY,
    OK,
    atari_liberty,
    check_move,
    full_hash,
)

__all__ += ["BORDER", "I_NUM_EMPTY", "OK", "atari_liberty", "check_move", "full_hash"]


def warmup() -> None:
    """Compile (or load from numba's cache) every Go kernel on tiny inputs."""
    from mctslab.go import _board

    board = Board(5, superko=True)
    board.play(BLACK, (2, 2))
    board.legal_moves(WHITE)
    board.area_score()
    board.is_legal(WHITE, (2, 2))
    board.copy().undo()
    state = board.state
    _board.full_hash(state)
    _board.is_eye_like(state, board.point((0, 0)), BLACK)
    _board.atari_liberty(state, board.point((2, 2)))
    search(board, 8, seed=0)
    search(board, 8, seed=0, policy="pattern")
