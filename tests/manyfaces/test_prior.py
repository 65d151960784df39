"""Pattern matches -> a per-point prior for the MCTS search (mctslab.manyfaces.prior)."""

import numpy as np
import pytest

from mctslab.go.api import BLACK, WHITE, Board, search
from mctslab.manyfaces import patterns as P
from mctslab.manyfaces import prior as PR

# two GNU Go patterns.db entries as written there (CC1: a connection, class c; CC2: a cut
# and connection with a constraint, classes nBC) and a shape pattern with a helper
TEXT = """
Pattern CC1

?.??       connect
O*.O
.X..

:8,c


Pattern CC2

?.X        connect against peep (not on edge)
O*O
?X?

:8,nBC

?aX
b*c
?X?

;xplay_attack_either(*,a,a,b) || xplay_attack(*,a,c)


Pattern CB106

?.?
.*.
.O.

:|,OE,shape(2),jump_out_far_helper
"""


@pytest.fixture(scope="module")
def prior9():
    return PR.PatternPrior(9, P.compile_patterns(P.parse_text(TEXT, "test")))


def test_pattern_weights_from_classes_values_and_constraints(prior9):
    names = [p.name for p in prior9.compiled.patterns]
    w = dict(zip(names, PR.pattern_weights(prior9.compiled.patterns)))
    assert w["CC1"] == 1.0 + 0.5                      # c: weak connection
    assert w["CC2"] == (1.0 + 1.0 + 1.0) * 0.5        # B, C; halved: it has a constraint
    assert w["CB106"] == (1.0 + 0.5 + 2 / 2) * 0.5    # E, shape(2); halved: a helper


def test_scores_on_a_known_pattern_position(prior9):
    # CC2 (and CC1-like shapes do not fit): Black to move at C5, between O stones at B5, D5,
    # with X at C4 and D6 (rows from the bottom: row 4 is line 5)
    board = Board.from_moves(9, [(BLACK, (4, 1)), (WHITE, (3, 2)), (BLACK, (4, 3)),
                                 (WHITE, (5, 3))])
    assert board.to_move == BLACK
    scores = prior9.scores(board)
    assert scores.shape == (9, 9) and (scores >= 0).all() and (scores < 1).all()
    cc2_and_others = scores[4, 2]
    matched = {prior9.compiled.patterns[m.pattern].name for m in prior9.matcher.matches()
               if m.colour == 0 and m.move == (4, 2)}
    assert "CC2" in matched and cc2_and_others > 0
    # every scored point is the * of a pattern for Black; occupied points never score
    assert (scores[board.stones() != 0] == 0).all()
    # CC2 alone would give 1 - exp(-1.5 / 3); more matches only add
    assert cc2_and_others >= 1 - np.exp(-1.5 / PR.SCORE_SCALE) - 1e-12
    # the prior maps scores to win rates: unmatched points 0.5, matched above
    prior = prior9.prior(board)
    assert prior[4, 2] == pytest.approx(0.5 + 0.5 * cc2_and_others)
    assert (prior[scores == 0] == 0.5).all()


def test_scores_land_on_the_pattern_point_off_the_middle_row(prior9):
    # row 4 is the middle row of a 9x9 board, where a vertical flip would go unnoticed. Here
    # CC2 (O at B3, D3; X at C2, D4) puts Black's * at C3, and CB106 at B4 (above B3)
    board = Board.from_moves(9, [(BLACK, (2, 1)), (WHITE, (1, 2)), (BLACK, (2, 3)),
                                 (WHITE, (3, 3))])
    scores = prior9.scores(board)
    assert sorted(map(tuple, np.argwhere(scores > 0).tolist())) == [(2, 2), (3, 1)]


def test_scores_are_for_the_player_to_move(prior9):
    moves = [(BLACK, (4, 1)), (WHITE, (3, 2)), (BLACK, (4, 3)), (WHITE, (5, 3))]
    black = Board.from_moves(9, moves)
    # the same stones with White to move: CC2 at C5 is Black's shape, not White's
    white = black.copy()
    white.play(BLACK, None)
    assert white.to_move == WHITE
    assert prior9.scores(white)[4, 2] < prior9.scores(black)[4, 2]
    # colours swapped and White to move: the same scores as the original for Black
    swapped = Board.from_moves(9, [(3 - c, m) for c, m in moves] + [(BLACK, None)])
    assert swapped.to_move == WHITE
    assert np.array_equal(prior9.scores(swapped), prior9.scores(black))


def test_the_prior_plugs_into_search(prior9):
    board = Board.from_moves(9, [(BLACK, (4, 1)), (WHITE, (3, 2)), (BLACK, (4, 3)),
                                 (WHITE, (5, 3))])
    prior = prior9.prior(board)
    plain = search(board, 300, seed=4)
    steered = search(board, 300, seed=4, prior=prior, prior_visits=30)
    visits = lambda r: dict((m, v) for m, v, _ in r.children).get((4, 2), 0)  # noqa: E731
    assert visits(steered) > visits(plain)
    with pytest.raises(ValueError, match="leave"):
        prior9.prior(board, neutral=0.8, spread=0.5)


def test_match_table_counts_and_intervals():
    games = [dict(candidate_won=w, candidate_color=BLACK if i % 2 == 0 else WHITE, moves=50)
             for i, w in enumerate([True, True, False, True])]
    t = PR.match_table(games, "x")
    assert (t["all"]["wins"], t["all"]["games"], t["black"]["wins"], t["white"]["wins"]) == \
        (3, 4, 1, 2)
    assert 0 < t["all"]["low"] < 0.75 < t["all"]["high"] <= 1


def test_a_short_game_and_the_experiment_table(prior9, monkeypatch):
    monkeypatch.setattr(PR, "_compiled_default", lambda: prior9.compiled)
    game = PR.play_game(PR.Player(40, prior_visits=5), PR.Player(40), size=5, komi=0.5, seed=3)
    assert game["end"] in ("passes", "max moves") and 0 < game["moves"] <= 75
    assert (game["score"] > 0) == (game["winner"] == BLACK)
    table = PR.prior_experiment(2, playouts=40, size=5, komi=0.5)
    assert list(table["games"]) == [2] and table["candidate"][0] == "mcts-light-40+prior20"
    assert table["ci_low"][0] <= table["win_rate"][0] <= table["ci_high"][0]


def test_pass_rule_ends_a_won_game_and_never_passes_a_lost_one(prior9):
    board = Board.from_moves(5, [(BLACK, (2, 2)), (WHITE, None)], komi=0.5)
    # Black to move after White's pass, ahead on the area count: pass ends the game, won
    assert PR._mcts_move(board, PR.Player(20), None, 1, passed=True) is None
    # White, behind, never passes while it has a move (whatever the search prefers)
    behind = Board.from_moves(5, [(BLACK, (2, 2))], komi=0.5)
    for seed in range(5):
        assert PR._mcts_move(behind, PR.Player(20), None, seed, passed=False) is not None


def test_move_prediction_on_a_game_that_plays_the_pattern_move(prior9, monkeypatch):
    from mctslab.go import sgf

    monkeypatch.setattr(PR, "_compiled_default", lambda: prior9.compiled)
    moves = [(BLACK, (4, 1)), (WHITE, (3, 2)), (BLACK, (4, 3)), (WHITE, (5, 3)),
             (BLACK, (4, 2))]  # move 5: the CC2 point
    game = sgf.game_bytes(9, 7.5, moves)
    at_cc2 = PR.move_prediction([game], every=10, first=4, last=4)
    assert at_cc2["positions"] == 1 and at_cc2["covered"] == 1.0
    assert at_cc2["percentile"] > 0.9 and at_cc2["covered_random"] < 0.5
    # move 1 on the empty board: no pattern of this small set matches anywhere
    empty = PR.move_prediction([game], every=10, first=0, last=0)
    assert empty == dict(positions=1, covered=0.0, covered_random=0.0, percentile=0.5)
