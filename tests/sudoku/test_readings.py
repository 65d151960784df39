"""Readings of what the paper leaves open (``mctslab.sudoku.readings``): each option's effect.

Defaults are our original reading; every test here checks that a non-default choice does what
its documentation says (and that the default does not change task ids).
"""

from __future__ import annotations

import numpy as np
import pytest

from mctslab.core.tree import make_tree
from mctslab.rng import seed_state
from mctslab.sudoku import _playout, _search, api, experiments
from mctslab.sudoku.generator import GeneratorConfig, generate, kernel_settings
from mctslab.sudoku.lookup import make_tables
from mctslab.sudoku.readings import MIN_ONLY, READINGS

SEED = 20261122  # an experiment seed (the notebook's default)


def run_kernel(config: GeneratorConfig, seed: int):
    """``search`` on fresh arrays; returns (tree, dag, records, stats)."""
    nodes = config.node_budget()
    tree = make_tree(nodes, 2 * nodes)
    dag = _search.make_dag(nodes)
    rec = _search.make_records(config.playouts + 64)
    stats = np.zeros(6, np.int64)
    _search.search(tree, dag, rec, kernel_settings(config),
                          seed_state(seed), make_tables(), _playout.make_playout_scratch(),
                          np.zeros((6, 81), np.uint8), np.zeros(84, np.int64),
                          np.zeros(config.max_children, np.int32),
                          np.zeros(config.max_children, np.int32), stats)
    return tree, dag, rec, stats


# a small, deep search: finished puzzles (terminal nodes) appear within a few hundred playouts
DEEP = dict(playouts=1500, threshold=2, max_children=4, verify_backend="none")


def terminal_nodes(tree, dag):
    n = int(tree.sizes[0])
    return [i for i in range(n) if dag.node_terminal[i] and tree.node_visits[i] > 0]


def test_terminal_skip_counts_a_finished_puzzle_once_and_never_expands_it():
    tree, dag, rec, stats = run_kernel(GeneratorConfig(**DEEP), 2)
    terminals = terminal_nodes(tree, dag)
    assert terminals
    for node in terminals:
        assert dag.node_exhausted[node] and tree.node_first_edge[node] < 0
    assert rec.histogram.sum() <= stats[0]


def test_terminal_revisit_counts_every_selection_and_never_expands():
    tree, dag, rec, stats = run_kernel(GeneratorConfig(terminal="revisit", **DEEP), 2)
    terminals = terminal_nodes(tree, dag)
    assert terminals and max(tree.node_visits[i] for i in terminals) > 1
    assert all(tree.node_first_edge[i] < 0 and not dag.node_exhausted[i] for i in terminals)
    assert rec.histogram.sum() == stats[0] == DEEP["playouts"]  # one puzzle per iteration


def test_terminal_expand_expands_finished_puzzles_into_unique_supersets():
    tree, dag, rec, stats = run_kernel(GeneratorConfig(terminal="expand", **DEEP), 2)
    expanded = [i for i in terminal_nodes(tree, dag) if tree.node_first_edge[i] >= 0]
    assert expanded and rec.histogram.sum() == stats[0]
    for node in expanded:
        first = tree.node_first_edge[node]
        for child in tree.edge_child[first:first + tree.node_num_edges[node]]:
            assert dag.node_terminal[child] and dag.node_clues[child] == dag.node_clues[node] + 1
            assert api.solve(dag.node_board[child]).status == "unique"


def test_reducing_count_rules_keeps_the_draw_with_fewest_candidates_after_the_rules():
    tables, s = make_tables(), _playout.make_playout_scratch()
    rng = seed_state(4)
    chose_differently = 0
    for _ in range(40):
        clues = np.zeros(81, np.uint8)
        masks = np.empty(81, np.uint16)
        _playout.start_state(clues, masks, tables)
        _playout.playout(clues, masks, True, True, rng, tables, s)  # a unique board ...
        clues[np.flatnonzero(clues)[: 6]] = 0  # ... minus six clues: an open position
        _playout.start_state(clues, masks, tables)
        _playout.apply_rules(masks, tables, s.queue, s.positions, s.counts, s.sets, s.items,
                             s.unit_masks, s.decided)
        state = rng.copy()
        draws = [_playout.draw_hint(masks, clues, True, state, tables) for _ in range(3)]
        left = [_playout._candidates_left_after_rules(masks, c, b, tables, s) for c, b in draws]
        removed = [_playout._candidates_removed(masks, c, b, tables) for c, b in draws]
        for mode, scores in ((_playout.COUNT_RULES, [-x for x in left]),
                             (_playout.COUNT_EXCLUSION, removed)):
            got = _playout.select_hint(masks, clues, True, True, rng.copy(), tables, mode, s)
            assert got == draws[int(np.argmax(scores))]  # first of the best on ties
        chose_differently += int(np.argmax([-x for x in left]) != np.argmax(removed))
        total = sum(int(tables.popcount[m]) for m in masks)
        for x, r in zip(left, removed):
            assert x <= total - r  # the rules remove at least what exclusion removes
        rng = state
    assert chose_differently > 0


def test_reducing_count_changes_a_run_only_with_rules_on():
    small = dict(playouts=300, threshold=10, verify_backend="none")
    base = generate(GeneratorConfig(**small), 3).histogram
    assert not np.array_equal(base, generate(GeneratorConfig(reducing_count="rules", **small),
                                             3).histogram)
    off = dict(small, rules=False)
    assert np.array_equal(generate(GeneratorConfig(**off), 3).histogram,
                          generate(GeneratorConfig(reducing_count="rules", **off), 3).histogram)


def test_min_of_children_backs_up_the_smallest_child_value():
    tree = make_tree(8, 8)
    for _ in range(5):
        _search.tree_new_node(tree)
    _search.tree_expand(tree, 0, np.arange(2, dtype=np.int32), 2)
    tree.edge_child[0:2] = [1, 2]
    _search.tree_expand(tree, 1, np.arange(2, dtype=np.int32), 2)
    tree.edge_child[2:4] = [3, 4]
    # leaf 3: playouts 22, 26 (mean 24, min 22); leaf 4: 23 (mean 23); leaf 2: 20, 30 (mean 25)
    for path, value in (((0, 1, 3), 22), ((0, 1, 3), 26), ((0, 1, 4), 23), ((0, 2), 20),
                        ((0, 2), 30)):
        path = np.array(path, np.int64)
        _search.tree_backup(tree, path, len(path), float(value))
        _search.backup_children_min(tree, np.zeros(8, np.int8), path, len(path), False)
    assert tree.node_value_min[3] == 24 and tree.node_value_min[4] == 23  # leaves: the mean
    assert tree.node_value_min[1] == 23 and tree.node_value_min[2] == 25
    assert tree.node_value_min[0] == 23  # min over children, not the smallest playout (20)


def _two_branches():
    """Root 0 with children 1 (a finished puzzle of 18 clues, visited once) and 2 (a leaf whose
    playouts gave 21 and 23): every value backed up with both min readings."""
    tree = make_tree(8, 8)
    for _ in range(3):
        _search.tree_new_node(tree)
    _search.tree_expand(tree, 0, np.arange(2, dtype=np.int32), 2)
    tree.edge_child[0:2] = [1, 2]
    return tree, [((0, 1), 18), ((0, 2), 21), ((0, 2), 23)]


@pytest.mark.parametrize("min_of", ["children", "playouts"])
def test_exhausted_drop_takes_a_finished_subtree_out_of_the_minimum(min_of):
    # Today's reading ("keep") leaves the exhausted 18 in the root's minimum for ever, so the
    # root keeps looking 18-good although nothing below it can give 18 again; "drop" recomputes
    # it from the live child (22 = its mean with min_of=children, 21 its best playout).
    expected = {"children": 22.0, "playouts": 21.0}[min_of]
    for drop, root_value in ((False, 18.0), (True, expected)):
        tree, backups = _two_branches()
        exhausted = np.zeros(8, np.int8)
        for path, value in backups:
            path = np.array(path, np.int64)
            _search.tree_backup(tree, path, len(path), float(value))
            if min_of == "children":
                _search.backup_children_min(tree, exhausted, path, len(path), drop)
        exhausted[1] = 1  # the finished puzzle was counted: node 1 is exhausted
        path = np.array((0, 1), np.int64)
        if drop and min_of == "children":
            _search.backup_children_min(tree, exhausted, path, 1, True)
        elif drop:
            _search.refresh_path_min(tree, exhausted, path, 2)
        assert tree.node_value_min[0] == root_value, (drop, min_of)


@pytest.mark.parametrize("min_of", ["children", "playouts"])
def test_exhausted_drop_unpins_a_min_run_and_leaves_a_mean_run(min_of):
    # Two children per expansion and threshold 1 reach finished puzzles within a few thousand
    # playouts. Measured (seed 11, 3,000 playouts): puzzles with <= 21 clues keep -> drop:
    # children 2 -> 28, playouts 5 -> 39; the prototype saw the same at 100k x 4.
    small = dict(playouts=3000, threshold=1, max_children=2, verify_backend="none", min_of=min_of)
    keep = generate(GeneratorConfig(**small), 11).histogram
    drop = generate(GeneratorConfig(exhausted="drop", **small), 11).histogram
    assert drop[:22].sum() > 3 * max(keep[:22].sum(), 1)
    mean = dict(small, selection="mean")
    assert np.array_equal(generate(GeneratorConfig(**mean), 11).histogram,
                          generate(GeneratorConfig(exhausted="drop", **mean), 11).histogram)


def test_min_of_children_changes_min_selection_only():
    small = dict(playouts=400, threshold=5, verify_backend="none")
    for selection, changed in (("min", True), ("mean", False)):
        a = generate(GeneratorConfig(selection=selection, **small), 7)
        b = generate(GeneratorConfig(selection=selection, min_of="children", **small), 7)
        assert (not np.array_equal(a.histogram, b.histogram)) == changed


def test_child_draws_fixed_drops_duplicates_instead_of_redrawing():
    """Same random stream: "fixed" keeps the distinct children of the first ``max_children``
    draws, "fill" goes on drawing (up to 3x) after a duplicate, so it has those and more."""
    tables, s = make_tables(), _playout.make_playout_scratch()
    children = {}
    for mode in READINGS["child_draws"]:
        params = kernel_settings(GeneratorConfig(max_children=6, child_draws=mode))
        children[mode] = []
        for seed in range(20):
            tree, dag = make_tree(64, 64), _search.make_dag(64)
            board = np.zeros(81, np.uint8)
            board[[0, 1]] = [1, 2]  # two clues: few distinct one-clue extensions
            normal, h = api.paper_normalise(board)
            node = _search.dag_node(tree, dag, normal, np.uint64(h), 2, False)
            assert _search.expand(tree, dag, node, params, seed_state(seed), tables, s,
                                  np.zeros((6, 81), np.uint8), np.zeros(6, np.int32),
                                  np.zeros(6, np.int32)) >= 0
            first = tree.node_first_edge[node]
            children[mode].append([bytes(dag.node_board[c]) for c in
                                   tree.edge_child[first:first + tree.node_num_edges[node]]])
    for fixed, fill in zip(children["fixed"], children["fill"]):
        assert 1 <= len(fixed) <= len(fill) <= 6 and fill[:len(fixed)] == fixed
    assert sum(map(len, children["fixed"])) < sum(map(len, children["fill"]))


@pytest.mark.parametrize("name", sorted(READINGS))
def test_a_reading_enters_task_params_only_when_not_the_default(name):
    base = experiments.table1_tasks(experiments.config("smoke"), SEED)
    assert all(name not in t.params for t in base)  # default: the ids of stored results
    default = experiments.table1_tasks(experiments.config("smoke", **{name: READINGS[name][0]}), SEED)
    assert [t.id for t in default] == [t.id for t in base]
    other = READINGS[name][1]
    tasks = experiments.table1_tasks(experiments.config("smoke", **{name: other}), SEED)
    # A min-only option leaves a mean run as it is: its task names it not, and is the
    # default's (stored once); every other run names it and has a new id.
    named = [t for t in tasks if name not in MIN_ONLY or t.params["selection"] == "min"]
    assert len(named) == (len(tasks) // 2 if name in MIN_ONLY else len(tasks))
    assert {t.params[name] for t in named} == {other}
    assert {t.id for t in named}.isdisjoint({t.id for t in base})
    shared = [t.id for t in tasks if t not in named]
    assert all(name not in t.params for t in tasks if t not in named)
    assert set(shared) <= {t.id for t in base}
    assert getattr(GeneratorConfig.from_dict({name: other}), name) == other
    with pytest.raises(ValueError, match=f"{name} must be one of"):
        experiments.config("smoke", **{name: "bogus"})
    with pytest.raises(ValueError, match=f"{name} must be one of"):
        GeneratorConfig(**{name: "bogus"})


def test_budget_playouts_counts_only_the_playouts_run():
    tree, dag, rec, stats = run_kernel(GeneratorConfig(budget="playouts", **DEEP), 2)
    finished = len(terminal_nodes(tree, dag))  # each selected once (terminal "skip")
    assert finished > 0 and stats[0] == DEEP["playouts"]
    assert rec.histogram.sum() == tree.node_visits[0] == DEEP["playouts"] + finished
    # revisited finished puzzles are free too, up to 20 x the budget in iterations
    config = GeneratorConfig(terminal="revisit", budget="playouts", **DEEP)
    tree, dag, rec, stats = run_kernel(config, 2)
    assert rec.histogram.sum() == tree.node_visits[0] > stats[0]
    assert stats[0] == DEEP["playouts"] or tree.node_visits[0] == 20 * DEEP["playouts"]


def test_value_filled_backs_up_the_clues_plus_the_digits_the_rules_fixed():
    small = dict(playouts=400, threshold=10, verify_backend="none")
    for value, more in (("clues", False), ("filled", True)):
        tree, dag, rec, stats = run_kernel(GeneratorConfig(value=value, **small), 3)
        clue_sum = float(np.dot(np.arange(82), rec.histogram))
        assert (tree.node_value_sum[0] > clue_sum + 400) == more  # >1 fixed digit per playout
        if not more:
            assert tree.node_value_sum[0] == clue_sum


def test_decided_cells_counts_the_single_candidates_that_are_not_clues():
    tables = make_tables()
    grid = api.parse_puzzle("534678912672195348198342567859761423426853791713924856"
                            "961537284287419635345286179")
    clues = grid.copy()
    clues[[0, 10, 40, 70, 80]] = 0
    masks = np.empty(81, np.uint16)
    _playout.start_state(clues, masks, tables)
    assert _playout.decided_cells(clues, masks, tables) == 5  # each hole: one digit left
    assert _playout.decided_cells(grid, masks, tables) == 0
