"""Real games (data/go-games, 2,000 19x19 SGF records) replayed on our Board and on sgfmill's.

Move by move: no illegal move (occupied, suicide, simple ko), the same captured points as
sgfmill's board (sgfmill allows self-capture and has no ko rule, so a suicide would show up as
a difference), the same simple-ko point as sgfmill reports, and the same whole board every 10
moves and at the end. ``make test`` replays 100 games evenly spaced over the manifest (both
subsets); all 2,000 (marked ``full``) run in ``make test-reruns``, which CI runs too.
"""

import csv

import pytest
from sgfmill import boards, sgf

from mctslab.data import find
from mctslab.go.api import BLACK, WHITE, Board

COLOURS = {"b": BLACK, "w": WHITE}


def game_paths():
    root = find("go-games")
    with open(root / "manifest.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 2000
    return root, [row["path"] for row in rows]


def occupied(sgf_board):
    return {(r, c): COLOURS[colour] for colour, (r, c) in sgf_board.list_occupied_points()}


def replay(path) -> int:
    game = sgf.Sgf_game.from_bytes(path.read_bytes())
    size = game.get_size()
    ours, theirs = Board(size), boards.Board(size)
    assert game.get_root().get_setup_stones() == (set(), set(), set())
    played = 0
    for node in game.get_main_sequence()[1:]:
        colour, move = node.get_move()
        if colour is None:
            continue
        color = COLOURS[colour]
        if move is None:
            ours.play(color, None)
            continue
        before = occupied(theirs) if played % 10 == 9 else None
        ko = theirs.play(move[0], move[1], colour)
        captured = ours.play(color, move)  # raises IllegalMove on any illegal move
        for point in captured:
            assert theirs.get(*point) is None, (path.name, played, point)
        assert theirs.get(*move) == colour, (path.name, played, "self-capture")
        assert ours.ko_point == ko, (path.name, played)
        played += 1
        if before is not None:
            after = occupied(theirs)
            gone = {p for p in before if p not in after}
            assert gone == set(captured), (path.name, played)
            assert_same_board(ours, theirs, path.name, played)
    assert_same_board(ours, theirs, path.name, played)
    return played


def assert_same_board(ours, theirs, name, played):
    stones = ours.stones()
    expected = occupied(theirs)
    actual = {(r, c): int(stones[r, c]) for r in range(ours.size) for c in range(ours.size)
              if stones[r, c]}
    assert actual == expected, (name, played)


def test_replay_a_spread_of_real_games():
    root, paths = game_paths()
    subset = paths[::20]  # 100 games, both subsets (alphago/ sorts first, then tom9d/)
    moves = sum(replay(root / p) for p in subset)
    assert moves > 15_000


@pytest.mark.full  # 47 s on the 2-core machine under load
def test_replay_all_real_games():
    root, paths = game_paths()
    moves = sum(replay(root / p) for p in paths)
    assert moves > 400_000
