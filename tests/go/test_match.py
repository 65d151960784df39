"""Games against GNU Go (issue 12): one real game on a small board, and a GNU Go that crashes,
hangs or answers garbage (a fake GTP engine) is restarted and the game replayed, never scored
silently."""

import sys
from pathlib import Path

import pytest

from mctslab.go import gnugo, sgf
from mctslab.go.api import BLACK, WHITE, Board
from mctslab.go.match import GNUGO_SELF, EngineSettings, MatchError, play_gnugo_self, play_vs_gnugo

FAKE = Path(__file__).with_name("fake_gtp_engine.py")
SMALL = EngineSettings(config="gTabu18-hash-win", playouts=60)


def fake(mode="ok", after=0, once=None):
    argv = [sys.executable, str(FAKE), "--mode", mode, "--after", str(after)]
    return argv + (["--once", str(once)] if once else [])


def test_a_game_against_the_fake_engine_is_recorded_and_saved(tmp_path):
    game = play_vs_gnugo(SMALL, ours=BLACK, size=9, max_moves=12, argv=fake(),
                         sgf_path=tmp_path / "g.sgf", seed=3)
    assert game["end"] == "max moves" and game["moves"] == 12 and game["restarts"] == 0
    assert game["result"] == "W+6.5" and game["winner"] == "W" and not game["ours_won"]
    assert game["think_ours"] > 0 and game["gnugo_version"] == "0.1"
    board, _ = sgf.load(tmp_path / "g.sgf")
    assert board.move_number == 12
    assert [list(m) if m else None for _, m in board.moves] == [m for _, m in game["record"]]
    assert "gTabu18-hash-win" in (tmp_path / "g.sgf").read_text()
    # the kernels were compiled before the clock started (Fig. 6 counts thinking, not numba)
    from mctslab.go import match

    assert (SMALL.policy, "state", "batch-on-loss") in match._WARM


@pytest.mark.parametrize("mode", ["crash", "hang", "garbage", "exit-silently"])
def test_a_failing_engine_is_restarted_and_the_game_replayed(tmp_path, mode):
    once = tmp_path / "failed-once"
    clean = play_vs_gnugo(SMALL, ours=WHITE, size=9, max_moves=10, argv=fake(), seed=4)
    game = play_vs_gnugo(SMALL, ours=WHITE, size=9, max_moves=10, seed=4, timeout=3,
                         argv=fake(mode, after=8, once=once))
    assert once.exists() and game["restarts"] == 1 and len(game["failures"]) == 1
    assert game["record"] == clean["record"]  # the replay is the same game from the start


def test_an_engine_that_keeps_failing_is_an_error_not_a_result():
    with pytest.raises(MatchError, match="failed 2 times"):
        play_vs_gnugo(SMALL, ours=BLACK, size=9, max_moves=10, max_restarts=1,
                      argv=fake("crash", after=6))


def test_a_refused_move_is_named():
    with pytest.raises(MatchError, match="refused"):
        play_vs_gnugo(SMALL, ours=BLACK, size=9, max_moves=10, argv=fake("refuse", after=5))


def test_bad_settings_fail_before_any_engine_starts():
    with pytest.raises(ValueError, match="unknown engine configuration"):
        play_vs_gnugo(EngineSettings(config="gTabuX"), ours=BLACK, argv=["/nonexistent"])
    with pytest.raises(ValueError, match="ours"):
        play_vs_gnugo(SMALL, ours=3, argv=["/nonexistent"])


def test_a_real_game_against_gnugo_on_9x9(tmp_path):
    try:
        gnugo.find_gnugo()
    except gnugo.GnuGoNotFound as exc:
        pytest.skip(f"GNU Go is not installed: {exc}")
    game = play_vs_gnugo(EngineSettings(config="gTabu18-hash", playouts=200), ours=BLACK,
                         size=9, gnugo_level=0, gnugo_seed=1, seed=1,
                         sgf_path=tmp_path / "real.sgf")
    assert game["end"] in ("passes", "resign") and game["restarts"] == 0
    assert game["winner"] in ("B", "W") and game["gnugo_version"].startswith("3.8")
    # the referee's score and ours are both recorded; every move replays on our board
    board = Board.from_moves(9, [(c, tuple(m) if m else None) for c, m in game["record"]])
    assert board.move_number == game["moves"] and game["tabu_candidates"] >= 0
    assert game["area_agrees"] in (True, False) or game["end"] == "resign"


def test_gnugo_self_play_is_two_engines_refereed_and_restarted_on_failure(tmp_path):
    once = tmp_path / "failed-once"
    clean = play_gnugo_self(ours=WHITE, size=9, max_moves=10, argv=fake(), seed=5,
                            sgf_path=tmp_path / "self.sgf")
    assert clean["end"] == "max moves" and clean["moves"] == 10 and clean["restarts"] == 0
    assert clean["result"] == "W+6.5" and clean["ours_won"] and clean["tabu_candidates"] == 0
    assert clean["think_ours"] > 0 and clean["think_gnugo"] > 0
    assert GNUGO_SELF in (tmp_path / "self.sgf").read_text()
    game = play_gnugo_self(ours=WHITE, size=9, max_moves=10, seed=5, timeout=3,
                           argv=fake("crash", after=8, once=once))
    assert game["restarts"] == 1 and game["record"] == clean["record"]
    # the notebook's settings route the "gnugo" row here, with no engine of ours
    routed = play_vs_gnugo(EngineSettings(config=GNUGO_SELF), ours=BLACK, size=9, max_moves=10,
                           argv=fake(), seed=5)
    assert routed["tabu_candidates"] == 0 and not routed["ours_won"]


def test_gnugo_against_itself_on_7x7():
    try:
        gnugo.find_gnugo()
    except gnugo.GnuGoNotFound as exc:
        pytest.skip(f"GNU Go is not installed: {exc}")
    game = play_gnugo_self(ours=BLACK, size=7, gnugo_level=0, gnugo_seed=3, seed=4)
    assert game["end"] in ("passes", "resign") and game["restarts"] == 0
    assert game["gnugo_version"].startswith("3.8") and game["winner"] in ("B", "W")
    assert game["ours_won"] == (game["winner"] == "B")
    board = Board.from_moves(7, [(c, tuple(m) if m else None) for c, m in game["record"]])
    assert board.move_number == game["moves"]


def test_match_command_plays_stores_and_resumes(tmp_path, capsys):
    import json

    from mctslab import cli

    try:
        gnugo.find_gnugo()
    except gnugo.GnuGoNotFound as exc:
        pytest.skip(f"GNU Go is not installed: {exc}")
    argv = ["go", "match", "--config", "gTabu18-hash-win", "--gnugo-level", "0", "--games", "2",
            "--playouts", "30", "--size", "9", "--workers", "1", "--out", str(tmp_path)]
    assert cli.main(argv) == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["games"] == 2 and summary["as Black"].endswith("/1")
    assert sorted(p.name for p in (tmp_path / "games").iterdir()) == ["0000-B.sgf", "0001-W.sgf"]
    stored = next((tmp_path / "data" / "results").glob("go_match_*/results.jsonl"))
    lines = stored.read_text().splitlines()
    assert len(lines) == 2
    assert cli.main(argv) == 0  # a second run is served from the store: nothing is replayed
    assert stored.read_text().splitlines() == lines
    assert json.loads((tmp_path / "summary.json").read_text()) == summary


def test_match_command_rejects_an_unknown_configuration(tmp_path, capsys):
    from mctslab import cli

    assert cli.main(["go", "match", "--config", "gTabuX", "--games", "1",
                     "--out", str(tmp_path)]) == 2
    assert "unknown engine configuration" in capsys.readouterr().err


def test_without_gnugo_the_notebook_games_are_skipped_with_the_reason(monkeypatch):
    from mctslab.go import experiments, figures

    def missing(explicit=None):
        raise gnugo.GnuGoNotFound("GNU Go not found; install it with apt")

    monkeypatch.setattr(gnugo, "find_gnugo", missing)
    cfg = experiments.config("smoke")
    run = type("Run", (), {"seed": 1})()  # nothing is played, so nothing reaches run.map
    played = experiments.play_matches(run, cfg, 0)
    assert played.tasks == [] and "not installed" in played.skipped
    for table in (experiments.table2, experiments.table3, experiments.thinking_table,
                  experiments.calibration_table):
        frame = table(played)
        assert list(frame.columns) == ["skipped"] and "install it" in frame["skipped"][0]
    assert experiments.chosen_level(cfg, experiments.calibration_table(played)) == 0
    assert figures.win_rate_figure(experiments.table3(played)) is not None
    assert "not installed" in experiments.games_sgf(played)


def test_table2_gives_the_self_play_row_the_papers_black_share():
    """The paper's "gnugo" row counts Black's and White's wins of the same 1,000 games (513 +
    487): its rate is Black's 0.513, where an engine's row adds its wins as B and as W."""
    from mctslab.core.tasks import make_tasks
    from mctslab.go import experiments

    cfg = experiments.config("default")
    assert cfg.configs[0] == GNUGO_SELF and "gnugo-uct" in cfg.configs
    names = (GNUGO_SELF, "gnugo-uct")
    params = [experiments.game_params(cfg, name, "BW"[i % 2], 0) for name in names
              for i in range(4)]
    tasks = make_tasks("mctslab.go.experiments:game_task", params, seed=1)
    keys = ("result", "end", "moves", "area_agrees", "think_ours", "think_gnugo", "restarts",
            "tabu_candidates")
    results = [dict(dict.fromkeys(keys, 0), ours_won=i % 3 == 0, end="passes")
               for i in range(len(tasks))]
    table = experiments.table2(experiments.Played(tasks, results)).set_index("method")
    assert table.loc[GNUGO_SELF, "paper rate"] == 0.513
    assert table.loc["gnugo-uct", "paper rate"] == 0.519
    assert table.loc[GNUGO_SELF, "total"] == "2/4" and table.loc["gnugo-uct", "total"] == "1/4"
