"""Experiments as lists of independent tasks.

A :class:`Task` names a module-level function (``"package.module:function"``), its parameters
(JSON-serialisable) and its seed. Its :attr:`Task.id` is a hash of all three, so the same task
always has the same id: that is what lets the result store skip work already done.

Task versions. A task function that has been changed so that it computes something else (other
numbers, other keys) is marked with :func:`task_version`::

    @task_version("2")   # 2: the reduced counts come from re-verified puzzles only
    def run_generation(params, seed): ...

The version enters the id of every task of that function, so results stored by the old code are
not reused (they stay in the store, unread; ``mctslab results --clean EXPERIMENT`` removes them).
An unmarked function has version ``""``, which leaves its ids exactly as they were before
versions existed, so a store written then is still read. We chose an explicit, hand-bumped
version over a hash of the function's source or of its result's keys: a source hash would throw
away stored results on every comment or refactor (and miss changes in the kernels it calls), and a
key hash misses a change of numbers under the same keys; the author of a change knows whether it
changes results, and a test (``tests/core/test_executor.py``) checks that a bump is honoured.

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
           "task_version"]


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


def function_version(fn: str) -> str:
    """The :func:`task_version` of the task function ``"module:function"`` (``""`` if unmarked)."""
    return str(getattr(resolve(fn), "task_version", ""))


@dataclass(frozen=True)
class Task:
    """One independent unit of work: ``fn(params, SeedSequence(seed, spawn_key=spawn_key))``.

    ``version`` defaults to the function's :func:`task_version` (the function is imported to
    read it, so a misspelt function fails here, not in a worker).
    """

    fn: str
    params: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    spawn_key: tuple[int, ...] = ()
    version: str | None = None

    def __post_init__(self):
        if ":" not in self.fn:
            raise ValueError(f"task function must be 'module:function', got {self.fn!r}")
        object.__setattr__(self, "params", dict(self.params))
        object.__setattr__(self, "spawn_key", tuple(int(k) for k in self.spawn_key))
        if self.version is None:
            object.__setattr__(self, "version", function_version(self.fn))

    @property
    def id(self) -> str:
        identity = {"fn": self.fn, "params": self.params, "seed": int(self.seed),
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

    Every task carries the function's :func:`task_version` (part of its id).
    """
    version = function_version(fn)
    return [Task(fn, params, int(seed), (i,), version) for i, params in enumerate(param_list)]


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
    version = function_version(fn)
    param_list, keys = list(param_list), [tuple(k) for k in keys]
    if len(param_list) != len(keys):
        raise ValueError(f"{len(param_list)} parameter dicts but {len(keys)} keys")
    return [Task(fn, params, int(seed), key, version) for params, key in zip(param_list, keys)]


def resolve(fn: str):
    """Import ``"module:function"`` and return the function (clear error when missing)."""
    module_name, _, attr = fn.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ImportError(f"task function {fn!r}: cannot import module {module_name!r}: {exc}") from exc
    try:
        return getattr(module, attr)
    except AttributeError:
        raise AttributeError(f"task function {fn!r}: module {module_name!r} has no {attr!r}") from None


def run_task(task: Task) -> dict:
    """Run one task in the current process and return its JSON-ready result."""
    result = resolve(task.fn)(dict(task.params), task.seed_sequence())
    return to_jsonable(result)
