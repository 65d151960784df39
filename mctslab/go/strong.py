"""The strong engine: MCTS in the state of the art before neural networks, built on
our board kernels and tree arrays. Named ``strong`` (``EngineSettings(engine="strong")``,
``mctslab go gtp --engine strong``); the kernels are :mod:`mctslab.go._strong` (search, RAVE),
:mod:`mctslab.go._prior` (priors at expansion) and :mod:`mctslab.go._heavy` (playouts).

Every piece can be switched on its own (:func:`search`'s arguments, ``EngineSettings`` fields
and ``mctslab go`` flags of the same names):

* ``rave``: ``silver`` (Silver's beta, the default), ``gelly`` (Gelly & Silver's hand-picked
  schedule) or ``none``, with ``rave_equiv`` (the schedules' k);
* ``priors``: the prior pieces switched on (:data:`PRIOR_PIECES`, comma-separated, or
  ``none``), each adding the virtual playouts of :data:`PRIOR_WEIGHTS` times ``prior_weight``;
* ``policy``: the playouts, ``heavy`` (captures and escapes near the last move, GNU Go's 3x3
  patterns, self-atari filter), ``pattern`` (the same without the filter) or ``light``;
* ``expand_visits``: real visits before a node is expanded;
* ``c``: a UCB exploration term on top of RAVE (0: none, as michi and Pachi);
* ``seconds``: an optional time limit per move (``playouts`` stays the cap);
* ``tabu``: the state-tabu paper's move or state tabu lists on the playouts' first moves,
  one queue set per leaf, as in the UCT engine;
* ``record_hashes``: the positions after each playout's first moves, for the paper's Fig. 5
  (``SearchResult.hashes``, as the UCT engine's ``api.search``);
* ``reuse_tree``: tree reuse between moves (pondering off), below;
* ``ladders``: ladder reading (:mod:`mctslab.go._ladder`) in the ``priors`` (an escape into a
  ladder gets the capture piece's virtual playouts as losses, an atari that captures in a
  ladder gets them as wins: :mod:`mctslab.go._prior`) and in the ``playouts`` (a proposed
  escape into a ladder is not played: :mod:`mctslab.go._heavy`), comma-separated, ``all`` or
  ``none`` (the default: the engine as before);
* ``lgrf``: the playouts play the last good reply to the previous move first (LGRF-1, Baier
  & Drake 2010: :mod:`mctslab.go._heavy`); off by default, and the search is then the same;
* ``large_patterns``: the weight of the large-pattern prior (learned from human games,
  :mod:`mctslab.go.large_patterns`, :mod:`mctslab.go._prior`); 0, the default, is off;
* ``two_liberty``: two-liberty tactics in the playouts (an atari that captures a string of two
  liberties in a ladder, an extension that saves an own one: :mod:`mctslab.go._twolib`);
  off by default.

Tree reuse (``reuse_tree``): :mod:`mctslab.go.strong_reuse`.

Resignation is the GTP engine's (``EngineSettings.resign``). The engine's defaults are
:data:`DEFAULTS`; what each piece adds is measured in ``docs/bench/go.md``.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from mctslab.core.params import positive_int
from mctslab.core.tree import tree_grow
from mctslab.go import _board as kb
from mctslab.go import _heavy, _ladder, _playout, _prior, _strong, large_patterns
from mctslab.go import patterns as pattern_files
from mctslab.go._tabu import make_queues
from mctslab.go.api import Board, SearchResult, choose_root_move
from mctslab.go.strong_reuse import keep, new_stats, reuse_log, start_tree
from mctslab.go.tabu import TabuConfig, parse_config, tabu_size
from mctslab.rng import seed_state

__all__ = ["PLAYOUT_POLICIES", "RAVE_SCHEDULES", "PRIOR_PIECES", "PRIOR_WEIGHTS", "DEFAULTS",
           "LADDER_USES", "parse_priors", "parse_ladders", "prior_weights", "check_settings",
           "playout_policy", "search", "reuse_log"]

PLAYOUT_POLICIES = {"light": _heavy.LIGHT, "pattern": _heavy.PATTERN, "heavy": _heavy.HEAVY}
RAVE_SCHEDULES = {"none": _strong.RAVE_NONE, "silver": _strong.RAVE_SILVER,
                  "gelly": _strong.RAVE_GELLY}
PRIOR_PIECES = ("even", "capture", "self-atari", "pattern", "distance", "edge")
LADDER_USES = ("priors", "playouts")  # where the engine reads ladders (``ladders``)

# Virtual playouts per prior piece (``_prior`` describes each): the magnitudes michi and Pachi
# use on 9x9 (an "equivalent experience" of 10 to 30 playouts per piece).
PRIOR_WEIGHTS = _prior.PriorWeights(even=10.0, capture_one=15.0, capture_many=30.0,
                                    self_atari=10.0, pattern=10.0, distance1=24.0,
                                    distance2=22.0, distance3=8.0, edge=10.0)
PRIOR_PATTERN_FILE = "mc_mogo_classic"  # MoGo's 3x3 patterns (value 100) for the prior
PRIOR_PATTERN_MIN = 100.0

# The strong engine's defaults (``EngineSettings`` fields); every piece on but the ladders.
DEFAULTS = dict(policy="heavy", c=0.0, rave="silver", rave_equiv=3000.0,
                priors=",".join(PRIOR_PIECES), prior_weight=1.0, expand_visits=2,
                root_select="visits", ladders="none", lgrf=False, large_patterns=0.0,
                two_liberty=False)
HEAVY_REJECT_SUGGESTED = 0.9  # self-atari filter: refuse a proposed bad self-atari
HEAVY_REJECT_RANDOM = 0.5     # ... and a uniformly drawn one (lower: nakade shapes need them)
HEAVY_RANDOM_TRIES = 5


def _parse_words(text, known: tuple, what: str) -> tuple[str, ...]:
    """Comma-separated names (or a sequence of them) in ``known``'s order; ``none`` or nothing
    -> ``()``, ``all`` -> ``known``. ValueError names an unknown one."""
    text = ",".join(map(str, text)) if isinstance(text, (tuple, list)) else str(text)
    words = [w.strip() for w in text.replace(";", ",").split(",") if w.strip()]
    if words in (["none"], []):
        return ()
    if words == ["all"]:
        return known
    unknown = [w for w in words if w not in known]
    if unknown:
        raise ValueError(f"unknown {what}(s) {', '.join(unknown)}; known: {', '.join(known)} "
                         f"(or none, all)")
    return tuple(p for p in known if p in words)


def parse_priors(text: str) -> tuple[str, ...]:
    """``"even,capture"`` -> ``("even", "capture")``; ``"none"`` or ``""`` -> ``()``;
    ``"all"`` -> every piece. ValueError names an unknown piece."""
    return _parse_words(text, PRIOR_PIECES, "prior piece")


def parse_ladders(text) -> tuple[str, ...]:
    """``"playouts,priors"`` -> ``("priors", "playouts")`` (:data:`LADDER_USES`' order);
    ``"none"`` or ``""`` -> ``()``; ``"all"`` -> both. ValueError names an unknown use."""
    return _parse_words(text, LADDER_USES, "ladder use")


def ladder_name(uses) -> str:
    """The canonical name of ladder uses (``"priors,playouts"``; ``"none"`` for none)."""
    return ",".join(parse_ladders(uses)) or "none"


def prior_weights(pieces, scale: float = 1.0) -> _prior.PriorWeights:
    """:data:`PRIOR_WEIGHTS` times ``scale`` with the pieces not in ``pieces`` set to 0."""
    on = set(parse_priors(pieces) if isinstance(pieces, str) else pieces)
    w = {name: value * scale for name, value in PRIOR_WEIGHTS._asdict().items()}
    groups = {"even": ("even",), "capture": ("capture_one", "capture_many"),
              "self-atari": ("self_atari",), "pattern": ("pattern",),
              "distance": ("distance1", "distance2", "distance3"), "edge": ("edge",)}
    for piece, names in groups.items():
        if piece not in on:
            for name in names:
                w[name] = 0.0
    return _prior.PriorWeights(**w)


def _policy(policy: str, patterns, ladder_size: int = 0, lgrf_points: int = 0,
            twolib_size: int = 0) -> _heavy.PlayoutPolicy:
    """The playouts' bundle; ``ladder_size`` > 0: reading ladders on that board size;
    ``lgrf_points`` > 0: last good replies on a board of that many points (padded);
    ``twolib_size`` > 0: two-liberty tactics on that board size."""
    table = pattern_files.load_patterns(pattern_files.DEFAULT_PATTERN_FILE if patterns is None
                                        else patterns)
    return _heavy.PlayoutPolicy(PLAYOUT_POLICIES[policy], pattern_files.policy_data(table),
                                HEAVY_REJECT_SUGGESTED, HEAVY_REJECT_RANDOM, HEAVY_RANDOM_TRIES,
                                ladder_size > 0,
                                _ladder.make_scratch(max(ladder_size, twolib_size, 1)),
                                lgrf_points > 0, np.zeros((3, max(lgrf_points, 1)), np.int32),
                                twolib_size > 0)


def playout_policy(policy: str, patterns=None) -> _heavy.PlayoutPolicy:
    """The playouts' bundle of ``policy`` (a name in :data:`PLAYOUT_POLICIES`), as a search
    plays them: for playouts outside a search (the end-of-game reading,
    :mod:`mctslab.go.endgame`)."""
    if policy not in PLAYOUT_POLICIES:
        raise ValueError(f"unknown playout policy {policy!r} for the strong engine; known: "
                         f"{', '.join(PLAYOUT_POLICIES)}")
    return _policy(policy, patterns)


def _prior_data(points: int, ladders: bool = False, large: float = 0.0) -> _prior.PriorData:
    """The prior's tables and scratch for boards of ``points`` points (padded); ``ladders``:
    the capture piece reads ladders; ``large``: the large-pattern piece's weight (0: off)."""
    table = pattern_files.load_patterns(PRIOR_PATTERN_FILE)
    size = round(points ** 0.5) - 2
    return _prior.PriorData(table.pattern_class, table.class_weight, table.class_need,
                            PRIOR_PATTERN_MIN, np.full(points, _prior.FAR, np.int8),
                            np.zeros(points, np.int16), bool(ladders),
                            _ladder.make_scratch(size if ladders else 1), np.zeros(points, np.int16),
                            np.zeros(points, np.int16), np.zeros(3, np.uint64), float(large),
                            large_patterns.prior_bundle(large > 0))


def _tabu(tabu, board: Board, playouts: int):
    """The kernels' tabu lists for ``tabu`` (a TabuConfig, a name or None): one queue set per
    playout at most, sized ``L_k`` by Eq. 8 for the move being searched; and ``L_k``."""
    if isinstance(tabu, str):
        tabu = parse_config(tabu)
    if tabu is not None and not isinstance(tabu, TabuConfig):
        raise ValueError(f"tabu must be a TabuConfig or a configuration name, got {tabu!r}")
    if tabu is None or tabu.mode == 0:
        return _playout.Tabu(*_playout.no_tabu()[:4], np.zeros(2, np.int64)), 0
    size = tabu_size(tabu.size, board.move_number + 1, board.size)
    queues, heads = make_queues(playouts + 1, tabu.moves, size)
    kind = _playout.TABU_MOVE if tabu.kind == "move" else _playout.TABU_STATE
    config = np.array([tabu.mode, size, tabu.moves, kind, tabu.policy_redraws], np.int64)
    return _playout.Tabu(queues, heads, np.zeros(tabu.moves, np.uint64), config,
                         np.zeros(2, np.int64)), size


def _buffers(points: int, playouts: int, max_moves: int, record: int,
             depth: int | None = None) -> _strong.Buffers:
    """A search's scratch (paths of up to ``depth - 1`` tree moves; ``playouts + 1`` by
    default, the deepest a fresh tree can grow) and, when ``record`` > 0, its log of the hashes
    after each playout's first ``record`` moves."""
    depth = playouts + 2 if depth is None else depth
    return _strong.Buffers(np.zeros(depth, np.int64), np.zeros(depth + max_moves + 1, np.int32),
                           np.zeros(points, np.int64), np.zeros(points + 1, np.int32),
                           np.zeros(record, np.uint64),
                           np.zeros((playouts if record else 0, record), np.uint64))


def _grow(tree, stats):
    nodes, edges = 2 * tree.node_visits.shape[0], 2 * tree.edge_child.shape[0]
    grown = new_stats(nodes)
    for old, new in zip(stats, grown):
        new[: old.shape[0]] = old
    return tree_grow(tree, nodes, edges), grown


def check_settings(policy, rave, rave_equiv, c, expand_visits, prior_weight, seconds,
                   large_patterns=0.0):
    if policy not in PLAYOUT_POLICIES:
        raise ValueError(f"unknown playout policy {policy!r} for the strong engine; known: "
                         f"{', '.join(PLAYOUT_POLICIES)}")
    if rave not in RAVE_SCHEDULES:
        raise ValueError(f"unknown rave schedule {rave!r}; known: {', '.join(RAVE_SCHEDULES)}")
    positive_int("expand_visits", expand_visits)
    for name, value in (("rave_equiv", rave_equiv), ("c", c), ("prior_weight", prior_weight),
                        ("seconds", seconds), ("large_patterns", large_patterns)):
        if not (np.isfinite(value) and value >= 0):
            raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
    if rave_equiv <= 0:
        raise ValueError(f"rave_equiv must be > 0, got {rave_equiv!r}")


def search(board: Board, playouts: int, *, policy: str = DEFAULTS["policy"],  # noqa: PLR0913 - the strong engine's public search: one keyword per engine piece (DEFAULTS), as EngineSettings and the ablation rows name them
           rave: str = DEFAULTS["rave"], rave_equiv: float = DEFAULTS["rave_equiv"],
           priors=DEFAULTS["priors"], prior_weight: float = DEFAULTS["prior_weight"],
           expand_visits: int = DEFAULTS["expand_visits"], c: float = DEFAULTS["c"],
           root_select: str = DEFAULTS["root_select"], seconds: float = 0.0, seed=None,
           komi: float | None = None, patterns=None, tabu=None, record_hashes: int = 0,
           reuse_tree: bool = False, ladders=DEFAULTS["ladders"], lgrf=False,
           large_patterns: float = DEFAULTS["large_patterns"], two_liberty=False) -> SearchResult:
    """One search of the strong engine from ``board`` for the side to move: at most
    ``playouts`` playouts (fewer when ``seconds`` > 0 runs out first); the pieces as in the
    module docstring. Same seed, same result (without ``seconds``). Win rates are for
    ``board.to_move``; ``children`` and the move use the real playouts only (priors and AMAF
    steer the search, they are not reported). ``tabu``: the state-tabu paper's lists (a
    :class:`~mctslab.go.tabu.TabuConfig` or a configuration name such as
    ``"gTabu18-hash-win"``; its queues only: the expansion stays ``expand_visits``).

    ``record_hashes`` > 0: ``SearchResult.hashes``, ``uint64[playouts done, record_hashes]``,
    row ``i`` for playout ``i``, column ``k`` the hash (:attr:`Board.hash`) after playout move
    ``k + 1`` (counted from the leaf, as :func:`mctslab.go.api.search`), 0 where the playout
    was shorter (the paper's Fig. 5). The search stays the same; 0 records nothing (None).

    ``reuse_tree``, ``ladders`` (:data:`LADDER_USES`, ``all``, ``none``), ``lgrf``,
    ``large_patterns`` (a weight) and ``two_liberty``: the module docstring."""
    positive_int("playouts", playouts)
    positive_int("record_hashes", record_hashes, minimum=0)
    check_settings(policy, rave, rave_equiv, c, expand_visits, prior_weight, seconds, large_patterns)
    weights, uses = prior_weights(priors, prior_weight), parse_ladders(ladders)
    komi, root = board.komi if komi is None else float(komi), board.state
    points, max_moves = root.color.shape[0], 3 * board.size * board.size
    params = _strong.Params(RAVE_SCHEDULES[rave], float(rave_equiv), float(c),
                            int(expand_visits), any(v > 0 for v in weights) or large_patterns > 0,
                            komi, max_moves)
    key = (params, tuple(weights), policy, repr(tabu), uses, bool(lgrf), float(large_patterns),
           bool(two_liberty), patterns if isinstance(patterns, (str, type(None))) else id(patterns))
    tree, stats = start_tree(board, key, bool(reuse_tree))
    carried = int(tree.node_visits[0])  # 0 for a fresh tree
    playouts = max(playouts - carried, 1)
    buffers = _buffers(points, playouts, max_moves, int(record_hashes),
                       depth=carried + playouts + 2)
    rng, scratch = seed_state(seed), kb.clone_state(root)
    policy_bundle = _policy(policy, patterns, board.size * ("playouts" in uses), points * lgrf,
                            board.size * bool(two_liberty))
    prior_data = _prior_data(points, "priors" in uses, large_patterns)
    tabu_lists, size_k = _tabu(tabu, board, playouts)
    start, chunk, done = time.perf_counter(), playouts if seconds <= 0 else 256, 0
    while done < playouts:
        wanted = min(chunk, playouts - done)
        step = _strong.strong_run(tree, stats, root, scratch, rng, wanted, params, weights,
                                  prior_data, policy_bundle, buffers, tabu_lists, done)
        done += step
        if seconds > 0 and time.perf_counter() - start >= seconds:
            break
        if step < wanted:  # the node or edge budget ran out: double the arrays
            tree, stats = _grow(tree, stats)
    seconds_used = time.perf_counter() - start
    if reuse_tree:
        keep(board, key, tree, stats, carried, done)
    return dataclasses.replace(_result(board, tree, done, seconds_used, root_select),
                               tabu_size=size_k, tabu_candidates=int(tabu_lists.stats[0]),
                               hashes=buffers.hash_log[:done] if record_hashes else None)


def _result(board: Board, tree, done: int, seconds: float, root_select: str) -> SearchResult:
    children = []
    first, count = int(tree.node_first_edge[0]), int(tree.node_num_edges[0])
    for e in range(first, first + count if first >= 0 else first):
        child = int(tree.edge_child[e])
        visits = int(tree.node_visits[child])
        if visits > 0:
            children.append((board.move_of(int(tree.edge_move[e])), visits,
                             float(tree.node_value_sum[child]) / visits))
    if board.superko:  # the tree knows simple ko only: drop root moves that repeat a position
        children = [ch for ch in children if ch[0] is None or board.is_legal(board.to_move, ch[0])]
    children.sort(key=lambda item: -item[1])
    root_visits = int(tree.node_visits[0])
    root_win_rate = float(tree.node_value_sum[0]) / root_visits if root_visits else 0.5
    move, win_rate = choose_root_move(children, root_select, root_win_rate)
    return SearchResult(move=move, color=board.to_move, playouts=done, seconds=seconds,
                        playouts_per_s=done / seconds if seconds > 0 else float("inf"),
                        children=children, root_win_rate=root_win_rate, win_rate=win_rate,
                        nodes=int(tree.sizes[0]))

