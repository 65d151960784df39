"""The state-tabu paper's headline claims judged from its tables, and the rows only a 19x19 run
judges (notebook ``go_state_tabu``).

Every "X is better than Y" of the paper's results (Sec. 5.2-5.5) and conclusion (Sec. 6) is a
``claim`` target of ``mctslab/go/targets.csv``, whose criterion, stated there before judging,
can fail. :func:`claim_rows` judges them from a run's tables, the same whether they are the
tables the notebook just built (``tables.paper_vs_run``) or those of a committed record
(:func:`record_rows`, which ``mctslab scorecard --records`` calls as ``tables.record_rows``):

- Table 2 (Sec. 5.2): gTabu18 loses to GNU Go; gTabu18-hash beats GNU Go and gnugo-uct;
  gTabu18-hash-win has the highest rate of the paper's engines. Rates by the exact binomial
  interval, one row against another by Fisher's exact test on the two rows' counts, at 5%;
- Fig. 5 (Sec. 5.3): every tabu variant has fewer duplicate positions than gTabu0 (which a list
  forbidding repeats gives by construction: its target says so); gTabu18 fewer than the two
  state-tabu variants, told apart beyond counting noise;
- Sec. 5.4 and Eq. 12: few tabu candidates per playout, at most 1 rounded at L = 12;
- Fig. 6 (Sec. 5.5): gnugo-uct, gTabu0 and gTabu18 think about as long; the state-tabu rows
  much longer than gTabu18; gTabu18-hash-win shorter than gTabu18-hash.

Targets whose criterion says "Only a 19x19 run" (Table 2's rates and claims, Table 3's claim,
Eq. 8's schedule) are judged only on 19x19 games: a run on another board keeps its numbers
with a departure, so they read ``not run at this scale`` (:func:`at_board`).
"""

from __future__ import annotations

import dataclasses
import math
from functools import cache

import pandas as pd
from scipy import stats as scipy_stats

from mctslab.core import targets
from mctslab.core.compare import PaperRow, paper_row
from mctslab.core.stats import win_rate_row

__all__ = ["ONLY_19", "MUCH", "claim_rows", "nineteen_only", "at_board", "board_rows",
           "record_rows"]

PAPER = "go_state_tabu"
ONLY_19 = "Only a 19x19 run"  # in a target's criterion: only 19x19 games judge it
# A thinking time "much" longer than another: 1.5 times, about the geometric middle of the
# paper's "hardly any difference" (158.4 to 166.9 s, 1.05) and "much longer" (2.21 and 2.92)
MUCH = 1.5
ALPHA = 0.05
_TABU_ROWS = ("gTabu18", "gTabu18-hash", "gTabu18-hash-win")
_STATE_ROWS = ("gTabu18-hash", "gTabu18-hash-win")
_RIVALS = ("gnugo-uct", "gTabu18", "gTabu18-hash")  # the paper's engines hash-win is above


@cache
def nineteen_only() -> frozenset:
    """The ``(artefact, row, column)`` of every target only a 19x19 run judges."""
    frame = targets.load(PAPER)
    return frozenset((r.artefact, r.row, r.column) for r in frame.itertuples()
                     if ONLY_19 in r.criterion)


def _claim(artefact, row, column, state: str, text: str, *, scale, n=None, departure="",
           note="") -> PaperRow:
    return paper_row(PAPER, artefact, row, column, f"{state}: {text}", n=n, scale=scale,
                     departure=departure, note=note)


# -- Table 2 -------------------------------------------------------------------------------
def _counts(table2: pd.DataFrame) -> dict[str, tuple[int, int]]:
    """Each row's (wins, games) from Table 2's ``total`` column (``"57/100"``)."""
    found = {}
    for record in table2.to_dict("records"):
        wins, games = (int(part) for part in str(record["total"]).split("/"))
        found[str(record["method"])] = (wins, games)
    return found


def _rate(name: str, wins: int, games: int) -> str:
    ours = win_rate_row(wins, games)
    return f"{name} {wins}/{games} = {ours['rate']:.3f} [{ours['ci_low']:.3f}, {ours['ci_high']:.3f}]"


def _versus(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, float]:
    """+1 when rate a lies above rate b by Fisher's exact test at 5% (two-sided), -1 below,
    0 neither; and the p value."""
    (wa, na), (wb, nb) = a, b
    p = float(scipy_stats.fisher_exact([[wa, na - wa], [wb, nb - wb]]).pvalue)
    if p >= ALPHA or wa / na == wb / nb:
        return 0, p
    return (1 if wa / na > wb / nb else -1), p


def _table2_claims(table2: pd.DataFrame, scale: str, departure: str) -> list[PaperRow]:
    counts, rows = _counts(table2), []
    if "gTabu18" in counts:
        wins, games = counts["gTabu18"]
        ours = win_rate_row(wins, games)
        state = ("holds" if ours["ci_high"] < 0.5 else "fails" if ours["ci_low"] > 0.5
                 else "undecided")
        rows.append(_claim("Table 2", "gTabu18", "loses to gnugo (rate below 0.5)", state,
                           _rate("gTabu18", wins, games), scale=scale, n=games,
                           departure=departure))
    if {"gTabu18-hash", "gnugo-uct"} <= set(counts):
        wins, games = counts["gTabu18-hash"]
        ours = win_rate_row(wins, games)
        side, p = _versus(counts["gTabu18-hash"], counts["gnugo-uct"])
        state = ("holds" if ours["ci_low"] > 0.5 and side > 0 else
                 "fails" if ours["ci_high"] < 0.5 or side < 0 else "undecided")
        rows.append(_claim(
            "Table 2", "gTabu18-hash", "beats gnugo and gnugo-uct's rate", state,
            f"{_rate('gTabu18-hash', wins, games)}; against "
            f"{_rate('gnugo-uct', *counts['gnugo-uct'])}: Fisher p = {p:.3g}", scale=scale,
            n=min(games, counts["gnugo-uct"][1]), departure=departure))
    if {"gTabu18-hash-win", *_RIVALS} <= set(counts):
        best = counts["gTabu18-hash-win"]
        sides = {name: _versus(best, counts[name]) for name in _RIVALS}
        state = ("holds" if all(s > 0 for s, _ in sides.values()) else
                 "fails" if any(s < 0 for s, _ in sides.values()) else "undecided")
        rows.append(_claim(
            "Table 2", "gTabu18-hash-win", "the highest win rate of the paper's engines", state,
            _rate("gTabu18-hash-win", *best) + "; " + ", ".join(
                f"{name} {counts[name][0] / counts[name][1]:.3f} (Fisher p = {p:.3g})"
                for name, (_, p) in sides.items()), scale=scale,
            n=min(counts[name][1] for name in ("gTabu18-hash-win", *_RIVALS)),
            departure=departure))
    return rows


# -- Fig. 5 --------------------------------------------------------------------------------
def _fig5_claims(dups: pd.DataFrame, scale: str, searches: str) -> list[PaperRow]:
    found = dict(zip(dups["method"].astype(str), dups["duplicates"].astype(int)))
    rows = []
    if "gTabu0" in found and len(found) > 1:
        base = found["gTabu0"]
        above = [m for m, d in found.items() if m != "gTabu0" and d >= base]
        rows.append(_claim(
            "Fig. 5", "every tabu variant against gTabu0", "fewer duplicate positions",
            "fails" if above else "holds",
            f"{', '.join(above)} not below gTabu0" if above else
            f"{len(found) - 1} variants below gTabu0's {base}", scale=scale, n=len(found),
            departure=searches))
    if set(_TABU_ROWS) <= set(found):
        move, parts, sides = found["gTabu18"], [], []
        for name in _STATE_ROWS:
            noise = 2 * math.sqrt(move + found[name])  # two SDs of a difference of counts
            gap = found[name] - move
            sides.append(1 if gap > noise else -1 if gap < -noise else 0)
            parts.append(f"{name} {found[name]} ({gap:+d}, noise {noise:.0f})")
        state = ("holds" if all(s > 0 for s in sides) else
                 "fails" if any(s < 0 for s in sides) else "undecided")
        rows.append(_claim(
            "Fig. 5", "gTabu18 against the state-tabu variants", "fewer duplicate positions",
            state, f"gTabu18 {move}; " + ", ".join(parts), scale=scale, n=len(_TABU_ROWS),
            departure=searches))
    return rows


# -- Sec. 5.4 / Eq. 12 -----------------------------------------------------------------------
def _eq12_claim(table4: pd.DataFrame, scale: str, searches: str) -> list[PaperRow]:
    at = table4[table4["L"] == 12]
    if not len(at):
        return []
    record = at.iloc[0]
    n, high = int(record["searches"]), float(record["high"])
    if n < 2 or not math.isfinite(high):
        state = "undecided"
    else:
        state = "holds" if high < 1.5 else "fails"
    return [_claim("Eq. 12", "L = 12, M = 5, 19x19",
                   "candidates per playout below the bound 4.562", state,
                   f"mean {float(record['per playout']):.4g} per playout at L = 12 over {n} "
                   f"searches, 95% CI up to {high:.4g}", scale=scale, n=n, departure=searches)]


# -- Fig. 6 ----------------------------------------------------------------------------------
def _fig6_claims(thinking: pd.DataFrame, scale: str) -> list[PaperRow]:
    extra = dict(zip(thinking["method"].astype(str),
                     thinking["difference s/game"].astype(float)))
    rows = []
    names = ("gnugo-uct", "gTabu0", "gTabu18")
    if set(names) <= set(extra):
        times = [extra[name] for name in names]
        ratio = max(times) / min(times) if min(times) > 0 else math.inf
        rows.append(_claim(
            "Fig. 6", "gnugo-uct, gTabu0 and gTabu18", "about the same thinking time",
            "holds" if ratio < MUCH else "fails",
            ", ".join(f"{n} {t:+.3g} s" for n, t in zip(names, times))
            + f": largest / smallest {ratio:.3g}", scale=scale))
    if set(_TABU_ROWS) <= set(extra) and extra["gTabu18"] > 0:
        ratios = {name: extra[name] / extra["gTabu18"] for name in _STATE_ROWS}
        rows.append(_claim(
            "Fig. 6", "gTabu18-hash and gTabu18-hash-win against gTabu18",
            "much longer thinking time", "holds" if min(ratios.values()) >= MUCH else "fails",
            f"gTabu18 {extra['gTabu18']:+.3g} s; " + ", ".join(
                f"{name} {extra[name]:+.3g} s ({r:.2f}x)" for name, r in ratios.items()),
            scale=scale))
    if set(_STATE_ROWS) <= set(extra) and extra["gTabu18-hash"] > 0:
        ratio = extra["gTabu18-hash-win"] / extra["gTabu18-hash"]
        state = "holds" if ratio <= 0.8 else "fails" if ratio >= 1 else "undecided"
        rows.append(_claim(
            "Fig. 6", "gTabu18-hash-win against gTabu18-hash", "shorter thinking time", state,
            f"gTabu18-hash-win {extra['gTabu18-hash-win']:+.3g} s, gTabu18-hash "
            f"{extra['gTabu18-hash']:+.3g} s: {ratio:.2f}x", scale=scale))
    return rows


def claim_rows(read, *, scale: str, departure: str = "", searches: str = "") -> list[PaperRow]:
    """The paper's claims judged from a run's tables: ``read(stem)`` returns the run's
    ``table2_wins``, ``fig5_duplicates``, ``fig6_thinking_time`` or ``table4_candidates``
    frame (``None`` when it has none; a claim whose rows are missing is left out).
    ``departure``: where the games depart from the paper's (19x19, GNU Go level 10), which
    makes the Table 2 claims ``not run at this scale``; ``searches``: where the Fig. 5 and
    Table 4 searches depart (their playouts)."""
    rows = []
    frames = {stem: read(stem) for stem in ("table2_wins", "fig5_duplicates",
                                            "fig6_thinking_time", "table4_candidates")}
    usable = {stem: frame for stem, frame in frames.items()
              if frame is not None and len(frame) and "skipped" not in frame.columns}
    if "table2_wins" in usable:
        rows += _table2_claims(usable["table2_wins"], scale, departure)
    if "fig5_duplicates" in usable:
        rows += _fig5_claims(usable["fig5_duplicates"], scale, searches)
    if "table4_candidates" in usable:
        rows += _eq12_claim(usable["table4_candidates"], scale, searches)
    if "fig6_thinking_time" in usable:
        rows += _fig6_claims(usable["fig6_thinking_time"], scale)
    return rows


# -- 19x19-only rows ---------------------------------------------------------------------------
def _blank(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or value == ""


def at_board(record: dict, board: int, departure: str = "") -> PaperRow | None:
    """A row of a run on a ``board`` x ``board`` board judged again as such: a target only a
    19x19 run judges carries ``departure`` (default: the board's), so it reads ``not run at
    this scale``; a protocol constant of such a run (Eq. 8's schedule on the run's board) is not
    our value of the paper's, so its value moves to the note. ``None``: the row stays as it
    is (a 19x19 run, another target, or a departure already given)."""
    key = (record["artefact"], str(record["row"]), record["column"])
    if board == 19 or key not in nineteen_only():
        return None
    if record["kind"] != "config" and not _blank(record.get("departure")):
        return None
    board_text = f"{board}x{board} board, not the paper's 19x19"
    departure = board_text if record["kind"] == "config" else (departure or board_text)
    fields = {k: (None if _blank(record.get(k)) else record.get(k))
              for k in ("our_value", "low", "high", "n", "unit_cpu_s", "note")}
    if record["kind"] == "config":
        fields["note"] = f"this run's value on {board}x{board}: {fields['our_value']}"
        fields["our_value"] = None
    return paper_row(PAPER, *key, fields["our_value"], scale=str(record["scale"]),
                     low=fields["low"], high=fields["high"], n=fields["n"],
                     departure=departure, unit_cpu_s=fields["unit_cpu_s"],
                     note=fields["note"] or "")


def board_rows(rows: list[PaperRow], board: int) -> list[PaperRow]:
    """``rows`` of a run on ``board`` with each 19x19-only row judged as such (:func:`at_board`)."""
    return [at_board(dataclasses.asdict(r), board) or r for r in rows]


def _first(records: list[dict], artefact: str, column: str = "departure") -> str:
    return next((str(r[column]) for r in records
                 if r["artefact"] == artefact and not _blank(r.get(column))), "")


def record_rows(read) -> list[tuple[str, PaperRow]]:
    """A committed record's rows judged again from its own tables (``read(stem)``: the
    record's ``<stem>.csv`` as a DataFrame, or None): its 19x19-only rows on another board
    (:func:`at_board`; the board is its ``paper_vs_run``'s own protocol row) and the paper's
    claims (:func:`claim_rows`), all ours (reading ``""``). Pure: tables in, rows out."""
    table = read("paper_vs_run")
    if table is None or not len(table):
        return []
    records = table.to_dict("records")
    board = next((int(float(r["our_value"])) for r in records
                  if (r["artefact"], r["row"], r["column"]) == ("Sec. 5.1", "games",
                                                                "board size")), 19)
    scale = str(records[0]["scale"])
    departure = _first(records, "Table 2") or (
        "" if board == 19 else f"{board}x{board} board, not the paper's 19x19")
    rows = [row for row in (at_board(r, board, departure) for r in records) if row is not None]
    rows += claim_rows(read, scale=scale, departure=departure,
                       searches=_first(records, "Table 4") or _first(records, "Fig. 5"))
    return [("", row) for row in rows]
