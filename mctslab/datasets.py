"""The data sets: what the project ships in ``data/``, what it can fetch, and their checksums.

Shipped sets live in the repository's ``data/<name>/`` with a README (source, commit, licence,
counts) and a ``SHA256SUMS`` file (``sha256sum`` format, paths relative to the set's folder).
They are found through the one lookup of :mod:`mctslab.data`, so ``$MCTSLAB_DATA`` can hold a
copy of its own.

Fetchable sets are larger and needed only at paper scale (never by the tests or the default
scale): ``mctslab data fetch NAME`` downloads each file from its public source at a pinned
commit with :mod:`pooch`, checks its pinned sha256 and caches it under the first data folder
(``$MCTSLAB_DATA`` when set, else the checkout's ``data/``). A file already there with the
right checksum is not downloaded again; a wrong one is downloaded again.

Command line: ``mctslab data`` (list with counts, sizes, checksum status and location),
``mctslab data verify [NAME ...]`` (exit 1 naming every changed, truncated or missing file),
``mctslab data fetch NAME``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from mctslab import data

__all__ = ["SHIPPED", "FETCHABLE", "Shipped", "Fetchable", "FileCheck", "sha256",
           "read_checksums", "write_checksums", "verify", "count", "fetch", "FetchError",
           "status_rows"]

CHECKSUMS = "SHA256SUMS"


@dataclass(frozen=True)
class Shipped:
    """A data set in the repository's ``data/<name>/``; ``unit`` says what :func:`count` counts."""

    name: str
    what: str
    unit: str
    pattern: str  # glob of the counted files (relative to the set's folder)
    lines: bool = False  # count lines of the matched files instead of the files


@dataclass(frozen=True)
class Fetchable:
    """A data set fetched on demand: ``files`` maps a path under the data folder to
    ``(url, sha256)``."""

    name: str
    what: str
    source: str
    licence: str
    files: dict = field(default_factory=dict)


SHIPPED = {s.name: s for s in (
    Shipped("tsplib", "TSPLIB95 symmetric instances with 48-15,112 cities, optima, optimal "
            "tours, MST lengths", "instances", "*.tsp.gz"),
    Shipped("sudoku", "17-clue sample (2,000 of Royle's 49,151), magictour top1465, "
            "forum hardest 1106", "puzzles", "*.txt", lines=True),
    Shipped("gnugo", "GNU Go 3.8 pattern, joseki and eye databases and regression suites "
            "(GPL-3.0 data read at run time)", "files", "**/*"),
    Shipped("go-games", "19x19 game records: Tom server 9-dan games and AlphaGo's published "
            "games", "games", "**/*.sgf"),
    Shipped("go-positions", "100 mid-game 9x9 positions (GNU Go 3.8 self-play after random "
            "openings) for the state-tabu veto-rate table", "positions", "9x9/*.sgf"),
    Shipped("go-patterns", "large Go patterns (diamonds of radius 2-4) with their played and "
            "seen counts in the tom9d games, the strong engine's large-pattern prior", "tables",
            "*.npz"),
)}

_RUSTDOKU = "https://raw.githubusercontent.com/rikshot/rustdoku/5fa5444c886f8bcdcd96f8000e639bb4dc1ac1d4"
_MASTQE = "https://raw.githubusercontent.com/mastqe/tsplib/775541365dc3f7f3cd6faa8d0e206036d2c45e0e"

FETCHABLE = {f.name: f for f in (
    Fetchable(
        "sudoku17-census",
        "Royle's complete list of 49,151 17-clue Sudoku puzzles (the census that 17-clue finds "
        "are checked against; '0' marks an empty cell)",
        "GitHub rikshot/rustdoku at 5fa5444c (file sudoku17, blob 9bc4c321)",
        "collected and published by Gordon Royle (UWA); redistributed without a stated licence",
        {"sudoku/sudoku17.txt": (f"{_RUSTDOKU}/sudoku17",
                                 "a4370dcc617e56fdb88958f9fe8b015fbeb397caab68a75065427fafa2afc32f")},
    ),
    Fetchable(
        "tsplib-rest",
        "the 14 symmetric TSPLIB95 instances not shipped: 11 with fewer than 48 cities "
        "(burma14 ... swiss42) and the 3 largest (d18512, pla33810, pla85900)",
        "GitHub mastqe/tsplib at 77554136 (a plain TSPLIB95 mirror)",
        "TSPLIB95 (G. Reinelt), free for research use",
        {f"tsplib/{name}.tsp": (f"{_MASTQE}/{name}.tsp", digest) for name, digest in (
            ("bayg29", "6b6a501a2a4933e9b6614f905b79e1d3f9e5093a56ef0d3deaf8fbf440a17a3b"),
            ("bays29", "385c381b3bf28ed9f1065cb1672d02d1909b0eb66eab111d7c9887f9a796dc8f"),
            ("burma14", "c2f10b100ad1a00bba19094e33ab3c05fb50203352151e23252eba6f85d5c3e7"),
            ("d18512", "a3c9c7cce1821929052cf48a63a08a84cdbea718f5a219ac88d72b68c4357651"),
            ("dantzig42", "44e695b2084b13fe3efe790c783a4db1745df8947a482b1c8edcda63cb15b29d"),
            ("fri26", "80d6b51cf41459ba33ca883324f50b2f0694a4b787f2ae153c9cd97c8d8948c0"),
            ("gr17", "b18d6060189534ec7c6ea3b50b6ba793d1a3bd22b38e99bf9f422338ffa203fa"),
            ("gr21", "3ff0ab452689b2e9ffb7aa206a7dcee4e6053dbb915afa99e66005f84e8b54b4"),
            ("gr24", "7fcf61204842785f06c58e7098a3e1eb2786831179e115645083ce500c065779"),
            ("pla33810", "4f9f6755fb1bec037acde65387d04c512f6a3aa99288c4dc375dd135d90d1691"),
            ("pla85900", "a26144f6a9bc949c388334d954167f02da862f6134d5c3ab18bf14ce9f79ac20"),
            ("swiss42", "0dbcd4742ec894c70135c5873cbb06f49a643bdd6efbb755f8e02aa9faad8da4"),
            ("ulysses16", "46064545dbb24b7f53b9b26802b422a903d92bc51ab835a73ec15733ab3cac46"),
            ("ulysses22", "5d78d3131b51d4130c28495ecc558da9208fbb9a8f4f7d38535421371ba79898"),
        )},
    ),
)}


def sha256(path: str | os.PathLike) -> str:
    """The hex sha256 of a file, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_checksums(folder: Path) -> dict[str, str]:
    """``{relative path: sha256}`` from ``folder/SHA256SUMS``; ValueError naming a bad line."""
    sums = {}
    path = folder / CHECKSUMS
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        digest, _, name = line.partition("  ")
        if len(digest) != 64 or not name:
            raise ValueError(f"{path} line {number}: not '<sha256>  <path>': {line!r:.80}")
        sums[name.lstrip("*")] = digest
    return sums


def _fetched_paths() -> set[str]:
    """Paths (under a data folder) that fetchable sets write beside shipped files."""
    return {rel for spec in FETCHABLE.values() for rel in spec.files}


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                  if p.is_file() and p.name != CHECKSUMS)


def write_checksums(folder: Path) -> int:
    """(Re)write ``folder/SHA256SUMS`` for every file under it; returns the file count.
    For a maintainer after a deliberate change to a shipped set."""
    names = _files(folder)
    lines = [f"{sha256(folder / name)}  {name}\n" for name in names]
    (folder / CHECKSUMS).write_text("".join(lines))
    return len(names)


@dataclass(frozen=True)
class FileCheck:
    path: str  # relative to the data folder, e.g. "tsplib/eil51.tsp.gz"
    problem: str  # "changed", "missing", "not listed in SHA256SUMS"


def verify(name: str) -> tuple[Path | None, list[FileCheck], int]:
    """Check one set: ``(folder or None, problems, files checked)``.

    A shipped set is checked against its ``SHA256SUMS`` (a missing ``SHA256SUMS`` is itself a
    problem; files beside it that it does not list are reported too). A fetchable set is
    checked against its pinned hashes, for the files fetched so far.
    """
    if name in SHIPPED:
        if not data.available(name):
            return None, [FileCheck(name, "missing (the whole set)")], 0
        folder = data.find(name)
        if not (folder / CHECKSUMS).exists():
            return folder, [FileCheck(f"{name}/{CHECKSUMS}", "missing")], 0
        sums = read_checksums(folder)
        problems = []
        for rel, digest in sums.items():
            path = folder / rel
            if not path.is_file():
                problems.append(FileCheck(f"{name}/{rel}", "missing"))
            elif sha256(path) != digest:
                problems.append(FileCheck(f"{name}/{rel}", "changed (checksum differs)"))
        fetched = _fetched_paths()
        problems += [FileCheck(f"{name}/{rel}", "not listed in SHA256SUMS")
                     for rel in _files(folder)
                     if rel not in sums and f"{name}/{rel}" not in fetched]
        return folder, problems, len(sums)
    if name in FETCHABLE:
        problems, checked = [], 0
        for rel, (_, digest) in FETCHABLE[name].files.items():
            if data.available(rel):
                checked += 1
                if sha256(data.find(rel)) != digest:
                    problems.append(FileCheck(rel, "changed (checksum differs)"))
        return None, problems, checked
    raise KeyError(f"unknown data set {name!r}; known: {', '.join([*SHIPPED, *FETCHABLE])}")


def count(name: str) -> int:
    """How many items (``Shipped.unit``) the set holds where the lookup finds it."""
    spec = SHIPPED[name]
    folder = data.find(name)
    fetched = _fetched_paths()
    files = [p for p in folder.glob(spec.pattern) if p.is_file() and p.name != CHECKSUMS
             and f"{name}/{p.relative_to(folder)}" not in fetched]
    if not spec.lines:
        return len(files)
    total = 0
    for path in files:
        with open(path, "rb") as handle:
            total += sum(1 for line in handle if line.strip() and not line.startswith(b"#"))
    return total


def _size(paths) -> int:
    return sum(p.stat().st_size for p in paths if p.is_file())


def status_rows(check: bool = True) -> list[dict]:
    """One row per data set for ``mctslab data``: name, kind, count, bytes, checksums, where."""
    rows = []
    for name, spec in SHIPPED.items():
        row = {"name": name, "kind": "shipped", "what": spec.what, "count": None, "unit": spec.unit,
               "bytes": None, "checksums": "-", "where": "not found"}
        if data.available(name):
            folder = data.find(name)
            row.update(count=count(name), bytes=_size(folder.rglob("*")), where=str(folder))
        if check:
            _, problems, checked = verify(name)
            row["checksums"] = (f"ok ({checked} files)" if not problems
                                else f"{len(problems)} problem(s)")
        rows.append(row)
    for name, spec in FETCHABLE.items():
        present = [rel for rel in spec.files if data.available(rel)]
        row = {"name": name, "kind": "fetch", "what": spec.what, "count": len(present),
               "unit": f"of {len(spec.files)} files", "bytes": None, "checksums": "-",
               "where": f"not fetched (mctslab data fetch {name})"}
        if present:
            paths = [data.find(rel) for rel in present]
            row.update(bytes=_size(paths), where=str(paths[0].parent))
            if check:
                _, problems, checked = verify(name)
                row["checksums"] = (f"ok ({checked} files)" if not problems
                                    else f"{len(problems)} problem(s)")
        rows.append(row)
    return rows


class FetchError(OSError):
    """A download failed (offline, not found) or its checksum did not match."""


def _copy_local(url: str, output_file, pooch_obj=None) -> None:
    """pooch downloader for ``file://`` URLs (a local mirror, and the offline tests)."""
    source = Path(url.removeprefix("file://"))
    if not source.is_file():
        raise FileNotFoundError(f"{source} does not exist")
    if isinstance(output_file, (str, os.PathLike)):
        shutil.copyfile(source, output_file)
    else:
        with open(source, "rb") as handle:
            shutil.copyfileobj(handle, output_file)


def fetch(name: str, folder: str | os.PathLike | None = None, files: dict | None = None,
          progress: bool = False) -> list[Path]:
    """Download the fetchable set ``name`` into ``folder`` (default: the first data folder).

    Each file is fetched with :func:`pooch.retrieve` and its pinned sha256: a file already there
    with the right hash is kept, one with a wrong hash is fetched again, and a download whose
    hash differs is deleted and reported. ``files`` overrides the set's ``{path: (url,
    sha256)}`` (tests use ``file://`` URLs). Raises :class:`FetchError` naming the file and URL.
    """
    import pooch

    if name not in FETCHABLE:
        raise KeyError(f"unknown fetchable data set {name!r}; known: {', '.join(FETCHABLE)}")
    target = Path(folder) if folder is not None else data.search_dirs()[0]
    fetched = []
    for rel, (url, digest) in (files or FETCHABLE[name].files).items():
        dest = target / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        downloader = _copy_local if url.startswith("file://") else (
            pooch.HTTPDownloader(progressbar=progress, timeout=60))
        try:
            path = pooch.retrieve(url, known_hash=f"sha256:{digest}", fname=dest.name,
                                  path=dest.parent, downloader=downloader)
        except ValueError as exc:  # pooch: hash mismatch (the bad download is removed)
            raise FetchError(f"{rel}: the download from {url} does not have the pinned "
                             f"sha256 {digest} ({exc})") from exc
        except Exception as exc:  # requests' connection errors, HTTP errors, a missing file
            raise FetchError(f"{rel}: could not download {url} ({type(exc).__name__}: {exc}); "
                             "are you offline? The tests and the default scale do not need "
                             f"the '{name}' set") from exc
        fetched.append(Path(path))
    return fetched
