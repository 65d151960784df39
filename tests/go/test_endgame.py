"""The end of a game (``mctslab.go.endgame``): the plain count (every stone alive),
the dead stones read by the engine's own playouts, the ``plain`` pass rule (pass only when
the plain count wins, else capture the dead stones first), and the match summary's two counts
from stored games, old ones included."""

import io
import json
import types

import pytest

from mctslab.core.store import to_jsonable
from mctslab.go import api, endgame, match_record, sgf
from mctslab.go.engine import EngineSettings, engine_settings
from mctslab.go.gtp import GtpServer
from mctslab.go.match import Player, match_tasks, plain_counts, summary
from tests.go.test_gtp import make_stand_in

# Black walls off rows 1-5 (row 5), White rows 7-9 (row 7); a white stone at C2 in atari
# inside Black's area (liberty C1). With C2 removed Black counts 45 - 27 - 6.5 = +11.5; with
# every stone alive Black's rows 1-4 touch the white stone and count for nobody.
WALLS = "\n".join(f"play b {c}5\nplay w {c}7" for c in "ABCDEFGHJ")
DEAD_STONE = WALLS + "\nplay b B2\nplay b D2\nplay b C3\nplay w C2\nplay w pass"


def server(api_=None, **settings):
    s = EngineSettings(size=9, playouts=50, dead_playouts=32, **settings)
    return GtpServer(s, stdin=io.BytesIO(), stdout=io.BytesIO(), stderr=io.StringIO(),
                     api=api_)


def play(srv, script):
    for line in script.splitlines():
        assert srv.handle(line).startswith("="), line


def test_the_plain_count_keeps_dead_stones_and_the_reading_finds_them():
    srv = server()
    play(srv, DEAD_STONE)
    board = srv.board
    assert endgame.plain_margin(board) == 12 - (9 + 1 + 18) - 6.5  # Black's stones only
    assert not endgame.plain_count_wins(board, api.BLACK)
    assert endgame.plain_count_wins(board, api.WHITE)
    assert endgame.dead_stones(board, 32, seed=1) == [(1, 2)]
    for policy in ("pattern", "heavy"):  # the strong engine's playouts read the same
        assert endgame.dead_stones(board, 32, seed=1, policy=policy) == [(1, 2)]
        black, white = endgame.ownership(board, 32, seed=1, policy=policy)
        assert black[0, 0] > 0.9 and white[8, 8] > 0.9 and black[1, 2] > 0.7
    assert endgame.capture_moves(board, api.BLACK, [(1, 2)]) == [(0, 2)]
    assert endgame.capture_moves(board, api.WHITE, [(1, 2)]) == []  # not the opponent's


def test_the_plain_rule_captures_the_dead_stone_before_passing():
    # the search wants to pass (a stand-in search returning no move)
    stand_in = make_stand_in(move=None, children=[(None, 40, 0.9), ((3, 3), 5, 0.8)])
    srv = server(stand_in, pass_rule="plain")
    play(srv, DEAD_STONE)
    assert srv.handle("genmove b") == "= C1\n\n"  # the liberty of the dead stone, not D4
    assert srv.board.get(1, 2) == 0  # captured
    play(srv, "play w pass")
    calls = len(stand_in.calls)
    assert srv.handle("genmove b") == "= pass\n\n"  # the plain count wins now: pass, no search
    assert len(stand_in.calls) == calls
    assert "we win the plain count" in srv.stderr.getvalue()
    # the estimate rule (the UCT engine's) passes at once: the referee's win, the plain loss
    srv = server(make_stand_in(move=None), pass_rule="estimate")
    play(srv, DEAD_STONE)
    assert srv.handle("genmove b") == "= pass\n\n"


def test_the_plain_rule_passes_a_lost_game_and_plays_on_when_the_search_expects_a_win():
    # komi 40: Black loses by every count and sees no dead stone of White's: pass
    srv = server(make_stand_in(move=None, win_rate=0.2), pass_rule="plain", komi=40)
    play(srv, WALLS + "\nplay w pass")
    assert srv.handle("genmove b") == "= pass\n\n"
    # the search expects a win the plain count does not give: its most visited other move
    # that is safe and outside Black's own area (E8 inside White's wall, not Black's C3)
    children = [(None, 40, 0.7), ((2, 2), 9, 0.7), ((7, 4), 5, 0.6)]
    srv = server(make_stand_in(move=None, win_rate=0.7, children=children),
                 pass_rule="plain", komi=40)
    play(srv, WALLS + "\nplay w pass")
    assert srv.handle("genmove b") == "= E8\n\n"
    # no safe move at all: pass
    srv = server(make_stand_in(move=None, win_rate=0.7, children=[(None, 40, 0.7)]),
                 pass_rule="plain", komi=40)
    play(srv, WALLS + "\nplay w pass")
    assert srv.handle("genmove b") == "= pass\n\n"


def test_the_strong_engine_captures_with_its_own_search_then_passes():
    settings = engine_settings("strong", size=9, playouts=300, resign=0.0, dead_playouts=64)
    assert settings.pass_rule == "plain"
    srv = GtpServer(settings, stdin=io.BytesIO(), stdout=io.BytesIO(), stderr=io.StringIO())
    play(srv, DEAD_STONE)
    for _ in range(6):
        if srv.handle("genmove b") == "= pass\n\n":
            break
        play(srv, "play w pass")
    assert srv.board.moves[-1] == (api.BLACK, None)
    assert srv.board.get(1, 2) == 0 and endgame.plain_count_wins(srv.board, api.BLACK)
    assert srv.handle("final_status_list dead") == "=\n\n"
    assert srv.handle("final_score") == "= B+11.5\n\n"


def test_the_pass_rule_is_checked_and_enters_only_the_strong_engines_parameters():
    with pytest.raises(ValueError, match="pass_rule must be one of estimate, plain"):
        EngineSettings(pass_rule="never")
    assert EngineSettings().pass_rule == "estimate"
    assert engine_settings("uct").pass_rule == "estimate"
    assert engine_settings("strong", pass_rule="estimate").pass_rule == "estimate"


def _game(color, won, *, area=None, end="passes", winner=None, sgf_text=None):
    result = dict(candidate_won=won, end=end, winner=winner, moves=10, restarts=0,
                  candidate_counts={})
    if area is not None:
        result["area_score"] = area
    if sgf_text is not None:
        result["sgf"] = sgf_text
    return types.SimpleNamespace(params={"color": color}), result


def test_the_summary_gives_both_counts_from_new_and_old_games():
    black_owns_all = sgf.game_bytes(7, 6.5, [(1, (3, 3)), (2, None), (1, None)]).decode()
    games = [_game("B", True, area=5.5, winner="B"),         # a win by both counts
             _game("W", True, area=3.5, winner="W"),         # the referee's win, a plain loss
             _game("B", False, area=2.5, winner="W"),        # the referee's loss, a plain win
             _game("W", True, end="resign", winner="W"),     # a resignation: won by any count
             _game("B", True, winner="B", sgf_text=black_owns_all),  # old: from its SGF
             _game("B", False, winner="W", sgf_text="not SGF")]        # not recorded
    tasks, results = zip(*games)
    counts = plain_counts(tasks, results)
    assert counts["plain_games"] == 5 and counts["plain_wins"] == 4
    assert counts["wins_plain_too"] == 3 and counts["plain_share_of_wins"] == 3 / 4
    assert counts["plain_rate"] == pytest.approx(4 / 5)
    assert counts["plain_ci_low"] < 0.8 < counts["plain_ci_high"]
    assert endgame.plain_winner(results[4]) == "B"  # one black stone owns the 7x7 board
    none = plain_counts(tasks[-1:], results[-1:])
    assert none["plain_games"] == 0 and none["plain_rate"] is None


def test_a_summary_written_before_the_plain_count_still_checks(tmp_path):
    """``check_match`` recomputes a summary from its games: an old summary without the plain
    count's keys checks, and the note gives the plain count recomputed from the games."""
    tasks = match_tasks(Player("gnugo", level=1), Player("gnugo", level=2), 2, size=7)
    results = [_game("B", True, area=5.5, winner="B")[1], _game("W", True, area=3.5,
                                                                  winner="W")[1]]
    for result in results:
        result.update(area_agrees=True, think_candidate=1.0, think_opponent=1.0,
                      cpu_candidate=1.0, cpu_opponent=1.0, margin=None)
    store = tmp_path / "data" / "results" / "go_match_gnugo-L1_vs_gnugo-L2"
    store.mkdir(parents=True)
    (store / "results.jsonl").write_text("".join(
        json.dumps(dict(t.describe(), result=to_jsonable(r))) + "\n"
        for t, r in zip(tasks, results)))
    old = summary(tasks, results)
    for key in [k for k in old if k.startswith("plain") or k == "wins_plain_too"]:
        del old[key]
    (tmp_path / "summary.json").write_text(json.dumps(old))
    report = types.SimpleNamespace(problems=[], notes=[])
    match_record.check_match(tmp_path, report)
    assert report.problems == []
    assert "1 of 2 by the plain count" in report.notes[0]
    assert "1 of the 2 wins also won by it" in report.notes[0]
    # a summary with the plain count is checked on it
    (tmp_path / "summary.json").write_text(json.dumps(dict(summary(tasks, results),
                                                           plain_wins=2)))
    match_record.check_match(tmp_path, report)
    assert any("plain_wins 2, recomputed from its games 1" in p for p in report.problems)


def test_the_estimate_rule_keeps_the_recorded_strong_task_ids_and_plain_makes_new_ones():
    """Game 0 of the committed validation record (records/go_state_tabu/strong9-2026-11-26/
    full, played with the estimate rule) keeps its id under ``pass_rule="estimate"``; the
    strong engine's new default plays other games, under other ids."""
    def first_id(**engine):
        candidate = Player("mcts", engine=engine_settings("strong", playouts=8000, resign=0.0,
                                                          **engine))
        return match_tasks(candidate, Player("gnugo", level=10), 1, size=9, komi=6.5,
                           referee_level=10, timeout=300.0, seed=2026)[0]

    recorded = first_id(pass_rule="estimate")
    assert recorded.id == "3313043b8b816a613bd9"
    assert "pass_rule" not in recorded.params["candidate"]["engine"]
    plain = first_id()
    assert plain.params["candidate"]["engine"]["pass_rule"] == "plain"
    assert plain.id != recorded.id
