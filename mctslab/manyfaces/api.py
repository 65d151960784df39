"""The Many Faces domain from Python: Fotland's pattern matcher over a board.

* :class:`Matcher` - the matcher of :mod:`mctslab.manyfaces._match` on a compiled pattern set
  (:func:`mctslab.manyfaces.patterns.compile_patterns`): ``set_board`` for a full match,
  ``update`` for the incremental one, each returning its operation counts; ``matches()``
  lists them as :class:`Match` (pattern, anchor, orientation, colour, move point).

Boards are ``int8[N, N]`` (0 empty, 1 black, 2 white), N from 1 to 25; a board of another
shape or with another value raises ``ValueError`` naming the problem (the kernels never raise:
the update kernel reports a bad value by its return value). The domain's other entry points
sit with what they wrap: the knowledge structures on the Go board are
:class:`mctslab.manyfaces.knowledge.Knowledge` (kernels in ``_knowledge``), the joseki DAG is
:mod:`mctslab.manyfaces.joseki`; ``mctslab.manyfaces`` re-exports them with :class:`Matcher`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mctslab.manyfaces import _match
from mctslab.manyfaces.patterns import BLOCK, CompiledPatterns, transform_grid, width_classes

__all__ = ["Matcher", "Match", "COUNTER_NAMES", "transform_tables", "entry_words"]

BAD_VALUES = "board values must be 0 (empty), 1 (black) or 2 (white)"
COUNTER_NAMES = ("windows", "hashes", "candidates", "comparisons", "words", "ops", "matches",
                 "mask_ops", "anchors")


def transform_tables(n: int) -> tuple[np.ndarray, np.ndarray]:
    """src[o, a]: the board point shown at transformed point a; fwd[o, p]: where point p
    goes. Same convention as :func:`transform_grid`."""
    idx = np.arange(n * n, dtype=np.int32).reshape(n, n)
    src = np.stack([np.ascontiguousarray(transform_grid(idx, o)).ravel() for o in range(8)])
    fwd = np.empty_like(src)
    for o in range(8):
        fwd[o, src[o]] = np.arange(n * n, dtype=np.int32)
    return src, fwd


def entry_words(c: CompiledPatterns, items: np.ndarray) -> np.ndarray:
    """Candidate-list entries[len(items), 4] uint64: an info word (bits 0-15 pattern,
    16-23 height, 24-31 width, 32-39 orientation bits, 40-43 edge bits, 44 more than
    one block), then the own, other and empty masks of the pattern's first block."""
    items = np.asarray(items, np.int64)
    out = np.zeros((len(items), 4), np.uint64)
    if len(items) == 0:
        return out
    if c.n_patterns > 1 << 16 or c.width.max() > 255 or c.height.max() > 255:
        raise ValueError("too many or too big patterns for the packed candidate lists")
    multi = (c.block_start[1:] - c.block_start[:-1]) > 1
    info = (items | c.height[items].astype(np.int64) << 16 | c.width[items].astype(np.int64) << 24
            | c.orient[items].astype(np.int64) << 32 | c.edges[items].astype(np.int64) << 40
            | multi[items].astype(np.int64) << 44)
    out[:, 0] = info.astype(np.uint64)
    out[:, 1:] = c.masks[c.block_start[:-1][items]]
    return out


@dataclass(frozen=True)
class Match:
    """A match: pattern index, anchor (row, col) in the transformed board, orientation,
    colour (0: ``O`` is black), and the move point ``*`` (row, col) on the board or None."""

    pattern: int
    anchor: tuple[int, int]
    orientation: int
    colour: int
    move: tuple[int, int] | None


class Matcher:
    """Fotland's matcher over an N x N board (int8, 0 empty 1 black 2 white).

    ``set_board`` does a full match; ``update`` brings it to a new board (any number
    of changed points, captures included), re-matching only the (pattern, anchor)
    pairs whose box contains a changed point when ``incremental``. Both return the
    call's operation counts (``counters``; see :mod:`mctslab.manyfaces._match`).
    ``match_tuples()`` gives {(pattern, anchor_row, anchor_col, orientation, colour)}
    with the anchor in the board transformed by orientation o; ``matches()`` adds the
    move point ``*`` on the board. Patterns are ``compiled.patterns`` (normalised)."""

    def __init__(self, compiled: CompiledPatterns, n: int = 19, *, use_hash: bool = True,
                 incremental: bool = True, early_exit: bool = True, word_bits: int = 32):
        if word_bits not in (8, 16, 32, 64):
            raise ValueError(f"word_bits must be 8, 16, 32 or 64, not {word_bits!r}")
        if n < 1 or n > 25:
            raise ValueError(f"board size must be 1..25, not {n!r}")
        self._k = _match
        self.compiled, self.n = compiled, n
        self.use_hash, self.incremental, self.early_exit = use_hash, incremental, early_exit
        self.word_bits = word_bits
        self.src, self.fwd = transform_tables(n)
        c = compiled
        meta = np.zeros((c.n_patterns, 8), np.int32)
        meta[:, :6] = np.stack([c.height, c.width, c.orient, c.edges, c.block_start[:-1],
                                c.block_start[1:]], axis=1)

        def classed(items, n_classes):
            """(starts[1, n_classes + 1], items) of items split by width class."""
            parts = width_classes(items, c.patterns, n_classes)
            starts = np.cumsum([0] + [len(x) for x in parts]).astype(np.int32)[None, :]
            return starts, np.array([i for x in parts for i in x], np.uint16)

        self.max_h, self.max_w = int(c.height.max()), int(c.width.max())
        # the candidate lists are pattern indices (uint16) into one pattern table of
        # 32 bytes per pattern: lists and table stay in the core's caches
        self.pats = _match.Patterns(c.masks, meta, c.block_dr, c.block_dc, c.key_bits,
                                    entry_words(c, np.arange(c.n_patterns)))
        # the hash buckets; all patterns (matching without the hash) and the ones bigger than
        # 8x8 (anchors more than 7 columns left of a changed point), both split by width class
        self.lists = _match.Lists(
            _match.Candidates(c.bucket_sub.reshape(-1, BLOCK + 1),
                              c.bucket_items.astype(np.uint16)),
            _match.Candidates(*classed(c.by_height, BLOCK)),
            _match.Candidates(*classed(c.big, self.max_w)))
        self.key_mask = np.uint64(sum(1 << int(b) for b in c.key_bits))
        self.geometry = _match.Geometry(n, self.fwd, self.max_h, self.max_w, self.key_mask)
        self.board = np.zeros(n * n, np.int8)
        self.win = np.zeros((8, n * n, 3), np.uint64)
        self.match_bits = np.zeros((16, n * n, (c.n_patterns + 63) // 64), np.uint64)
        self.match_count = np.zeros((16, n * n), np.int32)
        self.changed = np.zeros(n * n, np.int32)
        self.changed_old = np.zeros(n * n, np.int8)
        self.counters = np.zeros(_match.N_COUNTERS, np.int64)
        # the kernels' bundles share these arrays (built once: numba types each call's)
        self.state = _match.State(self.win, self.match_bits, self.match_count, self.counters)
        self.switches = _match.Switches(incremental, use_hash, early_exit, word_bits)
        self._matched = False        # no board yet: the first update is a full match

    def _check(self, board, values: bool = True) -> np.ndarray:
        b = np.ascontiguousarray(board, dtype=np.int8)
        if b.shape != (self.n, self.n):
            raise ValueError(f"board must be {self.n}x{self.n}, got shape {b.shape}")
        if values and (b.view(np.uint8) > 2).any():
            raise ValueError(BAD_VALUES)
        return b.ravel()

    def set_board(self, board) -> dict:
        """Full-board match; returns the counters as a dict."""
        self.board[:] = self._check(board)
        self.counters[:] = 0
        self._k.build_windows(self.board, self.n, self.src, self.win)
        self._matched = True
        self._k.match_full(self.n, self.pats, self.lists, self.state, self.switches)
        return self.counter_dict()

    def update(self, board) -> dict:
        """Bring the matches to ``board`` (any number of changed points); a full match
        when no board was set yet."""
        if not self._matched:
            return self.set_board(board)
        new = self._check(board, values=False)      # the kernel checks the values
        self.counters[:] = 0
        changed = self._k.update(self.board, new, self.geometry, self.pats, self.lists,
                                 self.state, self.changed, self.changed_old, self.switches)
        if changed < 0:
            raise ValueError(BAD_VALUES)
        return self.counter_dict()

    def counter_dict(self) -> dict:
        return dict(zip(COUNTER_NAMES, (int(v) for v in self.counters)))

    def match_tuples(self) -> set[tuple[int, int, int, int, int]]:
        """{(pattern, anchor_row, anchor_col, orientation, colour)} of the current matches."""
        bits = np.unpackbits(self.match_bits.view(np.uint8), axis=2, bitorder="little")
        t, a, p = np.nonzero(bits)
        return {(int(pi), int(ai) // self.n, int(ai) % self.n, int(ti) // 2, int(ti) % 2)
                for ti, ai, pi in zip(t, a, p)}

    def matches(self) -> list[Match]:
        out = []
        c = self.compiled
        for p, ar, ac, o, colour in sorted(self.match_tuples()):
            move = None
            if c.move_row[p] >= 0:
                q = (ar + c.move_row[p]) * self.n + ac + c.move_col[p]
                move = divmod(int(self.src[o, q]), self.n)
            out.append(Match(p, (ar, ac), o, colour, move))
        return out
