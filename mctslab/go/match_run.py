"""``mctslab go match``: the verb's run, from its parsed arguments (:mod:`mctslab.go.cli`
declares them).

:func:`players` builds the candidate and the opponent (our engine, GNU Go, GNU Go's
Monte-Carlo mode, our engine with another configuration, or any GTP engine from a command
line, probed first: :mod:`mctslab.go.external`); :func:`run` plays the games through the
executor (stored as they finish, so a killed match resumes), writes every game's SGF file and
``summary.json`` (:func:`mctslab.go.match.summary`) and prints the summary (JSON on stdout)
and both counts in words on stderr: the referee's and the plain count with every stone alive.
A game that fails (an engine that keeps crashing, hangs, refuses a command) is one line
naming the engine and the problem (a ``ValueError`` for the command line); the games stored
before it stay stored.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import sys
from pathlib import Path

from mctslab import paths
from mctslab.core.executor import TaskFailed, run_tasks
from mctslab.core.stats import interval_text
from mctslab.core.store import ResultStore, write_json
from mctslab.go import external, gnugo, match, sgf
from mctslab.go.match_record import plain_note

__all__ = ["players", "run"]


def _player(kind: str, level: int, simulations: int, engine=None) -> match.Player:
    return (match.Player("mcts", engine=engine) if kind == "mcts"
            else match.Player(kind, level=level, simulations=simulations))


def players(args, engine) -> tuple[match.Player, match.Player]:
    """The candidate and the opponent of the verb's arguments (``engine``: our engine's
    settings, None when the candidate is GNU Go)."""
    candidate_kind = "gnugo" if args.config == "gnugo" else args.candidate
    opponent_level = args.gnugo_level if args.opponent_level is None else args.opponent_level
    candidate_level = args.gnugo_level if args.candidate_level is None else args.candidate_level
    candidate = _player(candidate_kind, candidate_level, args.mc_simulations, engine)
    command = getattr(args, "opponent_command", None)
    if (args.opponent == "gtp") != (command is not None):
        raise ValueError("--opponent gtp plays the engine of --opponent-command, which needs "
                         "--opponent gtp")
    if args.opponent == "gtp":
        opponent = external.gtp_player(command, label=args.opponent_label, size=args.size,
                                       timeout=args.timeout)
    elif args.opponent == "mcts":  # head to head: our engine with another configuration
        if engine is None:
            raise ValueError("--opponent mcts plays our engine against itself: the candidate "
                             "must be our engine (--candidate mcts)")
        opponent = _player("mcts", opponent_level, args.mc_simulations, dataclasses.replace(
            engine, config=args.opponent_config or engine.config))
    else:
        opponent = _player(args.opponent, opponent_level, args.mc_simulations)
    return candidate, opponent


def _failed(experiment: str, out: Path, exc: TaskFailed) -> ValueError:
    """One line for games that failed: how many, the stored games kept, the first error's
    last line (the engine and the problem)."""
    stored = ResultStore(paths.results_dir(experiment, out)).load()
    last = exc.failures[0][1].strip().splitlines()[-1] if exc.failures else str(exc)
    return ValueError(f"{len(exc.failures)} game(s) failed ({len(stored)} games stored in "
                      f"{paths.results_dir(experiment, out)} are kept; run again to retry the "
                      f"others): {last}")


def match_games(args, candidate, opponent) -> list:
    """The games (executor tasks) of the verb's arguments between the two players."""
    return match.match_tasks(candidate, opponent, args.games, size=args.size, komi=args.komi,
                             referee_level=args.referee_level, timeout=args.timeout,
                             seed=args.seed)


def run(args, engine) -> int:
    """Play the match of the verb's arguments; see the module docstring."""
    candidate, opponent = players(args, engine)
    gnugo.find_gnugo()  # a clear error naming how to install GNU Go, before anything runs
    tasks = match_games(args, candidate, opponent)
    out = Path(args.out)
    experiment = f"{match.EXPERIMENT_PREFIX}{candidate.label}_vs_{opponent.label}"
    try:
        results = run_tasks(experiment, tasks, workers=args.workers, scheduler=args.scheduler,
                            out=out, progress=not args.json)
    except TaskFailed as exc:
        raise _failed(experiment, out, exc) from None
    games = out / "games"
    games.mkdir(parents=True, exist_ok=True)
    # each game is dated by the day its task finished (the store keeps it), so a resumed
    # match writes its earlier games out unchanged
    finished = {key: record.get("finished") or "" for key, record in
                ResultStore(paths.results_dir(experiment, out)).load().items()}
    today = datetime.date.today().isoformat()
    for i, (task, result) in enumerate(zip(tasks, results)):
        (games / f"{i:04d}-{task.params['color']}.sgf").write_bytes(
            sgf.with_date(result["sgf"], finished.get(task.id, "")[:10] or today))
    summary = match.summary(tasks, results)
    summary.update({"as Black": f"{summary['wins_as_black']}/{summary['games_as_black']}",
                    "as White": f"{summary['wins_as_white']}/"
                                f"{summary['games'] - summary['games_as_black']}",
                    "size": args.size, "komi": args.komi, "seed": args.seed,
                    "candidate_params": candidate.params(), "opponent_params": opponent.params(),
                    "referee_level": args.referee_level})
    write_json(out / "summary.json", summary)
    print(json.dumps(summary, indent=1))
    print(f"{summary['candidate']} against {summary['opponent']}: {summary['wins']} of "
          f"{summary['games']} by the referee's count (GNU Go level {args.referee_level}, dead "
          f"stones removed; rate {summary['rate']:.3f}, 95% CI "
          f"{interval_text(summary['ci_low'], summary['ci_high'])}); {plain_note(summary)}",
          file=sys.stderr)
    return 0
