"""Tabu queues (Eqs. 6-11), the Eq. 8 schedule, the Eq. 12 bound and the named configurations,
against a plain-Python twin of the queue updates."""

from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mctslab.go import _tabu
from mctslab.go.tabu import PAPER_CONFIGS, candidate_bound, parse_config, tabu_size

NIL = 0


class QueueTwin:
    """M FIFO queues of exactly ``size`` slots, written from the paper's rules with deques."""

    def __init__(self, moves, size, mode):
        self.size, self.mode = size, mode
        self.queues = [deque([NIL] * size, maxlen=size) for _ in range(moves)]
        self.buf = [NIL] * moves

    def check(self, m, key):
        if self.mode == _tabu.NONE or self.size == 0:
            return True
        queue = self.queues[m]
        if key in queue:
            queue.append(NIL)  # enqueue NIL at the rear; the front drops out (maxlen)
            return False
        if self.mode == _tabu.SEQUENTIAL:
            queue.append(key)
        else:
            self.buf[m] = key
        return True

    def flush(self, used, lost):
        for m in range(used):
            if lost and self.buf[m] != NIL and self.size:
                self.queues[m].append(self.buf[m])
            self.buf[m] = NIL


def _fifo(queues, heads, q, m, size):
    """Queue ``m`` of set ``q`` from its front (oldest) to its rear (newest)."""
    row, head = list(queues[q, m, :size]), int(heads[q, m])
    return row[head:] + row[:head]


operations = st.lists(st.one_of(
    st.tuples(st.just("check"), st.integers(0, 2), st.integers(1, 6)),
    st.tuples(st.just("flush"), st.integers(0, 3), st.booleans()),
), max_size=60)


@settings(max_examples=150, deadline=None)
@given(size=st.integers(0, 5), mode=st.sampled_from([_tabu.NONE, _tabu.SEQUENTIAL,
                                                      _tabu.BATCH_ON_LOSS]), ops=operations)
def test_queue_updates_equal_the_twin(size, mode, ops):
    moves = 3
    queues, heads = _tabu.make_queues(2, moves, 5)
    buf = np.zeros(moves, np.uint64)
    twin = QueueTwin(moves, size, mode)
    q = 1  # a non-zero set: rows of other leaves must stay untouched
    for op in ops:
        if op[0] == "check":
            _, m, key = op
            got = _tabu.tabu_check(queues, heads, q, m, np.uint64(key), size, mode, buf)
            assert got == twin.check(m, key)
        else:
            _, used, lost = op
            _tabu.tabu_flush(queues, heads, q, buf, used, size, lost)
            twin.flush(used, lost)
        for m in range(moves):
            if size:
                assert _fifo(queues, heads, q, m, size) == list(twin.queues[m])
    assert not queues[0].any() and not heads[0].any()


def test_a_rejected_candidate_enqueues_nil_and_l_nils_empty_the_queue():
    size = 3
    queues, heads = _tabu.make_queues(1, 1, size)
    buf = np.zeros(1, np.uint64)
    seq = _tabu.SEQUENTIAL
    for key in (7, 8, 9):
        assert _tabu.tabu_check(queues, heads, 0, 0, np.uint64(key), size, seq, buf)
    # 9 (the newest) is tabu: each rejection pushes a NIL and drops the front; after L = 3
    # NILs the queue holds only NILs, so the fourth try of the same candidate is accepted
    assert [_tabu.tabu_check(queues, heads, 0, 0, np.uint64(9), size, seq, buf)
            for _ in range(4)] == [False, False, False, True]
    assert _fifo(queues, heads, 0, 0, size) == [NIL, NIL, 9]
    # the oldest (7 was dropped on the way) is accepted at once
    assert _tabu.tabu_check(queues, heads, 0, 0, np.uint64(7), size, seq, buf)


def test_batch_update_enqueues_the_buffer_only_after_a_loss():
    size, moves = 2, 3
    queues, heads = _tabu.make_queues(1, moves, size)
    buf = np.zeros(moves, np.uint64)
    mode = _tabu.BATCH_ON_LOSS
    for m, key in enumerate((11, 12, 13)):
        assert _tabu.tabu_check(queues, heads, 0, m, np.uint64(key), size, mode, buf)
    assert not queues.any()  # accepted states wait in the buffer
    _tabu.tabu_flush(queues, heads, 0, buf, moves, size, False)  # a win: nothing stored
    assert not queues.any() and not buf.any()
    for m, key in enumerate((11, 12, 13)):
        _tabu.tabu_check(queues, heads, 0, m, np.uint64(key), size, mode, buf)
    _tabu.tabu_flush(queues, heads, 0, buf, 2, size, True)  # a loss after 2 playout moves
    assert [_fifo(queues, heads, 0, m, size) for m in range(moves)] == [
        [NIL, 11], [NIL, 12], [NIL, NIL]]
    assert not _tabu.tabu_check(queues, heads, 0, 0, np.uint64(11), size, mode, buf)


def test_tabu_key_never_nil():
    assert _tabu.tabu_key(0) == 1 and _tabu.tabu_key(5) == 5


def test_schedule_matches_eq_8_for_19x19_and_L_18():
    sizes = [tabu_size(18, k, 19) for k in range(1, 400)]
    assert sizes[:90] == [18] * 90 and sizes[90:240] == [12] * 150 and set(sizes[240:]) == {6}
    assert [tabu_size(15, k, 9) for k in (20, 21, 54, 55)] == [15, 10, 10, 5]
    with pytest.raises(ValueError, match="start at 1"):
        tabu_size(18, 0)


def test_eq_12_bound():
    assert candidate_bound(19, 12, 5) == pytest.approx(4.562, abs=5e-4)
    assert candidate_bound(19, 0, 5) == 0.0
    # the bound grows with L (Table 4's totals grow with the tabu size too)
    bounds = [candidate_bound(19, size, 5) for size in range(16)]
    assert all(a < b for a, b in zip(bounds, bounds[1:]))


def test_named_configurations_follow_table_1():
    table = {name: parse_config(name) for name in PAPER_CONFIGS}
    assert (table["gnugo-uct"].expansion_threshold, table["gnugo-uct"].mode) == (1, _tabu.NONE)
    assert (table["gTabu0"].expansion_threshold, table["gTabu0"].mode) == (30, _tabu.NONE)
    assert (table["gTabu18"].kind, table["gTabu18"].mode) == ("move", _tabu.SEQUENTIAL)
    assert (table["gTabu18-hash"].kind, table["gTabu18-hash"].mode) == ("state", _tabu.SEQUENTIAL)
    assert table["gTabu18-hash-win"].mode == _tabu.BATCH_ON_LOSS
    assert all(c.size == 18 and c.moves == 5 for n, c in table.items() if n.startswith("gTabu18"))
    assert all(c.playouts == 8000 and c.c == 1.5 for c in table.values())
    assert parse_config("gTabu7-hash", moves=3).moves == 3
    for bad in ("gTabu", "gtabu18", "gTabu18-win", "gnugo"):
        with pytest.raises(ValueError, match="unknown engine configuration"):
            parse_config(bad)


# -- the tabu lists inside the engine --------------------------------------------------------

def _random_game(size, moves, seed):
    from mctslab.go.api import Board

    rng = np.random.default_rng(seed)
    board = Board(size)
    for _ in range(moves):
        legal = board.legal_moves(board.to_move)
        board.play(board.to_move, legal[rng.integers(len(legal))] if legal else None)
    return board


@pytest.mark.parametrize("seed", range(6))
def test_hash_after_equals_the_hash_after_playing(seed):
    from mctslab.go import _board as kb

    board = _random_game(7, 60 + 10 * seed, seed)  # crowded: captures are common
    color = board.to_move
    for move in board.legal_moves(color) + [None]:
        p = board.point(move) if move is not None else kb.PASS
        predicted = kb.hash_after_move(board.state, color, p)
        after = board.copy()
        after.play(color, move)
        assert predicted == after.hash, (move, str(board))


def test_search_with_tabu_lists_rejects_and_records():
    from mctslab.go.api import search

    board = _random_game(9, 10, 1)
    plain = search(board, 600, expansion_threshold=30, seed=5, record_hashes=5)
    assert plain.tabu_candidates == 0 and plain.hashes.shape == (600, 5)
    for name in ("gTabu18", "gTabu18-hash", "gTabu18-hash-win"):
        result = search(board, 600, expansion_threshold=30, seed=5, tabu=name, record_hashes=5)
        assert result.tabu_size == 18 and result.tabu_candidates > 0, name
        assert result.hashes.shape == (600, 5) and result.move is not None
    # same seed, same search
    again = search(board, 600, expansion_threshold=30, seed=5, tabu="gTabu18-hash-win")
    assert again.children == search(board, 600, expansion_threshold=30, seed=5,
                                    tabu="gTabu18-hash-win").children


def test_state_tabu_diversifies_the_first_playout_positions():
    # Fig. 5's claim on a small case: with the sequential state tabu (L = 18) the 600 playouts'
    # positions after playout moves 1..5 repeat less than without tabu (same seed, same board).
    from mctslab.go.api import search

    board = _random_game(9, 10, 2)

    def duplicates(tabu):
        hashes = search(board, 600, expansion_threshold=30, seed=7, tabu=tabu,
                        record_hashes=5).hashes
        _, counts = np.unique(hashes[hashes != 0], return_counts=True)
        return int((counts - 1).sum())

    assert duplicates("gTabu18-hash") < duplicates(None)


def test_schedule_size_follows_the_game_move():
    from mctslab.go.api import search

    board = _random_game(9, 21, 3)  # move 22 on 9x9: floor(81/4) = 20 < 22 <= 54
    assert search(board, 50, seed=1, tabu="gTabu18-hash").tabu_size == 12
