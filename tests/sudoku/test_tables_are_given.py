"""The sudoku tables and figures build from what they are given: they import no experiments
module, by any path (a name re-exported through another module counts), and the paper scale's
configuration comes with the run's (``cfg.protocol()``)."""

import subprocess
import sys

import pytest

from mctslab.sudoku import experiments

LOADED = ("import sys, mctslab.sudoku.{module}; "
          "print(sorted(m for m in sys.modules if m.startswith('mctslab') and "
          "m.endswith('experiments')))")


@pytest.mark.parametrize("module", ["tables", "figures", "claims"])
def test_no_experiments_module_is_imported(module):
    out = subprocess.run([sys.executable, "-c", LOADED.format(module=module)],
                         capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", f"mctslab.sudoku.{module} imports {out.strip()}"


def test_the_protocol_is_the_paper_scales_or_the_runs_own_at_paper_scale():
    assert experiments.config("smoke").protocol() == experiments.config("paper")
    paper = experiments.config("paper", c=0.5)  # an override shows as a departure
    assert paper.protocol() is paper


def test_the_census_is_read_by_the_experiments():
    forms, label = experiments.census_forms()
    assert label.startswith("Royle") and len(forms) >= 2000
