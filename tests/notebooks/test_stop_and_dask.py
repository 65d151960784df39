"""Stopping a real notebook run, two runs into one folder, and a real Dask cluster.

- Each stop signal (SIGINT, SIGTERM, SIGHUP, SIGKILL) goes to ``mctslab reproduce`` mid-way
  through a smoke-scale notebook: 10 s later no process it started is alive (kernel, pool
  workers, resource tracker), a caught signal printed one line, and the next run resumes. The runs
  are chained (each resumes the last), and the final one must write the tables of an
  uninterrupted run.
- A second ``reproduce`` into the same output folder stops at once, naming the first.
- A ``LocalCluster`` whose workers run in another folder, with only ``MCTSLAB_DATA`` of our
  variables set, runs a notebook through ``--scheduler`` and writes the local pool's tables.
"""

import glob
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.notebooks.conftest import ROOT, reproduce, table_differences

# Stopped mid-way: the runs need tasks of a second or more, or the pool (kept between
# experiments, so warm) finishes a smoke run in the second a killed run's kernel takes to
# notice. Sudoku at smoke scale with 5,000 playouts: 16 tasks of about 2 s, then 2 short ones.
STOPPED = "sudoku_less_clue"
STOPPED_PARAMS = ("-p", "table1_playouts", "5000", "-p", "table2_playouts", "5000")


def _stored(out: Path) -> int:
    return sum(len(Path(f).read_bytes().splitlines())
               for f in glob.glob(str(out / "data" / "results" / "*" / "results.jsonl")))


def _descendants(root: int) -> set[tuple[int, str]]:
    """(pid, start time) of every process below ``root`` (start times tell reused pids apart)."""
    children, start = {}, {}
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            text = Path(stat).read_text()
        except OSError:
            continue
        pid, rest = int(text.split()[0]), text.rsplit(")", 1)[1].split()
        children.setdefault(int(rest[1]), []).append(pid)
        start[pid] = rest[19]
    found, todo = set(), [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add((child, start[child]))
            todo.append(child)
    return found


def _alive(processes) -> list[str]:
    alive = []
    for pid, started in processes:
        try:
            text = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if text.rsplit(")", 1)[1].split()[19] == started and text.rsplit(")", 1)[1].split()[0] != "Z":
            alive.append(Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")[:100])
    return alive


def _start(out: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "mctslab.cli", "reproduce", STOPPED, "--scale", "smoke",
         "--workers", "2", "--out", str(out), "--quiet", *STOPPED_PARAMS],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env=dict(os.environ, MCTSLAB_PROGRESS="0"), start_new_session=True)


@pytest.mark.reruns
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_stop_signals_leave_no_process_and_the_rerun_completes(tmp_path_factory, tmp_path):
    uninterrupted = tmp_path_factory.mktemp("uninterrupted")
    done = reproduce(STOPPED, uninterrupted, *STOPPED_PARAMS)
    assert done.returncode == 0, done.stdout + done.stderr
    # SIGKILL first: with most tasks still to run there is a pool, whose workers must die with
    # the kernel; later runs of the chain may have one task left (run in the kernel itself)
    for number, name in enumerate(("SIGKILL", "SIGINT", "SIGTERM", "SIGHUP")):
        before = _stored(tmp_path)
        run = _start(tmp_path)
        seen: set = set()
        deadline = time.monotonic() + 300
        while _stored(tmp_path) <= before:  # mid-way: this run has stored a task of its own
            assert run.poll() is None, f"{name}: the run ended before it could be stopped"
            assert time.monotonic() < deadline, f"{name}: no task stored in 300 s"
            seen |= _descendants(run.pid)
            time.sleep(0.2)
        seen |= _descendants(run.pid)
        assert len(seen) >= (3 if name == "SIGKILL" else 1), f"{name}: saw only {seen}"
        if number == 0:  # meanwhile, a second run into the same folder stops at once
            second = subprocess.run(
                [sys.executable, "-m", "mctslab.cli", "reproduce", STOPPED, "--scale", "smoke",
                 "--out", str(tmp_path), "--quiet"], capture_output=True, text=True, cwd=ROOT,
                timeout=120)
            assert second.returncode == 2, second.stderr
            assert f"in use by run pid {run.pid}" in second.stderr, second.stderr
        run.send_signal(getattr(signal, name))
        _, stderr = run.communicate(timeout=60)
        gone_by = time.monotonic() + 10
        while _alive(seen) and time.monotonic() < gone_by:
            time.sleep(0.2)
        assert _alive(seen) == [], f"{name}: processes survived the run by 10 s"
        if name == "SIGKILL":
            assert run.returncode == -signal.SIGKILL
            continue
        assert run.returncode == 128 + getattr(signal, name), stderr
        assert "Traceback" not in stderr, stderr
        last = stderr.strip().splitlines()[-1]
        assert last.startswith(f"mctslab: interrupted ({name}); ") and " tasks of experiment " in last
        assert f"resume with: mctslab reproduce {STOPPED} --scale smoke" in last
    final = _start(tmp_path)
    stdout, stderr = final.communicate(timeout=900)
    assert final.returncode == 0, stdout + stderr
    assert table_differences(STOPPED, uninterrupted, tmp_path) == []
    for path in glob.glob(str(tmp_path / "data" / "results" / "*" / "results.jsonl")):
        ids = [json.loads(line)["id"] for line in Path(path).read_text().splitlines()]
        assert len(ids) == len(set(ids)), f"{path}: a task stored twice"


DASKED = "sudoku_less_clue"

CLUSTER = """
import sys
from distributed import LocalCluster
cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
print(cluster.scheduler_address, flush=True)
sys.stdin.read()   # until the test closes our stdin
cluster.close()
"""


@pytest.mark.reruns
def test_a_dask_cluster_writes_the_local_pools_tables(smoke_run, tmp_path):
    local, done = smoke_run(DASKED)
    assert done.returncode == 0, done.stdout + done.stderr
    workdir = tmp_path / "elsewhere"
    workdir.mkdir()
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(workdir),
           "MCTSLAB_DATA": str(ROOT / "data")}
    cluster = subprocess.Popen([sys.executable, "-c", CLUSTER], cwd=workdir, env=env,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        address = cluster.stdout.readline().strip()
        assert address.startswith("tcp://"), address
        out = tmp_path / "out"
        run = subprocess.run(
            [sys.executable, "-m", "mctslab.cli", "reproduce", DASKED, "--scale", "smoke",
             "--scheduler", address, "--out", str(out), "--quiet"],
            capture_output=True, text=True, cwd=ROOT, timeout=900,
            env=dict(os.environ, MCTSLAB_PROGRESS="0"))
        assert run.returncode == 0, run.stdout + run.stderr
    finally:
        cluster.stdin.close()
        cluster.wait(timeout=60)
    manifest = json.loads((out / "figures" / DASKED / "manifest.json").read_text())
    backends = {e["backend"] for e in manifest["experiments"].values()}
    assert backends == {f"dask:{address}"}, backends
    assert table_differences(DASKED, local, out) == []


def test_an_unreachable_scheduler_is_one_line_before_anything_runs(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "mctslab.cli", "reproduce", DASKED, "--scale", "smoke",
         "--scheduler", "tcp://127.0.0.1:1", "--out", str(tmp_path)],
        capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 2
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert lines == ["mctslab reproduce: cannot reach the Dask scheduler at tcp://127.0.0.1:1: "
                     "Connection refused"], run.stderr
    assert not (tmp_path / "reports").exists() and not (tmp_path / "figures").exists()
