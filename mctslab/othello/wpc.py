"""Weighted piece counters (paper Sec. 2.3, Eq. 1-2, Figs. 2-3): layout, symmetries, files, constants.

A WPC assigns a weight ``w_xy`` to each square; the value of a board is
``f_w(b) = sum w_xy b_xy`` with ``b_xy`` = +1 for the player's disc, -1 for the
opponent's, 0 empty (Eq. 1-2, stated there from Black's point of view).

* **64 weights** are stored in square order ``row * 8 + col`` with a1 = 0 (rank 1
  first, files a..h), the layout of :mod:`mctslab.othello._board`.
* **10 variables a..j** (Fig. 2): the board's 8 symmetries (rotations and
  reflections of the square) reduce the 64 weights to the upper triangle of one
  quadrant. Fig. 2 of the paper is lost in the OCR of our copy; we label the
  triangle row by row, which reproduces the standard WPC of Fig. 3 exactly::

      a b c d          row 1: a b c d d c b a
        e f g          row 2: b e f g g f e b
          h i          row 3: c f h i i h f c
            j          row 4: d g i j j i g d   (rows 5-8 mirror rows 4-1)

* **Learner sizes** (beyond the paper): a learner's genes are 10 (the
  paper's a..j: all 8 symmetries), 20 (one weight per class of the 4 symmetries that
  fix the start position: identity, the half turn, and the reflections in the two
  diagonals a1-h8 and a8-h1; Burnside: (64 + 0 + 8 + 8) / 4 = 20 classes) or 64 (no
  symmetry). The reflections in the middle row or column and the quarter turns swap
  the colours of the four centre discs, so they are no symmetry of the game from the
  start: the 8-fold tie is an assumption of the paper's WPC, the 4-fold one is not.
  :func:`variable_index` gives each square's gene, :func:`expand_genes` the 64 weights.
* Kernels take WPCs as ``int64[64]`` fixed point (:func:`quantize`): weight * 2**32,
  rounded. Integer sums are exact, so moves that are equivalent by symmetry tie
  exactly and the tie-break is a genuine uniform choice (with float64 the order of
  summation could break such ties by one ulp).

Published WPCs kept here (64 weights, our layout; the cevo framework of the Poznan
group uses the same row-major order and start position, White on (3,3) and (4,4)):

* ``STANDARD_WPC``: the hand-made "standard WPC" of Yoshioka, Ishii & Ito (1999),
  the usual opponent of the Othello Position Evaluation Function League (Fig. 3).
* ``LUCAS_RUNARSSON_2006``: the best co-evolved WPC of Lucas & Runarsson,
  "Temporal Difference Learning Versus Co-Evolution for Acquiring Othello Position
  Evaluation", IEEE CIG 2006, pp. 52-59, doi:10.1109/CIG.2006.311681.
* ``SZUBERT_JASKOWSKI_KRAWIEC_2009``: the best CTDL WPC of Szubert, Jaskowski &
  Krawiec, "Coevolutionary Temporal Difference Learning for Othello", IEEE CIG 2009,
  pp. 104-111.

The two learned WPCs are transcribed from the published-players package of the
Poznan "cevo" framework (``put.ci.cevo.games.othello.players.published``, as found in
the public repository wjaskowski/mastering-2048, commit 850d9bcc); the 2006 weights
are marked there as "coevolved (private communication)".
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

__all__ = [
    "VARIABLE_NAMES",
    "STANDARD_VARIABLES",
    "STANDARD_WPC",
    "LUCAS_RUNARSSON_2006",
    "SZUBERT_JASKOWSKI_KRAWIEC_2009",
    "PUBLISHED_WPCS",
    "FIXED_POINT_SCALE",
    "MAX_ABS_WEIGHT",
    "WPCFileError",
    "variable_index",
    "LEARNER_SIZES",
    "start_symmetries",
    "expand_genes",
    "expand",
    "contract",
    "symmetries",
    "is_symmetric",
    "symmetrise",
    "SYMMETRISED_WPCS",
    "quantize",
    "row_tables",
    "as_weights",
    "load_wpc",
    "format_board",
]

VARIABLE_NAMES = tuple("abcdefghij")
FIXED_POINT_SCALE = float(2**32)
# |w| * 2**32 * 64 squares * 2 must stay below 2**63: a generous bound for WPC weights.
MAX_ABS_WEIGHT = 1.0e6

# (row, col) in the top-left quadrant's upper triangle -> variable a..j (Fig. 2, row by row).
_TRIANGLE = {(0, 0): 0, (0, 1): 1, (0, 2): 2, (0, 3): 3, (1, 1): 4, (1, 2): 5, (1, 3): 6,
             (2, 2): 7, (2, 3): 8, (3, 3): 9}


def _build_variable_index() -> np.ndarray:
    index = np.empty(64, dtype=np.int64)
    for square in range(64):
        row, col = divmod(square, 8)
        r, c = min(row, 7 - row), min(col, 7 - col)  # fold into the a1 quadrant
        index[square] = _TRIANGLE[(min(r, c), max(r, c))]  # fold onto the upper triangle
    return index


_VARIABLE_INDEX = _build_variable_index()


def start_symmetries(weights) -> list[np.ndarray]:
    """The 4 images of a 64-weight WPC under the symmetries that fix the start position:
    identity, the half turn, the reflections in the diagonals a1-h8 and a8-h1."""
    board = np.asarray(weights, dtype=np.float64).reshape(8, 8)
    return [image.reshape(64).copy()
            for image in (board, np.rot90(board, 2), board.T, np.rot90(board, 2).T)]


def _build_fourfold_index() -> np.ndarray:
    """``int64[64]``: the class (0..19) of each square under :func:`start_symmetries`,
    numbered by the class's lowest square (a1 = 0, b1 = 1, ...)."""
    index = np.full(64, -1, dtype=np.int64)
    label = 0
    for square in range(64):
        if index[square] < 0:
            marker = np.zeros(64)
            marker[square] = 1.0
            for image in start_symmetries(marker):
                index[int(np.argmax(image))] = label
            label += 1
    return index


# genes of a learner -> the gene each square's weight comes from
_GENE_INDEX = {10: _VARIABLE_INDEX, 20: _build_fourfold_index(), 64: np.arange(64, dtype=np.int64)}
LEARNER_SIZES = tuple(_GENE_INDEX)

# Yoshioka, Ishii & Ito (1999): a..j. Rows 1-4 read
#  1.00 -0.25 0.10 0.05 0.05 0.10 -0.25 1.00 / -0.25 -0.25 0.01 0.01 0.01 0.01 -0.25 -0.25 /
#  0.10  0.01 0.05 0.02 0.02 0.05  0.01 0.10 /  0.05  0.01 0.02 0.01 0.01 0.02  0.01  0.05
STANDARD_VARIABLES = np.array([1.00, -0.25, 0.10, 0.05, -0.25, 0.01, 0.01, 0.05, 0.02, 0.01])

LUCAS_RUNARSSON_2006 = np.array([
    4.622507, -1.477853, 1.409644, -0.066975, -0.305214, 1.633019, -1.050899, 4.365550,
    -1.329145, -2.245663, -1.060633, -0.541089, -0.332716, -0.475830, -2.274535, -0.032595,
    2.681550, -0.906628, 0.229372, 0.059260, -0.150415, 0.321982, -1.145060, 2.986767,
    -0.746066, -0.317389, 0.140040, -0.045266, 0.236595, 0.158543, -0.720833, -0.131124,
    -0.305566, -0.328398, 0.073872, -0.131472, -0.172101, 0.016603, -0.511448, -0.264125,
    2.777411, -0.769551, 0.676483, 0.282190, 0.007184, 0.269876, -1.408169, 2.396238,
    -1.566175, -3.049899, -0.637408, -0.077690, -0.648382, -0.911066, -3.329772, -0.870962,
    5.046583, -1.468806, 1.545046, -0.031175, 0.263998, 2.063148, -0.148002, 5.781035,
])

SZUBERT_JASKOWSKI_KRAWIEC_2009 = np.array([
    1.02, -0.27, 0.55, -0.10, 0.08, 0.47, -0.38, 1.00,
    -0.13, -0.52, -0.18, -0.07, -0.18, -0.29, -0.68, -0.44,
    0.55, -0.24, 0.02, -0.01, -0.01, 0.10, -0.13, 0.77,
    -0.10, -0.10, 0.01, -0.01, 0.00, -0.01, -0.09, -0.05,
    0.05, -0.17, 0.02, -0.04, -0.03, 0.03, -0.09, -0.05,
    0.56, -0.25, 0.05, 0.02, -0.02, 0.17, -0.35, 0.42,
    -0.25, -0.71, -0.24, -0.23, -0.08, -0.29, -0.63, -0.24,
    0.93, -0.44, 0.55, 0.22, -0.15, 0.74, -0.57, 0.97,
])


class WPCFileError(ValueError):
    """A WPC file that cannot be read as 10 variables a..j or 64 weights."""


def variable_index(genes: int = 10) -> np.ndarray:
    """``int64[64]``: the gene each square's weight comes from (genes = 10: a..j, 0..9;
    20: the 4-fold classes; 64: the square itself)."""
    if genes not in _GENE_INDEX:
        raise ValueError(f"a learner has {' | '.join(map(str, LEARNER_SIZES))} genes, got {genes!r}")
    return _GENE_INDEX[genes].copy()


def expand_genes(genes) -> np.ndarray:
    """The 64 weights of a learner's genes (10 a..j, 20 four-fold classes or 64 weights)."""
    values = np.asarray(genes, dtype=np.float64).reshape(-1)
    return values[variable_index(values.size)]


def expand(variables) -> np.ndarray:
    """The 64 weights of the symmetric WPC with variables a..j (Fig. 2)."""
    values = np.asarray(variables, dtype=np.float64)
    if values.shape != (10,):
        raise ValueError(f"a WPC in variables a..j has 10 values, got shape {values.shape}")
    return values[_VARIABLE_INDEX]


def contract(weights) -> np.ndarray:
    """Variables a..j of a symmetric 64-weight WPC (the mean over each symmetry class)."""
    values = np.asarray(weights, dtype=np.float64).reshape(64)
    sums = np.bincount(_VARIABLE_INDEX, weights=values, minlength=10)
    return sums / np.bincount(_VARIABLE_INDEX, minlength=10)


def symmetries(weights) -> list[np.ndarray]:
    """The 8 images of a 64-weight WPC under the rotations and reflections of the board."""
    board = np.asarray(weights, dtype=np.float64).reshape(8, 8)
    images = []
    for turned in (board, np.rot90(board, 1), np.rot90(board, 2), np.rot90(board, 3)):
        images.append(turned.reshape(64).copy())
        images.append(turned.T.reshape(64).copy())
    return images


def is_symmetric(weights, tolerance: float = 0.0) -> bool:
    """True when the WPC is unchanged by all 8 board symmetries."""
    base = np.asarray(weights, dtype=np.float64).reshape(64)
    return all(np.max(np.abs(image - base)) <= tolerance for image in symmetries(base))


def symmetrise(weights) -> np.ndarray:
    """Variables a..j of any 64-weight WPC: each the mean of its symmetry class's weights.

    The fair form of a published 64-weight WPC next to the paper's learner, which has only
    the 10 symmetric variables. ``expand(symmetrise(w))`` is unchanged by the 8
    board symmetries, and a symmetric WPC is its own symmetrisation.
    """
    values = np.asarray(weights, dtype=np.float64).reshape(-1)
    if values.shape != (64,):
        raise ValueError(f"symmetrise takes 64 weights, got {values.size} values")
    return contract(values)


def as_weights(wpc) -> np.ndarray:
    """64 float weights from 10 variables a..j, 20 four-fold genes or 64 weights (validated)."""
    values = np.asarray(wpc, dtype=np.float64).reshape(-1)
    if values.size not in _GENE_INDEX:
        raise ValueError(f"a WPC has 10 variables a..j, 20 four-fold genes or 64 weights, "
                         f"got {values.size} values")
    values = expand_genes(values)
    if not np.all(np.isfinite(values)):
        raise ValueError("a WPC weight is not a finite number")
    if np.max(np.abs(values)) > MAX_ABS_WEIGHT:
        raise ValueError(f"WPC weights must lie within +-{MAX_ABS_WEIGHT:g} (fixed-point range), "
                         f"got {np.max(np.abs(values)):g}")
    return values


def quantize(wpc) -> np.ndarray:
    """``int64[64]`` fixed-point weights (weight * 2**32, rounded) for the kernels."""
    return np.ascontiguousarray(np.rint(as_weights(wpc) * FIXED_POINT_SCALE).astype(np.int64))


_BITS_OF_BYTE = ((np.arange(256)[:, None] >> np.arange(8)) & 1).astype(np.int64)  # [byte, file]


def row_tables(wpc) -> np.ndarray:
    """``int64[8, 256]``: ``[r, byte]`` = sum of the fixed-point weights of rank ``r + 1``'s
    squares whose file bits are set in ``byte`` (the kernels' form of a WPC)."""
    by_rank = quantize(wpc).reshape(8, 8)
    return np.ascontiguousarray(by_rank @ _BITS_OF_BYTE.T)


def _numbers_from_text(text: str, source: str) -> list[float]:
    numbers = []
    for line_number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].replace(",", " ")
        for token in line.split():
            try:
                numbers.append(float(token))
            except ValueError:
                raise WPCFileError(f"{source}: line {line_number}: {token!r} is not a number") from None
    return numbers


def _numbers_from_json(data, source: str) -> list[float]:
    if isinstance(data, dict):
        if "weights" in data:
            return _numbers_from_json(data["weights"], source)
        if set(VARIABLE_NAMES) <= set(data):
            return [data[name] for name in VARIABLE_NAMES]
        raise WPCFileError(f"{source}: a JSON object needs a 'weights' list or keys a..j, "
                           f"found keys {sorted(data)}")
    if isinstance(data, list):
        flat = [x for row in data for x in row] if data and isinstance(data[0], list) else data
        if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in flat):
            raise WPCFileError(f"{source}: every weight must be a number")
        return flat
    raise WPCFileError(f"{source}: expected a JSON list of numbers or an object, got {type(data).__name__}")


def load_wpc(path) -> np.ndarray:
    """Read a WPC file: 10 values a..j or 64 weights (square order a1, b1, ..., h8).

    Accepted forms: a text file of numbers separated by spaces, commas or newlines
    (``#`` starts a comment), or JSON (a list, a list of 8 rows, ``{"weights": [...]}``
    or ``{"a": ..., ..., "j": ...}``). Returns the 64 float weights.
    """
    path = Path(path)
    source = str(path)
    if not path.is_file():
        raise WPCFileError(f"WPC file {source} does not exist")
    text = path.read_text()
    stripped = text.lstrip()
    if stripped.startswith(("[", "{")):
        try:
            numbers = _numbers_from_json(json.loads(text), source)
        except json.JSONDecodeError as exc:
            raise WPCFileError(f"{source}: invalid JSON: {exc}") from None
    else:
        numbers = _numbers_from_text(text, source)
    if len(numbers) not in (10, 64):
        raise WPCFileError(f"{source}: a WPC has 10 values (a..j) or 64 weights, found {len(numbers)}")
    try:
        return as_weights(numbers)
    except ValueError as exc:
        raise WPCFileError(f"{source}: {exc}") from None


def format_board(weights, digits: int = 2) -> str:
    """The 64 weights as 8 text rows, rank 1 first (for printing and files)."""
    board = np.asarray(weights, dtype=np.float64).reshape(8, 8)
    return "\n".join(" ".join(f"{w:{digits + 4}.{digits}f}" for w in row) for row in board)


STANDARD_WPC = expand(STANDARD_VARIABLES)
PUBLISHED_WPCS = {
    "standard (Yoshioka et al. 1999)": STANDARD_WPC,
    "Lucas & Runarsson 2006 (CEL)": LUCAS_RUNARSSON_2006,
    "Szubert, Jaskowski & Krawiec 2009 (CTDL)": SZUBERT_JASKOWSKI_KRAWIEC_2009,
}
# The two learned 64-weight WPCs averaged over each symmetry class to the paper's 10 variables
# a..j (:func:`symmetrise`): the reference a 10-variable learner can be fairly held to.
SYMMETRISED_WPCS = {
    f"{name}, symmetrised to a..j": symmetrise(weights)
    for name, weights in PUBLISHED_WPCS.items() if not is_symmetric(weights)
}
