"""Go matches through the one game loop (``mctslab.go.match``): players of every kind, a GNU Go
that crashes, hangs or answers garbage (a fake GTP engine) restarted and the game replayed,
never scored silently; real games against GNU Go 3.8; the notebook's tables from results."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mctslab.go import experiments, gnugo, sgf
from mctslab.go.api import BLACK, Board
from mctslab.go.engine import EngineSettings
from mctslab.go.match import MatchError, Player, game_task, match_tasks, play_players, summary

FAKE = Path(__file__).with_name("fake_gtp_engine.py")
ROOT = Path(__file__).resolve().parents[2]
SMALL = Player("mcts", engine=EngineSettings(config="gTabu18-hash-win", playouts=60,
                                             resign=0.0))


def fake(mode="ok", after=0, once=None):
    argv = [sys.executable, str(FAKE), "--mode", mode, "--after", str(after)]
    return argv + (["--once", str(once)] if once else [])


def gtp(mode="ok", after=0, once=None):
    return Player("gtp", argv=fake(mode, after, once))


def test_players_round_trip_through_task_parameters_and_name_themselves():
    host = Player("mcts", engine=EngineSettings(config="gTabu18-hash-win", classical="gnugo"))
    for player in (host, SMALL, Player("gnugo", level=3), Player("gnugo-mc", level=10),
                   gtp()):
        params = json.loads(json.dumps(player.params()))
        assert Player.from_params(params) == player
    assert host.label == "gTabu18-hash-win+gnugo10" and SMALL.label == "gTabu18-hash-win"
    assert Player("gnugo-mc", level=10).label == "gnugo-mc-L10"
    assert "seed" not in host.params()["engine"]  # a game seeds its players
    with pytest.raises(ValueError, match="do not divide"):
        Player("gnugo-mc", level=3)
    with pytest.raises(ValueError, match="one of"):
        Player("pachi")
    with pytest.raises(ValueError, match="unknown engine configuration"):
        EngineSettings(config="gTabuX")


@pytest.mark.parametrize("settings, message", [
    ({"engine": "pachi"}, "unknown engine 'pachi'"),
    ({"engine": "strong", "classical": "gnugo"}, "strong engine is a pure engine"),
    ({"engine": "strong", "rave": "always"}, "unknown rave schedule"),
    ({"policy": "heavy"}, "unknown policy 'heavy'"),
    ({"root_select": "value"}, "root_select must be visits or winrate"),
    ({"root_order": "best"}, "root_order must be one of"),
    ({"playouts": 0}, "playouts must be a whole number"),
    ({"tabu_moves": True}, "tabu_moves must be a whole number"),
    ({"gnugo_level": 11}, "GNU Go levels are 0..10"),
    ({"c": float("nan")}, "c must be a finite number"),
    ({"resign": 1.0}, r"resign must be in \[0, 1\)"),
    ({"timeout": 0}, "timeout must be > 0"),
])
def test_engine_settings_refuse_each_bad_field(settings, message):
    with pytest.raises(ValueError, match=message):
        EngineSettings(**settings)
    EngineSettings(engine="strong", policy="heavy")  # the strong engine's own policies


@pytest.mark.parametrize("level", [-1, 11, True, 2.0])
def test_gnugo_levels_are_checked_in_one_place_for_players_engines_and_configs(level):
    assert gnugo.check_level(10) == 10 and gnugo.check_level(0) == 0
    with pytest.raises(ValueError, match="GNU Go levels are 0..10"):
        gnugo.check_level(level)
    with pytest.raises(ValueError, match="GNU Go levels are 0..10"):
        Player("gnugo", level=level)
    with pytest.raises(ValueError, match="GNU Go levels are 0..10"):
        experiments.config("smoke", referee_level=level)


def test_a_game_against_a_fake_engine_is_recorded_timed_and_saved(tmp_path):
    game, failures = play_players(SMALL, gtp(), size=9, max_moves=12, seeds=(3, 4, 5),
                                  referee_argv=fake())
    record = game.record
    assert record.end == "max moves" and len(record.moves) == 12 and failures == []
    assert record.result == "W+6.5" and game.version == "0.1"
    black = game.sides[BLACK]
    assert black["think"] > 0 and black["cpu"] >= 0 and black["tabu_candidates"] >= 0
    board = Board(9)
    for color, move in record.moves:  # every move replays on our board
        board.play(color, move)


@pytest.mark.parametrize("mode", ["crash", "hang", "garbage", "exit-silently"])
def test_a_failing_engine_is_restarted_and_the_game_replayed(tmp_path, mode):
    once = tmp_path / "failed-once"
    clean, _ = play_players(gtp(), SMALL, size=9, max_moves=10, seeds=(1, 4, 2),
                            referee_argv=fake())
    game, failures = play_players(gtp(mode, after=8, once=once), SMALL, size=9, max_moves=10,
                                  seeds=(1, 4, 2), timeout=3, referee_argv=fake())
    assert once.exists() and len(failures) == 1
    assert game.record.moves == clean.record.moves  # the replay is the same game from the start


def test_an_engine_that_keeps_failing_is_an_error_not_a_result():
    with pytest.raises(MatchError, match="failed 2 times"):
        play_players(SMALL, gtp("crash", after=6), size=9, max_moves=10, max_restarts=1,
                     referee_argv=fake())


def test_a_refused_move_is_named():
    with pytest.raises(MatchError, match="refused"):
        play_players(SMALL, gtp("refuse", after=5), size=9, max_moves=10, referee_argv=fake())


def test_gnugo_is_present_in_ci():
    """Tests that need GNU Go must not skip silently in CI (scripts/ensure-gnugo installs it)."""
    if not os.environ.get("CI"):
        pytest.skip("not in CI (CI is not set)")
    assert gnugo.find_gnugo()


def test_ensure_gnugo_fails_in_ci_when_gnugo_cannot_be_had(tmp_path):
    env = {"PATH": str(tmp_path), "CI": "1", "MCTSLAB_GNUGO": str(tmp_path / "none"),
           "HOME": str(tmp_path)}
    script = ROOT / "scripts" / "ensure-gnugo"
    done = subprocess.run(["/bin/sh", str(script)], env=env, capture_output=True, text=True,
                          timeout=60)
    if done.returncode == 0:  # it found a GNU Go where we look regardless of PATH
        assert "GNU Go:" in done.stdout and any(
            Path(p).is_file() for p in ("/usr/games/gnugo", "/opt/homebrew/bin/gnugo",
                                        "/usr/local/bin/gnugo"))
    else:
        assert "GNU Go" in done.stderr and done.returncode != 0
    done = subprocess.run(["/bin/sh", str(script)], capture_output=True, text=True, timeout=60,
                          env={**env, "CI": ""})
    assert done.returncode == 0  # outside CI it never fails the build


def test_in_ci_a_missing_gnugo_fails_the_tests_that_need_it(tmp_path):
    """tests/conftest.py: with CI set, a "GNU Go is not installed" skip is a failure (the GNU Go
    fixture skips while setting the test up, so pytest counts the failure as an error)."""
    env = dict(os.environ, CI="1", MCTSLAB_GNUGO=str(tmp_path / "no-gnugo"))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(ROOT / "tests/go/test_host.py"), "-k", "real_host"],
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1 and "1 error" in done.stdout, done.stdout[-500:]
    assert "GNU Go is not installed, and CI is set" in done.stdout, done.stdout[-500:]
    env["CI"] = ""
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(ROOT / "tests/go/test_host.py"), "-k", "real_host"],
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "1 skipped" in done.stdout, done.stdout[-500:]


@pytest.mark.usefixtures("gnugo_executable")
def test_a_real_9x9_game_of_the_host_engine_against_gnugo_to_two_passes():
    host = Player("mcts", engine=EngineSettings(config="gTabu18-hash", classical="gnugo",
                                                gnugo_level=0, playouts=200, resign=0.0,
                                                policy="pattern", root_select="winrate"))
    game, failures = play_players(host, Player("gnugo", level=0), size=9, seeds=(1, 2, 3),
                                  referee_level=0)
    record = game.record
    assert record.end in ("passes", "resign") and failures == []
    assert record.result[0] in "BW" and game.version.startswith("3.8")
    board = Board(9)
    for color, move in record.moves:  # no illegal move
        board.play(color, move)
    counts = game.sides[BLACK]
    assert counts["host_moves"] >= counts["searched"] > 0 and counts["host_restarts"] == 0
    assert 0 <= counts["vetoes"] <= counts["searched"] and counts["mean_shortlist"] >= 1


@pytest.mark.usefixtures("gnugo_executable")
def test_gnugo_mc_on_19x19_is_never_sent_boardsize():
    """GNU Go 3.8 refuses --monte-carlo with any board but 9x9 (check_boardsize) yet plays on
    its default 19x19 board: the game must never send it `boardsize`, which it would refuse."""
    mc = Player("gnugo-mc", level=1, simulations=400)
    game, failures = play_players(mc, Player("gnugo", level=0), size=19, max_moves=4,
                                  seeds=(1, 2, 3), referee_level=0)
    assert len(game.record.moves) == 4 and failures == []
    with gnugo.GtpEngine(gnugo.gnugo_mc_argv(level=1, simulations=400, size=19)) as engine:
        with pytest.raises(gnugo.GtpError, match="unacceptable size"):
            engine.send("boardsize 19")


@pytest.mark.usefixtures("gnugo_executable")
def test_gnugo_against_itself_on_7x7():
    tasks = match_tasks(Player("gnugo", level=0), Player("gnugo", level=0), 2, size=7,
                        referee_level=0, seed=4)
    results = [game_task(dict(t.params), t.seed_sequence()) for t in tasks]
    for result in results:
        assert result["end"] in ("passes", "resign") and result["restarts"] == 0
        assert result["winner"] in ("B", "W") and result["candidate_counts"] == {}
        board, info = sgf.load(result["sgf"].encode())
        assert board.move_number == result["moves"]
    table = summary(tasks, results)
    assert table["games"] == 2 and table["candidate"] == "gnugo-L0"
    assert 0 <= table["ci_low"] <= table["rate"] <= table["ci_high"] <= 1


def test_match_tasks_pair_up_game_by_game_across_candidates():
    a = match_tasks(SMALL, Player("gnugo", level=10), 4, size=9)
    b = match_tasks(Player("gnugo", level=10), Player("gnugo", level=10), 6, size=9)
    assert [t.seed_sequence().generate_state(3).tolist() for t in a] == \
        [t.seed_sequence().generate_state(3).tolist() for t in b[:4]]
    assert [t.params["color"] for t in b] == ["B", "W"] * 3


@pytest.mark.usefixtures("gnugo_executable")
def test_match_command_plays_stores_and_resumes(tmp_path, capsys):
    from mctslab import cli

    argv = ["go", "match", "--config", "gTabu18-hash-win", "--gnugo-level", "0", "--games", "2",
            "--playouts", "30", "--size", "9", "--workers", "1", "--referee-level", "0",
            "--json", "--out", str(tmp_path)]
    assert cli.main(argv) == 0
    summary_ = json.loads((tmp_path / "summary.json").read_text())
    assert summary_["games"] == 2 and summary_["as Black"].endswith("/1")
    assert summary_["candidate"] == "gTabu18-hash-win" and summary_["opponent"] == "gnugo-L0"
    assert sorted(p.name for p in (tmp_path / "games").iterdir()) == ["0000-B.sgf", "0001-W.sgf"]
    stored = next((tmp_path / "data" / "results").glob("go_match_*/results.jsonl"))
    lines = stored.read_text().splitlines()
    assert len(lines) == 2
    finished = json.loads(lines[0])["finished"][:10]
    assert f"DT[{finished}]" in (tmp_path / "games" / "0000-B.sgf").read_text()
    # a game is dated by the day its task finished, not the day it is written out again
    stored.write_text("".join(line.replace(f'"finished":"{finished}', '"finished":"2020-01-02')
                              + "\n" for line in lines))
    assert cli.main(argv) == 0  # a second run is served from the store: nothing is replayed
    assert len(stored.read_text().splitlines()) == 2
    assert json.loads((tmp_path / "summary.json").read_text()) == summary_
    for game in (tmp_path / "games").iterdir():
        assert "DT[2020-01-02]" in game.read_text()


def test_match_command_rejects_an_unknown_configuration(tmp_path, capsys):
    from mctslab import cli

    assert cli.main(["go", "match", "--config", "gTabuX", "--games", "1",
                     "--out", str(tmp_path)]) == 2
    assert "unknown engine configuration" in capsys.readouterr().err


def test_without_gnugo_the_notebook_games_are_skipped_with_the_reason(monkeypatch):
    from mctslab.go import experiments, figures, tables

    def missing(explicit=None):
        raise gnugo.GnuGoNotFound("GNU Go not found; install it with apt")

    monkeypatch.setattr(gnugo, "find_gnugo", missing)
    cfg = experiments.config("smoke")
    run = type("Run", (), {"seed": 1})()  # nothing is played, so nothing reaches run.map
    played = experiments.run_matches(run, cfg)
    assert played.tasks == [] and "not installed" in played.skipped
    for table in (tables.table2, tables.table3, tables.thinking_table, tables.host_table,
                  tables.cost_table, tables.validation_table):
        frame = table(played)
        assert list(frame.columns) == ["skipped"] and "install it" in frame["skipped"][0]
    assert figures.win_rate_figure(tables.table3(played)) is not None
    assert experiments.games_sgf(played) == {}


def _fake_result(won: bool, counts=None) -> dict:
    return dict(candidate_won=won, moves=40, end="passes", area_agrees=True,
                think_candidate=2.0, think_opponent=1.0, cpu_candidate=2.0, cpu_opponent=1.0,
                restarts=0, candidate_counts=counts or {}, sgf="(;)")


def test_tables_give_the_self_play_row_the_papers_black_share_and_pair_rows():
    """The paper's "gnugo" row counts Black's and White's wins of the same 1,000 games (513 +
    487): its rate is Black's 0.513, where an engine's row adds its wins as B and as W. Rows
    built from one seed pair up game by game (McNemar against the controls)."""
    from mctslab.go import experiments, tables

    cfg = experiments.config("default")
    assert cfg.configs[0] == experiments.GNUGO_SELF and "gnugo-uct" in cfg.configs
    rows = [r for r in experiments.table2_rows(cfg) if r.name in ("gnugo", "gnugo-uct",
                                                                   "gTabu0", "gTabu18")]
    tasks, names = experiments._match_tasks(cfg, rows, 2, seed=1)
    wins = {"gnugo": [1, 0, 1, 0], "gnugo-uct": [1, 0, 0, 0], "gTabu0": [0, 0, 0, 1],
            "gTabu18": [1, 1, 1, 1]}
    counts = dict(searched=10, vetoes=2, fuseki=1, host_moves=12, mean_shortlist=5.0,
                  tabu_candidates=30)
    results, seen = [], {}
    for name in names:
        i = seen[name] = seen.get(name, -1) + 1
        results.append(_fake_result(bool(wins[name][i]), counts))
    played = experiments.Played(tasks, results, names)
    table = tables.table2(played).set_index("method")
    assert table.loc["gnugo", "paper rate"] == 0.513
    assert table.loc["gnugo-uct", "paper rate"] == 0.519
    assert table.loc["gnugo", "total"] == "2/4" and table.loc["gnugo-uct", "total"] == "1/4"
    t3 = tables.table3(played).set_index("method")
    assert t3.loc["gTabu18", "vs gTabu0 b/c"] == "3/0"
    assert t3.loc["gTabu18", "vs gnugo-uct b/c"] == "3/0"
    assert t3.loc["gTabu18", "vs gTabu0 McNemar p"] == 0.25
    assert t3.loc["gTabu0", "vs gTabu0 b/c"] is None or np.isnan(t3.loc["gTabu0", "vs gTabu0 "
                                                                        "McNemar p"])
    host = tables.host_table(played).set_index("method")
    assert host.loc["gTabu18", "veto rate"] == 0.2 and host.loc["gTabu18", "searched"] == 40
    cost = tables.cost_table(played)
    assert cost["CPU s/game (measured)"][0] == 3.0
    assert cost["games per engine for 80% power (0.540 vs 0.519)"][0] == 8865


def test_table3_is_the_win_rate_table_and_the_figure_plots_its_numbers():
    """Table 3 takes rate, interval and p from core.stats.win_rate_table, rounded to 3 decimals:
    the paper's Table 2 counts (540 and 519 of 1,000) give its Table 3 (p = 0.012 and 0.242).
    The figure draws the table's numbers, recomputing nothing."""
    from mctslab.go import figures, tables
    from tests.go.test_paper_vs_run import _games

    played = _games({"gnugo-uct": (266, 500, 253, 500), "gTabu18-hash-win": (280, 500, 260, 500)})
    t3 = tables.table3(played).set_index("method")
    row = t3.loc["gTabu18-hash-win"]
    assert (row.wins, row.games, row.rate, row.p) == (540, 1000, 0.54, 0.012)
    assert (row.ci_low, row.ci_high, bool(row.significant)) == (0.509, 0.571, True)
    assert (row["paper p"], row["paper ci_low"], row["paper ci_high"]) == (0.012, 0.509, 0.571)
    uct = t3.loc["gnugo-uct"]
    assert (uct.p, uct.ci_low, uct.ci_high, bool(uct.significant)) == (0.242, 0.488, 0.55, False)
    assert uct["vs gTabu0 b/c"] is None  # no control row in this run
    ax = figures.win_rate_figure(t3.reset_index()).axes[0]
    (ours,) = [c for c in ax.containers if c.get_label().startswith("ours")]
    (paper,) = [line.get_ydata() for line in ax.lines if line.get_label().startswith("paper")]
    assert list(ours.lines[0].get_ydata()) == [0.519, 0.54]
    assert list(paper) == pytest.approx([(0.488 + 0.55) / 2, 0.54])


def test_report_reads_recorded_match_folders_and_pairs_their_games(tmp_path, capsys):
    """`mctslab go report` rebuilds Tables 2-3 from match folders (as `go match --out` leaves
    them): rows by folder, games paired by their seed's spawn key whatever the store's order."""
    from mctslab import cli

    wins = {"gTabu0": [0, 1, 0, 0], "gTabu18-hash-win": [1, 1, 1, 0]}
    for name, row in wins.items():
        store = tmp_path / name / "data" / "results" / f"go_match_{name}"
        store.mkdir(parents=True)
        player = Player("mcts", engine=EngineSettings(config=name, classical="gnugo"))
        lines = []
        for i in reversed(range(4)):  # stored out of order
            params = dict(candidate=player.params(), opponent=Player("gnugo").params(),
                          size=9, komi=6.5, referee_level=10, timeout=300.0, color="BW"[i % 2])
            result = dict(_fake_result(bool(row[i])), candidate_counts=dict(
                searched=10, vetoes=1, fuseki=0, host_moves=10, mean_shortlist=3.0))
            lines.append(json.dumps(dict(id=f"{name}{i}", fn="mctslab.go.match:game_task",
                                         params=params, seed=2026, spawn_key=[i], version="",
                                         result=result)))
        (store / "results.jsonl").write_text("\n".join(lines) + "\n")
    folders = [str(tmp_path / name) for name in wins]
    assert cli.main(["go", "report", *folders, "--names", *wins, "--csv",
                     str(tmp_path / "csv")]) == 0
    out = capsys.readouterr().out
    assert "table3_tests" in out and "host_vetoes" in out
    import pandas as pd

    t3 = pd.read_csv(tmp_path / "csv" / "table3_tests.csv").set_index("method")
    assert t3.loc["gTabu18-hash-win", "vs gTabu0 b/c"] == "2/0"  # games 0 and 2
    assert t3.loc["gTabu18-hash-win", "wins"] == 3
    cost = pd.read_csv(tmp_path / "csv" / "protocol_cost.csv").set_index("method")
    assert list(cost.index) == list(wins)  # a row per folder, at its own CPU s/game
    assert cost["games per engine for 80% power (0.540 vs 0.519)"].tolist() == [8865, 8865]
    assert cli.main(["go", "report", str(tmp_path / "nothing")]) == 2


def test_veto_tasks_are_keyed_so_a_smaller_run_is_part_of_a_larger_one():
    """Each veto task's seed comes from its position (its id adds the engine), not its place
    in the list: the 19x19 part alone, or fewer positions and Cs, are the same tasks as in the
    paper-scale table (a partial run is extended, not redone)."""
    from mctslab.go import experiments

    full, names = experiments.veto_tasks(experiments.config("paper"), 2026)
    part, part_names = experiments.veto_tasks(experiments.config(
        "paper", veto_sizes=(19,), veto_positions=3, veto_cs=(1.5,)), 2026)
    ids = {t.id: name for t, name in zip(full, names)}
    assert len(ids) == len(full) == 2 * 100 * (2 + 4)
    assert len(part) == 3 * (2 + 1)
    assert all(ids.get(t.id) == name for t, name in zip(part, part_names))
    seeds = {}
    for task in full:  # one seed per position, whatever the engine
        seeds.setdefault(task.params["path"], set()).add(task.seed_sequence().generate_state(1)[0])
    assert len(seeds) == 200 and all(len(s) == 1 for s in seeds.values())
    assert len({s.pop() for s in seeds.values()}) == 200
