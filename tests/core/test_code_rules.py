"""The house's code rules (mctslab.core.coderules): what the counters count on a tiny checkout,
the command's output on this one (``python -m mctslab.core.coderules``, ``scripts/code-sizes``),
and the package held to the size limits."""

import json
import subprocess
import sys
import tomllib
from pathlib import Path

from mctslab.core import coderules

ROOT = Path(__file__).resolve().parents[2]


def test_the_counters_on_a_tiny_package(tmp_path):
    package = tmp_path / "mctslab"
    (package / "go").mkdir(parents=True)
    (package / "go" / "_board.py").write_text(
        "import numba\nfrom numba import njit\n\n\n@njit(cache=True)\ndef wide(a, b, c, *, d):\n"
        "    return a\n\n\n@numba.njit\ndef narrow(a):\n    return a\n\n\ndef plain(a, b, c, d, e):\n"
        + "    a += 1\n" * 70 + "    return a\n")
    assert coderules.kernel_arguments(package) == {"mctslab.go._board:6 wide": 4,
                                                    "mctslab.go._board:11 narrow": 1}
    assert coderules.over(coderules.kernel_arguments(package), 3) == {
        "mctslab.go._board:6 wide": 4}
    assert coderules.over(coderules.function_lines(package), 60) == {
        "mctslab.go._board:15 plain": 72}
    assert coderules.module_lines(package) == {"mctslab.go._board": 86}


def test_the_ruff_exceptions_are_counted_on_a_tiny_checkout(tmp_path):
    """noqa comments waiving C901, PLR0913 or PLR0915 (in the package, the tests and the
    notebooks' code cells; not in strings, not other codes) and per-file-ignores entries
    waiving them (not the long-lines one)."""
    (tmp_path / "mctslab").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "mctslab" / "a.py").write_text(
        "def f(a, b):  # noqa: PLR0913, C901 - reason\n    return '# noqa: C901'\n"
        "x = 1  # noqa: E731\n")
    (tmp_path / "tests" / "t.py").write_text("def g():  # noqa:PLR0915\n    pass\n")
    cell = {"cell_type": "code", "source": ["%matplotlib inline\n", "y = 2  # noqa: C901\n"]}
    (tmp_path / "notebooks" / "n.ipynb").write_text(json.dumps({"cells": [cell]}))
    (tmp_path / "pyproject.toml").write_text(
        '[tool.ruff.lint.per-file-ignores]\n"!notebooks/*.ipynb" = ["E501"]\n'
        '"mctslab/a.py" = ["C901", "E501"]\n"mctslab/b.py" = ["PLR0913", "PLR0915"]\n')
    assert coderules.noqa_waivers(tmp_path) == {"mctslab/a.py:1": ["PLR0913", "C901"],
                                                "tests/t.py:1": ["PLR0915"],
                                                "notebooks/n.ipynb[0]:2": ["C901"]}
    assert coderules.per_file_waivers(tmp_path) == {"mctslab/a.py": ["C901"],
                                                    "mctslab/b.py": ["PLR0913", "PLR0915"]}
    counts = {what: len(found) for what, found in coderules.measures(tmp_path)}
    assert counts["ruff exceptions: # noqa comments waiving C901, PLR0913, PLR0915"] == 3
    # the reason after the codes: mctslab/a.py has one, the other two have none
    assert coderules.unreasoned_waivers(tmp_path) == ["tests/t.py:1", "notebooks/n.ipynb[0]:2"]


def test_every_waiver_of_the_checkout_says_why():
    """A ``# noqa`` waiving C901, PLR0913 or PLR0915 in mctslab/, tests/ or a notebook carries
    its reason after the codes: ``# noqa: PLR0913 - <why>``."""
    assert coderules.unreasoned_waivers(ROOT) == []


# ruff's limits once every per-file waiver is gone: at most 10 arguments (numba kernels excepted
# by a reasoned noqa, and counted), complexity 12, 50 statements
RUFF_LIMITS = {("mccabe", "max-complexity"): 12, ("pylint", "max-args"): 10,
               ("pylint", "max-statements"): 50}


def test_ruff_keeps_its_limits_with_no_per_file_waiver():
    """pyproject.toml: no per-file-ignores entry waives C901, PLR0913 or PLR0915, and the
    thresholds are at most :data:`RUFF_LIMITS`."""
    lint = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]["lint"]
    assert coderules.per_file_waivers(ROOT) == {}
    for (section, key), limit in RUFF_LIMITS.items():
        assert lint[section][key] <= limit, (section, key, lint[section][key])


def test_the_command_prints_every_count_without_importing_the_tests():
    """scripts/code-sizes is a one-line call of the package's command (no tests import)."""
    script = (ROOT / "scripts" / "code-sizes").read_text()
    assert "tests" not in script.replace("tests/", "")
    for command in ([sys.executable, "-m", "mctslab.core.coderules", str(ROOT)],
                    [sys.executable, str(ROOT / "scripts" / "code-sizes")]):
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True,
                              cwd=ROOT)
        lines = done.stdout.splitlines()
        assert lines[0].endswith("mctslab") and len(lines) == 10, done.stdout
        assert lines[-1].split()[0] == "0"  # no function-local import outside the allow-list
        for what in ("modules over 400 lines", "functions over 60 lines",
                     "kernels over 10 arguments", "# noqa comments waiving",
                     "per-file-ignores entries"):
            assert what in done.stdout


def test_the_package_keeps_the_size_limits():
    """No module over 550 lines, no function over 100, at most 3 kernels over 15 arguments;
    each module over 400 lines and function over 60 has its reason written in
    mctslab/core/coderules.py (and none is listed that no longer needs one)."""
    assert coderules.size_problems() == []


def test_the_size_rule_can_fail(tmp_path):
    """A made-up package past each limit: every rule names its module or function."""
    package = tmp_path / "mctslab"
    package.mkdir()
    wide = "".join(f"@njit\ndef k{i}({', '.join(f'a{j}' for j in range(16))}):\n    return a0\n\n\n"
                   for i in range(4))
    (package / "big.py").write_text("from numba import njit\n\n\n" + wide
                                    + "def long():\n" + "    x = 1\n" * 101 + "    return x\n"
                                    + "\n" * 430)
    (package / "medium.py").write_text("def fine():\n    return 1\n" + "\n" * 420)
    problems = coderules.size_problems(package, modules_over={"mctslab.gone": "was long"},
                                        functions_over={})
    text = "\n".join(problems)
    assert "mctslab.big: 556 lines, over the hard limit of 550" in text
    assert "mctslab.medium: 422 lines, over 400 with no reason" in text
    assert "mctslab.gone: listed in MODULES_OVER_400 but not over 400" in text
    assert "long: 103 lines, over the hard limit of 100" in text
    assert "mctslab.big long: 103 lines, over 60 with no reason" in text
    assert "4 kernels over 15 arguments, more than 3" in text
