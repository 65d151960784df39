"""Smoke-scale notebook runs shared by the notebook tests: each notebook runs once per session
(``smoke_run``), and the determinism, stop-signal and Dask tests compare their own runs with it."""

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mctslab.core.varying import ALL, declared

ROOT = Path(__file__).resolve().parents[2]


def reproduce(stem: str, out: Path, *extra: str, env: dict | None = None,
              timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mctslab.cli", "reproduce", stem, "--scale", "smoke",
         "--workers", "2", "--out", str(out), "--quiet", *extra],
        capture_output=True, text=True, timeout=timeout, cwd=ROOT,
        env=dict(os.environ, MCTSLAB_PROGRESS="0", **(env or {})))


@pytest.fixture(scope="session")
def smoke_run(tmp_path_factory):
    """``smoke_run(stem)`` -> (output root, completed process) of the session's first run."""
    runs = {}

    def get(stem: str):
        if stem not in runs:
            out = tmp_path_factory.mktemp(f"smoke-{stem}")
            runs[stem] = (out, reproduce(stem, out))
        return runs[stem]

    return get


def table_differences(stem: str, first: Path, second: Path) -> list[str]:
    """Every difference between the CSV tables of two runs' ``figures/<stem>/`` beyond the
    columns :mod:`mctslab.core.varying` declares (an empty list: same tables)."""
    problems = []
    a_dir, b_dir = first / "figures" / stem, second / "figures" / stem
    a_files = sorted(p.name for p in a_dir.glob("*.csv"))
    b_files = sorted(p.name for p in b_dir.glob("*.csv"))
    if a_files != b_files:
        return [f"different tables: {a_files} vs {b_files}"]
    for name in a_files:
        a_text, b_text = (a_dir / name).read_text(), (b_dir / name).read_text()
        if a_text == b_text:
            continue
        varies = declared(stem, name[:-4])
        if varies is None:
            problems.append(f"{name} differs and declares no varying column")
            continue
        a_rows, b_rows = list(csv.reader(io.StringIO(a_text))), list(csv.reader(io.StringIO(b_text)))
        header = a_rows[0]
        if header != b_rows[0]:
            problems.append(f"{name}: columns differ")
            continue
        if varies.columns == ALL:
            continue
        missing = set(varies.columns) - set(header)
        if missing:
            problems.append(f"{name}: declared columns not in the table: {sorted(missing)}")
        if len(a_rows) != len(b_rows):
            problems.append(f"{name}: {len(a_rows)} vs {len(b_rows)} rows")
            continue
        key = header.index(varies.row_column) if varies.row_column else 0
        for number, (a_row, b_row) in enumerate(zip(a_rows[1:], b_rows[1:]), start=2):
            free = varies.rows and not a_row[key].startswith(varies.rows)
            for column, x, y in zip(header, a_row, b_row):
                if x != y and (column not in varies.columns or free):
                    problems.append(f"{name} line {number} column {column!r}: {x!r} vs {y!r}")
    return problems
