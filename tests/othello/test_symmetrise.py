"""Symmetrising a published 64-weight WPC to the paper's 10 variables."""

from __future__ import annotations

import numpy as np
import pytest

from mctslab.othello import tables, wpc


def _class_means_by_hand(weights):
    """Oracle: for each variable, the plain mean of the weights of the squares that fold onto
    it (rows/columns folded into the a1 quadrant, then onto the triangle row <= col)."""
    names = {(0, 0): 0, (0, 1): 1, (0, 2): 2, (0, 3): 3, (1, 1): 4, (1, 2): 5, (1, 3): 6,
             (2, 2): 7, (2, 3): 8, (3, 3): 9}
    members = {v: [] for v in range(10)}
    for row in range(8):
        for col in range(8):
            r, c = min(row, 7 - row), min(col, 7 - col)
            members[names[(min(r, c), max(r, c))]].append(weights[row * 8 + col])
    assert sorted(len(m) for m in members.values()) == [4] * 4 + [8] * 6
    return np.array([np.mean(members[v]) for v in range(10)])


def test_a_symmetric_table_is_unchanged():
    assert np.allclose(wpc.expand(wpc.symmetrise(wpc.STANDARD_WPC)), wpc.STANDARD_WPC, rtol=0, atol=1e-15)
    assert np.allclose(wpc.symmetrise(wpc.STANDARD_WPC), wpc.STANDARD_VARIABLES)


@pytest.mark.parametrize("weights", [wpc.LUCAS_RUNARSSON_2006, wpc.SZUBERT_JASKOWSKI_KRAWIEC_2009,
                                     np.random.default_rng(3).normal(size=64)])
def test_each_class_is_the_mean_of_its_members_and_the_result_is_symmetric(weights):
    variables = wpc.symmetrise(weights)
    assert np.allclose(variables, _class_means_by_hand(np.asarray(weights)))
    expanded = wpc.expand(variables)
    assert not wpc.is_symmetric(weights)
    for image in wpc.symmetries(expanded):  # invariant under each of the 8 board symmetries
        assert np.allclose(image, expanded, rtol=0, atol=1e-15)
    # symmetrising any symmetric image of the table gives the same variables
    for image in wpc.symmetries(weights):
        assert np.allclose(wpc.symmetrise(image), variables)


def test_corner_class_of_lucas_runarsson_by_hand():
    corners = wpc.LUCAS_RUNARSSON_2006[[0, 7, 56, 63]]
    assert wpc.symmetrise(wpc.LUCAS_RUNARSSON_2006)[0] == pytest.approx(corners.mean())
    assert corners.mean() == pytest.approx((4.622507 + 4.365550 + 5.046583 + 5.781035) / 4)


def test_symmetrised_published_wpcs_are_the_two_learned_ones():
    assert len(wpc.SYMMETRISED_WPCS) == 2
    assert all(name.endswith("symmetrised to a..j") for name in wpc.SYMMETRISED_WPCS)
    with pytest.raises(ValueError, match="symmetrise takes 64 weights"):
        wpc.symmetrise(wpc.STANDARD_VARIABLES)


def test_table4_gets_the_symmetrised_rows_and_the_old_tasks_keep_their_seeds(tmp_path):
    import json

    from mctslab.core.report import Run
    from mctslab.othello import experiments

    cfg = experiments.config("smoke", final_games=40, round_robin_games=4, iterations=1,
                             max_generations=4)
    run = Run("othello_sym", config=cfg, scale="smoke", seed=3, workers=1, out=tmp_path,
              progress=False)
    evaluated = experiments.run_evaluation(run, cfg, experiments.run_learning(run, cfg))
    table = tables.table4(evaluated)
    for name, variables in wpc.SYMMETRISED_WPCS.items():
        row = table[table.label == name].iloc[0]
        assert row.games == 40 and row.source == "published"
        stored = evaluated.rows[evaluated.rows.label == name].iloc[0]
        assert np.allclose(stored.variables, variables)
    # the othello_final tasks are what they were before: spawn keys 0..k-1, no reference among
    # them (their own experiment, keys (1, crc32(name)))
    final = [json.loads(line) for line in
             (tmp_path / "data/results/othello_final/results.jsonl").read_text().splitlines()]
    assert sorted(r["spawn_key"][0] for r in final) == list(range(len(final)))
    refs = [json.loads(line) for line in
            (tmp_path / "data/results/othello_reference/results.jsonl").read_text().splitlines()]
    assert len(refs) == 2 and all(len(r["spawn_key"]) == 2 for r in refs)
