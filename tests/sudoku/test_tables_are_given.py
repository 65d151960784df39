"""The Sudoku tables build from what they are given: the 17-clue census is read by the
experiments and passed in. That no tables, figures or claims module loads an experiments
module, that ``cfg.protocol()`` is the paper scale's configuration, and that a ``run_*`` name is
defined once, is checked for every domain in ``tests/core/test_architecture_claims.py``."""

from mctslab.sudoku import experiments


def test_the_census_is_read_by_the_experiments():
    forms, label = experiments.census_forms()
    assert label.startswith("Royle") and len(forms) >= 2000


