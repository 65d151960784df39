"""Records of runs (mctslab.records): saved from an output folder, checked against
their checksums, manifest and verdicts, a scorecard built from them alone; match folders of
``mctslab go match`` checked by recomputing their summaries. On small fabricated outputs."""

from __future__ import annotations

import hashlib
import inspect
import json
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

import mctslab
from mctslab import bench_docs, record_card, records
from mctslab.core import compare
from mctslab.core.compare import paper_row, paper_table
from mctslab.core.store import to_jsonable, write_sums
from mctslab.go import match as go_match
from mctslab.go import match_record
from mctslab.go.played import played_from_stores

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = "tsp_mcts_vs_sa"


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _run_output(out: Path, scale: str = "paper") -> Path:
    """A finished run of the TSP notebook as ``mctslab reproduce --out`` leaves it."""
    folder = out / "figures" / NOTEBOOK
    folder.mkdir(parents=True)
    paper_table([
        paper_row(NOTEBOOK, "Fig. 8", "MCT_RM", "mean ratio to SA", 0.641, low=0.62, high=0.66,
                  n=77, scale=scale, unit_cpu_s=12.0),
        paper_row(NOTEBOOK, "Fig. 8", "MCT_UM", "mean ratio to SA", 1.1, low=0.9, high=1.3,
                  n=77, scale=scale, unit_cpu_s=12.0),
        paper_row(NOTEBOOK, "Sec. 4", "SA", "cooling factor", 0.99, scale=scale),
    ]).to_csv(folder / "paper_vs_run.csv", index=False)
    (folder / "fig8_mean_ratio_to_sa.csv").write_text("method,ratio\nMCT_RM,0.641\n")
    (folder / "summary.md").write_text("# summary\n")
    (folder / "games").mkdir()
    for i in range(3):
        (folder / "games" / f"g{i}.sgf").write_text(f"(;GM[1]C[{i}])")
    (folder / "games_index.txt").write_text("games/g0.sgf\ngames/g1.sgf\ngames/g2.sgf\n")
    (folder / "fig8.png").write_bytes(b"\x89PNG not kept")
    artefacts = {}
    for stem, kind, files in (("paper_vs_run", "table", ["paper_vs_run.csv"]),
                              ("fig8_mean_ratio_to_sa", "table", ["fig8_mean_ratio_to_sa.csv"]),
                              ("summary", "text", ["summary.md"]),
                              ("games_index", "text", ["games_index.txt"]),
                              ("fig8", "figure", ["fig8.png"])):
        artefacts[stem] = {"kind": kind, "files": files, "caption": stem,
                           "sha256": {f: _sha(folder / f) for f in files}}
    (folder / "manifest.json").write_text(json.dumps({
        "notebook": NOTEBOOK, "scale": scale, "seed": 20261122, "status": "complete",
        "mctslab_version": "0.8.1", "git": {"commit": "ab" * 20, "dirty": False},
        "platform": {"cpu_model": "AMD EPYC"}, "finished": "2026-11-27T10:00:00+00:00",
        "wall_seconds": 100.0, "experiments": {"tsp_comparison": {"task_seconds": 90.5}},
        "artefacts": artefacts}))
    return folder


def test_a_saved_record_keeps_tables_manifest_and_checksums_and_checks(tmp_path):
    _run_output(tmp_path / "run")
    folder = records.save(NOTEBOOK, tmp_path / "run", root=tmp_path / "records")
    assert folder == tmp_path / "records" / NOTEBOOK / "paper-2026-11-27"
    assert sorted(p.name for p in folder.iterdir()) == [
        "SHA256SUMS", "fig8_mean_ratio_to_sa.csv", "games", "games_index.txt", "manifest.json",
        "paper_vs_run.csv", "record.json", "summary.md"]
    info = json.loads((folder / "record.json").read_text())
    # the raw files a text artefact lists (Go's games) are kept, under their paths
    assert info["raw"] == ["games/g0.sgf", "games/g1.sgf", "games/g2.sgf"]
    assert (folder / "games" / "g2.sgf").read_text() == "(;GM[1]C[2])"
    assert (info["scale"], info["commit"], info["cpu_seconds"]) == ("paper", "ab" * 20, 90.5)
    [report] = records.check(tmp_path / "records")
    assert report.ok and report.kind == "notebook", report.problems
    assert {v: len(k) for v, k in report.verdicts.items()} == {"reproduced": 2,
                                                               "inconclusive": 1}
    with pytest.raises(FileExistsError):
        records.save(NOTEBOOK, tmp_path / "run", root=tmp_path / "records")
    labelled = records.save(NOTEBOOK, tmp_path / "run", root=tmp_path / "records", label="x")
    assert labelled.name == "paper-x-2026-11-27"


def test_raw_files_too_large_go_compressed_or_are_left_out(tmp_path, monkeypatch):
    games = _run_output(tmp_path / "run") / "games"
    for i in range(3):  # 6,000 bytes of games that compress well
        (games / f"g{i}.sgf").write_text("(;GM[1]" + ";B[aa];W[bb]" * 166 + ")")
    monkeypatch.setattr(records, "MAX_RAW_BYTES", 5_000)
    folder = records.save(NOTEBOOK, tmp_path / "run", root=tmp_path / "records")
    info = json.loads((folder / "record.json").read_text())
    assert info["raw"] == ["raw.tar.gz"] and not (folder / "games").exists()
    monkeypatch.setattr(records, "MAX_RAW_BYTES", 50)
    folder = records.save(NOTEBOOK, tmp_path / "run", root=tmp_path / "records", label="b")
    info = json.loads((folder / "record.json").read_text())
    assert info["raw"] == [] and "over 50 even compressed" in info["skipped"][0]["why"]
    assert all(r.ok for r in records.check(tmp_path / "records"))


def _saved(tmp_path) -> Path:
    _run_output(tmp_path / "run")
    return records.save(NOTEBOOK, tmp_path / "run", root=tmp_path / "records")


def _rewrite_sums(folder: Path) -> None:
    write_sums(folder)


def test_a_hand_edited_paper_vs_run_fails_naming_the_file(tmp_path):
    folder = _saved(tmp_path)
    table = folder / "paper_vs_run.csv"
    table.write_text(table.read_text().replace("inconclusive", "reproduced"))
    [report] = records.check(tmp_path / "records")
    assert not report.ok
    assert any(str(table) in p and "SHA256SUMS" in p for p in report.problems)
    # the checksums made to agree again: the manifest's sha256 still names the change, and the
    # verdict does not follow from the row's own values
    _rewrite_sums(folder)
    [report] = records.check(tmp_path / "records")
    assert any("differs from the manifest" in p for p in report.problems)
    assert any("does not follow from its own values" in p and "MCT_UM" in p
               for p in report.problems)


def test_tables_manifest_and_record_must_agree(tmp_path):
    folder = _saved(tmp_path)
    (folder / "fig8_mean_ratio_to_sa.csv").write_text("method,ratio\nMCT_RM,0.5\n")
    (folder / "extra.csv").write_text("x\n")
    info = json.loads((folder / "record.json").read_text())
    (folder / "record.json").write_text(json.dumps(dict(info, scale="default")))
    _rewrite_sums(folder)
    [report] = records.check(tmp_path / "records")
    text = "\n".join(report.problems)
    assert "fig8_mean_ratio_to_sa.csv: its sha256 differs from the manifest's" in text
    assert "scale 'default', the manifest's 'paper'" in text
    (folder / "paper_vs_run.csv").unlink()
    [report] = records.check(tmp_path / "records")
    assert any("paper_vs_run.csv: missing" in p for p in report.problems)


def test_a_kept_file_and_a_file_left_unsaid_are_named(tmp_path):
    folder = _saved(tmp_path)
    (folder / "summary.md").unlink()
    info = json.loads((folder / "record.json").read_text())
    files = [f for f in info["files"] if f != "fig8_mean_ratio_to_sa.csv"]
    (folder / "record.json").write_text(json.dumps(dict(info, files=files, notebook="other")))
    _rewrite_sums(folder)
    [report] = records.check(tmp_path / "records")
    text = "\n".join(report.problems)
    assert "summary.md: missing (record.json keeps it)" in text
    assert "the manifest's fig8_mean_ratio_to_sa.csv is neither kept nor said to be left out" in text
    assert f"notebook 'other' in the folder of {NOTEBOOK}" in text


def test_records_check_prints_each_report_and_fails_on_a_bad_one(tmp_path, capsys):
    from mctslab import cli

    folder = _saved(tmp_path)
    assert cli.main(["records", "check", "--root", str(tmp_path / "records")]) == 0
    out = capsys.readouterr().out
    assert f"{folder}: ok (notebook record; today's verdicts: 2 reproduced, 1 inconclusive)" in out
    assert "docs/bench tables" not in out  # only a check of all of records/ reads the docs
    (folder / "summary.md").write_text("# edited\n")
    assert cli.main(["records", "check", str(folder), "--verbose"]) == 1
    out = capsys.readouterr().out
    assert f"{folder}: FAILED (notebook record" in out
    assert f"  error: {folder / 'summary.md'}: its sha256 differs from {folder / 'SHA256SUMS'}" in out
    assert cli.main(["records", "check", "--root", str(tmp_path / "none")]) == 0
    assert "no records under" in capsys.readouterr().out


def test_only_a_finished_run_with_its_paper_vs_run_is_saved(tmp_path):
    out = tmp_path / "run"
    with pytest.raises(KeyError, match="unknown notebook"):
        records.save("no_such_notebook", out, root=tmp_path / "records")
    with pytest.raises(FileNotFoundError, match="run `mctslab reproduce"):
        records.save(NOTEBOOK, out, root=tmp_path / "records")
    manifest = _run_output(out) / "manifest.json"
    manifest.write_text(json.dumps(dict(json.loads(manifest.read_text()), status="running")))
    with pytest.raises(ValueError, match="'running', not complete"):
        records.save(NOTEBOOK, out, root=tmp_path / "records")
    manifest.write_text(json.dumps(dict(json.loads(manifest.read_text()), status="complete")))
    (manifest.parent / "paper_vs_run.csv").unlink()
    with pytest.raises(FileNotFoundError, match="has no paper_vs_run table"):
        records.save(NOTEBOOK, out, root=tmp_path / "records")
    assert not (tmp_path / "records").exists()


def test_a_record_is_judged_again_with_todays_targets(tmp_path, monkeypatch):
    folder = _saved(tmp_path)
    today = records._today_targets()
    key = (NOTEBOOK, "Fig. 8", "MCT_RM", "mean ratio to SA")
    today[key] = dict(today[key], margin="0.001")  # a margin tightened since the run
    report = records.check_record(folder, today)
    assert report.ok and any("reproduced when recorded, inconclusive" in n for n in report.notes)


def test_the_scorecard_from_records_counts_targets(tmp_path):
    _saved(tmp_path)
    written = record_card.scorecard(tmp_path / "records")
    assert written.csv == tmp_path / "records" / "scorecard-paper.csv"
    card = written.card
    assert len(card) == len(records.targets_module.all_targets())
    tsp = card[card.paper == NOTEBOOK].set_index(["artefact", "row", "column"])
    assert tsp.loc[("Fig. 8", "MCT_RM", "mean ratio to SA"), "verdict"] == "reproduced"
    assert "tsp_mcts_vs_sa/paper-2026-11-27" in written.markdown.read_text()
    assert record_card.scorecard(tmp_path / "records", scale="default").card.verdict.isin(
        ["not run at this scale", "derived", "not compared"]).all()


def test_a_records_table_prints_as_markdown_citing_it(tmp_path):
    folder = _saved(tmp_path)
    text = records.markdown_table(folder, "fig8_mean_ratio_to_sa")
    assert text.splitlines()[0].startswith(f"From `{folder.as_posix()}/fig8_mean_ratio_to_sa.csv` "
                                           "(scale paper, run 2026-11-27, commit ababab")
    assert "| method | ratio |" in text and "| MCT_RM | 0.641 |" in text
    with pytest.raises(FileNotFoundError):
        records.markdown_table(folder, "nothing")


def _match_folder(folder: Path, games: int, *, summary: bool = True, partial: bool = False,
                  candidate=None, won=lambda i: i % 3 == 0, size: int = 19):
    """A ``mctslab go match --out`` folder with fabricated games (``candidate``: a
    :class:`go_match.Player`, default GNU Go's Monte-Carlo mode at level 10; game ``i`` won
    when ``won(i)``)."""
    candidate = candidate or go_match.Player("gnugo-mc", level=10)
    opponent = go_match.Player("gnugo", level=10)
    tasks = go_match.match_tasks(candidate, opponent, games, size=size, seed=2026)
    store = (folder / "data" / "results"
             / f"{go_match.EXPERIMENT_PREFIX}{candidate.label}_vs_{opponent.label}")
    store.mkdir(parents=True)
    results = [dict(candidate_won=bool(won(i)), moves=250 + i, margin=3.5, think_candidate=10.0,
                    think_opponent=5.0 + i, cpu_candidate=9.0, cpu_opponent=4.0, restarts=0,
                    area_agrees=True, candidate_counts={}, end="score", sgf="(;)")
               for i in range(games)]
    lines = [json.dumps(dict(t.describe(), result=to_jsonable(r))) for t, r in
             zip(tasks, results)]
    if partial:
        lines.append(lines[-1][: len(lines[-1]) // 2])  # a game being written
    (store / "results.jsonl").write_text("\n".join(lines) + ("" if partial else "\n"))
    if summary:
        (folder / "summary.json").write_text(json.dumps(go_match.summary(tasks, results)))
        (folder / "games").mkdir()
        for i in range(games):
            (folder / "games" / f"{i:04d}.sgf").write_text("(;)")


def test_a_match_record_is_recomputed_from_its_games(tmp_path):
    record = tmp_path / "records" / "go_state_tabu" / "paper-19x19-2026-11-26"
    _match_folder(record / "go19" / "gnugo-mc-L10", 10)
    _match_folder(record / "go19" / "host-gnugo-uct", 3, summary=False, partial=True)
    (record / "go19" / "gnugo-mc-L10.log").write_text("")
    veto = record / "veto" / "data" / "results" / "go_veto"
    veto.mkdir(parents=True)
    (veto / "results.jsonl").write_text('{"id": "x"}\n')
    [report] = records.check(tmp_path / "records")
    assert report.ok and report.kind == "match", report.problems
    notes = "\n".join(report.notes)
    assert "4 of 10 (rate 0.400), " in notes and ", 10 games stored, 10 SGF" in notes
    assert "plain count" in notes  # the count with every stone alive beside the referee's
    assert "in progress, 3 games stored" in notes and "store go_veto, 1 tasks" in notes
    summary = record / "go19" / "gnugo-mc-L10" / "summary.json"
    data = json.loads(summary.read_text())
    summary.write_text(json.dumps(dict(data, wins=5, rate=0.5)))
    [report] = records.check(tmp_path / "records")
    assert not report.ok and any(str(summary) in p and "wins 5" in p for p in report.problems)
    assert "| match | candidate |" in records.markdown_table(record)


def test_a_packed_match_checks_and_reads_as_before(tmp_path):
    """records pack: the store gzipped and the SGF files in one archive, the summary still
    recomputed from the games, the tables read back unchanged; an unfinished row refused."""
    record = tmp_path / "records" / "go_state_tabu" / "strong9-2026-11-26"
    match = record / "tabu-h2h-2000-30"
    _match_folder(match, 12)
    before = played_from_stores([match])
    moved = match_record.pack_match(match)
    assert moved == {"lines": 12, "games": 12} and not (match / "games").exists()
    assert not list(match.glob("data/results/*/results.jsonl"))
    [report] = records.check(tmp_path / "records")
    assert report.ok, report.problems
    notes = "\n".join(report.notes)
    assert "4 of 12 (rate 0.333), " in notes and ", 12 games stored, 12 SGF" in notes
    after = played_from_stores([match])
    assert after.results == before.results and [t.params for t in after.tasks] == \
        [t.params for t in before.tasks]
    archive = (match / "games.tar.gz").read_bytes()
    assert match_record.pack_match(match) == {"lines": 0, "games": 0}
    assert (match / "games.tar.gz").read_bytes() == archive
    _match_folder(record / "no-rave", 3, summary=False, partial=True)
    with pytest.raises(ValueError, match="no summary.json"):
        match_record.pack_match(record / "no-rave")
    summary = match / "summary.json"
    summary.write_text(json.dumps(dict(json.loads(summary.read_text()), games=10)))
    with pytest.raises(ValueError, match="10 games, but 12 stored"):
        match_record.pack_match(match)


def test_the_cli_checks_saves_and_fails_with_exit_1(tmp_path):
    _run_output(tmp_path / "run")

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "mctslab.cli", *args], capture_output=True,
                              text=True, cwd=ROOT)

    root = tmp_path / "records"
    assert "no records under" in cli("records", "check", "--root", str(root)).stdout
    saved = cli("records", "save", NOTEBOOK, "--out", str(tmp_path / "run"), "--root", str(root))
    assert saved.returncode == 0, saved.stderr
    ok = cli("records", "check", "--root", str(root))
    assert ok.returncode == 0 and ": ok (notebook record" in ok.stdout
    table = root / NOTEBOOK / "paper-2026-11-27" / "paper_vs_run.csv"
    table.write_text(table.read_text().replace("0.641", "0.9"))
    bad = cli("records", "check", "--root", str(root))
    assert bad.returncode == 1 and "FAILED" in bad.stdout and str(table) in bad.stdout
    card = cli("scorecard", "--records", str(root))
    assert card.returncode == 0 and "one per target" in card.stdout
    missing = cli("records", "save", NOTEBOOK, "--out", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "mctslab reproduce" in missing.stderr


def test_the_repositorys_records_check():
    """What `make test` runs: every committed record is sound (none yet is fine)."""
    problems = [p for r in records.check() for p in r.problems]
    assert not problems, problems


def test_rejudging_a_read_table_is_the_verdict_code(tmp_path):
    folder = _saved(tmp_path)
    for row in compare.read_table(folder / "paper_vs_run.csv"):
        assert compare.rejudge(row).verdict == row["verdict"]


def test_a_notebook_shows_a_records_table_beside_its_own(tmp_path):
    """records.recorded_table: the newest record's table, captioned as the record's (not this
    run's); without a record, one row saying how to make one."""
    missing = records.recorded_table(NOTEBOOK, "fig8_mean_ratio_to_sa", root=tmp_path / "records")
    assert len(missing) == 1 and "no paper-scale record" in missing.iloc[0, 0]
    folder = _saved(tmp_path)
    table = records.recorded_table(NOTEBOOK, "fig8_mean_ratio_to_sa", root=tmp_path / "records")
    assert list(table.columns) == ["method", "ratio"] and table.iloc[0, 1] == 0.641
    assert f"records/{NOTEBOOK}/{folder.name}" in table.caption and "abababa" in table.caption
    assert "not of this run" in table.caption
    assert "<th>method</th>" in table._repr_html_()
    assert len(records.recorded_table(NOTEBOOK, "fig8_mean_ratio_to_sa", scale="default",
                                      root=tmp_path / "records")) == 1


def test_a_search_record_is_checked_by_its_checksums(tmp_path):
    folder = tmp_path / "records" / "sudoku_less_clue" / "readings-2026-11-28"
    folder.mkdir(parents=True)
    (folder / "design.json").write_text('{"readings": 32}')
    (folder / "screen_scores.csv").write_text("reading,distance\n0,1.387\n")
    [report] = records.check(tmp_path / "records")
    assert report.kind == "search" and any("SHA256SUMS: missing" in p for p in report.problems)
    write_sums(folder)
    [report] = records.check(tmp_path / "records")
    assert report.ok and report.kind == "search", report.problems
    (folder / "screen_scores.csv").write_text("reading,distance\n0,0.100\n")
    [report] = records.check(tmp_path / "records")
    assert any("screen_scores.csv: its sha256 differs" in p for p in report.problems)


# -- the generic record modules and the domains' record hooks ----------------------------------
def domain_words(source: str) -> list[str]:
    """The domains' names a module's source spells (a domain, its package or its notebook;
    Go as ``Go``, ``go_...`` or ``mctslab.go``, so the verb and the English word pass)."""
    found = []
    for domain, notebook in mctslab.NOTEBOOKS.items():
        word = (r"\bGo\b|\bgo_|mctslab[./]go\b" if domain == "go"
                else rf"(?i:\b{domain}|{re.escape(notebook)})")
        found += [f"{domain}: {m.group(0)!r}" for m in re.finditer(word, source)]
    return found


def test_records_and_bench_docs_know_no_domain():
    """A domain's specifics live in its record hook; the generic modules name no domain."""
    for module in (records, bench_docs):
        assert domain_words(Path(module.__file__).read_text()) == [], module.__name__
    assert domain_words("from mctslab.go import match_record") == ["go: 'mctslab.go'"]
    assert domain_words("Go's tables; records/go_state_tabu/strong9-") != []
    assert domain_words("records/tsp_mcts_vs_sa/ and the Sudoku finds") != []
    assert domain_words("go to the folder; the good word") == []


def test_the_go_record_hook_is_found_and_keeps_the_signatures():
    """records finds each domain's record_hooks by name (Go's, the one today), with what the
    records module's docstring documents."""
    [hook] = records.record_hooks()
    assert hook.__name__ == "mctslab.go.record_hooks" and hook.KIND == "match"
    for name, params in (("check_folder", ["folder", "report"]), ("summary_table", ["folder"]),
                         ("pack", ["folder"])):
        assert list(inspect.signature(getattr(hook, name)).parameters) == params
        assert f"``{name}(" in records.__doc__
    assert {"table2_verdicts", "paired", "strong_tabu"} <= set(records.hooked_tables())
    assert records.record_hooks(("othello",)) == []  # a domain without a hook


@pytest.fixture
def toy_hook(monkeypatch):
    """A record hook of a fake domain, in place of the domains' hooks."""
    def check_folder(folder, report):
        if not (folder / "toy.txt").is_file():
            return False
        report.notes.append(f"{folder}: a toy record")
        return True

    hook = SimpleNamespace(
        KIND="toy", check_folder=check_folder,
        summary_table=lambda folder: (pd.DataFrame({"n": [1, 2]}), "toy summaries")
        if (folder / "toy.txt").is_file() else None,
        TABLES={"toy_table": (lambda folder: pd.DataFrame({"m": [3]}), ": built by the toy")},
        pack=lambda folder: f"{folder}: packed the toy" if (folder / "toy.txt").is_file()
        else None)
    monkeypatch.setattr(records, "record_hooks", lambda domains=None: [hook])
    return hook


def test_records_read_a_domains_own_kind_through_its_hook(tmp_path, toy_hook, monkeypatch):
    folder = tmp_path / "records" / "toy_notebook" / "toy-2026-11-28"
    folder.mkdir(parents=True)
    (folder / "toy.txt").write_text("toy\n")
    [report] = records.check(tmp_path / "records")
    assert report.ok and report.kind == "toy" and report.notes == [f"{folder}: a toy record"]
    assert "(toy summaries):\n\n| n |" in records.markdown_table(folder)
    assert records.pack(folder) == f"{folder}: packed the toy"
    page = tmp_path / "docs" / "bench" / "toy.md"
    page.parent.mkdir(parents=True)
    page.write_text("<!-- from-record: records/toy_notebook/toy-2026-11-28 toy_table -->\n"
                    "<!-- /from-record -->\n")
    assert len(bench_docs.update(tmp_path)) == 1
    assert "(`toy_table`: built by the toy):\n\n| m |\n|---|\n| 3 |" in page.read_text()
    monkeypatch.setattr(records, "record_hooks", lambda domains=None: [])  # no hook reads it
    [report] = records.check(tmp_path / "records")
    assert report.kind == "unknown" and "a kind a domain's record hook reads" in report.problems[0]
    with pytest.raises(FileNotFoundError, match="no domain's record hook"):
        records.pack(folder)
    with pytest.raises(FileNotFoundError, match="no domain's record hook reads it"):
        records.markdown_table(folder)
    assert any("no domain's record hook reads it" in p for p in bench_docs.stale(tmp_path))
