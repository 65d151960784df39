"""Our Go engine's settings: one type for ``mctslab go gtp``, ``go match``, ``go search``, the
notebooks' matches and the Many Faces players.

Two engine kinds share it, chosen by ``classical``:

* ``"none"``: our search chooses every move: ``engine="uct"`` is plain UCT
  (:func:`mctslab.go.api.search`), ``engine="strong"`` the strong engine
  (:func:`mctslab.go.strong.search`: RAVE, priors, heavy playouts);
* ``"gnugo"``: the state-tabu paper's engine: GNU Go 3.8's classical move generation hosts the
  search, which may veto GNU Go's move (:mod:`mctslab.go.host`).

:func:`engine_settings` builds the settings of a named engine with its own defaults
(``engine_settings("strong", playouts=8000)``): the fields shared by both engines default to
the UCT engine's values in the dataclass.

The move rules themselves are :class:`mctslab.go.gtp.GtpServer`'s ``choose_move`` (pure) and
``host_move`` (host), so the GTP engine and a match play the same engine for the same settings.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from mctslab.go import gnugo, strong
from mctslab.go.api import POLICIES
from mctslab.go.endgame import PASS_RULES
from mctslab.go.host import ROOT_ORDERS
from mctslab.go.tabu import REDRAWS, TabuConfig, parse_config

__all__ = ["EngineSettings", "CLASSICAL", "ROOT_SELECT", "ENGINES", "STRONG_FIELDS",
           "engine_settings"]

CLASSICAL = ("none", "gnugo")
ROOT_SELECT = ("visits", "winrate")
ENGINES = ("uct", "strong")
# Fields of the strong engine: a match's task parameters carry them only when they differ
# from these defaults, so the task ids of matches recorded without them stay the same.
STRONG_FIELDS = {"engine": "uct", "rave": strong.DEFAULTS["rave"],
                 "rave_equiv": strong.DEFAULTS["rave_equiv"],
                 "priors": strong.DEFAULTS["priors"],
                 "prior_weight": strong.DEFAULTS["prior_weight"],
                 "expand_visits": strong.DEFAULTS["expand_visits"], "seconds": 0.0,
                 "pass_rule": "estimate", "reuse_tree": False,
                 "ladders": strong.DEFAULTS["ladders"], "lgrf": strong.DEFAULTS["lgrf"],
                 "large_patterns": strong.DEFAULTS["large_patterns"],
                 "two_liberty": strong.DEFAULTS["two_liberty"]}
# The strong engine's on/off pieces (bool fields), named for errors
SWITCHES = {"reuse_tree": "tree reuse", "lgrf": "last good replies",
            "two_liberty": "two-liberty tactics"}
# The strong engine's values of the shared fields (engine_settings("strong")): it passes only
# when the plain count wins (pass_rule "plain"; its matches' task parameters then carry the
# rule, so their ids differ from the games recorded with the estimate rule).
_ENGINE_DEFAULTS = {"uct": {}, "strong": {**{k: v for k, v in strong.DEFAULTS.items()
                                             if k in ("policy", "c", "root_select")},
                                          "pass_rule": "plain"}}


def engine_settings(engine: str = "uct", **values) -> EngineSettings:
    """The settings of ``engine`` ("uct" or "strong") with its defaults, ``values`` (None:
    the default) over them."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
    given = {k: v for k, v in values.items() if v is not None}
    return EngineSettings(**{**_ENGINE_DEFAULTS[engine], **given, "engine": engine})


@dataclass(frozen=True)
class EngineSettings:
    """Everything our engine plays with (the defaults are ``mctslab go gtp``'s).

    Search: ``playouts`` per move, playout ``policy`` (light | pattern), UCT constant ``c``
    (Eq. 1), ``config`` (a Table 1 engine of the state-tabu paper: ``gnugo-uct``, ``gTabu0``,
    ``gTabuL[-hash[-win]]``: its tabu lists and expansion threshold), ``expansion_threshold``
    (None: the configuration's), ``tabu_moves`` (M), ``tabu_redraw`` (policy | light: how a
    playout move rejected by a tabu list is drawn again), ``seed`` (the search of move k uses
    ``seed + k``; None: fresh entropy).

    Pure engine (``classical="none"``): the root move by ``root_select`` (visits | winrate);
    resign below the root win rate ``resign`` (0: never); ``pass_rule``
    (:mod:`mctslab.go.endgame`): ``estimate`` passes when the opponent has just passed and our count (dead stones removed by
    ``dead_playouts`` light playouts at ``dead_threshold``) already wins, ``plain`` only when
    the count with every stone alive wins (else it captures the dead stones first; the dead
    stones read by the engine's own playouts; the strong engine's default).

    Host engine (``classical="gnugo"``): GNU Go 3.8 at ``gnugo_level`` hosts the search
    (:mod:`mctslab.go.host`); ``root_order`` (value | random) orders the untried root children;
    ``resign`` > 0 lets GNU Go resign where it would, 0 never resigns; ``timeout``: seconds
    GNU Go may take per reply; ``host_argv``: another command line for the host (tests).

    ``size``, ``komi``: the board a GTP session starts with; ``superko``: positional superko.

    ``engine``: ``uct`` or ``strong`` (pure engine only). The strong engine's pieces
    (:mod:`mctslab.go.strong`): ``rave`` (silver | gelly | none) with ``rave_equiv`` (k),
    ``priors`` (comma-separated pieces, or none) scaled by ``prior_weight``, ``expand_visits``,
    ``seconds`` (a time limit per move, 0: none; ``playouts`` stays the cap), ``reuse_tree``
    (keep the tree between moves: ``playouts`` is then what the root reaches, reused visits
    included, as Pachi counts; :mod:`mctslab.go.strong`), ``ladders`` (where it reads
    ladders: ``priors``, ``playouts``, both comma-separated, or ``none``; kept in the canonical
    order of ``strong.LADDER_USES``), ``lgrf`` (the playouts play the last good reply first),
    ``large_patterns`` (the large-pattern prior's weight, 0: off), ``two_liberty`` (two-liberty
    tactics in the playouts); it reads
    ``policy`` (light | pattern | heavy), ``c`` (a UCB term on top of RAVE) and ``root_select``
    as well. Use :func:`engine_settings` for its defaults.
    """

    size: int = 19
    komi: float = 6.5
    playouts: int = 1000
    policy: str = "light"
    seed: int | None = 0
    resign: float = 0.1
    c: float = 1.5
    root_select: str = "visits"
    expansion_threshold: int | None = None
    superko: bool = False
    dead_playouts: int = 200
    dead_threshold: float = 0.7
    config: str = "gnugo-uct"
    tabu_moves: int = 5
    tabu_redraw: str = "policy"
    classical: str = "none"
    gnugo_level: int = 10
    root_order: str = "value"
    timeout: float = 300.0
    host_argv: tuple | None = None
    engine: str = "uct"
    rave: str = STRONG_FIELDS["rave"]
    rave_equiv: float = STRONG_FIELDS["rave_equiv"]
    priors: str = STRONG_FIELDS["priors"]
    prior_weight: float = STRONG_FIELDS["prior_weight"]
    expand_visits: int = STRONG_FIELDS["expand_visits"]
    seconds: float = STRONG_FIELDS["seconds"]
    pass_rule: str = STRONG_FIELDS["pass_rule"]
    reuse_tree: bool = STRONG_FIELDS["reuse_tree"]
    ladders: str = STRONG_FIELDS["ladders"]
    lgrf: bool = STRONG_FIELDS["lgrf"]
    large_patterns: float = STRONG_FIELDS["large_patterns"]
    two_liberty: bool = STRONG_FIELDS["two_liberty"]

    def __post_init__(self):
        self._check_engine()
        if self.root_select not in ROOT_SELECT:
            raise ValueError(f"root_select must be visits or winrate, got {self.root_select!r}")
        for name, known in (("classical", CLASSICAL), ("root_order", ROOT_ORDERS),
                            ("tabu_redraw", REDRAWS), ("pass_rule", PASS_RULES)):
            if getattr(self, name) not in known:
                raise ValueError(f"{name} must be one of {', '.join(known)}, got "
                                 f"{getattr(self, name)!r}")
        self._check_numbers()
        self.tabu()  # an unknown configuration name fails here

    def _check_engine(self):
        """The engine's name, and the pieces it reads: the strong engine's (a pure engine), or
        the UCT engine's playout policy."""
        if self.engine not in ENGINES:
            raise ValueError(f"unknown engine {self.engine!r}; known: {', '.join(ENGINES)}")
        for name, what in SWITCHES.items():  # the strong engine's on/off pieces
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be true or false, got {value!r}")
            if value and self.engine != "strong":
                raise ValueError(f"{name} ({what}) is a piece of the strong engine only "
                                 "(engine strong)")
        if self.large_patterns and self.engine != "strong":
            raise ValueError("the large-pattern prior (large_patterns) is the strong engine's "
                             "(engine strong)")
        if not isinstance(self.ladders, str):
            raise ValueError(f"ladders must be a comma-separated text, got {self.ladders!r}")
        object.__setattr__(self, "ladders", strong.ladder_name(self.ladders))  # canonical
        if self.ladders != "none" and self.engine != "strong":
            raise ValueError("ladder reading (ladders) is the strong engine's (engine strong)")
        if self.engine == "strong":
            if self.classical != "none":
                raise ValueError("the strong engine is a pure engine: classical must be none")
            strong.check_settings(self.policy, self.rave, self.rave_equiv, self.c,
                                  self.expand_visits, self.prior_weight, self.seconds,
                                  self.large_patterns)
            strong.parse_priors(self.priors)
        elif self.policy not in POLICIES:
            raise ValueError(f"unknown policy {self.policy!r}; known: {', '.join(POLICIES)}")

    def _check_numbers(self):
        """The counts, GNU Go's level, ``c``, ``resign`` and ``timeout`` in their ranges."""
        for name in ("playouts", "tabu_moves"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
        gnugo.check_level(self.gnugo_level)
        if not (math.isfinite(self.c) and self.c >= 0):
            raise ValueError(f"c must be a finite number >= 0, got {self.c!r}")
        if not 0 <= self.resign < 1:
            raise ValueError(f"resign must be in [0, 1), got {self.resign!r}")
        if not self.timeout > 0:
            raise ValueError(f"timeout must be > 0 seconds, got {self.timeout!r}")

    def tabu(self) -> TabuConfig:
        """The configuration's :class:`~mctslab.go.tabu.TabuConfig` (threshold overridden by
        ``expansion_threshold`` when set)."""
        return parse_config(self.config, moves=self.tabu_moves, playouts=self.playouts,
                            c=self.c, expansion_threshold=self.expansion_threshold,
                            redraw=self.tabu_redraw)

    @property
    def label(self) -> str:
        """A short name for tables: the configuration, ``+gnugo`` for the host engine,
        ``strong`` (``strong-`` and the tabu configuration when it has tabu lists)."""
        if self.engine == "strong":
            return "strong" if self.config == "gnugo-uct" else f"strong-{self.config}"
        return self.config + ("" if self.classical == "none" else f"+gnugo{self.gnugo_level}")
