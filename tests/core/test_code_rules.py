"""The counters behind scripts/code-sizes (tests/code_rules.py): what they count on a tiny
package, and the script's output on this checkout."""

import subprocess
import sys
from pathlib import Path

from tests import code_rules

ROOT = Path(__file__).resolve().parents[2]


def test_the_counters_on_a_tiny_package(tmp_path):
    package = tmp_path / "mctslab"
    (package / "go").mkdir(parents=True)
    (package / "go" / "_board.py").write_text(
        "import numba\nfrom numba import njit\n\n\n@njit(cache=True)\ndef wide(a, b, c, *, d):\n"
        "    return a\n\n\n@numba.njit\ndef narrow(a):\n    return a\n\n\ndef plain(a, b, c, d, e):\n"
        + "    a += 1\n" * 70 + "    return a\n")
    assert code_rules.kernel_arguments(package) == {"mctslab.go._board:6 wide": 4,
                                                    "mctslab.go._board:11 narrow": 1}
    assert code_rules.over(code_rules.kernel_arguments(package), 3) == {
        "mctslab.go._board:6 wide": 4}
    assert code_rules.over(code_rules.function_lines(package), 60) == {
        "mctslab.go._board:15 plain": 72}
    assert code_rules.module_lines(package) == {"mctslab.go._board": 86}


def test_the_script_prints_every_count():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "code-sizes")],
                          capture_output=True, text=True, timeout=120, check=True)
    lines = done.stdout.splitlines()
    assert lines[0].endswith("mctslab") and len(lines) == 7
    assert lines[-1].split()[0] == "0"  # no function-local import outside the allow-list
    assert "kernels over 15 arguments" in done.stdout


def test_the_package_keeps_the_size_limits():
    """Issue 28: no module over 550 lines, no function over 100, at most 3 kernels over 15
    arguments; each module over 400 lines and function over 60 has its reason written in
    tests/code_rules.py (and none is listed that no longer needs one)."""
    assert code_rules.size_problems() == []


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
    problems = code_rules.size_problems(package, modules_over={"mctslab.gone": "was long"},
                                        functions_over={})
    text = "\n".join(problems)
    assert "mctslab.big: 556 lines, over the hard limit of 550" in text
    assert "mctslab.medium: 422 lines, over 400 with no reason" in text
    assert "mctslab.gone: listed in MODULES_OVER_400 but not over 400" in text
    assert "long: 103 lines, over the hard limit of 100" in text
    assert "mctslab.big long: 103 lines, over 60 with no reason" in text
    assert "4 kernels over 15 arguments, more than 3" in text
