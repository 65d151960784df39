"""Claims of docs/ARCHITECTURE.md that no other test checks, checked against the tree:

- a ``_*.py`` module holds kernels and only what a kernel call needs beside them (argument
  bundles, builders of input and scratch arrays, numba extensions): it imports only numpy,
  numba, llvmlite, a few standard modules and other kernel modules, raises nothing (a numba
  overload's Python stub excepted) and does no file I/O;
- no two modules define the same public ``run_*`` name;
- the task versions and the renamed task functions the page lists are the decorators the
  package has;
- the argument bundles the page names exist where it says.

Each checker takes source text or a folder, and a fake case shows it failing.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import mctslab

PACKAGE = Path(mctslab.__file__).parent
DOC = PACKAGE.parent / "docs" / "ARCHITECTURE.md"

KERNEL_IMPORTS = ("numpy", "numba", "llvmlite", "math", "typing", "itertools", "__future__",
                  "mctslab.rng", "mctslab.core.tree", "mctslab.core.stats", "mctslab.core.ucb",
                  "mctslab.core.jit")
IO_CALLS = {"open", "print", "input", "Path", "np.load", "np.save", "np.loadtxt", "json.load",
            "json.loads", "json.dump", "pd.read_csv", "os.listdir", "subprocess.run"}


def _kernel_module(name: str) -> bool:
    return any(name == m or name.startswith(m + ".") for m in KERNEL_IMPORTS) or \
        bool(re.fullmatch(r"mctslab\.\w+\._\w+", name))


def kernel_module_problems(source: str, where: str) -> list[str]:
    """What a ``_*.py`` module holds beyond kernels and their inputs."""
    tree = ast.parse(source)
    problems = []
    overloaded = {ast.unparse(d.args[0]) for n in tree.body if isinstance(n, ast.FunctionDef)
                  for d in n.decorator_list
                  if isinstance(d, ast.Call) and ast.unparse(d.func).endswith("overload")
                  and d.args}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            names = []
        problems += [f"{where}:{node.lineno} imports {n}: a kernel module imports kernels, "
                     f"numpy and numba only" for n in names if not _kernel_module(n)]
        if isinstance(node, ast.Call) and ast.unparse(node.func) in IO_CALLS:
            problems.append(f"{where}:{node.lineno} calls {ast.unparse(node.func)}: no I/O in a "
                            f"kernel module")
    for function in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
        if function.name in overloaded:
            continue  # the Python stub of a numba overload raises when called from Python
        problems += [f"{where}:{node.lineno} raises in {function.name}: a kernel module "
                     f"returns status codes, api.py raises" for node in ast.walk(function)
                     if isinstance(node, ast.Raise)]
    return problems


def test_kernel_modules_hold_kernels_and_their_inputs_only():
    modules = sorted(p for p in PACKAGE.glob("*/_*.py") if p.name != "__init__.py")
    assert len(modules) > 20  # the glob sees the kernels
    problems = [p for path in modules
                for p in kernel_module_problems(path.read_text(), str(path.relative_to(PACKAGE)))]
    assert problems == [], "ARCHITECTURE.md: _*.py modules hold kernels only"


@pytest.mark.parametrize("source, words", [
    ("import pandas as pd\n", "imports pandas"),
    ("from mctslab.go import api\n", "imports mctslab.go"),
    ("def load(path):\n    return open(path).read()\n", "calls open"),
    ("def run(n):\n    if n < 0:\n        raise ValueError(n)\n", "raises in run"),
])
def test_the_kernel_module_rule_fails_when_broken(source, words):
    assert any(words in p for p in kernel_module_problems(source, "toy/_fake.py"))


def test_an_overload_stub_may_raise():
    source = ("from numba.extending import overload\n\n\ndef move(a):\n"
              "    raise NotImplementedError\n\n\n@overload(move)\ndef _move(a):\n"
              "    return lambda a: a\n")
    assert kernel_module_problems(source, "toy/_fake.py") == []


def public_runners(package: Path) -> dict[str, list[str]]:
    """Each public ``run_*`` name defined at module level, with the modules defining it."""
    found: dict[str, list[str]] = {}
    for path in sorted(package.rglob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("run_"):
                found.setdefault(node.name, []).append(str(path.relative_to(package)))
    return found


def test_no_run_name_means_two_things(tmp_path):
    found = public_runners(PACKAGE)
    assert "run_learning" in found and "run_matches" in found
    assert {n: m for n, m in found.items() if len(m) > 1} == {}
    (tmp_path / "a.py").write_text("def run_x(run, cfg):\n    pass\n")
    (tmp_path / "b.py").write_text("def run_x(cfg, seed):\n    pass\n")
    assert public_runners(tmp_path) == {"run_x": ["a.py", "b.py"]}


def _decorated(decorator: str) -> dict[str, str]:
    """``module:function`` -> the decorator's first argument, over the package."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        for node in ast.parse(path.read_text()).body:
            for d in getattr(node, "decorator_list", []):
                if isinstance(d, ast.Call) and ast.unparse(d.func) == decorator:
                    found[f"{module}:{node.name}"] = ast.literal_eval(d.args[0])
    return found


def _section(text: str, start: str) -> str:
    return text[text.index(start):].split("\n- ", 1)[0]


def test_the_task_versions_the_page_lists_are_the_packages():
    text = " ".join(_section(DOC.read_text(), "Current versions:").split())
    listed = {}
    for domain, names, version in re.findall(
            r"(Sudoku|TSP|Othello) ((?:`\w+`(?: and )?)+) (\d+)", text):
        for name in re.findall(r"`(\w+)`", names):
            listed[f"mctslab.{domain.lower()}.experiments:{name}"] = version
    assert listed and listed == _decorated("task_version")


def test_the_renamed_task_functions_the_page_lists_are_the_packages():
    text = " ".join(_section(DOC.read_text(), "Renamed so far").split())
    listed = {f"mctslab.{d.lower()}.experiments:{new}": f"mctslab.{d.lower()}.experiments:{old}"
              for d, new, old in re.findall(r"(Sudoku) `(\w+)` \(was `(\w+)`\)", text)}
    listed |= {f"mctslab.sudoku.experiments:{new}": f"mctslab.sudoku.experiments:{old}"
               for new, old in re.findall(r", `(\w+)` \(was `(\w+)`\)", text)}
    assert len(listed) == 2 and listed == _decorated("task_renamed")


def test_the_argument_bundles_the_page_names_exist():
    import importlib

    text = " ".join(DOC.read_text().split())
    bundles = re.findall(r"\b((?:core|go|sudoku|manyfaces|tsp|othello)\._?\w+)\.([A-Z]\w+)",
                         text[text.index("takes named bundles"):][:400])
    assert len(bundles) >= 6
    for module, name in bundles:
        assert hasattr(importlib.import_module(f"mctslab.{module}"), name), f"{module}.{name}"


def figures_importing_tables(package: Path) -> list[str]:
    """The domains' figures modules that import a tables module (a figure draws the table it
    is given; it builds none)."""
    found = []
    for path in sorted(package.glob("*/figures.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [f"{node.module}.{a.name}" for a in node.names] \
                if isinstance(node, ast.ImportFrom) and node.module else []
            found += [f"{path.parent.name}/figures.py imports {n}" for n in names
                      if ".tables" in n or n.endswith(".tables")]
    return found


def test_no_figures_module_imports_a_tables_module(tmp_path):
    assert len(list(PACKAGE.glob("*/figures.py"))) == len(mctslab.DOMAINS)
    assert figures_importing_tables(PACKAGE) == []
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "figures.py").write_text("from mctslab.toy.tables import change_series\n")
    assert figures_importing_tables(tmp_path) == [
        "toy/figures.py imports mctslab.toy.tables.change_series"]


LOADED = ("import sys, mctslab.{domain}.{module}; print(sorted(m for m in sys.modules "
          "if m.startswith('mctslab') and m.endswith('.experiments')))")
# A claims module judges a record with the paper scale's configuration: Many Faces' reads it
# from its experiments module (its record hook, not a table or a figure)
CLAIMS_NEED_EXPERIMENTS = {"manyfaces"}


@pytest.mark.parametrize("module", ["tables", "figures", "claims"])
@pytest.mark.parametrize("domain", mctslab.DOMAINS)
def test_tables_figures_and_claims_load_no_experiments_module(domain, module):
    """Imported in a fresh interpreter, so any path counts (a re-export through another
    module too)."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", LOADED.format(domain=domain, module=module)],
                         capture_output=True, text=True, check=True).stdout.strip()
    expected = f"['mctslab.{domain}.experiments']" \
        if module == "claims" and domain in CLAIMS_NEED_EXPERIMENTS else "[]"
    assert out == expected, f"mctslab.{domain}.{module} loads {out}"


# Many Faces' protocol constants are its pattern files': its protocol_values takes no config
PROTOCOL_OVERRIDE = {"go": {"board_size": 9}, "othello": {"k_factor": 16},
                     "sudoku": {"c": 0.5}, "tsp": {"cp": 1.0}}


@pytest.mark.parametrize("domain", sorted(PROTOCOL_OVERRIDE))
def test_the_protocol_is_the_paper_scales_or_the_runs_own_at_paper_scale(domain):
    """``Config.protocol()``, which tables read instead of importing ``experiments``: the paper
    scale's configuration, or at paper scale the run's own (an override shows as a departure)."""
    import importlib

    experiments = importlib.import_module(f"mctslab.{domain}.experiments")
    assert experiments.config("smoke").protocol() == experiments.config("paper")
    paper = experiments.config("paper", **PROTOCOL_OVERRIDE[domain])
    assert paper.protocol() is paper and paper != experiments.config("paper")
