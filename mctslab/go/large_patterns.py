"""Large patterns learned from game records: the table the strong engine's ``large`` prior reads.

The keys are :mod:`mctslab.go._large`'s (the diamonds of radius 2, 3 and 4 around a move, colours
relative to the side to move, atari marked, one key for the eight symmetric shapes). Learning
is two passes over the games (:func:`learn`):

1. every move played gives its three keys; the keys played at least ``min_played`` times are
   the table's candidates;
2. the games are replayed again and every legal point of every position adds one to ``seen``
   of each of its keys among the candidates.

A key's probability is ``played / seen``: how often a move with that neighbourhood was the
move chosen when one was on the board (Pachi's ``patterns.prob`` and michi's large-pattern
prior hold the same frequency, with Pachi's own features; no table of theirs is used). Keys
seen fewer than ``min_seen`` times are dropped, so a lookup falls back to the next smaller
radius. The table shipped in ``data/go-patterns/`` is learned from the 1,784 human 9-dan games
of ``data/go-games/tom9d`` (its README gives the command).

Command line: ``mctslab go large-patterns learn [--games N] [--out PATH]`` and
``mctslab go large-patterns show [PATH]``.
"""

from __future__ import annotations

import functools
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np

from mctslab import data
from mctslab.go import _large
from mctslab.go._board import PASS, new_state
from mctslab.go.api import Board
from mctslab.go.sgf import load

__all__ = ["LargeData", "Table", "learn", "save", "load_table", "large_data", "prior_bundle", "DEFAULT_TABLE",
           "learn_shipped", "describe"]

DEFAULT_TABLE = "go-patterns/large.npz"
MIN_PLAYED = 2
MIN_SEEN = 10


class LargeData(NamedTuple):
    """What the prior's kernel needs: the table, the key tables and scratch."""

    table: np.ndarray    # uint64[n] sorted keys
    prob: np.ndarray     # float64[n] played / seen
    dr: np.ndarray       # int64[40] offsets (_large.offsets)
    dc: np.ndarray
    ends: np.ndarray     # int64[3] offsets up to each radius
    perm: np.ndarray     # int64[8, 40] symmetries
    keys: np.ndarray     # uint64[40, 6] Zobrist keys
    tags: np.ndarray     # uint64[3] radius tags
    scratch: np.ndarray  # uint64[8]
    found: np.ndarray    # uint64[3] the keys of the last lookup


class Table(NamedTuple):
    """A learned table: sorted keys, their radius, ``played`` and ``seen`` counts."""

    keys: np.ndarray    # uint64[n]
    radius: np.ndarray  # int8[n]
    played: np.ndarray  # int64[n]
    seen: np.ndarray    # int64[n]
    games: int
    moves: int


@functools.cache
def _geometry():
    dr, dc, ends = _large.offsets()
    keys, tags = _large.zobrist()
    return dr, dc, ends, _large.symmetry_table(dr, dc), keys, tags


def _game(path) -> tuple[int, np.ndarray, np.ndarray]:
    """(size, colours int8, points int64) of a game's main line."""
    _, info = load(path, 0)
    board = Board(info["size"])
    colors = np.array([c for c, _ in info["moves"]], np.int8)
    points = np.array([board.point(m) for _, m in info["moves"]], np.int64)
    return info["size"], colors, points


def _replay(game, table, seen):
    """The keys of the moves played in ``game`` (``_game``'s triple), passes left out; counts
    ``seen`` of ``table``'s keys on the way (module docstring)."""
    size, colors, points = game
    dr, dc, ends, perm, keys, tags = _geometry()
    played = np.zeros((len(points), len(_large.RADII)), np.uint64)
    done = _large.game_keys(new_state(size), colors, points, dr, dc, ends, perm, keys,
                            tags, played, table, seen)
    return played[:done][points[:done] != PASS]


def learn(paths, min_played: int = MIN_PLAYED, min_seen: int = MIN_SEEN) -> Table:
    """The table of the games at ``paths`` (module docstring); each game is read once."""
    games = [_game(p) for p in paths]
    chunks = [_replay(g, np.zeros(0, np.uint64), np.zeros(0, np.int64)) for g in games]
    every = np.concatenate(chunks) if chunks else np.zeros((0, 3), np.uint64)
    keys, played = np.unique(every.ravel(), return_counts=True)
    keys, played = keys[played >= min_played], played[played >= min_played]
    seen = np.zeros(len(keys), np.int64)
    for game in games:
        _replay(game, keys, seen)
    radius = np.zeros(len(keys), np.int8)
    for ring, r in enumerate(_large.RADII):
        radius[np.isin(keys, np.unique(every[:, ring]))] = r
    keep = seen >= min_seen
    return Table(keys[keep], radius[keep], played[keep].astype(np.int64), seen[keep],
                 len(games), len(every))


def save(table: Table, path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as handle:  # np.savez_compressed adds no date: the bytes are stable
        np.savez_compressed(handle, keys=table.keys, radius=table.radius, played=table.played,
                            seen=table.seen, games=np.int64(table.games),
                            moves=np.int64(table.moves))
    return path


def load_table(path=None) -> Table:
    """A table saved by :func:`save` (default: the shipped one); ValueError names a bad file."""
    path = data.find(DEFAULT_TABLE) if path is None else Path(path)
    try:
        with np.load(path) as z:
            table = Table(z["keys"], z["radius"], z["played"], z["seen"], int(z["games"]),
                          int(z["moves"]))
    except (OSError, KeyError, ValueError) as exc:
        raise ValueError(f"{path}: not a large-pattern table ({exc})") from None
    if np.any(np.diff(table.keys) <= 0) or np.any(table.played > table.seen):
        raise ValueError(f"{path}: not a large-pattern table (keys unsorted or played > seen)")
    return table


@functools.cache
def prior_bundle(on: bool) -> LargeData:
    """The shipped table's bundle (loaded once), or an empty one when ``on`` is false (the
    prior's piece is then off)."""
    if on:
        return large_data(load_table())
    none = np.zeros(0, np.int64)
    return large_data(Table(np.zeros(0, np.uint64), none.astype(np.int8), none, none, 0, 0))


def large_data(table: Table) -> LargeData:
    """The prior's bundle of ``table``."""
    dr, dc, ends, perm, keys, tags = _geometry()
    prob = table.played / np.maximum(table.seen, 1)
    return LargeData(table.keys, prob, dr, dc, ends, perm, keys, tags,
                     np.zeros(8, np.uint64), np.zeros(len(_large.RADII), np.uint64))


def _games(n: int | None) -> list[Path]:
    paths = sorted(data.find("go-games").glob("tom9d/*.sgf"))
    if n is None or n >= len(paths):
        return paths
    step = len(paths) / n
    return [paths[int(i * step)] for i in range(n)]


def learn_shipped(games: int | None = None, out=None) -> str:
    """Learn the table from ``games`` evenly spaced tom9d games (all when None) and save it to
    ``out`` (default the shipped table's place); a line saying what was written."""
    start = time.process_time()
    table = learn(_games(games))
    path = save(table, out or Path(data.find("go-games")).parent / DEFAULT_TABLE)
    return (f"{path}: {len(table.keys)} keys from {table.games} games, {table.moves} moves, "
            f"{time.process_time() - start:.0f} CPU s")


def describe(path=None) -> str:
    """Keys, seen and played counts per radius of a table (default the shipped one)."""
    table = load_table(path)
    lines = [f"radius {r}: {int((table.radius == r).sum())} keys, seen "
             f"{int(table.seen[table.radius == r].sum())}, played "
             f"{int(table.played[table.radius == r].sum())}" for r in _large.RADII]
    return "\n".join([*lines, f"{table.games} games, {table.moves} moves"])
