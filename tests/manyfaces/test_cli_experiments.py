"""``mctslab manyfaces`` verbs and the notebook's experiment functions (small inputs)."""

from __future__ import annotations

import pytest

from mctslab import data
from mctslab.cli import main
from mctslab.manyfaces import experiments, measures
from mctslab.manyfaces.tables import census_tables, enclosed_table


@pytest.fixture(scope="module")
def game():
    return str(sorted(data.find("go-games").glob("tom9d/*.sgf"))[0])


def test_analyse_prints_every_structure_and_draws_a_png(game, capsys, tmp_path):
    png = tmp_path / "field.png"
    assert main(["manyfaces", "analyse", game, "--move", "120", "--png", str(png)]) == 0
    out = capsys.readouterr().out
    for heading in ("after 120 moves", "groups", "connections", "eye spaces", "influence",
                    "territory estimate"):
        assert heading in out
    assert png.stat().st_size > 1000
    # the influence map has one line per row: 19 rows of 19 cells
    rows = [ln for ln in out.split("influence (")[1].splitlines()[1:20]]
    assert len(rows) == 19 and all(len(r.split()) == 20 for r in rows)


def test_patterns_prints_matches_and_counters(game, capsys):
    assert main(["manyfaces", "patterns", game, "--move", "60", "--limit", "3"]) == 0
    out = capsys.readouterr().out
    assert "full match:" in out and "incremental:" in out and "1257 patterns" in out


def test_joseki_stats_and_continuations(game, capsys):
    assert main(["manyfaces", "joseki", "--stats"]) == 0
    out = capsys.readouterr().out
    assert "bytes/move" in out and "1,944 SGF moves" in out
    assert main(["manyfaces", "joseki", game, "--move", "3"]) == 0
    out = capsys.readouterr().out
    assert all(f"{c}:" in out for c in ("ur", "ul", "lr", "ll"))


def test_bad_file_is_a_one_line_error(capsys, tmp_path):
    assert main(["manyfaces", "analyse", str(tmp_path / "missing.sgf")]) == 2
    assert "cannot read SGF file" in capsys.readouterr().err


def test_config_scales_and_overrides():
    cfg = experiments.config("smoke", census_games=3)
    assert cfg.census_games == 3 and cfg.scale == "smoke"
    assert experiments.config("paper").census_games == 2000
    with pytest.raises(ValueError, match="census_gamez"):
        experiments.config("smoke", census_gamez=3)
    with pytest.raises(ValueError, match="census_games"):
        experiments.config("smoke", census_games=0)
    with pytest.raises(ValueError, match="scale"):
        experiments.config("huge")


def test_game_paths_spread_over_the_data_set():
    paths = experiments.game_paths(5)
    assert len(paths) == 5 and len(set(paths)) == 5
    assert paths[0].startswith("alphago/") and paths[-1].startswith("tom9d/")
    assert len(experiments.game_paths(2000)) == 2000


def test_census_task_checks_every_move_and_counts():
    r = experiments.census_task({"game": experiments.game_paths(3)[1], "census_every": 50},
                                None)
    assert r["mismatches"] == 0 and r["checked"] == r["moves"] > 100
    assert sum(r["connections"].values()) > 0 and sum(r["eyes"].values()) >= 0
    tables = census_tables([r, r])
    assert tables["consistency"].iloc[0]["moves_checked"] == 2 * r["moves"]
    assert tables["connections"]["total"].sum() == 2 * sum(r["connections"].values())


def test_enclosed_table_shows_the_centre_limit_and_the_wall_growth():
    t = enclosed_table([measures.enclosed_task({"side": n}, None) for n in (3, 9, 23)])
    assert (t.centre_1_over_d.diff().dropna() > 0).all()
    assert (t.centre_1_over_d < t.attrs["limit"]).all()
    assert (t.centre_1_over_d2.diff().dropna() < 0).all()
    assert (t.normalised_min > 0.8).all()


def _strength_run(tmp_path):
    from mctslab.core.report import Run

    cfg = experiments.config("smoke", strength_games=1, strength_size=5, strength_playouts=20)
    run = Run("manyfaces_strength_test", config=cfg, scale="smoke", seed=1, workers=1,
              out=tmp_path)
    return run, cfg


def test_strength_config_checks_the_gnugo_level():
    cfg = experiments.config("smoke", strength_games=1, strength_size=5, strength_playouts=20)
    assert cfg.prior_visits == 20 and cfg.gnugo_level == 0
    with pytest.raises(ValueError, match="levels"):
        experiments.config("smoke", gnugo_level=11)


def test_strength_without_gnugo_says_why(monkeypatch, tmp_path):
    from mctslab.go import gnugo

    run, cfg = _strength_run(tmp_path)

    def missing(explicit=None):
        raise gnugo.GnuGoNotFound("GNU Go not found; install it with apt")

    monkeypatch.setattr(gnugo, "find_gnugo", missing)
    assert "install it" in experiments.run_strength(run, cfg)["skipped"][0]


@pytest.mark.usefixtures("gnugo_executable")  # skipped without GNU Go, failed so in CI
def test_strength_with_gnugo_plays_every_pairing(tmp_path):
    run, cfg = _strength_run(tmp_path)
    table = experiments.run_strength(run, cfg)
    assert list(table.candidate) == ["knowledge", "knowledge", "mcts-light-20+prior20",
                                     "mcts-light-20+prior20", "mcts-light-20"]
    assert list(table.opponent) == ["gnugo-level0", "mcts-light-20", "mcts-light-20",
                                    "gnugo-level0", "gnugo-level0"]
    assert (table.games == 1).all() and table.wins.isin([0, 1]).all()
