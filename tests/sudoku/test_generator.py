"""The MCTS generator (Sec. 4-5): determinism, search invariants, verified records, DAG."""

from __future__ import annotations

import numpy as np
import pytest

from mctslab.core.tree import make_tree
from mctslab.rng import seed_state
from mctslab.sudoku import _playout, _search, api
from mctslab.sudoku.generator import GeneratorConfig, generate
from mctslab.sudoku.lookup import make_tables


def small(**kw):
    return GeneratorConfig(**{"playouts": 400, "threshold": 10, **kw})


@pytest.mark.parametrize("variant", [dict(), dict(selection="mean", playout="random", rules=False,
                                                  exploration_n="parent")])
def test_same_seed_same_result(variant):
    a, b = generate(small(**variant), seed=5), generate(small(**variant), seed=5)
    assert np.array_equal(a.histogram, b.histogram)
    assert a.puzzles == b.puzzles and a.stats["nodes"] == b.stats["nodes"]
    c = generate(small(**variant), seed=6)
    assert not np.array_equal(a.histogram, c.histogram)


def test_every_playout_counted_and_puzzles_verified():
    result = generate(small(record_max_clues=24, verify_max_clues=24, reduce_max_clues=24), 3)
    assert result.stats["playouts"] == 400
    assert 0 < result.histogram.sum() <= 400  # at most one puzzle per iteration
    assert result.stats["verify_failed"] == 0 and result.stats["verify_failed_reduced"] == 0
    listed = np.bincount([n for _, n, _ in result.puzzles], minlength=82)
    assert np.array_equal(listed[:25], result.histogram[:25])
    for puzzle, _clues, _ in result.reduced_puzzles[:10]:  # reduced puzzles are minimal
        board = api.parse_puzzle(puzzle)
        assert api.solve(board).status == "unique"
        for cell in np.flatnonzero(board):
            smaller = board.copy()
            smaller[cell] = 0
            assert api.solve(smaller).status == "multiple"


def test_dag_invariants():
    config = small(playouts=600)
    nodes = config.node_budget()
    tree = make_tree(nodes, 2 * nodes)
    dag = _search.make_dag(nodes)
    rec = _search.make_records(1000)
    settings = _search.Settings(playouts=600, threshold=10, max_children=30, use_min=True,
                                reducing=True, rules=True, record_max_clues=20,
                                reduce_max_clues=0, backup_reduced=False, total_n=True,
                                terminal=0, hint_count=0, min_of=0, child_draws=0, exhausted=0,
                                c=1.0)
    stats = np.zeros(6, np.int64)
    _search.search(tree, dag, rec, settings, seed_state(1), make_tables(),
                          _playout.make_playout_scratch(), np.zeros((6, 81), np.uint8),
                          np.zeros(84, np.int64), np.zeros(30, np.int32), np.zeros(30, np.int32),
                          stats)
    n = int(tree.sizes[0])
    assert tree.node_visits[0] == 600  # the root is on every path
    boards = {bytes(b) for b in dag.node_board[:n]}
    assert len(boards) == n  # the hash table never stores a board twice: a DAG, not a tree
    in_degree = np.bincount(tree.edge_child[:tree.sizes[1]], minlength=n)
    assert in_degree[0] == 0 and np.all(in_degree[1:n] >= 1)
    for node in range(n):  # each stored board is its own paper normal form, with one more clue
        normal, h = api.paper_normalise(dag.node_board[node])
        assert np.array_equal(normal, dag.node_board[node]) and h == int(dag.node_hash[node])
        first, count = tree.node_first_edge[node], tree.node_num_edges[node]
        for child in tree.edge_child[first:first + count] if first >= 0 else []:
            assert dag.node_clues[child] == dag.node_clues[node] + 1
        if dag.node_terminal[node]:
            assert api.solve(dag.node_board[node]).status == "unique"


def test_playout_returns_a_unique_superset_of_its_start():
    tables, scratch = make_tables(), _playout.make_playout_scratch()
    rng = seed_state(9)
    for reducing in (False, True):
        for rules in (False, True):
            clues = np.zeros(81, np.uint8)
            clues[[0, 10, 20]] = [1, 2, 3]
            start = clues.copy()
            masks = np.empty(81, np.uint16)
            _playout.start_state(clues, masks, tables)
            n = _playout.playout(clues, masks, reducing, rules, rng, tables, scratch)
            assert n == np.count_nonzero(clues)
            assert np.all(clues[start > 0] == start[start > 0])
            assert api.solve(clues).status == "unique"


@pytest.mark.parametrize("bad, message", [
    (dict(selection="max"), "unknown selection 'max'"),
    (dict(playout="greedy"), "unknown playout 'greedy'"),
    (dict(playouts=0), "playouts must be at least 1"),
    (dict(c=-1.0), "c must be >= 0"),
    (dict(exploration_n="grandparent"), "exploration_n must be 'total' or 'parent'"),
])
def test_bad_config_is_named(bad, message):
    with pytest.raises(ValueError, match=message):
        GeneratorConfig(**bad)
    with pytest.raises(ValueError, match="unknown generator parameter"):
        GeneratorConfig.from_dict({"playout": "random", "temperature": 1})


def test_warmup_compiles_without_error():
    from mctslab import sudoku

    sudoku.warmup()  # the generator, removal baseline, solver, rules and normal forms
    assert sudoku.solve(sudoku.parse_puzzle(sudoku._WARMUP_PUZZLE)).status == "unique"
