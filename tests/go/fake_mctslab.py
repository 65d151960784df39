"""Run one of the Go record scripts (scripts/go-records, scripts/go-strong) with a stand-in for
mctslab that logs its arguments instead of playing."""

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_script(tmp_path, script: str, *args, env: dict | None = None):
    """(completed process, the stand-in's calls split into words) of ``scripts/<script> args``."""
    fake = tmp_path / "fake-mctslab"
    fake.write_text('#!/bin/sh\necho "$@" >> "$CALLS"\n')
    fake.chmod(0o755)
    calls = tmp_path / "calls.txt"
    done = subprocess.run(["sh", str(ROOT / "scripts" / script), *args],
                          env=dict(os.environ, MCTSLAB=str(fake), CALLS=str(calls), **(env or {})),
                          capture_output=True, text=True, timeout=60)
    lines = calls.read_text().splitlines() if calls.exists() else []
    return done, [line.split() for line in lines]


def option(call, name):
    """The value after ``name`` in one logged call."""
    return call[call.index(name) + 1]
