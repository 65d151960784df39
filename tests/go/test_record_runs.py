"""One part of the Go protocol as a notebook record: a 19x19 match record's Table 2
games read back through the notebook's runners (nothing played), judged with the exact test
beside; a match whose games are not the notebook's is refused; the committed records join the
scorecard with the 9x9 record's 19x19-only rows not run."""

import json
from pathlib import Path

import pandas as pd
import pytest

from mctslab import record_card, records
from mctslab.core.compare import INCONCLUSIVE, NOT_RUN
from mctslab.core.store import ResultStore, write_json
from mctslab.go import experiments, gnugo, record_runs
from mctslab.go.match import Player, match_tasks

ROOT = Path(__file__).resolve().parents[2] / "records"


def _result(won: bool) -> dict:
    return dict(candidate_won=won, moves=200, end="passes", area_agrees=True,
                think_candidate=3.0, think_opponent=1.0, cpu_candidate=2.0, cpu_opponent=1.0,
                restarts=0, candidate_counts={}, sgf="(;FF[4])")


def _match(folder: Path, candidate: Player, games: int, wins: int, seed: int = 7,
           size: int = 19) -> None:
    """A match folder as ``mctslab go match --out`` leaves it: its store and summary."""
    tasks = match_tasks(candidate, Player("gnugo", level=10), games, size=size, seed=seed)
    store = ResultStore(folder / "data" / "results" / f"go_match_{candidate.label}")
    for i, task in enumerate(tasks):
        store.append(dict(task.describe(), result=_result(i < wins), seconds=10.0))
    write_json(folder / "summary.json", {"games": games, "wins": wins})


@pytest.fixture
def with_gnugo(monkeypatch):
    monkeypatch.setattr(gnugo, "gnugo_missing", lambda: None)  # nothing is played anyway


def test_a_match_record_becomes_a_notebook_record(tmp_path, with_gnugo):
    cfg = experiments.config("paper")
    matches = tmp_path / "matches"
    _match(matches / "host", Player("mcts", engine=cfg.engine("gnugo-uct")), 4, 1)
    _match(matches / "mc", Player("gnugo-mc", level=10, simulations=8000), 4, 2)
    label = record_runs.write("table2-19x19", tmp_path / "out", matches=matches)
    folder = records.save("go_state_tabu", tmp_path / "out", root=tmp_path / "records",
                          label=label)
    assert folder.name.startswith("paper-19x19-table2-")
    info = json.loads((folder / "record.json").read_text())
    assert info["seed"] == 7 and info["cpu_seconds"] == 80.0  # the 8 stored games' seconds
    assert records.check_record(folder).ok
    table = pd.read_csv(folder / "paper_vs_run.csv").set_index(["artefact", "row", "column"])
    uct = table.loc[("Table 2", "gnugo-uct", "win rate")]
    assert uct.note == "1 of 4 games; exact binomial p = 0.357 against the paper's 0.519"
    assert uct.verdict == NOT_RUN  # 4 games, below the target's 100
    assert set(table.index.get_level_values(0)) == {"Table 1", "Table 2", "Sec. 5.1",
                                                    "Sec. 5.2"}  # only what the games used
    validation = pd.read_csv(folder / "validation.csv")
    assert list(validation.method) == ["gnugo-mc L10", "gnugo-uct"]


def test_games_that_are_not_the_notebooks_are_refused(tmp_path, with_gnugo):
    engine = experiments.config("paper").engine("gnugo-uct")
    _match(tmp_path / "m" / "host", Player("mcts", engine=engine), 2, 1, size=13)
    with pytest.raises(ValueError, match="not in the match record"):
        record_runs.table2_19x19(tmp_path / "m", tmp_path / "out")
    assert not (tmp_path / "out" / "figures").exists()  # refused before the run began


COMMITTED = ROOT / "go_state_tabu" / "paper-19x19-table2-2026-11-28"


@pytest.mark.skipif(not COMMITTED.is_dir(), reason="no committed 19x19 Table 2 record")
def test_the_records_card_judges_19x19_rows_on_19x19_games():
    rows, _, used, readings = record_card._paper_rows(ROOT, "go_state_tabu", "paper")
    by_key = {(r["artefact"], r["row"], r["column"]): r for r in rows}
    uct = by_key[("Table 2", "gnugo-uct", "win rate")]
    assert uct["verdict"] == INCONCLUSIVE and "p = 0.0209" in uct["note"]
    assert by_key[("Eq. 8", "L = 18, 19x19", "tabu size at moves 1-90")]["verdict"] == NOT_RUN
    assert by_key[("Table 2", "gTabu18", "win rate")]["verdict"] == NOT_RUN  # 9x9 games
    assert "go_state_tabu/paper-19x19-table2-2026-11-28" in used
    assert {r["reading"] for r in readings} <= {"uniform-redraw"}


def test_the_uniform_redraw_reading_runs_at_the_notebooks_seed(tmp_path, monkeypatch):
    """The reading's searches are the notebook's tasks: its seed (mctslab.go.plans)."""
    seeds = []

    def stop(run, cfg):
        seeds.append(run.seed)
        raise RuntimeError("stop")

    monkeypatch.setattr(experiments, "run_duplicates", stop)
    with pytest.raises(RuntimeError, match="stop"):
        record_runs.uniform_redraw(tmp_path / "out")
    assert seeds == [20261123]
