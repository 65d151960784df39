"""Rounding for the tables a reader cites: meaningful digits, not 16.

The result store keeps full precision; only what a table function returns (and so the CSVs
and displayed tables) is rounded: rates, scores and ratios to 3 decimals, times and speeds to
3 significant digits, means over a few runs to their resolution.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["significant", "round_table"]


def significant(values, digits: int = 3):
    """``values`` rounded to ``digits`` significant digits (NaN, inf and 0 unchanged).

    Accepts a scalar, an array or a Series and returns the same kind.
    """
    if digits < 1:
        raise ValueError(f"digits must be >= 1, got {digits}")
    array = np.asarray(values, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        magnitude = np.floor(np.log10(np.abs(array)))
    magnitude = np.where(np.isfinite(magnitude), magnitude, 0.0)
    scale = 10.0 ** (digits - 1 - magnitude)
    with np.errstate(invalid="ignore", over="ignore"):
        rounded = np.where(np.isfinite(array) & (array != 0), np.round(array * scale) / scale, array)
    if isinstance(values, pd.Series):
        return pd.Series(rounded, index=values.index, name=values.name)
    return rounded if np.ndim(values) else float(rounded)


def _numeric(column: pd.Series) -> pd.Series | None:
    if pd.api.types.is_bool_dtype(column):
        return None
    if pd.api.types.is_numeric_dtype(column):
        return column
    converted = pd.to_numeric(column, errors="coerce")  # e.g. floats and None in one column
    if converted.notna().sum() == column.notna().sum():
        return converted
    return None


def round_table(frame: pd.DataFrame, decimals: dict | None = None,
                significant_digits: dict | None = None) -> pd.DataFrame:
    """A copy of ``frame`` with ``decimals`` ({column: places}) and ``significant_digits``
    ({column: digits}) applied; columns absent or not numeric are left as they are.
    Integer columns stay integers."""
    out = frame.copy()
    for column, places in (decimals or {}).items():
        values = _numeric(out[column]) if column in out else None
        if values is not None and not pd.api.types.is_integer_dtype(values):
            out[column] = values.round(places)
    for column, digits in (significant_digits or {}).items():
        values = _numeric(out[column]) if column in out else None
        if values is not None and not pd.api.types.is_integer_dtype(values):
            out[column] = significant(values.astype(np.float64), digits)
    return out
