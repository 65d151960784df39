"""The methods of the TSP notebook (``tsp_mcts_vs_sa``) by key, and their labels: SA, the MCTS
variants of Fig. 8 and Fig. 9's Cp sweep, SA-2opt, LKH-3 and the SA references.

The vocabulary the experiments write into their rows (``method``) and the tables and figures
read back: it lives here, below both, so a table or figure needs nothing from
:mod:`mctslab.tsp.experiments`.
"""

from __future__ import annotations

__all__ = ["CP_RULES", "SA_REFERENCE_KEYS", "mcts_methods", "MCTS_METHODS", "METHODS",
           "method_label", "method_cp"]

# Fig. 9's Cp rules: k x the MST length ("mst") or k x the SD of the edge lengths ("sd")
CP_RULES = ("mst", "sd")
# SA readings run as references next to the paper's SA: the method key of each
SA_REFERENCE_KEYS = {"accept-all": "sa_accept_all"}


def _method_key(policy: str, rule: str, k: float, cp: float) -> str:
    if policy == "uniform":
        return "mct_um"
    short = "rm" if rule == "mst" else "rs"
    return f"mct_{short}" if k == cp else f"mct_{short}_{k:g}{rule}"


def mcts_methods(cp: float = 2.0, cp_multipliers=(0.0, 2.0, 4.0), cp_rules=CP_RULES) -> dict:
    """The MCTS methods of one run: key -> (label, default policy, Cp rule, k).

    MCT_UM (uniform, k x MST), MCT_RM (roulette, k x MST) and MCT_RS (roulette, k x SD) with
    k = ``cp`` (the paper: 2), then Fig. 9's roulette sweep: every k of ``cp_multipliers`` for
    each rule of ``cp_rules``. With the paper's values the keys are ``mct_um``, ``mct_rm_0mst``,
    ``mct_rm``, ``mct_rm_4mst``, ``mct_rs_0sd``, ``mct_rs``, ``mct_rs_4sd`` (in this order,
    which fixes each method's random stream).
    """
    methods = {"mct_um": ("MCT_UM", "uniform", "mst", float(cp))}
    for rule in CP_RULES:
        sweep = set(map(float, cp_multipliers)) if rule in cp_rules else set()
        for k in sorted(sweep | {float(cp)}):
            key = _method_key("roulette", rule, k, cp)
            label = (key.upper() if k == cp
                     else f"{'RM' if rule == 'mst' else 'RS'} {k:g}x{rule.upper()}")
            methods[key] = (label, "roulette", rule, k)
    return methods


# method key -> (label, default policy, Cp rule, k), with the paper's constants
MCTS_METHODS = mcts_methods()
METHODS = {"sa": "SA (paper)", **{k: v[0] for k, v in MCTS_METHODS.items()},
           "sa_2opt": "SA-2opt", "lkh": "LKH-3", "sa_accept_all": "SA accept-all (ineffective)"}


def method_label(key: str) -> str:
    """The label of a method key, also for keys of a Cp sweep other than the paper's."""
    if key in METHODS:
        return METHODS[key]
    _, short, rest = key.split("_", 2)
    rule = "mst" if rest.endswith("mst") else "sd"
    return f"{short.upper()} {rest[:-len(rule)]}x{rule.upper()}"


def method_cp(key: str, cp: float = 2.0) -> tuple[str, float] | None:
    """(Cp rule, k) of a roulette method key (``None`` for the others); ``cp`` is MCT_RM's k."""
    if key in ("mct_rm", "mct_rs"):
        return ("mst" if key == "mct_rm" else "sd"), float(cp)
    if key.startswith(("mct_rm_", "mct_rs_")):
        rest = key.split("_", 2)[2]
        rule = "mst" if rest.endswith("mst") else "sd"
        return rule, float(rest[:-len(rule)])
    return None
