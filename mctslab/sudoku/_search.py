"""The MCTS generator of the paper (Sec. 4.1, Fig. 5) over a DAG of normalised boards, in numba.

::

    loop n_playouts times:
        leaf <- select_downwards(root)       # min over children of  X_j - c sqrt(2 ln n / n_j),
                                             # X_j = mean ("mean") or min ("min") of the values
        if leaf.n + 1 >= threshold: leaf <- expand(leaf).first_child
        value <- playout(leaf.board)         # number of clues of the unique board reached
        backup(path, value)                  # visits, value sum and min on the selected path

- Root: the empty board. Nodes are boards in the paper's normal form (Fig. 9 heuristic,
  ``_canon.paper_normalise``); a hash table of (hash, board) maps a board to its node, so a
  child equal to a board already in the tree becomes an edge to the existing node: a DAG.
- Tree arrays and selection are the shared ``mctslab.core.tree`` (``tree_select_min`` with the
  DAG's *exhausted* mask, see :func:`select_leaf`); boards and the hash table: :class:`Dag`.
- Expansion: up to ``max_children`` (30) hint placements drawn with the playout's own
  ``selectHint`` (after the rules when on); children normalised, duplicates dropped.
- The readings of what the paper leaves open are fields of :class:`Settings` with constants
  here (``TERMINAL_*``, ``MIN_OF_*``, ``CHILD_DRAWS_*``, ``EXHAUSTED_*``, ``BUDGET_*``,
  ``VALUE_*``; ``hint_count`` is ``_playout.COUNT_*``), each documented on
  :class:`~mctslab.sudoku.generator.GeneratorConfig`; the first (0) is the default reading.
  A finished (unique) board selected with ``TERMINAL_SKIP`` backs up its clue count without a
  playout, once; then it is exhausted and skipped (:func:`select_leaf`).
- Recording: each playout's puzzle (and a finished one not counted before) is counted in the
  clue histogram (at most one per iteration); those with at most ``record_max_clues`` clues are stored with
  the playout number, and (``reduce_max_clues > 0``) reduced to minimal and counted apart.

``settings``: :class:`Settings`. ``stats`` (``int64[6]``): playouts done, expansions, nodes,
edges, records overflowed (0/1), tree full (0/1).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mctslab.core.jit import njit
from mctslab.core.tree import tree_backup, tree_expand, tree_new_node, tree_select_min
from mctslab.sudoku._canon import paper_normalise
from mctslab.sudoku._playout import (
    decided_cells,
    playout,
    reduce_to_minimal,
    select_hint,
    start_state,
    try_hint,
)
from mctslab.sudoku._rules import apply_rules

TERMINAL_SKIP, TERMINAL_REVISIT, TERMINAL_EXPAND = 0, 1, 2
MIN_OF_PLAYOUTS, MIN_OF_CHILDREN = 0, 1
CHILD_DRAWS_FILL, CHILD_DRAWS_FIXED = 0, 1
EXHAUSTED_KEEP, EXHAUSTED_DROP = 0, 1
BUDGET_ITERATIONS, BUDGET_PLAYOUTS = 0, 1
VALUE_CLUES, VALUE_FILLED = 0, 1


class Settings(NamedTuple):
    """One generation run's settings as the kernels read them (``generator.kernel_settings``
    builds them from a ``GeneratorConfig``)."""

    playouts: int           # iterations of Fig. 5
    threshold: int          # visits of a leaf before it is expanded
    max_children: int       # children per expansion
    use_min: bool           # "min" selection (else "mean")
    reducing: bool          # candidate-reducing playouts (else fully random)
    rules: bool             # the human rules in playouts and expansions
    record_max_clues: int   # store results with at most this many clues
    reduce_max_clues: int   # reduce results with at most this many clues (0: none)
    backup_reduced: bool    # back up the reduced count instead of the generated one
    total_n: bool           # n in Eqs. 2-3 is the total playouts (else the parent's visits)
    terminal: int           # TERMINAL_*
    hint_count: int         # _playout.COUNT_*: how candidate-reducing playouts count
    min_of: int             # MIN_OF_*
    child_draws: int        # CHILD_DRAWS_*
    exhausted: int          # EXHAUSTED_*
    c: float                # the exploration constant of Eqs. 2-3
    budget: int = BUDGET_ITERATIONS  # BUDGET_*: what the playout budget counts
    value: int = VALUE_CLUES         # VALUE_*: what a backed-up value counts


class Dag(NamedTuple):
    node_board: np.ndarray     # uint8[N, 81] the node's clues, in the paper's normal form
    node_hash: np.ndarray      # uint64[N]
    node_clues: np.ndarray     # int16[N] number of clues
    node_terminal: np.ndarray  # int8[N] 1 when the board has a unique solution
    node_exhausted: np.ndarray  # int8[N] 1 when nothing below is left to learn (see select)
    table: np.ndarray          # int32[H] open addressing over hashes, -1 = empty (H = 2^k)


class Records(NamedTuple):
    histogram: np.ndarray          # int64[82] clue counts of generated puzzles
    reduced_histogram: np.ndarray  # int64[82] clue counts after minimal reduction
    boards: np.ndarray             # uint8[R, 81] generated puzzles with few clues
    playout_of: np.ndarray         # int64[R] playout number that produced each
    reduced_boards: np.ndarray     # uint8[R, 81] reduced puzzles with few clues
    reduced_playout_of: np.ndarray  # int64[R]
    counts: np.ndarray             # int64[2] stored boards, stored reduced boards


def make_dag(max_nodes: int) -> Dag:
    size = 1 << int(np.ceil(np.log2(max(2 * max_nodes, 16))))
    return Dag(np.zeros((max_nodes, 81), np.uint8), np.zeros(max_nodes, np.uint64),
               np.zeros(max_nodes, np.int16), np.zeros(max_nodes, np.int8),
               np.zeros(max_nodes, np.int8), np.full(size, -1, np.int32))


def make_records(capacity: int, reduced_capacity: int | None = None) -> Records:
    reduced = capacity if reduced_capacity is None else max(int(reduced_capacity), 1)
    return Records(np.zeros(82, np.int64), np.zeros(82, np.int64),
                   np.zeros((capacity, 81), np.uint8), np.zeros(capacity, np.int64),
                   np.zeros((reduced, 81), np.uint8), np.zeros(reduced, np.int64),
                   np.zeros(2, np.int64))


@njit(cache=True)
def dag_node(tree, dag, board, h, n_clues, terminal):
    """The node holding normalised ``board`` (hash ``h``): existing, or created. -1 when full."""
    mask = dag.table.shape[0] - 1
    slot = np.int64(h & np.uint64(mask))
    while dag.table[slot] >= 0:
        node = dag.table[slot]
        if dag.node_hash[node] == h:
            same = True
            for i in range(81):
                if dag.node_board[node, i] != board[i]:
                    same = False
                    break
            if same:
                return node
        slot = (slot + 1) & mask
    node = tree_new_node(tree)
    if node < 0:
        return -1
    dag.table[slot] = node
    dag.node_board[node, :] = board
    dag.node_hash[node] = h
    dag.node_clues[node] = n_clues
    dag.node_terminal[node] = terminal
    dag.node_exhausted[node] = 0
    return node


@njit(cache=True)
def record(rec, clues, n_clues, playout_index, settings, rng, tables, s):
    """Count (and store, when it has few clues) one generated puzzle; reduce it if asked.

    Returns the value to back up: the clue count, or the reduced count with backup_reduced.
    """
    rec.histogram[n_clues] += 1
    if n_clues <= settings.record_max_clues:
        k = rec.counts[0]
        if k < rec.boards.shape[0]:
            rec.boards[k, :] = clues
            rec.playout_of[k] = playout_index
        rec.counts[0] = k + 1
    if n_clues > settings.reduce_max_clues:
        return n_clues
    for i in range(81):
        s.board[i] = clues[i]
    reduced = reduce_to_minimal(s.board, rng, tables, s)
    rec.reduced_histogram[reduced] += 1
    if reduced <= settings.record_max_clues:
        k = rec.counts[1]
        if k < rec.reduced_boards.shape[0]:
            rec.reduced_boards[k, :] = s.board
            rec.reduced_playout_of[k] = playout_index
        rec.counts[1] = k + 1
    return reduced if settings.backup_reduced else n_clues


@njit(cache=True)
def expand(tree, dag, node, settings, rng, tables, s, work, children, moves):
    """Give ``node`` up to ``max_children`` children; returns the first child.

    -1: the tree is full (or no child could be made); -2: the board has no open candidate left
    (a terminal board the rules already solve, with ``TERMINAL_EXPAND``).
    """
    clues = work[0]
    child_board = work[1]
    norm_scratch = work[2:5]
    masks = s.node_masks
    clues[:] = dag.node_board[node]
    start_state(clues, masks, tables)
    if settings.rules:
        apply_rules(masks, tables, s.queue, s.positions, s.counts, s.sets, s.items,
                    s.unit_masks, s.decided)
    n_children = 0
    draws = 0
    max_children = settings.max_children
    max_draws = max_children if settings.child_draws == CHILD_DRAWS_FIXED else 3 * max_children
    while n_children < max_children and draws < max_draws:
        draws += 1
        cell, bit = select_hint(masks, clues, settings.reducing, settings.rules, rng, tables,
                                settings.hint_count, s)
        if cell < 0:
            if draws == 1:
                return -2
            break
        status = try_hint(masks, cell, bit, tables, s)
        if status == 0:
            masks[cell] &= ~np.uint16(bit)
            continue
        clues[cell] = tables.digit_of[bit]
        h = paper_normalise(clues, child_board, norm_scratch)
        child = dag_node(tree, dag, child_board, h, dag.node_clues[node] + 1, status == 1)
        clues[cell] = 0
        if child < 0:
            break
        duplicate = False
        for i in range(n_children):
            duplicate |= children[i] == child
        if duplicate:
            continue
        children[n_children] = child
        moves[n_children] = 9 * cell + tables.digit_of[bit] - 1
        n_children += 1
    if n_children == 0 or tree_expand(tree, node, moves, n_children) < 0:
        return -1
    for i in range(n_children):
        tree.edge_child[tree.node_first_edge[node] + i] = children[i]
    return children[0]


@njit(cache=True)
def select_child(tree, dag, node, c, use_min, total_n, rng):
    """The child minimising ``X_j - c sqrt(2 ln n / n_j)`` (Eqs. 2-3, ``core.tree.tree_select_min``).

    ``X_j`` is the child's mean (Eq. 2) or its minimum (Eq. 3). ``n`` is the total number of
    playouts so far when ``total_n`` (the paper's wording for Eq. 1: "n is the overall number of
    playouts"; the root's visit count), else the parent's visits (the usual UCT reading).
    Exhausted children are skipped; ties are broken uniformly at random. Returns -1 when every
    child is exhausted.
    """
    n_parent = tree.node_visits[0] if total_n else -1
    edge = tree_select_min(tree, node, c, use_min, rng, n_parent, dag.node_exhausted)
    return -1 if edge < 0 else tree.edge_child[edge]


@njit(cache=True)
def select_leaf(tree, dag, root, c, use_min, total_n, rng, path):
    """Descend from the root; returns the path length (leaf = last), 0 if all is exhausted.

    A terminal node (a finished puzzle) is *exhausted* once its value is backed up: visiting it
    again would only repeat that value (the paper's loop would spend its playout budget on
    re-counting the same puzzle), so selection skips it, and a node whose children are all
    exhausted is exhausted too (see :func:`mark_exhausted`).
    """
    while not dag.node_exhausted[root]:
        node = root
        path[0] = root
        length = 1
        while tree.node_first_edge[node] >= 0 and tree.node_num_edges[node] > 0:
            child = select_child(tree, dag, node, c, use_min, total_n, rng)
            if child < 0:
                dag.node_exhausted[node] = 1
                break
            node = child
            path[length] = node
            length += 1
        else:
            return length
    return 0


@njit(cache=True)
def mark_exhausted(tree, dag, path, length):
    """After backing up a terminal leaf: mark it, then every ancestor left with no live child."""
    dag.node_exhausted[path[length - 1]] = 1
    for i in range(length - 2, -1, -1):
        node = path[i]
        first = tree.node_first_edge[node]
        for e in range(first, first + tree.node_num_edges[node]):
            if not dag.node_exhausted[tree.edge_child[e]]:
                return
        dag.node_exhausted[node] = 1


@njit(cache=True)
def _live_children_min(tree, exhausted, node, drop):
    """The smallest ``node_value_min`` of ``node``'s visited children (skipping exhausted ones
    when ``drop``), or inf."""
    best = np.inf
    first = tree.node_first_edge[node]
    if first >= 0:
        for e in range(first, first + tree.node_num_edges[node]):
            child = tree.edge_child[e]
            if child < 0 or tree.node_visits[child] == 0 or (drop and exhausted[child]):
                continue
            if tree.node_value_min[child] < best:
                best = tree.node_value_min[child]
    return best


@njit(cache=True)
def backup_children_min(tree, exhausted, path, length, drop):
    """``MIN_OF_CHILDREN``: after a backup, each node on the path (deepest first) gets, in
    ``node_value_min``, the smallest value of its visited children (live ones only when
    ``drop``); a leaf (or a node with no such child) its mean."""
    for i in range(length - 1, -1, -1):
        node = path[i]
        best = _live_children_min(tree, exhausted, node, drop)
        if best == np.inf:
            best = tree.node_value_sum[node] / max(tree.node_visits[node], 1)
        tree.node_value_min[node] = best


@njit(cache=True)
def refresh_path_min(tree, exhausted, path, length):
    """``EXHAUSTED_DROP`` with ``MIN_OF_PLAYOUTS``, after a node on the path is exhausted: each
    ancestor (deepest first) that still has a live visited child takes the smallest of their
    minima, so the exhausted subtree's values leave it (a node's own playouts from before its
    expansion are not kept apart, so they leave too)."""
    for i in range(length - 2, -1, -1):
        node = path[i]
        best = _live_children_min(tree, exhausted, node, True)
        if best < np.inf:
            tree.node_value_min[node] = best


@njit(cache=True)
def leaf_value(dag, rec, leaf, index, settings, rng, tables, s, clues):
    """The value the selected ``leaf`` backs up: its playout's result (Fig. 6), or a finished
    puzzle's own clue count; counts the puzzle (:func:`record`) unless it was counted before.

    ``VALUE_FILLED`` adds the cells the candidate state has decided beyond the clues (digits
    the rules fixed; without rules, those basic exclusion leaves with one candidate).
    """
    masks = s.node_masks
    clues[:] = dag.node_board[leaf]
    if dag.node_terminal[leaf]:  # a finished puzzle: no playout
        value = dag.node_clues[leaf]
        if not dag.node_exhausted[leaf]:  # (always, unless TERMINAL_SKIP: counted once)
            value = record(rec, clues, value, index, settings, rng, tables, s)
        if settings.value == VALUE_FILLED:
            start_state(clues, masks, tables)
            if settings.rules:
                apply_rules(masks, tables, s.queue, s.positions, s.counts, s.sets, s.items,
                            s.unit_masks, s.decided)
    else:
        start_state(clues, masks, tables)
        n_clues = playout(clues, masks, settings.reducing, settings.rules, rng, tables, s,
                          settings.hint_count)
        value = record(rec, clues, n_clues, index, settings, rng, tables, s)
    if settings.value == VALUE_FILLED:
        value += decided_cells(clues, masks, tables)
    return value


@njit(cache=True)
def search(tree, dag, rec, settings, rng, tables, s, work, path, children, moves, stats):  # noqa: PLR0913 - numba kernel: each argument is a bundle or a scratch array allocated once by the caller
    """Fig. 5 for ``settings.playouts`` playouts from the empty board (module docstring)."""
    clues = work[5]
    clues[:] = 0
    h = paper_normalise(clues, work[1], work[2:5])
    root = dag_node(tree, dag, work[1], h, 0, False)
    use_min = settings.use_min
    terminal_mode = settings.terminal
    index = 0  # playouts counted against the budget
    iterations = settings.playouts if settings.budget == BUDGET_ITERATIONS else 20 * settings.playouts
    for _ in range(iterations):
        if index >= settings.playouts:
            break
        length = select_leaf(tree, dag, root, settings.c, use_min, settings.total_n, rng, path)
        if length == 0:
            break  # the whole DAG is solved (never seen in practice)
        leaf = path[length - 1]
        if ((not dag.node_terminal[leaf] or terminal_mode == TERMINAL_EXPAND)
                and tree.node_first_edge[leaf] < 0
                and tree.node_visits[leaf] + 1 >= settings.threshold):
            child = expand(tree, dag, leaf, settings, rng, tables, s, work, children, moves)
            if child >= 0:
                stats[1] += 1
                path[length] = child
                length += 1
                leaf = child
            elif child == -1:
                stats[5] = 1
        value = leaf_value(dag, rec, leaf, index, settings, rng, tables, s, clues)
        tree_backup(tree, path, length, np.float64(value))
        drop = settings.exhausted == EXHAUSTED_DROP
        children_min = use_min and settings.min_of == MIN_OF_CHILDREN
        if children_min:
            backup_children_min(tree, dag.node_exhausted, path, length, drop)
        if dag.node_terminal[leaf] and terminal_mode == TERMINAL_SKIP:
            mark_exhausted(tree, dag, path, length)
            if drop and use_min:
                if children_min:
                    backup_children_min(tree, dag.node_exhausted, path, length - 1, True)
                else:
                    refresh_path_min(tree, dag.node_exhausted, path, length)
        if settings.budget == BUDGET_ITERATIONS or not dag.node_terminal[leaf]:
            index += 1
        stats[0] = index
    stats[2] = tree.sizes[0]
    stats[3] = tree.sizes[1]
    stats[4] = 1 if (rec.counts[0] > rec.boards.shape[0]
                     or rec.counts[1] > rec.reduced_boards.shape[0]) else 0
