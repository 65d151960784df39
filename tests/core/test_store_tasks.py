"""Task ids, seeds and the append-only result store."""

import json

import numpy as np
import pytest

from mctslab.core.store import ResultStore, to_jsonable
from mctslab.core.tasks import Task, keyed_tasks, make_tasks, resolve, run_task, task_renamed
from tests.core import demo


def test_task_id_is_stable_and_sensitive():
    a = Task("tests.core.demo:square_with_noise", {"x": 1, "y": [1, 2]}, 5, (0,))
    b = Task("tests.core.demo:square_with_noise", {"y": [1, 2], "x": 1}, 5, (0,))
    assert a.id == b.id  # key order does not matter
    assert a.id != Task(a.fn, {"x": 2, "y": [1, 2]}, 5, (0,)).id
    assert a.id != Task(a.fn, a.params, 6, (0,)).id
    assert a.id != Task(a.fn, a.params, 5, (1,)).id


def test_make_tasks_spawns_seeds_like_seedsequence():
    tasks = make_tasks("tests.core.demo:square_with_noise", [{"x": i} for i in range(3)], seed=9)
    children = np.random.SeedSequence(9).spawn(3)
    for task, child in zip(tasks, children):
        assert task.seed_sequence().generate_state(4).tolist() == child.generate_state(4).tolist()
    assert run_task(tasks[2])["square"] == 4
    assert run_task(tasks[2]) == run_task(tasks[2])  # same seed, same result (pid aside)


def test_bad_task_functions_are_named():
    with pytest.raises(ValueError, match="module:function"):
        Task("no_colon")
    with pytest.raises(ImportError, match="no_such_module"):
        resolve("no_such_module:f")
    with pytest.raises(AttributeError, match="nope"):
        resolve("tests.core.demo:nope")


def test_a_renamed_task_function_keeps_its_ids_and_its_former_name(monkeypatch):
    """A task function renamed with @task_renamed(former) keeps the ids its tasks had
    (they hash the former name, so stored results are found), its tasks name the new function,
    and a task written with the former name (a stored record, a queued task) still runs it."""
    params = [{"x": 1}, {"x": 2}]
    before = make_tasks("tests.core.demo:square_with_noise", params, seed=3)
    keyed_before = keyed_tasks("tests.core.demo:square_with_noise", params, [(7,), (8,)], 3)

    original = demo.square_with_noise

    def squared_task(params, seed):
        return original(params, seed)

    squared_task.__module__ = "tests.core.demo"
    monkeypatch.setattr(demo, "squared_task",
                        task_renamed("tests.core.demo:square_with_noise")(squared_task),
                        raising=False)
    monkeypatch.delattr(demo, "square_with_noise")
    after = make_tasks("tests.core.demo:squared_task", params, seed=3)
    keyed_after = keyed_tasks("tests.core.demo:squared_task", params, [(7,), (8,)], 3)
    assert [t.id for t in after] == [t.id for t in before]
    assert [t.id for t in keyed_after] == [t.id for t in keyed_before]
    assert {t.fn for t in after} == {"tests.core.demo:squared_task"}
    assert Task("tests.core.demo:squared_task", {"x": 1}, 3, (0,)).id == before[0].id
    old = Task("tests.core.demo:square_with_noise", {"x": 1}, 3, (0,))  # the former name
    assert resolve(old.fn) is demo.squared_task and old.id == before[0].id
    assert run_task(old) == run_task(after[0])
    assert after[0].id != make_tasks("tests.core.demo:fail_on_three", params, 3)[0].id


def test_a_former_task_name_is_a_module_function_and_not_the_functions_own():
    with pytest.raises(ValueError, match="module:function"):
        task_renamed("square_with_noise")
    with pytest.raises(ValueError, match="not a former one"):
        task_renamed("tests.core.demo:fail_on_three")(demo.fail_on_three)


def test_to_jsonable_handles_numpy_and_non_finite():
    value = to_jsonable({"a": np.arange(3), "b": np.float32(1.5), "c": float("inf"),
                         "d": (np.int64(2), None), "e": np.bool_(True)})
    assert value == {"a": [0, 1, 2], "b": 1.5, "c": "inf", "d": [2, None], "e": True}
    json.dumps(value, allow_nan=False)
    with pytest.raises(TypeError, match="cannot store"):
        to_jsonable({"x": object()})


def test_store_appends_and_survives_a_truncated_tail(tmp_path):
    store = ResultStore(tmp_path / "exp")
    store.append({"id": "a", "result": {"v": 1}})
    store.append({"id": "b", "result": {"v": 2}})
    with open(store.path, "ab") as fh:  # what a SIGKILL during a write can leave
        fh.write(b'{"id": "c", "resu')
    with pytest.warns(UserWarning, match="truncated"):
        assert set(store.load()) == {"a", "b"}
    store.append({"id": "c", "result": {"v": 3}})
    assert {k: v["result"]["v"] for k, v in store.load().items()} == {"a": 1, "b": 2, "c": 3}


def test_store_rejects_corruption_in_the_middle(tmp_path):
    store = ResultStore(tmp_path)
    store.path.write_text('{"id": "a"}\nnot json\n{"id": "b"}\n')
    with pytest.raises(ValueError, match="line 2"):
        store.load()


def test_a_packed_store_reads_as_before_and_takes_new_tasks(tmp_path):
    store = ResultStore(tmp_path / "exp")
    for key in "ab":
        store.append({"id": key, "result": {"v": key}})
    before = store.load()
    assert store.pack() == 2 and not store.path.exists() and store.packed.exists()
    assert store.load() == before and store.exists()
    store.append({"id": "c", "result": {"v": "c"}})  # a resumed run appends beside it
    assert [r["id"] for r in store.records()] == ["a", "b", "c"]
    assert store.pack() == 1 and [r["id"] for r in store.records()] == ["a", "b", "c"]
    first = store.packed.read_bytes()
    assert store.pack() == 0 and store.packed.read_bytes() == first  # nothing more to move


def test_a_store_being_written_is_not_packed(tmp_path):
    store = ResultStore(tmp_path)
    store.path.write_bytes(b'{"id": "a"}\n{"id": "b", "resu')
    with pytest.raises(ValueError, match="unfinished"):
        store.pack()
    assert store.path.exists() and not store.packed.exists()


def test_write_json_replaces_whole_files_only(tmp_path):
    from mctslab.core.store import write_json

    path = write_json(tmp_path / "m.json", {"a": np.float64(1.5), "b": float("inf")})
    assert json.loads(path.read_text()) == {"a": 1.5, "b": "inf"}  # strict JSON
    with pytest.raises(TypeError):  # cannot be serialised: the old file stays whole
        write_json(path, {"a": object()})
    assert json.loads(path.read_text()) == {"a": 1.5, "b": "inf"}
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]


def test_scale_values_and_the_shared_normalisers():
    from mctslab.core import params

    scales = {"smoke": {"n": 1}, "default": {"n": 2}, "paper": {"n": 3}}
    assert params.scale_values(scales, "paper") == {"n": 3}
    with pytest.raises(ValueError, match="unknown scale 'huge'; choose one of smoke, default"):
        params.scale_values(scales, "huge")
    with pytest.raises(ValueError, match="must be exactly smoke, default, paper"):
        params.scale_values({"smoke": {}}, "smoke")
    assert params.as_real((1, 2.5, np.int64(3))) == (1.0, 2.5, 3.0)
    assert params.as_real(True) is True and params.as_real("2") == "2"

    class Values:
        cp, rules, mode = 2.0, ("sd",), "single"

    assert params.non_default(Values, {"cp": 2.0, "rules": ("mst", "sd"), "mode": "single"}) == {
        "rules": ["sd"]}
