"""The schedule of ``mctslab reproduce``: which domains' kernels compile in one warm-up process,
in what order, and in what order the lanes take the notebooks, derived from the one list of
domains (``mctslab.NOTEBOOKS``) and each domain's measured costs (:data:`DOMAIN_COSTS`), so a
domain added to the list without its costs is an error rather than a notebook left out.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import mctslab

__all__ = ["DOMAIN_COSTS", "DomainCost", "MAX_LANES", "domain_costs", "lane_order",
           "warm_up_order"]


@dataclass(frozen=True)
class DomainCost:
    """What the pipeline knows of a domain to schedule its notebook: the CPU seconds of
    compiling its kernels on a fresh clone (``None``: compiled in ``compiled_with``'s warm-up
    process and counted there) and of its notebook at the default scale with one worker."""

    compile_s: float | None
    default_s: float
    compiled_with: str | None = None  # the domain whose kernels this one's are built on


# Every domain of mctslab.NOTEBOOKS, measured 2026-11-26 (compile seconds: go + manyfaces 58,
# sudoku 46, tsp 18, othello 9; default scale: go 296, sudoku 216, tsp 210, othello 124,
# manyfaces 100). Many Faces runs on Go's board, so the two compile in one process (Go's
# kernels once, then loaded). A domain missing here is an error (:func:`domain_costs`).
DOMAIN_COSTS = {
    "othello": DomainCost(9, 124), "sudoku": DomainCost(46, 216), "tsp": DomainCost(18, 210),
    "go": DomainCost(58, 296), "manyfaces": DomainCost(None, 100, compiled_with="go")}

# Notebooks run at most this many at a time (``pipeline.lanes``), taken in :func:`lane_order` by
# whichever lane is free. One notebook at a time left a core idle through each notebook's
# serial parts (kernel start and imports, a last long task, plots, its HTML page): 224 of 1,316
# core-seconds of a fresh clone's `make reproduce` on 2 cores (10 min 58 s, 5e932fa).
MAX_LANES = 2


def domain_costs(notebooks: dict | None = None) -> dict[str, DomainCost]:
    """:data:`DOMAIN_COSTS` of every domain of ``notebooks`` (default ``mctslab.NOTEBOOKS``),
    in its order; a domain without costs (or costs of no such domain) is a ``ValueError``
    naming it, never a domain left out of the warm-up or the lanes."""
    domains = list(mctslab.NOTEBOOKS if notebooks is None else notebooks)
    missing = [d for d in domains if d not in DOMAIN_COSTS]
    unknown = [d for d in DOMAIN_COSTS if d not in domains]
    if missing or unknown:
        raise ValueError(
            "pipeline.DOMAIN_COSTS must name every domain of mctslab.NOTEBOOKS: "
            + "; ".join(part for part in (
                missing and f"no costs for {', '.join(missing)} (measure its kernels' compile "
                            "CPU seconds and its notebook's at the default scale)",
                unknown and f"costs of no domain: {', '.join(unknown)}") if part))
    for domain in domains:
        host = DOMAIN_COSTS[domain].compiled_with
        if host is not None and (host not in domains or DOMAIN_COSTS[host].compiled_with):
            raise ValueError(f"pipeline.DOMAIN_COSTS: {domain} is compiled with {host!r}, "
                             "which is no domain compiled in its own process")
    return {d: DOMAIN_COSTS[d] for d in domains}


def warm_up_order(notebooks: dict | None = None) -> tuple[tuple[str, ...], ...]:
    """The warm-up's processes: each domain in its own, or in that of the domain its kernels
    are built on (``compiled_with``), that one first; the largest compile first (ties in the
    order of ``mctslab.NOTEBOOKS``)."""
    costs = domain_costs(notebooks)
    groups: dict[str, list[str]] = {}
    for domain in sorted(costs, key=lambda d: costs[d].compiled_with is not None):
        groups.setdefault(costs[domain].compiled_with or domain, []).append(domain)
    total = {host: sum(costs[d].compile_s or 0 for d in group) for host, group in groups.items()}
    return tuple(tuple(groups[host]) for host in sorted(groups, key=lambda h: -total[h]))


def _makespan(seconds: list[float], lanes: int) -> float:
    """When the last of the notebooks (their CPU seconds, in order) ends, each taken by the lane
    free first."""
    free = [0.0] * lanes
    for s in seconds:
        free[free.index(min(free))] += s
    return max(free)


def lane_order(notebooks: dict | None = None, lanes: int = MAX_LANES) -> tuple[str, ...]:
    """The notebooks of every domain in the order ``mctslab reproduce`` takes them: of the orders
    that end soonest when ``lanes`` lanes take the next notebook as they come free (default
    scale CPU seconds), the one nearest to longest first (the longest first order can leave a
    lane idle at the end: 520 s against 506 s for the five papers on 2 lanes)."""
    notebooks = dict(mctslab.NOTEBOOKS if notebooks is None else notebooks)
    costs = domain_costs(notebooks)
    longest_first = sorted(costs, key=lambda d: -costs[d].default_s)
    best, best_time = None, float("inf")
    for order in itertools.permutations(longest_first):  # longest first, then the next ones
        spent = _makespan([costs[d].default_s for d in order], lanes)
        if spent < best_time:
            best, best_time = order, spent
    return tuple(notebooks[d] for d in best)
