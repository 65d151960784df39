"""Every paper notebook: hygiene (thin, parameterised, stripped) and a real run at scale=smoke."""

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
STANDARD = ("scale", "seed", "workers", "scheduler", "out")
FORBIDDEN = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.For,
             ast.While, ast.AsyncFor, ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp)

pytestmark = pytest.mark.skipif(not NOTEBOOKS, reason="no notebooks in notebooks/ yet")


def _ids(paths):
    return [p.stem for p in paths]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_notebook_is_thin_parameterised_and_stripped(path):
    nb = nbformat.read(path, as_version=4)
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"
    assert nb.cells[0].cell_type == "markdown", "first cell: the paper and what is regenerated"
    tagged = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1, "exactly one cell tagged 'parameters'"
    params = ast.parse(tagged[0].source)
    names = []
    for node in params.body:
        assert isinstance(node, (ast.Assign, ast.AnnAssign)), "parameters: assignments only"
        value = node.value
        ast.literal_eval(value)  # annotated literals only
        target = node.targets[0] if isinstance(node, ast.Assign) else node.target
        names.append(target.id)
    assert set(STANDARD) <= set(names), f"standard parameters missing: {set(STANDARD) - set(names)}"
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        assert not cell.get("outputs"), "commit notebooks with outputs stripped"
        assert cell.get("execution_count") is None
        for node in ast.walk(ast.parse(cell.source)):
            assert not isinstance(node, FORBIDDEN), (
                f"{path.name}: no {type(node).__name__} in notebooks (logic lives in mctslab): "
                f"{cell.source[:80]!r}")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_notebook_runs_at_smoke_scale(path, tmp_path):
    env = dict(os.environ, MCTSLAB_PROGRESS="0")
    done = subprocess.run(
        [sys.executable, "-m", "mctslab.cli", "reproduce", path.stem, "--scale", "smoke",
         "--workers", "2", "--out", str(tmp_path), "--quiet"],
        capture_output=True, text=True, timeout=900, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    folder = tmp_path / "figures" / path.stem
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["status"] == "complete"
    assert manifest["scale"] == "smoke"
    artefacts = manifest["artefacts"]
    assert any(a["kind"] == "figure" for a in artefacts.values()), "no figure saved"
    assert any(a["kind"] == "table" for a in artefacts.values()), "no table saved"
    for stem, artefact in artefacts.items():
        for name in artefact["files"]:
            assert (folder / name).stat().st_size > 0, f"{stem}: {name} missing or empty"
    assert (tmp_path / "reports" / f"{path.stem}.ipynb").exists()


# Each paper notebook and the experiments module whose Config its parameters cell fills.
CONFIGURED = {"othello_wpc_de": "mctslab.othello.experiments",
              "sudoku_less_clue": "mctslab.sudoku.experiments",
              "tsp_mcts_vs_sa": "mctslab.tsp.experiments"}


@pytest.mark.parametrize("stem", sorted(CONFIGURED))
def test_notebook_exposes_and_passes_every_config_field(stem):
    """Every Config field is a parameter of its own, handed to ``experiments.config`` by name."""
    import dataclasses
    import importlib

    experiments = importlib.import_module(CONFIGURED[stem])
    nb = nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", as_version=4)
    cell = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    names = {(n.targets[0] if isinstance(n, ast.Assign) else n.target).id
             for n in ast.parse(cell.source).body}
    fields = {f.name for f in dataclasses.fields(experiments.Config)}
    assert names == fields | set(STANDARD)
    for line in cell.source.splitlines():  # papermill's inspection drops a line with a second "="
        assert line.count("=") == 1 and " # " in line, line
    # the set-up cell hands every parameter to experiments.config under its own name
    calls = [n for c in nb.cells if c.cell_type == "code" for n in ast.walk(ast.parse(c.source))
             if isinstance(n, ast.Call) and getattr(n.func, "attr", None) == "config"]
    assert len(calls) == 1
    assert {k.arg: k.value.id for k in calls[0].keywords} == {n: n for n in fields - {"scale"}}
    assert [a.id for a in calls[0].args] == ["scale"]
