"""What ``mctslab records`` and the generated tables of ``docs/bench`` know of Go's records: the
match record (folders of ``mctslab go match --out``, :mod:`mctslab.go.match_record`) and the
strong engine's record (:mod:`mctslab.go.strong_record`), behind the record hook that
:mod:`mctslab.records` finds by name for every domain (its docstring gives the signatures):

- :data:`KIND`, :func:`check_folder`: a match record's summaries recomputed from its games;
- :func:`summary_table`: its matches' summaries as one table (``mctslab records table``);
- :data:`TABLES`: the tables ``docs/bench`` blocks may name on a match record (Table 2's
  verdicts, the pairing with the paper's engine, the strong engine's three tables);
- :func:`pack`: a finished match folder packed to commit it (``mctslab records pack``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from mctslab import paths
from mctslab.core.stats import interval_text
from mctslab.go import match_record, strong_record

__all__ = ["KIND", "TABLES", "check_folder", "pack", "summary_table"]

KIND = "match"


def check_folder(folder: Path, report) -> bool:
    """Check a record folder of matches: each match folder's summary recomputed from its games
    (:func:`mctslab.go.match_record.check_match`), any other store noted with its count. False
    (nothing added to ``report``) when the folder holds no result store."""
    found = False
    for data in sorted(Path(folder).rglob(paths.RESULTS.as_posix())):
        home = data.parent.parent
        experiments = [p.name for p in data.iterdir() if p.is_dir()]
        if any(match_record.is_match(name) for name in experiments):
            found = True
            match_record.check_match(home, report)
            continue
        for name in experiments:
            found = True
            count = len(match_record.stored(data / name))
            report.notes.append(f"{home}: store {name}, {count} tasks (not checked)")
    return found


def summary_table(folder: Path) -> tuple[pd.DataFrame, str] | None:
    """The summaries of a record folder's matches (one row each) and how the citing line
    describes them; None when it holds no ``summary.json``."""
    rows = []
    for summary in sorted(Path(folder).rglob("summary.json")):
        s = json.loads(summary.read_text())
        rows.append({"match": summary.parent.relative_to(folder).as_posix(),
                     "candidate": s.get("candidate"), "opponent": s.get("opponent"),
                     "games": s.get("games"), "wins": s.get("wins"), "rate": s.get("rate"),
                     "95% CI": interval_text(s.get("ci_low", 0), s.get("ci_high", 0)),
                     "p": s.get("pvalue")})
    if not rows:
        return None
    return (pd.DataFrame(rows),
            "match summaries, `mctslab records check` recomputes them from the games")


def _strong(build):
    """A table of the strong engine's record only (``records/go_state_tabu/strong9-<date>``)."""
    def table(folder: Path) -> pd.DataFrame:
        folder = Path(folder)
        if not folder.name.startswith(strong_record.PREFIX):
            raise KeyError(f"a table of the strong engine's record (records/"
                           f"{strong_record.NOTEBOOK}/{strong_record.PREFIX}<date>), not of "
                           f"{folder.parent.name}/{folder.name}")
        return build(folder)
    return table


def _pieces(build):
    """A table of a ``pieces9`` record only (``records/go_state_tabu/pieces9-<date>``)."""
    def table(folder: Path) -> pd.DataFrame:
        folder = Path(folder)
        if not folder.name.startswith("pieces9-"):
            raise KeyError(f"a table of a pieces9 record (records/{strong_record.NOTEBOOK}/"
                           f"pieces9-<date>), not of {folder.parent.name}/{folder.name}")
        return build(folder)
    return table


_STRONG_HOW = (", rebuilt from the stored games by `mctslab.go.strong_record`; `mctslab records "
               "check` recomputes each match's summary from its games")
# the tables a docs/bench block may name on a match record: name -> (build(folder), how the
# citing line describes it); the strong engine's under the names the Go notebook saves them by
TABLES = {
    "table2_verdicts": (match_record.table2_verdicts,
                        ": each match's summary judged against the paper's Table 2 by "
                        "`mctslab.core.compare`, the paper's value, margin and minimum games "
                        "from `mctslab/go/targets.csv`; `mctslab records check` recomputes "
                        "each summary from its games"),
    "paired": (match_record.paired,
               ": each match against the paper's engine over the same stored games, game i "
               "of both against the same GNU Go, by `mctslab.go.match_record.paired`; "
               "`mctslab records check` recomputes each summary from its games"),
    "strong_validation": (_strong(strong_record.validation_table), _STRONG_HOW),
    "strong_ablation": (_strong(strong_record.ablation), _STRONG_HOW),
    "strong_tabu": (_strong(strong_record.tabu_table), _STRONG_HOW),
    "strong_pieces": (_pieces(strong_record.pieces_table),
                      ": each row (a piece added to today's engine) against `full` over their "
                      "common games (game i of both against the same GNU Go), by "
                      "`mctslab.go.strong_record.pieces_table`; `mctslab records check` "
                      "recomputes each summary from its games"),
    "pass_rules": (_strong(strong_record.pass_rules),
                   ": the plain pass rule's `full` against the recorded engine's over the same "
                   "games (game i of both against the same GNU Go), by `mctslab.go."
                   "strong_record.pass_rules`; `mctslab records check` recomputes each "
                   "summary from its games"),
}


def pack(folder: Path) -> str | None:
    """Pack a finished match folder (:func:`mctslab.go.match_record.pack_match`) and say what
    moved; None when the folder holds no match store."""
    if not match_record.match_stores(Path(folder)):
        return None
    moved = match_record.pack_match(folder)
    size = sum(p.stat().st_size for p in Path(folder).rglob("*") if p.is_file())
    return (f"{folder}: packed {moved['lines']} stored games and {moved['games']} SGF files; "
            f"{size:,} bytes now")
