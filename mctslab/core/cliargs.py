"""Argument types of every ``mctslab`` command, so a count or a seed is checked the same way
in every domain (argparse prints the message and exits with status 2).

Counts (``--games``, ``--playouts``, ``--workers``) are :func:`positive_int`; seeds are
:func:`seed` (a whole number >= 0, what ``numpy.random.SeedSequence`` takes); probabilities
(``--epsilon``) are :func:`probability`; constants that may be 0 (``--c``, ``--cp``) are
:func:`non_negative_float`; times are :func:`positive_float`.

``--out`` means one thing in every command: an output *folder* (:func:`add_out`). A command
that writes one file names the option after the file (``--tour-file``, ``--puzzle-file``,
``--png``).
"""

from __future__ import annotations

import argparse
import math

__all__ = ["positive_int", "non_negative_int", "seed", "int_range", "positive_float",
           "non_negative_float", "finite_float", "probability", "add_out"]


def _whole(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be {what}, got {text!r}") from None


def _real(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be {what}, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be {what}, got {text!r}")
    return value


def positive_int(text: str) -> int:
    """A count: a whole number >= 1."""
    value = _whole(text, "a whole number >= 1")
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def non_negative_int(text: str) -> int:
    """A whole number >= 0 (a move number, a clue bound that 0 switches off)."""
    value = _whole(text, "a whole number >= 0")
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, got {value}")
    return value


def seed(text: str) -> int:
    """A random seed: a whole number >= 0."""
    value = _whole(text, "a whole number >= 0 (a seed)")
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed must be at least 0, got {value}")
    return value


def int_range(low: int, high: int):
    """A whole number in ``low..high`` (both included), e.g. a board size."""

    def check(text: str) -> int:
        value = _whole(text, f"a whole number in {low}..{high}")
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be in {low}..{high}, got {value}")
        return value

    check.__name__ = f"int_range({low}, {high})"
    return check


def finite_float(text: str) -> float:
    """Any finite number (a komi)."""
    return _real(text, "a finite number")


def positive_float(text: str) -> float:
    """A finite number > 0 (a time limit in seconds)."""
    value = _real(text, "a finite number > 0")
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {value:g}")
    return value


def non_negative_float(text: str) -> float:
    """A finite number >= 0 (an exploration constant)."""
    value = _real(text, "a finite number >= 0")
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value:g}")
    return value


def probability(text: str) -> float:
    """A number in [0, 1]."""
    value = _real(text, "a number in [0, 1]")
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be in [0, 1], got {value:g}")
    return value


def add_out(parser: argparse.ArgumentParser, help: str | None = None, **kwargs):
    """Add ``--out DIR``: the output folder (``None``: the project root, see
    :func:`mctslab.paths.output_root`)."""
    return parser.add_argument(
        "--out", default=None, metavar="DIR",
        help=help or "output folder (default: the project root)", **kwargs)
