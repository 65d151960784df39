"""docs/ARCHITECTURE.md against the tree, so that its lists cannot drift again: the
layer picture names every module outside the domains (and only modules that exist), the domain
layout's files exist in every domain but the ones its lines except, and every module or name
of ``mctslab`` the page mentions resolves."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

import mctslab

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "ARCHITECTURE.md"
PACKAGE = Path(mctslab.__file__).parent


def _block_after(text: str, heading: str) -> list[str]:
    """The lines of the first fenced block after ``heading``."""
    rest = text.split(heading, 1)[1]
    return rest.split("```", 2)[1].splitlines()


def picture_modules(text: str) -> set[str]:
    """The dotted modules the layer picture lists: the command's line (``mctslab <command>:
    cli.py ...``), the core box (``core/: tree ucb ...``) and the leaves (``rng.py ...``)."""
    lines = _block_after(text, "## The layers")
    listed = set()
    command = next(line for line in lines if "mctslab <command>:" in line)
    listed |= {f"mctslab.{name}" for name in
               re.findall(r"(\w+)\.py", command.split("mctslab <command>:", 1)[1])}
    start = next(i for i, line in enumerate(lines) if "| core/:" in line)
    for line in lines[start:]:
        if re.search(r"\|\s+rng\.py", line):
            listed |= {f"mctslab.{name}" for name in re.findall(r"(\w+)\.py", line)}
            break
        words = line.replace("core/:", "").strip(" |")
        listed |= {f"mctslab.core.{word}" for word in re.findall(r"[a-z_]+", words)}
    return listed


def tree_modules() -> set[str]:
    """The package's modules outside the domains: top-level and core, packages left out."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__" or parts[0] in mctslab.DOMAINS:
            continue
        found.add("mctslab." + ".".join(parts))
    return found


def layout_files(text: str) -> dict[str, set[str]]:
    """The domain layout's files (``api.py``...), each with the domains its line excepts."""
    files = {}
    lines = _block_after(text, "## Domain package layout")
    for i, line in enumerate(lines):
        match = re.match(r"  (\w+\.(?:py|csv))\s", line)
        if not match:
            continue
        entry = " ".join([line, *[ln for ln in lines[i + 1:i + 4] if ln.startswith("    ")]])
        but = re.search(r"every domain but (\w+)", entry)
        files[match[1]] = {but[1]} if but else set()
    return files


def mentioned_names(text: str) -> set[str]:
    """``mctslab.x.y`` names, ``mctslab/x/y.py`` paths and backticked ``core.x`` / ``go.x`` ...
    short names the page mentions, as dotted names (placeholders like ``<domain>`` left out)."""
    names = set(re.findall(r"\bmctslab(?:\.\w+)+", text))
    names |= {("mctslab." + p.replace("/", ".")).removesuffix(".__init__")
              for p in re.findall(r"\bmctslab/([\w/]+)\.py", text)}
    short = "|".join(("core", *mctslab.DOMAINS))
    names |= {"mctslab." + n for n in re.findall(rf"`((?:{short})(?:\.\w+)+)`", text)}
    return names


def resolves(dotted: str) -> bool:
    """Whether ``dotted`` is a module, or a name reachable from one."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            thing = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for part in parts[i:]:
            if not hasattr(thing, part):
                return False
            thing = getattr(thing, part)
        return True
    return False


def test_the_layer_picture_lists_every_module_outside_the_domains():
    listed, tree = picture_modules(DOC.read_text()), tree_modules()
    assert sorted(listed - tree) == [], "ARCHITECTURE.md's layer picture names modules that do not exist"
    assert sorted(tree - listed) == [], "modules missing from ARCHITECTURE.md's layer picture"


@pytest.mark.parametrize("domain", mctslab.DOMAINS)
def test_every_domain_has_the_layouts_files(domain):
    files = layout_files(DOC.read_text())
    assert {"api.py", "experiments.py", "tables.py", "cli.py"} <= set(files)  # the parse works
    for name, but in files.items():
        exists = (PACKAGE / domain / name).is_file()
        if domain in but:
            assert not exists, f"{domain}/{name} exists: drop 'every domain but {domain}'"
        else:
            assert exists, f"ARCHITECTURE.md's domain layout lists {name}, {domain} has none"


def test_every_module_and_name_the_page_mentions_exists():
    names = mentioned_names(DOC.read_text())
    assert {"mctslab.core.tasks", "mctslab.go.gtp", "mctslab.core.stats.sample_to_settle"} <= names
    missing = sorted(name for name in names if not resolves(name))
    assert missing == [], f"ARCHITECTURE.md mentions what the package does not have: {missing}"


def test_the_parsers_see_a_drift():
    text = DOC.read_text()
    assert "mctslab.core.nowhere" in picture_modules(text.replace("| core/: tree", "| core/: nowhere tree"))
    assert "mctslab.core.stopping" not in picture_modules(text.replace(" stopping ", " "))
    assert not resolves("mctslab.core.nowhere") and not resolves("mctslab.core.stats.nothing")
    assert resolves("mctslab.core.stats.win_rate_table") and resolves("mctslab.warmup")


# -- one place per concept ------------------------------------------------------------------------
def results_layout_spelled() -> list[str]:
    """Where a module other than ``paths.py`` spells the result stores' folder as a path:
    ``... / "data" / "results"``, or a path or glob starting with ``data/results`` (prose in
    docstrings, messages and help texts may name it)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "paths.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            joined = (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)
                      and isinstance(node.right, ast.Constant) and node.right.value == "results"
                      and isinstance(node.left, ast.BinOp)
                      and isinstance(node.left.right, ast.Constant)
                      and node.left.right.value == "data")
            called = (isinstance(node, ast.Call) and node.args
                      and isinstance(node.args[0], ast.Constant)
                      and str(node.args[0].value).startswith("data/results"))
            if joined or called:
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    return found


def test_the_result_stores_folder_is_spelled_in_paths_only():
    """``paths.results_root(out)`` (``<root>/data/results``, a match folder's too) and
    ``paths.results_dir(experiment, out)`` are the one place of the layout."""
    assert results_layout_spelled() == [], "use mctslab.paths.results_root / results_dir"


def test_the_enclosed_fields_limit_is_one_constant():
    """8 ln 2, the 1/d field's limit inside a large enclosed square, is
    ``manyfaces.knowledge.ENCLOSED_CENTRE_LIMIT``: tables, claims and figures use it."""
    spelled = [str(p.relative_to(PACKAGE)) for p in sorted(PACKAGE.rglob("*.py"))
               if re.search(r"8\s*\*\s*(np|numpy|math)\.log\(2\)", p.read_text())]
    assert spelled == ["manyfaces/knowledge.py"]
