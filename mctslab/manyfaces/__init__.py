"""Many Faces of Go knowledge representation (Fotland 1993), on GNU Go's data.

Notebook ``manyfaces_knowledge``; brief ``docs/papers/many-faces-knowledge.md``.

Reading guide:

* ``patterns`` - mkpat parser (patterns.db, patterns2.db, conn.db) and compiler into
  Fotland's three 64-bit masks per 8x8 window.
* ``_match`` - njit matcher kernels: window masks, 8-bit hash prefilter, word-wise
  early exit, incremental re-matching near changed points, operation counters.
* ``api`` - the matcher from Python: :class:`Matcher` (validation, arrays in, matches and
  operation counts out).
* ``joseki`` - GNU Go's joseki SGF trees as a DAG (corner-relative, canonical
  orientation, transpositions merged) and its compressed 1-byte-per-move encoding.
* ``knowledge`` (kernels in ``_knowledge``) - the dynamic knowledge on the shared Go board:
  neighbour counts, connections, eye spaces (``eyes``: GNU Go's eyes.db and eye values),
  tactical status, groups (``groups``: strings joined into groups, their eyes, potential
  and strength class), influence (and one position's influence field, what the figures
  draw), territory, the consistency checker.
* ``reference`` - the plain-Python twins the tests compare the kernels with: the naive
  matcher and the knowledge structures.
* ``regression`` - GNU Go's optics / connect / connection suites against our structures.
* Beyond the paper: ``player`` - a knowledge-based Go player (GTP); ``prior`` - the pattern
  matches as a prior for the Go engine's MCTS; ``player_match`` - their games as stored
  tasks, GNU Go refereeing.
* ``experiments`` (scales, ``Config``, the census task and every runner: the paper's
  measurements and the games), ``measures`` (the task functions of the measurements: the
  matcher's cost chain, time shares, influence and territory of real positions, the enclosed
  field, the joseki DAG, the regression suites), ``tables`` (tables from the runners' results),
  ``figures`` - notebook ``manyfaces_knowledge``; ``verdicts`` - the paper's numbers and claims
  judged from the notebook's tables (``tables.paper_vs_run``); ``claims`` - the same from a
  committed record's (``claims.record_rows``); ``cli`` - ``mctslab manyfaces``; ``bench`` -
  ``mctslab bench manyfaces``.

What the Many Faces domain takes from the Go engine is ``mctslab.go``'s public surface: the
board (:class:`mctslab.go.Board`, its ``state`` arrays and the kernels ``mctslab.go``
exports), ``mctslab.go.api``, ``mctslab.go.gtp``, ``mctslab.go.sgf``, ``mctslab.go.gnugo`` and
``mctslab.go.match``.
"""

import numpy as np

from mctslab.core.warmup import compile_once
from mctslab.go.api import BLACK, WHITE, Board
from mctslab.manyfaces.api import Matcher
from mctslab.manyfaces.joseki import (
    Continuation,
    JosekiDag,
    build_dag,
    bytes_per_move,
    continuations,
    decode,
    encode,
    load_joseki,
)
from mctslab.manyfaces.knowledge import Knowledge, check, enclosed_field
from mctslab.manyfaces.patterns import (
    CompiledPatterns,
    Pattern,
    compile_patterns,
    load,
    load_default,
    parse_file,
    parse_text,
)

__all__ = ["CompiledPatterns", "Matcher", "Pattern", "compile_patterns", "load", "load_default",
           "parse_file", "parse_text", "Continuation", "JosekiDag", "build_dag", "bytes_per_move",
           "continuations", "decode", "encode", "load_joseki", "Knowledge", "check", "warmup"]


@compile_once
def warmup() -> None:
    """Compile (or load from numba's cache) every matcher and knowledge kernel on a tiny input,
    once per process (``compile_once``)."""
    pats = compile_patterns(parse_text("Pattern W1\n\nO*\n..\n\n:8,a\n\n"
                                       "Pattern W2\n\n|O*\n+--\n\n:8,a\n", "warmup"))
    board = np.zeros((9, 9), np.int8)
    for use_hash in (False, True):
        for early_exit in (False, True):
            m = Matcher(pats, 9, use_hash=use_hash, early_exit=early_exit)
            m.set_board(board)
            board[4, 4] = 1
            m.update(board)
            board[4, 4] = 0
            m.update(board)
    know = Knowledge(Board(9))
    for color, move in ((BLACK, (0, 1)), (WHITE, (0, 0)), (BLACK, (1, 0)), (WHITE, (4, 4)),
                        (BLACK, (2, 2)), (WHITE, (4, 6))):     # a capture at move 3
        know.play(color, move)
    know.connections()
    know.territory()
    check(know)
    enclosed_field(3, 2.0)
