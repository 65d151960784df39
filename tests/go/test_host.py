"""The host engine (the state-tabu paper's engines: GNU Go's classical move generation with a
Monte-Carlo veto), against a scripted host and against the real GNU Go 3.8."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from mctslab.go.api import BLACK, WHITE, Board, parse_vertex, search
from mctslab.go.engine import EngineSettings
from mctslab.go.gtp import GtpServer
from mctslab.go.host import Advice, ClassicalHost, root_moves, shortlist_move

FAKE_HOST = Path(__file__).with_name("fake_host.py")


def scripted(tmp_path, **script):
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script))
    log = tmp_path / "host.log"
    return (sys.executable, str(FAKE_HOST), str(path), str(log)), log


def server(argv, size=9, playouts=200, **settings):
    import io

    s = EngineSettings(size=size, playouts=playouts, classical="gnugo", host_argv=argv,
                       policy="light", **settings)
    return GtpServer(s, stdin=io.BytesIO(), stdout=io.BytesIO(), stderr=io.StringIO())


def test_a_fuseki_move_is_played_with_no_search(tmp_path):
    argv, log = scripted(tmp_path, genmove="E5", top="E5 75.00 D4 74.01", values="E5 75.00")
    with server(argv) as srv:
        srv.handle("play b C3")
        assert srv.handle("genmove w") == "= E5\n\n"
        assert srv.last_search is None and srv.decisions[-1]["fuseki"]
    commands = log.read_text().splitlines()
    assert "play black C3" in [c.split(" ", 1)[1] for c in commands if " " in c]
    assert any(c.endswith("undo") for c in commands)  # the host's own move is taken back


def test_a_host_pass_is_passed_and_a_host_resignation_needs_resign_on(tmp_path):
    argv, _ = scripted(tmp_path, genmove="pass", top="", values="")
    with server(argv) as srv:
        assert srv.handle("genmove b") == "= pass\n\n" and srv.last_search is None
    argv, _ = scripted(tmp_path, genmove="resign", top="D4 3.00", values="D4 3.0")
    with server(argv, resign=0.5) as srv:
        assert srv.handle("genmove b") == "= resign\n\n"


def test_the_search_vetoes_only_through_the_shortlist_and_never_plays_territory(tmp_path):
    # GNU Go proposes C3; the points of the top-right corner are its unconditional territory
    territory = {v: "white_territory" for v in ("H9", "J9", "H8", "J8", "G9")}
    argv, _ = scripted(tmp_path, genmove="C3", top="C3 12.00 D4 8.00",
                       values="C3 12.0\nD4 8.0\nE5 2.0", territory=territory)
    with server(argv, playouts=400) as srv:
        move = srv.choose_move(BLACK)
        decision, result = srv.decisions[-1], srv.last_search
        assert decision["searched"] and decision["classical"] == (2, 2)
        tree_moves = {m for m, _, _ in result.children}
        assert not tree_moves & {parse_vertex(v, 9) for v in territory}
        assert None not in tree_moves  # the host engine's root has no pass
        # every valued move the search visited enough is shortlisted: the move is the
        # shortlisted move of highest V, here GNU Go's own
        assert move == (2, 2) and decision["shortlist"] >= 1


def test_all_move_values_with_nothing_to_list_does_not_hang(tmp_path):
    argv, _ = scripted(tmp_path, genmove="D4", top="D4 1.00", values="")
    host = ClassicalHost(argv=list(argv), timeout=5)
    with host:
        advice = host.consult(Board(9), BLACK)
    assert advice.move == (3, 3) and advice.values == {} and advice.top == [((3, 3), 1.0)]


def test_shortlist_rule_picks_the_highest_value_among_well_visited_moves():
    a, b, c, d = (0, 0), (1, 1), (2, 2), (3, 3)
    children = [(a, 400, 0.55), (b, 300, 0.60), (c, 100, 0.70), (d, 10, 0.50)]
    # b-star = c (best win rate, 100 visits): the cutoff is 50 visits -> a, b, c shortlisted
    move, best, shortlist = shortlist_move(children, {a: 5.0, b: 9.0, d: 30.0}, [a, b, c, d], 9)
    assert best == c and set(shortlist) == {a, b, c} and move == b
    # no shortlisted move has a value: the best win rate's move
    move, best, _ = shortlist_move(children, {d: 30.0}, [a, b, c, d], 9)
    assert move == c
    # a win rate above 0.9 with more than a tenth of b-star's visits is shortlisted too
    children = [(a, 1000, 0.95), (b, 101, 0.91), (c, 99, 0.99)]
    move, best, shortlist = shortlist_move(children, {b: 1.0, c: 2.0}, [a, b, c], 9)
    assert best == c and set(shortlist) == {a, b, c} and move == c
    children = [(a, 1000, 0.95), (b, 101, 0.91), (c, 500, 0.96)]
    _, best, shortlist = shortlist_move(children, {}, [a, b, c], 9)
    assert best == c and set(shortlist) == {a, b, c}
    children = [(a, 1000, 0.80), (b, 101, 0.70), (c, 500, 0.96)]
    _, best, shortlist = shortlist_move(children, {}, [a, b, c], 9)
    assert set(shortlist) == {a, c}  # b: fewer than half of c's visits, win rate below 0.9
    # b-star below 0.1: every allowed move, visited or not
    children = [(a, 500, 0.05), (b, 100, 0.02)]
    move, _, shortlist = shortlist_move(children, {c: 4.0}, [a, b, c], 9)
    assert set(shortlist) == {a, b, c} and move == c


def test_root_moves_leave_out_territory_and_own_eyes_and_put_high_values_first():
    board = Board(5)
    for color, v in ((BLACK, "B1"), (WHITE, "D4"), (BLACK, "A2"), (WHITE, "D3")):
        board.play(color, parse_vertex(v, 5))
    advice = Advice(move=(2, 2), values={(2, 2): 9.0, (4, 4): 3.0}, territory={(4, 0)})
    moves = root_moves(board, advice, "value", np.random.default_rng(1))
    assert moves[:2] == [(2, 2), (4, 4)] and (4, 0) not in moves
    assert (0, 0) not in moves  # Black's own one-point eye at A1
    shuffled = root_moves(board, advice, "random", np.random.default_rng(1))
    assert sorted(shuffled) == sorted(moves)
    with pytest.raises(ValueError, match="root order"):
        root_moves(board, advice, "best")


def test_search_with_given_root_moves_tries_them_in_order_and_only_them():
    board = Board(9)
    board.play(BLACK, (4, 4))
    moves = [(2, 2), (6, 6), (2, 6), (6, 2)]
    result = search(board, 3, seed=1, root_moves=moves)
    assert [m for m, _, _ in result.children] == moves[:3]  # untried first, in order
    result = search(board, 500, seed=1, root_moves=moves)
    assert {m for m, _, _ in result.children} == set(moves)
    assert search(board, 500, seed=1, root_moves=moves).children == result.children
    with pytest.raises(ValueError, match="not a legal move"):
        search(board, 10, root_moves=[(4, 4)])
    with pytest.raises(ValueError, match="distinct"):
        search(board, 10, root_moves=[(2, 2), (2, 2)])


@pytest.mark.usefixtures("gnugo_executable")
def test_the_real_host_advises_on_a_9x9_position():
    board = Board(9)
    for color, v in ((BLACK, "E5"), (WHITE, "C3"), (BLACK, "G3"), (WHITE, "C6")):
        board.play(color, parse_vertex(v, 9))
    with ClassicalHost(level=1, seed=3, size=9) as host:
        first = host.consult(board, BLACK)
        again = host.consult(board, BLACK)  # the host took its move back: the same advice
    # (values may move in the second decimal: GNU Go keeps some caches across genmove/undo)
    assert first.move == again.move and first.values.keys() == again.values.keys()
    assert all(abs(first.values[m] - again.values[m]) < 0.1 for m in first.values)
    assert first.move in first.values and first.values[first.move] == max(first.values.values())
    assert host.restarts == 0 and host.seconds > 0
