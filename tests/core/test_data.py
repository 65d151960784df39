"""The one data lookup: explicit path, $MCTSLAB_DATA, data/, ../shared/data/."""

import pytest

from mctslab import data


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


def test_miss_names_every_place_tried(tmp_path, monkeypatch):
    monkeypatch.setenv("MCTSLAB_DATA", str(tmp_path))
    with pytest.raises(data.DataNotFoundError) as info:
        data.find("no/such/file.txt")
    message = str(info.value)
    assert "no/such/file.txt" in message
    for d in data.search_dirs():
        assert str(d / "no/such/file.txt") in message
    assert not data.available("no/such/file.txt")


@pytest.mark.skipif(not data.available("tsplib/optima.csv"),
                    reason="the shared data sets (../shared/data) are not present")
def test_shared_data_is_found():
    assert data.find("tsplib/optima.csv").name == "optima.csv"
