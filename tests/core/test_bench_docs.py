"""docs/bench tables generated from committed records (no number is copied by hand): a block
is rewritten from its record, a hand edit or a missing record is named by page and line, and
the repository's own pages are current."""

from __future__ import annotations

import pytest

from mctslab import bench_docs
from tests.core.test_records import _saved

PAGE = """# A bench page

Prose citing the record.

<!-- from-record: records/tsp_mcts_vs_sa/paper-2026-11-27 fig8_mean_ratio_to_sa -->
old text
<!-- /from-record -->

<!-- from-record: records/tsp_mcts_vs_sa/paper-2026-11-27 fig8_mean_ratio_to_sa columns=ratio -->
<!-- /from-record -->
After.
"""


def _project(tmp_path):
    folder = _saved(tmp_path)  # tmp_path/records/tsp_mcts_vs_sa/paper-2026-11-27
    (tmp_path / "docs" / "bench").mkdir(parents=True)
    page = tmp_path / "docs" / "bench" / "tsp.md"
    page.write_text(PAGE)
    return folder, page


def test_blocks_are_generated_from_their_record_and_then_current(tmp_path):
    _, page = _project(tmp_path)
    assert len(bench_docs.stale(tmp_path)) == 2
    changed = bench_docs.update(tmp_path)
    assert [b.line for b in changed] == [5, 9]
    text = page.read_text()
    assert text.startswith("# A bench page\n\nProse citing the record.\n") and text.endswith(
        "<!-- /from-record -->\nAfter.\n")
    assert ("From `records/tsp_mcts_vs_sa/paper-2026-11-27/fig8_mean_ratio_to_sa.csv` "
            "(scale paper, run 2026-11-27, commit ababab") in text
    assert "| method | ratio |" in text and "| MCT_RM | 0.641 |" in text
    assert "| ratio |\n|---|\n| 0.641 |" in text  # columns= picks
    assert "old text" not in text
    assert bench_docs.stale(tmp_path) == []
    assert bench_docs.update(tmp_path) == []


def test_a_hand_edited_number_is_named_by_page_and_line(tmp_path):
    _, page = _project(tmp_path)
    bench_docs.update(tmp_path)
    page.write_text(page.read_text().replace("| MCT_RM | 0.641 |", "| MCT_RM | 0.600 |", 1))
    [problem] = bench_docs.stale(tmp_path)
    assert problem.startswith(f"{page}:5: the table from records/tsp_mcts_vs_sa/"
                              "paper-2026-11-27 fig8_mean_ratio_to_sa differs from the record")


def test_a_missing_record_table_or_column_or_end_is_an_error(tmp_path):
    _, page = _project(tmp_path)
    page.write_text(PAGE.replace("paper-2026-11-27 fig8", "paper-1999-01-01 fig8", 1)
                    .replace("columns=ratio", "columns=nothing"))
    problems = bench_docs.stale(tmp_path)
    assert any(p.startswith(f"{page}:5: no record folder records/tsp_mcts_vs_sa/paper-1999")
               for p in problems)
    assert any("no column nothing" in p for p in problems)
    page.write_text(PAGE.replace("<!-- /from-record -->\nAfter.", "After."))
    [problem] = bench_docs.stale(tmp_path)
    assert problem == f"{page}:9: from-record block without its closing <!-- /from-record -->"
    with pytest.raises(ValueError, match="names a record folder and a table"):
        page.write_text("<!-- from-record: records/x -->\n<!-- /from-record -->\n")
        bench_docs.blocks(page)


def test_the_repositorys_bench_pages_are_current():
    assert bench_docs.stale() == []


def test_column_names_may_hold_spaces(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("<!-- from-record: records/x/paper-2026-11-27 table4_candidates "
                    "columns=L,per playout, Eq. 12 bound -->\n<!-- /from-record -->\n")
    [block] = bench_docs.blocks(page)
    assert (block.record, block.table) == ("records/x/paper-2026-11-27", "table4_candidates")
    assert block.columns == ("L", "per playout", "Eq. 12 bound")
    page.write_text("<!-- from-record: records/x t extra -->\n<!-- /from-record -->\n")
    with pytest.raises(ValueError, match="names a record folder and a table"):
        bench_docs.blocks(page)


def test_the_strong_engines_tables_come_from_its_match_record(tmp_path):
    """strong_validation, strong_ablation and strong_tabu of records/.../strong9-<date>: built
    from the stored games by mctslab.go.strong_record; named on another record, an error."""
    from tests.core.test_records import _match_folder

    record = tmp_path / "records" / "go_state_tabu" / "strong9-2026-11-26"
    _match_folder(record / "tabu-h2h-2000-30", 12)
    _match_folder(record / "full", 6)
    (tmp_path / "docs" / "bench").mkdir(parents=True)
    page = tmp_path / "docs" / "bench" / "go.md"
    page.write_text("".join(
        f"<!-- from-record: records/go_state_tabu/strong9-2026-11-26 {stem}{columns} -->\n"
        "<!-- /from-record -->\n" for stem, columns in
        (("strong_tabu", " columns=games,tabu wins,p (vs 0.5)"), ("strong_validation", ""),
         ("strong_ablation", " columns=row,games,wins"))))
    assert len(bench_docs.update(tmp_path)) == 3 and bench_docs.stale(tmp_path) == []
    text = page.read_text()
    assert "| games | tabu wins | p (vs 0.5) |\n|---|---|---|\n| 12 | 4 |" in text
    assert "| full | 6 | 2 |" in text and "rebuilt from the stored games" in text
    page.write_text("<!-- from-record: records/tsp_mcts_vs_sa/paper-2026-11-27 strong_tabu -->\n"
                    "<!-- /from-record -->\n")
    _saved(tmp_path)
    assert any("not of tsp_mcts_vs_sa/paper-2026-11-27" in p for p in bench_docs.stale(tmp_path))


def test_a_match_records_table2_verdicts_are_judged_from_its_summaries(tmp_path):
    """table2_verdicts: the host gnugo-uct row judged against Table 2's 0.519 +- 0.05 from 100
    games (the target's minimum); a few games, another board or GNU Go's own Monte-Carlo mode
    is "not run at this scale" with the reason; the verdict follows the counts."""
    from mctslab.go import match as go_match
    from mctslab.go.engine import EngineSettings
    from mctslab.go.match_record import table2_verdicts
    from tests.core.test_records import _match_folder

    host = go_match.Player("mcts", engine=EngineSettings(
        playouts=8000, policy="pattern", c=1.5, root_select="winrate", config="gnugo-uct",
        classical="gnugo", gnugo_level=10))
    record = tmp_path / "records" / "go_state_tabu" / "paper-19x19-2026-11-26"
    _match_folder(record / "go19" / "host-gnugo-uct", 100, candidate=host, won=lambda i: i % 4)
    _match_folder(record / "go19" / "gnugo-mc-L10", 100, won=lambda i: i % 2)
    _match_folder(record / "go19" / "host-short", 40, candidate=host, won=lambda i: i % 2)
    _match_folder(record / "go9" / "host-gnugo-uct", 100, candidate=host, won=lambda i: i % 2,
                  size=9)
    frame = table2_verdicts(record).set_index(["match", "column"])
    total = frame.loc[("go19/host-gnugo-uct", "win rate")]
    # 75 of 100: the interval [0.653, 0.828] lies above 0.569
    assert (total.wins, total.games, total.verdict) == (75, 100, "differs")
    assert "wholly outside 0.469..0.569" in total.why and total["p (vs paper)"] < 1e-5
    other = frame.loc[("go19/gnugo-mc-L10", "win rate")]
    assert other.verdict == "not run at this scale" and "gnugo-mc-L10" in other.why
    assert "below the 100" in frame.loc[("go19/host-short", "win rate")].why
    assert "9x9" in frame.loc[("go9/host-gnugo-uct", "win rate")].why
    assert frame.loc[("go19/host-gnugo-uct", "win rate as Black")].games == 50
    # half of 100: inconclusive, with the games that would settle it and their cost
    _match_folder(tmp_path / "half" / "go19" / "host", 100, candidate=host, won=lambda i: i % 2)
    half = table2_verdicts(tmp_path / "half").set_index("column").loc["win rate"]
    assert half.verdict == "inconclusive" and half["settle games"] > 100
    assert half["settle CPU h"] > 0
    (tmp_path / "docs" / "bench").mkdir(parents=True)
    page = tmp_path / "docs" / "bench" / "go.md"
    page.write_text("<!-- from-record: records/go_state_tabu/paper-19x19-2026-11-26 "
                    "table2_verdicts columns=match,column,games,verdict -->\n"
                    "<!-- /from-record -->\n")
    assert len(bench_docs.update(tmp_path)) == 1 and bench_docs.stale(tmp_path) == []
    assert "| go19/host-gnugo-uct | win rate | 100 | differs |" in page.read_text()
    with pytest.raises(FileNotFoundError, match="no finished match"):
        table2_verdicts(tmp_path / "docs")


def test_a_match_records_matches_are_paired_game_by_game_with_its_paper_engine(tmp_path):
    """paired: each match against the host gnugo-uct (the match with no departure from Table
    2's protocol) over the same games, b/c counted game by game, the exact McNemar p; a match
    whose game i met another GNU Go (here: on 9x9) is left out; the docs block is generated."""
    from mctslab.go import match as go_match
    from mctslab.go.engine import EngineSettings
    from mctslab.go.match_record import paired
    from tests.core.test_records import _match_folder

    host = go_match.Player("mcts", engine=EngineSettings(
        playouts=8000, policy="pattern", c=1.5, root_select="winrate", config="gnugo-uct",
        classical="gnugo", gnugo_level=10))
    record = tmp_path / "records" / "go_state_tabu" / "paper-19x19-2026-11-26"
    _match_folder(record / "go19" / "gnugo-mc-L10", 20, won=lambda i: i < 12)  # 0-11
    _match_folder(record / "go19" / "host-gnugo-uct", 20, candidate=host,
                  won=lambda i: 4 <= i < 10)  # 4-9: all won by gnugo-mc too
    _match_folder(record / "go9" / "gnugo-mc-L10", 20, size=9)
    frame = paired(record).set_index("match")
    assert list(frame.index) == ["go19/gnugo-mc-L10", "go19/host-gnugo-uct"]
    other = frame.loc["go19/gnugo-mc-L10"]
    assert (other.games, other.wins, other["go19/host-gnugo-uct wins"]) == (20, 12, 6)
    # games 0-3 and 10-11 won by gnugo-mc only, none by the host only: 6/0, p = 2 / 2**6
    assert other["b/c"] == "6/0" and other["McNemar p"] == round(2 / 2 ** 6, 3)
    assert frame.loc["go19/host-gnugo-uct", "b/c"] == "0/0"
    (tmp_path / "docs" / "bench").mkdir(parents=True)
    page = tmp_path / "docs" / "bench" / "go.md"
    page.write_text("<!-- from-record: records/go_state_tabu/paper-19x19-2026-11-26 paired "
                    "columns=match,games,b/c,McNemar p -->\n<!-- /from-record -->\n")
    assert len(bench_docs.update(tmp_path)) == 1 and bench_docs.stale(tmp_path) == []
    assert "| go19/gnugo-mc-L10 | 20 | 6/0 | 0.031 |" in page.read_text()
    with pytest.raises(FileNotFoundError, match="no finished match"):
        paired(tmp_path / "docs")
