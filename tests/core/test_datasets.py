"""Shipped data sets, their checksums, fetching with a pinned sha256, and no path into the\nsteering repository's shared folder."""

import hashlib
import re
import shutil
from pathlib import Path

import pytest

from mctslab import cli, data, datasets, paths

ROOT = paths.project_root()


def _digest(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def test_every_shipped_set_is_in_the_checkout_with_its_readme_and_counts(monkeypatch):
    monkeypatch.delenv("MCTSLAB_DATA", raising=False)
    expected = {"tsplib": 97, "sudoku": 2000 + 1465 + 375, "go-games": 2000,
                "go-positions": 100, "go-patterns": 1}
    for name in datasets.SHIPPED:
        folder = data.find(name)
        assert folder == (ROOT / "data" / name).resolve()
        assert (folder / "README.md").is_file() and (folder / datasets.CHECKSUMS).is_file()
        if name in expected:
            assert datasets.count(name) == expected[name], name
    # GPL-3.0 data: the licence text travels with it
    assert (ROOT / "data/gnugo/COPYING").is_file()
    assert (ROOT / "data/go-games/LICENSE-GPL-3.0.txt").is_file()
    assert (ROOT / "data/go-patterns/LICENSE-GPL-3.0.txt").is_file()


def test_shipped_checksums_match(monkeypatch):
    monkeypatch.delenv("MCTSLAB_DATA", raising=False)
    for name in datasets.SHIPPED:
        folder, problems, checked = datasets.verify(name)
        assert problems == [] and checked > 0, (name, problems[:3])


@pytest.fixture
def sudoku_copy(tmp_path, monkeypatch):
    """A copy of the small 'sudoku' set in $MCTSLAB_DATA, found before the checkout's."""
    shutil.copytree(ROOT / "data/sudoku", tmp_path / "sudoku")
    monkeypatch.setenv("MCTSLAB_DATA", str(tmp_path))
    return tmp_path / "sudoku"


def test_verify_names_a_changed_a_truncated_a_missing_and_an_unlisted_file(sudoku_copy, capsys):
    (sudoku_copy / "forum-hardest-1106.txt").write_text("changed\n")
    sample = sudoku_copy / "sudoku17-sample.txt"
    sample.write_bytes(sample.read_bytes()[:100])  # truncated
    (sudoku_copy / "magictour-top1465.txt").unlink()
    (sudoku_copy / "stray.txt").write_text("x")
    folder, problems, checked = datasets.verify("sudoku")
    assert folder == sudoku_copy.resolve()
    found = {p.path: p.problem for p in problems}
    assert found == {
        "sudoku/forum-hardest-1106.txt": "changed (checksum differs)",
        "sudoku/sudoku17-sample.txt": "changed (checksum differs)",
        "sudoku/magictour-top1465.txt": "missing",
        "sudoku/stray.txt": "not listed in SHA256SUMS",
    }
    assert cli.main(["data", "verify", "sudoku"]) == 1
    out = capsys.readouterr().out
    assert "sudoku/sudoku17-sample.txt: changed" in out and "magictour-top1465.txt: missing" in out


def test_verify_passes_on_an_intact_copy_and_fails_without_sums(sudoku_copy):
    assert cli.main(["data", "verify", "sudoku"]) == 0
    (sudoku_copy / datasets.CHECKSUMS).unlink()
    _, problems, _ = datasets.verify("sudoku")
    assert [p.problem for p in problems] == ["missing"]


def test_a_bad_checksum_line_is_named(tmp_path):
    (tmp_path / datasets.CHECKSUMS).write_text("abc  file.txt\n")
    with pytest.raises(ValueError, match="line 1"):
        datasets.read_checksums(tmp_path)


def test_listing_shows_every_set(capsys):
    assert cli.main(["data"]) == 0
    out = capsys.readouterr().out
    for name in [*datasets.SHIPPED, *datasets.FETCHABLE]:
        assert re.search(rf"^{re.escape(name)}\s", out, re.M), name
    assert "97 instances" in out and "2,000 games" in out


# -- fetching: pooch with a pinned sha256, tested offline through file:// URLs ----------------

@pytest.fixture
def source(tmp_path):
    src = tmp_path / "mirror" / "puzzles.txt"
    src.parent.mkdir()
    src.write_text("1" * 81 + "\n")
    return src


def test_fetch_checks_the_hash_and_caches(source, tmp_path):
    files = {"sudoku/sudoku17.txt": (f"file://{source}", _digest(source))}
    target = tmp_path / "data"
    [path] = datasets.fetch("sudoku17-census", folder=target, files=files)
    assert path == target / "sudoku/sudoku17.txt" and path.read_bytes() == source.read_bytes()
    source.unlink()  # a second fetch must come from the cache, not the (now gone) source
    assert datasets.fetch("sudoku17-census", folder=target, files=files) == [path]
    path.write_text("corrupted\n")  # a cached file with the wrong hash is fetched again ...
    with pytest.raises(datasets.FetchError, match="could not download"):
        datasets.fetch("sudoku17-census", folder=target, files=files)  # ... and the source is gone


def test_fetch_refuses_a_download_with_the_wrong_hash(source, tmp_path):
    files = {"sudoku/sudoku17.txt": (f"file://{source}", "0" * 64)}
    with pytest.raises(datasets.FetchError, match="pinned sha256"):
        datasets.fetch("sudoku17-census", folder=tmp_path / "data", files=files)
    assert not (tmp_path / "data/sudoku/sudoku17.txt").exists()


def test_fetched_files_are_found_and_verified(source, tmp_path, monkeypatch):
    monkeypatch.setenv("MCTSLAB_DATA", str(tmp_path / "data"))
    name, spec = "tsplib-rest", datasets.FETCHABLE["tsplib-rest"]
    rel = "tsplib/burma14.tsp"
    assert rel in spec.files
    text = "NAME: tiny\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n" \
           "1 0 0\n2 3 0\n3 0 4\nEOF\n"
    source.write_text(text)
    datasets.fetch(name, files={rel: (f"file://{source}", _digest(source))})
    from mctslab.tsp import tsplib
    assert tsplib.data_path("burma14") == (tmp_path / "data" / rel).resolve()
    assert tsplib.load("burma14").dimension == 3
    # checked against the set's real pinned hash: this stand-in is reported as changed
    _, problems, checked = datasets.verify(name)
    assert checked == 1 and [p.path for p in problems] == [rel]


def test_unknown_sets_are_named():
    with pytest.raises(KeyError, match="no-such-set"):
        datasets.fetch("no-such-set")
    with pytest.raises(KeyError, match="no-such-set"):
        datasets.verify("no-such-set")


def test_pinned_hashes_are_sha256_hex():
    for spec in datasets.FETCHABLE.values():
        for rel, (url, digest) in spec.files.items():
            assert re.fullmatch(r"[0-9a-f]{64}", digest), rel
            assert url.startswith("https://") and re.search(r"/[0-9a-f]{40}/", url), url


# -- nothing reads the steering repository's shared folder -----------------------------------

def test_no_code_path_or_test_reads_the_shared_folder():
    parent_shared = ".." + "/shared"  # split so that this file does not match itself
    folder = parent_shared.rsplit("/", 1)[1]
    # the parent-directory path, the folder's data/papers/seeds/STYLE.md sub-paths, or the
    # folder's name as a string (a path join, a lookup); the Many Faces connection strength
    # that was the same word is "contested"
    pattern = re.compile(re.escape(parent_shared) + r"|shared/(data|papers|seeds|STYLE)"
                         + r"|['\"]" + folder + r"['\"]")
    offenders = []
    for folder in ("mctslab", "tests", "scripts", "notebooks", ".ci"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in ("", ".py", ".ipynb", ".sh", ".toml", ".cfg"):
                for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                    if pattern.search(line) and path.name != Path(__file__).name:
                        offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    for name in ("Makefile", "pyproject.toml"):
        for number, line in enumerate((ROOT / name).read_text().splitlines(), 1):
            if pattern.search(line):
                offenders.append(f"{name}:{number}: {line.strip()}")
    assert offenders == []
    assert all(folder not in d.parts for d in data.search_dirs())
