"""The scorecard (mctslab.core.scorecard) on small fake tables: verdict counts, targets no
notebook compared kept, the docs/bench runs section, the CLI verb, the reports index link."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd

from mctslab import reports
from mctslab.core import scorecard, scorecard_page
from mctslab.core.compare import (
    DERIVED,
    DIFFERS,
    INCONCLUSIVE,
    NOT_COMPARED,
    NOT_RUN,
    REPRODUCED,
    paper_row,
    paper_table,
)

ROOT = Path(__file__).resolve().parents[2]

def _target(**fields):
    base = dict(paper="p1", artefact="Table 1", row="a", column="x", value=1.0, unit="u",
                kind="sampled", margin="0.5", min_n=4, sample="seeds", criterion="why",
                source="docs/papers/p1.md")
    return dict(base, **fields)


TARGETS = pd.DataFrame([
    _target(),
    _target(row="b", value=2.0),
    _target(row="c", value=3.0, kind="uncompared", margin="", min_n=None, sample="",
            criterion="not compared: context only"),
    _target(row="d", value=4.0, kind="derived", margin="", min_n=None, sample="",
            criterion="derived from Table 1 / a / x: twice"),
    _target(artefact="Table 3", row="top", column="score", value=0.5, margin="0.1", min_n=2),
    _target(paper="p2", artefact="Fig. 1", row="r", column="y", value=7, kind="exact",
            margin="10%", min_n=None, sample=""),
])
TARGETS["min_n"] = TARGETS["min_n"].astype("Int64")


def _record(**fields):
    base = dict(paper="p1", artefact="Table 1", row="a", column="x", kind="sampled",
                paper_value=1.0, our_value=1.1, low=0.9, high=1.2, n=4, min_n=4, margin="0.5",
                scale="paper", departure="", unit_cpu_s=None, verdict="reproduced", why="",
                settle_n=None, settle_cpu_h=None, note="")
    return dict(base, **fields)


def _p1_rows() -> list[dict]:
    return [
        _record(),
        _record(row="b", paper_value=2.0, our_value=5.0, low=4.0, high=6.0,
                note="see docs/bench/sudoku.md#the-mean-row"),
        _record(artefact="Table 3", row="top", column="score", paper_value=0.5,
                our_value=0.45, low=0.2, high=0.7, n=3, min_n=2, margin="0.1"),
        _record(artefact="Table 3", row="top, repetition 1", column="score", paper_value=0.5),
        _record(artefact="Table 9", row="stray", column="z"),
    ]


def test_every_target_is_one_row_judged_again_with_its_target():
    card = scorecard.build({"p1": (_p1_rows(), {"scale": "paper"}), "p2": (None, {})},
                           TARGETS)
    assert len(card) == len(TARGETS)  # one row per target: the counts count targets
    by_key = {(r.paper, r.artefact, r.row): r for r in card.itertuples()}
    assert by_key[("p1", "Table 1", "a")].verdict == REPRODUCED
    assert by_key[("p1", "Table 1", "b")].verdict == DIFFERS
    assert by_key[("p1", "Table 1", "b")].explanation == "docs/bench/sudoku.md#the-mean-row"
    assert by_key[("p1", "Table 3", "top")].verdict == INCONCLUSIVE
    assert by_key[("p1", "Table 3", "top")].settle_n > 3
    missing = by_key[("p1", "Table 1", "c")]
    assert (missing.verdict, missing.why) == (NOT_COMPARED, "context only")
    assert by_key[("p1", "Table 1", "d")].verdict == DERIVED
    # a notebook that did not run: its targets stay, not run
    p2 = by_key[("p2", "Fig. 1", "r")]
    assert p2.verdict == NOT_RUN and "did not run" in p2.why
    # a row with no target (a repetition, a stray) is left out, and listed
    assert {(r["artefact"], r["row"]) for r in scorecard.unmatched(
        {"p1": (_p1_rows(), {})}, TARGETS)} == {("Table 3", "top, repetition 1"),
                                               ("Table 9", "stray")}
    counts = scorecard.counts(card, "outcome")
    assert counts.loc["p1"].to_dict() == {REPRODUCED: 1, scorecard.UNINFORMATIVE: 0,
                                          DIFFERS: 1, INCONCLUSIVE: 1, NOT_RUN: 0, DERIVED: 1,
                                          NOT_COMPARED: 1, "total": 5}
    assert counts.loc["p2", NOT_RUN] == 1 and counts.loc["total", "total"] == len(TARGETS)
    assert scorecard.counts(card).loc["total", "total"] == len(TARGETS)


def test_the_shown_paper_value_is_the_judged_one():
    # a record made before a transcription fix: today's value is shown and judges it
    rows = [_record(paper_value=9.0, our_value=1.1, low=0.9, high=1.2)]
    card = scorecard.build({"p1": (rows, {"scale": "paper"})}, TARGETS)
    row = card[card.row == "a"].iloc[0]
    assert row.paper_value == 1.0 and row.verdict == REPRODUCED and "1 +- 0.5" in row.why


def test_the_scorecard_counts_equal_the_number_of_targets():
    card = scorecard.build({})
    assert len(card) == len(scorecard.targets_module.all_targets())
    assert scorecard.counts(card).loc["total", "total"] == len(card)
    assert not card.duplicated(["paper", "artefact", "row", "column"]).any()


def test_a_differs_row_with_no_reading_cause_or_link_is_unexplained():
    table = paper_table([paper_row("tsp_mcts_vs_sa", "Fig. 8", "MCT_UM", "mean ratio to SA",
                                   2.0, low=1.9, high=2.1, n=77, scale="paper")])
    card = scorecard.build({"tsp_mcts_vs_sa": (table, {"scale": "paper"})})
    row = card[(card.artefact == "Fig. 8") & (card.row == "MCT_UM")].iloc[0]
    assert (row.verdict, row.explanation) == (DIFFERS, scorecard.UNEXPLAINED)
    # every other target of the five papers is still there
    assert len(card) == len(scorecard.targets_module.all_targets())


def test_bench_runs_take_date_and_commit_from_heading_or_text(tmp_path):
    (tmp_path / "x.md").write_text(
        "# X\n\n## Default scale, 2026-11-23, commit 50e9da1 (pure engine)\ntext\n"
        "## Benchmarks\nno date here\n"
        "### Paper-scale run\nrecorded 2026-11-24 at commit abcdef0 by someone\n"
        "## Later, 2026-11-25\nwith commits 1234567 and 89abcde\n")
    runs = scorecard.bench_runs(tmp_path)
    assert [(r.heading, r.date, r.commit) for r in runs] == [
        ("Default scale, 2026-11-23, commit 50e9da1 (pure engine)", "2026-11-23", "50e9da1"),
        ("Paper-scale run", "2026-11-24", "abcdef0"),
        ("Later, 2026-11-25", "2026-11-25", "1234567")]
    assert runs[0].anchor == "default-scale-2026-11-23-commit-50e9da1-pure-engine"


def test_the_repositorys_bench_records_list_runs():
    runs = scorecard.bench_runs(ROOT / "docs" / "bench")
    assert {r.file for r in runs} == {"go.md", "manyfaces.md", "othello.md", "sudoku.md",
                                      "tsp.md"}
    assert any(r.commit for r in runs) and all(r.date or r.commit for r in runs)


def _fake_output(out: Path) -> None:
    folder = out / "figures" / "tsp_mcts_vs_sa"
    folder.mkdir(parents=True)
    paper_table([paper_row("tsp_mcts_vs_sa", "Sec. 4", "SA", "cooling factor", 0.99,
                           scale="smoke")]).to_csv(folder / "paper_vs_run.csv", index=False)
    (folder / "manifest.json").write_text(json.dumps(
        {"scale": "smoke", "status": "complete", "mctslab_version": "0.7.0",
         "git": {"commit": "0123456789abcdef", "dirty": False}}))


def test_write_makes_the_three_files_with_counts_scale_and_runs(tmp_path):
    _fake_output(tmp_path)
    written = scorecard_page.write(tmp_path)
    assert written.ran == ("tsp_mcts_vs_sa",)
    frame = pd.read_csv(tmp_path / "figures" / "scorecard.csv")
    assert list(frame.columns) == list(scorecard.COLUMNS)
    assert (frame.verdict == scorecard.AS_STATED).sum() == 1  # a protocol constant
    md = (tmp_path / "figures" / "scorecard.md").read_text()
    page = (tmp_path / "figures" / "scorecard.html").read_text()
    for text, section in ((md, "## tsp_mcts_vs_sa"), (page, "<h2>tsp_mcts_vs_sa")):
        assert text.index("The two ledgers per paper") < text.index(section)
        assert "smoke (not the paper" in text and "protocol)" in text
        assert "Recorded longer runs" in text and "7bd00c1" in text  # othello's record
        assert "0123456" in text
    assert "docs/bench/othello.md#elo-inflation-in-the-paper-scale-run" in page


def test_the_cli_verb_writes_and_fails_clearly_on_a_missing_folder(tmp_path):
    _fake_output(tmp_path)
    ok = subprocess.run([sys.executable, "-m", "mctslab.cli", "scorecard", "--out",
                         str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert ok.returncode == 0, ok.stderr
    assert "protocol: 1 as stated" in ok.stdout and "scorecard.html" in ok.stdout
    missing = tmp_path / "nowhere"
    bad = subprocess.run([sys.executable, "-m", "mctslab.cli", "scorecard", "--out",
                          str(missing)], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2
    assert bad.stderr.strip() == (f"mctslab scorecard: error: no figures/ folder in {missing}: "
                                  "run `mctslab reproduce` first, or pass the --out folder "
                                  "it wrote")


def test_the_reports_index_links_the_scorecard(tmp_path):
    (tmp_path / "reports").mkdir()
    assert "No scorecard" in reports.write_index(tmp_path).read_text()
    _fake_output(tmp_path)
    scorecard_page.write(tmp_path)
    page = reports.write_index(tmp_path).read_text()
    assert '<a href="../figures/scorecard.html">' in page
    assert (tmp_path / "reports" / "../figures/scorecard.html").resolve().is_file()


def test_protocol_constants_form_their_own_ledger():
    targets = pd.concat([TARGETS, pd.DataFrame([
        _target(row="np", column="NP", value=20, kind="config", margin="0", min_n=None,
                sample=""),
        _target(row="k", column="K", value=32, kind="config", margin="0", min_n=None,
                sample="")])], ignore_index=True)
    targets["min_n"] = targets["min_n"].astype("Int64")
    rows = [*_p1_rows(), _record(row="np", column="NP", kind="config", our_value=20),
            _record(row="k", column="K", kind="config", our_value=16)]
    card = scorecard.build({"p1": (rows, {"scale": "paper"})}, targets)
    by_row = card.set_index("row")
    assert by_row.loc["np", ["ledger", "verdict"]].tolist() == ["protocol", scorecard.AS_STATED]
    assert by_row.loc["k", ["ledger", "verdict"]].tolist() == ["protocol", scorecard.DEPARTS]
    assert by_row.loc["a", "ledger"] == "outcome"
    protocol = scorecard.counts(card, "protocol")
    assert protocol.loc["p1", [scorecard.AS_STATED, scorecard.DEPARTS, "total"]].tolist() == \
        [1, 1, 2]
    outcome = scorecard.counts(card, "outcome")
    assert outcome.loc["p1", "total"] == 5  # the constants are not outcomes
    both = scorecard.ledgers(card)
    assert both.loc["total", "outcome: total"] + both.loc["total", "protocol: total"] == \
        len(targets)


def test_a_reproduction_whose_criterion_cannot_fail_is_uninformative():
    targets = TARGETS.copy()
    targets["uninformative"] = ""
    targets.loc[0, "uninformative"] = "0 by construction"
    card = scorecard.build({"p1": (_p1_rows(), {"scale": "paper"})}, targets)
    row = card.set_index("row").loc["a"]
    assert (row.verdict, row.uninformative) == (scorecard.UNINFORMATIVE, "0 by construction")
    assert scorecard.counts(card, "outcome").loc["p1", REPRODUCED] == 0
    # the same mark on a row that differs changes nothing: a failure is informative
    targets.loc[0, "uninformative"] = ""
    targets.loc[1, "uninformative"] = "0 by construction"
    row = scorecard.build({"p1": (_p1_rows(), {"scale": "paper"})}, targets).set_index(
        "row").loc["b"]
    assert (row.verdict, row.uninformative) == (DIFFERS, "")


def test_a_floor_counts_only_when_the_next_harder_cell_reproduces():
    targets = TARGETS.copy()
    targets["uninformative"] = ""
    # row a (reproduced) is a floor of row b: informative only if b reproduces
    targets.loc[0, "uninformative"] = "floor of Table 1 / b / x: both find none"
    card = scorecard.build({"p1": (_p1_rows(), {"scale": "paper"})}, targets)
    row = card.set_index("row").loc["a"]
    assert row.verdict == scorecard.UNINFORMATIVE
    assert row.uninformative == "floor of Table 1 / b / x: both find none (Table 1 / b / x: " \
                                "differs)"
    rows = _p1_rows()
    rows[1] = _record(row="b", paper_value=2.0, our_value=2.1, low=1.9, high=2.2)
    card = scorecard.build({"p1": (rows, {"scale": "paper"})}, targets)
    assert card.set_index("row").loc["a", "verdict"] == REPRODUCED


def test_a_row_touched_by_a_reading_shows_its_verdict_there():
    reading = dict(_record(row="b", our_value=2.05, low=1.9, high=2.2), reading="accept-all",
                   verdict=REPRODUCED)
    card = scorecard.build({"p1": (_p1_rows(), {"scale": "paper"})}, TARGETS,
                           readings={"p1": [reading]})
    row = card.set_index("row").loc["b"]
    assert row.verdict == DIFFERS and row.readings == "accept-all: reproduced (2.05)"
    assert row.explanation == "under a reading: accept-all: reproduced (2.05)"


def test_a_floor_of_a_floor_is_resolved_through_the_chain():
    targets = TARGETS.copy()
    targets["uninformative"] = ""
    # a (reproduced) is a floor of top; top (reproduced here) is a floor of b, which differs
    targets.loc[0, "uninformative"] = "floor of Table 3 / top / score: none found"
    targets.loc[4, "uninformative"] = "floor of Table 1 / b / x: none found"
    rows = _p1_rows()
    rows[2] = _record(artefact="Table 3", row="top", column="score", paper_value=0.5,
                      our_value=0.5, low=0.45, high=0.55, n=3, min_n=2, margin="0.1")
    card = scorecard.build({"p1": (rows, {"scale": "paper"})}, targets).set_index("row")
    assert card.loc["top", "verdict"] == scorecard.UNINFORMATIVE
    assert card.loc["a", "verdict"] == scorecard.UNINFORMATIVE
    assert card.loc["a", "uninformative"].endswith("(Table 3 / top / score: uninformative)")
