"""The Othello notebook's paper-vs-run rows (issue 22): the core.compare shape, the claims'
criteria as verdicts."""

from mctslab.core.compare import COLUMNS, VERDICTS
from mctslab.core.report import Run
from mctslab.othello import experiments, tables


def test_paper_vs_run_has_the_shared_shape_and_the_claims_verdicts(tmp_path):
    cfg = experiments.config("smoke", final_games=200, round_robin_games=10)
    run = Run("othello_paper_vs_run", config=cfg, scale="smoke", seed=3, workers=1,
              out=tmp_path, progress=False)
    learned = experiments.learn(run, cfg)
    evaluated = experiments.evaluate(run, cfg, learned)
    table = tables.paper_vs_run(learned, evaluated, "smoke")
    claims = tables.claims(learned, evaluated)
    assert tuple(table.columns) == COLUMNS and set(table.verdict) <= set(VERDICTS)
    stated = table[table.column == "holds"]
    assert list(stated.row) == list(claims.statement)
    expected = [{True: "reproduced", False: "differs"}.get(h, "not run at this scale")
                for h in claims.holds]
    assert list(stated.verdict) == expected
    assert all(note.startswith("criterion: ") for note in stated.note)
    top = table[table.artefact == "Table 3"]
    assert len(top) == cfg.repetitions and (top.paper_value == 0.483).all()
    inside = (top.low <= 0.483) & (0.483 <= top.high)
    assert list(top.verdict) == ["reproduced" if i else "differs" for i in inside]
