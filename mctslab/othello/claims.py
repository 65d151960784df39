"""The paper's learning claims (Fig. 7) and its Table 4 statement judged with the right units,
from two tables every paper-scale record keeps, and the reading of Table 3's 0.483 in the group.

- :func:`changes_table`: every opponent change (individual learning, Sec. 4.3) and group change
  (group learning, Sec. 5.3) of every learning run, with the score against the standard WPC
  measured then (``eval_games`` games, 1,000 at paper scale): the per-change data of Fig. 5-7.
- :func:`final_members`: every WPC member of every final group (Tables 3 and 4), with its Elo
  rating, its score against the standard WPC (Table 4's games) and its mean score in the
  group's round robin.
- :func:`claim_rows` judges, from these two tables alone, Fig. 7's two claims with the
  **learning runs as units** (a run's changes share its seed and history, so they are not
  independent draws), Table 4's statement with a test that fails when the ratings carry no
  information, and Table 3's 0.483 under the reading ``in-group`` (``readings.csv``).
  :func:`record_rows` does the same from a committed record's tables (``mctslab scorecard
  --records``); the notebook's ``paper_vs_run`` calls :func:`claim_rows` on the tables it
  just built, so a new run and its record give the same rows.

The criteria are the targets file's (``mctslab/othello/targets.csv``), stated there before
judging; the thresholds here implement them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as st

from mctslab.core.compare import PaperRow, paper_row
from mctslab.core.stats import mean_interval

__all__ = ["CHANGES", "MEMBERS", "IN_GROUP", "changes_table", "final_members", "means_per_run",
           "higher_claim", "steadier_claim", "rating_claim", "claim_rows", "record_rows"]

_ID = "othello_wpc_de"
CHANGES = "changes"          # the notebook's per-change table (changes.csv in a record)
MEMBERS = "final_members"    # the notebook's per-member table of the final groups
IN_GROUP = "in-group"        # the reading of Table 3's 0.483 as a score inside the group
HIGHER = "Group learning scores higher against the standard WPC than individual learning"
STEADIER = "Group learning is steadier (keeps good strategies)"
NOT_STRONGEST = "The top-rated group member is not the strongest against the standard WPC"
ALPHA = 0.05
_CHANGES_NOTE = "runs as units (changes.csv: every change of every run)"
_MEMBERS_NOTE = "final_members.csv: every member of every final group"
PERMUTATIONS = 20_000        # the rank test's null draws (fixed seed: same tables, same p)


def _score(outcome) -> float:
    return np.nan if not outcome else outcome.get("score", np.nan)


def _games(outcome) -> float:
    return np.nan if not outcome else outcome["wins"] + outcome["draws"] + outcome["losses"]


def changes_table(learned) -> pd.DataFrame:
    """One row per change of every learning run: individual learning's replacements of the
    opponent, group learning's joins. ``vs_standard`` is the score against the standard WPC
    then (individual: the new best; group: the group's top-rated WPC member), over
    ``vs_standard_games``; ``second_half`` marks the changes at or after half the run's
    learning games. Individual rows add the new best's score against the opponent it replaced
    in its selecting fitness games and in fresh games; group rows the newcomer's rating after
    the league and its own score against the standard WPC. Full precision."""
    records = []
    for mode in ("individual", "group"):
        for repetition, result in enumerate(learned.mode(mode)):
            changes = [e for e in result["events"] if e["kind"] in ("replace", "join")]
            for number, event in enumerate(changes, start=1):
                standard = event.get("vs_standard") if mode == "individual" \
                    else event.get("top_vs_standard")
                records.append(dict(
                    mode=mode, repetition=repetition, change=number,
                    iteration=event["iteration"], generation=event["generation"],
                    games=event["games"], run_games=result["games"],
                    second_half=bool(event["games"] >= result["games"] / 2),
                    vs_standard=_score(standard), vs_standard_games=_games(standard),
                    vs_replaced_selection=event.get("score_vs_opponent", np.nan),
                    vs_replaced_fresh=_score(event.get("fresh_vs_opponent")),
                    rating_after_league=event.get("rating_after_league", np.nan),
                    top_member=event.get("top", np.nan), newcomer=event.get("newcomer", np.nan),
                    newcomer_vs_standard=_score(event.get("newcomer_vs_standard"))))
    table = pd.DataFrame.from_records(records, columns=[
        "mode", "repetition", "change", "iteration", "generation", "games", "run_games",
        "second_half", "vs_standard", "vs_standard_games", "vs_replaced_selection",
        "vs_replaced_fresh", "rating_after_league", "top_member", "newcomer",
        "newcomer_vs_standard"])
    for column in ("vs_standard_games", "top_member", "newcomer"):
        table[column] = table[column].astype("Int64")
    return table


def final_members(learned, evaluated) -> pd.DataFrame:
    """Every WPC member of every final group: its Elo rating and rank in the group, its score
    against the standard WPC (Table 4's games, 95% interval) and rank by it, and its mean (and
    SD) score over the other members in the group's round robin (``round_robin_games`` games
    per pair). Scores to 4 decimals, ratings to 0.1."""
    rows = evaluated.rows
    records = []
    for repetition, result in enumerate(learned.mode("group")):
        members = result["final_members"]
        robin = evaluated.round_robins[repetition]
        scored = rows[(rows.source == "group") & (rows.repetition == repetition)]
        scored = scored.set_index("member")
        for j, member in enumerate(members):
            if member["variables"] is None:  # the random player, when still a member
                continue
            others = np.delete(robin[j], j)
            outcome = scored.loc[member["id"]]
            records.append(dict(
                repetition=repetition, member=member["id"], rating=member["rating"],
                games=int(outcome["games"]), score_vs_standard=outcome["score"],
                ci_low=outcome["ci_low"], ci_high=outcome["ci_high"],
                mean_score_in_group=others.mean() if others.size else np.nan,
                sd_score_in_group=others.std() if others.size else np.nan,
                opponents_in_group=others.size))
    table = pd.DataFrame.from_records(records, columns=[
        "repetition", "member", "rating", "games", "score_vs_standard", "ci_low", "ci_high",
        "mean_score_in_group", "sd_score_in_group", "opponents_in_group"])
    by = table.groupby("repetition")
    table.insert(3, "rating_rank", by["rating"].rank(ascending=False, method="min").astype(int))
    table.insert(8, "score_rank",
                 by["score_vs_standard"].rank(ascending=False, method="min").astype(int))
    return table.round({"rating": 1, "score_vs_standard": 4, "ci_low": 4, "ci_high": 4,
                        "mean_score_in_group": 4, "sd_score_in_group": 4})


# -- the claims ------------------------------------------------------------------------------

def means_per_run(changes: pd.DataFrame, second_half: bool = False) -> pd.DataFrame:
    """Per (mode, repetition): the mean and the SD (ddof 0) of the scores against the standard
    WPC at its changes (all of them, or those of the second half) and how many."""
    part = changes[changes["second_half"].astype(bool)] if second_half else changes
    part = part.dropna(subset=["vs_standard"])
    grouped = part.groupby(["mode", "repetition"])["vs_standard"]
    return pd.DataFrame({"mean": grouped.mean(), "sd": grouped.std(ddof=0),
                         "changes": grouped.size()}).reset_index()


def _welch_over_runs(per_run: pd.DataFrame, column: str, greater: str):
    """Means of ``column`` per mode, and the one-sided Welch p over runs that ``greater``'s
    mode has the larger mean (NaN with fewer than 2 runs in either mode)."""
    a = per_run.loc[per_run["mode"] == greater, column].to_numpy(float)
    other = "individual" if greater == "group" else "group"
    b = per_run.loc[per_run["mode"] == other, column].to_numpy(float)
    p = (float(st.ttest_ind(a, b, equal_var=False, alternative="greater").pvalue)
         if len(a) >= 2 and len(b) >= 2 else np.nan)
    return a, b, p


def _state(direction: bool, p: float) -> str:
    if not direction:
        return "fails"
    return "holds" if p < ALPHA else "undecided"


def _runs_text(values) -> str:
    return ", ".join(f"{v:.3f}" for v in values)


def higher_claim(changes: pd.DataFrame) -> tuple[str, int]:
    """Fig. 7, "group learning is higher": per run, the mean score against the standard WPC
    over all its changes; holds when the group runs' mean exceeds the individual runs' by a
    one-sided Welch t test over runs at p < 0.05, fails when it is not higher, undecided
    otherwise. ``(our_value, runs per mode)``."""
    per_run = means_per_run(changes)
    group, individual, p = _welch_over_runs(per_run, "mean", "group")
    if not len(group) or not len(individual):
        return None, 0
    state = _state(group.mean() > individual.mean(), p)
    return (f"{state}: per-run mean at changes, group {group.mean():.3f} "
            f"({_runs_text(group)}) vs individual {individual.mean():.3f} "
            f"({_runs_text(individual)}), Welch one-sided p over runs = {p:.3g}",
            int(min(len(group), len(individual))))


def steadier_claim(changes: pd.DataFrame) -> tuple[str, int]:
    """Fig. 7, "group learning is steadier": per run, the SD of its scores against the
    standard WPC at the changes of its second half; holds when the group runs' SDs are lower
    by a one-sided Welch t test over runs at p < 0.05, fails when not lower, undecided
    otherwise. ``(our_value, runs per mode)``."""
    per_run = means_per_run(changes, second_half=True)
    individual, group, p = _welch_over_runs(per_run, "sd", "individual")
    if not len(group) or not len(individual):
        return None, 0
    state = _state(group.mean() < individual.mean(), p)
    return (f"{state}: per-run SD at second-half changes, group {group.mean():.3f} "
            f"({_runs_text(group)}) vs individual {individual.mean():.3f} "
            f"({_runs_text(individual)}), Welch one-sided p over runs = {p:.3g}",
            int(min(len(group), len(individual))))


def _rank_test(members: pd.DataFrame) -> tuple[float, float]:
    """The mean over repetitions of Spearman's rho between rating and score against the
    standard WPC, and its one-sided permutation p (ratings shuffled within each repetition;
    :data:`PERMUTATIONS` draws from a fixed seed, so the same table gives the same p)."""
    groups = [g for _, g in members.groupby("repetition") if len(g) >= 3]
    if not groups:
        return np.nan, np.nan
    rng = np.random.default_rng(0)
    observed, null = 0.0, np.zeros(PERMUTATIONS)
    for group in groups:
        ratings = st.rankdata(group["rating"]) - (len(group) + 1) / 2
        scores = st.rankdata(group["score_vs_standard"]) - (len(group) + 1) / 2
        scale = np.sqrt((ratings @ ratings) * (scores @ scores))
        if scale == 0:  # every rating (or score) tied: no ranking to test
            return np.nan, np.nan
        # a permutation keeps the ranks' norm, so rho is the shuffled dot product over scale
        shuffled = rng.permuted(np.tile(ratings, (PERMUTATIONS, 1)), axis=1)
        observed += (ratings @ scores) / scale / len(groups)
        null += shuffled @ scores / scale / len(groups)
    return float(observed), float((1 + np.sum(null >= observed - 1e-12)) / (1 + PERMUTATIONS))


def _beaten(group: pd.DataFrame) -> tuple[bool, int]:
    """Whether another member scores significantly above the top-rated one against the
    standard WPC (two-proportion z test against each, Bonferroni at 5%); its score rank."""
    top = group.loc[group["rating"].idxmax()]
    others = group.drop(index=top.name)
    alpha = ALPHA / max(len(others), 1)
    beaten = False
    for other in others.itertuples():
        pooled = ((top.score_vs_standard * top.games + other.score_vs_standard * other.games)
                  / (top.games + other.games))
        se = np.sqrt(max(pooled * (1 - pooled), 1e-12) * (1 / top.games + 1 / other.games))
        z = (other.score_vs_standard - top.score_vs_standard) / se
        beaten |= bool(z > 0 and st.norm.sf(z) < alpha)
    return beaten, int(top.score_rank)


def rating_claim(members: pd.DataFrame) -> tuple[str, int]:
    """Table 4 (the top-rated member only 3rd against the standard WPC, the 2nd-rated 1st):
    the ratings rank the members by strength against the standard WPC, though the top-rated
    is not the strongest. Holds when the mean Spearman rho between rating and score against
    the standard WPC is above 0 by a one-sided permutation test at p < 0.05 **and** another
    member scores significantly above the top-rated one in most repetitions; fails when rho
    <= 0 or the top-rated is not beaten in most repetitions; undecided when rho > 0 but not
    significantly. With ratings that carry no information it holds in at most 5% of runs."""
    groups = [g for _, g in members.groupby("repetition") if len(g) >= 3]
    if not groups:
        return None, 0
    rho, p = _rank_test(members)
    tops = [_beaten(g) for g in groups]
    beaten = sum(hit for hit, _ in tops)
    most = beaten > len(tops) / 2
    state = "fails" if rho <= 0 or not most else ("holds" if p < ALPHA else "undecided")
    return (f"{state}: mean Spearman rho(rating, score vs standard) = {rho:.3f} over "
            f"{len(groups)} repetitions, one-sided permutation p = {p:.3g}; the top-rated "
            f"member ranks {', '.join(str(rank) for _, rank in tops)} against the standard "
            f"WPC, significantly beaten in {beaten} of {len(tops)}", len(groups))


def _in_group_row(members: pd.DataFrame, scale: str, departure: str, note: str) -> PaperRow:
    """Table 3's 0.483 read as the top-rated member's mean score inside its group (the
    reading ``in-group``): the mean over repetitions, t interval over repetitions."""
    tops = members.loc[members.groupby("repetition")["rating"].idxmax()]
    values = tops["mean_score_in_group"].to_numpy(float)
    mean, low, high = mean_interval(values)
    return paper_row(_ID, "Table 3", "top-rated member", "score vs the standard WPC",
                     mean if values.size else None, low=low, high=high, n=values.size,
                     scale=scale, departure=departure,
                     note=f"read in the group: the top-rated member's mean score over the other "
                          f"members in the round robin, per repetition "
                          f"{_runs_text(values)}{note}")


def claim_rows(changes: pd.DataFrame | None, members: pd.DataFrame | None, *, scale: str,
               departure: str = "") -> list[tuple[str, PaperRow]]:
    """``(reading, row)`` pairs: Fig. 7's two claims with runs as units and Table 4's rating
    claim (ours, reading ``""``), and Table 3's 0.483 under the reading ``in-group``. A claim
    whose table is missing (``None``: a record from before these tables) is a row not measured
    (``not run at this scale``), so a record does not keep the verdict of an older criterion."""
    rows = []
    has_changes = changes is not None and len(changes)
    for statement, judge in ((HIGHER, higher_claim), (STEADIER, steadier_claim)):
        ours, runs = judge(changes) if has_changes else (None, None)
        rows.append(("", paper_row(_ID, "Fig. 7", statement, "holds", ours, n=runs, scale=scale,
                                   departure=departure, note=_CHANGES_NOTE if has_changes
                                   else "no per-change table in this run: not judged")))
    has_members = members is not None and len(members)
    ours, runs = rating_claim(members) if has_members else (None, None)
    rows.append(("", paper_row(_ID, "Table 4", NOT_STRONGEST, "holds", ours, n=runs,
                               scale=scale, departure=departure, note=_MEMBERS_NOTE
                               if has_members else "no table of the final groups' members in "
                               "this run: not judged")))
    if has_members:
        rows.append((IN_GROUP, _in_group_row(members, scale, departure, "")))
    return rows


def record_rows(read) -> list[tuple[str, PaperRow]]:
    """The rows of :func:`claim_rows` from a committed record's tables (``read(stem)``: its
    ``<stem>.csv`` or None): its ``changes`` and ``final_members`` tables, at the scale its
    ``paper_vs_run`` was judged at. A record without them gives no rows."""
    judged = read("paper_vs_run")
    if judged is None or not len(judged):
        return []
    scale = str(judged["scale"].iloc[0])
    return claim_rows(read(CHANGES), read(MEMBERS), scale=scale)
