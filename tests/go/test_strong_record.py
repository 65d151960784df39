"""The strong engine's committed match record read back as tables (mctslab.go.strong_record):
known answers from the committed games, the ablation and tabu tables on small records built from
them, partial and missing rows said as such, and the record passing `mctslab records check`."""

import json
import math
import shutil
from pathlib import Path

import pytest

from mctslab import records
from mctslab.core.stats import detectable_difference, games_for_power
from mctslab.core.store import ResultStore
from mctslab.go import match_record, plans, sgf, strong_record

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "records" / "go_state_tabu" / "strong9-2026-11-26"
STORE = "data/results/go_match_strong_vs_gnugo-L10/results.jsonl"
needs_record = pytest.mark.skipif(not RECORD.is_dir(), reason="no committed strong record")


def _lines(row: str) -> list[str]:
    """The committed row's stored games as JSON lines, whether its store is packed or not."""
    return [json.dumps(record) for record in match_record.stored((RECORD / row / STORE).parent)]


def _row(base: Path, name: str, lines: list[str], flip=()) -> None:
    """A match folder ``base/name`` holding ``lines`` (stored games), the games at indices
    ``flip`` with their result turned round."""
    out = []
    for index, line in enumerate(lines):
        record = json.loads(line)
        if index in flip:
            record["result"]["candidate_won"] = not record["result"]["candidate_won"]
        out.append(json.dumps(record))
    path = base / name / STORE
    path.parent.mkdir(parents=True)
    path.write_text("\n".join(out) + "\n")


def _record(tmp_path, plan=None) -> Path:
    folder = tmp_path / "go_state_tabu" / "strong9-2026-12-01"
    full = _lines("full")[:20]
    _row(folder, "full", full)
    won = [i for i, line in enumerate(full[:10]) if json.loads(line)["result"]["candidate_won"]]
    _row(folder, "no-rave", full[:10], flip=won[:3])  # 3 games the full engine won, lost
    if plan is not None:
        (folder / "plan.json").write_text(json.dumps({"planned_games": plan}))
    return folder


@needs_record
def test_the_committed_validation_is_157_of_200():
    table = strong_record.validation_table(RECORD)
    row = table.iloc[0]
    assert (row.games, row.wins, row.rate) == (200, 157, 0.785)
    assert row["95% CI"] == "0.722-0.840" and row.status == "complete"
    assert (row["wins as B"], row["wins as W"]) == ("81/100", "76/100")
    drop = row["detectable drop (80% power)"]
    assert games_for_power(0.785, 0.785 - drop) <= 200 < games_for_power(0.785, 0.786 - drop)
    assert strong_record.find(ROOT / "records").name >= RECORD.name  # the newest strong9-*
    # the recount from the raw games: 102 of 200 by a count with every stone alive
    assert row["wins (plain count)"] == 102


@needs_record
def test_the_ablations_plain_wins_are_each_rows_own_games():
    table = strong_record.ablation(RECORD).set_index("row")
    assert table.loc["full", "wins (plain count)"] == 102
    for row, entry in table.iterrows():
        games = strong_record._game_rows(RECORD / row)[:entry.games]
        assert entry["wins (plain count)"] == sum(g["plain"] for g in games), row
    # the same referee's wins as the full engine (b = c = 0), a plain count of its own games
    assert table.loc["resign", "wins"] == 157 and table.loc["resign", "wins (plain count)"] == 97


def _stored(row: str) -> int:
    """Games stored in the committed record's row (plain or packed stores)."""
    return sum(len(ResultStore(store).records())
               for store in (RECORD / row).glob("data/results/*"))


@needs_record
def test_the_committed_ablation_labels_its_partial_and_unplayed_rows():
    """Each row's games are its stored games, and its status says them against plan.json."""
    table = strong_record.ablation(RECORD).set_index("row")
    plan = json.loads((RECORD / "plan.json").read_text())["planned_games"]
    assert set(table.index) == {plans.CONTROL, *plans.ABLATION}  # not the pieces9 rows
    for row, entry in table.iterrows():
        stored = _stored(row)
        assert entry.games == stored, row
        wanted = ("not played" if stored == 0 else "complete" if stored >= plan[row]
                  else f"partial: {stored} of {plan[row]} planned games")
        assert entry.status == wanted, row
    assert table.loc["full", "status"] == "complete"
    assert not any(row.startswith(strong_record.HEAD_TO_HEAD) for row in table.index)
    assert math.isnan(table.loc["full", "detectable drop (80% power)"])
    played = table[(table.games > 0) & (table.index != "full")].sort_values("games")
    drops = list(played["detectable drop (80% power)"])  # more games, a smaller drop found
    assert drops == sorted(drops, reverse=True) and all(d > 0 for d in drops)


def test_ablation_pairs_each_row_with_the_full_engine_game_by_game(tmp_path):
    folder = _record(tmp_path, plan={"full": 20, "no-rave": 40, "resign": 20})
    table = strong_record.ablation(folder).set_index("row")
    full = [json.loads(line)["result"]["candidate_won"] for line in _lines("full")[:10]]
    assert table.loc["no-rave", "games"] == 10
    assert table.loc["no-rave", "wins"] == sum(full) - 3
    assert table.loc["no-rave", "full wins"] == sum(full)
    assert table.loc["no-rave", "b/c"] == "0/3" and table.loc["no-rave", "difference (games)"] == -3
    assert table.loc["no-rave", "status"] == "partial: 10 of 40 planned games"
    assert table.loc["full", "status"] == "complete"
    assert table.loc["resign", "status"] == "not played"
    assert table.loc["no-rave", "changes"] == "RAVE off"


def test_without_a_record_each_table_says_how_to_make_one(tmp_path):
    assert strong_record.find(tmp_path) is None
    empty = tmp_path / "go_state_tabu" / "strong9-2026-12-01"
    empty.mkdir(parents=True)
    assert "scripts/go-strong validate" in strong_record.validation_table(empty)["to make one"][0]
    assert "to make one" in strong_record.ablation(empty).columns
    assert strong_record.example_games(empty) == {}
    tabu = strong_record.tabu_table(empty)
    assert list(tabu.status) == ["not played", "not played"]


def test_the_head_to_head_is_sized_as_in_the_docs():
    # docs/bench/go.md: 3 points at 80% power, 4,353 games per engine measured apart, 2,178
    # head to head (one rate against 0.5: half of it, rounded up to an even number)
    assert games_for_power(0.5, 0.53) == 4353
    assert strong_record.head_to_head_games() == 2178
    assert strong_record.head_to_head_games(0.05) % 2 == 0


def test_the_tabu_table_without_a_head_to_head_says_what_it_needs(tmp_path):
    folder = _record(tmp_path)
    table = strong_record.tabu_table(folder)
    first, gnugo = table.iloc[0], table.iloc[1]
    assert first.status == "not played" and first.games == 0
    assert first["games needed (3 points, 80% power)"] == 2178
    assert first["CPU h needed"] == round(2178 * 6.0 / 3600, 1)  # 3.6
    assert first.command == "scripts/go-strong tabu 2178 2000 30"
    full = [json.loads(line)["result"] for line in _lines("full")[:20]]
    rate = sum(r["candidate_won"] for r in full) / 20
    assert gnugo["games needed (3 points, 80% power)"] == games_for_power(rate, rate + 0.03)


def test_a_played_head_to_head_gives_its_rate_and_power(tmp_path):
    folder = _record(tmp_path)
    games = _lines("no-pattern")[:10]
    _row(folder, "tabu-h2h-2000-30", games)
    row = strong_record.tabu_table(folder).iloc[0]
    wins = sum(json.loads(line)["result"]["candidate_won"] for line in games)
    assert (row.games, row["tabu wins"]) == (10, wins)
    assert row.status == "partial: 10 of 2178 planned games"
    assert row["detectable difference (80% power)"] == detectable_difference(20, 0.5)
    # the head-to-head row is not an ablation row
    assert "tabu-h2h-2000-30" not in set(strong_record.ablation(folder).row)


@needs_record
@pytest.mark.parametrize("packed", [False, True])
def test_one_won_and_one_lost_game_are_picked_from_the_committed_sgf(tmp_path, packed):
    """From the committed games as they are, and from a packed copy of the full engine's row
    (``mctslab records pack``): the same two games."""
    record = RECORD
    if packed:
        record = tmp_path / RECORD.name
        shutil.copytree(RECORD / "full", record / "full")
        match_record.pack_match(record / "full")
        assert not (record / "full" / "games").exists()
        assert match_record.game_sgf(record / "full", "9999-B.sgf") is None
    games = strong_record.example_games(record)
    assert len(games) == 2
    (won_title, won), (lost_title, lost) = games.items()
    assert won_title.startswith("strong won") and lost_title.startswith("strong lost")
    for title, text, wins in ((won_title, won, True), (lost_title, lost, False)):
        _, info = sgf.load(text)
        ours = "B" if title.endswith("as Black") else "W"
        assert info["result"][0] == (ours if wins else "BW"[ours == "B"]), (title, info["result"])
    if packed:
        assert games == strong_record.example_games(RECORD)


@needs_record
def test_the_examples_add_the_games_against_pachi_when_recorded(tmp_path):
    """A Pachi record beside the validation: its won and lost games follow the GNU Go ones,
    titled "against Pachi"; without it, only the validation's (and find(kind) finds nothing)."""
    base = tmp_path / "go_state_tabu"
    shutil.copytree(RECORD / "full", base / "strong9-pachi-2026-12-01" / "full")
    games = strong_record.example_games(base / "strong9-pachi-2026-12-01", against="Pachi")
    assert [t.split(":")[0] for t in games] == ["strong won against Pachi",
                                                "strong lost against Pachi"]
    assert strong_record.find(tmp_path, kind="pachi").name == "strong9-pachi-2026-12-01"
    assert strong_record.find(tmp_path) is None and strong_record.find(tmp_path, "plain") is None
    shown = strong_record.examples()
    assert list(shown)[:2] == list(strong_record.example_games())


@needs_record
def test_the_strong_record_passes_the_records_check(tmp_path):
    report = records.check_record(RECORD)
    assert report.ok, report.problems
    assert report.kind == "match"
    assert any("157 of 200" in note for note in report.notes)
    for row in strong_record.ROWS:  # every played row is checked (or said to be in progress)
        if _stored(row):
            assert any(f"{RECORD / row}:" in note for note in report.notes), row
    # and it would fail if a game's result were edited
    copy = tmp_path / "strong9"
    shutil.copytree(RECORD / "gelly", copy / "gelly")
    _row_path = copy / "gelly" / STORE
    lines = _row_path.read_text().splitlines()
    first = json.loads(lines[0])
    first["result"]["candidate_won"] = not first["result"]["candidate_won"]
    _row_path.write_text("\n".join([json.dumps(first)] + lines[1:]) + "\n")
    assert not records.check_record(copy).ok


@needs_record
def test_the_markdown_report_cites_the_record_and_has_three_tables():
    text = strong_record.markdown(RECORD)
    assert text.startswith("From `records/go_state_tabu/strong9-2026-11-26`")
    assert "games stored against GNU Go" in text.splitlines()[0]
    for title in ("**Validation**", "**Ablation", "**The tabu question, head to head"):
        assert title in text
    statuses = set(strong_record.ablation(RECORD).status)  # "complete", "partial: ..."
    assert all(f"| {row} |" in text for row in (plans.CONTROL, *plans.ABLATION))
    assert all(f"| {status} |" in text for status in statuses)


@needs_record
def test_the_committed_head_to_head_is_1215_of_2178_with_its_power():
    """The packed head-to-head row (records pack) read back: its known answer and its power."""
    match = RECORD / "tabu-h2h-2000-30"
    assert (match / "games.tar.gz").is_file() and not (match / "games").exists()
    row = strong_record.tabu_table(RECORD).iloc[0]
    assert (row.games, row["tabu wins"], row.rate) == (2178, 1215, 0.558)
    assert row["95% CI"] == "0.537-0.579" and row["p (vs 0.5)"] < 1e-7
    assert row.status == "complete"
    # the size it was planned at finds 3 points with 80% power, as sized
    assert row["detectable difference (80% power)"] == 0.03


@needs_record
def test_pass_rules_pairs_the_two_full_matches_game_by_game(tmp_path):
    """Two records under one records folder: the recorded engine's (estimate rule) and a plain
    rule's whose game 0 has another move list and games 1-2 another result."""
    base = tmp_path / "go_state_tabu"
    full = _lines("full")[:12]
    _row(base / "strong9-2026-12-01", "full", full)
    plain = [json.loads(line) for line in full]
    plain[0]["result"]["sgf"] = plain[0]["result"]["sgf"].replace(";B[", ";B[", 1) + ";W[]"
    lost = [i for i, g in enumerate(plain) if g["result"]["candidate_won"]][:2]
    _row(base / "strong9-plain-2026-12-02", "full", [json.dumps(g) for g in plain], flip=lost)
    table = strong_record.pass_rules(base / "strong9-plain-2026-12-02").set_index("pass rule")
    wins = sum(g["result"]["candidate_won"] for g in plain)
    assert table.loc["estimate", "wins (referee)"] == wins
    assert table.loc["plain", "wins (referee)"] == wins - 2
    assert (table.loc["plain", "McNemar b"], table.loc["plain", "McNemar c"]) == (0, 2)
    assert table.loc["plain", "games whose moves differ"] == 1
    assert set(table.games) == {12}
    assert strong_record.pass_rules(tmp_path / "nowhere" / "x").columns[0] == "record"


@pytest.mark.skipif(not (ROOT / "records/go_state_tabu/strong9-plain-2026-11-28").is_dir(),
                    reason="no plain-rule record")
def test_the_committed_plain_rule_keeps_every_referee_result_and_shows_its_wins():
    table = strong_record.pass_rules(ROOT / "records/go_state_tabu/strong9-plain-2026-11-28")
    table = table.set_index("pass rule")
    assert table.loc["plain", "McNemar b"] == table.loc["plain", "McNemar c"] == 0
    assert table.loc["plain", "share"] == 1.0 and table.loc["estimate", "share"] < 0.7
    assert table.loc["plain", "games"] >= 178


def test_the_pieces_table_pairs_added_pieces_and_finds_a_rise(tmp_path):
    folder = tmp_path / "go_state_tabu" / "pieces9-2026-12-01"
    full = _lines("full")
    _row(folder, "full", full)
    lost = [i for i, line in enumerate(full) if not json.loads(line)["result"]["candidate_won"]]
    _row(folder, "pieces", full, flip=lost[:2])  # two games the full engine lost, won
    (folder / "plan.json").write_text(json.dumps({"planned_games": {"full": 200, "pieces": 400}}))
    table = strong_record.pieces_table(folder).set_index("row")
    assert table.loc["pieces", "difference (games)"] == 2
    assert table.loc["pieces", "b/c"] == "2/0"
    assert table.loc["pieces", "changes"] == strong_record.ROWS["pieces"]
    assert table.loc["pieces", "status"] == "partial: 200 of 400 planned games"
    assert "detectable drop (80% power)" not in table.columns
    assert table.loc["pieces", "detectable rise (80% power)"] == pytest.approx(
        detectable_difference(200, table.loc["full", "rate"], lower=False))
    assert 0 < table.loc["pieces", "detectable rise (80% power)"] < 0.15
