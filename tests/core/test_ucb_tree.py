"""UCB variants and the tree arrays."""

import math

import numpy as np
import pytest

from mctslab.core.tree import (
    NO_MASK,
    make_tree,
    tree_backup,
    tree_expand,
    tree_grow,
    tree_mean,
    tree_new_node,
    tree_select_max,
    tree_select_min,
)
from mctslab.core.ucb import exploration, ucb_max, ucb_min
from mctslab.rng import seed_state


def test_exploration_term():
    assert exploration(100, 10) == pytest.approx(math.sqrt(2 * math.log(100) / 10))
    assert exploration(10, 0) == math.inf
    assert ucb_max(0.5, 100, 0, 1.0) == math.inf
    assert ucb_min(0.5, 100, 0, 1.0) == -math.inf
    assert ucb_min(20.0, 100, 10, 0.5) == pytest.approx(20 - 0.5 * math.sqrt(2 * math.log(100) / 10))


def _tree_with_children(values_per_child):
    tree = make_tree(16, 16)
    root = tree_new_node(tree)
    k = len(values_per_child)
    tree_expand(tree, root, np.arange(k, dtype=np.int32), k)
    for e, values in enumerate(values_per_child):
        child = tree_new_node(tree)
        tree.edge_child[e] = child
        for v in values:
            tree_backup(tree, np.array([root, child]), 2, float(v))
    return tree, root


def test_backup_counts_add_up():
    tree, root = _tree_with_children([[20, 22], [19, 25, 21], [30]])
    assert tree.node_visits[root] == 6
    assert tree.node_visits[1:4].sum() == tree.node_visits[root]
    assert tree_mean(tree, 2) == pytest.approx(65 / 3)
    assert tree.node_value_min[2] == 19


def test_select_min_uses_mean_or_min():
    # child 1 has the better mean (21 vs 21.67), child 2 the better minimum (19)
    tree, root = _tree_with_children([[20, 22], [19, 25, 21]])
    state = seed_state(0)
    assert tree_select_min(tree, root, 0.0, False, state, -1, NO_MASK) == 0
    assert tree_select_min(tree, root, 0.0, True, state, -1, NO_MASK) == 1


def test_unvisited_child_first_and_ties_random():
    tree = make_tree(8, 8)
    root = tree_new_node(tree)
    tree_expand(tree, root, np.arange(4, dtype=np.int32), 4)
    state = seed_state(1)
    picks = {tree_select_min(tree, root, 1.0, False, state, -1, NO_MASK) for _ in range(200)}
    assert picks == {0, 1, 2, 3}  # four equal (unvisited) edges: all get chosen
    assert tree_select_max(tree, root, 1.0) == 0


def test_budgets_are_reported_not_overrun():
    tree = make_tree(1, 2)
    assert tree_new_node(tree) == 0
    assert tree_new_node(tree) == -1
    assert tree_expand(tree, 0, np.arange(3, dtype=np.int32), 3) == -1
    assert tree.node_first_edge[0] == -1


def test_closed_children_are_skipped_and_n_can_be_overridden():
    tree, root = _tree_with_children([[20, 22], [19, 25, 21], [30]])
    state = seed_state(2)
    closed = np.zeros(16, np.int8)
    assert tree_select_min(tree, root, 0.0, True, state, -1, closed) == 1
    closed[2] = 1  # node 2 sits on edge 1: closed, so the next best minimum wins
    assert tree_select_min(tree, root, 0.0, True, state, -1, closed) == 0
    closed[1:4] = 1
    assert tree_select_min(tree, root, 0.0, True, state, -1, closed) == -1
    # a large n makes exploration dominate: child 3 (one visit, value 30) becomes the choice
    assert tree_select_min(tree, root, 100.0, False, state, 10**9, NO_MASK) == 2


def test_tree_grow_keeps_contents():
    tree, root = _tree_with_children([[20, 22], [19]])
    grown = tree_grow(tree, 64, 64)
    assert grown.node_visits.shape == (64,)
    assert grown.sizes.tolist() == tree.sizes.tolist()
    assert grown.node_visits[:3].tolist() == [3, 2, 1]
    assert tree_new_node(grown) == 3
    with pytest.raises(ValueError, match="shrink"):
        tree_grow(grown, 8, 8)
