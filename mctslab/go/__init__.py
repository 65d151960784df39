"""Go: the engine behind the two Go papers (the state-tabu paper and The Many Faces of Go).

Reading guide, from the board up:

* ``_board`` - padded 1-D board kernels: play, legality, eyes, area score, Zobrist hash (numba);
* ``_playout`` - playout policies (light: uniform random, never filling an own eye) and the
  tabu check of the first playout moves; ``_patterns`` - the pattern policy's kernels (GNU Go's
  3x3 Monte-Carlo patterns, captures, escapes); ``patterns`` - the pattern files' reader and
  the table the kernels use;
* ``_tabu`` - the state-tabu paper's FIFO queues (kernels); ``tabu`` - its engines by name
  (Table 1), the Eq. 8 tabu-size schedule and the Eq. 12 bound;
* ``_search`` - UCT's kernels on ``mctslab.core.tree``; ``uct`` - their Python side (the
  arrays made, the tree grown, the root's children read back); ``api`` - :class:`Board`,
  :func:`search`, GTP vertices; ``reference`` - the plain-Python twin the tests compare the
  kernels with;
* the strong engine: ``_strong`` - MCTS with RAVE on ``mctslab.core.tree``;
  ``_prior`` - priors of new tree nodes (captures, self-atari, 3x3 patterns, distance to the
  last move, edge); ``_heavy`` - its playouts (pattern policy with a self-atari filter,
  recording moves for AMAF); ``_ladder`` - its ladder reader (for the priors and the
  playouts, ``ladders``); ``_twolib`` - two-liberty tactics in the playouts, read with it;
  ``_large`` - large-pattern keys (diamonds of radius 2-4, one key
  per shape and its symmetries) and their lookup; ``large_patterns`` - the table learned from
  human games that the ``large`` prior reads (``data/go-patterns``); ``strong`` - its Python
  side (:func:`strong.search`, the pieces' switches and defaults); ``strong_reuse`` - tree
  reuse between moves;
* ``engine`` - ``EngineSettings``, the one settings type of our engine; ``host`` - the paper's
  engines: GNU Go 3.8's classical move generation hosts our search, which may veto its move;
* ``endgame`` - the end of a game: Tromp-Taylor owners, the plain count (every stone alive),
  dead stones read by the engine's own playouts, the pass rules (the strong engine passes
  only when the plain count wins, else captures the dead stones first);
  ``clock`` - time controls (``time_settings``, ``time_left``, ``kgs-time_settings``) as
  seconds per move;
* ``gnugo`` - the GTP client for GNU Go (or any GTP engine), with failure detection;
* ``game`` - one game between two GTP engines from the empty board, and its record;
  ``gtp`` - our GTP engine (``mctslab go gtp``: the pure and the host move rules);
  ``sgf`` - SGF in and out (sgfmill);
* ``match`` - the one game loop for any two players, the game task and the match summary
  (both counts: the referee's and the plain count); ``external`` - any GTP engine as a player
  (Pachi, michi-c: probed, labelled by its name, version and command);
  ``match_run`` - the ``mctslab go match`` verb's run;
  ``match_record`` - a match's folder as a record: checked against its games, packed to commit;
* ``experiments``, ``tables``, ``figures`` - the ``go_state_tabu`` notebook: protocol and
  scales, the paper's tables, its figures; ``played`` - what the tables read (``Played``: a
  run's tasks and results, or a match record's stored games read back); ``claims`` - the paper's headline claims judged from
  those tables, and the rows only a 19x19 run judges (``tables.record_rows`` for the records);
  ``record_runs`` - one part of the protocol run as the notebook runs it, for a record (the
  19x19 Table 2 games of a match record, the uniform-redraw reading); ``strong_record`` - the
  strong engine's committed matches (validation, ablation, the tabu head-to-head) as tables,
  with their power; ``plans`` - the recorded runs' protocols as data (a record's
  ``plan.json``: rows, flags, seed, games, the interleaved order); ``plan_run`` - playing a
  plan's rows (and the paper scale's veto-rate steps); ``record_hooks`` - what
  ``mctslab records`` and ``docs/bench`` know of Go's records; ``positions`` - the shipped 9x9
  veto-rate positions and how they are made;
* ``cli`` - the ``mctslab go`` verbs (``cli_engine``: the engine options and the ``search`` verb); ``bench`` - ``mctslab bench go``.
"""

from mctslab.core.warmup import compile_once
from mctslab.go import _board, endgame, strong
from mctslab.go._board import (
    BORDER,
    I_NUM_EMPTY,
    OK,
    atari_liberty,
    check_move,
    full_hash,
)
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
           "vertex", "parse_vertex", "POLICIES", "warmup", "warmup_strong"]

# What the Many Faces domain calls on Board.state: the board's point value off the
# board, the move status "legal", the empty-point count slot and three kernels.
__all__ += ["BORDER", "I_NUM_EMPTY", "OK", "atari_liberty", "check_move", "full_hash"]


@compile_once
def warmup() -> None:
    """Compile (or load from numba's cache) the Go kernels the notebooks use, on tiny inputs:
    the board and our UCT search with both playout policies (the tabu lists and the expansion
    threshold are arguments of the same kernels). Once per process (``compile_once``)."""
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
    # not the strong engine's kernels: no notebook default plays it, and compiling them cold
    # took about 2 minutes of a fresh clone's `make reproduce`; go.match and `mctslab go`
    # compile them (warmup_strong) before a game that uses it


@compile_once
def warmup_strong() -> None:
    """Compile (or load from numba's cache) the strong engine's kernels (:mod:`.strong`): every
    playout policy, and a tabu configuration. Once per process (``compile_once``)."""
    board = Board(5)
    board.play(BLACK, (2, 2))
    for policy in strong.PLAYOUT_POLICIES:
        strong.search(board, 16, policy=policy, seed=0)
    strong.search(board, 16, seed=0, tabu="gTabu2-hash-win")
    endgame.ownership(board, 2, policy="heavy")  # its end-of-game reading
