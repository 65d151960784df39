"""SGF in and out through sgfmill: a position at move N of a game's main line, and a finished game
written with its result and the engine's settings in the root node.

Coordinates are sgfmill's and :mod:`mctslab.go.api`'s: ``(row, col)``, row 0 at the bottom.

Setup stones (root ``AB``/``AW``) are placed with ``Board.play`` out of turn, black ones first:
our board has no separate setup operation, so they count in ``move_number`` and ``board.moves``
(``undo`` takes them back, ``info["setup_moves"]`` says how many there are), and
``board.to_move`` after them is not meaningful: ``info["to_move"]`` gives the side to move
(the next main-line move's colour, else ``PL``, else the opposite of the last move played).
A setup stone on an occupied point or without liberties is reported like an illegal move.
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import numpy as np
from sgfmill import sgf, sgf_moves

from mctslab import __version__
from mctslab.go.api import BLACK, WHITE, Board, IllegalMove, vertex

__all__ = ["game_bytes", "load", "main_line", "numbered_position", "save_game"]


def _read(source) -> tuple[bytes, str]:
    if isinstance(source, (bytes, bytearray)):
        return bytes(source), "<SGF bytes>"
    path = Path(source)
    try:
        return path.read_bytes(), str(path)
    except OSError as exc:
        raise OSError(f"cannot read SGF file {path}: {exc.strerror or exc}") from None


def load(source, move_number: int | None = None, komi: float = 6.5):
    """``(board, info)``: the position after ``move_number`` moves of the main line (all moves
    when None; 0 = the setup only) of an SGF file path or SGF bytes.

    ``info`` holds ``size``, ``komi`` (``KM``, else the ``komi`` argument), ``moves`` (every
    main-line move as ``(colour, (row, col) | None)``, also those after ``move_number``),
    ``move_number``, ``setup_moves``, ``to_move``, ``result`` (``RE`` or None), ``black`` /
    ``white`` (``PB``/``PW``), ``rules`` (``RU``) and ``root`` (every root property as text).
    A malformed file, a size outside 5..25, a bad ``move_number`` or an illegal move raise
    ``ValueError`` naming the file and the problem.
    """

    data, name = _read(source)
    try:
        game = sgf.Sgf_game.from_bytes(data)
        size = game.get_size()
        root = game.get_root()
        file_komi = game.get_komi() if root.has_property("KM") else None
        _, plays = sgf_moves.get_setup_and_moves(game)
        black_setup, white_setup, _ = root.get_setup_stones()
    except ValueError as exc:
        raise ValueError(f"{name}: not a valid SGF game: {exc}") from None
    except KeyError as exc:  # sgfmill's KeyError for a missing property in odd files
        raise ValueError(f"{name}: not a valid SGF game: missing {exc}") from None
    if not 5 <= size <= 25:
        raise ValueError(f"{name}: board size {size} is not supported (5 to 25)")
    colors = {"b": BLACK, "w": WHITE}
    moves = [(colors[c], None if m is None else (int(m[0]), int(m[1]))) for c, m in plays]
    if move_number is None:
        move_number = len(moves)
    if isinstance(move_number, bool) or not 0 <= int(move_number) <= len(moves):
        raise ValueError(f"{name}: move number {move_number!r} is outside 0..{len(moves)} "
                         f"(the main line has {len(moves)} moves)")
    move_number = int(move_number)
    board = Board(size, komi=komi if file_komi is None else file_komi)
    setup = [(BLACK, p) for p in sorted(black_setup)] + [(WHITE, p) for p in sorted(white_setup)]
    for color, point in setup:
        try:
            board.play(color, point)
        except IllegalMove as exc:
            raise ValueError(f"{name}: setup stone {'BW'[color - 1]} {vertex(point, size)} "
                             f"cannot be placed ({exc.reason})") from None
    for index, (color, move) in enumerate(moves[:move_number], start=1):
        try:
            board.play(color, move)
        except IllegalMove as exc:
            raise ValueError(f"{name}: move {index} ({'BW'[color - 1]} "
                             f"{vertex(move, size)}) is illegal: {exc.reason}") from None
    to_move = _side_to_move(root, moves, move_number, board)
    text = {key: _text(root, key) for key in root.properties()}
    info = dict(size=size, komi=board.komi, moves=moves, move_number=move_number,
                setup_moves=len(setup), to_move=to_move, result=text.get("RE"),
                black=text.get("PB"), white=text.get("PW"), rules=text.get("RU"), root=text,
                source=name)
    return board, info


def _side_to_move(root, moves: list, move_number: int, board: Board) -> int:
    """Who moves after ``move_number`` moves: the next main-line move's colour, else the root's
    ``PL``, else the opposite of the last move (setup stones included), else Black."""
    if move_number < len(moves):
        return moves[move_number][0]
    if root.has_property("PL"):
        return {"b": BLACK, "w": WHITE}[root.get("PL")]
    if board.moves:
        return 3 - board.moves[-1][0]
    return BLACK


def numbered_position(source, komi: float = 6.5):
    """``(board, info, numbers)``: the final position of an SGF game's main line (as
    :func:`load`), and ``numbers``, ``int32[size, size]`` indexed ``[row, col]``: the number of
    the move that placed each stone still on the board (1 = the first move after the setup),
    0 on an empty point or a setup stone. A stone played on a point where an earlier one was
    captured carries its own, later number (what a printed game record shows)."""
    board, info = load(source, 0, komi)
    numbers = np.zeros((info["size"], info["size"]), dtype=np.int32)
    for index, (color, move) in enumerate(info["moves"], start=1):
        try:
            captured = board.play(color, move)
        except IllegalMove as exc:
            raise ValueError(f"{info['source']}: move {index} ({'BW'[color - 1]} "
                             f"{vertex(move, info['size'])}) is illegal: {exc.reason}") from None
        for row, col in captured:
            numbers[row, col] = 0
        if move is not None:
            numbers[move] = index
    info["move_number"] = len(info["moves"])
    return board, info, numbers


def _text(node, key: str) -> str:
    try:
        value = node.get(key)
    except ValueError:
        value = None
    if isinstance(value, (str, int, float)):
        return str(value)
    return b"".join(node.get_raw_list(key)).decode("utf-8", "replace")


def game_bytes(size: int, komi: float, moves, result: str | None = None,
               root_props: dict | None = None, settings: dict | None = None,
               date: str | None = "today") -> bytes:
    """The SGF of a game: ``moves`` as ``(colour, (row, col) | None)`` (colour 1/2 or
    "b"/"w"), ``result`` as ``RE`` (e.g. "B+3.5", "W+R"), ``settings`` (the engine's: playouts,
    policy, seed...) written to the root's ``GC`` as ``key=value`` lines, ``root_props`` any
    further root properties (``PB``, ``PW``, ``RU``, ``DT``, ``EV``...; values as text);
    ``date``: ``DT`` (ISO date), ``"today"``, or None for no date (a stored game, dated when
    it is written out: :func:`with_date`)."""
    game = sgf.Sgf_game(int(size))
    root = game.get_root()
    root.set("KM", float(komi))
    root.set("RU", "Chinese")
    root.set("AP", ("mctslab", __version__))
    if date is not None:
        root.set("DT", datetime.date.today().isoformat() if date == "today" else str(date))
    if result is not None:
        root.set("RE", str(result))
    if settings:
        root.set("GC", "\n".join(f"{k}={v}" for k, v in settings.items()))
    for key, value in (root_props or {}).items():
        if not (key.isalpha() and key.isupper()):
            raise ValueError(f"SGF property identifiers are upper-case letters, got {key!r}")
        root.set(key, value if isinstance(value, (tuple, list)) else str(value))
    for color, move in moves:
        c = {1: "b", 2: "w", "b": "b", "w": "w", "B": "b", "W": "w"}.get(color)
        if c is None:
            raise ValueError(f"bad colour {color!r} in moves")
        if move is not None and not (0 <= move[0] < size and 0 <= move[1] < size):
            raise ValueError(f"move {move!r} is off a {size}x{size} board")
        game.extend_main_sequence().set_move(c, None if move is None else tuple(move))
    return game.serialise()


def with_date(text: str | bytes, date: str) -> bytes:
    """An SGF game with its root's ``DT`` set to ``date`` (ISO, e.g. a run's start)."""
    data = text.encode() if isinstance(text, str) else text
    game = sgf.Sgf_game.from_bytes(data)
    game.get_root().set("DT", str(date))
    return game.serialise()


def save_game(path, size: int, komi: float, moves, result: str | None = None,
              root_props: dict | None = None, settings: dict | None = None) -> Path:
    """Write :func:`game_bytes` to ``path`` (parent folders created); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    tmp.write_bytes(game_bytes(size, komi, moves, result, root_props, settings))
    os.replace(tmp, path)  # a reader never sees half a game
    return path


def main_line(source) -> tuple[int, list]:
    """The main line of an SGF game (a file path or SGF bytes) node by node, as written, not
    played: ``(size, nodes)``, each node ``(black, white, empty, move)``: its setup points
    (``AB``, ``AW``, ``AE``: sets of ``(row, col)``) and its move (``(colour, (row, col) |
    None)`` with colour ``"b"`` or ``"w"``; None for a node without one). For files whose
    positions are read another way than :func:`load`'s: GNU Go's regression games place setup
    stones in any node (:func:`mctslab.manyfaces.regression.load_position`)."""
    data, _ = _read(source)
    game = sgf.Sgf_game.from_bytes(data)
    nodes = []
    for node in game.get_main_sequence():
        black, white, empty = node.get_setup_stones()
        colour, move = node.get_move()
        nodes.append((black, white, empty, None if colour is None else (colour, move)))
    return game.get_size(), nodes
