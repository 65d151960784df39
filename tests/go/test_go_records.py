"""The recorded Go runs' queues, `mctslab go records` and `mctslab go strong` (the matches
they would play, caught before anything is played), `mctslab go positions` (one real
position, the shipped one move for move), and the scripts that are one-line calls of them."""

from pathlib import Path

import pandas as pd
import pytest

from mctslab import cli as mctslab_cli
from mctslab.go import cli as go_cli
from mctslab.go import experiments, plan_run, plans
from tests.go.fake_mctslab import option, run_script

DATA = Path(__file__).resolve().parents[2] / "data" / "go-positions" / "9x9"


@pytest.fixture
def played(monkeypatch):
    """The `go match` arguments the verbs play, in order (nothing is played)."""
    calls = []
    monkeypatch.setattr(go_cli, "_play", lambda argv: calls.append(argv))
    return calls


def _rows(calls):
    return [(option(c, "--games"), Path(option(c, "--out")).name) for c in calls]


def test_the_9x9_rows_are_interleaved_ten_games_at_a_time(tmp_path, played):
    runs = tmp_path / "runs"
    assert mctslab_cli.main(["go", "records", "9x9", "host-gTabu0", "host-gTabu18-hash-win",
                             "--runs", str(runs)]) == 0
    assert [(option(c, "--games"), option(c, "--config")) for c in played] == [
        (str(g), config) for g in range(10, 101, 10) for config in ("gTabu0", "gTabu18-hash-win")]
    first = played[0]
    assert option(first, "--size") == "9" and option(first, "--classical") == "gnugo"
    assert option(first, "--seed") == "2026" and option(first, "--out") == str(
        runs / "go9" / "host-gTabu0")
    assert plans.planned_games(runs / "go9") == {"host-gTabu0": 100,
                                                 "host-gTabu18-hash-win": 100}


def test_every_9x9_row_by_default_and_19x19_rows_by_name(tmp_path, played, monkeypatch):
    assert mctslab_cli.main(["go", "records", "9x9", "--runs", str(tmp_path)]) == 0
    rows = [Path(option(c, "--out")).name for c in played]
    assert len(rows) == 100 and len(set(rows)) == 10 and rows[-1] == "pure-gnugo-uct"
    played.clear()
    vetoes = []
    monkeypatch.setattr(plan_run, "veto_rates", lambda out, **kw: vetoes.append(out))
    assert mctslab_cli.main(["go", "records", "19x19", "host-gnugo-uct",
                             "--runs", str(tmp_path)]) == 0
    assert _rows(played) == [(str(g), "host-gnugo-uct") for g in range(10, 101, 10)]
    assert {option(c, "--size") for c in played} == {"19"} and vetoes == []
    played.clear()
    assert mctslab_cli.main(["go", "records", "19x19", "veto", "--runs", str(tmp_path)]) == 0
    assert played == [] and vetoes == [tmp_path / "veto"]


def test_the_veto_steps_are_the_notebooks_tasks_at_its_seed(tmp_path, monkeypatch):
    seen = []

    def fake_run(experiment, tasks, **kw):
        seen.append((experiment, [t.id for t in tasks]))
        return [{}] * len(tasks)

    monkeypatch.setattr(plan_run, "run_tasks", fake_run)
    monkeypatch.setattr(plan_run.tables, "veto_table", lambda played: pd.DataFrame())
    plan_run.veto_rates(tmp_path, echo=lambda text: None)
    assert len(seen) == len(plan_run.VETO_STEPS)
    for (sizes, positions), (experiment, ids) in zip(plan_run.VETO_STEPS, seen):
        cfg = experiments.config("paper", veto_sizes=sizes, veto_positions=positions)
        assert experiment == "go_veto"
        assert ids == [t.id for t in experiments.veto_tasks(cfg, 20261123)[0]]


def test_the_strong_queues_play_their_rows_into_the_record(tmp_path, played):
    record = tmp_path / "strong9-x"
    assert mctslab_cli.main(["go", "strong", "ablation", "20", "no-rave", "no-capture",
                             "--record", str(record)]) == 0
    assert _rows(played) == [("10", "no-rave"), ("10", "no-capture"), ("20", "no-rave"),
                             ("20", "no-capture")]
    assert option(played[0], "--rave") == "none"
    assert option(played[1], "--priors") == "even,self-atari,pattern,distance,edge"
    # the committed rows' engine (their task ids): the pass rule before the plain count's
    assert {option(c, "--pass-rule") for c in played} == {"estimate"}
    assert Path(option(played[0], "--out")).parent == record
    played.clear()
    assert mctslab_cli.main(["go", "strong", "tabu", "--record", str(record)]) == 0
    tabu = played[-1]
    assert option(tabu, "--games") == "2178" == str(plans.QUEUES["tabu"][2])
    assert Path(option(tabu, "--out")).name == "tabu-h2h-2000-30"
    assert option(tabu, "--config") == plans.TABU_CONFIG
    assert plans.planned_games(record) == {"no-rave": 20, "no-capture": 20,
                                           "tabu-h2h-2000-30": 2178}


def test_the_scripts_are_one_line_calls_of_the_verbs(tmp_path):
    done, calls = run_script(tmp_path, "go-records", "9x9", "host-gTabu0",
                             env={"RUNS": str(tmp_path / "runs")})
    assert done.returncode == 0, done.stderr
    assert calls == [["go", "records", "--runs", str(tmp_path / "runs"), "9x9", "host-gTabu0"]]
    (tmp_path / "calls.txt").unlink()
    done, calls = run_script(tmp_path, "go-strong", "ablation", "40",
                             env={"RECORD": "r9", "WORKERS": "2"})
    assert calls == [["go", "strong", "--record", "r9", "--workers", "2", "ablation", "40"]]
    (tmp_path / "calls.txt").unlink()
    done, calls = run_script(tmp_path, "make-go9-positions", "--count", "3")
    assert calls == [["go", "positions", "--count", "3"]]


def test_the_strong_report_is_the_records_markdown(capsys):
    record = "records/go_state_tabu/strong9-2026-11-26"
    assert mctslab_cli.main(["go", "strong", "report", "--record",
                             str(DATA.parents[2] / record)]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"From `{record}`") and "**Ablation" in text


def test_an_unknown_queue_is_refused_with_the_usage(capsys):
    with pytest.raises(SystemExit) as exc:
        mctslab_cli.main(["go", "records", "13x13"])
    assert exc.value.code == 2 and "9x9" in capsys.readouterr().err


@pytest.mark.usefixtures("gnugo_executable")
def test_the_first_shipped_position_is_made_again_move_for_move(tmp_path):
    assert mctslab_cli.main(["go", "positions", "--count", "1",
                             "--out", str(tmp_path / "9x9")]) == 0
    made = (tmp_path / "9x9" / "pos000.sgf").read_text().split("]", 2)
    shipped = (DATA / "pos000.sgf").read_text().split("]", 2)
    assert made[0] == shipped[0] and made[2] == shipped[2]  # all but AP, the version
    assert (tmp_path / "SHA256SUMS").read_text().count("pos000.sgf") == 1
