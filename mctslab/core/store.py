"""The append-only result store: one JSON line per finished task.

``<out>/data/results/<experiment>/results.jsonl`` holds one record per task::

    {"id": ..., "fn": ..., "params": {...}, "seed": ..., "spawn_key": [...],
     "result": {...}, "finished": "2026-11-22T10:00:00+00:00", "seconds": 1.23}

Each record is written with a single ``write`` of one complete line followed by ``fsync``, by
the one process that owns the store (the client, never the workers), so a run killed at any
moment leaves complete lines plus at most one truncated last line; :meth:`ResultStore.load`
ignores (and reports) a truncated tail and the next append cuts it off first. Re-running an
experiment skips the task ids already stored: no task is lost, none is duplicated.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json
import math
import os
import warnings
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["ResultStore", "to_jsonable", "utc_now", "write_json"]


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


class ResultStore:
    """Append-only JSON-lines store for one experiment's task results."""

    FILENAME = "results.jsonl"

    def __init__(self, directory: str | os.PathLike):
        self.directory = Path(directory)
        self.path = self.directory / self.FILENAME

    def load(self) -> dict[str, dict]:
        """All complete records by task id (a truncated last line is ignored with a warning)."""
        records: dict[str, dict] = {}
        if not self.path.exists():
            return records
        with open(self.path, "rb") as fh:
            data = fh.read()
        lines = data.split(b"\n")
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                if number == len(lines):  # the unterminated tail of a killed write
                    warnings.warn(f"{self.path}: ignoring a truncated last record (line {number})",
                                  stacklevel=2)
                    continue
                raise ValueError(f"{self.path}: line {number} is not valid JSON") from None
            records.setdefault(record["id"], record)
        return records

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
