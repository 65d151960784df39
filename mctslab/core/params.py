"""Checking the parameters a notebook or a task is given (one place for every domain).

Each domain's ``experiments.config(scale, **overrides)`` and each task's parameter dataclass use
these, so a bad parameter gets the same kind of error everywhere: a ``ValueError`` that names the
parameter, the value and what was expected.

Every domain's ``config`` has the same shape (:func:`config_values` is the shared part)::

    SCALES = {"smoke": {...}, "default": {...}, "paper": {...}}   # field values per scale

    def config(scale="default", **overrides):
        values = config_values(Config, SCALES, scale, overrides, what="<domain> parameter",
                               reals=REAL_FIELDS)
        return _check(Config(scale=scale, **values))

and a notebook builds it from its parameters cell with ``notebook_config(experiments,
globals())``.

and a task's parameters name a paper constant (or an open reading) only when it differs from its
default (:func:`non_default`), so a run at the paper's values keeps its task ids.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping

import numpy as np

__all__ = ["SCALES", "check_scale", "scale_values", "check_known", "from_mapping", "given",
           "as_real", "non_default", "positive_int", "finite_number", "config_values",
           "notebook_config"]

SCALES = ("smoke", "default", "paper")


def check_scale(scale: str) -> str:
    """``scale`` if it is one of :data:`SCALES`, else a ``ValueError`` naming it and the known ones."""
    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}; choose one of {', '.join(SCALES)}")
    return scale


def scale_values(scales: Mapping[str, Mapping], scale: str) -> dict:
    """A copy of ``scales[scale]`` (a domain's field values at that scale), after
    :func:`check_scale`; every domain declares its scales as such a dict."""
    check_scale(scale)
    if set(scales) != set(SCALES):
        raise ValueError(f"a domain's scales must be exactly {', '.join(SCALES)}, "
                         f"got {', '.join(scales)}")
    return dict(scales[scale])


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


def as_real(value):
    """An integer literal given for a real parameter (``cp=2``, a notebook's ``alpha = 1``)
    becomes a float, element-wise in a tuple, so that it is the same run (and task ids) as
    ``2.0``; anything else is returned as it is, for validation to judge."""
    if isinstance(value, tuple):
        return tuple(as_real(v) for v in value)
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return float(value)
    return value


def non_default(values, defaults: Mapping) -> dict:
    """The names of ``defaults`` whose value on ``values`` (an object with them as attributes)
    differs from the default, with that value (a tuple as a list, as task parameters hold it).

    This is what enters a task's parameters: a run at the defaults keeps the task ids (and the
    stored results) it had before those names were parameters at all.
    """
    changed = {}
    for name, default in defaults.items():
        value = getattr(values, name)
        if value != default:
            changed[name] = list(value) if isinstance(value, tuple) else value
    return changed


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


def config_values(cls, scales: Mapping[str, Mapping], scale: str, overrides: Mapping, *,
                  what: str, reals: Iterable[str] = (), base: Mapping | None = None) -> dict:
    """The field values of a domain's ``Config`` at ``scale`` with ``overrides``: the one
    config builder of every ``experiments.config``.

    :func:`check_known` (an unknown name is a ``ValueError`` calling it a ``what``, e.g.
    "TSP parameter"), then ``base`` (constants the same at every scale), the scale's values
    (:func:`scale_values`) and the overrides really given (:func:`given`), in that order;
    the names in ``reals`` that are present go through :func:`as_real`. The domain then builds
    its ``Config(scale=scale, **values)`` and checks it.
    """
    check_known(overrides, {f.name for f in dataclasses.fields(cls)} - {"scale"}, what)
    values = dict(base or {})
    values.update(scale_values(scales, scale))
    values.update(given(overrides))
    for name in reals:
        if name in values:
            values[name] = as_real(values[name])
    return values


def notebook_config(experiments, namespace: Mapping):
    """A notebook's configuration from its own parameters: ``experiments.config(scale,
    **overrides)`` with, as overrides, the names of ``experiments.Config``'s fields found in
    ``namespace`` (the notebook's ``globals()``, after papermill's injected parameters).

    So a parameter is written once in the notebook (its line in the ``parameters`` cell,
    whose comment ``mctslab list`` shows) and once in the domain (its ``Config`` field and
    ``SCALES``): ``cfg = notebook_config(experiments, globals())``.
    """
    names = {f.name for f in dataclasses.fields(experiments.Config)} - {"scale"}
    return experiments.config(namespace["scale"],
                              **{name: namespace[name] for name in sorted(names & set(namespace))})
