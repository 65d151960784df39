"""The knowledge-based player (beyond the paper): legal moves with reasons over a
whole game, known answers (capture, save, pass in a settled position), same seed same move,
the GTP front end in-process and as ``mctslab manyfaces gtp``, and the match runner
(mctslab.manyfaces.player_match, shared with the pattern-prior games) on a tiny board against
GNU Go and against the MCTS engine."""

import io
import subprocess
import sys

import numpy as np
import pytest
from sgfmill import sgf as sgfmill

from mctslab.core.stats import clopper_pearson
from mctslab.go.api import BLACK, WHITE, Board, parse_vertex, vertex
from mctslab.go.gtp import EngineSettings, own_eye
from mctslab.manyfaces.player import KnowledgeGtpServer, KnowledgePlayer, evaluate
from mctslab.manyfaces.player_match import play_match

REASON_WORDS = ("capture", "save string", "atari", "extend liberties", "make eye",
                "destroy eye", "connect", "cut", "pattern", "joseki", "territory/influence")


def setup(moves, size=9, komi=7.5):
    board = Board(size, komi=komi)
    for color, text in moves:
        board.play(color, parse_vertex(text, size))
    return board


@pytest.fixture(scope="module")
def player():
    return KnowledgePlayer(seed=3)


def test_whole_game_against_a_random_light_opponent_is_legal_and_every_move_has_reasons():
    player = KnowledgePlayer(seed=3, max_candidates=24)   # fewer sampled points: a fast test
    board = Board(9, komi=7.5)
    rng = np.random.default_rng(0)
    reasons_seen = set()
    while board.move_number < 60 and board.passes < 2:
        if board.to_move == BLACK:
            decision = player.genmove(board)
            assert decision.reasons, f"no reason for {decision.move}"
            if decision.move is not None:
                assert board.is_legal(BLACK, decision.move), decision
                assert not own_eye(board.stones(), *decision.move, BLACK)
                first = decision.reasons[0]
                assert first.startswith(REASON_WORDS), first
                reasons_seen.update(w for w in REASON_WORDS
                                    if any(r.startswith(w) for r in decision.reasons))
                assert decision.value >= decision.pass_value + 0.5
            else:
                assert decision.reasons[0].startswith("pass")
            board.play(BLACK, decision.move)
        else:   # the light playout policy: uniform over legal moves that fill no own eye
            stones = board.stones()
            moves = [m for m in board.legal_moves(WHITE) if not own_eye(stones, *m, WHITE)]
            board.play(WHITE, moves[rng.integers(len(moves))] if moves else None)
    # rules, patterns and joseki all proposed moves that were played
    assert {"pattern", "joseki"} <= reasons_seen and len(reasons_seen) >= 5, reasons_seen
    assert evaluate(board, BLACK) > 10   # after 60 moves it leads a random opponent clearly


def test_capture_and_save_are_chosen_with_their_reason(player):
    # White E5 has one liberty at E4; Black to move captures it
    board = setup([(BLACK, "D5"), (WHITE, "E5"), (BLACK, "F5"), (WHITE, "A9"),
                   (BLACK, "E6"), (WHITE, "B9")])
    decision = player.genmove(board)
    assert decision.move == parse_vertex("E4", 9)
    assert any(r.startswith("capture (1 stone at E5)") for r in decision.reasons)
    # Black C3 in atari (liberty C4 gives it three): White to move... Black saves it after
    board = setup([(BLACK, "C3"), (WHITE, "B3"), (BLACK, "G7"), (WHITE, "D3"),
                   (BLACK, "G3"), (WHITE, "C2")])
    decision = player.genmove(board)
    assert decision.move == parse_vertex("C4", 9), decision.reasons
    assert any(r.startswith("save string in atari (1 stone at C3") for r in decision.reasons)


def test_settled_position_passes_for_both_colours(player):
    # Black wall on D, White wall on E: every point is settled, no move improves the count
    moves = []
    for row in range(1, 10):
        moves += [(BLACK, f"D{row}"), (WHITE, f"E{row}")]
    board = setup(moves)
    for color in (BLACK, WHITE):
        decision = player.genmove(board, color)
        assert decision.move is None, decision.reasons
        assert decision.reasons[0].startswith("pass: no candidate improves")
    # and it is Black's estimate: 36 points against 45 and komi
    assert evaluate(board, BLACK) == pytest.approx(36 - 45 - 7.5)


def test_same_seed_same_moves_and_the_seed_breaks_ties():
    board = setup([(BLACK, "E5")])
    a = [KnowledgePlayer(seed=1).genmove(board).move for _ in range(2)]
    assert a[0] == a[1]
    # the empty board's best candidates tie (symmetry): different seeds pick among them
    empty = Board(9, komi=7.5)
    picks = {KnowledgePlayer(seed=s).genmove(empty).move for s in range(6)}
    assert len(picks) >= 2, picks


def test_gtp_server_in_process_reasons_and_errors():
    srv = KnowledgeGtpServer(EngineSettings(size=9, komi=7.5, dead_playouts=16),
                             stdin=io.BytesIO(), stdout=io.BytesIO(), stderr=io.StringIO())
    assert srv.handle("1 name") == "=1 mctslab-manyfaces\n\n"
    assert srv.handle("2 known_command mf_reasons") == "=2 true\n\n"
    assert srv.handle("mf_reasons") == "=\n\n"               # no genmove yet
    assert srv.handle("3 list_commands").split("\n")[-3] == "mf_reasons"
    assert srv.handle("play b E5") == "=\n\n"
    assert srv.handle("play w E5") == "? illegal move\n\n"
    reply = srv.handle("4 genmove w")
    move = parse_vertex(reply[3:].strip(), 9)
    assert move is not None and srv.board.get(*move) == WHITE
    reasons = srv.handle("5 mf_reasons")
    assert reasons.startswith(f"=5 {vertex(move, 9)}: ") and "1-ply estimate" in reasons
    assert "genmove W" in srv.stderr.getvalue()
    assert srv.handle("final_score").startswith("= ")


def test_cli_verb_serves_gtp():
    script = b"boardsize 7\nkomi 5.5\nplay b D4\ngenmove w\nmf_reasons\nname\nquit\n"
    out = subprocess.run([sys.executable, "-m", "mctslab.cli", "manyfaces", "gtp", "--size",
                          "7"], input=script, capture_output=True, timeout=300)
    assert out.returncode == 0, out.stderr.decode()[-2000:]
    replies = out.stdout.decode().split("\n\n")
    assert replies[:3] == ["=", "=", "="]
    move = parse_vertex(replies[3][2:], 7)
    assert move is not None and move != (3, 3)
    assert replies[4].startswith(f"= {vertex(move, 7)}: ") and replies[5] == "= mctslab-manyfaces"


@pytest.mark.usefixtures("gnugo_executable")
def test_match_runner_against_gnugo_and_mcts_on_7x7(tmp_path):
    result = play_match("gnugo", 2, size=7, komi=5.5, out=tmp_path, sgf_dir=tmp_path / "sgf")
    assert result["games"] == 2 and 0 <= result["wins"] <= 2 and result["played"] == 2
    assert (result["candidate"], result["opponent"]) == ("knowledge", "gnugo-level0")
    assert result["wins"] == result["wins_as_black"] + result["wins_as_white"]
    assert (result["ci_low"], result["ci_high"]) == pytest.approx(
        clopper_pearson(result["wins"], 2))
    for i, (game, ours) in enumerate(zip(result["results"], "BW")):
        assert game["result"][0] in "BW0" and game["end"] in ("passes", "resign", "max moves")
        assert game["candidate_won"] == (game["result"][0] == ours)
        assert game["candidate_counts"]["reasons"] and game["restarts"] == 0
        record = sgfmill.Sgf_game.from_bytes((tmp_path / "sgf" / f"gnugo-{i:03d}-{ours}.sgf")
                                             .read_bytes())
        assert record.get_size() == 7 and record.get_root().get("RE") == game["result"]
        assert len(record.get_main_sequence()) - 1 == game["moves"]
    again = play_match("gnugo", 2, size=7, komi=5.5, out=tmp_path)     # from the store
    assert again["played"] == 0
    assert [g["sgf"] for g in again["results"]] == [g["sgf"] for g in result["results"]]
    mcts = play_match("mcts", 1, size=7, komi=5.5, playouts=50, out=tmp_path)
    assert mcts["games"] == 1 and mcts["settings"]["opponent"]["playouts"] == 50
    assert mcts["opponent"] == "mcts-light-50" and mcts["settings"]["opponent"]["resign"] == 0.1
    assert "MCTS 50 playouts" in mcts["results"][0]["sgf"]
    with pytest.raises(ValueError, match="a side must be one of"):
        play_match("gnugo3", 1, out=tmp_path)
