"""Loading TSPLIB files: published optimal tours, MST lengths, layouts, and clear errors."""

from __future__ import annotations

import csv
import gzip

import numpy as np
import pytest

from mctslab import data
from mctslab.tsp import api, tsplib
from mctslab.tsp.tsplib import TsplibFormatError
from tests.tsp.conftest import needs_tsplib

# The 26 published optimal tours in the data folder (README of tsplib/).
OPT_TOURS = ("a280 att48 berlin52 brg180 ch130 ch150 eil101 eil51 eil76 gr120 gr202 gr48 gr666 "
             "gr96 kroA100 kroC100 kroD100 lin105 pa561 pcb442 pr1002 pr2392 pr76 rd100 st70 "
             "tsp225").split()


@needs_tsplib
@pytest.mark.parametrize("name", OPT_TOURS)
def test_published_optimal_tour_traces_to_its_optimum(name):
    instance = tsplib.load(name)
    tour = tsplib.load_tour(data.find(f"tsplib/opt_tours/{name}.opt.tour.gz"), instance.n)
    assert api.tour_length(instance, tour) == instance.optimal_tour_length


@needs_tsplib
def test_every_opt_tour_in_the_folder_is_tested():
    assert tsplib.opt_tour_names() == sorted(OPT_TOURS)


@needs_tsplib
def test_mst_of_every_instance_matches_the_data_folder():
    with open(data.find("tsplib/mst_lengths.csv"), newline="") as handle:
        expected = {row["name"]: float(row["mst_length"]) for row in csv.DictReader(handle)}
    assert len(expected) == 97
    for name, mst in expected.items():
        assert api.mst_length(tsplib.load(name)) == mst, name


@needs_tsplib
def test_the_paper_set_is_the_77_euc2d_instances():
    names = tsplib.instance_names("EUC_2D")
    assert len(names) == 77 and names[0] == "eil51" and names[-1] == "d15112"
    assert "linhp318" in names


@needs_tsplib
def test_linhp318_is_lin318_without_its_fixed_edge():
    lin, linhp = tsplib.load("lin318"), tsplib.load("linhp318")
    assert np.array_equal(lin.coords, linhp.coords)
    assert linhp.optimal_tour_length == lin.optimal_tour_length == 42029
    assert any("FIXED_EDGES_SECTION ignored" in note for note in linhp.notes)


@needs_tsplib
def test_large_instance_has_no_dense_matrix():
    big = tsplib.load("d15112")
    assert big.n == 15112 and big.matrix.size == 0 and big.xs.dtype == np.float64


@needs_tsplib
def test_plain_and_gzipped_files_give_the_same_instance(tmp_path):
    text = gzip.open(data.find("tsplib/eil51.tsp.gz"), "rt").read()
    (tmp_path / "eil51.tsp").write_text(text)
    plain, packed = tsplib.load(tmp_path / "eil51.tsp"), tsplib.load("eil51")
    assert plain.name == packed.name == "eil51"
    assert np.array_equal(plain.xs, packed.xs) and np.array_equal(plain.ys, packed.ys)


def _explicit_text(matrix, layout):
    n = len(matrix)
    if layout == "FULL_MATRIX":
        entries = [matrix[i][j] for i in range(n) for j in range(n)]
    else:
        diag = "DIAG" in layout
        rows = [(i, j) for i in range(n) for j in range(n)
                if (j > i or (diag and j == i))]  # upper triangle by rows
        if layout.startswith("LOWER"):
            rows = [(j, i) for i, j in rows]
        by_columns = layout.endswith("COL")
        rows.sort(key=lambda ij: (ij[1], ij[0]) if by_columns else ij)
        entries = [matrix[i][j] for i, j in rows]
    body = "\n".join(" ".join(map(str, entries[k:k + 7])) for k in range(0, len(entries), 7))
    return (f"NAME : m{n}\nTYPE : TSP\nDIMENSION : {n}\nEDGE_WEIGHT_TYPE : EXPLICIT\n"
            f"EDGE_WEIGHT_FORMAT : {layout}\nEDGE_WEIGHT_SECTION\n{body}\nEOF\n")


@pytest.mark.parametrize("layout", list(tsplib.MATRIX_ENTRIES))
def test_every_explicit_layout_gives_the_full_matrix(layout):
    rng = np.random.default_rng(len(layout))
    upper = np.triu(rng.integers(1, 99, (6, 6)), 1)
    matrix = (upper + upper.T).tolist()
    instance = tsplib.parse(_explicit_text(matrix, layout), source=f"{layout}.tsp")
    assert np.array_equal(instance.matrix, np.array(matrix, float))


GOOD = ("NAME : tiny\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\n"
        "NODE_COORD_SECTION\n1 0 0\n2 3 4\n3 6 8\nEOF\n")


def test_a_small_generated_file_parses():
    instance = tsplib.parse(GOOD, source="tiny.tsp")
    assert instance.n == 3 and api.path_length(instance, [0, 1, 2]) == 10


@pytest.mark.parametrize("text, fragment", [
    (GOOD.replace("DIMENSION : 3", "DIMENSION : 3\nFOO : 1"), "line 4: unknown keyword"),
    (GOOD.replace("2 3 4", "2 3 x"), "line 7: NODE_COORD_SECTION expects 'node x y'"),
    (GOOD.replace("3 6 8", "2 6 8"), "line 8: NODE_COORD_SECTION node '2' is not a new node"),
    (GOOD.replace("DIMENSION : 3", "DIMENSION : 4"), "has 3 nodes, DIMENSION says 4"),
    (GOOD.replace("DIMENSION : 3", "DIMENSION : three"), "line 3: DIMENSION must be a positive"),
    (GOOD.replace("TYPE : TSP", "TYPE : ATSP"), "line 2: TYPE 'ATSP' is not supported"),
    (GOOD.replace("EUC_2D", "EUC_3D"), "line 4: EDGE_WEIGHT_TYPE 'EUC_3D' is not supported"),
    (GOOD.replace("NAME : tiny", "NAME tiny"), "line 1: keyword NAME needs 'NAME : value'"),
    (GOOD.replace("DIMENSION : 3\n", ""), "no DIMENSION keyword"),
    (_explicit_text([[0, 1], [1, 0]], "FULL_MATRIX").replace(" 1 1", " 1 z"),
     "line 7: EDGE_WEIGHT_SECTION entry 'z' is not a number"),
    (_explicit_text([[0, 1], [1, 0]], "UPPER_ROW").replace("SECTION\n1", "SECTION\n1 2"),
     "UPPER_ROW for DIMENSION 2 needs 1"),
])
def test_malformed_files_name_the_line_or_keyword(text, fragment):
    with pytest.raises(TsplibFormatError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        tsplib.parse(text, source="bad.tsp")


TOUR = "NAME : t\nTYPE : TOUR\nDIMENSION : 3\nTOUR_SECTION\n1\n3\n2\n-1\nEOF\n"


def test_tour_files_are_read_and_checked():
    assert tsplib.parse_tour(TOUR, 3).tolist() == [0, 2, 1]
    with pytest.raises(TsplibFormatError, match="line 7: TOUR_SECTION node '3' is not a new"):
        tsplib.parse_tour(TOUR.replace("\n2\n", "\n3\n"), 3)
    with pytest.raises(TsplibFormatError, match="line 3: tour DIMENSION 3 but the instance has 4"):
        tsplib.parse_tour(TOUR, 4)
    with pytest.raises(TsplibFormatError, match="TYPE 'TSP' is not supported"):
        tsplib.parse_tour(TOUR.replace("TOUR\n", "TSP\n", 1), 3)


def test_paths_must_be_permutations():
    instance = tsplib.parse(GOOD, source="tiny.tsp")
    with pytest.raises(ValueError, match="must visit each of its 3 cities once"):
        api.path_length(instance, [0, 1, 1])
