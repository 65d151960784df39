"""The GTP client: replies parsed with ids, every engine failure detected, named and recovered
from by a restart (against tests/go/fake_gtp_engine.py), and a short session with real GNU Go."""

import ast
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from mctslab.go import game, gnugo
from mctslab.go.gnugo import (
    EngineDied,
    EngineFailure,
    EngineGarbage,
    EngineTimeout,
    GnuGoNotFound,
    GtpEngine,
    GtpError,
)

FAKE = Path(__file__).with_name("fake_gtp_engine.py")


def fake(mode="ok", after=0, timeout=10.0):
    return GtpEngine([sys.executable, str(FAKE), "--mode", mode, "--after", str(after)],
                     timeout=timeout)


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def test_replies_and_helpers_against_the_fake_engine():
    with fake() as engine:
        assert engine.send("protocol_version") == "2"
        assert engine.send("name") == "Fake"
        engine.boardsize(5)
        engine.play("black", (0, 0))
        engine.play(2, None)
        assert engine.all_legal("w")[:2] == [(0, 1), (0, 2)]
        assert len(engine.all_legal("b")) == 24
        assert engine.genmove("white") == (0, 1)
        assert engine.list_stones("white") == [(0, 1)]
        assert engine.captures("black") == 0
        assert engine.final_score() == "W+6.5"
        assert "A1" in engine.showboard()  # multi-line reply kept whole
        assert engine._next_id == 13  # 12 commands, ids 1..12
        process = engine.process
    assert process.poll() == 0  # quit, then exit


def test_refused_command_raises_gtp_error_naming_it_and_the_engine_goes_on():
    with fake() as engine:
        engine.boardsize(9)
        engine.play("b", (2, 3))
        with pytest.raises(GtpError, match=r"play white D3.*illegal move") as info:
            engine.play("w", (2, 3))
        assert info.value.command == "play white D3" and info.value.message == "illegal move"
        with pytest.raises(GtpError, match="unknown command"):
            engine.send("frobnicate")
        assert engine.send("name") == "Fake"


def test_crash_is_engine_died_with_exit_code_and_stderr_then_restart():
    engine = fake("crash", after=2)
    assert engine.send("name") == "Fake"
    assert engine.send("version") == "0.1"
    with pytest.raises(EngineDied, match=r"'genmove black'.*exit code 3.*crashing on purpose"):
        engine.genmove("black")
    assert not engine.alive
    with pytest.raises(EngineDied, match="not running"):
        engine.send("name")
    engine.restart()
    assert engine.restarts == 1
    assert engine.send("name") == "Fake"  # the new one is fine for two commands again
    engine.close()


def test_silent_exit_is_engine_died():
    engine = fake("exit-silently", after=1)
    engine.send("name")
    with pytest.raises(EngineDied, match="closed its output"):
        engine.send("name")
    engine.close()


def test_hang_is_engine_timeout_and_the_whole_process_group_is_killed():
    engine = fake("hang", after=1, timeout=10.0)
    assert engine.send("name") == "Fake"
    pgid = engine.process.pid
    with pytest.raises(EngineTimeout, match=r"did not answer 'genmove white' within 0.5 s"):
        engine.send("genmove white", timeout=0.5)  # (a missed deadline hangs for an hour)
    assert engine.process is None
    deadline = time.monotonic() + 5
    while group_alive(pgid) and time.monotonic() < deadline:
        time.sleep(0.05)  # SIGKILL delivery to the child is asynchronous
    assert not group_alive(pgid), "the hanging engine's child survived"
    engine.restart()
    engine.send("protocol_version")
    engine.kill()  # the restarted fake hangs again from its second command (quit)


@pytest.mark.parametrize("mode, message", [
    ("garbage", "non-UTF-8 bytes"),
    ("wrong-id", r"not '=2 \.\.\.'"),
])
def test_garbage_and_wrong_ids_are_engine_garbage(mode, message):
    engine = fake(mode, after=1)
    engine.send("name")
    with pytest.raises(EngineGarbage, match=message):
        engine.send("genmove b")
    assert not engine.alive
    engine.restart()
    assert engine.send("name") == "Fake"
    engine.close()


def test_failures_share_a_base_class_and_gtp_error_is_not_one():
    assert issubclass(EngineTimeout, EngineFailure) and issubclass(EngineGarbage, EngineFailure)
    assert not issubclass(GtpError, EngineFailure)


def test_a_missing_executable_is_reported():
    with pytest.raises(EngineDied, match="cannot start"):
        GtpEngine(["/nonexistent/gtp-engine"])


def test_find_gnugo_names_the_bad_setting_and_how_to_install(monkeypatch, tmp_path):
    monkeypatch.setenv("MCTSLAB_GNUGO", str(tmp_path / "no-gnugo"))
    with pytest.raises(GnuGoNotFound, match=r"MCTSLAB_GNUGO.*apt-get install gnugo"):
        gnugo.find_gnugo()
    monkeypatch.delenv("MCTSLAB_GNUGO")
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(gnugo, "CANDIDATES", ())
    with pytest.raises(GnuGoNotFound, match="brew install gnu-go"):
        gnugo.find_gnugo()


def test_colours_and_scores():
    assert [gnugo.gtp_color(c) for c in (1, "B", "black", 2, "w", "WHITE")] == [
        "black"] * 3 + ["white"] * 3
    with pytest.raises(ValueError, match="not a colour"):
        gnugo.gtp_color(3)
    assert game.score_value("B+3.5") == 3.5 and game.score_value("W+0.5") == -0.5
    assert game.score_value("0") == 0.0
    with pytest.raises(ValueError):
        game.score_value("B+R")


@pytest.mark.usefixtures("gnugo_executable")
def test_a_session_with_real_gnugo():
    with gnugo.gnugo(level=1, seed=3, size=9, timeout=60) as engine:
        engine.size = 9
        assert engine.send("protocol_version") == "2"
        assert engine.send("name") == "GNU Go"
        assert engine.send("version").startswith("3.8")
        engine.play("black", (4, 4))
        legal = engine.all_legal("white")
        assert len(legal) == 80 and (4, 4) not in legal
        move = engine.genmove("white")
        assert move is None or move in legal
        with pytest.raises(GtpError, match="illegal move"):
            engine.play("black", (4, 4))
        assert engine.captures("black") == 0
        pgid = engine.process.pid
    assert not group_alive(pgid)


@pytest.mark.usefixtures("gnugo_executable")
def test_killing_gnugo_mid_game_is_detected_and_restart_works():
    engine = gnugo.gnugo(level=1, seed=1, size=9)
    engine.size = 9
    engine.play("b", (2, 2))
    os.killpg(engine.process.pid, signal.SIGKILL)
    engine.process.wait()
    with pytest.raises(EngineDied, match=r"exited before 'play white C4'.*exit code -9"):
        engine.play("w", (3, 2))
    engine.restart()
    assert engine.list_stones("black") == []  # a fresh engine: the game starts again
    engine.close()


def test_play_game_relays_moves_until_two_passes_and_asks_the_referee():
    # the fake fills the first empty point; with no captures a 5x5 board fills in 25 moves,
    # then both pass
    with fake() as black, fake() as white:
        record = game.play_game(black, white, size=5, komi=0.5, referee=white)
        assert record.end == "passes" and len(record.moves) == 27
        assert record.moves[:3] == [(1, (0, 0)), (2, (0, 1)), (1, (0, 2))]
        assert record.moves[-2:] == [(2, None), (1, None)] or record.moves[-2:] == [
            (1, None), (2, None)]
        assert record.score == "W+6.5" and record.result == "W+6.5"
        assert len(black.list_stones("b")) == 13 and len(white.list_stones("w")) == 12


def test_play_game_stops_at_max_moves_and_names_a_refused_move():
    with fake() as black, fake() as white:
        record = game.play_game(black, white, size=9, max_moves=4)
        assert record.end == "max moves" and len(record.moves) == 4 and record.result is None
    with fake() as black, fake("refuse", after=5) as white:
        # white answers boardsize, clear_board, komi, play (move 1), genmove (move 2), then
        # refuses every play: move 3
        with pytest.raises(game.RefusedMove, match=r"move 3 \(B C1\) was refused: illegal"):
            game.play_game(black, white, size=9)


def test_no_test_catches_a_missing_gnugo_itself():
    """A test that needs GNU Go takes tests/conftest.py's ``gnugo_executable`` fixture, which
    skips without it and fails so in CI; catching ``GnuGoNotFound`` would skip silently."""
    tests = Path(__file__).resolve().parents[1]
    catching = []
    for path in tests.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (isinstance(node, ast.ExceptHandler) and node.type is not None
                    and "GnuGoNotFound" in ast.unparse(node.type) and path.name != "conftest.py"):
                catching.append(f"{path.relative_to(tests)}:{node.lineno}")
    assert catching == []
