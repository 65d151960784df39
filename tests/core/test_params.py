"""The shared parameter checks (`mctslab.core.params`)."""

from dataclasses import dataclass

import numpy as np
import pytest

from mctslab.core.params import check_known, finite_number, from_mapping, given, positive_int


@dataclass(frozen=True)
class Point:
    x: int = 0
    y: int = 0


def test_unknown_names_are_listed_with_the_known_ones():
    check_known({"x": 1}, {"x", "y"})
    with pytest.raises(ValueError, match=r"unknown widget\(s\) a, b; known: x, y"):
        check_known(["b", "x", "a"], ["y", "x"], "widget")


def test_from_mapping_builds_or_names_the_stranger():
    assert from_mapping(Point, {"y": 2}) == Point(0, 2)
    with pytest.raises(ValueError, match=r"unknown point field\(s\) z"):
        from_mapping(Point, {"z": 1}, "point field")


def test_given_drops_none_and_freezes_lists():
    assert given({"a": None, "b": [1, 2], "c": 0, "d": ""}) == {"b": (1, 2), "c": 0, "d": ""}


@pytest.mark.parametrize("value", [1, 7, np.int64(3)])
def test_positive_int_accepts_integers(value):
    assert positive_int("n", value) == int(value)


@pytest.mark.parametrize("value", [0, -1, 2.0, True, "3", None])
def test_positive_int_names_the_bad_value(value):
    with pytest.raises(ValueError, match=f"n must be a positive integer, got {value!r}"):
        positive_int("n", value)
    assert positive_int("m", 0, minimum=0) == 0
    with pytest.raises(ValueError, match="m must be an integer >= 0, got -1"):
        positive_int("m", -1, minimum=0)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), True, "1.0", None])
def test_finite_number_names_the_bad_value(value):
    with pytest.raises(ValueError, match="x must be a finite number"):
        finite_number("x", value)
    assert finite_number("x", np.float32(0.5)) == 0.5 and finite_number("x", 2) == 2.0
