"""Upper/lower confidence bounds for MCTS selection (UCB1, Kocsis & Szepesvari 2006).

All papers share one exploration term, ``sqrt(2 ln n / n_j)``:

- maximising (Go, UCT): ``mean_j + c sqrt(2 ln n / n_j)``            -> :func:`ucb_max`
- minimising (Sudoku paper, Sec. 3: ``mean(X_j) - c sqrt(2 log n / n_j)`` or
  ``min(X_j) - c sqrt(...)``; TSP paper: ``mean_j - 2 Cp sqrt(2 ln n / n_j)``)  -> :func:`ucb_min`

An unvisited child (``n_j == 0``) has an infinite exploration term, so it is always tried
first (``+inf`` for :func:`ucb_max`, ``-inf`` for :func:`ucb_min`).
"""

from __future__ import annotations

import math

from mctslab.core.jit import njit

__all__ = ["exploration", "ucb_max", "ucb_min"]


@njit(cache=True)
def exploration(n_parent, n_child):
    """``sqrt(2 ln n / n_j)``; ``inf`` when the child is unvisited."""
    if n_child <= 0:
        return math.inf
    if n_parent <= 1:
        return 0.0
    return math.sqrt(2.0 * math.log(n_parent) / n_child)


@njit(cache=True)
def ucb_max(value, n_parent, n_child, c):
    """Score to maximise: ``value + c sqrt(2 ln n / n_j)`` (``inf`` for an unvisited child)."""
    if n_child <= 0:
        return math.inf
    return value + c * exploration(n_parent, n_child)


@njit(cache=True)
def ucb_min(value, n_parent, n_child, c):
    """Score to minimise: ``value - c sqrt(2 ln n / n_j)`` (``-inf`` for an unvisited child)."""
    if n_child <= 0:
        return -math.inf
    return value - c * exploration(n_parent, n_child)
