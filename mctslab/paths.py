"""Where things live: the project root and the output tree.

Outputs go under one *output root* (the project root unless ``out`` or ``$MCTSLAB_OUT`` says
otherwise)::

    <root>/reports/<notebook>.ipynb          executed notebooks
    <root>/figures/<notebook>/...            figures (PNG + PDF), tables (CSV), manifest.json
    <root>/data/results/<experiment>/...     the resumable result store (results_root)

and the committed runs under the project's ``records/`` (:func:`records_root`).

Nothing here depends on the current working directory, so a notebook executed by papermill
from any folder writes to the same places.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = [
    "project_root",
    "output_root",
    "notebooks_dir",
    "reports_dir",
    "figures_dir",
    "results_root",
    "results_dir",
    "RESULTS",
    "records_root",
]

_PACKAGE_DIR = Path(__file__).resolve().parent
RESULTS = Path("data", "results")  # the result stores' folder under an output root


def project_root() -> Path:
    """The project: ``$MCTSLAB_HOME``; else the checkout holding the package (an editable
    install, ``pip install -e .``); else the current folder (a ``pip install .`` used from the
    checkout). Notebooks, the shipped data and the default outputs are found here."""
    env = os.environ.get("MCTSLAB_HOME")
    if env:
        return Path(env).expanduser().resolve()
    candidate = _PACKAGE_DIR.parent
    if (candidate / "pyproject.toml").is_file():
        return candidate
    return Path.cwd().resolve()


def output_root(out: str | os.PathLike | None = None) -> Path:
    """The output root: ``out``, else ``$MCTSLAB_OUT``, else the project root."""
    if out is None or str(out) == "":
        out = os.environ.get("MCTSLAB_OUT") or project_root()
    return Path(out).expanduser().resolve()


def notebooks_dir() -> Path:
    return project_root() / "notebooks"


def reports_dir(out=None) -> Path:
    return output_root(out) / "reports"


def figures_dir(notebook: str, out=None) -> Path:
    return output_root(out) / "figures" / notebook


def results_root(out=None) -> Path:
    """``<root>/data/results``: the folder of an output root's result stores, one folder per
    experiment (a match folder of ``mctslab go match --out DIR`` is such a root)."""
    return output_root(out) / RESULTS


def results_dir(experiment: str, out=None) -> Path:
    return results_root(out) / experiment


def records_root(root=None) -> Path:
    """``root``, or the project's ``records/`` folder (the committed runs, ``mctslab records``)."""
    return Path(root) if root is not None else project_root() / "records"
