"""WPC layout, the standard WPC constant, published WPCs and WPC files."""

import json

import numpy as np
import pytest

from mctslab.othello import wpc

STANDARD_ROWS_1_TO_4 = [
    [1.00, -0.25, 0.10, 0.05, 0.05, 0.10, -0.25, 1.00],
    [-0.25, -0.25, 0.01, 0.01, 0.01, 0.01, -0.25, -0.25],
    [0.10, 0.01, 0.05, 0.02, 0.02, 0.05, 0.01, 0.10],
    [0.05, 0.01, 0.02, 0.01, 0.01, 0.02, 0.01, 0.05],
]


def test_standard_wpc_is_the_published_table():
    board = wpc.STANDARD_WPC.reshape(8, 8)
    assert np.array_equal(board[:4], np.array(STANDARD_ROWS_1_TO_4))
    assert np.array_equal(board[4:], board[:4][::-1])  # rows 5-8 mirror rows 4-1


def test_standard_wpc_is_invariant_under_the_8_symmetries():
    images = wpc.symmetries(wpc.STANDARD_WPC)
    assert len(images) == 8
    for image in images:
        assert np.array_equal(image, wpc.STANDARD_WPC)


def test_symmetries_are_the_8_distinct_images_of_an_asymmetric_board():
    board = np.arange(64, dtype=float)
    images = {tuple(image) for image in wpc.symmetries(board)}
    assert len(images) == 8
    assert not wpc.is_symmetric(wpc.LUCAS_RUNARSSON_2006)


def test_every_expanded_wpc_is_symmetric_and_contracts_back():
    rng = np.random.default_rng(0)
    for _ in range(20):
        variables = rng.uniform(-1, 1, 10)
        weights = wpc.expand(variables)
        assert wpc.is_symmetric(weights)
        assert np.allclose(wpc.contract(weights), variables)
    # Each variable covers 4 or 8 squares: corners a, diagonals e h j 4 each, the others 8.
    counts = np.bincount(wpc.variable_index(), minlength=10)
    assert counts.tolist() == [4, 8, 8, 8, 4, 8, 8, 4, 8, 4]


def test_row_tables_sum_the_fixed_point_weights():
    rng = np.random.default_rng(1)
    weights = rng.uniform(-1, 1, 64)
    tables = wpc.row_tables(weights)
    fixed = wpc.quantize(weights)
    for rank in range(8):
        for byte in (0, 1, 0b10100101, 255):
            expected = sum(int(fixed[8 * rank + f]) for f in range(8) if byte >> f & 1)
            assert tables[rank, byte] == expected


def test_published_wpcs_have_64_weights_and_sensible_corners():
    for name, weights in wpc.PUBLISHED_WPCS.items():
        assert weights.shape == (64,), name
        corners = weights[[0, 7, 56, 63]]
        x_squares = weights[[9, 14, 49, 54]]
        assert corners.min() > 0 > x_squares.max(), name  # corners good, X-squares bad


@pytest.mark.parametrize("form", ["text10", "text64", "json_list", "json_rows", "json_object",
                                  "json_weights"])
def test_load_wpc_accepts_documented_forms(tmp_path, form):
    variables = wpc.STANDARD_VARIABLES
    weights = wpc.STANDARD_WPC
    path = tmp_path / "w.txt"
    if form == "text10":
        path.write_text("# a..j\n" + " ".join(map(str, variables)) + "\n")
    elif form == "text64":
        path.write_text(wpc.format_board(weights, digits=4))
    elif form == "json_list":
        path.write_text(json.dumps(variables.tolist()))
    elif form == "json_rows":
        path.write_text(json.dumps(weights.reshape(8, 8).tolist()))
    elif form == "json_object":
        path.write_text(json.dumps(dict(zip(wpc.VARIABLE_NAMES, variables.tolist()))))
    else:
        path.write_text(json.dumps({"weights": weights.tolist()}))
    assert np.allclose(wpc.load_wpc(path), weights)


@pytest.mark.parametrize("content, message", [
    ("1 2 3", "found 3"),
    ("1 2 x 4", "'x' is not a number"),
    ("[1, 2, \"a\"]", "must be a number"),
    ("{\"w\": [1]}", "'weights' list or keys a..j"),
    ("[1, 2", "invalid JSON"),
    (" ".join(["1e9"] * 10), "within"),
])
def test_load_wpc_names_the_problem(tmp_path, content, message):
    path = tmp_path / "bad.wpc"
    path.write_text(content)
    with pytest.raises(wpc.WPCFileError, match=message) as info:
        wpc.load_wpc(path)
    assert str(path) in str(info.value)


def test_load_wpc_missing_file(tmp_path):
    with pytest.raises(wpc.WPCFileError, match="does not exist"):
        wpc.load_wpc(tmp_path / "nope.json")
