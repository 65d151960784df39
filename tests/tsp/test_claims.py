"""The TSP paper's claims and its ratios under the reading accept-all-sa (mctslab.tsp.claims),
on the committed paper-scale record and on small made-up tables whose verdicts are known."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mctslab.core.compare import DIFFERS, NOT_RUN, REPRODUCED, paper_row, paper_table
from mctslab.core.targets import readings, target
from mctslab.record_card import record_rows as card_rows
from mctslab.tsp import claims, experiments, tables

RECORD = Path(__file__).resolve().parents[2] / "records" / "tsp_mcts_vs_sa" / "paper-2026-11-27"
PAPER = "tsp_mcts_vs_sa"


def _read(folder):
    def read(stem):
        path = folder / f"{stem}.csv"
        return pd.read_csv(path) if path.is_file() else None
    return read


def _by_key(rows):
    return {(reading, r.artefact, r.row, r.column): r for reading, r in rows}


def test_every_claim_and_reading_row_names_a_target_and_a_known_reading():
    for reading, row in claims.record_rows(_read(RECORD)):
        assert target(PAPER, row.artefact, row.row, row.column)["kind"] == row.kind
        assert reading in ("", *readings(PAPER).reading)
    for label, place in claims.PLACES.items():
        assert target(PAPER, place, label, "holds")["kind"] == "claim"


def test_the_committed_record_judges_the_claims_and_the_accept_all_reading():
    rows = _by_key(claims.record_rows(_read(RECORD)))
    verdict = {key: row.verdict for key, row in rows.items()}
    # ours: roulette beats uniform and uniform is worse than SA hold; MCTS beating SA at SA's
    # time and reaching SA's length faster are reversed; Cp barely matters (0.52% < 2%)
    assert verdict[("", "Sec. 4", claims.ROULETTE, "holds")] == REPRODUCED
    assert verdict[("", "Sec. 4", claims.UNIFORM_WORSE, "holds")] == REPRODUCED
    assert verdict[("", "Sec. 5", claims.BEATS_SA, "holds")] == DIFFERS
    assert verdict[("", "Sec. 5", claims.FASTER, "holds")] == DIFFERS
    assert verdict[("", "Fig. 9", claims.CP_SPREAD, "holds")] == REPRODUCED
    # under accept-all-sa, MCT_RM 0.618 [0.594, 0.642] is inside 0.632 +- 0.05; MCT_UM 1.025
    # [1.021, 1.029] lies just below 1.08 - 0.05 = 1.03
    reading = claims.ACCEPT_ALL
    rm = rows[(reading, "Fig. 8", "MCT_RM", "mean ratio to SA")]
    um = rows[(reading, "Fig. 8", "MCT_UM", "mean ratio to SA")]
    assert (rm.verdict, um.verdict) == (REPRODUCED, DIFFERS)
    assert rm.n == um.n == 79
    # the per-instance ratio of seed means is the record's seed-paired mean to 3 decimals
    seed_paired = pd.read_csv(RECORD / "ineffective_sa_reference.csv").set_index("method")
    assert round(rm.our_value, 3) == seed_paired.loc["MCT_RM", "mean ratio to SA accept-all"]
    assert round(um.our_value, 3) == seed_paired.loc["MCT_UM", "mean ratio to SA accept-all"]
    assert rows[(reading, "Sec. 5", claims.BEATS_SA, "holds")].verdict == REPRODUCED


def test_the_card_takes_the_claims_beside_the_records_own_rows():
    ours, read = card_rows(PAPER, RECORD)
    keys = {(r["artefact"], r["row"], r["column"]) for r in ours}
    assert ("Sec. 4", claims.ROULETTE, "holds") in keys
    assert {r["reading"] for r in read} == {claims.ACCEPT_ALL}


def _per_instance(rm_over_um: float, spread: float = 0.05, n: int = 80) -> pd.DataFrame:
    noise = np.random.default_rng(0).normal(0, spread, n)
    um = np.full(n, 1000.0)
    return pd.DataFrame({"SA": um, "SA accept-all": um * 1.1, "MCT_UM": um,
                         "MCT_RM": um * (rm_over_um + noise), "MCT_RS": um * rm_over_um})


def _judged(um_mean: float, rm_mean: float, half: float = 0.04, n: int = 80) -> pd.DataFrame:
    rows = [paper_row(PAPER, "Fig. 8", method, "mean ratio to SA", mean,
                             low=mean - half, high=mean + half, n=n, scale="paper")
            for method, mean in (("MCT_UM", um_mean), ("MCT_RM", rm_mean))]
    return paper_table(rows)


def _time(reached: int, runs: int = 400) -> pd.DataFrame:
    return pd.DataFrame([{"runs": runs,
                          "runs where MCT_RM reached SA's length within SA's time": reached}])


def _fig9(means) -> pd.DataFrame:
    return pd.DataFrame({"Cp": [f"k{i}" for i in range(len(means))], "mean ratio to SA": means})


@pytest.mark.parametrize(("rm_over_um", "um", "rm", "reached", "cp", "expected"), [
    # the paper's picture: every claim holds
    (0.6, 1.08, 0.63, 400, [0.628, 0.634], "holds"),
    # the reverse: roulette longer, uniform better than SA, MCTS longer than SA, never faster,
    # Cp moves the result by 10%
    (1.4, 0.8, 1.5, 0, [0.6, 0.66], "fails"),
    # intervals that contain 1 (or 0.5) decide nothing; Cp has no undecided state
    (1.0, 1.0, 1.0, 200, [0.628, 0.634], "undecided"),
])
def test_each_claim_can_hold_fail_or_stay_open(rm_over_um, um, rm, reached, cp, expected):
    rows = claims.claim_rows(_per_instance(rm_over_um), _judged(um, rm), _fig9(cp),
                             _time(reached), scale="paper")
    ours = {r.row: str(r.our_value).split(":")[0] for reading, r in rows if not reading}
    assert set(ours) == set(claims.PLACES)
    cp_state = ours.pop(claims.CP_SPREAD)
    assert set(ours.values()) == {expected}
    assert cp_state == ("holds" if expected != "fails" else "fails")


def test_missing_tables_give_no_rows_and_another_scale_is_not_judged():
    assert claims.claim_rows(None, None, None, None, scale="paper") == []
    rows = claims.claim_rows(_per_instance(0.6), _judged(1.08, 0.63), _fig9([0.63, 0.631]),
                             _time(400), scale="default")
    assert {r.verdict for _, r in rows} == {NOT_RUN}


def test_the_notebooks_paper_vs_run_holds_the_same_claim_rows():
    frame = pd.DataFrame({"instance": ["a", "a", "b", "b"] * 2,
                          "replicate": [0, 1, 0, 1] * 2,
                          "method": ["sa"] * 4 + ["mct_um"] * 4,
                          "length": [10.0, 11, 12, 13, 20, 21, 22, 23],
                          "seconds": [0.1] * 8, "final_length": [10.0, 11, 12, 13] + [np.nan] * 4,
                          "n": [5] * 8, "mst": [4.0] * 8, "optimum": [9.0] * 8})
    table = tables.paper_vs_run(frame, experiments.config("smoke", methods=["mct_um"], cp_rules=[]))
    stated = table[table.column == "holds"]
    assert list(stated.row) == [claims.UNIFORM_WORSE]  # the only claim this frame can judge
    assert stated.iloc[0].our_value.startswith("undecided: MCT_UM / SA (Fig. 8) 1.878 [")
    assert not table.duplicated(["artefact", "row", "column"]).any()
    assert set(stated.verdict) == {NOT_RUN}  # smoke scale: not judged
