"""Experiments as lists of independent tasks.

A :class:`Task` names a module-level function (``"package.module:function"``), its parameters
(JSON-serialisable) and its seed. Its :attr:`Task.id` is a hash of all three (and of an optional
``version`` string), so the same task always has the same id: that is what lets the result store
skip work already done. A domain bumps ``version`` when a fix changes a task's results.

Task functions have the signature ``fn(params: dict, seed: numpy.random.SeedSequence) -> dict``.

Per-task seeds come from one experiment seed: task ``i`` of :func:`make_tasks` gets
``SeedSequence(seed, spawn_key=(i,))``, which is exactly ``SeedSequence(seed).spawn(n)[i]``.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .store import to_jsonable

__all__ = ["Task", "make_tasks", "resolve", "run_task"]


def _canonical_json(obj: Any) -> str:
    return json.dumps(to_jsonable(obj), sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Task:
    """One independent unit of work: ``fn(params, SeedSequence(seed, spawn_key=spawn_key))``."""

    fn: str
    params: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    spawn_key: tuple[int, ...] = ()
    version: str = ""

    def __post_init__(self):
        if ":" not in self.fn:
            raise ValueError(f"task function must be 'module:function', got {self.fn!r}")
        object.__setattr__(self, "params", dict(self.params))
        object.__setattr__(self, "spawn_key", tuple(int(k) for k in self.spawn_key))

    @property
    def id(self) -> str:
        identity = {"fn": self.fn, "params": self.params, "seed": int(self.seed),
                    "spawn_key": list(self.spawn_key)}
        if self.version:  # a domain bumps it when a fix changes results: old ones are not reused
            identity["version"] = self.version
        payload = _canonical_json(identity)
        return hashlib.sha256(payload.encode()).hexdigest()[:20]

    def seed_sequence(self) -> np.random.SeedSequence:
        return np.random.SeedSequence(int(self.seed), spawn_key=self.spawn_key)

    def describe(self) -> dict:
        return {"id": self.id, "fn": self.fn, "params": to_jsonable(self.params),
                "seed": int(self.seed), "spawn_key": list(self.spawn_key),
                "version": self.version}


def make_tasks(fn: str, param_list: Iterable[Mapping[str, Any]], seed: int,
               version: str = "") -> list[Task]:
    """One task per parameter dict; task ``i`` gets the ``i``-th seed spawned from ``seed``.

    ``version`` (e.g. ``"2"``) enters the task ids: bump it when a code change alters what the
    task computes, so results stored by the old code are not reused.
    """
    return [Task(fn, params, int(seed), (i,), version) for i, params in enumerate(param_list)]


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
