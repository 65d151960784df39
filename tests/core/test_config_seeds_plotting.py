"""The shared pieces domains once wrote five times: config builder, keyed task seeds,
compile-once, headless plotting."""

import dataclasses
import re
import subprocess
import sys
import zlib

import numpy as np
import pytest

from mctslab.core.params import config_values, notebook_config
from mctslab.core.tasks import Task, keyed_tasks, make_tasks, task_key
from mctslab.core.warmup import compile_once


@dataclasses.dataclass(frozen=True)
class _Config:
    scale: str
    games: int
    c: float = 1.0


_SCALES = {"smoke": {"games": 2}, "default": {"games": 20}, "paper": {"games": 200}}


def test_config_values_layers_base_scale_and_overrides():
    values = config_values(_Config, _SCALES, "default", {"c": 2, "games": None},
                           what="toy parameter", reals=("c",))
    assert values == {"games": 20, "c": 2.0} and isinstance(values["c"], float)
    assert config_values(_Config, _SCALES, "smoke", {}, what="toy", base={"c": 0.5}) == {
        "c": 0.5, "games": 2}
    with pytest.raises(ValueError, match="unknown toy parameter"):
        config_values(_Config, _SCALES, "smoke", {"gmaes": 3}, what="toy parameter")
    with pytest.raises(ValueError, match="unknown scale"):
        config_values(_Config, _SCALES, "huge", {}, what="toy")


def test_notebook_config_reads_the_parameters_from_the_namespace():
    class experiments:  # a domain module's two names
        Config = _Config

        @staticmethod
        def config(scale, **overrides):
            return _Config(scale=scale, **config_values(_Config, _SCALES, scale, overrides,
                                                        what="toy", reals=("c",)))

    namespace = {"scale": "smoke", "seed": 3, "workers": None, "games": None, "c": 3,
                 "unrelated": object()}
    assert notebook_config(experiments, namespace) == _Config("smoke", 2, 3.0)


def test_task_key_and_keyed_tasks():
    assert task_key(2, "eil51") == (2, zlib.crc32(b"eil51"))
    with pytest.raises(TypeError):
        task_key(1.5)
    tasks = keyed_tasks("tests.core.demo:square_with_noise", [{"x": 1}, {"x": 2}],
                        [task_key("a"), task_key("b")], 7)
    # a key of its own: the same seed whatever else is in the list, or in which order
    alone = keyed_tasks("tests.core.demo:square_with_noise", [{"x": 2}], [task_key("b")], 7)
    assert tasks[1].id == alone[0].id
    assert tasks[1] == Task("tests.core.demo:square_with_noise", {"x": 2}, 7, (zlib.crc32(b"b"),))
    # a positional key is make_tasks' own
    assert keyed_tasks("tests.core.demo:square_with_noise", [{"x": 1}], [(0,)], 7) == \
        make_tasks("tests.core.demo:square_with_noise", [{"x": 1}], 7)
    with pytest.raises(ValueError, match="keys"):
        keyed_tasks("tests.core.demo:square_with_noise", [{"x": 1}], [], 7)


def test_compile_once_runs_the_body_once_and_retries_after_an_error():
    calls = []

    @compile_once
    def warm():
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("first attempt fails")

    with pytest.raises(RuntimeError):
        warm()
    assert not warm.compiled()
    warm()
    warm()
    assert calls == [1, 1] and warm.compiled()


def test_plotting_is_headless_outside_a_kernel():
    code = ("import mctslab.core.plotting as p, matplotlib; "
            "print(matplotlib.get_backend().lower())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "agg"


def test_no_figure_module_chooses_a_backend_itself():
    from pathlib import Path

    import mctslab

    root = Path(mctslab.__file__).parent
    others = [p for p in root.rglob("*.py") if p.relative_to(root).as_posix() != "core/plotting.py"]
    chosen = [str(p.relative_to(root)) for p in others
              if re.search(r"\b(matplotlib|mpl)\.use\(", p.read_text())]
    assert chosen == [], f"matplotlib.use outside core/plotting.py: {chosen}"
    # pyplot only through core.plotting (`from mctslab.core.plotting import plt`), which
    # chooses the backend before pyplot is imported
    pyplot = [str(p.relative_to(root)) for p in others
              if re.search(r"^\s*(import matplotlib\.pyplot|from matplotlib(\.pyplot)? import "
                           r"(pyplot|.*\bplt\b))", p.read_text(), re.MULTILINE)]
    assert pyplot == [], f"pyplot imported outside core/plotting.py: {pyplot}"


def test_keyed_seed_is_the_spawned_seed():
    task = keyed_tasks("tests.core.demo:square_with_noise", [{}], [(3, 4)], 11)[0]
    expected = np.random.SeedSequence(11, spawn_key=(3, 4)).generate_state(2)
    assert (task.seed_sequence().generate_state(2) == expected).all()
