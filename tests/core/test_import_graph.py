"""The package's import graph: no cycle among ``mctslab`` modules, counting the
imports inside functions too, so a function-local import cannot hide one; and every module is
named in its domain's reading guide (the package ``__init__`` docstring).

Two more rules of ``docs/ARCHITECTURE.md``: imports sit at the top of a module, and one
inside a function is in ``mctslab/core/coderules.py``'s allow-list with its reason; one domain imports
another only where the Many Faces domain uses the Go engine's public modules.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import mctslab
from mctslab.core import coderules

ROOT = Path(mctslab.__file__).parent
MODULES = {("mctslab." + ".".join(p.relative_to(ROOT).with_suffix("").parts))
           .removesuffix(".__init__"): p for p in ROOT.rglob("*.py")}
DOMAINS = mctslab.DOMAINS


def _resolve(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module if MODULES[module].name == "__init__.py" else module.rsplit(".", 1)[0]
    for _ in range(node.level - 1):
        package = package.rsplit(".", 1)[0]
    return f"{package}.{node.module}" if node.module else package


def imports(module: str) -> set[str]:
    """The ``mctslab`` modules ``module`` imports, anywhere in its source (a ``from package
    import name`` counts as an import of the submodule when ``name`` is one)."""
    found = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, node)
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
    return {name for name in found if name in MODULES and name != module}


def cycles() -> list[list[str]]:
    """Every strongly connected component of more than one module (Tarjan)."""
    graph = {m: imports(m) for m in MODULES}
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_sees_function_local_and_relative_imports():
    assert "mctslab.manyfaces.player" in imports("mctslab.manyfaces.player_match")  # local
    assert "mctslab.tsp.api" in imports("mctslab.tsp.experiments")  # from . import api
    assert "mctslab.core.params" in imports("mctslab.tsp.experiments")  # from ..core.params


def test_no_import_cycle_among_mctslab_modules():
    assert cycles() == []


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_module_is_named_in_its_domains_reading_guide(domain):
    guide = (ROOT / domain / "__init__.py").read_text()
    guide = ast.get_docstring(ast.parse(guide)) or ""
    named = set(re.findall(r"``(\w+)(?:\.py)?``", guide))
    modules = {p.stem for p in (ROOT / domain).glob("*.py") if p.stem != "__init__"}
    assert modules - named == set(), f"{domain}/__init__.py's reading guide misses these"


# -- imports at the top of a module ----------------------------------------------------------------
def test_function_local_imports_are_only_the_allowed_ones():
    """An import inside a function hides a dependency (and may hide a cycle): each one is in
    mctslab/core/coderules.py's allow-list with its reason (laziness of the command line and the
    benchmarks, optional or slow dependencies), or it goes at the top of its module."""
    found = [str(i) for i in coderules.unreasoned_local_imports()]
    assert found == [], ("move these imports to the top of their module, or add them with "
                         f"their reason to mctslab/core/coderules.py LOCAL_IMPORTS_ALLOWED: {found}")


def test_every_allowed_local_import_is_still_there():
    used = {coderules.allowed_by(i) for i in coderules.function_local_imports()}
    unused = [key for key in coderules.LOCAL_IMPORTS_ALLOWED if key not in used]
    assert unused == [], f"allow-list entries nothing uses any more (remove them): {unused}"


def test_the_local_import_rule_sees_nested_and_relative_imports(tmp_path):
    package = tmp_path / "mctslab"
    (package / "tsp").mkdir(parents=True)
    (package / "tsp" / "cli.py").write_text("def verb():\n    from .lkh import lkh\n")
    (package / "tsp" / "lkh.py").write_text(
        "import numpy\n\nclass A:\n    def f(self):\n        def g():\n"
        "            import json\n        from elkai import _elkai\n")
    found = [str(i) for i in coderules.function_local_imports(package)]
    assert found == ["mctslab.tsp.cli:2 imports mctslab.tsp.lkh",
                     "mctslab.tsp.lkh:6 imports json", "mctslab.tsp.lkh:7 imports elkai"]
    assert [str(i) for i in coderules.unreasoned_local_imports(package)] == [
        "mctslab.tsp.lkh:6 imports json"]


# -- one domain into another: only Many Faces on Go's public modules -------------------------------
def cross_domain_imports() -> list[tuple[str, str]]:
    """(importer, imported) for every import of one domain's module by another domain's."""
    def domain(name):
        parts = name.split(".")
        return parts[1] if len(parts) > 1 and parts[1] in DOMAINS else None

    return sorted((m, name) for m in MODULES for name in imports(m)
                  if domain(m) and domain(name) and domain(m) != domain(name))


def test_the_only_imports_across_domains_are_manyfaces_on_gos_public_modules():
    """Domains import core and never each other, except that the Many Faces domain is built on
    the Go engine: it may import mctslab.go and its public modules, never a private go._*."""
    crossing = cross_domain_imports()
    assert any(m.startswith("mctslab.manyfaces") for m, _ in crossing)  # the rule sees them
    wrong = [f"{m} imports {name}" for m, name in crossing
             if m.split(".")[1] != "manyfaces" or name.split(".")[1] != "go"
             or any(part.startswith("_") for part in name.split(".")[2:])]
    assert wrong == [], f"imports across domains that ARCHITECTURE.md does not allow: {wrong}"


LOWER_LAYERS = ("mctslab.core", "mctslab.rng", "mctslab.data", "mctslab.datasets",
                "mctslab.paths")


def downward_violations() -> list[str]:
    """Imports that go up ARCHITECTURE.md's layer picture: a module of the core box or of the
    leaves (``rng.py data.py datasets.py paths.py``) importing a domain."""
    lower = [m for m in MODULES if m.startswith(LOWER_LAYERS[0] + ".")
             or m in LOWER_LAYERS[1:]]
    return sorted(f"{m} imports {name}" for m in lower for name in imports(m)
                  if name.count(".") and name.split(".")[1] in DOMAINS)


def test_core_and_the_leaves_import_no_domain():
    """Imports only go down the picture: a cycle test alone lets core import a domain that
    does not import that core module back."""
    assert downward_violations() == [], "core or a leaf imports a domain (ARCHITECTURE.md)"


# -- the command layer sits above the domains ------------------------------------------------------
COMMAND_LAYER = ("mctslab.records", "mctslab.record_card", "mctslab.cli", "mctslab.pipeline",
                 "mctslab.bench_docs", "mctslab.reports", "mctslab.kernel")


def command_modules() -> set[str]:
    """ARCHITECTURE.md's top line: ``mctslab <command>``'s modules, and each domain's verbs and
    benchmarks (``<domain>/cli.py``, its parts ``cli_*.py``, ``bench.py``), drawn beside them
    above the domain box."""
    verbs = {f"mctslab.{d}.{name}" for d in DOMAINS for name in ("cli", "bench")}
    parts = {m for m in MODULES for d in DOMAINS if m.startswith(f"mctslab.{d}.cli_")}
    return set(COMMAND_LAYER) | (verbs & set(MODULES)) | parts


def command_layer_imports() -> list[str]:
    """Imports of a command module by any other ``mctslab`` module (a domain's, core's, a
    leaf's). Direct imports suffice: a module that reaches the command layer through others
    passes through one that imports it directly, and that one is listed."""
    command = command_modules()
    return sorted(f"{m} imports {name}" for m in MODULES if m not in command | {"mctslab"}
                  for name in imports(m) if name in command)


def test_no_domain_imports_the_command_layer():
    """Domains, core and the leaves never import the command's modules (records, record_card,
    cli, pipeline, bench_docs, reports, kernel, a domain's cli and bench): those import them."""
    assert set(COMMAND_LAYER) <= set(MODULES)
    assert command_layer_imports() == []
