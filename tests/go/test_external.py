"""Any GTP engine as the opponent of ``mctslab go match`` (``--opponent gtp --opponent-command``),
with a tiny random engine (``random_gtp_engine.py``, our board's rules): the probe before a
match (name, version, commands, board size), a stable label, per-game seeds through
``{seed}``, the same store, summary and records as the other opponents, and an engine that
crashes, hangs, refuses a command or lacks one named in one line, the stored games kept."""

import json
import shlex
import sys
from pathlib import Path

import pytest

from mctslab import cli
from mctslab.go import external
from mctslab.go.engine import engine_settings
from mctslab.go.match import MatchError, Player, play_players

ENGINE = Path(__file__).with_name("random_gtp_engine.py")
SMALL = Player("mcts", engine=engine_settings("strong", playouts=30, resign=0.0))


def command(*extra: str) -> str:
    return shlex.join([sys.executable, str(ENGINE), "--seed", "{seed}", *extra])


def test_the_probe_reads_name_version_and_commands_and_the_label_is_stable():
    player = external.gtp_player(command(), size=7)
    assert player.kind == "gtp" and player.name.startswith("Random 1.0 ")
    tag = external.command_tag(shlex.split(command()))
    assert player.label == f"Random-1.0-{tag}" and len(tag) == 8
    assert external.gtp_player(command(), size=7).label == player.label  # same command
    assert external.gtp_player(command("--pass-rate", "0.1"), size=7).label != player.label
    named = external.gtp_player(command(), label="rnd", size=7)
    assert named.label == "Random-1.0-rnd"
    assert Player.from_params(json.loads(json.dumps(named.params()))) == named
    # an unnamed gtp player keeps the parameters (and task ids) it had before names
    assert "name" not in Player("gtp", argv=("x",)).params()


@pytest.mark.parametrize("cmd, message", [
    (command("--mode", "no-genmove"), "does not know genmove, which a match sends"),
    ("/nonexistent/engine --gtp", "does not start"),
    (shlex.join([sys.executable, "-c", "import sys; sys.exit(4)"]), "failed when probed"),
    ("", "empty"),
    ("pachi 'unclosed", "cannot be split"),
])
def test_an_engine_that_cannot_play_a_match_is_named_before_any_game(cmd, message):
    with pytest.raises(ValueError, match=message):
        external.gtp_player(cmd, size=9, timeout=20)


def test_a_command_the_engine_answers_without_listing_it_is_known():
    """An engine that answers clear_board and komi without listing them (michi-c with
    clear_board) plays; one that lists no genmove still cannot (the probe sends no move)."""
    info = external.probe(shlex.split(command("--mode", "unlisted")), size=9, timeout=20)
    assert {"clear_board", "komi"} <= set(info.commands)
    assert "genmove" not in external.TRIABLE


def test_a_board_size_the_engine_refuses_is_named():
    with pytest.raises(ValueError, match="boardsize 30"):
        external.probe(shlex.split(command()), size=30, timeout=20)


def test_the_game_seed_reaches_the_engine_and_replays_the_same_game():
    player = external.gtp_player(command(), size=7)
    games = [play_players(SMALL, player, size=7, seeds=(1, seed, 3), referee_level=0,
                          max_moves=20)[0].record.moves for seed in (5, 5, 6)]
    assert games[0] == games[1] and games[0] != games[2]


@pytest.mark.parametrize("mode, message", [
    ("refuse", "cannot generate move (White, Random-1.0-"),
    ("crash", "(exit code 3)"),
    ("hang", "did not answer 'genmove white' within 15 s"),
])
def test_a_failing_engine_is_an_error_naming_it(monkeypatch, mode, message):
    player = external.gtp_player(command(), size=7)
    monkeypatch.setenv("RANDOM_GTP_MODE", mode)
    with pytest.raises(MatchError) as caught:
        play_players(SMALL, player, size=7, seeds=(1, 2, 3), referee_level=0, timeout=15,
                     max_restarts=0)  # 15 s: the engine's start (numba's cache) under load
    assert message in str(caught.value)
    if mode != "refuse":  # a failure of the engine says which side it was
        assert "(White, Random-1.0-" in str(caught.value)


@pytest.mark.usefixtures("gnugo_executable")
def test_match_command_plays_a_gtp_engine_stores_resumes_and_keeps_games(tmp_path, capsys,
                                                                           monkeypatch):
    argv = ["go", "match", "--engine", "strong", "--playouts", "30", "--size", "7",
            "--opponent", "gtp", "--opponent-command", command("--pass-rate", "0.02"),
            "--opponent-label", "rnd", "--referee-level", "0", "--workers", "1", "--json",
            "--timeout", "20", "--out", str(tmp_path)]
    assert cli.main(argv + ["--games", "1"]) == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert (summary["candidate"], summary["opponent"], summary["games"]) == \
        ("strong", "Random-1.0-rnd", 1)
    assert summary["opponent_params"]["argv"][-2:] == ["--pass-rate", "0.02"]
    assert summary["plain_games"] == 1 and summary["plain_wins"] in (0, 1)
    err = capsys.readouterr().err
    assert "by the referee's count" in err and "by the plain count" in err
    store = next((tmp_path / "data" / "results").glob("go_match_strong_vs_Random-1.0-rnd"))
    assert len((store / "results.jsonl").read_text().splitlines()) == 1
    assert "PW[Random 1.0 rnd]" in (tmp_path / "games" / "0000-B.sgf").read_text()
    # the engine now crashes at its second genmove: game 1 fails, named; game 0 stays stored
    monkeypatch.setenv("RANDOM_GTP_MODE", "crash")
    assert cli.main(argv + ["--games", "2"]) == 2
    err = capsys.readouterr().err
    assert "1 game(s) failed (1 games stored" in err and "(exit code 3)" in err
    assert "failed 4 times in a row" in err and "(Black, Random-1.0-rnd)" in err
    assert len((store / "results.jsonl").read_text().splitlines()) == 1
    monkeypatch.delenv("RANDOM_GTP_MODE")
    assert cli.main(argv + ["--games", "2"]) == 0  # resumed: only game 1 is played
    assert len((store / "results.jsonl").read_text().splitlines()) == 2


def test_opponent_command_needs_opponent_gtp(tmp_path, capsys):
    assert cli.main(["go", "match", "--games", "1", "--opponent-command", command(),
                     "--out", str(tmp_path)]) == 2
    assert "--opponent gtp" in capsys.readouterr().err
