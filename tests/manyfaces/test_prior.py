"""Pattern matches -> a per-point prior for the MCTS search (mctslab.manyfaces.prior): the
weights and scores, the prior in the search and in the GTP engine (PriorGtpServer, its pass
rule), and the prior games as stored, resumable tasks of mctslab.manyfaces.player_match."""

import io

import numpy as np
import pytest

from mctslab.core.report import Run
from mctslab.core.stats import clopper_pearson
from mctslab.go import api
from mctslab.go.api import BLACK, WHITE, Board, search
from mctslab.go.gtp import EngineSettings, GtpServer
from mctslab.manyfaces import experiments
from mctslab.manyfaces import patterns as P
from mctslab.manyfaces import player_match as PM
from mctslab.manyfaces import prior as PR
from mctslab.manyfaces.player_match import Side
from mctslab.paths import results_dir

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


class StubApi:
    """mctslab.go.api with a search that records its keywords and returns a fixed root."""

    def __init__(self, move, children):
        self.move, self.children, self.calls = move, children, []

    def __getattr__(self, name):
        return getattr(api, name)

    def search(self, board, playouts, **kw):
        self.calls.append(kw)
        return api.SearchResult(self.move, board.to_move, playouts, 0.01, 1.0, self.children,
                                0.5, 0.5)


def stub_server(stub, **kw):
    settings = EngineSettings(size=5, komi=0.5, dead_playouts=16, resign=0.0,
                              root_select=kw.pop("root_select", "visits"))
    return PR.PriorGtpServer(settings, stdin=io.BytesIO(), stdout=io.BytesIO(),
                             stderr=io.StringIO(), api=stub, **kw)


def test_prior_server_gives_the_search_the_pattern_prior(prior9):
    stub = StubApi((0, 0), [((0, 0), 10, 0.5)])
    srv = stub_server(stub, prior_visits=7, compiled=prior9.compiled)
    srv.handle("boardsize 9")
    for text in ("play b B5", "play w C4", "play b D5", "play w D6"):
        assert srv.handle(text) == "=\n\n"
    assert srv.handle("genmove b") == "= A1\n\n"
    kw = stub.calls[-1]
    assert kw["prior_visits"] == 7 and kw["root_select"] == "visits"
    board = Board.from_moves(9, [(BLACK, (4, 1)), (WHITE, (3, 2)), (BLACK, (4, 3)),
                                 (WHITE, (5, 3))])
    assert np.array_equal(kw["prior"], prior9.prior(board)) and kw["prior"][4, 2] > 0.5
    # prior_visits 0: the plain engine's search call, no prior at all
    plain = StubApi((0, 0), [((0, 0), 10, 0.5)])
    stub_server(plain).handle("genmove b")
    assert "prior" not in plain.calls[-1] and "prior_visits" not in plain.calls[-1]


def test_prior_server_without_prior_or_rule_plays_like_the_plain_engine():
    # the "mcts" side of the matches: with prior_visits 0 and no pass rule, mctslab go gtp
    settings = EngineSettings(size=5, komi=0.5, playouts=50, seed=3)
    quiet = dict(stdin=io.BytesIO(), stdout=io.BytesIO(), stderr=io.StringIO())
    ours, plain = PR.PriorGtpServer(settings, **quiet), GtpServer(settings, **quiet)
    replies = [[srv.handle(f"genmove {'bw'[i % 2]}") for i in range(6)] for srv in (ours, plain)]
    assert replies[0] == replies[1]


@pytest.mark.parametrize("root_select, expected", [("visits", "A1"), ("winrate", "B2")])
def test_careful_pass_never_passes_a_lost_count(root_select, expected):
    # the search prefers to pass; White, behind on the count after Black C3, plays the best
    # other root move instead (most visits, or best win rate among children with >= 1/10 of
    # the top visits: E5 with 2 visits is below the floor)
    children = [(None, 50, 0.6), ((0, 0), 30, 0.4), ((1, 1), 10, 0.5), ((4, 4), 2, 0.9)]
    srv = stub_server(StubApi(None, children), careful_pass=True, root_select=root_select)
    srv.handle("play b C3")
    assert srv.handle("genmove w") == f"= {expected}\n\n"
    # without the rule the engine passes as the search says
    plain = stub_server(StubApi(None, children), root_select=root_select)
    plain.handle("play b C3")
    assert plain.handle("genmove w") == "= pass\n\n"
    # Black, ahead on the count, may pass (the opponent did not pass: the search decided)
    ahead = stub_server(StubApi(None, children), careful_pass=True)
    for text in ("b C1", "w E5", "b C2", "w E4", "b C3", "w E3", "b C4", "w D5", "b C5"):
        assert ahead.handle("play " + text) == "=\n\n"
    ahead.handle("play w D1")  # Black: 10 + 5 points against 5 (D, E columns: shared)
    assert ahead.handle("genmove b") == "= pass\n\n"


@pytest.mark.usefixtures("gnugo_executable")
def test_prior_games_are_stored_tasks_with_a_table_and_resume(prior9, monkeypatch, tmp_path):
    monkeypatch.setattr(PR, "default_compiled", lambda: prior9.compiled)
    played = []
    from mctslab.go import match as go_match

    task = go_match.game_task  # the one game task of every Go match
    monkeypatch.setattr(go_match, "game_task", lambda params, seed: played.append(1) or
                        task(params, seed))
    common = dict(playouts=40, resign=0.0, root_select="winrate", careful_pass=True)
    cand, opp = Side("mcts", prior_visits=5, **common), Side("mcts", **common)
    first = PM.play_match(opp, 2, candidate=cand, size=5, komi=0.5, out=tmp_path)
    assert first["played"] == 2 and len(played) == 2
    assert (first["candidate"], first["opponent"]) == ("mcts-light-40+prior5", "mcts-light-40")
    assert first["wins"] == first["wins_as_black"] + first["wins_as_white"]
    for game, color in zip(first["results"], "BW"):
        assert game["end"] in ("passes", "max moves") and 0 < game["moves"] <= 75
        assert game["candidate_won"] == (game["result"][0] == color)
        assert (game["margin"] > 0) == game["candidate_won"]
        assert "pattern prior 5 visits" in game["sgf"]
    store = results_dir("manyfaces_mcts_mcts", tmp_path) / "results.jsonl"
    lines = store.read_text()
    # a second call is served from the store: nothing replayed
    again = PM.play_match(opp, 2, candidate=cand, size=5, komi=0.5, out=tmp_path)
    assert again["played"] == 0 and len(played) == 2 and store.read_text() == lines
    assert [g["sgf"] for g in again["results"]] == [g["sgf"] for g in first["results"]]
    table = PM.match_table([first])
    row = table.iloc[0]
    assert (row["games"], row["as_black"], row["as_white"]) == (
        2, f"{first['wins_as_black']}/1", f"{first['wins_as_white']}/1")
    # the table is rounded for citing: 3 decimals, 3 significant digits
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(
        clopper_pearson(first["wins"], 2), abs=5e-4)
    assert 0 < row["p_value"] <= 1
    assert row["mean_moves"] == pytest.approx(first["mean_moves"], rel=5e-3)
    # run_prior, the notebook's runner: strength's three prior pairings (with and
    # without the prior, and each against GNU Go), each the stored match strength plays
    # (experiment manyfaces_strength_<k>, seed run.seed + 100 + k): a second call plays nothing
    cfg = experiments.config("smoke", strength_games=2, strength_size=5, strength_playouts=40,
                             prior_visits=5)
    run = Run("manyfaces_prior", config=cfg, scale="smoke", seed=0, workers=1,
              out=tmp_path / "run", progress=False)
    experiment = experiments.run_prior(run, cfg)
    assert len(played) == 2 + 3 * 2
    assert list(zip(experiment["candidate"], experiment["opponent"])) == [
        ("mcts-light-40+prior5", "mcts-light-40"), ("mcts-light-40+prior5", "gnugo-level0"),
        ("mcts-light-40", "gnugo-level0")]
    assert experiment["games"].tolist() == [2, 2, 2]
    again = experiments.run_prior(run, cfg)
    assert len(played) == 8 and again.to_dict("records") == experiment.to_dict("records")
    # its first row is play_match's match of the same sides, read from the same store
    same = PM.play_match(opp, 2, candidate=cand, size=5, komi=7.5, seed=102,
                         out=tmp_path / "run", experiment="manyfaces_strength_2")
    assert same["played"] == 0 and len(played) == 8
    assert experiment.iloc[:1].to_dict("records") == PM.match_table([same]).to_dict("records")


def test_move_prediction_on_a_game_that_plays_the_pattern_move(prior9, monkeypatch):
    from mctslab.go import sgf

    monkeypatch.setattr(PR, "default_compiled", lambda: prior9.compiled)
    moves = [(BLACK, (4, 1)), (WHITE, (3, 2)), (BLACK, (4, 3)), (WHITE, (5, 3)),
             (BLACK, (4, 2))]  # move 5: the CC2 point
    game = sgf.game_bytes(9, 7.5, moves)
    at_cc2 = PR.move_prediction([game], every=10, first=4, last=4)
    assert at_cc2["positions"] == 1 and at_cc2["covered"] == 1.0
    assert at_cc2["percentile"] > 0.9 and at_cc2["covered_random"] < 0.5
    # move 1 on the empty board: no pattern of this small set matches anywhere
    empty = PR.move_prediction([game], every=10, first=0, last=0)
    assert empty == dict(positions=1, covered=0.0, covered_random=0.0, percentile=0.5)
