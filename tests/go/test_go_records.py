"""scripts/go-records: the recorded Go runs' queues, checked with a stand-in for mctslab."""

import os
import stat
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _queue(tmp_path, *args):
    fake = tmp_path / "fake-mctslab"
    fake.write_text('#!/bin/sh\necho "$@" >> "$CALLS"\n')
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    calls = tmp_path / "calls.txt"
    done = subprocess.run(["sh", str(ROOT / "scripts" / "go-records"), *args],
                          env=dict(os.environ, MCTSLAB=str(fake), RUNS=str(tmp_path / "runs"),
                                   CALLS=str(calls)),
                          capture_output=True, text=True, timeout=60)
    lines = calls.read_text().splitlines() if calls.exists() else []
    return done, [line.split() for line in lines]


def _option(call, name):
    return call[call.index(name) + 1]


def test_rows_are_interleaved_ten_games_at_a_time(tmp_path):
    done, calls = _queue(tmp_path, "9x9", "host-gTabu0", "host-gTabu18-hash-win")
    assert done.returncode == 0, done.stderr
    assert [(_option(c, "--games"), _option(c, "--config")) for c in calls] == [
        (str(g), config) for g in range(10, 101, 10) for config in ("gTabu0", "gTabu18-hash-win")]
    first = calls[0]
    assert first[:2] == ["go", "match"] and _option(first, "--size") == "9"
    assert _option(first, "--classical") == "gnugo" and _option(first, "--seed") == "2026"
    assert _option(first, "--out") == str(tmp_path / "runs" / "go9" / "host-gTabu0")


def test_every_9x9_row_by_default_and_19x19_rows_by_name(tmp_path):
    done, calls = _queue(tmp_path, "9x9")
    assert done.returncode == 0, done.stderr
    rows = [Path(_option(c, "--out")).name for c in calls]
    assert len(rows) == 100 and len(set(rows)) == 10 and rows[-1] == "pure-gnugo-uct"
    (tmp_path / "19").mkdir()
    done, calls = _queue(tmp_path / "19", "19x19", "host-gnugo-uct")
    assert done.returncode == 0, done.stderr
    assert [(_option(c, "--size"), _option(c, "--games")) for c in calls] == [
        ("19", str(games)) for games in range(10, 101, 10)]


def test_an_unknown_queue_prints_the_usage(tmp_path):
    done, calls = _queue(tmp_path, "13x13")
    assert done.returncode == 2 and calls == []
    assert "scripts/go-records 9x9 [ROW...]" in done.stdout
