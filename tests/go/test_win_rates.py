"""Go's win rates and their intervals come from :mod:`mctslab.core.stats` (``win_rate_row``,
``win_rate_cells``, ``win_rate_table``, ``interval_text``): no Go module runs the binomial test
or prints an interval by hand beside them, so one rule gives every rate of every table."""

import ast
import re
from pathlib import Path

import mctslab.go

GO = Path(mctslab.go.__file__).parent
STATISTICS = {"binomial_test", "clopper_pearson", "binomtest", "proportion_ci"}
# the one other interval: ablation_table's paired difference (the Clopper-Pearson interval of
# b among the b + c games two rows split), not a rate
ALLOWED_CALLS = {("tables", "clopper_pearson")}
# modules of another change in flight that still print an interval by hand (to become
# core.stats.win_rate_cells / interval_text)
NOT_YET: set[str] = set()  # every Go module keeps the rule
BY_HAND = re.compile(r"ci_low[^{}]{0,12}:\.\d+f\}\W{0,3}-")


def hand_made(source: str, stem: str) -> list[str]:
    """Where ``source`` (a Go module) computes or prints a win rate's interval itself."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in STATISTICS and (stem, name) not in ALLOWED_CALLS:
                found.append(f"{stem}.py:{node.lineno} calls {name}")
        elif isinstance(node, ast.JoinedStr) and BY_HAND.search(ast.unparse(node)):
            found.append(f"{stem}.py:{node.lineno} prints an interval by hand")
    return found


def test_no_go_module_computes_or_prints_a_win_rate_interval_itself():
    found = [problem for path in sorted(GO.glob("*.py")) if path.stem not in NOT_YET
             for problem in hand_made(path.read_text(), path.stem)]
    assert found == []


def test_the_rule_finds_a_binomial_test_and_an_interval_printed_by_hand():
    source = ('from mctslab.core.stats import binomial_test\n'
              't = binomial_test(3, 4)\n'
              'cell = f"{t.ci_low:.3f}-{t.ci_high:.3f}"\n'
              'other = f"{row[\'ci_low\']:.3f}-{row[\'ci_high\']:.3f}"\n'
              'got = f"{s.get(\'ci_low\', 0):.3f}-{s.get(\'ci_high\', 0):.3f}"\n')
    assert hand_made(source, "made_up") == [
        "made_up.py:2 calls binomial_test", "made_up.py:3 prints an interval by hand",
        "made_up.py:4 prints an interval by hand", "made_up.py:5 prints an interval by hand"]
    assert hand_made("low, high = clopper_pearson(1, 2)\n", "tables") == []
