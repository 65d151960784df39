"""The executor: in-process, local pool, Dask, failures, and a real kill-and-resume."""

import hashlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from mctslab.core.executor import TaskFailed, run_tasks
from mctslab.core.store import ResultStore
from mctslab.core.tasks import make_tasks
from tests.core.demo import importable_env

FN = "tests.core.demo:square_with_noise"


def _stable(results):
    return [{k: v for k, v in r.items() if k != "pid"} for r in results]


def test_in_process_and_pool_give_the_same_results(tmp_path):
    tasks = make_tasks(FN, [{"x": i} for i in range(6)], seed=3)
    serial = run_tasks("serial", tasks, workers=1, out=tmp_path, progress=False)
    pooled = run_tasks("pooled", tasks, workers=2, out=tmp_path, progress=False)
    assert serial.backend == "in-process" and pooled.backend.startswith("processes")
    assert _stable(serial) == _stable(pooled)
    assert [r["square"] for r in serial] == [i * i for i in range(6)]


def test_the_local_pool_is_kept_for_the_next_experiment(tmp_path):
    """Workers cost seconds to start and load their kernels: a second experiment in the same
    process runs on the first one's workers; a stop or a dead worker discards them."""
    from mctslab.core import executor

    first = run_tasks("one", make_tasks(FN, [{"x": i} for i in range(6)], seed=1), workers=2,
                      out=tmp_path, progress=False)
    pool = executor._POOL
    # the pool's workers, not the first run's pids: on a busy machine one worker can take
    # all six millisecond tasks before the other has started
    pids = set(pool._processes)
    second = run_tasks("two", make_tasks(FN, [{"x": i} for i in range(6)], seed=2), workers=2,
                       out=tmp_path, progress=False)
    assert executor._POOL is pool and os.getpid() not in pids
    assert {r["pid"] for r in first} <= pids and {r["pid"] for r in second} <= set(pool._processes)
    pids |= set(pool._processes)
    executor.discard_pool()
    third = run_tasks("three", make_tasks(FN, [{"x": i} for i in range(6)], seed=3), workers=2,
                      out=tmp_path, progress=False)
    assert not {r["pid"] for r in third} & pids


def test_rerun_skips_stored_tasks(tmp_path):
    tasks = make_tasks(FN, [{"x": i} for i in range(4)], seed=1)
    first = run_tasks("exp", tasks, workers=1, out=tmp_path, progress=False)
    more = tasks + make_tasks(FN, [{"x": 10}], seed=2)
    second = run_tasks("exp", more, workers=1, out=tmp_path, progress=False)
    assert (second.cached, second.ran, second.total) == (4, 1, 5)
    assert list(second)[:4] == list(first)
    lines = (tmp_path / "data/results/exp/results.jsonl").read_text().splitlines()
    assert len(lines) == 5
    third = run_tasks("exp", more, workers=2, out=tmp_path, progress=False)
    assert (third.backend, third.cached, third.ran) == ("store", 5, 0)


def test_failures_are_reported_after_the_others_are_stored(tmp_path):
    tasks = make_tasks("tests.core.demo:fail_on_three", [{"x": i} for i in range(5)], seed=0)
    with pytest.raises(TaskFailed, match="three is not allowed") as info:
        run_tasks("fails", tasks, workers=2, out=tmp_path, progress=False)
    assert len(info.value.failures) == 1
    stored = ResultStore(tmp_path / "data/results/fails").load()
    assert sorted(r["result"]["x"] for r in stored.values()) == [0, 1, 2, 4]


KILL_SCRIPT = textwrap.dedent("""
    import sys
    from mctslab.core.executor import run_tasks
    from mctslab.core.tasks import make_tasks
    if __name__ == "__main__":
        tasks = make_tasks("tests.core.demo:square_with_noise",
                           [{"x": i, "sleep": 0.4} for i in range(12)], seed=11)
        run_tasks("killme", tasks, workers=2, out=sys.argv[1], progress=False)
""")


def test_sigkill_mid_run_then_resume_equals_uninterrupted(tmp_path):
    script = tmp_path / "run.py"
    script.write_text(KILL_SCRIPT)
    killed_out, clean_out = tmp_path / "killed", tmp_path / "clean"
    results = killed_out / "data/results/killme/results.jsonl"
    proc = subprocess.Popen([sys.executable, str(script), str(killed_out)], start_new_session=True,
                            env=importable_env())
    deadline = time.time() + 120
    while time.time() < deadline:
        if results.exists() and len(results.read_text().splitlines()) >= 3:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # the whole group: the client and its pool workers
    proc.wait()
    done_before = len(results.read_text().splitlines())
    assert 3 <= done_before < 12, "the kill must land mid-run"

    subprocess.run([sys.executable, str(script), str(killed_out)], check=True, timeout=180,
                   env=importable_env())
    subprocess.run([sys.executable, str(script), str(clean_out)], check=True, timeout=180,
                   env=importable_env())

    def load(out):
        lines = (out / "data/results/killme/results.jsonl").read_text().splitlines()
        records = [json.loads(line) for line in lines if line.strip()]
        return records

    resumed, clean = load(killed_out), load(clean_out)
    assert len(resumed) == 12 == len({r["id"] for r in resumed})  # nothing lost or duplicated
    by_id = {r["id"]: _stable([r["result"]])[0] for r in clean}
    assert {r["id"]: _stable([r["result"]])[0] for r in resumed} == by_id


def test_dask_local_cluster_with_two_workers(tmp_path):
    import distributed  # a dependency of mctslab (never skipped); imported here: 1 s to import
    tasks = make_tasks(FN, [{"x": i, "sleep": 0.05} for i in range(6)], seed=5)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        results = run_tasks("dask", tasks, scheduler=cluster.scheduler_address, out=tmp_path,
                            progress=False)
    assert results.backend.startswith("dask:")
    local = run_tasks("local", tasks, workers=1, out=tmp_path, progress=False)
    assert _stable(results) == _stable(local)
    assert len({r["pid"] for r in results} - {os.getpid()}) >= 1  # ran on the cluster's workers


def test_a_bumped_task_version_reruns_its_tasks_and_only_those(tmp_path, capsys, monkeypatch):
    from mctslab import cli
    from mctslab.core.tasks import task_version
    from tests.core import demo

    unchanged_fn = "tests.core.demo:fail_on_three"
    before = make_tasks(FN, [{"x": 1}], seed=1) + make_tasks(unchanged_fn, [{"x": 1}], seed=1)
    first = run_tasks("versioned", before, workers=1, out=tmp_path, progress=False)
    assert (first.ran, first.cached) == (2, 0)
    # an unmarked function keeps the id it had before versions existed (existing stores stay)
    legacy = json.dumps({"fn": FN, "params": {"x": 1}, "seed": 1, "spawn_key": [0]},
                        sort_keys=True, separators=(",", ":"))
    assert before[0].id == hashlib.sha256(legacy.encode()).hexdigest()[:20]
    # the code of square_with_noise changes what it computes, and its author bumps the version
    monkeypatch.setattr(demo, "square_with_noise", task_version("2")(
        lambda params, seed: {"x": params["x"], "square": -1}))
    after = make_tasks(FN, [{"x": 1}], seed=1) + make_tasks(unchanged_fn, [{"x": 1}], seed=1)
    assert after[0].version == "2" and after[0].id != before[0].id
    assert after[1].id == before[1].id
    second = run_tasks("versioned", after, workers=1, out=tmp_path, progress=False)
    assert (second.ran, second.cached) == (1, 1)  # the changed one ran again, the other did not
    assert second[0]["square"] == -1 and "noise" not in second[0]  # not the stale result
    assert run_tasks("versioned", after, workers=1, out=tmp_path, progress=False).ran == 0
    summary = second.summary()
    assert summary["task_seconds"] >= 0 and summary["last_finished"]
    assert cli.main(["results", "--out", str(tmp_path)]) == 0
    assert "versioned" in capsys.readouterr().out
    assert cli.main(["results", "--out", str(tmp_path), "--clean", "versioned"]) == 0
    assert not (tmp_path / "data/results/versioned").exists()
    assert cli.main(["results", "--out", str(tmp_path), "--clean", "versioned"]) == 2



def _sigint_ignored_at_birth(_):
    """In a pool worker started with no initializer: is SIGINT ignored?"""
    return signal.getsignal(signal.SIGINT) == signal.SIG_IGN


def test_workers_are_born_ignoring_ctrl_c_and_the_parent_is_not():
    """A Ctrl-C to the process group while a worker still imports must not print its traceback
    (CI saw one from multiprocessing's spawn_main): processes started inside
    children_ignore_sigint ignore SIGINT from their first instruction, and the parent's handler
    is back afterwards."""
    import concurrent.futures as cf
    import multiprocessing

    from mctslab.core.stopping import children_ignore_sigint

    before = signal.getsignal(signal.SIGINT)
    spawn = multiprocessing.get_context("spawn")
    with children_ignore_sigint():
        pool = cf.ProcessPoolExecutor(1, mp_context=spawn)  # no initializer: born so
        future = pool.submit(_sigint_ignored_at_birth, False)
    assert signal.getsignal(signal.SIGINT) is before
    with pool:
        assert future.result(timeout=120) is True
    with cf.ProcessPoolExecutor(1, mp_context=spawn) as pool:  # the control: not born so
        assert pool.submit(_sigint_ignored_at_birth, False).result(timeout=120) is False
