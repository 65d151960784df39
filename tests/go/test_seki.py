"""Seki in a final position (endgame.seki_stones, GTP final_status_list seki), against GNU Go."""

from __future__ import annotations

import io

import numpy as np
import pytest

from mctslab.go import api, endgame, gnugo
from mctslab.go.engine import engine_settings
from mctslab.go.gtp import GtpServer

# 9x9, the top left corner (row 0 is the top line). Black's inner string (b) has the eye at A9
# and the liberty C9, which White's string (w) shares; White's eye is E9. Black's wall (X)
# closes White in, and the rest of the board is Black's. Neither side can play C9: Black would
# be left with its eye only (White takes A9 and captures), White with E9 only.
ONE_EYE_EACH = """
.b.w.wX..
bbwwwwX..
wwwXXXX..
XXXX.....
.........
.........
.........
.........
.........
"""
# the same with White's eye filled by White: White's only liberty is C9, where Black captures;
# nothing is in seki, and White is dead
NO_WHITE_EYE = ONE_EYE_EACH.replace(".b.w.wX..", ".b.wwwX..", 1)
# two shared liberties and no eye: Black's string (b) and White's (w) both have only D9 and D8
# left; Black's wall X closes White in. Black playing D9 or D8 loses its seven stones, and White
# lives in their space; White playing there is captured at once.
TWO_SHARED = """
bbb.wX...
bbb.wX...
wwwwwX...
XXXXXX...
.........
.........
.........
.........
.........
"""
# the same with a smaller Black string: after Black gives up its five stones in D9 or C9's
# place, White's space is a bulky five Black kills by its vital point. Not a seki (GNU Go reads
# White dead), though no side can play a shared liberty without being captured at once: the
# static reading calls it seki, and the playouts' dead stones come first
BULKY_FIVE = """
bb.wX....
bb.wX....
wwwwX....
XXXXX....
.........
.........
.........
.........
.........
"""


def _stones(diagram: str) -> np.ndarray:
    """b / X: Black, w: White."""
    rows = diagram.strip().splitlines()
    code = {".": 0, "b": 1, "X": 1, "w": 2}
    return np.array([[code[ch] for ch in row] for row in rows], dtype=np.int8)


def _lower(diagram: str) -> set:
    """The points of the lower-case strings (the ones the diagram puts in seki)."""
    rows = diagram.strip().splitlines()
    return {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch in "bw"}


@pytest.mark.parametrize("diagram, seki", [(ONE_EYE_EACH, True), (TWO_SHARED, True),
                                           (NO_WHITE_EYE, False), (BULKY_FIVE, True)],
                         ids=["one-eye-each", "two-shared", "no-white-eye", "bulky-five"])
def test_seki_stones_are_the_strings_the_diagram_puts_in_seki(diagram, seki):
    stones = _stones(diagram)
    assert set(endgame.seki_stones(stones)) == (_lower(diagram) if seki else set())


def test_a_string_that_lives_with_two_eyes_beside_a_dame_is_not_in_seki():
    stones = np.zeros((9, 9), np.int8)
    stones[:, 3] = 1  # Black's wall with the whole left side; White's the right side
    stones[:, 5] = 2  # column 4 is dame
    assert endgame.seki_stones(stones) == []


@pytest.mark.parametrize("diagram", [ONE_EYE_EACH, TWO_SHARED, NO_WHITE_EYE, BULKY_FIVE],
                         ids=["one-eye-each", "two-shared", "no-white-eye", "bulky-five"])
def test_gtp_final_status_list_agrees_with_gnugo(diagram, gnugo_executable):
    """GNU Go 3.8 (level 10) is the oracle: the same stones, the same dead and seki lists; our
    alive list is every other stone."""
    stones = _stones(diagram)
    placed = [(int(stones[r, c]), (int(r), int(c))) for r, c in np.argwhere(stones != 0)]
    with gnugo.gnugo(level=10, seed=1, size=9) as oracle:
        oracle.komi(6.5)
        for color, point in placed:
            oracle.play(color, point)
        theirs = {status: set(oracle.final_status_list(status)) for status in ("seki", "dead")}
    settings = engine_settings("uct", size=9, dead_playouts=64)
    server = GtpServer(settings, stdin=io.BytesIO(), stdout=io.BytesIO(), stderr=io.StringIO())
    for color, point in placed:
        reply = server.handle(f"play {'b' if color == api.BLACK else 'w'} {api.vertex(point, 9)}")
        assert reply.startswith("="), reply
    ours = {status: _points(server.handle(f"final_status_list {status}"))
            for status in ("seki", "dead", "alive")}
    assert ours["dead"] == theirs["dead"]
    assert ours["seki"] == theirs["seki"]
    every = {point for _, point in placed}
    assert ours["alive"] == every - ours["seki"] - ours["dead"]


def _points(reply: str) -> set:
    assert reply.startswith("="), reply
    return {api.parse_vertex(v, 9) for v in reply[1:].split()}
