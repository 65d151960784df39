"""Marginal eye points (GNU Go's ``!@()$`` in eyes.db) in the eye-space local game."""

from __future__ import annotations

import pytest

from mctslab.manyfaces import eyes


@pytest.fixture(scope="module")
def db():
    return {s.name: s for s in eyes.parse_eyes_db()}


@pytest.mark.parametrize("name", ["102", "201", "310", "320", "4111", "4121"])
def test_marginal_shapes_get_gnugo_min_max(db, name):
    # 102 "!" 0000, 201 "@x" 0011, 310 "(.x" 0111, 320 "x@x" 0022 (the chimera), two
    # four-point shapes: GNU Go's b c with the marginal points read as marginal...
    shape = db[name]
    assert shape.marginal_points
    value = eyes.eye_value(shape.points, shape.dead, marginal=shape.marginal_points)
    assert value.digits[1:3] == shape.value[1:3]
    # ...and not when they are read as ordinary eye space (the old reading)
    assert eyes.eye_value(shape.points, shape.dead).digits[1:3] != shape.value[1:3]


def test_a_safe_attacker_stone_on_the_margin_kills_the_chimera():
    # x@x: the defender on @ makes two eyes, the attacker on @ (connected out) none
    v = eyes.eye_value([(0, 0), (0, 1), (0, 2)], marginal=[(0, 1)])
    assert (v.a, v.b, v.c, v.d) == (0, 0, 2, 2)
    assert v.vital == ((0, 1),)


def test_no_marginal_points_keep_the_old_values():
    # the memoised values the consistency checker recomputes are the two-argument ones
    for pts in ([(0, 0), (0, 1), (0, 2)], [(0, 0), (0, 1), (0, 2), (0, 3)]):
        assert eyes.eye_value(pts, marginal=()) == eyes.eye_value(pts)


def test_small_marginal_shapes_agreement_is_what_we_recorded():
    shapes = [s for s in eyes.parse_eyes_db() if s.marginal and len(s.points) <= 4]
    rows = eyes.compare_with_db(shapes, marginal=True)
    # 51 shapes of 1-4 points: b c agree on 44, all four digits on 39 (the old reading,
    # marginal points as ordinary space, is in docs/bench/manyfaces.md for all 1,410)
    assert len(rows) == 51
    assert sum(r["min_max_agree"] for r in rows) == 44
    assert sum(r["all_agree"] for r in rows) == 39


def test_optics_false_margin_vertex_gets_a_marginal_space():
    # optics.tst 1001 (games/marginal.sgf, "false margins"): L19 is a dead Black stone
    # next to a point where Black would have one liberty; GNU Go: 1 1. Our enclosed
    # spaces do not hold it (-1); the marginal space leaves the false margin out.
    from mctslab.manyfaces import regression
    from mctslab.manyfaces.knowledge import Knowledge

    case = next(c for c in regression.read_suite("optics") if c["id"] == 1001)
    know = Knowledge(regression.position(case))
    assert regression.answer(case, know, marginal_spaces=False) == "-1"
    assert regression.answer(case, know) == "1 1"
