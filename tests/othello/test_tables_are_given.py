"""The Othello tables and figures build from what they are given: they import no experiments
module, by any path (a name re-exported through another module counts), and the paper scale's
configuration comes with the run's (``cfg.protocol()``); a ``run_*`` name is defined once."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from mctslab.othello import experiments

LOADED = ("import sys, mctslab.othello.{module}; "
          "print(sorted(m for m in sys.modules if m.startswith('mctslab') and "
          "m.endswith('experiments')))")


@pytest.mark.parametrize("module", ["tables", "figures", "claims"])
def test_no_experiments_module_is_imported(module):
    out = subprocess.run([sys.executable, "-c", LOADED.format(module=module)],
                         capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", f"mctslab.othello.{module} imports {out.strip()}"


def test_a_run_name_is_a_runner_and_is_defined_once():
    """One name, one meaning: no two modules of the domain define the same ``run_*``
    function (the runners' names, ``run_<experiment>(run, cfg, ...)``, name nothing else)."""
    defined = {}
    for path in sorted(Path(experiments.__file__).parent.glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("run_"):
                defined.setdefault(node.name, []).append(path.stem)
    assert {name: where for name, where in defined.items() if len(where) > 1} == {}


def test_the_protocol_is_the_paper_scales_or_the_runs_own_at_paper_scale():
    assert experiments.config("smoke").protocol() == experiments.config("paper")
    paper = experiments.config("paper", k_factor=16)  # an override shows as a departure
    assert paper.protocol() is paper
