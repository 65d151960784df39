"""The optional prior of the UCT search (Gelly & Silver 2007 prior knowledge, root only)."""

import numpy as np
import pytest

from mctslab.go import uct as ks
from mctslab.go.api import BLACK, WHITE, Board, search

MOVES = [(BLACK, (4, 4)), (WHITE, (2, 6)), (BLACK, (6, 2))]


def summary(result):
    return (result.move, result.nodes, result.root_win_rate,
            [(m, v) for m, v, _ in result.children[:5]])


@pytest.mark.parametrize("threshold,expected", [
    # recorded at commit 64a5c23, before the prior hook existed (light playouts, seed 7);
    # re-record only if the playout kernel's random stream is changed on purpose
    (1, ((7, 1), 301, 0.56, [((7, 1), 5), ((5, 8), 5), ((4, 2), 5), ((1, 4), 5), ((7, 3), 5)])),
    (3, ((4, 3), 143, 0.5366666666666666,
         [((0, 6), 5), ((7, 5), 5), ((7, 1), 5), ((0, 7), 5), ((4, 2), 5)])),
])
def test_prior_off_leaves_the_search_as_it_was(threshold, expected):
    board = Board.from_moves(9, MOVES)
    plain = search(board, 300, seed=7, expansion_threshold=threshold)
    assert summary(plain) == expected
    prior = np.full((9, 9), 0.9)
    for off in (dict(prior=None, prior_visits=50), dict(prior=prior, prior_visits=0)):
        again = search(board, 300, seed=7, expansion_threshold=threshold, **off)
        assert (again.move, again.children, again.root_win_rate, again.nodes) == \
            (plain.move, plain.children, plain.root_win_rate, plain.nodes)


def favoured_share(result, favoured):
    return sum(v for m, v, _ in result.children if m in favoured) / result.playouts


def test_prior_moves_the_root_visits_towards_high_prior_points():
    board = Board.from_moves(9, MOVES)
    favoured = {(2, 2), (6, 6), (3, 5)}
    prior = np.full((9, 9), 0.5)
    prior[tuple(np.array(sorted(favoured)).T)] = 1.0
    prior[0, :] = 0.0  # the first row discouraged
    for seed in (1, 2):
        plain = search(board, 600, seed=seed)
        steered = search(board, 600, seed=seed, prior=prior, prior_visits=20)
        # 3 of 78 root moves: about 4% of the playouts without a prior (observed 4.0, 4.5%);
        # with 20 virtual wins each they take a clear share (observed 15.7, 13.2%)
        assert favoured_share(plain, favoured) < 0.07
        assert favoured_share(steered, favoured) > 0.09
        first_row = {(0, c) for c in range(9)}  # observed 11, 10.5% -> 0, 0%
        assert favoured_share(steered, first_row) < favoured_share(plain, first_row) / 2
        # the reported statistics are the real playouts only
        assert sum(v for _, v, _ in steered.children) == steered.playouts == 600
        assert all(0.0 <= wr <= 1.0 for _, _, wr in steered.children)


def test_virtual_visits_do_not_count_towards_expansion():
    board = Board.from_moves(9, MOVES)
    prior = np.full(121, 0.5)
    for threshold in (1, 3):
        run = ks.run_search(board.state, 500, expansion_threshold=threshold, seed=3,
                            prior=prior, prior_visits=7)
        tree = run.tree
        first, count = int(tree.node_first_edge[0]), int(tree.node_num_edges[0])
        children = tree.edge_child[first:first + count]
        assert (children >= 0).all()  # all created up front
        real = tree.node_visits[children] - 7
        assert real.sum() == tree.node_visits[0] == 500
        expanded = tree.node_first_edge[children] >= 0
        # a root child is expanded on its first real arrival with threshold real visits
        assert (expanded == (real > threshold)).all()


def test_search_validates_the_prior():
    board = Board(9)
    with pytest.raises(ValueError, match="shape"):
        search(board, 10, prior=np.full((7, 7), 0.5))
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        search(board, 10, prior=np.full((9, 9), 1.5))
    with pytest.raises(ValueError, match="prior_visits"):
        search(board, 10, prior=np.full((9, 9), 0.5), prior_visits=-1)
    with pytest.raises(ValueError, match="root's children"):
        search(board, 10, prior=np.full((9, 9), 0.5), max_nodes=20)
