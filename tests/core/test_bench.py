"""The ``mctslab bench`` output format, on fake benchmarks (speed itself is never tested)."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import mctslab
from mctslab import cli
from mctslab.core import bench


def _reject_constant(token):
    raise AssertionError(f"non-standard JSON token {token}")


@pytest.fixture
def fake_benchmarks(monkeypatch):
    """Two registered fake benchmarks and no domain ones (their modules are not imported)."""
    monkeypatch.setattr(bench, "load_domains", lambda domains=bench.DOMAINS: [])

    def with_references():
        return {"value": np.float64(12.5), "reference": 5, "ratio": 2.5,
                "quoted_reference": np.int64(10), "quoted_ratio": float("nan"),
                "spread": [1.0, float("inf")], "detail": "quoted reference = a paper"}

    monkeypatch.setitem(bench.BENCHMARKS, "fake.rate",
                        bench.Benchmark("fake.rate", "ops/s", with_references, goal=10.0))
    monkeypatch.setitem(bench.BENCHMARKS, "fake.plain",
                        bench.Benchmark("fake.plain", "s", lambda: 0.5, goal=1.0,
                                        higher_is_better=False))


def test_bench_json_is_one_strict_object_per_benchmark(fake_benchmarks, capsys):
    assert cli.main(["bench", "fake", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    records = [json.loads(line, parse_constant=_reject_constant) for line in lines]
    assert [r["name"] for r in records] == ["fake.rate", "fake.plain"]
    rate, plain = records
    assert rate["value"] == 12.5 and rate["unit"] == "ops/s"
    assert rate["reference"] == 5 and rate["ratio"] == 2.5
    assert rate["quoted_reference"] == 10
    assert rate["quoted_ratio"] is None and rate["spread"] == [1.0, None]  # NaN / inf -> null
    assert rate["goal"] == 10.0 and rate["meets_goal"] is True
    assert plain["value"] == 0.5 and plain["meets_goal"] is True  # lower is better
    assert "reference" not in plain and "ratio" not in plain


def test_bench_text_names_quoted_references(fake_benchmarks, capsys):
    assert cli.main(["bench", "fake.rate"]) == 0
    line = capsys.readouterr().out.strip()
    assert "(reference 5, ratio 2.5)" in line
    assert "(quoted reference 10, ratio nan)" in line
    assert line.startswith("fake.rate: 12.5 ops/s") and "goal 10: met" in line
    assert line.endswith("[quoted reference = a paper]")
    assert bench.to_text({"name": "x", "value": 2.0, "unit": "s", "goal": 1.0,
                          "meets_goal": False}) == "x: 2 s  goal 1: NOT met"


def test_unknown_benchmark_is_an_error(fake_benchmarks, capsys):
    assert cli.main(["bench", "nope"]) == 2
    assert "unknown benchmark" in capsys.readouterr().err


def test_to_json_turns_non_finite_numbers_into_null():
    assert json.loads(bench.to_json({"a": np.float32(1.5), "b": -float("inf")})) == {
        "a": 1.5, "b": None}


def test_warmup_reaches_every_domain(monkeypatch):
    """``mctslab.warmup()`` (run before every benchmark) calls each domain's ``warmup``; a domain
    without one would be compiled inside its first timing."""
    import importlib

    called = []
    for name in ("othello", "sudoku", "tsp"):
        module = importlib.import_module(f"mctslab.{name}")
        monkeypatch.setattr(module, "warmup", lambda name=name: called.append(name))
    assert set(mctslab.warmup(("othello", "sudoku", "tsp"))) == {"othello", "sudoku", "tsp"}
    assert called == ["othello", "sudoku", "tsp"]


def test_each_benchmark_runs_after_its_domains_warmup(monkeypatch, capsys):
    """``mctslab bench`` warms the benchmark's domain up before its clock starts (a benchmark
    of no domain warms nothing up)."""
    events = []
    monkeypatch.setattr(bench, "load_domains", lambda domains=bench.DOMAINS: [])
    monkeypatch.setattr(mctslab, "warmup", lambda domains: events.append(("warmup", domains)))
    monkeypatch.setitem(bench.BENCHMARKS, "othello.fake",
                        bench.Benchmark("othello.fake", "ops/s",
                                        lambda: events.append("timed") or 1.0))
    monkeypatch.setitem(bench.BENCHMARKS, "nodomain.fake",
                        bench.Benchmark("nodomain.fake", "ops/s",
                                        lambda: events.append("untimed") or 1.0))
    assert cli.main(["bench", "othello.fake", "nodomain.fake", "--json"]) == 0
    assert events == [("warmup", ("othello",)), "timed", "untimed"]


def test_bench_pair_needs_the_before_checkout(tmp_path):
    """scripts/bench-pair has no machine's path as its default: --before is required, and a
    folder without a .venv is named."""
    script = Path(__file__).resolve().parents[2] / "scripts" / "bench-pair"
    done = subprocess.run([sys.executable, str(script), "go"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "--before" in done.stderr, done.stderr
    done = subprocess.run([sys.executable, str(script), "--before", str(tmp_path), "go"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and f"no .venv/bin/mctslab in {tmp_path}" in done.stderr
