"""Beyond the paper: the runs the notebook's "Beyond the paper" sections read.

- :func:`run_learner_sizes`: the learners of ``cfg.compared_weights`` genes (10 = the paper's
  a..j, 20 or 64), each run's final WPC and every published WPC scored against the standard
  WPC and against the random player;
- :func:`run_reference_learning`: learning against fixed reference WPCs instead of the group;
- :func:`run_elo_readings`: the Elo/join readings of the group's best member compared.

The paper's own protocol (learning, Table 4, the round robins) is :mod:`mctslab.othello.experiments`;
these runs use its task functions (by their names there, so their task ids are the ones stored)
and its ``Config``, with seeds of their own (spawn keys 3-6, never the protocol's).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from mctslab.core.stats import score_interval
from mctslab.core.tasks import keyed_tasks, task_key
from mctslab.othello import wpc as wpc_module
from mctslab.othello.experiments import (
    Config,
    Learned,
    _learning_tasks,
    reference_learning_params,
)
from mctslab.othello.learning import MODES

__all__ = ["run_learner_sizes", "run_elo_readings", "run_reference_learning", "elo_reading_record"]


# -- beyond the paper: learner sizes -------------------------------------------------------

def _final_wpc(result: dict):
    """The WPC a run ends with, as the paper picks it: individual learning's last opponent,
    group learning's top-rated member (None when no WPC was ever learned)."""
    if result["mode"] == "individual":
        return result["final_variables"]
    wpcs = [m for m in result["final_members"] if m["variables"] is not None]
    return max(wpcs, key=lambda m: m["rating"])["variables"] if wpcs else None


def run_learner_sizes(run, cfg: Config, learned: Learned) -> pd.DataFrame:
    """Each learner size of ``cfg.compared_weights`` under the same protocol.

    Every (size, mode, repetition) is a learning run with the seed of the same run in
    :func:`~mctslab.othello.experiments.run_learning` (``cfg.weights``'s runs are
    ``learned``'s, not run again; the others go to the experiment ``othello_learner_sizes``).
    Each run's final WPC (:func:`_final_wpc`) and every published WPC play ``final_games``
    games against the standard WPC and as many against the random player (epsilon
    ``cfg.epsilon`` for every WPC): a WPC claimed better needs both scores. One row per WPC,
    with both scores and their 95% intervals
    (:func:`~mctslab.othello.tables.learner_sizes_summary` adds intervals over seeds).
    """
    runs = []
    other_sizes = [w for w in cfg.compared_weights if w != cfg.weights]
    if cfg.weights in cfg.compared_weights:
        runs += [(cfg.weights, r) for mode in MODES for r in learned.mode(mode)]
    if other_sizes:
        tasks = []
        for size in other_sizes:  # per size: run i has run_learning()'s seed (spawn key (i,))
            tasks += _learning_tasks(dataclasses.replace(cfg, weights=size), run.seed)
        sizes = [size for size in other_sizes for _ in range(cfg.repetitions * len(MODES))]
        runs += list(zip(sizes, run.map("othello_learner_sizes", tasks)))
    candidates = [dict(learner=f"{size} genes", weights=size, mode=r["mode"],
                       repetition=r["repetition"], variables=_final_wpc(r)) for size, r in runs]
    return _scored_vs_both(run, cfg, candidates)


def _scored_vs_both(run, cfg: Config, candidates: list[dict]) -> pd.DataFrame:
    """``candidates`` (learner, weights, mode, repetition, variables) and every published WPC,
    each against the standard WPC and against the random player (``final_games`` games each,
    epsilon ``cfg.epsilon``), in the experiment ``othello_learner_sizes_eval``: one row per
    WPC with both scores and their 95% intervals."""
    candidates = [c for c in candidates if c["variables"] is not None]
    published = dict(wpc_module.PUBLISHED_WPCS, **wpc_module.SYMMETRISED_WPCS)
    candidates += [dict(learner=name, weights=None, mode="published", repetition=None,
                        variables=np.asarray(w).tolist()) for name, w in published.items()]
    opponents = ("standard", "random")
    params, keys = [], []
    for c in candidates:
        for k, opponent in enumerate(opponents):
            params.append(dict(weights=c["variables"], games=cfg.final_games, epsilon=cfg.epsilon,
                               opponent=opponent))
            # seeds of their own: (3, crc32 of the WPC's label, opponent), never Table 4's
            label = f"{c['learner']}|{c['mode']}|{c['repetition']}"
            keys.append(task_key(3, label, k))
    tasks = keyed_tasks("mctslab.othello.experiments:evaluation_task", params, keys, run.seed)
    results = run.map("othello_learner_sizes_eval", tasks)
    records = []
    for i, c in enumerate(candidates):
        record = {k: c[k] for k in ("learner", "weights", "mode", "repetition")}
        for k, opponent in enumerate(opponents):
            ci = score_interval(**results[2 * i + k])
            record.update({f"vs_{opponent}": ci.score, f"vs_{opponent}_low": ci.low,
                           f"vs_{opponent}_high": ci.high})
        record["games_each"] = cfg.final_games
        record["variables"] = c["variables"]
        records.append(record)
    return pd.DataFrame.from_records(records)


# -- beyond the paper: learning against fixed references -----------------------------------

# The paper constants reference learning uses (the others belong to the paper's two modes).
def run_reference_learning(run, cfg: Config) -> pd.DataFrame:
    """Learning against fixed references (beyond the paper).

    For every reference set of ``cfg.reference_sets``, learner size of
    ``cfg.reference_weights`` and repetition: one reference-learning run
    (:mod:`mctslab.othello.learning`: NP = ``reference_population``, Tmax =
    ``reference_generations``, fitness Eq. 5 over S x N games per reference, the paper's DE
    and epsilon) in the experiment ``othello_reference_learning``, seeded by spawn key
    (5, crc32 of ``size|references|repetition``). Each run's final WPC and every published
    WPC are then scored against the standard WPC and the random player
    (:func:`_scored_vs_both`), as for the learner sizes: any claimed winner shows both
    scores. Each learned WPC also plays ``final_games`` games against Lucas & Runarsson's
    WPC (``vs_lucas_runarsson``, experiment ``othello_reference_h2h``, spawn keys (6, crc32
    of ``learner|repetition``)): an opponent no run trained against. Rows as :func:`run_learner_sizes`, ``mode == "reference"``, ``learner`` naming the
    size and the references (e.g. "64 genes vs standard+random", and ", parents
    re-evaluated" with ``reference_reevaluate``: the same seeds, so the two are paired).
    """
    specs = [(tuple(refs), size, rep) for refs in cfg.reference_sets
             for size in cfg.reference_weights for rep in range(cfg.repetitions)]
    if not specs:
        return pd.DataFrame()
    params = [dict(reference_learning_params(cfg, refs, size), repetition=rep)
              for refs, size, rep in specs]
    keys = [task_key(5, f"{size}|{'+'.join(refs)}|{rep}") for refs, size, rep in specs]
    tasks = keyed_tasks("mctslab.othello.experiments:learning_task", params, keys, run.seed)
    results = run.map("othello_reference_learning", tasks)
    fresh = ", parents re-evaluated" if cfg.reference_reevaluate else ""
    candidates = [dict(learner=f"{size} genes vs {'+'.join(refs)}{fresh}", weights=size,
                       mode="reference", repetition=rep, variables=result["final_variables"])
                  for (refs, size, rep), result in zip(specs, results)]
    rows = _scored_vs_both(run, cfg, candidates)
    # Head-to-head against Lucas & Runarsson's WPC, an opponent none of the runs trained
    # against: beating the standard WPC is not the same as being the stronger player.
    h2h = keyed_tasks("mctslab.othello.experiments:evaluation_task",
                      [dict(weights=c["variables"], games=cfg.final_games, epsilon=cfg.epsilon,
                            opponent="lucas_runarsson") for c in candidates],
                      [task_key(6, f"{c['learner']}|{c['repetition']}") for c in candidates],
                      run.seed)
    learned = rows["mode"] == "reference"
    for column in ("vs_lucas_runarsson", "vs_lucas_runarsson_low", "vs_lucas_runarsson_high"):
        rows.insert(rows.columns.get_loc("games_each"), column, np.nan)
    for i, outcome in zip(rows.index[learned], run.map("othello_reference_h2h", h2h)):
        ci = score_interval(**outcome)
        rows.loc[i, ["vs_lucas_runarsson", "vs_lucas_runarsson_low",
                     "vs_lucas_runarsson_high"]] = ci.score, ci.low, ci.high
    return rows


# -- beyond the paper: the Elo/join reading ------------------------------------------------

def elo_reading_record(reading: str, result: dict, scored: list) -> dict:
    """One group-learning run under ``reading``: joins, failed iterations, the generation of
    the joins (the first check is generation ``max(1, Tmax // 2)``), and its final WPC
    members against the standard WPC. ``scored``: (member, ScoreInterval) of each final WPC
    member (the random player is never scored: ``group_mean`` is over the WPC members)."""
    joins = [e for e in result["events"] if e["kind"] == "join"]
    generations = np.array([e["generation"] for e in joins], dtype=np.float64)
    record = dict(reading=reading, repetition=result["repetition"], joins=len(joins),
                  failed_iterations=sum(e["kind"] == "fail" for e in result["events"]),
                  first_check=max(1, result["config"]["max_generations"] // 2),
                  join_generation_median=np.median(generations) if joins else np.nan,
                  join_generation_max=generations.max() if joins else np.nan,
                  wpc_members=len(scored), learning_games=result["games"])
    if scored:
        top, top_ci = max(scored, key=lambda pair: pair[0]["rating"])
        best, best_ci = max(scored, key=lambda pair: pair[1].score)
        record.update(top_member=top["id"], top_rating=top["rating"],
                      top_vs_standard=top_ci.score, top_vs_standard_low=top_ci.low,
                      top_vs_standard_high=top_ci.high, best_member=best["id"],
                      best_vs_standard=best_ci.score, best_vs_standard_low=best_ci.low,
                      best_vs_standard_high=best_ci.high,
                      group_mean_vs_standard=float(np.mean([ci.score for _, ci in scored])),
                      games_each=top_ci.games, top_variables=top["variables"])
    return record


def run_elo_readings(run, cfg: Config, learned: Learned) -> pd.DataFrame:
    """Group learning under each reading of ``cfg.compared_elo_readings``.

    ``cfg.elo_reading``'s group runs are ``learned``'s; another reading's are the group tasks
    of :func:`~mctslab.othello.experiments.run_learning` under
    ``dataclasses.replace(cfg, elo_reading=reading)``: the same seeds,
    and the ids a notebook run with that ``elo_reading`` stores, in the same experiment
    ``othello_learning`` (the store is keyed by task id), so either run reuses the other's
    results. Every final WPC member of every run plays ``final_games`` games against the
    standard WPC (Table 4's protocol; seeds of their own, spawn keys (4, crc32 of
    ``reading|repetition|member``), in ``othello_elo_readings_eval``). One row per (reading,
    repetition) (:func:`elo_reading_record`).
    """
    readings = cfg.compared_elo_readings
    runs = [(cfg.elo_reading, r) for r in learned.mode("group")] if cfg.elo_reading in readings else []
    others = [reading for reading in readings if reading != cfg.elo_reading]
    if others:
        tasks = [t for reading in others for t in _learning_tasks(
            dataclasses.replace(cfg, elo_reading=reading), run.seed) if t.params["mode"] == "group"]
        # the manifest's othello_learning entry counts run_learning()'s call and this one together
        results = run.map("othello_learning", tasks)
        runs += list(zip([reading for reading in others for _ in range(cfg.repetitions)], results))
    runs.sort(key=lambda pair: (readings.index(pair[0]), pair[1]["repetition"]))
    members = [(k, m) for k, (_, result) in enumerate(runs) for m in result["final_members"]
               if m["variables"] is not None]
    keys = [task_key(4, f"{runs[k][0]}|{runs[k][1]['repetition']}|{m['id']}")
            for k, m in members]
    tasks = keyed_tasks(
        "mctslab.othello.experiments:evaluation_task",
        [dict(weights=m["variables"], games=cfg.final_games, epsilon=cfg.epsilon) for _, m in members],
        keys, run.seed)
    outcomes = run.map("othello_elo_readings_eval", tasks) if tasks else []
    scored = [[] for _ in runs]
    for (k, member), outcome in zip(members, outcomes):
        scored[k].append((member, score_interval(**outcome)))
    return pd.DataFrame.from_records([elo_reading_record(reading, result, scored[k])
                                      for k, (reading, result) in enumerate(runs)])
