"""What the package imports is what pyproject.toml and environment.yml declare, and the
package data it declares exists."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
# Declared for what runs the notebooks, not imported by mctslab itself.
RUN_TIME_ONLY = {"ipykernel": "the notebooks' kernel", "jupyter": "to open the notebooks",
                 "nbformat": "papermill's notebook format (pinned for the checklist tests)",
                 "dask": "the distributed extra's parent (mctslab imports distributed)"}
# Modules of an optional extra, imported inside a function that handles their absence (the
# bench's same-run reference): `make test` installs only [dev], so they may be missing.
OPTIONAL_MODULES = {"open_spiel": "open-spiel", "pyspiel": "open-spiel"}


def _name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;]", requirement.strip(), maxsplit=1)[0].lower()


def _declared() -> set[str]:
    names = set()
    for requirement in PYPROJECT["project"]["dependencies"]:
        names.add(_name(requirement))
        extras = re.search(r"\[(.*)\]", requirement)
        names |= {e.strip().lower() for e in extras.group(1).split(",")} if extras else set()
    return names


def _imported_distributions() -> set[str]:
    modules = set()
    for path in (ROOT / "mctslab").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                modules |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules.add(node.module.split(".")[0])
    modules -= set(sys.stdlib_module_names) | {"mctslab"}
    providers = importlib.metadata.packages_distributions()
    missing = sorted(m for m in modules if m not in providers and m not in OPTIONAL_MODULES)
    assert not missing, f"imported but not installed: {missing}"
    return {providers[m][0].lower() if m in providers else OPTIONAL_MODULES[m] for m in modules}


def test_optional_modules_belong_to_a_declared_extra():
    optional = {_name(r) for extra in PYPROJECT["project"]["optional-dependencies"].values()
                for r in extra}
    assert set(OPTIONAL_MODULES.values()) <= optional


def test_every_import_is_declared_and_every_dependency_is_used():
    declared, imported = _declared(), _imported_distributions()
    optional = {_name(r) for extra in PYPROJECT["project"]["optional-dependencies"].values()
                for r in extra}  # e.g. the bench extra's open-spiel, imported inside a function
    assert imported - declared - optional == set(), "imported by mctslab, not in pyproject.toml"
    assert declared - imported - set(RUN_TIME_ONLY) == set(), "declared and never imported"


def test_environment_yml_lists_the_same_packages():
    spec = yaml.safe_load((ROOT / "environment.yml").read_text())["dependencies"]
    names = set()
    for entry in spec:
        for requirement in entry["pip"] if isinstance(entry, dict) else [entry]:
            names.add(_name(requirement))
    dev = {_name(r) for r in PYPROJECT["project"]["optional-dependencies"]["dev"]}
    assert _declared() | dev | {"python", "pip"} == names


def test_declared_package_data_exists():
    for package, patterns in PYPROJECT["tool"]["setuptools"]["package-data"].items():
        for pattern in patterns:
            assert list((ROOT / package.replace(".", "/")).glob(pattern)), (package, pattern)


def test_every_data_file_the_package_reads_is_declared():
    """The targets and readings files are read at run time (core.targets): an installed
    package without them would have no paper numbers or readings."""
    patterns = PYPROJECT["tool"]["setuptools"]["package-data"]["mctslab"]
    package = ROOT / "mctslab"
    declared = {path for pattern in patterns for path in package.glob(pattern)}
    needed = [*package.glob("*/targets.csv"), *package.glob("*/readings.csv")]
    assert needed and [p for p in needed if p not in declared] == []


def test_no_test_skips_for_want_of_a_declared_dependency():
    """A dependency of the package (or of [dev]) is installed wherever the tests run: a skip
    when it is missing would hide a broken environment."""
    dev = {_name(r) for r in PYPROJECT["project"]["optional-dependencies"]["dev"]}
    providers = importlib.metadata.packages_distributions()
    skipped = []
    for path in (ROOT / "tests").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "importorskip"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                module = node.args[0].value.split(".")[0]
                names = {d.lower() for d in providers.get(module, [module])}
                if names & (_declared() | dev):
                    skipped.append(f"{path.relative_to(ROOT)}:{node.lineno}: {module}")
    assert skipped == []


def _make_markers(target: str) -> str:
    """The ``-m`` expression of the pytest line of a Makefile target."""
    recipe = (ROOT / "Makefile").read_text().split(f"\n{target}:", 1)[1].split("\n\n", 1)[0]
    return re.search(r'pytest -m "([^"]+)"', recipe).group(1)


def test_every_marked_test_runs_in_make_test_or_make_test_reruns():
    """.ci/run runs both targets: a marker `make test` leaves out must be one `make test-reruns`
    selects, or its tests would run nowhere in CI."""
    declared = {line.split(":", 1)[0] for line in PYPROJECT["tool"]["pytest"]["ini_options"]["markers"]}
    left_out = set(re.findall(r"not (\w+)", _make_markers("test")))
    selected = set(re.findall(r"\w+", _make_markers("test-reruns"))) - {"or"}
    assert left_out == selected and left_out <= declared
    assert {"make test", "make test-reruns"} <= set((ROOT / ".ci/run").read_text().splitlines())
