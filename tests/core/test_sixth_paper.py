"""docs/ARCHITECTURE.md's "Adding a sixth paper", walked through on a fake domain ``toy``: the
files the section names are written (from the contract test's fake package and the templates
below), then the checks the five domains pass run on it: the domain contract, the layout's
files, the reading guide, the schedule's costs and the targets file, whose example row is the
section's own. A file the section names that this walk cannot build, or a layout file the
section leaves out, fails here, so the steps and the checks cannot drift apart."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import mctslab
from mctslab.core import schedule, targets
from tests.core.test_architecture import layout_files
from tests.core.test_domain_contract import RULES, check, fake

DOC = Path(mctslab.__file__).parent.parent / "docs" / "ARCHITECTURE.md"
NOTEBOOK = "toy_notebook"

TEMPLATES = {  # the files the contract's fake package does not already hold
    "_phase.py": "from numba import njit\n\n\n@njit(cache=True)\ndef square(x):\n"
                 "    return x * x\n",
    "reference.py": "def square(x):\n    return x * x\n",
    "claims.py": "def record_rows(read):\n    return []\n",
    "bench.py": "from mctslab.core.bench import benchmark\n",
    "cli.py": "def add_parser(subparsers):\n    pass\n",
    "readings.csv": "paper,reading,changes,rests_on,source\n",
}
GUIDE = ('"""A toy paper. The reading guide: ``api`` - calls into ``_phase``; ``reference`` - '
         "its twin; ``experiments``, ``tables``, ``figures``, ``claims``, ``bench``, ``cli``."
         '"""\n')


def section() -> str:
    text = DOC.read_text()
    return text[text.index("## Adding a sixth paper"):]


def named_files(text: str) -> set[str]:
    """The domain files the section names (``mctslab/<domain>/X``; ``_<phase>.py`` as
    ``_phase.py``)."""
    return {name.replace("<phase>", "phase")
            for name in re.findall(r"mctslab/<domain>/([\w<>]+\.\w+)", text)}


def example_targets(text: str) -> str:
    block = re.search(r"```\n(\s*paper,artefact.*?)\n\s*```", text, re.S)
    assert block, "the section's targets.csv example"
    return "".join(line.strip() + "\n" for line in block.group(1).splitlines())


def walk(tmp_path: Path) -> Path:
    """The section's steps on ``toy``: its files written, its notebook and targets."""
    text = section()
    package, notebooks = fake(tmp_path)
    domain = package / "toy"
    files = named_files(text)
    for name in sorted(files):
        path = domain / name
        if name == "__init__.py":
            path.write_text(GUIDE + path.read_text())
        elif name == "targets.csv":
            path.write_text(example_targets(text))
        elif not path.exists():
            assert name in TEMPLATES, f"the walk cannot build {name}, which the section names"
            path.write_text(TEMPLATES[name])
    return package


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(mctslab.NOTEBOOKS, "toy", NOTEBOOK)
    monkeypatch.setitem(targets.DOMAINS, NOTEBOOK, "toy")


def test_the_section_names_every_file_of_the_layout():
    named = named_files(section())
    layout = {name for name in layout_files(DOC.read_text())}
    assert {"__init__.py", "experiments.py", "targets.csv", "claims.py"} <= named
    assert layout - named == set(), "files of the domain layout the sixth-paper steps leave out"


def test_the_walk_gives_a_domain_that_keeps_the_contract(tmp_path, toy):
    package = walk(tmp_path)
    notebooks = tmp_path / "notebooks"
    assert {rule: check(package, notebooks, rule) for rule in RULES} == {r: [] for r in RULES}


def test_the_walk_gives_a_reading_guide_naming_every_module(tmp_path, toy):
    domain = walk(tmp_path) / "toy"
    guide = ast.get_docstring(ast.parse((domain / "__init__.py").read_text())) or ""
    named = set(re.findall(r"``(\w+)(?:\.py)?``", guide))
    assert {p.stem for p in domain.glob("*.py") if p.stem != "__init__"} - named == set()


def test_the_sections_targets_row_loads(tmp_path, toy, monkeypatch):
    package = walk(tmp_path)
    monkeypatch.setattr(targets, "_PACKAGE", package)
    rows = targets._rows.__wrapped__(NOTEBOOK)
    assert [(r["artefact"], r["row"], r["kind"]) for r in rows] == [
        ("Table 1", "method A", "sampled")]


def test_a_domain_without_costs_stops_the_schedule_until_step_one_adds_them(toy, monkeypatch):
    with pytest.raises(ValueError, match="no costs for toy"):
        schedule.domain_costs()
    monkeypatch.setitem(schedule.DOMAIN_COSTS, "toy", schedule.DomainCost(1, 10))
    assert "toy" in schedule.domain_costs()
