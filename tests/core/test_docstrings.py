"""Docstrings and comments of the package say what a thing is for, not which issue made it:
no "issue N" in a docstring or comment under ``mctslab/`` (the history is CHANGELOG.md's, the
measurements docs/bench's)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from mctslab import DOMAINS
from mctslab.core import coderules

PACKAGE = Path(coderules.__file__).resolve().parents[1]
ISSUE = re.compile(r"\b[Ii]ssues? \d+")
# the domains whose modules still cite issues (being rewritten now): remove one when it is clean
STILL_CITING: set[str] = set()


def _docstrings(source: str) -> list[tuple[int, str]]:
    """(line, text) of each line of each docstring (module, class, function) of a source."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                found += [(first.lineno + i, line)
                          for i, line in enumerate(first.value.value.splitlines())]
    return found


def issue_references(paths, root: Path = PACKAGE.parent) -> list[str]:
    """``file:line: text`` (file relative to ``root``) of each "issue N" in a docstring or
    comment of ``paths``."""
    found = []
    for path in sorted(paths):
        source = path.read_text()
        for line, text in sorted(_docstrings(source) + coderules._comments(source)):
            if ISSUE.search(text):
                found.append(f"{path.relative_to(root)}:{line}: {text.strip()}")
    return found


def _area(name: str) -> list[Path]:
    """The modules of one domain package, or (``"core"``) every other module of mctslab."""
    if name != "core":
        return list((PACKAGE / name).rglob("*.py"))
    return [p for p in PACKAGE.rglob("*.py")
            if p.relative_to(PACKAGE).parts[0] not in DOMAINS]


@pytest.mark.parametrize("area", [
    pytest.param(name, marks=pytest.mark.xfail(strict=True, reason="still cites issues"))
    if name in STILL_CITING else name for name in ("core", *DOMAINS)])
def test_no_docstring_or_comment_cites_an_issue(area):
    assert issue_references(_area(area)) == []


def test_an_issue_in_a_docstring_or_comment_is_found_and_nowhere_else(tmp_path):
    module = tmp_path / "mctslab" / "made_up.py"
    module.parent.mkdir()
    module.write_text('"""A module (issue 28)."""\n\n\ndef f():\n    """What f is for:\n'
                      '    since issues 22 and 27."""\n    x = "issue 5"  # split in issue 41\n'
                      '    return x  # python-sat issue #232 is another project\'s\n')
    assert issue_references([module], tmp_path) == ["mctslab/made_up.py:1: A module (issue 28).",
                     "mctslab/made_up.py:6: since issues 22 and 27.",
                     "mctslab/made_up.py:7: # split in issue 41"]
