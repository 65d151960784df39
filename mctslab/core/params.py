"""Checking the parameters a notebook or a task is given (one place for every domain).

Each domain's ``experiments.config(scale, **overrides)`` and each task's parameter dataclass use
these, so a bad parameter gets the same kind of error everywhere: a ``ValueError`` that names the
parameter, the value and what was expected.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping

import numpy as np

__all__ = ["check_known", "from_mapping", "given", "positive_int", "finite_number"]


def check_known(names: Iterable[str], known: Iterable[str], what: str = "parameter") -> None:
    """Raise ``ValueError`` naming every name of ``names`` not in ``known`` (and the known ones)."""
    known = set(known)
    unknown = sorted(set(names) - known)
    if unknown:
        raise ValueError(f"unknown {what}(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")


def from_mapping(cls, params: Mapping, what: str = "parameter"):
    """``cls(**params)`` for a dataclass ``cls``, after :func:`check_known` on its fields."""
    check_known(params, (f.name for f in dataclasses.fields(cls)), what)
    return cls(**params)


def given(overrides: Mapping) -> dict:
    """The overrides a caller really gave: ``None`` (a notebook's "take it from the scale")
    dropped, lists (papermill's JSON) turned into tuples so configurations stay hashable."""
    return {k: (tuple(v) if isinstance(v, list) else v) for k, v in overrides.items()
            if v is not None}


def positive_int(name: str, value, minimum: int = 1) -> int:
    """``value`` if it is an integer (not a bool) >= ``minimum``, else a ``ValueError``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        expected = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise ValueError(f"{name} must be {expected}, got {value!r}")
    return int(value)


def finite_number(name: str, value) -> float:
    """``value`` as a float if it is a finite real number (not a bool), else a ``ValueError``."""
    if (isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating))
            or not math.isfinite(value)):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return float(value)
