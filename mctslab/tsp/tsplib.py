"""Reading TSPLIB instances and tours into arrays the kernels use.

Parsing is tsplib95's (the ecosystem's parser); this module adds what tsplib95 leaves out:

- a line-by-line check first, so a malformed or unsupported file gets an error naming the line
  and keyword (tsplib95 splits the text on known keywords and reports neither);
- ``.tsp.gz`` files; the GEO conversion with TSPLIB's ``PI = 3.141592`` and truncated degrees
  (tsplib95 uses ``math.radians``, which is off by one on some pairs); EXPLICIT matrices in every
  TSPLIB layout, numbered from 0 like everything else here (tsplib95 numbers EXPLICIT-only
  instances from 0 but coordinate instances from 1);
- no per-pair ``get_weight``: weights are computed by the numba leaves in ``_distance.py``.

Instances are found through :func:`mctslab.data.find` (``tsplib/<name>.tsp.gz``); the published
optima come from ``tsplib/optima.csv``. ``linhp318`` has lin318's coordinates plus a fixed edge
(1, 214); the fixed edge is ignored here, so it *is* lin318 (its optimum is lin318's, 42029).
"""

from __future__ import annotations

import csv
import gzip
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np
import tsplib95

from mctslab import data
from mctslab.tsp._distance import EXPLICIT, GEO, GEO_PI, METRIC_CODES

__all__ = ["Instance", "TsplibFormatError", "load", "load_tour", "parse", "parse_tour",
           "from_coordinates", "optima", "instance_names", "opt_tour_names", "data_path"]

HEADER_KEYWORDS = ("NAME", "TYPE", "COMMENT", "DIMENSION", "CAPACITY", "EDGE_WEIGHT_TYPE",
                   "EDGE_WEIGHT_FORMAT", "EDGE_DATA_FORMAT", "NODE_COORD_TYPE", "DISPLAY_DATA_TYPE")
SECTION_KEYWORDS = ("NODE_COORD_SECTION", "EDGE_WEIGHT_SECTION", "DISPLAY_DATA_SECTION",
                    "FIXED_EDGES_SECTION", "TOUR_SECTION", "DEPOT_SECTION", "DEMAND_SECTION",
                    "EDGE_DATA_SECTION")
# Number of matrix entries stored by each EXPLICIT layout for n cities.
MATRIX_ENTRIES = {
    "FULL_MATRIX": lambda n: n * n,
    "UPPER_ROW": lambda n: n * (n - 1) // 2, "LOWER_ROW": lambda n: n * (n - 1) // 2,
    "UPPER_COL": lambda n: n * (n - 1) // 2, "LOWER_COL": lambda n: n * (n - 1) // 2,
    "UPPER_DIAG_ROW": lambda n: n * (n + 1) // 2, "LOWER_DIAG_ROW": lambda n: n * (n + 1) // 2,
    "UPPER_DIAG_COL": lambda n: n * (n + 1) // 2, "LOWER_DIAG_COL": lambda n: n * (n + 1) // 2,
}
_LINE = re.compile(r"^\s*([A-Z_0-9]+)\s*(?::\s*(.*?))?\s*$")


class TsplibFormatError(ValueError):
    """A TSPLIB file is malformed or uses something not supported (the message names where)."""


@dataclass(frozen=True, eq=False)
class Instance:
    """A symmetric TSP instance as the kernels see it.

    ``xs``/``ys`` (float64[n]) are the coordinates (latitude / longitude in radians for GEO,
    empty for EXPLICIT); ``matrix`` is float64[n, n] for EXPLICIT, else 0 x 0. Cities are
    numbered 0..n-1 (file node ``k`` is city ``k - 1``). ``coords`` keeps the file's raw
    coordinates (for plots and for LKH), or display coordinates, or None.
    """

    name: str
    dimension: int
    edge_weight_type: str
    metric: int
    xs: np.ndarray
    ys: np.ndarray
    matrix: np.ndarray
    coords: np.ndarray | None = None
    optimal_tour_length: float | None = None
    comment: str = ""
    source: str = ""
    notes: tuple[str, ...] = field(default=())

    @property
    def n(self) -> int:
        return self.dimension

    @property
    def arrays(self) -> tuple:
        """``(metric, xs, ys, matrix)``: the leading arguments of every kernel."""
        return self.metric, self.xs, self.ys, self.matrix

    def __repr__(self) -> str:
        return f"Instance({self.name!r}, n={self.dimension}, {self.edge_weight_type})"


# -- reading text --------------------------------------------------------------------------------
def _read_text(path: Path) -> str:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="latin-1") as handle:
        return handle.read()


def _is_number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


def _scan(text: str, source: str, expect_tour: bool = False) -> dict:
    """Check a TSPLIB text line by line; return its header values and section line spans."""
    header: dict[str, tuple[str, int]] = {}
    sections: dict[str, list[tuple[int, str]]] = {}
    current = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line == "EOF":
            break
        first = line.split()[0].rstrip(":")
        if first in SECTION_KEYWORDS:
            current = first
            sections[current] = []
            continue
        if current is not None and (_is_number(first) or first == "-1"):
            sections[current].append((number, line))
            continue
        match = _LINE.match(line)
        keyword = match.group(1) if match else first
        if keyword not in HEADER_KEYWORDS:
            where = f" in {current}" if current else ""
            raise TsplibFormatError(f"{source} line {number}: unknown keyword or malformed "
                                    f"line{where}: {line[:60]!r}")
        if match is None or match.group(2) is None:
            raise TsplibFormatError(f"{source} line {number}: keyword {keyword} needs "
                                    f"'{keyword} : value', got {line[:60]!r}")
        header[keyword] = (match.group(2), number)
        current = None
    kind = header.get("TYPE", ("", 0))
    kind_word = kind[0].split()[0] if kind[0] else ""
    wanted = "TOUR" if expect_tour else "TSP"
    if kind_word != wanted:
        raise TsplibFormatError(f"{source} line {kind[1]}: TYPE {kind[0]!r} is not supported "
                                f"(expected {wanted}; ATSP, HCP, CVRP ... are not symmetric TSPs)"
                                if kind[1] else f"{source}: no TYPE keyword (expected TYPE : {wanted})")
    if "DIMENSION" in header:
        value, number = header["DIMENSION"]
        if not value.isdigit() or int(value) < 1:
            raise TsplibFormatError(f"{source} line {number}: DIMENSION must be a positive "
                                    f"integer, got {value!r}")
    return {"header": header, "sections": sections}


def _check_coords(rows, n: int, source: str, section: str) -> None:
    seen = np.zeros(n + 1, bool)
    for number, line in rows:
        tokens = line.split()
        if len(tokens) != 3 or not all(_is_number(t) for t in tokens):
            raise TsplibFormatError(f"{source} line {number}: {section} expects 'node x y', "
                                    f"got {line[:60]!r}")
        node = tokens[0]
        if not node.isdigit() or not 1 <= int(node) <= n or seen[int(node)]:
            raise TsplibFormatError(f"{source} line {number}: {section} node {node!r} is not a "
                                    f"new node number in 1..{n}")
        seen[int(node)] = True
    if len(rows) != n:
        raise TsplibFormatError(f"{source}: {section} has {len(rows)} nodes, DIMENSION says {n}")


def _check_matrix(rows, n: int, layout: str, source: str) -> None:
    count = 0
    for number, line in rows:
        for token in line.split():
            if not _is_number(token):
                raise TsplibFormatError(f"{source} line {number}: EDGE_WEIGHT_SECTION entry "
                                        f"{token!r} is not a number")
            count += 1
    expected = MATRIX_ENTRIES[layout](n)
    if count != expected:
        raise TsplibFormatError(f"{source}: EDGE_WEIGHT_SECTION has {count} numbers; "
                                f"{layout} for DIMENSION {n} needs {expected}")


def _matrix_from_entries(values: np.ndarray, n: int, layout: str) -> np.ndarray:
    """The full symmetric float64 matrix from the entries of a TSPLIB EXPLICIT layout."""
    if layout == "FULL_MATRIX":
        full = values.reshape(n, n).astype(np.float64)
        np.fill_diagonal(full, 0.0)  # w(i, i) = 0 here, whatever a file puts on the diagonal
        return full
    diag = "DIAG" in layout
    # A *_COL layout of a symmetric matrix lists the same entries as the opposite *_ROW one.
    upper_by_rows = layout.startswith("UPPER") == layout.endswith("ROW")
    rows, cols = np.triu_indices(n, 0 if diag else 1) if upper_by_rows else \
        np.tril_indices(n, 0 if diag else -1)
    full = np.zeros((n, n), np.float64)
    full[rows, cols] = values
    full[cols, rows] = values
    return full


def _geo_radians(values: np.ndarray) -> np.ndarray:
    """TSPLIB's DDD.MM -> radians: degrees truncated towards zero, then minutes, PI = 3.141592."""
    degrees = np.trunc(values)
    minutes = values - degrees
    return GEO_PI * (degrees + 5.0 * minutes / 3.0) / 180.0


def parse(text: str, source: str = "<text>", name: str | None = None) -> Instance:
    """An :class:`Instance` from the text of a TSPLIB ``.tsp`` file (errors name the line)."""
    scanned = _scan(text, source)
    header, sections = scanned["header"], scanned["sections"]
    n, ewt, metric = _check_layout(header, sections, source)
    try:
        problem = tsplib95.parse(text)
    except Exception as exc:  # tsplib95 raises bare ValueErrors etc. without line numbers
        raise TsplibFormatError(f"{source}: tsplib95 could not parse the file: {exc}") from exc
    xs, ys, matrix, coords = _geometry(problem, n, metric, header)

    file_name = header.get("NAME", ("", 0))[0] or "unnamed"
    name = name or file_name
    notes = []
    if "FIXED_EDGES_SECTION" in sections:
        notes.append(f"FIXED_EDGES_SECTION ignored ({len(sections['FIXED_EDGES_SECTION']) - 1} "
                     "edge(s)): solved as the plain instance")
    if name != file_name:
        notes.append(f"file says NAME {file_name}")
    optimum = optima().get(name)
    if name == "linhp318":
        optimum = optima().get("lin318")  # fixed edge ignored: the problem is lin318
    return Instance(name=name, dimension=n, edge_weight_type=ewt, metric=metric, xs=xs, ys=ys,
                    matrix=matrix, coords=coords, optimal_tour_length=optimum,
                    comment=header.get("COMMENT", ("", 0))[0], source=source, notes=tuple(notes))


def _check_layout(header: dict, sections: dict, source: str) -> tuple[int, str, int]:
    """(dimension, EDGE_WEIGHT_TYPE, metric code) of a scanned file, once its keywords and
    sections are ones we support and its data sections hold ``n`` well-formed rows (else a
    :class:`TsplibFormatError` naming the line)."""
    if "DIMENSION" not in header:
        raise TsplibFormatError(f"{source}: no DIMENSION keyword")
    n = int(header["DIMENSION"][0])
    ewt, ewt_line = header.get("EDGE_WEIGHT_TYPE", ("", 0))
    if ewt not in METRIC_CODES:
        where = f"line {ewt_line}: " if ewt_line else ""
        raise TsplibFormatError(f"{source} {where}EDGE_WEIGHT_TYPE {ewt!r} is not supported; "
                                f"supported: {', '.join(METRIC_CODES)}")
    metric = METRIC_CODES[ewt]
    if metric == EXPLICIT:
        layout, layout_line = header.get("EDGE_WEIGHT_FORMAT", ("", 0))
        if layout not in MATRIX_ENTRIES:
            where = f"line {layout_line}: " if layout_line else ""
            raise TsplibFormatError(f"{source} {where}EDGE_WEIGHT_FORMAT {layout!r} is not "
                                    f"supported; supported: {', '.join(MATRIX_ENTRIES)}")
        if "EDGE_WEIGHT_SECTION" not in sections:
            raise TsplibFormatError(f"{source}: EXPLICIT instance without EDGE_WEIGHT_SECTION")
        _check_matrix(sections["EDGE_WEIGHT_SECTION"], n, layout, source)
    elif "NODE_COORD_SECTION" not in sections:
        raise TsplibFormatError(f"{source}: {ewt} instance without NODE_COORD_SECTION")
    for section in ("NODE_COORD_SECTION", "DISPLAY_DATA_SECTION"):
        if section in sections:
            _check_coords(sections[section], n, source, section)
    return n, ewt, metric


def _geometry(problem, n: int, metric: int, header: dict):
    """(xs, ys, matrix, coords) of a parsed problem: planar coordinates for the coordinate
    metrics (GEO in radians), the full matrix for EXPLICIT, and the coordinates to draw."""
    coords = None
    for attribute in ("node_coords", "display_data"):
        table = getattr(problem, attribute) or {}
        if table:
            coords = np.array([table[k] for k in range(1, n + 1)], dtype=np.float64)
            break
    if metric == EXPLICIT:
        values = np.array([v for row in problem.edge_weights for v in row], dtype=np.float64)
        matrix = _matrix_from_entries(values, n, header["EDGE_WEIGHT_FORMAT"][0])
        empty = np.zeros(0, np.float64)
        return empty, empty, matrix, coords
    table = problem.node_coords
    raw = np.array([table[k] for k in range(1, n + 1)], dtype=np.float64)
    planar = _geo_radians(raw) if metric == GEO else raw
    return (np.ascontiguousarray(planar[:, 0]), np.ascontiguousarray(planar[:, 1]),
            np.zeros((0, 0), np.float64), raw)


def data_path(name: str) -> Path:
    """Path of the data-folder file for an instance name (``eil51`` -> ``.../eil51.tsp.gz``).

    Shipped instances are gzipped; those of ``mctslab data fetch tsplib-rest`` are plain
    ``.tsp`` files beside them.
    """
    plain = f"tsplib/{name}.tsp"
    return data.find(plain) if data.available(plain) else data.find(f"{plain}.gz")


def load(name_or_path: str | Path) -> Instance:
    """An instance by name from the data folder (``"eil51"``) or from a ``.tsp``/``.tsp.gz`` path."""
    candidate = Path(name_or_path)
    if candidate.suffix in (".tsp", ".gz") or candidate.exists():
        path = data.find(candidate.name, explicit=candidate)
        stem = path.name.split(".")[0]
    else:
        path = data_path(str(name_or_path))
        stem = str(name_or_path)
    return parse(_read_text(path), source=path.name, name=stem)


def parse_tour(text: str, n: int, source: str = "<tour>") -> np.ndarray:
    """The tour (int32, cities 0..n-1) of a TSPLIB ``.tour`` text, checked against ``n`` cities."""
    scanned = _scan(text, source, expect_tour=True)
    header, sections = scanned["header"], scanned["sections"]
    if "DIMENSION" in header and int(header["DIMENSION"][0]) != n:
        value, number = header["DIMENSION"]
        raise TsplibFormatError(f"{source} line {number}: tour DIMENSION {value} but the "
                                f"instance has {n} cities")
    if "TOUR_SECTION" not in sections:
        raise TsplibFormatError(f"{source}: no TOUR_SECTION")
    nodes, seen = [], np.zeros(n + 1, bool)
    for number, line in sections["TOUR_SECTION"]:
        for token in line.split():
            if token == "-1":
                break
            if not token.isdigit() or not 1 <= int(token) <= n or seen[int(token)]:
                raise TsplibFormatError(f"{source} line {number}: TOUR_SECTION node {token!r} "
                                        f"is not a new node number in 1..{n}")
            seen[int(token)] = True
            nodes.append(int(token))
    if len(nodes) != n:
        raise TsplibFormatError(f"{source}: TOUR_SECTION lists {len(nodes)} nodes, expected {n}")
    parsed = tsplib95.parse(text).tours  # the ecosystem's reading, checked against ours
    if not parsed or list(parsed[0]) != nodes:
        raise TsplibFormatError(f"{source}: tsplib95 reads a different tour than the file lists")
    return np.asarray(nodes, dtype=np.int32) - 1


def load_tour(path: str | Path, n: int) -> np.ndarray:
    """A ``.tour`` / ``.opt.tour`` / ``.tour.gz`` file as an int32 permutation of 0..n-1."""
    path = data.find(Path(path).name, explicit=path)
    return parse_tour(_read_text(path), n, source=path.name)


def from_coordinates(xy, name: str = "random", metric: str = "EUC_2D") -> Instance:
    """An in-memory instance from an ``(n, 2)`` coordinate array (tests, smoke runs)."""
    xy = np.asarray(xy, dtype=np.float64)
    if xy.ndim != 2 or xy.shape[1] != 2 or xy.shape[0] < 1:
        raise ValueError(f"coordinates must have shape (n, 2), got {xy.shape}")
    if metric not in METRIC_CODES or metric == "EXPLICIT":
        raise ValueError(f"unknown coordinate metric {metric!r}; use EUC_2D, CEIL_2D, ATT or GEO")
    code = METRIC_CODES[metric]
    planar = _geo_radians(xy) if code == GEO else xy
    return Instance(name=name, dimension=xy.shape[0], edge_weight_type=metric, metric=code,
                    xs=np.ascontiguousarray(planar[:, 0]), ys=np.ascontiguousarray(planar[:, 1]),
                    matrix=np.zeros((0, 0), np.float64), coords=xy, source="generated")


# -- the data folder -----------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _optima_table() -> tuple[tuple[str, int, str, float], ...]:
    if not data.available("tsplib/optima.csv"):
        return ()
    with open(data.find("tsplib/optima.csv"), newline="") as handle:
        return tuple((row["name"], int(row["dimension"]), row["edge_weight_type"],
                      float(row["optimal_tour_length"])) for row in csv.DictReader(handle))


def optima() -> dict[str, float]:
    """Published optimal tour lengths by instance name (empty when the data folder is absent)."""
    return {name: value for name, _, _, value in _optima_table()}


def instance_names(edge_weight_type: str | None = None, max_dimension: int | None = None) -> list[str]:
    """Instance names in ``optima.csv`` order (by dimension, then name), optionally filtered."""
    return [name for name, n, ewt, _ in _optima_table()
            if (edge_weight_type is None or ewt == edge_weight_type)
            and (max_dimension is None or n <= max_dimension)]


def opt_tour_names() -> list[str]:
    """Instances with a published optimal tour in ``tsplib/opt_tours/``."""
    if not data.available("tsplib/opt_tours"):
        return []
    folder = data.find("tsplib/opt_tours")
    return sorted(p.name.split(".")[0] for p in folder.glob("*.opt.tour.gz"))
