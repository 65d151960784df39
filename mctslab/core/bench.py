"""The benchmark registry behind ``mctslab bench``.

Each domain defines its performance figures in ``mctslab/<domain>/bench.py``::

    @benchmark("othello.games_per_s", unit="games/s", goal=80_000)
    def games_per_s():
        ...                       # compile (warm up) first, then time
        return {"value": rate, "quoted_reference": PROTOTYPE, "quoted_ratio": rate / PROTOTYPE,
                "detail": "... quoted reference = the issue's prototype"}

A benchmark returns a number or a dict with at least ``value``; the registry adds ``name``,
``unit``, ``goal`` and whether the goal is met. Speed is measured here, never in tests.
:func:`run_one` calls the domain's warm-up (``mctslab.warmup((domain,))``) before it starts
the benchmark's clock, so no figure includes numba compiling the domain's kernels.

``reference`` and ``ratio`` are only for a reference measured in the same run (python-sat for
Sudoku). A figure quoted from elsewhere (another program, another machine) goes in
``quoted_reference`` / ``quoted_ratio``, with its source in ``detail``.
``mctslab bench --json`` prints :func:`to_json` of each record: strict JSON, a non-finite
number becomes ``null``.
"""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass

import mctslab
from mctslab import DOMAINS
from mctslab.core.store import to_jsonable

__all__ = ["benchmark", "BENCHMARKS", "DOMAINS", "load_domains", "to_json", "to_text"]


@dataclass(frozen=True)
class Benchmark:
    name: str
    unit: str
    fn: Callable
    goal: float | None = None
    higher_is_better: bool = True
    description: str = ""


BENCHMARKS: dict[str, Benchmark] = {}


def benchmark(name: str, unit: str, goal: float | None = None, higher_is_better: bool = True):
    """Register a benchmark function under ``name`` (``"<domain>.<figure>"``)."""

    def register(fn):
        BENCHMARKS[name] = Benchmark(name, unit, fn, goal, higher_is_better,
                                     (fn.__doc__ or "").strip().split("\n")[0])
        return fn

    return register


def load_domains(domains=DOMAINS) -> list[str]:
    """Import each domain's ``bench`` module that exists; return the domains loaded."""
    loaded = []
    for domain in domains:
        try:
            importlib.import_module(f"mctslab.{domain}.bench")
        except ModuleNotFoundError as exc:
            if exc.name in (f"mctslab.{domain}", f"mctslab.{domain}.bench"):
                continue  # the domain has no benchmarks (yet)
            raise
        loaded.append(domain)
    return loaded


def select(names) -> list[Benchmark]:
    """Benchmarks whose name equals or starts with one of ``names`` (all when empty)."""
    load_domains()
    if not names:
        return list(BENCHMARKS.values())
    chosen, unknown = [], []
    for name in names:
        found = [b for b in BENCHMARKS.values() if b.name == name or b.name.startswith(name + ".")]
        if not found:
            unknown.append(name)
        chosen.extend(b for b in found if b not in chosen)
    if unknown:
        known = ", ".join(sorted(BENCHMARKS)) or "none registered"
        raise KeyError(f"unknown benchmark(s) {', '.join(unknown)}; known: {known}")
    return chosen


def domain_of(bench: Benchmark) -> str | None:
    """The domain of :data:`DOMAINS` a benchmark's name starts with (``"go.x"`` -> ``"go"``)."""
    domain = bench.name.split(".", 1)[0]
    return domain if domain in DOMAINS else None


def run_one(bench: Benchmark) -> dict:
    """Warm its domain up (compile or load its kernels), then run and time the benchmark."""
    domain = domain_of(bench)
    if domain is not None:
        mctslab.warmup((domain,))
    start = time.perf_counter()
    raw = bench.fn()
    record = dict(raw) if isinstance(raw, dict) else {"value": float(raw)}
    record = {"name": bench.name, "value": float(record.pop("value")), "unit": bench.unit,
              **record}
    if bench.goal is not None:
        record["goal"] = bench.goal
        met = record["value"] >= bench.goal if bench.higher_is_better else record["value"] <= bench.goal
        record["meets_goal"] = bool(met)
    record["seconds"] = round(time.perf_counter() - start, 2)
    return record


def to_json(record: dict) -> str:
    """One benchmark record as one line of strict JSON (no ``NaN`` or ``Infinity`` tokens)."""
    return json.dumps(to_jsonable(record, nan_as_null=True), allow_nan=False)


def to_text(record: dict) -> str:
    """One benchmark record as the line ``mctslab bench`` prints: its value, its references
    (measured in this run, or quoted from elsewhere) with their ratios, its goal, its detail."""
    line = f"{record['name']}: {record['value']:,.6g} {record['unit']}"
    for prefix in ("", "quoted_"):  # measured in this run / a figure quoted from elsewhere
        if record.get(f"{prefix}reference") is not None:
            line += (f"  ({prefix.replace('_', ' ')}reference "
                     f"{record[f'{prefix}reference']:,.6g}, "
                     f"ratio {record.get(f'{prefix}ratio', float('nan')):.3g})")
    if "goal" in record:
        line += f"  goal {record['goal']:,.6g}: {'met' if record['meets_goal'] else 'NOT met'}"
    if record.get("detail"):
        line += f"  [{record['detail']}]"
    return line
