"""Rounding of cited tables: meaningful digits, not 16."""

import numpy as np
import pandas as pd
import pytest

from mctslab.core.rounding import round_table, significant


def test_significant_digits_on_the_issue_examples():
    assert significant(5512.035905355587) == 5510.0
    assert significant(0.0012345) == 0.00123
    assert significant(-123456.0, 2) == -120000.0
    values = significant(np.array([0.0, np.nan, np.inf, 0.15, 999.6]))
    assert values[0] == 0 and np.isnan(values[1]) and np.isinf(values[2])
    assert values[3] == 0.15 and values[4] == 1000.0
    series = significant(pd.Series([1.23456, 98765.4], index=["a", "b"], name="x"))
    assert series.tolist() == [1.23, 98800.0] and series.name == "x"
    with pytest.raises(ValueError, match="digits must be >= 1"):
        significant(1.0, 0)


def test_round_table_rounds_the_named_columns_only():
    frame = pd.DataFrame({"ratio": [0.123456, None], "speed": [5512.0359, 12.3456],
                          "count": [3, 4], "label": ["a", "b"], "mixed": [0.98765, None]})
    frame["mixed"] = frame["mixed"].astype(object)
    rounded = round_table(frame, {"ratio": 3, "mixed": 2, "label": 1, "absent": 1},
                          {"speed": 3, "count": 3})
    assert rounded["ratio"].iloc[0] == 0.123 and pd.isna(rounded["ratio"].iloc[1])
    assert rounded["speed"].tolist() == [5510.0, 12.3]
    assert rounded["count"].tolist() == [3, 4] and rounded["count"].dtype == frame["count"].dtype
    assert rounded["label"].tolist() == ["a", "b"] and rounded["mixed"].iloc[0] == 0.99
    assert frame["ratio"].iloc[0] == 0.123456  # the input is not changed
