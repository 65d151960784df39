"""Tables of the notebook ``othello_wpc_de``: Table 3, Table 4, repetitions, claims vs the paper.

Tables are rounded for citing: scores, intervals and weights to 3 decimals, ratings
to 0.1, times and speeds to 3 significant digits; the result store keeps full precision.

Every number comes from the learning histories (:func:`experiments.run_learning`) and the final
evaluations (:func:`experiments.run_evaluation`) of the run at hand; the paper's statements
(Sec. 4.3, 5.3, 6) are quoted as text next to what we measured, and "holds" is decided by
the stated criterion, never written by hand.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mctslab.core import targets
from mctslab.core.compare import config_rows, paper_row, paper_table
from mctslab.core.rounding import round_table
from mctslab.core.stats import mean_interval
from mctslab.othello import claims as claims_module
from mctslab.othello import wpc as wpc_module
from mctslab.othello.claims import record_rows  # noqa: F401 (read by mctslab.record_card)

__all__ = ["change_series", "change_curves", "group_ratings", "table3", "table4", "top_rated_vs_paper", "repetitions_table", "claims",
           "run_summary", "learner_sizes_summary", "learner_sizes_runs",
           "elo_readings_runs", "elo_readings_summary", "paper_vs_run"]

# Table 3's figure for the paper's top-rated member (No. 6): "mean win rate 0.483, SD 0.0697".
# The paper's numbers and statements are read from its targets file (mctslab/othello/targets.csv).
_ID = "othello_wpc_de"
PAPER_TOP_RATED = {"score": targets.value(_ID, "Table 3", "top-rated member",
                                          "score vs the standard WPC"),
                   "sd": targets.value(_ID, "Table 3", "top-rated member", "SD of its scores")}
# What the paper says for each statement of :func:`claims` (targets of column "holds").
_PAPER_SAYS = {r["row"]: r["value"] for r in targets.load(_ID).to_dict("records")
               if r["column"] == "holds"}
PAPER_MATCH_GAMES = 50  # N: an SD of 0.0697 is what 50-game match scores near 0.48 give


def change_series(result: dict) -> pd.DataFrame:
    """One row per opponent / group change: games so far and the scores measured then.

    Individual: ``vs_opponent`` (new best against the opponent it replaced, from its
    fitness matches) and ``vs_standard`` (new best, 1,000 games at paper scale). Group:
    ``vs_standard`` of the group's top-rated WPC member and of the newcomer.
    """
    rows = []
    for event in result["events"]:
        if event["kind"] == "replace":
            rows.append(dict(games=event["games"], vs_opponent=event["score_vs_opponent"],
                             vs_standard=(event["vs_standard"] or {}).get("score")))
        elif event["kind"] == "join":
            rows.append(dict(games=event["games"], rating=event["rating_after_league"],
                             vs_standard=(event["top_vs_standard"] or {}).get("score"),
                             newcomer_vs_standard=(event["newcomer_vs_standard"] or {}).get("score")))
    return pd.DataFrame.from_records(rows, columns=["games", "vs_opponent", "rating", "vs_standard",
                                                    "newcomer_vs_standard"])


def change_curves(learned) -> pd.DataFrame:
    """What Figs. 5-7 draw: :func:`change_series` of every learning run, one row per change,
    with its ``mode`` (individual, group) and ``repetition`` (the run's place in its mode)."""
    frames = [change_series(result).assign(mode=mode, repetition=rep)
              for mode in ("individual", "group") for rep, result in enumerate(learned.mode(mode))]
    columns = ["mode", "repetition", "games", "vs_opponent", "rating", "vs_standard",
               "newcomer_vs_standard"]
    return pd.concat(frames, ignore_index=True)[columns] if frames else pd.DataFrame(columns=columns)


def group_ratings(learned, repetition: int = 0) -> pd.DataFrame:
    """What Fig. 6 draws besides the changes: the rating of the population's best in each
    generation of group learning run ``repetition`` (games so far, rating)."""
    rows = learned.mode("group")[repetition]["generations"]
    return pd.DataFrame({"games": np.asarray(rows["games"]), "best": np.asarray(rows["best"])})


def _second_half(result: dict) -> pd.Series:
    series = change_series(result)
    return series.loc[series["games"] >= result["games"] / 2, "vs_standard"].dropna()


def table3(learned, evaluated, repetition: int = 0) -> pd.DataFrame:
    """The group's WPCs (Table 3): a..j, rating, mean score in a round robin of the group."""
    members = learned.mode("group")[repetition]["final_members"]
    robin = evaluated.round_robins[repetition]
    rows = evaluated.rows
    vs_standard = rows[(rows.source == "group") & (rows.repetition == repetition)].set_index("member")
    records = []
    for j, member in enumerate(members):
        others = np.delete(robin[j], j)
        record = {"member": member["id"]}
        variables = member["variables"] if member["variables"] is not None else [np.nan] * 10
        if len(variables) == 10:  # a..j; a learner with 20 or 64 genes has no such columns
            record.update(dict(zip(wpc_module.VARIABLE_NAMES, np.round(variables, 3))))
        record.update(rating=round(member["rating"], 1),
                      mean_score_in_group=round(others.mean(), 3) if others.size else np.nan,
                      sd_score_in_group=round(others.std(), 3) if others.size else np.nan,
                      joined_at_games=member["joined_games"],
                      score_vs_standard=round(vs_standard.loc[member["id"], "score"], 3))
        records.append(record)
    table = pd.DataFrame.from_records(records).sort_values("member").reset_index(drop=True)
    table.insert(0, "No.", np.arange(1, len(table) + 1))
    table["rating_rank"] = table["rating"].rank(ascending=False, method="min").astype(int)
    return table


def table4(evaluated, repetition: int = 0) -> pd.DataFrame:
    """Each group WPC against the standard WPC with 95% intervals (Table 4), plus reference rows."""
    rows = evaluated.rows
    group = rows[(rows.source == "group") & (rows.repetition == repetition)].copy()
    group["rating_rank"] = group["rating"].rank(ascending=False, method="min").astype(int)
    group["score_rank"] = group["score"].rank(ascending=False, method="min").astype(int)
    others = rows[(rows.source == "published")
                  | ((rows.source == "individual") & (rows.repetition == repetition))].copy()
    table = pd.concat([group.sort_values("score", ascending=False), others], ignore_index=True)
    columns = ["label", "source", "rating", "rating_rank", "score_rank", "games", "wins", "draws",
               "losses", "score", "ci_low", "ci_high"]
    return table[columns].round({"rating": 1, "score": 3, "ci_low": 3, "ci_high": 3})


def top_rated_vs_paper(evaluated) -> pd.DataFrame:
    """Each group's top-rated WPC member against the standard WPC (Table 4's protocol), read as
    the paper's 0.483 (SD 0.0697) for its top-rated member.

    The SD column is the SD of the score of a 50-game match implied by this run's per-game
    outcomes (``sqrt(var / 50)`` with the per-game variance of wins, draws and losses): the
    paper's 0.0697 is that SD near 0.48 (``sqrt(0.48 x 0.52 / 50)`` = 0.0707). The last rows
    give the mean and SD over repetitions.
    """
    rows = evaluated.rows
    group = rows[(rows.source == "group") & rows.variables.notna()]
    records = []
    for rep, part in group.groupby("repetition", sort=True):
        top = part.loc[part["rating"].idxmax()]
        games = top["games"]
        per_game_var = (top["wins"] + 0.25 * top["draws"]) / games - top["score"] ** 2
        records.append(dict(repetition=str(int(rep)), member=int(top["member"]),
                            rating=top["rating"], games=int(games), score=top["score"],
                            ci_low=top["ci_low"], ci_high=top["ci_high"],
                            sd_of_50_game_match=float(np.sqrt(max(per_game_var, 0.0)
                                                              / PAPER_MATCH_GAMES))))
    table = pd.DataFrame.from_records(records, columns=[
        "repetition", "member", "rating", "games", "score", "ci_low", "ci_high",
        "sd_of_50_game_match"])
    if len(table):
        scores = table["score"]
        table = pd.concat([table, pd.DataFrame([
            dict(repetition="mean", score=scores.mean(),
                 sd_of_50_game_match=table["sd_of_50_game_match"].mean()),
            dict(repetition="sd over repetitions", score=scores.std(ddof=1))])],
            ignore_index=True)
    table["paper_score"] = PAPER_TOP_RATED["score"]
    table["paper_sd"] = PAPER_TOP_RATED["sd"]
    return table.round({"rating": 1, "score": 3, "ci_low": 3, "ci_high": 3,
                        "sd_of_50_game_match": 4})


def _final_scores(evaluated, learned) -> pd.DataFrame:
    """Per (mode, repetition): the final WPC's score against the standard WPC."""
    rows = evaluated.rows
    records = []
    for rep in range(len(learned.mode("individual"))):
        final = rows[(rows.source == "individual") & (rows.repetition == rep)]
        records.append(dict(mode="individual", repetition=rep,
                            final=final["score"].iloc[0] if len(final) else np.nan,
                            best_in_group=np.nan))
    for rep in range(len(learned.mode("group"))):
        group = rows[(rows.source == "group") & (rows.repetition == rep) & rows.rating.notna()]
        wpcs = group[group.label.str.contains("member")]
        top = wpcs.loc[wpcs["rating"].idxmax()] if len(wpcs) else None
        records.append(dict(mode="group", repetition=rep,
                            final=top["score"] if top is not None else np.nan,
                            best_in_group=wpcs["score"].max() if len(wpcs) else np.nan))
    return pd.DataFrame.from_records(records)


def repetitions_table(learned, evaluated) -> pd.DataFrame:
    """Independent repetitions: final score vs standard and stability, with mean and SD per mode.

    ``final``: individual = the last new best (the final opponent); group = its top-rated
    member; both with the Table 4 protocol. ``late_mean`` / ``late_sd``: mean and SD of the
    scores against the standard WPC measured at the changes in the second half of the run.
    """
    finals = _final_scores(evaluated, learned)
    late = [(_second_half(r).mean(), _second_half(r).std(ddof=0)) for mode in ("individual", "group")
            for r in learned.mode(mode)]
    finals["late_mean"] = [m for m, _ in late]
    finals["late_sd"] = [s for _, s in late]
    summary = finals.groupby("mode", sort=False)[["final", "best_in_group", "late_mean", "late_sd"]]
    means, sds = summary.mean(), summary.std(ddof=1)
    rows = [finals]
    for mode in means.index:
        rows.append(pd.DataFrame([dict(mode=mode, repetition="mean", **means.loc[mode].to_dict()),
                                  dict(mode=mode, repetition="sd", **sds.loc[mode].to_dict())]))
    return pd.concat(rows, ignore_index=True).round(3)


def _fresh_scores(learned) -> pd.Series:
    """Each replacement's fresh-game score against the opponent it replaced."""
    scores = [(e.get("fresh_vs_opponent") or {}).get("score")
              for r in learned.mode("individual") for e in r["events"] if e["kind"] == "replace"]
    return pd.Series([x for x in scores if x is not None], dtype=np.float64)


def claims(learned, evaluated) -> pd.DataFrame:
    """The paper's statements next to this run's numbers, with a criterion that can fail.

    ``holds`` is True, False or None (undecided: the criterion's third outcome, or too little
    data); ``n`` counts the units the statement rests on (replacements, runs per mode,
    repetitions). The criteria are the targets file's (mctslab/othello/targets.csv); Fig. 7's
    and Table 4's are judged in :mod:`mctslab.othello.claims` (runs as units)."""
    fresh = _fresh_scores(learned)
    changes = claims_module.changes_table(learned)
    members = claims_module.final_members(learned, evaluated)
    best_rows = evaluated.rows[evaluated.rows.source.isin(["individual", "group"])]
    best_ci = best_rows.groupby("source")["ci_low"].max()
    above = float((fresh > 0.5).mean()) if len(fresh) else np.nan
    judged = {claims_module.HIGHER: claims_module.higher_claim(changes),
              claims_module.STEADIER: claims_module.steadier_claim(changes),
              claims_module.NOT_STRONGEST: claims_module.rating_claim(members)}
    criteria = {claims_module.HIGHER: "group's per-run mean higher, Welch one-sided p < 0.05 "
                                      "over runs",
                claims_module.STEADIER: "group's per-run SD (second half) lower, Welch "
                                        "one-sided p < 0.05 over runs",
                claims_module.NOT_STRONGEST: "rank correlation of rating and score vs standard "
                                             "> 0 (one-sided permutation p < 0.05) and the "
                                             "top-rated significantly beaten in most "
                                             "repetitions"}
    rows = [
        ("Individual: a new best beats the opponent it replaced",
         f"{100 * above:.0f}% of {len(fresh)} replacements score above 0.5 in fresh games "
         f"(mean {fresh.mean():.3f})" if len(fresh) else "no replacement",
         "at least 90% of replacements above 0.5 in fresh games",
         None if not len(fresh) else bool(above >= 0.9), len(fresh))]
    for statement, (ours, n) in judged.items():
        state, _, text = (ours or "undecided: no data").partition(": ")
        rows.append((statement, text, criteria[statement],
                     {"holds": True, "fails": False}.get(state), n))
    rows.append(
        ("Both models produce a WPC better than the standard WPC",
         "best lower 95% bound of a final WPC's score vs standard: "
         + ", ".join(f"{k} {v:.3f}" for k, v in best_ci.items()),
         "lower bound > 0.5 for both modes",
         bool(len(best_ci) == 2 and (best_ci > 0.5).all()) if len(best_rows) else None,
         len(best_rows)))
    frame = pd.DataFrame(rows, columns=["statement", "ours", "criterion", "holds", "n"])
    frame.insert(1, "paper", frame.statement.map(_PAPER_SAYS))  # the targets file's wording
    return frame


def run_summary(learned) -> pd.DataFrame:
    """Games, evaluation games, wall time, changes and failed iterations of every learning run."""
    records = []
    for mode in ("individual", "group"):
        for result in learned.mode(mode):
            kinds = pd.Series([e["kind"] for e in result["events"]], dtype=object)
            records.append(dict(mode=mode, repetition=result["repetition"],
                                learning_games=result["games"],
                                evaluation_games=result["evaluation_games"],
                                changes=int((kinds != "fail").sum()),
                                failed_iterations=int((kinds == "fail").sum()),
                                task_seconds=result["seconds"],
                                games_per_second=result["games"] / max(result["seconds"], 1e-9)))
    # times and speeds to 3 significant digits (the store keeps full precision)
    return round_table(pd.DataFrame.from_records(records),
                       significant_digits={"task_seconds": 3, "games_per_second": 3})


def _mean_interval(values: pd.Series, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean over seeds and its t interval (NaN bounds for a single run)."""
    return mean_interval(values.to_numpy(dtype=np.float64), confidence)


def learner_sizes_summary(rows: pd.DataFrame) -> pd.DataFrame:
    """Learner sizes: per (learner, mode) the mean score of the runs' final WPCs
    against the standard WPC and against the random player (and against Lucas & Runarsson's
    WPC when the rows have it), with 95% t intervals over the runs (seeds), and the run best
    against the standard WPC with its other scores; the published WPCs as reference rows (one
    WPC each: the interval is over its games)."""
    if rows.empty:  # e.g. no reference sets at this scale
        return pd.DataFrame()
    opponents = [o for o in ("standard", "random", "lucas_runarsson") if f"vs_{o}" in rows]
    records = []
    for (learner, mode), group in rows.groupby(["learner", "mode"], sort=False):
        record = {"learner": learner, "mode": mode, "runs": len(group)}
        if mode == "published":
            only = group.iloc[0]
            for opponent in opponents:
                record.update({f"vs_{opponent}": only[f"vs_{opponent}"],
                               f"vs_{opponent}_low": only[f"vs_{opponent}_low"],
                               f"vs_{opponent}_high": only[f"vs_{opponent}_high"]})
        else:
            for opponent in opponents:
                mean, low, high = _mean_interval(group[f"vs_{opponent}"])
                record.update({f"vs_{opponent}": mean, f"vs_{opponent}_low": low,
                               f"vs_{opponent}_high": high})
        best = group.loc[group["vs_standard"].idxmax()]
        record.update({f"best_vs_{opponent}": best[f"vs_{opponent}"] for opponent in opponents})
        records.append(record)
    table = pd.DataFrame.from_records(records)
    return round_table(table, {c: 3 for c in table.columns if c.startswith(("vs_", "best_"))})


def learner_sizes_runs(rows: pd.DataFrame) -> pd.DataFrame:
    """The learner-size rows (one WPC each) for citing: scores to 3 decimals, no genes."""
    table = rows.drop(columns=["variables"], errors="ignore")
    for column in ("weights", "repetition"):  # integers, empty for the published rows
        if column in table:
            table[column] = table[column].astype("Int64")
    return round_table(table, {c: 3 for c in table.columns if c.startswith("vs_")})


# -- beyond the paper: the Elo/join reading ------------------------------------------------

_READING_SCORES = ("top_vs_standard", "best_vs_standard", "group_mean_vs_standard")


def elo_readings_runs(rows: pd.DataFrame) -> pd.DataFrame:
    """The Elo/join reading per (reading, repetition) for citing: scores to 3 decimals,
    ratings to 0.1, no genes."""
    table = rows.drop(columns=["top_variables"], errors="ignore")
    for column in ("top_member", "best_member", "games_each"):  # integers (empty: no WPC member)
        if column in table:
            table[column] = table[column].astype("Int64")
    decimals = {c: 3 for c in table.columns if c.startswith(_READING_SCORES)}
    return round_table(table, dict(decimals, top_rating=1, join_generation_median=1))


def elo_readings_summary(rows: pd.DataFrame) -> pd.DataFrame:
    """Per Elo/join reading: the mean over repetitions (seeds) of joins, failed iterations and
    the final group's scores against the standard WPC (its top-rated WPC member, its best
    member, its mean), each with a 95% t interval over seeds; the paper's 0.483 for its
    top-rated member beside ours (:func:`top_rated_vs_paper` reads it)."""
    if rows.empty:  # no reading compared
        return pd.DataFrame(columns=["reading", "runs"])
    records = []
    for reading, group in rows.groupby("reading", sort=False):
        record = {"reading": reading, "runs": len(group)}
        iterations = float((group["joins"] + group["failed_iterations"]).max())
        for column in ("joins", "failed_iterations") + _READING_SCORES:
            values = group[column] if column in group else pd.Series(dtype=np.float64)
            mean, low, high = _mean_interval(values)
            # a t interval can leave the possible range: counts lie in [0, iterations], scores in [0, 1]
            top = 1.0 if column in _READING_SCORES else iterations
            low, high = np.clip(low, 0.0, top), np.clip(high, 0.0, top)
            record.update({column: mean, f"{column}_low": low, f"{column}_high": high})
            if column == "top_vs_standard":
                record["paper_top_rated"] = PAPER_TOP_RATED["score"]
        record["top_rating"] = group["top_rating"].mean() if "top_rating" in group else np.nan
        record["join_generation_median"] = group["join_generation_median"].mean()
        records.append(record)
    table = pd.DataFrame.from_records(records)
    decimals = {c: 3 for c in table.columns if c.startswith(_READING_SCORES)}
    decimals.update({c: 1 for c in table.columns if c.startswith(("joins", "failed_iterations"))})
    return round_table(table, dict(decimals, top_rating=1, join_generation_median=1))


# Where the paper states each claim of :func:`claims` (in its order).
_CLAIM_PLACES = ("Sec. 4.3", "Fig. 7", "Fig. 7", "Table 4", "Sec. 6")


def _pooled(values, seconds_per_unit=None) -> dict:
    """Mean of ``values`` with its 95% t interval, as :func:`~mctslab.core.compare.paper_row`
    takes them."""
    values = np.asarray(values, dtype=np.float64)
    mean, low, high = mean_interval(values)
    return dict(our_value=mean if values.size else None, low=low, high=high, n=values.size,
                unit_cpu_s=seconds_per_unit)


def protocol_values(paper_cfg) -> dict:
    """Our value of every protocol constant the paper states (its ``config`` targets), from
    the configuration at paper scale (``cfg.protocol()``)."""
    individual = paper_cfg.learning_params("individual")
    return {
        ("Sec. 4.3", "individual learning", "population NP"): individual["population_size"],
        ("Sec. 4.3", "individual learning", "games per fitness evaluation S x N"):
            paper_cfg.n_matches * paper_cfg.games_per_match,
        ("Sec. 4.3", "individual learning", "generations Tmax"): paper_cfg.max_generations,
        ("Sec. 4.3", "individual learning", "iterations Kmax"): paper_cfg.iterations,
        ("Sec. 4.1", "fitness (Eq. 5)", "alpha"): paper_cfg.alpha,
        ("Sec. 4.2", "replacement", "fitness threshold"): paper_cfg.replace_threshold,
        ("Sec. 4.1", "players", "epsilon"): paper_cfg.epsilon,
        ("Sec. 4.3", "evaluation", "games against the standard WPC at a change"):
            paper_cfg.eval_games,
        ("Sec. 5.3", "group learning", "population NP"): paper_cfg.population_size,
        ("Sec. 5.3", "group learning", "games per member N"): paper_cfg.games_per_member,
        ("Sec. 5.3", "group learning", "group size Gmax"): paper_cfg.max_group,
        ("Sec. 5.3", "group learning", "generations Tmax"): paper_cfg.max_generations,
        ("Sec. 5.3", "group learning", "iterations Kmax"): paper_cfg.iterations,
        ("Sec. 5.1", "Elo", "K"): paper_cfg.k_factor,
        ("Sec. 5.1", "Elo", "start rating"): paper_cfg.start_rating,
        ("Sec. 5.2", "join", "rating threshold"): paper_cfg.join_rating,
        ("Table 4", "evaluation", "games per WPC"): paper_cfg.final_games}


def paper_vs_run(learned, evaluated, cfg) -> pd.DataFrame:
    """The paper's statements, numbers and protocol next to this run's, one row per target
    (:mod:`mctslab.core.compare` judges each by its margin or criterion).

    - Sec. 4.3: the new bests' fresh-game scores against the opponents they replaced and
      their scores against the standard WPC, each pooled over every replacement of every
      repetition (mean, t interval); the claims of :func:`claims` (``holds: ...``,
      ``fails: ...``, ``undecided: ...``).
    - Table 3: the top-rated group member's score against the standard WPC (Table 4's games),
      the mean over repetitions (learning runs) with its t interval: one run's top-rated member
      is one draw of it.
    - The protocol constants at paper scale (:func:`protocol_values` of ``cfg.protocol()``;
      ``cfg`` is the run's ``experiments.Config``).
    CPU seconds per unit: a learning run's seconds over its replacements, or per repetition.
    """
    name, scale, rows = "othello_wpc_de", cfg.scale, []
    individual = learned.mode("individual")
    replacements = sum(sum(e["kind"] == "replace" for e in r["events"]) for r in individual)
    per_replacement = (sum(r["seconds"] for r in individual) / replacements
                       if replacements else None)
    changes = pd.concat([change_series(r) for r in individual] or [pd.DataFrame()])
    rows.append(paper_row(name, "Sec. 4.3", "new best vs the opponent it replaced, fresh games",
                          "score", scale=scale,
                          **_pooled(_fresh_scores(learned), per_replacement)))
    rows.append(paper_row(name, "Sec. 4.3", "new bests vs the standard WPC", "score",
                          scale=scale, **_pooled(changes.get("vs_standard", pd.Series(
                              dtype=np.float64)).dropna(), per_replacement)))
    for place, claim in zip(_CLAIM_PLACES, claims(learned, evaluated).itertuples()):
        state = {True: "holds", False: "fails"}.get(claim.holds, "undecided")
        ours = f"{state}: {claim.ours}" if claim.n else None  # no data: not run, not "fails"
        rows.append(paper_row(name, place, claim.statement, "holds", ours, n=claim.n,
                              scale=scale, note=f"criterion: {claim.criterion}"))
    top = top_rated_vs_paper(evaluated)
    top = top[~top.repetition.isin(["mean", "sd over repetitions"])]
    group = learned.mode("group")
    per_run = float(np.mean([r["seconds"] for r in group])) if group else None
    rows.append(paper_row(name, "Table 3", "top-rated member", "score vs the standard WPC",
                          scale=scale, note=f"{len(top)} repetitions of "
                          f"{int(top.games.iloc[0]) if len(top) else 0} games each",
                          **_pooled(top.score.astype(float), per_run)))
    rows += config_rows(name, protocol_values(cfg.protocol()), scale)
    return paper_table(rows)
