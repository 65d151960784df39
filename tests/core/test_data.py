"""The one data lookup: explicit path, $MCTSLAB_DATA, then the checkout's data/."""

import pytest

from mctslab import data, paths


def test_explicit_path_wins(tmp_path):
    f = tmp_path / "x.txt"
    f.write_text("hi")
    assert data.find("whatever/x.txt", explicit=f) == f.resolve()


def test_missing_explicit_path_is_an_error(tmp_path):
    with pytest.raises(data.DataNotFoundError, match="given explicitly"):
        data.find("x.txt", explicit=tmp_path / "nope.txt")


def test_env_dir_before_project_dirs(tmp_path, monkeypatch):
    (tmp_path / "sudoku").mkdir()
    f = tmp_path / "sudoku" / "mine.txt"
    f.write_text("1")
    monkeypatch.setenv("MCTSLAB_DATA", str(tmp_path))
    assert data.search_dirs()[0] == tmp_path
    assert data.find("sudoku/mine.txt") == f.resolve()


def test_env_dir_without_the_file_falls_back_to_the_checkout(tmp_path, monkeypatch):
    monkeypatch.setenv("MCTSLAB_DATA", str(tmp_path))
    assert data.find("tsplib/optima.csv") == (paths.project_root() / "data/tsplib/optima.csv").resolve()


def test_miss_names_every_place_tried(tmp_path, monkeypatch):
    monkeypatch.setenv("MCTSLAB_DATA", str(tmp_path))
    with pytest.raises(data.DataNotFoundError) as info:
        data.find("no/such/file.txt")
    message = str(info.value)
    assert "no/such/file.txt" in message
    for d in data.search_dirs():
        assert str(d / "no/such/file.txt") in message
    assert not data.available("no/such/file.txt")


def test_shipped_data_is_found_in_the_checkout_without_env(monkeypatch):
    # The repository carries its data: with $MCTSLAB_DATA unset, the lookup is the checkout's
    # data/ and nothing else.
    monkeypatch.delenv("MCTSLAB_DATA", raising=False)
    assert data.search_dirs() == [paths.project_root() / "data"]
    for rel in ("tsplib/optima.csv", "tsplib/eil51.tsp.gz", "sudoku/sudoku17-sample.txt",
                "gnugo/patterns/mc_mogo_classic.db", "go-games/manifest.csv"):
        assert data.find(rel).is_relative_to(paths.project_root() / "data"), rel
