"""The append-only result store: one JSON line per finished task.

``<out>/data/results/<experiment>/results.jsonl`` holds one record per task::

    {"id": ..., "fn": ..., "params": {...}, "seed": ..., "spawn_key": [...],
     "result": {...}, "finished": "2026-11-22T10:00:00+00:00", "seconds": 1.23}

Each record is written with a single ``write`` of one complete line followed by ``fsync``, by
the one process that owns the store (the client, never the workers), so a run killed at any
moment leaves complete lines plus at most one truncated last line; :meth:`ResultStore.load`
ignores (and reports) a truncated tail and the next append cuts it off first. Re-running an
experiment skips the task ids already stored: no task is lost, none is duplicated.

A finished store may be packed (:meth:`ResultStore.pack`, ``mctslab records pack``): its lines
move to ``results.jsonl.gz`` (JSON lines repeat their parameters and compress about tenfold,
which keeps a long match small enough to commit as a record). A packed store reads as before;
tasks run after packing append to a new ``results.jsonl`` beside it.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import gzip
import hashlib
import io
import json
import math
import os
import tarfile
import warnings
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["ResultStore", "SUMS", "same_number", "sha256", "to_jsonable", "utc_now",
           "write_json", "write_sums",
           "write_tar_gz"]


def to_jsonable(obj: Any, *, nan_as_null: bool = False) -> Any:
    """Convert numpy arrays/scalars, tuples, paths and dataclasses into JSON-ready values.

    Non-finite floats become the strings ``"inf"``, ``"-inf"``, ``"nan"`` (JSON has no such
    numbers; ``float()`` reads them back), or ``None`` with
    ``nan_as_null`` (for output that is only read, such as ``mctslab bench --json``).
    """
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v, nan_as_null=nan_as_null) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v, nan_as_null=nan_as_null) for v in obj]
    if isinstance(obj, np.ndarray):
        return to_jsonable(obj.tolist(), nan_as_null=nan_as_null)
    if isinstance(obj, (np.bool_, bool)):
        return bool(obj)
    if isinstance(obj, (np.integer, int)):
        return int(obj)
    if isinstance(obj, (np.floating, float)):
        value = float(obj)
        if math.isfinite(value):
            return value
        if nan_as_null:
            return None
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(obj, Path):
        return str(obj)
    if hasattr(obj, "__dataclass_fields__"):
        return to_jsonable(dataclasses.asdict(obj), nan_as_null=nan_as_null)
    if obj is None or isinstance(obj, str):
        return obj
    raise TypeError(f"cannot store a {type(obj).__name__} in the result store: {obj!r:.80}")


def same_number(a, b) -> bool:
    """Whether two numbers read back from JSON are the same up to float rounding (1e-9); None
    equals only None. How a record's check compares a stored number with one recomputed."""
    if a is None or b is None:
        return a is b
    return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-9)


def utc_now() -> str:
    """The current UTC time as ISO 8601 to the second (``2026-11-22T10:00:00+00:00``): the one
    clock of result records, manifests and ``mctslab reproduce`` (so their times compare)."""
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def write_json(path: str | os.PathLike, obj: Any, indent: int | None = 2) -> Path:
    """Write ``to_jsonable(obj)`` to ``path`` atomically: a reader (or a kill) sees the old file
    or the new one, never half of one (written to ``<path>.tmp`` beside it, then renamed)."""
    path = Path(path)
    text = json.dumps(to_jsonable(obj), indent=indent, allow_nan=False) + "\n"
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)
    return path


def write_tar_gz(archive: str | os.PathLike, files: dict[str, bytes]) -> Path:
    """``files`` (name in the archive -> bytes) as one ``.tar.gz``, sorted by name and dated 0
    (the same files give the same bytes), written whole before it replaces ``archive``: a
    record's raw files and a packed match's games (``mctslab records``)."""
    archive = Path(archive)
    tmp = archive.with_name(archive.name + ".tmp")
    with open(tmp, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as gz, \
            tarfile.open(fileobj=gz, mode="w") as tar:
        for name in sorted(files):
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(files[name]), 0, 0o644
            tar.addfile(info, io.BytesIO(files[name]))
    os.replace(tmp, archive)
    return archive


class ResultStore:
    """Append-only JSON-lines store for one experiment's task results."""

    FILENAME = "results.jsonl"
    PACKED = "results.jsonl.gz"  # a packed store's earlier lines (:meth:`pack`)

    def __init__(self, directory: str | os.PathLike):
        self.directory = Path(directory)
        self.path = self.directory / self.FILENAME
        self.packed = self.directory / self.PACKED

    def exists(self) -> bool:
        return self.path.exists() or self.packed.exists()

    def records(self) -> list[dict]:
        """Every complete record in the order stored: the packed lines, then the plain file's
        (a truncated last line of the plain file is ignored with a warning)."""
        found = []
        if self.packed.exists():
            found += self._parse(gzip.decompress(self.packed.read_bytes()), self.packed, False)
        if self.path.exists():
            found += self._parse(self.path.read_bytes(), self.path, True)
        return found

    @staticmethod
    def _parse(data: bytes, path: Path, tail_may_be_cut: bool) -> list[dict]:
        lines = data.split(b"\n")
        found = []
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                found.append(json.loads(line))
            except json.JSONDecodeError:
                if tail_may_be_cut and number == len(lines):  # a killed write's tail
                    warnings.warn(f"{path}: ignoring a truncated last record (line {number})",
                                  stacklevel=3)
                    continue
                raise ValueError(f"{path}: line {number} is not valid JSON") from None
        return found

    def load(self) -> dict[str, dict]:
        """All complete records by task id (the first of any repeated id)."""
        records: dict[str, dict] = {}
        for record in self.records():
            records.setdefault(record["id"], record)
        return records

    def pack(self) -> int:
        """Move the plain file's complete lines into :data:`PACKED` (gzip, appended to what it
        holds), written whole before the plain file is removed; returns the lines moved."""
        if not self.path.exists():
            return 0
        data = self.path.read_bytes()
        complete = data[:data.rfind(b"\n") + 1]
        if len(complete) != len(data):
            raise ValueError(f"{self.path}: its last line is unfinished (a task being "
                             f"stored?): pack a store no run is writing")
        self._parse(complete, self.path, False)  # refuse a damaged store before moving it
        earlier = gzip.decompress(self.packed.read_bytes()) if self.packed.exists() else b""
        tmp = self.packed.with_name(self.PACKED + ".tmp")
        tmp.write_bytes(gzip.compress(earlier + complete, compresslevel=9, mtime=0))
        os.replace(tmp, self.packed)
        self.path.unlink()
        return complete.count(b"\n")

    def append(self, record: dict) -> None:
        """Append one record durably (single write + fsync)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        line = json.dumps(to_jsonable(record), separators=(",", ":"), allow_nan=False)
        self._drop_partial_tail()
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            os.write(fd, line.encode() + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)

    def _drop_partial_tail(self) -> None:
        """Cut an unterminated last line (a write killed half-way) before appending."""
        if not self.path.exists() or self.path.stat().st_size == 0:
            return
        with open(self.path, "r+b") as fh:
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) == b"\n":
                return
            data = fh.seek(0) or fh.read()
            fh.truncate(data.rfind(b"\n") + 1)
            fh.flush()
            os.fsync(fh.fileno())


SUMS = "SHA256SUMS"   # a record's checksums of every file in it, ``<sha256>  <path>`` a line


def sha256(path: str | os.PathLike) -> str:
    """The SHA-256 of a file, read in blocks."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_sums(folder: str | os.PathLike) -> Path:
    """Write ``<folder>/SHA256SUMS`` over every file under ``folder`` (paths relative to it,
    sorted), the checksums a committed record is checked by (``mctslab records check``)."""
    folder = Path(folder)
    files = sorted(p for p in folder.rglob("*") if p.is_file()
                   and not (p.name == SUMS and p.parent == folder))
    lines = [f"{sha256(p)}  {p.relative_to(folder).as_posix()}" for p in files]
    path = folder / SUMS
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
