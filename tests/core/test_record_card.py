"""The scorecard of the committed records (mctslab.record_card): several records of one
notebook, records of the paper's readings, and the domain's rows judged from a record's
tables."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from mctslab import record_card, records
from mctslab.core import compare
from mctslab.core.compare import paper_row, paper_table
from mctslab.core.store import sha256
from tests.core.test_records import NOTEBOOK, _run_output

FIG8 = ("Fig. 8", "MCT_RM", "mean ratio to SA")


def _saved(tmp_path, name: str, rows, *, label: str = "", date: str = "2026-11-27"):
    out = tmp_path / name
    folder = _run_output(out)
    paper_table(rows).to_csv(folder / "paper_vs_run.csv", index=False)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["artefacts"]["paper_vs_run"]["sha256"] = {
        "paper_vs_run.csv": sha256(folder / "paper_vs_run.csv")}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return records.save(NOTEBOOK, out, root=tmp_path / "records", label=label, date=date)


def _card_row(card, key):
    tsp = card[card.paper == NOTEBOOK].set_index(["artefact", "row", "column"])
    return tsp.loc[key]


def test_a_newer_record_of_one_part_joins_the_older_record_of_the_rest(tmp_path):
    older = [paper_row(NOTEBOOK, *FIG8, 0.641, low=0.62, high=0.66, n=77, scale="paper"),
             paper_row(NOTEBOOK, "Fig. 8", "MCT_UM", "mean ratio to SA", 1.1, low=1.05,
                       high=1.12, n=77, scale="paper")]
    _saved(tmp_path, "old", older)
    # the newer record measured MCT_UM only; its MCT_RM row is not judged (a departure)
    newer = [paper_row(NOTEBOOK, *FIG8, 0.5, low=0.4, high=0.6, n=77, scale="paper",
                       departure="another board"),
             paper_row(NOTEBOOK, "Fig. 8", "MCT_UM", "mean ratio to SA", 2.0, low=1.9,
                       high=2.1, n=77, scale="paper")]
    _saved(tmp_path, "new", newer, label="part", date="2026-11-28")
    written = record_card.scorecard(tmp_path / "records")
    assert _card_row(written.card, FIG8).verdict == "reproduced"  # the older, judged row
    assert _card_row(written.card, ("Fig. 8", "MCT_UM", "mean ratio to SA")).verdict == \
        "differs"  # the newer record's
    runs = written.markdown.read_text()
    assert "tsp_mcts_vs_sa/paper-part-2026-11-28, tsp_mcts_vs_sa/paper-2026-11-27" in runs


def test_a_reading_record_is_shown_beside_ours_and_must_be_a_known_reading(tmp_path,
                                                                           monkeypatch):
    ours = [paper_row(NOTEBOOK, *FIG8, 3.08, low=3.0, high=3.1, n=77, scale="paper")]
    _saved(tmp_path, "ours", ours)
    under = [paper_row(NOTEBOOK, *FIG8, 0.618, low=0.61, high=0.625, n=77, scale="paper")]
    _saved(tmp_path, "reading", under, label="reading-accept-all")
    with pytest.raises(ValueError, match="reading 'accept-all' is not one of"):
        record_card.scorecard(tmp_path / "records")
    known = pd.DataFrame([dict(paper=NOTEBOOK, reading="accept-all", changes="SA accepts all",
                               rests_on="quote", source="docs/papers/tsp-mcts-vs-sa.md")])
    monkeypatch.setattr(record_card.targets_module, "readings", lambda paper: known)
    written = record_card.scorecard(tmp_path / "records")
    row = _card_row(written.card, FIG8)
    assert row.verdict == "differs" and row.readings == "accept-all: reproduced (0.618)"
    assert row.explanation.startswith("under a reading: accept-all: reproduced")
    assert "tsp_mcts_vs_sa/paper-reading-accept-all-2026-11-27" in written.markdown.read_text()


def test_the_domains_rows_from_a_records_tables_replace_and_add(tmp_path, monkeypatch):
    folder = _saved(tmp_path, "ours", [paper_row(NOTEBOOK, *FIG8, 3.08, low=3.0, high=3.1,
                                                 n=77, scale="paper")])
    seen = []

    def record_rows(read):
        table = read("fig8_mean_ratio_to_sa")
        seen.append((table.method.tolist(), read("no such table")))
        ratio = float(table.ratio.iloc[0])
        return [("", paper_row(NOTEBOOK, *FIG8, ratio, low=ratio - 0.01, high=ratio + 0.01,
                               n=77, scale="paper"))]

    monkeypatch.setattr(record_card._CLAIMS["tsp"], "record_rows", record_rows)
    rows, readings = record_card.record_rows(NOTEBOOK, folder)
    assert seen == [(["MCT_RM"], None)] and readings == []
    [row] = [r for r in rows if (r["artefact"], r["row"], r["column"]) == FIG8]
    assert row["our_value"] == 0.641 and compare.rejudge(row).verdict == "reproduced"


def test_a_recorded_table_can_be_asked_of_one_label(tmp_path):
    rows = [paper_row(NOTEBOOK, *FIG8, 0.641, low=0.62, high=0.66, n=77, scale="paper")]
    _saved(tmp_path, "whole", rows, label="9x9")
    _saved(tmp_path, "part", rows, label="19x19", date="2026-11-28")
    root = tmp_path / "records"
    assert "paper-19x19-2026-11-28" in records.recorded_table(NOTEBOOK, "paper_vs_run",
                                                              root=root).caption
    assert "paper-9x9-2026-11-27" in records.recorded_table(NOTEBOOK, "paper_vs_run", root=root,
                                                            label="9x9").caption


def test_a_readings_reproduction_whose_criterion_cannot_fail_is_uninformative(monkeypatch):
    target = dict(records.targets_module.target(NOTEBOOK, *FIG8), uninformative="echoed")
    monkeypatch.setattr(record_card.targets_module, "target", lambda *key: target)
    row = compare.paper_table([paper_row(NOTEBOOK, *FIG8, 0.63, low=0.62, high=0.64, n=77,
                                         scale="paper")]).iloc[0].to_dict()
    [judged] = record_card._judged_readings([dict(row, reading="r", record="x")])
    assert judged["verdict"] == "uninformative" and judged["why"].startswith("echoed; ")


def test_every_domain_of_the_one_list_has_its_claims_read(monkeypatch):
    """record_card reads each domain's claims.record_rows, the domains taken from
    mctslab.DOMAINS (a sixth domain is read without an edit here)."""
    import importlib

    import mctslab

    assert list(record_card._CLAIMS) == list(mctslab.DOMAINS)
    for domain, module in record_card._CLAIMS.items():
        assert module.__name__ == f"mctslab.{domain}.claims" and callable(module.record_rows)
    try:
        monkeypatch.setattr(mctslab, "DOMAINS", ("tsp", "go"))
        assert list(importlib.reload(record_card)._CLAIMS) == ["tsp", "go"]
    finally:
        monkeypatch.undo()
        importlib.reload(record_card)
    assert list(record_card._CLAIMS) == list(mctslab.DOMAINS)
