"""The Othello notebook's paper-vs-run rows (issues 22, 27): the core.compare shape, one row
per target (repetitions pooled), claims whose criteria can fail, the protocol constants."""

import numpy as np

from mctslab.core.compare import COLUMNS, NOT_RUN, REPRODUCED, rejudge
from mctslab.core.report import Run
from mctslab.othello import experiments, tables


def test_paper_vs_run_has_the_shared_shape_one_row_per_target(tmp_path):
    cfg = experiments.config("smoke", final_games=200, round_robin_games=10, repetitions=2)
    run = Run("othello_paper_vs_run", config=cfg, scale="smoke", seed=3, workers=1,
              out=tmp_path, progress=False)
    learned = experiments.run_learning(run, cfg)
    evaluated = experiments.run_evaluation(run, cfg, learned)
    table = tables.paper_vs_run(learned, evaluated, cfg)
    claims = tables.claims(learned, evaluated)
    assert tuple(table.columns) == COLUMNS
    assert not table.duplicated(["artefact", "row", "column"]).any()
    stated = table[table.column == "holds"]
    assert list(stated.row) == list(claims.statement)
    states = [{True: "holds", False: "fails"}.get(h, "undecided") for h in claims.holds]
    assert [v.split(":")[0] if isinstance(v, str) else None for v in stated.our_value] == [
        state if n else None for state, n in zip(states, claims.n)]  # no data: not run
    # a smoke run is not the paper's scale: nothing sampled or claimed is judged
    assert set(table[table.kind.isin(["sampled", "claim"])].verdict) == {NOT_RUN}
    top = table[table.artefact == "Table 3"].iloc[0]
    assert top.paper_value == 0.483 and top.n == 2  # the repetitions, pooled
    fresh = table[table.row == "new best vs the opponent it replaced, fresh games"].iloc[0]
    scores = tables._fresh_scores(learned)
    assert fresh.n == len(scores) and np.isclose(fresh.our_value, scores.mean())
    config = table[table.kind == "config"]
    assert len(config) == 17 and set(config.verdict) == {REPRODUCED}
    # the same rows at paper scale are judged by their margins and criteria
    for record in table[table.kind == "sampled"].to_dict("records"):
        judged = rejudge(dict(record, scale="paper"))
        assert judged.verdict != NOT_RUN or "below" in judged.why
