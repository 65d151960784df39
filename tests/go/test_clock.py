"""Time controls of ``mctslab go gtp``: ``time_settings``, ``time_left`` and
``kgs-time_settings`` answered and turned into the seconds a strong-engine search may take
(``mctslab.go.clock``), as GoGui and Sabaki send them."""

import io
import re
import subprocess
import sys

import pytest

from mctslab.go import clock, gtp
from mctslab.go.clock import TimeControl
from mctslab.go.engine import engine_settings
from mctslab.go.gtp import GtpServer


def test_gtp_and_kgs_time_settings_are_read():
    assert clock.from_gtp(600, 30, 5) == TimeControl("canadian", 600, 30, stones=5)
    assert clock.from_gtp(300, 0, 0) == TimeControl("absolute", 300)
    assert clock.from_gtp(0, 1, 0).kind == "none"  # GTP 2: byo-yomi time, no stones
    assert clock.from_kgs(["none"]).kind == "none"
    assert clock.from_kgs(["absolute", "120"]) == TimeControl("absolute", 120)
    assert clock.from_kgs(["byoyomi", "300", "30", "5"]) == \
        TimeControl("byoyomi", 300, 30, periods=5)
    assert clock.from_kgs(["canadian", "300", "60", "10"]) == \
        TimeControl("canadian", 300, 60, stones=10)
    for bad in ([], ["byoyomi", "1"], ["fischer", "1", "2"], ["absolute", "x"]):
        with pytest.raises(ValueError):
            clock.from_kgs(bad)
    with pytest.raises(ValueError, match="finite"):
        TimeControl("absolute", -5)


def test_move_seconds_spread_the_main_time_and_keep_within_byo_yomi():
    assert clock.move_seconds(None, None, 81) == 0.0
    assert clock.move_seconds(TimeControl("none"), (10, 0), 81) == 0.0
    absolute = TimeControl("absolute", 120)
    # 81 empty points: about 40 moves of ours left; 120 s / 40 = 3 s, less the lag
    assert clock.move_seconds(absolute, None, 81) == pytest.approx(3.0 - clock.LAG)
    assert clock.move_seconds(absolute, (20, 0), 10) == pytest.approx(2.0 - clock.LAG)
    assert clock.move_seconds(absolute, (0.1, 0), 10) == clock.MIN_SECONDS
    canadian = TimeControl("canadian", 0, 60, stones=10)
    assert clock.move_seconds(canadian, None, 81) == pytest.approx(0.8 * 6 - clock.LAG)
    assert clock.move_seconds(canadian, (30, 2), 40) == pytest.approx(0.8 * 15 - clock.LAG)
    byoyomi = TimeControl("byoyomi", 60, 10, periods=3)
    assert clock.move_seconds(byoyomi, (60, 0), 81) == \
        pytest.approx(60 / 40 + 0.8 * 10 - clock.LAG)
    assert clock.move_seconds(byoyomi, (7, 2), 30) == pytest.approx(0.8 * 7 - clock.LAG)
    assert clock.combine(0, 2.5, 1.0) == 1.0 and clock.combine(0, 0) == 0.0


def test_the_gtp_engine_answers_the_time_commands_and_the_strong_search_uses_them(monkeypatch):
    seconds = []

    def search(board, playouts, **kw):  # the strong engine's search, recorded
        seconds.append(kw["seconds"])
        return real_search(board, 20, **kw)

    real_search = gtp.strong.search
    monkeypatch.setattr(gtp.strong, "search", search)
    srv = GtpServer(engine_settings("strong", size=9, playouts=20, resign=0.0),
                    stdin=io.BytesIO(), stdout=io.BytesIO(), stderr=io.StringIO())
    assert "kgs-time_settings" in srv.handle("list_commands")
    assert srv.handle("1 known_command kgs-time_settings") == "=1 true\n\n"
    assert srv.handle("2 genmove b").startswith("=2 ")
    assert seconds[-1] == 0.0  # no clock: playouts only
    assert srv.handle("3 kgs-time_settings byoyomi 60 10 3") == "=3\n\n"
    assert srv.handle("4 genmove w").startswith("=4 ")
    assert seconds[-1] == pytest.approx(clock.move_seconds(TimeControl("byoyomi", 60, 10,
                                                                       periods=3), None, 80))
    assert srv.handle("5 time_left b 7 2") == "=5\n\n"  # Japanese byo-yomi: 2 periods left
    assert srv.handle("6 genmove b").startswith("=6 ")
    assert seconds[-1] == pytest.approx(0.8 * 7 - clock.LAG)
    assert srv.handle("7 time_settings 300 0 0") == "=7\n\n"  # GTP's: absolute
    assert srv.time_control == TimeControl("absolute", 300) and srv.time_left == {}
    assert srv.handle("8 time_settings 0 1 0") == "=8\n\n" and srv.time_control.kind == "none"
    for line, reply in (("9 kgs-time_settings fischer 1 2", "?9 syntax error"),
                        ("10 kgs-time_settings", "?10 syntax error"),
                        ("11 time_settings -1 0 0", "?11 syntax error"),
                        ("12 time_left b x 0", "?12 syntax error")):
        assert srv.handle(line) == reply + "\n\n"
    assert srv.handle("13 name") == "=13 mctslab\n\n"


def test_a_uct_engine_records_the_clock_and_keeps_its_playouts():
    srv = GtpServer(engine_settings("uct", size=9, playouts=20), stdin=io.BytesIO(),
                    stdout=io.BytesIO(), stderr=io.StringIO())
    assert srv.handle("kgs-time_settings absolute 60") == "=\n\n"
    assert srv.move_seconds(1) > 0 and srv.time_control.kind == "absolute"


def test_the_gtp_command_line_plays_by_the_clock_as_a_gui_drives_it():
    """A GoGui or Sabaki session with a clock: the search stops at the clock's share, far
    below the playout cap (the log line of each genmove gives its playouts)."""
    commands = (b"boardsize 9\nclear_board\nkomi 6.5\nkgs-time_settings byoyomi 0 1 3\n"
                b"time_left b 1 3\ngenmove b\ntime_settings 10 0 0\ntime_left w 2 0\n"
                b"genmove w\nquit\n")
    out = subprocess.run(
        [sys.executable, "-m", "mctslab.cli", "go", "gtp", "--engine", "strong", "--size", "9",
         "--playouts", "100000000"], input=commands, capture_output=True, timeout=900,
        check=True)
    replies = [r for r in out.stdout.decode().split("\n\n") if r.strip()]
    assert replies[:5] == ["="] * 5 and replies[6:8] == ["=", "="] and replies[9] == "="
    for reply in (replies[5], replies[8]):
        assert reply.startswith("= ") and len(reply.split()[1]) == 2, reply
    log = out.stderr.decode()
    playouts = [int(n.replace(",", "")) for n in
                re.findall(r"genmove [BW]: \S+ win rate \S+, ([\d,]+) playouts", log)]
    assert len(playouts) == 2 and all(0 < n < 100_000_000 for n in playouts)
