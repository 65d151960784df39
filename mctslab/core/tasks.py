"""Experiments as lists of independent tasks.

A :class:`Task` names a module-level function (``"package.module:function"``), its parameters
(JSON-serialisable) and its seed. Its :attr:`Task.id` is a hash of all three, so the same task
always has the same id: that is what lets the result store skip work already done.

Task versions. A task function that has been changed so that it computes something else (other
numbers, other keys) is marked with :func:`task_version`::

    @task_version("2")   # 2: the reduced counts come from re-verified puzzles only
    def generation_task(params, seed): ...

The version enters the id of every task of that function, so results stored by the old code are
not reused (they stay in the store, unread; ``mctslab results --clean EXPERIMENT`` removes them).
An unmarked function has version ``""``, which leaves its ids exactly as they were before
versions existed, so a store written then is still read. We chose an explicit, hand-bumped
version over a hash of the function's source or of its result's keys: a source hash would throw
away stored results on every comment or refactor (and miss changes in the kernels it calls), and a
key hash misses a change of numbers under the same keys; the author of a change knows whether it
changes results, and a test (``tests/core/test_executor.py``) checks that a bump is honoured.

Renamed task functions. A task's id hashes its function's name, so renaming a task function
would orphan every stored result of it. A renamed function says what it was called with
:func:`task_renamed`, where it is defined::

    @task_version("2")
    @task_renamed("mctslab.sudoku.experiments:run_generation")  # its former name
    def generation_task(params, seed): ...

Its tasks' ids hash the former name (so the stored results, and the ids recorded in
``tests/fixtures/task_ids.json``, are found), while the task's ``fn`` is the new name; and
:func:`resolve` turns the former ``"module:function"`` into the renamed function, so a task
written with the old name (a stored record, a queued task of a Dask worker) still runs. A name
that was a task function's is not given to another function of its module (the domain contract
test checks it). The declaration stays as long as the function: renamed again, it keeps its
first name, the one the ids know.

Task functions have the signature ``fn(params: dict, seed: numpy.random.SeedSequence) -> dict``.

Per-task seeds come from one experiment seed: task ``i`` of :func:`make_tasks` gets
``SeedSequence(seed, spawn_key=(i,))``, which is exactly ``SeedSequence(seed).spawn(n)[i]``.
That is stable when a list only grows at its end (more repetitions, more games). A list that
grows anywhere else (a new instance, a new published WPC, a subset of variants) gives each
task a key of its own with :func:`keyed_tasks`: ``task_key("eil51", 2)`` is a spawn key made
from what the task *is* (integers as they are, a text as its CRC-32), so its seed does not
depend on its position, and adding or dropping other tasks changes no seed and no id. Keys of
different experiments of one notebook start with a different integer (a stream number) when
their tasks could otherwise collide.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mctslab.core.store import to_jsonable

__all__ = ["Task", "make_tasks", "keyed_tasks", "task_key", "resolve", "run_task",
           "task_version", "task_renamed"]


def _canonical_json(obj: Any) -> str:
    return json.dumps(to_jsonable(obj), sort_keys=True, separators=(",", ":"))


def task_version(version: str):
    """Mark a task function with a version (a short string, e.g. ``"2"``) that enters its tasks'
    ids: bump it when a change makes the function compute something else (see the module
    docstring), and say in a comment what changed."""
    version = str(version)
    if not version:
        raise ValueError("a task version must be a non-empty string")

    def mark(fn):
        fn.task_version = version
        return fn

    return mark


def task_renamed(former: str):
    """Mark a task function renamed from ``former`` (its ``"module:function"`` before the
    rename): its tasks' ids keep hashing ``former``, and :func:`resolve` finds the function
    under that name too (see the module docstring)."""
    module, colon, name = former.partition(":")
    if not (module and colon and name.isidentifier()):
        raise ValueError(f"a former task name is 'module:function', got {former!r}")

    def mark(fn):
        if f"{fn.__module__}:{fn.__name__}" == former:
            raise ValueError(f"{former} is the function's name, not a former one")
        fn.task_id_name = former
        return fn

    return mark


def function_version(fn: str) -> str:
    """The :func:`task_version` of the task function ``"module:function"`` (``""`` if unmarked)."""
    return str(getattr(resolve(fn), "task_version", ""))


def function_id_name(fn: str) -> str:
    """The name the ids of ``fn``'s tasks hash: its :func:`task_renamed` former name, or
    ``fn`` itself."""
    return str(getattr(resolve(fn), "task_id_name", fn))


@dataclass(frozen=True)
class Task:
    """One independent unit of work: ``fn(params, SeedSequence(seed, spawn_key=spawn_key))``.

    ``version`` defaults to the function's :func:`task_version`, ``id_name`` (the name the id
    hashes) to its :func:`task_renamed` former name or ``fn`` (the function is imported to read
    them, so a misspelt function fails here, not in a worker).
    """

    fn: str
    params: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    spawn_key: tuple[int, ...] = ()
    version: str | None = None
    id_name: str | None = None

    def __post_init__(self):
        if ":" not in self.fn:
            raise ValueError(f"task function must be 'module:function', got {self.fn!r}")
        object.__setattr__(self, "params", dict(self.params))
        object.__setattr__(self, "spawn_key", tuple(int(k) for k in self.spawn_key))
        if self.version is None:
            object.__setattr__(self, "version", function_version(self.fn))
        if self.id_name is None:
            object.__setattr__(self, "id_name", function_id_name(self.fn))

    @property
    def id(self) -> str:
        # a renamed function's tasks hash its former name: their stored results stay found
        identity = {"fn": self.id_name, "params": self.params, "seed": int(self.seed),
                    "spawn_key": list(self.spawn_key)}
        if self.version:  # unversioned functions keep the ids they had before versions existed
            identity["version"] = self.version
        payload = _canonical_json(identity)
        return hashlib.sha256(payload.encode()).hexdigest()[:20]

    def seed_sequence(self) -> np.random.SeedSequence:
        return np.random.SeedSequence(int(self.seed), spawn_key=self.spawn_key)

    def describe(self) -> dict:
        return {"id": self.id, "fn": self.fn, "params": to_jsonable(self.params),
                "seed": int(self.seed), "spawn_key": list(self.spawn_key),
                "version": self.version}


def make_tasks(fn: str, param_list: Iterable[Mapping[str, Any]], seed: int) -> list[Task]:
    """One task per parameter dict; task ``i`` gets the ``i``-th seed spawned from ``seed``.

    Every task carries the function's :func:`task_version` and id name (parts of its id).
    """
    version, id_name = function_version(fn), function_id_name(fn)
    return [Task(fn, params, int(seed), (i,), version, id_name)
            for i, params in enumerate(param_list)]


def task_key(*parts: int | str) -> tuple[int, ...]:
    """A spawn key made from what a task is: each integer as it is, each text as its CRC-32
    (``zlib.crc32`` of its UTF-8 bytes), e.g. ``task_key(2, "eil51")`` = ``(2, 2310906418)``."""
    key = []
    for part in parts:
        if isinstance(part, str):
            key.append(zlib.crc32(part.encode()))
        elif isinstance(part, (int, np.integer)) and not isinstance(part, bool):
            key.append(int(part))
        else:
            raise TypeError(f"a task key part is an int or a str, got {part!r}")
    return tuple(key)


def keyed_tasks(fn: str, param_list: Iterable[Mapping[str, Any]],
                keys: Iterable[tuple[int, ...]], seed: int) -> list[Task]:
    """One task per parameter dict, task ``i`` seeded by ``SeedSequence(seed,
    spawn_key=keys[i])`` (a :func:`task_key`): seeds of their own, whatever the list's order."""
    version, id_name = function_version(fn), function_id_name(fn)
    param_list, keys = list(param_list), [tuple(k) for k in keys]
    if len(param_list) != len(keys):
        raise ValueError(f"{len(param_list)} parameter dicts but {len(keys)} keys")
    return [Task(fn, params, int(seed), key, version, id_name)
            for params, key in zip(param_list, keys)]


def resolve(fn: str):
    """Import ``"module:function"`` and return the function (clear error when missing); a
    former name (:func:`task_renamed`) returns the renamed function."""
    module_name, _, attr = fn.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ImportError(f"task function {fn!r}: cannot import module {module_name!r}: {exc}") from exc
    renamed = renamed_functions(module)
    if fn in renamed:
        return renamed[fn]
    try:
        return getattr(module, attr)
    except AttributeError:
        raise AttributeError(f"task function {fn!r}: module {module_name!r} has no {attr!r}") from None


def renamed_functions(module) -> dict:
    """``{former "module:function": function}`` of the module's renamed task functions."""
    return {f.task_id_name: f for f in vars(module).values()
            if callable(f) and isinstance(getattr(f, "task_id_name", None), str)}


def run_task(task: Task) -> dict:
    """Run one task in the current process and return its JSON-ready result."""
    result = resolve(task.fn)(dict(task.params), task.seed_sequence())
    return to_jsonable(result)
