"""The state-tabu paper's protocol as scales, ``Config``, task functions (``*_task``) and runners
(``run_*``) of the notebook ``go_state_tabu``.

Itoh & Ohta (2016), "An Application of Monte-Carlo Tree Search Including Game State Tabu Lists
for Playing 19x19 Go" (brief: ``docs/papers/go-state-tabu.md``). The paper's engines are GNU Go
3.8's classical move generation with a Monte-Carlo veto (:mod:`mctslab.go.host`): every row of
Table 2 is played by our search hosted by GNU Go (``classical="gnugo"``) unless
``classical="none"`` asks for our pure UCT engine.

Scales
------
* ``paper``: 19x19, the five engines of Table 1 and GNU Go against itself, 8,000 playouts per
  move, 500 games as Black and 500 as White against GNU Go 3.8 level 10; GNU Go's own
  Monte-Carlo mode (``gnugo-mc``, both level readings) and the pure engine as anchors; the veto
  rates on 100 positions of each size; Fig. 5 and Table 4 from one 42-move position, by the
  paper's search and by the strong engine (beyond the paper). Table 4 repeats each search with
  10 seeds (``table4_searches``): the paper reports one search, which has no spread, so its
  rows could only ever read inconclusive. Thousands of CPU-hours: a cluster (``scheduler=``).
* ``default``: the same rows on **9x9** against GNU Go level 10, one game per colour and row,
  2,000 playouts per move; veto rates on 10 9x9 positions; Fig. 5 and Table 4 at the paper's
  own setting (19x19 position, 8,000 playouts).
* ``smoke``: two engines, one game per colour on 9x9 against GNU Go level 0 (host level 0),
  300 playouts; two veto positions; Fig. 5/Table 4 at 300 playouts and three tabu sizes.

The strong engine's Fig. 5 and Table 4 (``strong_analysis``) run at ``paper`` scale only unless
asked for: its kernels take minutes to compile on a cold cache (``mctslab.go.warmup_strong``),
which would outweigh the searches themselves at the smaller scales.

Every game is one executor task (:func:`mctslab.go.match.game_task`, stored as it finishes, so
a killed match resumes); so is each veto position and each Fig. 5 / Table 4 search. Rows built
from the same seed meet the same GNU Go game by game (paired tests in :mod:`.tables`).
"""

from __future__ import annotations

import dataclasses
import io
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from mctslab import data
from mctslab.core.compare import protocol_config
from mctslab.core.params import as_real, config_values, positive_int
from mctslab.core.tasks import keyed_tasks, make_tasks, task_key
from mctslab.go import gnugo, sgf, strong, warmup_strong
from mctslab.go.api import Board, search
from mctslab.go.engine import ENGINES, EngineSettings, engine_settings
from mctslab.go.gtp import GtpServer
from mctslab.go.match import Player, match_tasks
from mctslab.go.played import Played
from mctslab.go.tabu import GNUGO_SELF, PAPER_CONFIGS, TABU_POSITION, parse_config

__all__ = ["Config", "SCALES", "config", "Played", "GNUGO_SELF", "TABLE2_CONFIGS",
           "tabu_position", "veto_positions", "table2_rows", "anchor_rows", "pure_rows",
           "run_matches", "run_anchors", "run_pure", "veto_task", "veto_tasks", "run_veto",
           "run_game_boards",
           "duplicates_task", "candidates_task", "duplicate_tasks", "candidate_tasks",
           "run_duplicates", "run_candidates", "strong_duplicates_task",
           "strong_candidates_task", "strong_duplicate_tasks", "strong_candidate_tasks",
           "run_strong_duplicates", "run_strong_candidates", "games_sgf", "save_games"]

TABLE2_CONFIGS = (GNUGO_SELF,) + PAPER_CONFIGS

# Veto-rate positions: 9x9 after move 20 (shipped, scripts/make-go9-positions), 19x19 real games
# after move 60 (the first games of tom9d/ in name order)
VETO_POSITIONS = {9: ("go-positions/9x9", 20), 19: ("go-games/tom9d", 60)}

_ANALYSIS = dict(histogram_configs=("gTabu0", "gTabu18", "gTabu18-hash", "gTabu18-hash-win"),
                 table4_sizes=tuple(range(16)), analysis_playouts=8000)
SCALES = {
    "smoke": dict(configs=("gnugo-uct", "gTabu18-hash-win"), games_per_color=1, board_size=9,
                  playouts=300, gnugo_level=0, host_level=0, mc_levels=(1,),
                  anchor_games_per_color=1, pure_configs=("gnugo-uct",),
                  veto_positions=2, veto_sizes=(9,), veto_cs=(1.5,), analysis_playouts=300,
                  histogram_configs=("gTabu0", "gTabu18-hash"), table4_sizes=(0, 1, 4),
                  strong_analysis=False),
    "default": dict(configs=TABLE2_CONFIGS, games_per_color=1, board_size=9, playouts=2000,
                    gnugo_level=10, host_level=10, mc_levels=(1, 10), anchor_games_per_color=1,
                    pure_configs=("gnugo-uct",), veto_positions=10, veto_sizes=(9,),
                    veto_cs=(1.5,), strong_analysis=False,
                    **{**_ANALYSIS, "table4_sizes": (0, 1, 2, 4, 8, 12, 15)}),
    "paper": dict(configs=TABLE2_CONFIGS, games_per_color=500, board_size=19, playouts=8000,
                  gnugo_level=10, host_level=10, mc_levels=(1, 10), anchor_games_per_color=500,
                  pure_configs=("gnugo-uct",), veto_positions=100, veto_sizes=(9, 19),
                  veto_cs=(0.5, 1.0, 1.5, 2.0), strong_analysis=True, table4_searches=10,
                  **_ANALYSIS),
}


@dataclass(frozen=True)
class Config:
    """The constants of one notebook run (see the module docstring for the scales)."""

    scale: str
    configs: tuple             # Table 2's rows: "gnugo" (GNU Go self-play) and Table 1 engines
    games_per_color: int       # games as Black and as White per row (paper: 500)
    board_size: int            # paper: 19
    playouts: int              # our playouts per move (paper: 8,000)
    gnugo_level: int           # the opponent GNU Go's --level (paper: its default, 10)
    host_level: int            # the host GNU Go's --level (classical="gnugo")
    mc_levels: tuple           # gnugo-mc anchors: levels (1: 8,000 per level; 10: 800 per level)
    anchor_games_per_color: int  # games per colour of each anchor row
    pure_configs: tuple        # beyond the paper: pure UCT engines against the same GNU Go
    veto_positions: int        # positions per board size of the veto-rate table
    veto_sizes: tuple          # board sizes of the veto-rate table (9 and/or 19)
    veto_cs: tuple             # UCB constants C of our host engine in the veto-rate table
    analysis_playouts: int     # Fig. 5 and Table 4 searches (paper: 8,000)
    histogram_configs: tuple   # engines of Fig. 5
    table4_sizes: tuple        # move-tabu sizes L of Table 4 (paper: 0..15)
    strong_analysis: bool      # beyond the paper: Fig. 5 and Table 4 by the strong engine too
    table4_searches: int = 1   # searches per size L, each with its own seed (the paper: 1)
    classical: str = "gnugo"   # gnugo: the paper's engines (search hosted by GNU Go); none: pure
    c: float = 1.5             # UCB constant C (Eq. 1)
    tabu_moves: int = 5        # M
    tabu_redraw: str = "policy"  # a rejected playout move is redrawn by the policy, or light
    root_order: str = "value"  # host engine: untried root moves by GNU Go's value, or random
    mc_simulations: int = gnugo.MC_SIMULATIONS  # gnugo-mc's simulations per move
    komi: float = 6.5
    top_positions: int = 50    # Fig. 5's x axis
    resign: float = 0.0        # 0: play to the end (the paper's games); > 0: see EngineSettings
    policy: str = "pattern"    # our playout policy: GNU Go's 3x3 Monte-Carlo patterns, or light
    timeout: float = 300.0     # seconds GNU Go may take for one reply before it is restarted
    referee_level: int = 10    # the GNU Go that scores every game
    pure_engine: str = "uct"   # beyond the paper: the pure rows' engine, uct or strong

    def engine(self, name: str, *, classical: str | None = None, c: float | None = None,
               size: int | None = None, kind: str = "uct") -> EngineSettings:
        """Our engine for the Table 1 configuration ``name``: ``kind="uct"`` the paper's UCT
        (the root move by best win rate, as the paper), ``"strong"`` the strong engine with
        its own defaults and that configuration's tabu lists (a pure engine)."""
        if kind == "strong":
            return engine_settings(
                "strong", size=size or self.board_size, komi=self.komi,
                playouts=self.playouts, resign=self.resign, config=name,
                tabu_moves=self.tabu_moves, tabu_redraw=self.tabu_redraw, timeout=self.timeout)
        return EngineSettings(
            size=size or self.board_size, komi=self.komi, playouts=self.playouts,
            policy=self.policy, resign=self.resign, c=self.c if c is None else c,
            root_select="winrate", config=name, tabu_moves=self.tabu_moves,
            tabu_redraw=self.tabu_redraw,
            classical=self.classical if classical is None else classical,
            gnugo_level=self.host_level, root_order=self.root_order, timeout=self.timeout)

    def protocol(self) -> Config:
        """The configuration whose protocol constants the ``config`` targets judge
        (:func:`mctslab.core.compare.protocol_config`): this one at paper scale, else the
        paper scale's."""
        return protocol_config(self, config)


def config(scale: str = "default", **overrides) -> Config:
    """The configuration of ``scale``; an override of ``None`` keeps the scale's value.
    ``ValueError`` names an unknown scale or parameter, or a bad value."""
    values = config_values(Config, SCALES, scale, overrides, what="Go state-tabu parameter",
                           reals=("c", "komi", "resign", "timeout"))
    values["veto_cs"] = tuple(as_real(v) for v in values["veto_cs"])
    cfg = Config(scale=scale, **values)
    for name in ("games_per_color", "playouts", "anchor_games_per_color", "analysis_playouts",
                 "top_positions", "tabu_moves", "mc_simulations", "table4_searches"):
        positive_int(name, getattr(cfg, name))
    positive_int("veto_positions", cfg.veto_positions, minimum=0)
    positive_int("board_size", cfg.board_size, minimum=5)
    if not isinstance(cfg.strong_analysis, bool):
        raise ValueError(f"strong_analysis must be True or False, got {cfg.strong_analysis!r}")
    for level in (cfg.gnugo_level, cfg.host_level, cfg.referee_level, *cfg.mc_levels):
        gnugo.check_level(level)
    for size in cfg.veto_sizes:
        if size not in VETO_POSITIONS:
            raise ValueError(f"veto positions exist for board sizes {sorted(VETO_POSITIONS)}, "
                             f"got {size!r}")
    for size in cfg.table4_sizes:
        positive_int("table4_sizes entry", size, minimum=0)
    for name in tuple(n for n in cfg.configs if n != GNUGO_SELF) + cfg.pure_configs + \
            cfg.histogram_configs:
        cfg.engine(name)  # an unknown configuration or a bad setting fails here
    if cfg.pure_engine not in ENGINES:
        raise ValueError(f"pure_engine must be one of {', '.join(ENGINES)}, got "
                         f"{cfg.pure_engine!r}")
    for name in cfg.pure_configs:
        cfg.engine(name, classical="none", kind=cfg.pure_engine)
    for c in cfg.veto_cs:
        cfg.engine("gnugo-uct", c=c)
    for level in cfg.mc_levels:
        Player("gnugo-mc", level=level, simulations=cfg.mc_simulations)
    return cfg


# -- rows of the matches ---------------------------------------------------------------------
class Row(NamedTuple):
    """One row of a match table: its name and the candidate that plays GNU Go."""

    name: str
    candidate: Player


def table2_rows(cfg: Config) -> list[Row]:
    """Table 2: GNU Go against itself, then each Table 1 engine (hosted by GNU Go unless
    ``classical="none"``)."""
    return [Row(name, Player("gnugo", level=cfg.gnugo_level) if name == GNUGO_SELF
                else Player("mcts", engine=cfg.engine(name))) for name in cfg.configs]


def anchor_rows(cfg: Config) -> list[Row]:
    """GNU Go's own Monte-Carlo mode at each level reading: the paper's base engine minus its
    change of C, in the same run as our host engine."""
    return [Row(f"gnugo-mc L{level}", Player("gnugo-mc", level=level,
                                             simulations=cfg.mc_simulations))
            for level in cfg.mc_levels]


def pure_rows(cfg: Config) -> list[Row]:
    """Beyond the paper: our pure engines (no GNU Go around the search), UCT or the strong
    engine (``cfg.pure_engine``)."""
    tag = "pure" if cfg.pure_engine == "uct" else cfg.pure_engine
    return [Row(f"{name} ({tag})", Player("mcts", engine=cfg.engine(
        name, classical="none", kind=cfg.pure_engine))) for name in cfg.pure_configs]


def _match_tasks(cfg: Config, rows: list[Row], games_per_color: int, seed: int):
    """Every row's games against GNU Go at ``cfg.gnugo_level``, all rows from the same seed
    (game ``i`` of every row meets the same GNU Go: paired rows)."""
    opponent = Player("gnugo", level=cfg.gnugo_level)
    tasks, names = [], []
    for row in rows:
        row_tasks = match_tasks(row.candidate, opponent, 2 * games_per_color,
                                size=cfg.board_size, komi=cfg.komi,
                                referee_level=cfg.referee_level, timeout=cfg.timeout, seed=seed)
        tasks += row_tasks
        names += [row.name] * len(row_tasks)
    return tasks, names


def _play(run, experiment: str, tasks, names) -> Played:
    reason = gnugo.gnugo_missing()
    if reason:
        return Played([], [], [], reason)
    return Played(tasks, list(run.map(experiment, tasks)), names)


def run_matches(run, cfg: Config) -> Played:
    """Table 2's games (skipped, saying why, without GNU Go)."""
    return _play(run, "go_matches", *_match_tasks(cfg, table2_rows(cfg), cfg.games_per_color,
                                                  run.seed))


def run_anchors(run, cfg: Config) -> Played:
    """GNU Go's Monte-Carlo mode against the same GNU Go, same seeds as Table 2's rows."""
    return _play(run, "go_anchors", *_match_tasks(cfg, anchor_rows(cfg),
                                                  cfg.anchor_games_per_color, run.seed))


def run_pure(run, cfg: Config) -> Played:
    """The pure engines against the same GNU Go, same seeds as Table 2's rows."""
    return _play(run, "go_pure", *_match_tasks(cfg, pure_rows(cfg), cfg.games_per_color,
                                               run.seed))


# -- veto rates ----------------------------------------------------------------------------------
def veto_positions(size: int, count: int) -> list[tuple[str, int]]:
    """``count`` stored mid-game positions of ``size`` as (data path, moves played)."""
    folder, moves = VETO_POSITIONS[size]
    root = data.find(folder)
    paths = sorted(f"{folder}/{p.name}" for p in root.glob("*.sgf"))
    if len(paths) < count:
        raise ValueError(f"{folder} holds {len(paths)} positions, {count} asked for")
    return [(path, moves) for path in paths[:count]]


def _position(path: str, moves: int) -> Board:
    board, _ = sgf.load(data.find(path), move_number=moves)
    return board


def veto_task(params: dict, seed) -> dict:
    """One engine's move from one stored position, beside GNU Go's classical move (same level
    and seed): ``engine`` a :meth:`Player.params` (``gnugo-mc`` or our host engine)."""
    engine_seed = int(seed.generate_state(1)[0]) % 2**31
    board = _position(params["path"], params["moves"])
    player = Player.from_params(params["engine"])
    color = board.to_move
    if player.kind == "gnugo-mc":
        argv = gnugo.gnugo_mc_argv(level=player.level, simulations=player.simulations,
                                   seed=engine_seed, komi=board.komi, size=board.size)
        classical_argv = gnugo.gnugo_argv(level=player.level, seed=engine_seed,
                                          komi=board.komi, size=board.size)
        moves = []
        for command_line, fixed in ((argv, 19 if board.size == 19 else None),
                                    (classical_argv, None)):
            with gnugo.GtpEngine(command_line, timeout=params["timeout"],
                                 fixed_size=fixed) as engine:
                engine.boardsize(board.size)
                engine.clear_board()
                engine.komi(board.komi)
                for c, m in board.moves:
                    engine.play(c, m)
                moves.append(engine.genmove(color, timeout=params["timeout"]))
        move, classical, shortlist = moves[0], moves[1], None
    else:
        settings = dataclasses.replace(player.engine, size=board.size, komi=board.komi,
                                       seed=engine_seed, timeout=params["timeout"])
        with GtpServer(settings, stdin=io.BytesIO(), stdout=io.BytesIO(),
                       stderr=io.StringIO()) as server:
            server.board, server.size, server.komi = board, board.size, board.komi
            move = server.host_move(color)
            decision = server.decisions[-1]
        classical, shortlist = decision["classical"], decision["shortlist"]
    return dict(move=move, classical=classical, vetoed=move != classical, shortlist=shortlist,
                size=board.size)


def veto_tasks(cfg: Config, seed: int):
    """The veto-rate table's tasks: per board size, each position with each engine (gnugo-mc at
    each level, our host gnugo-uct at each C); the same position and seed for every engine.

    A task's seed is keyed by its position (stream 4 and the position's file:
    :func:`~mctslab.core.tasks.keyed_tasks`; its id adds the engine), so a run on fewer
    positions, sizes or Cs is the same tasks as part of a larger one, and extending it reruns
    nothing."""
    params, names, keys = [], [], []
    for size in cfg.veto_sizes:
        engines = [(row.name, row.candidate) for row in anchor_rows(cfg)]
        engines += [(f"gnugo-uct C={c:g}", Player("mcts", engine=cfg.engine(
            "gnugo-uct", classical="gnugo", c=c, size=size))) for c in cfg.veto_cs]
        for name, player in engines:
            for path, moves in veto_positions(size, cfg.veto_positions):
                params.append(dict(engine=player.params(), path=path, moves=moves,
                                   timeout=cfg.timeout))
                names.append(name)
                keys.append(task_key(4, path))
    return keyed_tasks("mctslab.go.experiments:veto_task", params, keys, seed=seed), names


def run_veto(run, cfg: Config) -> Played:
    """How often each engine's move equals GNU Go's classical move on the stored positions."""
    return _play(run, "go_veto", *veto_tasks(cfg, run.seed))


def run_game_boards(run, cfg: Config, games: dict) -> dict[str, dict]:
    """The final positions of stored games (``{title: SGF bytes}``, as
    :func:`mctslab.go.strong_record.example_games` reads them from a record), one task each
    (:func:`mctslab.go.played.final_board_task`): ``{title: board}`` with ``stones`` and
    ``numbers`` as arrays, for :func:`mctslab.go.figures.game_boards_figure`."""
    tasks = make_tasks("mctslab.go.played:final_board_task",
                       [{"title": title, "sgf": text.decode("latin-1")}
                        for title, text in games.items()], seed=run.seed)
    boards = run.map("go_game_boards", tasks) if tasks else []
    return {title: {**b, "stones": np.asarray(b["stones"], np.int8),
                    "numbers": np.asarray(b["numbers"], np.int32)}
            for title, b in zip(games, boards)}


# -- Fig. 5 and Table 4 ------------------------------------------------------------------------
def tabu_position() -> Board:
    """The fixed 42-move 19x19 position of Fig. 5 and Table 4 (Black to play move 43)."""
    return _position(*TABU_POSITION)


def _analysis_search(params: dict, name: str, seed, record: int):
    board = tabu_position()
    tabu = parse_config(name, moves=params["moves"], playouts=params["playouts"], c=params["c"],
                        redraw=params.get("redraw", "light"))
    engine_seed = int(seed.generate_state(1)[0])
    return search(board, params["playouts"], c=params["c"], policy=params["policy"],
                  expansion_threshold=tabu.expansion_threshold, tabu=tabu, seed=engine_seed,
                  record_hashes=record)


def duplicates_task(params: dict, seed) -> dict:
    """Fig. 5: one search from the fixed position; the occurrence counts of the positions
    reached at playout moves 1..M, most frequent first."""
    result = _analysis_search(params, params["config"], seed, params["moves"])
    return dict(**_duplicate_counts(result, params["top"]),
                tabu_candidates=result.tabu_candidates, seconds=result.seconds,
                playouts=result.playouts, move=result.move)


def _duplicate_counts(result, top: int) -> dict:
    """Fig. 5's counts of one search's recorded positions (its non-zero hashes): the ``top``
    occurrence counts, most frequent first, and the positions, distinct ones and duplicates."""
    hashes = result.hashes[result.hashes != 0]
    counts = sorted(Counter(hashes.tolist()).values(), reverse=True)
    return dict(counts=counts[:top], positions=int(hashes.size), distinct=len(counts),
                duplicates=int(hashes.size - len(counts)))


def _move_tabu(size: int) -> str:
    """Table 4's configuration name of a move tabu of size ``size`` (0: no list)."""
    return "gTabu0" if size == 0 else f"gTabu{size}"


def candidates_task(params: dict, seed) -> dict:
    """Table 4: tabu candidates of one search with a move tabu of size L from the position."""
    result = _analysis_search(params, _move_tabu(params["size"]), seed, 0)
    return dict(tabu_candidates=result.tabu_candidates, playouts=result.playouts,
                seconds=result.seconds, tabu_size=result.tabu_size)


def duplicate_tasks(cfg: Config, seed: int):
    params = [dict(config=name, playouts=cfg.analysis_playouts, c=cfg.c, moves=cfg.tabu_moves,
                   top=cfg.top_positions, policy=cfg.policy, redraw=cfg.tabu_redraw)
              for name in cfg.histogram_configs]
    return make_tasks("mctslab.go.experiments:duplicates_task", params, seed=seed + 2)


def _more_searches(fn: str, first: list[dict], cfg: Config, seed: int, stream: int):
    """Table 4's searches 2.. of each size (``cfg.table4_searches``): search ``r`` of size L
    carries ``search=r`` and the key (``stream``, L, r). The first search of each size keeps
    the task it always was, so stored results stay valid."""
    more = range(1, cfg.table4_searches)
    params = [dict(p, search=r) for r in more for p in first]
    keys = [task_key(stream, p["size"], r) for r in more for p in first]
    return keyed_tasks(fn, params, keys, seed=seed)


def candidate_tasks(cfg: Config, seed: int):
    """Table 4's searches: ``cfg.table4_searches`` per size of ``cfg.table4_sizes``; the first
    of each size is task i of the sizes (seed + 3), the others :func:`_more_searches`
    (stream 7)."""
    fn = "mctslab.go.experiments:candidates_task"
    params = [dict(size=size, playouts=cfg.analysis_playouts, c=cfg.c, moves=cfg.tabu_moves,
                   policy=cfg.policy, redraw=cfg.tabu_redraw) for size in cfg.table4_sizes]
    return make_tasks(fn, params, seed=seed + 3) + _more_searches(fn, params, cfg, seed, 7)


def run_duplicates(run, cfg: Config) -> Played:
    """Fig. 5's searches from the fixed position."""
    tasks = duplicate_tasks(cfg, run.seed)
    return Played(tasks, list(run.map("go_duplicates", tasks)),
                  [t.params["config"] for t in tasks])


def run_candidates(run, cfg: Config) -> Played:
    """Table 4's searches from the fixed position."""
    tasks = candidate_tasks(cfg, run.seed)
    return Played(tasks, list(run.map("go_candidates", tasks)),
                  [f"L={t.params['size']}" for t in tasks])


# -- Fig. 5 and Table 4 by the strong engine (beyond the paper) --------------------------------
_NOT_RUN = ("not run at this scale (strong_analysis off: the strong engine's kernels compile "
            "for minutes on a cold cache)")


def _strong_search(params: dict, name: str, seed, record: int):
    """The strong engine with its defaults (:data:`mctslab.go.strong.DEFAULTS`) and the tabu
    lists of configuration ``name`` (its queues only: the expansion stays the engine's) from
    the fixed position."""
    warmup_strong()  # the compiling stays out of the search's seconds
    tabu = parse_config(name, moves=params["moves"], playouts=params["playouts"],
                        redraw=params["redraw"])
    return strong.search(tabu_position(), params["playouts"], tabu=tabu,
                         seed=int(seed.generate_state(1)[0]), record_hashes=record)


def strong_duplicates_task(params: dict, seed) -> dict:
    """Fig. 5 by the strong engine: :func:`duplicates_task`'s counts from one search."""
    result = _strong_search(params, params["config"], seed, params["moves"])
    return dict(**_duplicate_counts(result, params["top"]),
                tabu_candidates=result.tabu_candidates, seconds=result.seconds,
                playouts=result.playouts, nodes=result.nodes, move=result.move)


def strong_candidates_task(params: dict, seed) -> dict:
    """Table 4 by the strong engine: tabu candidates of one search with a move tabu of size L."""
    result = _strong_search(params, _move_tabu(params["size"]), seed, 0)
    return dict(tabu_candidates=result.tabu_candidates, playouts=result.playouts,
                seconds=result.seconds, tabu_size=result.tabu_size, nodes=result.nodes)


def strong_duplicate_tasks(cfg: Config, seed: int):
    """The strong engine's Fig. 5 searches, one per configuration of ``cfg.histogram_configs``,
    seeded by stream 5 and the configuration's name (:func:`~mctslab.core.tasks.task_key`: a
    subset of the configurations is the same tasks)."""
    params = [dict(config=name, playouts=cfg.analysis_playouts, moves=cfg.tabu_moves,
                   top=cfg.top_positions, redraw=cfg.tabu_redraw)
              for name in cfg.histogram_configs]
    keys = [task_key(5, name) for name in cfg.histogram_configs]
    return keyed_tasks("mctslab.go.experiments:strong_duplicates_task", params, keys, seed=seed)


def strong_candidate_tasks(cfg: Config, seed: int):
    """The strong engine's Table 4 searches, ``cfg.table4_searches`` per size of
    ``cfg.table4_sizes``: the first keyed (6, L), the others (6, L, r)
    (:func:`_more_searches`)."""
    fn = "mctslab.go.experiments:strong_candidates_task"
    params = [dict(size=size, playouts=cfg.analysis_playouts, moves=cfg.tabu_moves,
                   redraw=cfg.tabu_redraw) for size in cfg.table4_sizes]
    keys = [task_key(6, size) for size in cfg.table4_sizes]
    return keyed_tasks(fn, params, keys, seed=seed) + _more_searches(fn, params, cfg, seed, 6)


def run_strong_duplicates(run, cfg: Config) -> Played:
    """Fig. 5's searches by the strong engine (skipped, saying why, unless
    ``cfg.strong_analysis``)."""
    if not cfg.strong_analysis:
        return Played([], [], [], _NOT_RUN)
    tasks = strong_duplicate_tasks(cfg, run.seed)
    return Played(tasks, list(run.map("go_strong_duplicates", tasks)),
                  [t.params["config"] for t in tasks])


def run_strong_candidates(run, cfg: Config) -> Played:
    """Table 4's searches by the strong engine (skipped unless ``cfg.strong_analysis``)."""
    if not cfg.strong_analysis:
        return Played([], [], [], _NOT_RUN)
    tasks = strong_candidate_tasks(cfg, run.seed)
    return Played(tasks, list(run.map("go_strong_candidates", tasks)),
                  [f"L={t.params['size']}" for t in tasks])


def games_sgf(played: Played) -> dict:
    """Every game's SGF as ``{file name: text}``: ``<row>-<game>-<colour>.sgf``."""
    if played.skipped:
        return {}
    out, index = {}, {}
    for task, result, name in zip(played.tasks, played.results, played.rows):
        i = index[name] = index.get(name, -1) + 1
        stem = "".join(ch if ch.isalnum() or ch in "-+." else "_" for ch in name)
        out[f"{stem}-{i:04d}-{task.params['color']}.sgf"] = result["sgf"]
    return out


def save_games(run, *played_sets: Played) -> Path:
    """Write every game of ``played_sets`` as its own SGF file in the notebook's ``games/``
    folder (emptied first, so it holds this run's games only), dated with the run's start (so
    a re-run from the store writes the same files), and list them in ``games_index.txt`` (the
    artefact the manifest records)."""
    folder = Path(run.directory) / "games"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.sgf"):
        old.unlink()
    names = []
    for played in played_sets:
        for name, text in games_sgf(played).items():
            (folder / name).write_bytes(sgf.with_date(text, run.date))
            names.append(f"games/{name}")
    skipped = [p.skipped for p in played_sets if p.skipped]
    index = "\n".join(names or skipped[:1]) + "\n"
    return run.save_text(index, "games_index.txt",
                         f"{len(names)} games, each saved as games/<row>-<game>-<colour>.sgf")
