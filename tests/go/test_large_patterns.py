"""Large patterns (``mctslab.go._large``, ``mctslab.go.large_patterns``) and the strong engine's
``large`` prior (``--large-patterns``)."""

from __future__ import annotations

import argparse

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mctslab import data
from mctslab.go import _large, _prior, cli_engine, strong
from mctslab.go import large_patterns as lp
from mctslab.go.api import BLACK, WHITE, Board
from mctslab.go.engine import EngineSettings, engine_settings
from mctslab.go.match import Player

SYMMETRIES = (lambda r, c, n: (r, c), lambda r, c, n: (r, n - 1 - c),
              lambda r, c, n: (n - 1 - r, c), lambda r, c, n: (n - 1 - r, n - 1 - c),
              lambda r, c, n: (c, r), lambda r, c, n: (c, n - 1 - r),
              lambda r, c, n: (n - 1 - c, r), lambda r, c, n: (n - 1 - c, n - 1 - r))


def _random_board(size: int, moves: int, seed: int) -> Board:
    rng = np.random.default_rng(seed)
    board = Board(size)
    for _ in range(moves):
        legal = board.legal_moves(board.to_move)
        if not legal:
            break
        board.play(board.to_move, legal[rng.integers(len(legal))])
    return board


def _kernel_keys(board: Board, color: int, move) -> list[int]:
    bundle = lp.prior_bundle(False)
    s = board.state
    out = np.zeros(3, np.uint64)
    _large.pattern_keys(s.color, s.group, s.libs, s.lib_sum, s.lib_sumsq, board.size,
                        board.size + 2, color, board.point(move), bundle.dr, bundle.dc,
                        bundle.ends, bundle.perm, bundle.keys, bundle.tags, bundle.scratch, out)
    return [int(k) for k in out]


def _plain_keys(board: Board, color: int, move) -> list[int]:
    """The keys written plainly from their definition: the value of each point of the diamond
    (off the board, empty, own, enemy, in atari by its string's real liberties), hashed under
    each symmetry of the offsets, the smallest, tagged per radius."""
    n = board.size
    grid = {(r, c): board.get(r, c) for r in range(n) for c in range(n)}

    def liberties(point):
        todo, seen, libs = [point], {point}, set()
        while todo:
            r, c = todo.pop()
            for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if q in grid and grid[q] == 0:
                    libs.add(q)
                elif q in grid and grid[q] == grid[point] and q not in seen:
                    seen.add(q)
                    todo.append(q)
        return len(libs)

    dr, dc, ends = _large.offsets()
    keys, tags = _large.zobrist()
    perm = _large.symmetry_table(dr, dc)
    values = []
    for a, b in zip(dr, dc, strict=True):
        q = (move[0] + int(a), move[1] + int(b))
        if q not in grid:
            values.append(3)
        elif grid[q] == 0:
            values.append(0)
        else:
            own = grid[q] == color
            atari = liberties(q) == 1
            values.append((4 if atari else 1) if own else (5 if atari else 2))
    out = []
    for ring, end in enumerate(ends):
        hashes = []
        for s in range(8):
            h = 0
            for k in range(end):
                h ^= int(keys[perm[s, k], values[k]])
            hashes.append(h)
        out.append(min(hashes) ^ int(tags[ring]))
    return out


@settings(max_examples=40, deadline=None)
@given(size=st.sampled_from([5, 7, 9, 13]), moves=st.integers(0, 60), seed=st.integers(0, 10**6))
def test_the_keys_are_their_definition_and_do_not_see_the_symmetry(size, moves, seed):
    board = _random_board(size, moves, seed)
    color = board.to_move
    empties = [(r, c) for r in range(size) for c in range(size) if board.get(r, c) == 0]
    for move in empties[: 6]:
        keys = _kernel_keys(board, color, move)
        assert keys == _plain_keys(board, color, move)
        for f in SYMMETRIES[1:]:
            turned = Board(size)
            for r in range(size):
                for c in range(size):
                    if board.get(r, c):
                        turned.play(board.get(r, c), f(r, c, size))
            assert _kernel_keys(turned, color, f(*move, size)) == keys


def test_colours_are_relative_to_the_side_to_move():
    board = _random_board(9, 30, 7)
    swapped = Board(9)
    for r in range(9):
        for c in range(9):
            if board.get(r, c):
                swapped.play(3 - board.get(r, c), (r, c))
    for move in [(r, c) for r in range(9) for c in range(9) if board.get(r, c) == 0][:10]:
        assert _kernel_keys(board, BLACK, move) == _kernel_keys(swapped, WHITE, move)


def _plain_counts(path) -> dict[int, list[int]]:
    """key -> [played, seen] over a game, counted plainly: every legal point of every position
    is seen, the move is played."""
    size, colors, points = lp._game(path)
    board, counts = Board(size), {}
    for color, p in zip(colors, points, strict=True):
        color = int(color)
        for move in board.legal_moves(color):
            for key in _plain_keys(board, color, move):
                counts.setdefault(key, [0, 0])[1] += 1
        move = board.move_of(int(p))
        if move is not None:
            for key in _plain_keys(board, color, move):
                counts[key][0] += 1
        board.play(color, move)
    return counts


def test_learning_counts_as_a_plain_count(tmp_path):
    game = tmp_path / "short.sgf"
    game.write_bytes(b"(;GM[1]FF[4]SZ[7]KM[6.5];B[dd];W[cc];B[dc];W[cd];B[ce];W[bd];B[ec];"
                     b"W[cb];B[db];W[be];B[cf];W[bf];B[ca];W[ba];B[da])")
    table = lp.learn([game, game], min_played=1, min_seen=1)
    plain = _plain_counts(game)
    wanted = {k: v for k, v in plain.items() if v[0] >= 1}
    assert dict(zip(map(int, table.keys), zip(table.played.tolist(), table.seen.tolist(),
                                               strict=True), strict=True)) == \
        {k: (2 * p, 2 * s) for k, (p, s) in wanted.items()}
    assert table.games == 2 and table.moves == 30
    again = lp.load_table(lp.save(table, tmp_path / "t.npz"))
    assert np.array_equal(again.keys, table.keys) and np.array_equal(again.seen, table.seen)


def test_a_bad_table_is_refused_by_name(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a table")
    with pytest.raises(ValueError, match="bad.npz: not a large-pattern table"):
        lp.load_table(bad)


def test_the_shipped_table():
    table = lp.load_table()
    assert table.games == 1784 and table.moves > 300_000
    assert set(np.unique(table.radius)) == {2, 3, 4}
    assert np.all(table.seen >= lp.MIN_SEEN) and np.all(table.played >= lp.MIN_PLAYED)
    assert data.find(lp.DEFAULT_TABLE).stat().st_size < 5_000_000


def _priors(board: Board, large: float):
    points = board.state.color.shape[0]
    pd = strong._prior_data(points, False, large)
    visits, wins = np.zeros(points), np.zeros(points)
    _prior.prior_map(board.state, board.to_move, board.point(board.moves[-1][1]),
                     strong.prior_weights("all"), pd, visits, wins)
    return visits, wins


def test_the_prior_adds_large_sqrt_q_to_visits_and_wins():
    board = _random_board(9, 12, 3)
    off_v, off_w = _priors(board, 0.0)
    on_v, on_w = _priors(board, 100.0)
    bundle = lp.prior_bundle(True)
    moved = 0
    for p in range(1, board.state.color.shape[0]):
        if board.state.color[p] != 0:
            continue
        q = _large.pattern_probability(board.state, board.to_move, p, bundle)
        bonus = 100.0 * np.sqrt(q) if q > 0 else 0.0
        assert on_v[p] == pytest.approx(off_v[p] + bonus)
        assert on_w[p] == pytest.approx(off_w[p] + bonus)
        moved += bonus > 0
    assert moved > 20  # most moves of an opening have a pattern in the table


def test_the_option_is_off_by_default_and_changes_the_search():
    board = _random_board(9, 8, 5)
    plain = strong.search(board, 300, seed=4)
    assert strong.search(board, 300, seed=4, large_patterns=0.0).children == plain.children
    on = strong.search(board, 300, seed=4, large_patterns=100.0)
    assert on.children != plain.children
    assert strong.search(board, 300, seed=4, large_patterns=100.0).children == on.children
    with pytest.raises(ValueError, match="large_patterns must be a finite number >= 0"):
        strong.search(board, 10, large_patterns=-1.0)


def test_engine_settings_task_parameters_and_the_command_line():
    assert engine_settings("strong").large_patterns == 0.0
    assert "large_patterns" not in Player("mcts", engine=engine_settings("strong")).params()[
        "engine"]  # the task ids of recorded matches stay
    params = Player("mcts", engine=engine_settings("strong", large_patterns=100.0)).params()
    assert params["engine"]["large_patterns"] == 100.0
    assert Player.from_params(params).engine.large_patterns == 100.0
    with pytest.raises(ValueError, match="large-pattern prior"):
        EngineSettings(large_patterns=100.0)
    parser = argparse.ArgumentParser()
    cli_engine.engine_options(parser, playouts=100)
    for words, expected in (([], 0.0), (["--large-patterns", "80"], 80.0)):
        args = parser.parse_args(["--engine", "strong", *words])
        assert cli_engine.engine(args).large_patterns == expected


def test_the_command_line_learns_and_shows_a_table(tmp_path, capsys):
    from mctslab import cli

    out = tmp_path / "two.npz"
    assert cli.main(["go", "large-patterns", "learn", "--games", "2", "--out", str(out)]) == 0
    assert f"{out}: " in capsys.readouterr().out
    assert cli.main(["go", "large-patterns", "show", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "radius 4:" in shown and "2 games" in shown
