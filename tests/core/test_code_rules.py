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
