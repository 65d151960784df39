"""Fotland's mask matcher against the naive matcher on real games and random boards."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sgfmill import boards, sgf

from mctslab import data
from mctslab.manyfaces import patterns as P
from mctslab.manyfaces.api import Matcher
from mctslab.manyfaces.reference import naive_matches

GAMES = ["go-games/alphago/AlphaGo/AG_vs_AG_-_G1_-_English.sgf",
         "go-games/alphago/AlphaGo/FH_vs_AG_G1.sgf",
         "go-games/tom9d/tom-2003-09-354460.sgf"]
MOVES = (60, 130)
SWITCHES = list(itertools.product([False, True], repeat=3))   # hash, incremental, early exit


def game_positions(relpath, move_numbers):
    """{move number: int8 [19, 19] board (row 0 at the top)}, replayed with sgfmill."""
    game = sgf.Sgf_game.from_bytes(data.find(relpath).read_bytes())
    board = boards.Board(game.get_size())
    out = {}
    for k, node in enumerate(game.get_main_sequence()):
        colour, move = node.get_move()
        if colour and move:
            board.play(move[0], move[1], colour)
        if k in move_numbers:
            arr = np.zeros((19, 19), np.int8)
            for c, (r, col) in board.list_occupied_points():
                arr[18 - r, col] = 1 if c == "b" else 2
            out[k] = arr
    assert set(out) == set(move_numbers), f"{relpath} is shorter than {max(move_numbers)} moves"
    return out


@pytest.fixture(scope="module")
def compiled():
    return P.compile_patterns(P.load_default())


@pytest.fixture(scope="module")
def positions():
    """(game, move number) -> position, for three games at moves 60 and 130 (and the
    positions just before them, for the incremental updates)."""
    out = {}
    for g in GAMES:
        numbers = [m - d for m in MOVES for d in (2, 1, 0)]
        for k, arr in game_positions(g, numbers).items():
            out[g, k] = arr
    return out


@pytest.fixture(scope="module")
def naive(compiled, positions):
    return {key: naive_matches(compiled.patterns, positions[key])
            for key in positions if key[1] in MOVES}


@pytest.mark.parametrize("use_hash,incremental,early_exit", SWITCHES)
def test_every_switch_combination_equals_the_naive_matcher(compiled, positions, naive, use_hash,
                                                            incremental, early_exit):
    m = Matcher(compiled, use_hash=use_hash, incremental=incremental, early_exit=early_exit)
    # without the hash every update is a 70 ms full match: one update is enough there
    steps = (1, 0) if use_hash or incremental else (0,)
    for g in GAMES:
        for move in MOVES:
            m.set_board(positions[g, move - len(steps)])
            for d in steps:
                m.update(positions[g, move - d])
            got = m.match_tuples()
            assert got == naive[g, move], (g, move, len(got ^ naive[g, move]))
            assert len(got) > 100          # real mid-game positions match many patterns


def test_word_sizes_and_the_incremental_update_from_a_full_match(compiled, positions, naive):
    g = GAMES[0]
    for word_bits in (8, 16, 64):
        m = Matcher(compiled, word_bits=word_bits)
        m.set_board(positions[g, 60])
        assert m.match_tuples() == naive[g, 60]
    # incremental updates through a capture-free and captures-included stretch equal a
    # fresh full match (several moves apart, in both directions)
    m = Matcher(compiled)
    fresh = Matcher(compiled)
    m.set_board(positions[g, 58])
    for k in (59, 60, 58, 130, 128, 129, 60):
        m.update(positions[g, k])
        fresh.set_board(positions[g, k])
        assert m.match_tuples() == fresh.match_tuples(), k


def test_counters_show_each_speed_up(compiled, positions):
    board = positions[GAMES[0], 130]
    counts = {}
    for use_hash, early_exit in itertools.product([False, True], repeat=2):
        m = Matcher(compiled, use_hash=use_hash, early_exit=early_exit)
        counts[use_hash, early_exit] = m.set_board(board)
    naive, hashed, early = counts[False, False], counts[True, False], counts[True, True]
    assert naive["windows"] == hashed["windows"] == 16 * 361
    assert naive["candidates"] == 16 * 361 * compiled.n_patterns
    assert hashed["candidates"] < naive["candidates"] / 10
    assert early["words"] < hashed["words"] and early["comparisons"] == hashed["comparisons"]
    assert len({c["matches"] for c in counts.values()}) == 1
    m = Matcher(compiled)
    m.set_board(positions[GAMES[0], 129])
    inc = m.update(board)
    assert 0 < inc["anchors"] <= 16 * 8 * 12 and inc["candidates"] < hashed["candidates"] / 10


def test_a_corner_pattern_is_found_once_with_its_move_on_the_board():
    text = "Pattern C1\n\n|O*\n|..\n+--\n\n:8,a\n"
    pats = P.parse_text(text, "test")
    assert (pats[0].left, pats[0].bottom, pats[0].top) == (True, True, False)
    compiled = P.compile_patterns(pats)
    board = np.zeros((19, 19), np.int8)
    board[17, 0] = 1
    m = Matcher(compiled)
    m.set_board(board)
    found = m.matches()
    assert [(x.colour, x.move) for x in found] == [(0, (17, 1))]
    assert m.match_tuples() == naive_matches(compiled.patterns, board)
    board[17, 0] = 2                     # now it is a white pattern
    m.set_board(board)
    assert [(x.colour, x.move) for x in m.matches()] == [(1, (17, 1))]
    board[18, 1] = 1                     # the '.' point is taken: no match
    m.update(board)
    assert m.matches() == []


@pytest.fixture(scope="module")
def subset():
    """A few dozen patterns: centre, edge, corner and the wider-than-8 ones."""
    pats = P.load_default()
    pick = [p for p in pats if p.width > 8 or p.height > 8]
    pick += pats[::40]
    return P.compile_patterns(pick)


@settings(max_examples=12, deadline=None)
@given(n=st.integers(7, 13), seed=st.integers(0, 2**32 - 1), fill=st.floats(0.2, 0.8),
       use_hash=st.booleans(), early_exit=st.booleans())
def test_random_boards_of_any_size_equal_the_naive_matcher(subset, n, seed, fill, use_hash,
                                                           early_exit):
    rng = np.random.default_rng(seed)
    board = np.where(rng.random((n, n)) < fill, rng.integers(1, 3, (n, n)), 0).astype(np.int8)
    m = Matcher(subset, n, use_hash=use_hash, early_exit=early_exit)
    m.set_board(board)
    assert m.match_tuples() == naive_matches(subset.patterns, board)
    board2 = board.copy()
    pts = rng.integers(0, n, (3, 2))
    board2[pts[:, 0], pts[:, 1]] = rng.integers(0, 3, 3)
    m.update(board2)
    assert m.match_tuples() == naive_matches(subset.patterns, board2)


def test_bad_boards_are_refused(compiled):
    m = Matcher(compiled, 19)
    with pytest.raises(ValueError, match="19x19"):
        m.set_board(np.zeros((9, 9), np.int8))
    with pytest.raises(ValueError, match="values"):
        m.set_board(np.full((19, 19), 3, np.int8))
    m.set_board(np.zeros((19, 19), np.int8))
    bad = np.zeros((19, 19), np.int8)
    bad[3, 4] = -1
    with pytest.raises(ValueError, match="values"):
        m.update(bad)                            # checked by the update kernel
    assert m.update(np.zeros((19, 19), np.int8))["anchors"] == 0     # nothing was applied
    with pytest.raises(ValueError, match="word_bits"):
        Matcher(compiled, word_bits=12)


def test_incremental_updates_reach_the_far_blocks_of_wide_patterns():
    # a 2 x 11 pattern takes two 8x8 blocks; a stone 10 columns right of its anchor
    # must still break and (when taken away) restore the match
    text = "Pattern W1\n\nO.........X\n...........\n\n:8,a\n"
    compiled = P.compile_patterns(P.parse_text(text, "test"))
    board = np.zeros((19, 19), np.int8)
    board[5, 2], board[5, 12] = 1, 2
    m = Matcher(compiled)
    m.set_board(board)
    before = m.match_tuples()
    assert (0, 5, 2, 0, 0) in before and before == naive_matches(compiled.patterns, board)
    for value in (1, 0, 2, 0):
        board[6, 12] = value
        m.update(board)
        assert m.match_tuples() == naive_matches(compiled.patterns, board), value
    assert m.match_tuples() == before


@pytest.mark.parametrize("name", ["gogo", "takamoku", "sansan", "mokuhazushi"])
def test_gnu_gos_compiled_joseki_patterns_match_their_own_sgf_positions(name):
    # End to end, independent of our joseki code: GNU Go 3.8 compiled each joseki node
    # with a mark into a corner pattern (up to 14 x 11: two blocks down and across);
    # replayed with sgfmill, the position before that node's move must match it in the
    # upper-right corner with '*' on the move and O the player moving.
    pats = P.parse_file(data.find(f"gnugo/joseki/compiled-3.8/{name}.db"))
    compiled = P.compile_patterns(pats)
    m = Matcher(compiled)
    game = sgf.Sgf_game.from_bytes(data.find(f"gnugo/joseki/{name}.sgf").read_bytes())
    stack = [(game.get_root(), boards.Board(19))]
    k = 0
    while stack:
        node, board = stack.pop()
        colour, move = node.get_move()
        if move is not None and (node.has_property("MA") or node.has_property("SQ")):
            arr = np.zeros((19, 19), np.int8)
            for c, (r, col) in board.list_occupied_points():
                arr[18 - r, col] = 1 if c == "b" else 2
            m.update(arr)
            found = {(x.move, x.colour) for x in m.matches() if x.pattern == k}
            assert ((18 - move[0], move[1]), 0 if colour == "b" else 1) in found, pats[k].name
            k += 1
        if colour is not None and move is not None:
            board = board.copy()
            board.play(move[0], move[1], colour)
        stack.extend((child, board) for child in reversed(list(node)))
    assert k == len(pats)


@pytest.mark.parametrize("use_hash", [True, False])
def test_a_stretch_of_single_move_updates_equals_a_fresh_full_match_after_every_move(compiled,
                                                                                     use_hash):
    # The in-place re-match skips the patterns whose cell at the changed point accepts
    # both its old and new states and trusts the old bits elsewhere; a wrong skip would
    # leave a stale or missing match that the next moves need not repair. 40 real moves
    # (captures included: moves 110-150 of this game remove stones) forward, then back.
    g = GAMES[2]
    boards = game_positions(g, list(range(110, 151)))
    m = Matcher(compiled, use_hash=use_hash)
    fresh = Matcher(compiled)
    m.set_board(boards[110])
    order = list(range(111, 151)) + list(range(149, 109, -3))
    captures = 0
    for k in order:
        captures += int(np.count_nonzero(m.board.reshape(19, 19) != boards[k]) > 1)
        m.update(boards[k])
        fresh.set_board(boards[k])
        assert m.match_tuples() == fresh.match_tuples(), k
    assert captures > 0
