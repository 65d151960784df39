"""scripts/go-records: the recorded Go runs' queues, checked with a stand-in for mctslab."""

from pathlib import Path

from tests.go.fake_mctslab import option, run_script


def _queue(tmp_path, *args):
    return run_script(tmp_path, "go-records", *args, env={"RUNS": str(tmp_path / "runs")})


def test_rows_are_interleaved_ten_games_at_a_time(tmp_path):
    done, calls = _queue(tmp_path, "9x9", "host-gTabu0", "host-gTabu18-hash-win")
    assert done.returncode == 0, done.stderr
    assert [(option(c, "--games"), option(c, "--config")) for c in calls] == [
        (str(g), config) for g in range(10, 101, 10) for config in ("gTabu0", "gTabu18-hash-win")]
    first = calls[0]
    assert first[:2] == ["go", "match"] and option(first, "--size") == "9"
    assert option(first, "--classical") == "gnugo" and option(first, "--seed") == "2026"
    assert option(first, "--out") == str(tmp_path / "runs" / "go9" / "host-gTabu0")


def test_every_9x9_row_by_default_and_19x19_rows_by_name(tmp_path):
    done, calls = _queue(tmp_path, "9x9")
    assert done.returncode == 0, done.stderr
    rows = [Path(option(c, "--out")).name for c in calls]
    assert len(rows) == 100 and len(set(rows)) == 10 and rows[-1] == "pure-gnugo-uct"
    (tmp_path / "19").mkdir()
    done, calls = _queue(tmp_path / "19", "19x19", "host-gnugo-uct")
    assert done.returncode == 0, done.stderr
    assert [(option(c, "--size"), option(c, "--games")) for c in calls] == [
        ("19", str(games)) for games in range(10, 101, 10)]


def test_an_unknown_queue_prints_the_usage(tmp_path):
    done, calls = _queue(tmp_path, "13x13")
    assert done.returncode == 2 and calls == []
    assert "scripts/go-records 9x9 [ROW...]" in done.stdout
