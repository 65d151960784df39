"""The strong engine's recorded playout positions (``strong.search(record_hashes=M)``, the
state-tabu paper's Fig. 5) replayed on :class:`Board` in plain Python, their shape and zero
convention, determinism, and the Fig. 5 / Table 4 task functions of the strong engine."""

from collections import Counter

import numpy as np
import pytest

from mctslab.go import _heavy, experiments, strong
from mctslab.go.api import BLACK, WHITE, Board
from mctslab.rng import seed_state

# the strong engine's kernels take minutes to compile cold (see tests/go/test_strong.py)
pytestmark = pytest.mark.extended

POSITION = [(BLACK, (4, 4)), (WHITE, (2, 6)), (BLACK, (6, 2)), (WHITE, (2, 3))]
ONE_MOVE_TREE = 10**9  # expand_visits: the tree stays the root and its children


def _after(board, move):
    after = board.copy()
    after.play(after.to_move, move)
    return after


def replay_rows(board, hashes):
    """Replay every row of ``hashes`` (a search whose tree is the root and its children: one
    tree move, then the playout) on :class:`Board`: the tree move of each row, found by the
    hash after the tree move and playout move 1, then each playout move by the hash it gives.
    Asserts that each nonzero hash is found, that the zeros start where the replayed playout
    ended (two passes, or the engine's 3 N^2 moves) and nowhere before. Returns the tree moves."""
    after_first = {}
    for tree_move in board.legal_moves(board.to_move) + [None]:
        child = _after(board, tree_move)
        for move in child.legal_moves(child.to_move) + [None]:
            after = _after(child, move)
            after_first.setdefault(after.hash, (tree_move, after))
    tree_moves = []
    for row in hashes:
        tree_move, position = after_first[int(row[0])]
        tree_moves.append(tree_move)
        played = 1
        for k in range(1, len(row)):
            if position.passes >= 2 or played == 3 * board.size ** 2:
                assert not row[k:].any(), "a hash past the playout's end"
                break
            position = next((after for after in (_after(position, m) for m in
                             position.legal_moves(position.to_move) + [None])
                             if after.hash == int(row[k])), None)
            assert position is not None, f"no move gives the hash of playout move {k + 1}"
            played += 1
    return tree_moves


def test_a_playout_records_the_hash_after_each_of_its_moves():
    board = Board.from_moves(9, POSITION)
    policy = strong._policy("heavy", None)
    for seed in range(3):
        scratch, seq = board.copy().state, np.zeros(400, np.int32)
        hashes = np.zeros(400, np.uint64)
        _, end = _heavy.playout_recorded(scratch, seed_state(seed), policy, 6.5, 243, seq, 0,
                                         strong._tabu(None, board, 1)[0], -1, hashes)
        replay = board.copy()
        for k, p in enumerate(seq[:end]):
            replay.play(replay.to_move, replay.move_of(int(p)))
            assert int(hashes[k]) == replay.hash, k
        assert not hashes[end:].any()
        short = np.zeros(5, np.uint64)  # the same playout, its first 5 hashes only
        _heavy.playout_recorded(board.copy().state, seed_state(seed), policy, 6.5, 243, seq, 0,
                                strong._tabu(None, board, 1)[0], -1, short)
        assert (short == hashes[:5]).all()


@pytest.mark.parametrize("tabu", [None, "gTabu18-hash-win"])
def test_search_hashes_replay_on_the_board(tabu):
    """7x7, 40 playouts: every recorded hash is the Board's after the row's tree move and its
    playout moves, and the tree moves are the root children's visits."""
    board = Board.from_moves(7, [(BLACK, (3, 3)), (WHITE, (2, 4))])
    result = strong.search(board, 40, seed=2, expand_visits=ONE_MOVE_TREE, record_hashes=5,
                           tabu=tabu)
    assert result.hashes.shape == (40, 5) and result.hashes.dtype == np.uint64
    assert result.hashes.all()  # no playout ends within 5 moves here
    visits = Counter(replay_rows(board, result.hashes))
    assert visits == {move: n for move, n, _ in result.children}


def test_shorter_playouts_leave_zeros_after_their_end():
    """5x5, 100 recorded moves: the engine's playouts stop at 75 (3 N^2) moves or two passes,
    so each row's nonzero hashes are exactly its playout's moves."""
    board = Board.from_moves(5, [(BLACK, (2, 2))])
    result = strong.search(board, 20, seed=1, expand_visits=ONE_MOVE_TREE, record_hashes=100)
    hashes = result.hashes
    assert hashes.shape == (20, 100) and not hashes[:, 75:].any()
    lengths = (hashes != 0).sum(axis=1)
    assert ((lengths > 0) & (lengths < 75)).all()
    for row, n in zip(hashes, lengths):
        assert row[:n].all() and not row[n:].any()  # zeros only after the end
    replay_rows(board, hashes)


def test_same_seed_same_hashes_and_recording_leaves_the_search_as_it_was():
    board = Board.from_moves(9, POSITION)
    for tabu in (None, "gTabu18-hash"):
        a = strong.search(board, 300, seed=5, tabu=tabu, record_hashes=5)
        b = strong.search(board, 300, seed=5, tabu=tabu, record_hashes=5)
        plain = strong.search(board, 300, seed=5, tabu=tabu)
        assert np.array_equal(a.hashes, b.hashes) and a.hashes.shape == (300, 5)
        assert plain.hashes is None
        assert (a.move, a.children, a.root_win_rate, a.nodes, a.tabu_candidates) == \
            (plain.move, plain.children, plain.root_win_rate, plain.nodes,
             plain.tabu_candidates)
    other = strong.search(board, 300, seed=6, record_hashes=5)
    assert not np.array_equal(other.hashes, a.hashes)
    with pytest.raises(ValueError, match="record_hashes"):
        strong.search(board, 10, record_hashes=-1)


def test_a_search_in_chunks_fills_the_rows_in_order():
    """With ``seconds`` the search runs in chunks of 256 playouts (here 4, well inside the
    limit): each chunk's rows follow the last one's, as in one call."""
    board = Board.from_moves(9, POSITION)
    chunked = strong.search(board, 1000, seconds=600, seed=0, record_hashes=3)
    whole = strong.search(board, 1000, seed=0, record_hashes=3)
    assert chunked.playouts == 1000 and np.array_equal(chunked.hashes, whole.hashes)
    assert chunked.hashes.all()


def test_the_strong_fig5_and_table4_tasks():
    """One tiny search each from the fixed 19x19 position: counts add up, the same seed gives
    the same result, no tabu list rejects nothing."""
    seed = np.random.SeedSequence(3)
    params = dict(config="gTabu18-hash", playouts=60, moves=5, top=10, redraw="policy")
    result = experiments.strong_duplicates_task(params, seed)
    assert result["positions"] == 300 and result["playouts"] == 60
    assert result["distinct"] + result["duplicates"] == 300
    assert sum(result["counts"]) <= 300 and result["counts"] == sorted(result["counts"])[::-1]
    again = experiments.strong_duplicates_task(params, np.random.SeedSequence(3))
    assert {k: v for k, v in again.items() if k != "seconds"} == \
        {k: v for k, v in result.items() if k != "seconds"}
    none = experiments.strong_candidates_task(dict(size=0, playouts=60, moves=5,
                                                   redraw="policy"), seed)
    assert none["tabu_candidates"] == 0 and none["tabu_size"] == 0
    four = experiments.strong_candidates_task(dict(size=4, playouts=60, moves=5,
                                                   redraw="policy"), seed)
    assert four["tabu_size"] == 4 and four["playouts"] == 60
