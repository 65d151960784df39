"""Headless plotting, set once for every domain's ``figures.py``.

Figures are drawn in notebooks run by papermill, in worker processes and from the command
line, none of which has a display: the Agg backend is selected here, before ``pyplot`` is
imported, and every figure module takes ``plt`` from this module::

    from mctslab.core.plotting import plt

Inside a Jupyter kernel (``ipykernel`` loaded) the kernel's own inline backend is kept: it is
headless too, and it shows the figures in the executed notebook.
"""

from __future__ import annotations

import sys

import matplotlib

if "ipykernel" not in sys.modules:
    matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

__all__ = ["plt"]
