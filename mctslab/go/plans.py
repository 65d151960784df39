"""The recorded Go runs' protocols as data: which rows a match record holds, each row's
``mctslab go match`` flags, the seed, the games each row is queued to reach, and in what order
they are played (:func:`schedule`: interleaved, resumed from the stored games).

A *plan* (:class:`Plan`) is stored in its record as ``plan.json``::

    {"protocol": "strong9", "seed": 2026, "step": 10,
     "match": ["--engine", "strong", "--playouts", "8000", "--size", "9", ...],
     "rows": {"full": {"flags": [], "games": 200},
              "no-rave": {"flags": ["--rave", "none"], "games": 200}, ...}}

``match``: the flags every row shares; a row's ``flags`` follow them (a flag given again by a
row wins). Row ``r`` of a plan in folder ``DIR`` is the match folder ``DIR/r`` (its console
output in ``DIR/r.log``), played by ``mctslab go match --seed SEED MATCH --games N FLAGS --out
DIR/r``: game i of every row gets the same seed, so rows pair up game by game. Other keys
(``why``) are kept as they are. A ``plan.json`` that holds only ``planned_games`` (``{row:
games}``, as the first records wrote it) is read with its protocol's flags; a record without
one gets the plan of its protocol (:data:`PROTOCOLS`), found from the folder's name
(:func:`infer_protocol`).

The protocols (:data:`PROTOCOLS`): ``strong9`` and ``strong19``, the strong engine against
GNU Go 3.8 level 10 (its ablation rows :data:`STRONG_ROWS`, defined here once; the
head-to-head rows ``tabu-h2h-<playouts>-<expansion threshold>``); ``pieces9``, today's engine
(the plain pass rule) with each optional piece added (:data:`PIECE_ROWS`: ladders,
last good reply, large patterns, two-liberty tactics; the first three together), its control
row the command of
``strong9-plain-2026-11-28/full``; ``paper9`` and ``paper19``,
the state-tabu paper's rows with the host engine (:data:`PAPER_ROWS`). Nothing is played here:
:mod:`mctslab.go.plan_run` plays a plan.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from mctslab.core.store import write_json

__all__ = ["PLAN", "STEP", "MATCH_SEED", "NOTEBOOK_SEED", "CONTROL", "HEAD_TO_HEAD",
           "TABU_CONFIG", "TABU_PLAYOUTS", "TABU_EXPANSION", "PRIOR_PIECES", "STRONG_ROWS", "PIECE_ROWS",
           "ABLATION", "PAPER_ROWS", "PROTOCOLS", "QUEUES", "queue_request", "Row", "Plan", "row_flags", "protocol_plan",
           "infer_protocol", "load", "save", "planned_games", "head_to_head_row",
           "match_argv", "schedule"]

PLAN = "plan.json"
STEP = 10             # rows interleaved ten games at a time: games 1-10 of every row, then 11-20
MATCH_SEED = 2026     # the match seed of every recorded match: game i meets the same GNU Go
NOTEBOOK_SEED = 20261123  # the state-tabu notebook's seed (its veto-rate and search tasks)
CONTROL = "full"      # the full strong engine: every ablation row is paired against it
HEAD_TO_HEAD = "tabu-h2h"  # head-to-head rows: tabu-h2h-<playouts>-<expansion threshold>
TABU_CONFIG = "gTabu18-hash-win"  # the paper's best row, against the same engine without lists
TABU_PLAYOUTS, TABU_EXPANSION = 2000, 30  # the paper's tabu engines expand at 30 visits
PRIOR_PIECES = ("even", "capture", "self-atari", "pattern", "distance", "edge")
_PRIOR_NAMES = {"even": "the even prior", "capture": "captures and atari escapes",
                "self-atari": "the self-atari penalty", "pattern": "the 3x3 patterns",
                "distance": "the distance to the last move", "edge": "the edge term"}


def _without(piece: str) -> tuple[str, str]:
    return "--priors", ",".join(p for p in PRIOR_PIECES if p != piece)


# the strong engine's rows, in the order its ablation is queued: (what the row changes in the
# full engine, its `mctslab go match` flags)
STRONG_ROWS = {
    CONTROL: ("every piece on (RAVE, Silver's beta; all priors; heavy playouts; expand at 2)",
              ()),
    "no-rave": ("RAVE off", ("--rave", "none")),
    "no-priors": ("no prior at expansion", ("--priors", "none")),
    "pattern-playouts": ("pattern playouts (no self-atari filter)", ("--policy", "pattern")),
    "light-playouts": ("light (uniform) playouts", ("--policy", "light")),
    "gelly": ("RAVE with Gelly & Silver's schedule", ("--rave", "gelly")),
    "expand-8": ("expansion at the 8th visit", ("--expansion-threshold", "8")),
    **{f"no-{piece}": (f"priors without {_PRIOR_NAMES[piece]}", _without(piece))
       for piece in ("distance", "pattern", "capture", "self-atari", "even", "edge")},
    "resign": ("resigns below 10% (win rate)", ("--resign", "0.1")),
}
ABLATION = tuple(name for name in STRONG_ROWS if name != CONTROL)
# the strong engine's optional pieces (off by default), each added to today's engine (the
# plain pass rule), and all of them together: the rows of the ``pieces9`` protocol
PIECE_ROWS = {
    "ladders": ("+ ladder reading in the priors and playouts", ("--ladders", "all")),
    "lgrf": ("+ last good reply in the playouts", ("--lgrf",)),
    "large-patterns": ("+ the large-pattern prior, weight 100", ("--large-patterns", "100")),
    "two-liberty": ("+ two-liberty tactics in the playouts", ("--two-liberty",)),
    "pieces": ("+ ladders, last good reply and large patterns together",
               ("--ladders", "all", "--lgrf", "--large-patterns", "100")),
}
STRONG_ROWS.update(PIECE_ROWS)

# the host engine of the state-tabu paper's rows: 8,000 pattern playouts, C 1.5, root move by
# win rate, never resigning
_HOST = ("--playouts", "8000", "--policy", "pattern", "--c", "1.5", "--root-select", "winrate",
         "--resign", "0")
PAPER_ROWS = {  # Table 2's rows, then the validation anchors, then the rest (the floor last)
    "host-gnugo-uct": (*_HOST, "--config", "gnugo-uct", "--classical", "gnugo"),
    **{f"host-{c}": (*_HOST, "--config", c, "--classical", "gnugo")
       for c in ("gTabu0", "gTabu18", "gTabu18-hash", "gTabu18-hash-win")},
    "gnugo-mc-L1": ("--candidate", "gnugo-mc", "--candidate-level", "1"),
    "gnugo-mc-L10": ("--candidate", "gnugo-mc", "--candidate-level", "10"),
    "host-vs-gnugo-mc-L10": (*_HOST, "--config", "gnugo-uct", "--classical", "gnugo",
                             "--opponent", "gnugo-mc"),
    "gnugo-self": ("--candidate", "gnugo", "--candidate-level", "10"),
    "pure-gnugo-uct": (*_HOST, "--config", "gnugo-uct", "--classical", "none"),
}

_STRONG = ("--engine", "strong", "--playouts", "8000", "--komi", "6.5",
           # the engine of the committed rows (their task ids), not today's plain pass rule
           "--pass-rule", "estimate", "--opponent-level", "10", "--referee-level", "10")
_PAPER = ("--komi", "6.5", "--gnugo-level", "10", "--referee-level", "10",
          "--opponent-level", "10")
# protocol: (the flags every row shares, {row: games} of its default plan)
PROTOCOLS = {
    "strong9": (("--size", "9", *_STRONG),
                {CONTROL: 200, **dict.fromkeys(ABLATION, 60),
                 f"{HEAD_TO_HEAD}-{TABU_PLAYOUTS}-{TABU_EXPANSION}": 2178}),
    "strong19": (("--size", "19", *_STRONG), {CONTROL: 20}),
    # today's engine (plain pass rule): the command of strong9-plain-2026-11-28/full, so its
    # stored games are this protocol's control row
    "pieces9": (("--size", "9", "--engine", "strong", "--playouts", "8000", "--komi", "6.5",
                 "--opponent-level", "10", "--referee-level", "10"),
                {CONTROL: 200, **dict.fromkeys(PIECE_ROWS, 200)}),
    "paper9": (("--size", "9", *_PAPER), dict.fromkeys(PAPER_ROWS, 100)),
    "paper19": (("--size", "19", *_PAPER), {"gnugo-mc-L10": 100, "host-gnugo-uct": 100}),
}
# the recorded runs' queues (``mctslab go strong QUEUE``, ``mctslab go records QUEUE``):
# (protocol, rows (None: the plan's), games (None: the plan's))
QUEUES = {
    "validate": ("strong9", (CONTROL,), 200),
    "ablation": ("strong9", ABLATION, 60),
    "pilot19": ("strong19", (CONTROL,), 20),
    "tabu": ("strong9", (f"{HEAD_TO_HEAD}-{TABU_PLAYOUTS}-{TABU_EXPANSION}",), 2178),
    "9x9": ("paper9", None, None),
    "19x19": ("paper19", None, None),
}
_H2H = re.compile(rf"{HEAD_TO_HEAD}-(\d+)-(\d+)")


def queue_request(queue: str, words) -> tuple[str, list[str], int | None]:
    """(protocol, rows, games) of a queue of :data:`QUEUES` and its words: ``validate
    [GAMES]``, ``ablation [GAMES] [ROW...]``, ``pilot19 [GAMES]``, ``tabu [GAMES] [PLAYOUTS]
    [EXPANSION]``, ``9x9 [ROW...]``, ``19x19 [ROW...]`` (rows None: the plan's)."""
    if queue not in QUEUES:
        raise ValueError(f"unknown queue {queue!r}; known: {', '.join(QUEUES)}")
    protocol, rows, games = QUEUES[queue]
    words = list(words)
    numbers = []
    while words and words[0].isdigit() and (queue == "tabu" and len(numbers) < 3
                                            or queue in ("validate", "ablation", "pilot19")
                                            and not numbers):
        numbers.append(int(words.pop(0)))
    if words and queue not in ("ablation", "9x9", "19x19"):
        raise ValueError(f"{queue} takes no row names, got {' '.join(words)}")
    if queue == "tabu" and len(numbers) > 1:
        rows = (head_to_head_row(*numbers[1:3]),)
    return protocol, words or (list(rows) if rows else None), numbers[0] if numbers else games


def head_to_head_row(playouts: int = TABU_PLAYOUTS, expansion: int = TABU_EXPANSION) -> str:
    """The name of a head-to-head row: the strong engine with :data:`TABU_CONFIG`'s lists
    against itself without, ``playouts`` each, expanding after ``expansion`` visits."""
    return f"{HEAD_TO_HEAD}-{playouts}-{expansion}"


def row_flags(protocol: str, name: str) -> tuple[str, ...]:
    """The ``mctslab go match`` flags of row ``name`` of ``protocol`` (ValueError naming the
    known rows): a strong protocol's :data:`STRONG_ROWS` or ``tabu-h2h-P-E``; a paper
    protocol's :data:`PAPER_ROWS` or ``host-<any gTabu configuration>``."""
    if protocol not in PROTOCOLS:
        raise ValueError(f"unknown protocol {protocol!r}; known: {', '.join(PROTOCOLS)}")
    if protocol.startswith("strong") or protocol == "pieces9":
        if name in STRONG_ROWS:
            return STRONG_ROWS[name][1]
        found = _H2H.fullmatch(name)
        if found:
            return ("--playouts", found[1], "--expansion-threshold", found[2], "--config",
                    TABU_CONFIG, "--opponent", "mcts", "--opponent-config", "gnugo-uct")
        known = [*STRONG_ROWS, f"{HEAD_TO_HEAD}-PLAYOUTS-EXPANSION"]
    else:
        if name in PAPER_ROWS:
            return PAPER_ROWS[name]
        if re.fullmatch(r"host-gTabu\d+(-hash(-win)?)?", name):
            return (*_HOST, "--config", name[len("host-"):], "--classical", "gnugo")
        known = [*PAPER_ROWS, "host-gTabuL[-hash[-win]]"]
    raise ValueError(f"{protocol} has no row {name!r}; its rows: {', '.join(known)}")


@dataclass(frozen=True)
class Row:
    """One row of a plan: its folder's name, its match flags, the games it is queued to
    reach."""

    name: str
    flags: tuple[str, ...]
    games: int

    def __post_init__(self):
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._+-]*", self.name):
            raise ValueError(f"row name {self.name!r}: letters, digits and ._+- only")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
            raise ValueError(f"row {self.name}: games must be a positive integer, "
                             f"got {self.games!r}")
        object.__setattr__(self, "flags", tuple(str(f) for f in self.flags))
        _check_flags(self.flags, f"row {self.name}")


_OWN_FLAGS = ("--seed", "--games", "--out", "--workers", "--json", "--scheduler")


def _check_flags(flags, where: str) -> None:
    for word in flags:
        if word.split("=")[0] in _OWN_FLAGS:
            raise ValueError(f"{where}: {word} is the plan's to set, not a row's flag")


@dataclass(frozen=True)
class Plan:
    """A record's plan (see the module docstring): ``rows`` in the order they are played."""

    protocol: str
    seed: int
    match: tuple[str, ...]
    rows: tuple[Row, ...]
    step: int = STEP
    notes: dict = field(default_factory=dict, compare=False)  # other keys of plan.json

    def __post_init__(self):
        object.__setattr__(self, "match", tuple(str(f) for f in self.match))
        _check_flags(self.match, "the plan's match flags")
        names = [row.name for row in self.rows]
        if len(set(names)) != len(names):
            raise ValueError(f"a plan's rows have one name each, got {names}")
        if isinstance(self.step, bool) or not isinstance(self.step, int) or self.step < 1:
            raise ValueError(f"step must be a positive integer, got {self.step!r}")

    def row(self, name: str) -> Row:
        for row in self.rows:
            if row.name == name:
                return row
        raise ValueError(f"the plan has no row {name!r}; its rows: "
                         f"{', '.join(r.name for r in self.rows)}")

    @property
    def games(self) -> dict[str, int]:
        """``{row: games it is queued to reach}``."""
        return {row.name: row.games for row in self.rows}

    def with_rows(self, names, games: int | None = None) -> Plan:
        """This plan with the rows ``names`` (a row not in it yet: its protocol's flags,
        :func:`row_flags`) queued to reach at least ``games`` (None: as planned, or the
        protocol's default games for a new row)."""
        rows = {row.name: row for row in self.rows}
        defaults = PROTOCOLS.get(self.protocol, ((), {}))[1]
        for name in names:
            row = rows.get(name)
            if row is None:
                planned = games or defaults.get(name)
                if planned is None:
                    raise ValueError(f"row {name} is new to the plan: give its games")
                row = Row(name, row_flags(self.protocol, name), planned)
            if games is not None and games > row.games:
                row = replace(row, games=games)
            rows[name] = row
        return replace(self, rows=tuple(rows.values()))

    def to_json(self) -> dict:
        rows = {row.name: {"flags": list(row.flags), "games": row.games} for row in self.rows}
        return {**self.notes, "protocol": self.protocol, "seed": self.seed, "step": self.step,
                "match": list(self.match), "rows": rows}


def protocol_plan(protocol: str, *, seed: int = MATCH_SEED, games: int | None = None) -> Plan:
    """The plan of ``protocol`` as the package defines it (``games``: every row's, instead of
    the protocol's own)."""
    if protocol not in PROTOCOLS:
        raise ValueError(f"unknown protocol {protocol!r}; known: {', '.join(PROTOCOLS)}")
    match, planned = PROTOCOLS[protocol]
    rows = tuple(Row(name, row_flags(protocol, name), games or n) for name, n in
                 planned.items())
    return Plan(protocol, seed, match, rows)


def infer_protocol(folder) -> str:
    """The protocol of a record from its folder's name: ``strong9-<date>`` (and
    ``strong9-<anything>``), ``strong19-<date>``, ``pieces9-<date>``, ``go9`` (paper9) or
    ``go19`` (paper19)."""
    name = Path(folder).name
    for prefix, protocol in (("strong9-", "strong9"), ("strong19-", "strong19"),
                             ("pieces9-", "pieces9")):
        if name.startswith(prefix):
            return protocol
    if name in ("go9", "go19"):
        return f"paper{name[2:]}"
    raise ValueError(f"{folder}: no plan.json and no protocol in its name (strong9-*, "
                     f"strong19-*, pieces9-*, go9, go19); give the protocol "
                     f"({', '.join(PROTOCOLS)})")


def _from_json(data: dict, protocol: str | None, folder) -> Plan:
    if "rows" not in data:  # the first records' form: {"planned_games": {row: games}}
        protocol = protocol or data.get("protocol") or infer_protocol(folder)
        base = protocol_plan(protocol, seed=data.get("seed", MATCH_SEED))
        rows = tuple(Row(name, row_flags(protocol, name), int(games))
                     for name, games in data.get("planned_games", {}).items())
        notes = {k: v for k, v in data.items()
                 if k not in ("protocol", "seed", "planned_games")}
        return replace(base, rows=rows or base.rows, notes=notes)
    known = ("protocol", "seed", "step", "match", "rows")
    rows = tuple(Row(name, tuple(row.get("flags", ())), int(row["games"]))
                 for name, row in data["rows"].items())
    return Plan(data.get("protocol") or protocol or "", int(data["seed"]),
                tuple(data.get("match", ())), rows, int(data.get("step", STEP)),
                {k: v for k, v in data.items() if k not in known})


def load(folder, protocol: str | None = None) -> Plan:
    """The plan of the record ``folder``: its ``plan.json`` (either form), else the plan of
    ``protocol`` (default: :func:`infer_protocol`)."""
    path = Path(folder) / PLAN
    if path.is_file():
        try:
            return _from_json(json.loads(path.read_text()), protocol, folder)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{path}: not a plan ({exc})") from None
    return protocol_plan(protocol or infer_protocol(folder))


def save(plan: Plan, folder) -> Path:
    """Write ``plan`` as ``folder/plan.json``; returns its path."""
    Path(folder).mkdir(parents=True, exist_ok=True)
    return write_json(Path(folder) / PLAN, plan.to_json())


def planned_games(folder) -> dict[str, int]:
    """``{row: games}`` of the record's ``plan.json`` (either form); ``{}`` without one."""
    path = Path(folder) / PLAN
    if not path.is_file():
        return {}
    data = json.loads(path.read_text())
    if "rows" in data:
        return {name: int(row["games"]) for name, row in data["rows"].items()}
    return {name: int(games) for name, games in data.get("planned_games", {}).items()}


def match_argv(plan: Plan, row: str, games: int, out, workers: int = 1) -> list[str]:
    """The ``mctslab go match`` arguments (after ``go match``) of ``games`` games of ``row``
    into the match folder ``out``."""
    return ["--seed", str(plan.seed), *plan.match, "--games", str(games), "--workers",
            str(workers), "--json", *plan.row(row).flags, "--out", str(out)]


def schedule(plan: Plan, stored: dict[str, int], rows=None,
             games: int | None = None) -> list[tuple[str, int]]:
    """The matches that bring ``rows`` (default: all, in the plan's order) to their games
    (``games``: this target for each instead), as ``(row, games)`` in playing order: step by
    step (``plan.step`` games at a time: every row to 10, then to 20 ...), a row called at a
    step only when it has fewer games ``stored`` than the step asks; a row that already holds
    its target is called once at it, which plays nothing and writes its summary at that count.
    Interrupted and run again, it plays only the missing games."""
    names = list(rows) if rows else [row.name for row in plan.rows]
    target = {name: games if games is not None else plan.row(name).games for name in names}
    have = {name: stored.get(name, 0) for name in names}
    calls, called = [], set()
    top = max(target.values(), default=0)
    step = plan.step
    while True:
        for name in names:
            n = min(step, target[name])
            if n > have[name]:
                calls.append((name, n))
                have[name] = n
                called.add((name, n))
        if step >= top:
            break
        step = min(step + plan.step, top)
    calls += [(name, target[name]) for name in names if (name, target[name]) not in called]
    return calls
