"""Two notebooks at a time (``mctslab reproduce`` with two workers or more): lanes, their
workers, the manifests, and a stop signal in the middle of both."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pandas as pd
import pytest

import mctslab
from mctslab import pipeline
from mctslab.core import schedule, targets
from tests.core import demo
from tests.core.demo import importable_env

PARAMETERS = ('scale = "default"  # smoke | default | paper\nseed = 1  # experiment seed\n'
              'workers = None  # local processes\nscheduler = None  # Dask address\n'
              'out = None  # output root\nsize = 3  # number of tasks\n'
              'sleep = 0.0  # seconds per task')


def _notebook(folder: Path, name: str) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    cells = [nbformat.v4.new_code_cell(PARAMETERS), nbformat.v4.new_code_cell(
        "import pandas as pd\nfrom mctslab.core.report import Run\n"
        "from mctslab.core.tasks import make_tasks\n"
        f"run = Run({name!r}, {{'size': size}}, scale=scale, seed=seed, workers=workers, "
        "scheduler=scheduler, out=out)\n"
        f"results = run.map({name!r}, make_tasks('tests.core.demo:square_with_noise', "
        "[{'x': i, 'sleep': sleep} for i in range(size)], seed))\n"
        "run.table(pd.DataFrame(list(results)), 'squares')")]
    cells[0].metadata["tags"] = ["parameters"]
    nb.cells = cells
    nbformat.write(nb, folder / f"{name}.ipynb")


@pytest.fixture
def two_toys(tmp_path, monkeypatch):
    project = tmp_path / "project"
    (project / "notebooks").mkdir(parents=True)
    for name in ("toy_a", "toy_b"):
        _notebook(project / "notebooks", name)
    monkeypatch.setenv("MCTSLAB_HOME", str(project))
    monkeypatch.setenv("MCTSLAB_PROGRESS", "0")
    monkeypatch.setenv("PYTHONPATH", importable_env()["PYTHONPATH"])
    monkeypatch.delenv("MCTSLAB_SCHEDULER", raising=False)
    return project


def test_lanes_are_two_at_most_and_one_per_worker_or_notebook():
    five = list(pipeline.LANE_ORDER)
    assert pipeline.lanes(five, workers=2) == 2
    assert pipeline.lanes(five, workers=8) == 2
    assert pipeline.lanes(five, workers=1) == 1
    assert pipeline.lanes(five[:1], workers=2) == 1
    assert pipeline.lanes(five, workers=2, scheduler="tcp://127.0.0.1:8786") == 1
    assert sorted(pipeline.LANE_ORDER) == sorted(pipeline.CONFIGS)  # every paper notebook


def test_the_warm_up_and_the_lanes_are_derived_from_the_one_list():
    """Every domain of mctslab.NOTEBOOKS is warmed up and run, in the order its measured costs
    give: Many Faces in Go's process, the largest compile first; the lanes' order the one that
    ends soonest on 2 lanes (506 s of default-scale CPU where longest first ends at 520 s)."""
    assert pipeline.WARM_UP_GROUPS == (("go", "manyfaces"), ("sudoku",), ("tsp",), ("othello",))
    assert pipeline.LANE_ORDER == ("go_state_tabu", "sudoku_less_clue", "othello_wpc_de",
                                   "tsp_mcts_vs_sa", "manyfaces_knowledge")
    assert sorted(d for g in pipeline.WARM_UP_GROUPS for d in g) == sorted(mctslab.DOMAINS)
    assert sorted(pipeline.LANE_ORDER) == sorted(mctslab.NOTEBOOKS.values())
    seconds = {d: schedule.DOMAIN_COSTS[d].default_s for d in mctslab.DOMAINS}
    by_notebook = {mctslab.NOTEBOOKS[d]: s for d, s in seconds.items()}
    assert schedule._makespan([by_notebook[n] for n in pipeline.LANE_ORDER], 2) == 506
    assert schedule._makespan(sorted(seconds.values(), reverse=True), 2) == 520


def test_a_domain_without_its_costs_is_an_error_not_a_silent_drop(monkeypatch):
    sixth = dict(mctslab.NOTEBOOKS, toy="toy_notebook")
    for derive in (schedule.domain_costs, schedule.warm_up_order, schedule.lane_order):
        with pytest.raises(ValueError, match="no costs for toy"):
            derive(sixth)
    with pytest.raises(ValueError, match="costs of no domain: othello"):
        schedule.domain_costs({d: n for d, n in mctslab.NOTEBOOKS.items() if d != "othello"})
    monkeypatch.setitem(schedule.DOMAIN_COSTS, "toy", schedule.DomainCost(1, 50))
    assert schedule.warm_up_order(sixth)[-1] == ("toy",)
    assert "toy_notebook" in schedule.lane_order(sixth)
    # a notebook of a domain the derived groups do not know (NOTEBOOKS changed after import)
    monkeypatch.setitem(targets.DOMAINS, "toy_notebook", "toy")
    with pytest.raises(ValueError, match="WARM_UP_GROUPS has no group for toy"):
        pipeline.warm_up_groups(["go_state_tabu", "toy_notebook"])
    assert pipeline.warm_up_groups(["manyfaces_knowledge", "toy_a"]) == [("manyfaces",)]


def _manifest(out: Path, name: str) -> dict:
    return json.loads((out / "figures" / name / "manifest.json").read_text())


def test_two_notebooks_run_side_by_side_with_a_worker_each(two_toys, tmp_path, monkeypatch):
    out = tmp_path / "out"
    # side by side: every task waits until a task of the other notebook's process has started,
    # so run one after the other the first notebook's tasks would never finish (whatever the load)
    monkeypatch.setenv(demo.MEET, str(tmp_path / "meet"))
    outcomes = pipeline.reproduce(["toy_a", "toy_b"], "smoke", {"size": 4},
                                  workers=2, out=out, progress=False)
    assert [(o.name, o.ok) for o in outcomes] == [("toy_a", True), ("toy_b", True)]
    assert len(list((tmp_path / "meet").iterdir())) >= 2  # the tasks met
    a, b = _manifest(out, "toy_a"), _manifest(out, "toy_b")
    assert a["status"] == b["status"] == "complete"
    assert a["execution"]["workers"] == b["execution"]["workers"] == 1
    for name in ("toy_a", "toy_b"):
        table = pd.read_csv(out / "figures" / name / "squares.csv")
        assert list(table["square"]) == [0, 1, 4, 9]


def _stored(out: Path) -> int:
    return sum(len(p.read_text().splitlines())
               for p in (out / "data" / "results").glob("*/results.jsonl"))


@pytest.mark.reruns  # a stop-signal test: in make test-reruns, with the notebooks' one
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_stop_ends_both_notebooks_with_one_line_and_the_rerun_completes(two_toys, tmp_path):
    from tests.notebooks.test_stop_and_dask import _alive, _descendants

    out = tmp_path / "out"
    command = [sys.executable, "-m", "mctslab.cli", "reproduce", "toy_a", "toy_b", "--scale",
               "smoke", "--workers", "2", "--out", str(out), "--quiet", "-p", "size", "6",
               "-p", "sleep", "1.5"]
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env=dict(os.environ), start_new_session=True)
    seen: set = set()
    deadline = time.monotonic() + 120
    while _stored(out) < 2:  # both lanes are under way
        assert run.poll() is None, "the run ended before it could be stopped"
        assert time.monotonic() < deadline, "no two tasks stored in 120 s"
        seen |= _descendants(run.pid)
        time.sleep(0.1)
    seen |= _descendants(run.pid)
    assert len(seen) >= 2, seen  # two kernels at least
    run.send_signal(signal.SIGTERM)
    _, stderr = run.communicate(timeout=60)
    gone_by = time.monotonic() + 10
    while _alive(seen) and time.monotonic() < gone_by:
        time.sleep(0.2)
    assert _alive(seen) == [], "processes survived the run by 10 s"
    assert run.returncode == 128 + signal.SIGTERM, stderr
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 2 and lines[0].startswith("reproducing toy_a, toy_b"), stderr
    assert lines[1].startswith("mctslab: interrupted (SIGTERM); ")
    assert lines[1].endswith("resume with: " + "mctslab reproduce toy_a toy_b --scale smoke "
                             f"--workers 2 --out {out} --quiet -p size 6 -p sleep 1.5")
    statuses = {_manifest(out, name)["status"] for name in ("toy_a", "toy_b")}
    assert statuses == {"interrupted"}, statuses
    stored = _stored(out)
    assert 2 <= stored < 12
    again = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    for name in ("toy_a", "toy_b"):
        assert _manifest(out, name)["status"] == "complete"
        assert _manifest(out, name)["experiments"][name]["already_stored"] >= 1
    assert _stored(out) == 12  # nothing stored twice
