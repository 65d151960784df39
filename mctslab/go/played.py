"""The games and searches of a run as the Go tables read them: :class:`Played` (an
experiment's tasks, results and row names, or why it was skipped), the games stored in match
folders read back as one (:func:`played_from_stores`: the folders of ``mctslab go match
--out`` and the match records under ``records/``), and a stored game's final position as
arrays (:func:`final_board_task`, the task of ``experiments.run_game_boards``)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import NamedTuple

from mctslab import paths
from mctslab.core.store import ResultStore
from mctslab.go import sgf, warmup
from mctslab.go.match import Player

__all__ = ["Played", "played_from_stores", "final_board_task"]


class Played(NamedTuple):
    """An experiment's tasks, their results (task order) and each task's row name; ``skipped``
    says why there are none (GNU Go is not installed)."""

    tasks: list
    results: list
    rows: list
    skipped: str | None = None


def played_from_stores(folders, names=None) -> Played:
    """The games stored in match folders (``mctslab go match --out DIR``: every store under
    ``DIR/data/results/``, plain or packed) as one :class:`Played`: a row per candidate (named
    by its label, or by ``names`` in folder order), its games in seed order (the spawn key, the
    pairing key of matches built from one seed), so that :func:`mctslab.go.tables.table2`,
    ``table3``, ``host_table`` and ``thinking_table`` read recorded matches."""
    tasks, results, rows = [], [], []
    for k, folder in enumerate(folders):
        records = [record for store in sorted(paths.results_root(folder).glob("*"))
                   for record in ResultStore(store).records()]
        if not records:
            raise ValueError(f"no stored games under {folder} (data/results/*/results.jsonl)")
        records.sort(key=lambda r: tuple(r["spawn_key"]))
        label = names[k] if names else Player.from_params(records[0]["params"]["candidate"]).label
        for record in records:
            tasks.append(SimpleNamespace(params=record["params"], id=record["id"]))
            results.append(record["result"])
            rows.append(label)
    return Played(tasks, results, rows)


def final_board_task(params: dict, seed) -> dict:
    """The final position of one stored game (``params["sgf"]``: its SGF file's bytes as
    latin-1 text, which gives them back unchanged) replayed
    (:func:`mctslab.go.sgf.numbered_position`): ``size``, ``stones`` (``int8[size, size]`` of
    EMPTY/BLACK/WHITE, ``[row, col]``, row 0 at the bottom), ``numbers`` (``int32[size,
    size]``: the move that placed each stone, 0 for none or a setup stone), ``black``,
    ``white``, ``result`` and ``moves`` (how many). ``seed`` is unused: a replay draws
    nothing."""
    warmup()
    board, info, numbers = sgf.numbered_position(params["sgf"].encode("latin-1"))
    return {"size": info["size"], "stones": board.stones(), "numbers": numbers,
            "black": info["black"], "white": info["white"], "result": info["result"],
            "moves": len(info["moves"])}
