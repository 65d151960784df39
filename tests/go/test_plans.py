"""The recorded Go runs' plans (mctslab.go.plans, plan_run and the verbs `mctslab go plan`,
`strong`, `records`): the committed records' games are the plans' games (same task ids: found,
nothing replayed), the rows are interleaved ten games at a time and resumed from the stored
games, a plan.json is read in both its forms, and a row whose games are not the plan's is
refused."""

import json
import re
from pathlib import Path

import pytest

from mctslab import cli as mctslab_cli
from mctslab.go import match_record, plan_run, plans, strong_record
from mctslab.go.cli import match_tasks

ROOT = Path(__file__).resolve().parents[2] / "records" / "go_state_tabu"
# a committed match record and its plan's protocol
MATCH_RECORDS = {"strong9-2026-11-26": None, "strong19-2026-11-27": None,
                 "paper-19x19-2026-11-26/go19": None, "pieces9-2026-11-29": None}


def _stored_ids(match: Path) -> list[str]:
    return [r["id"] for store in match_record.match_stores(match)
            for r in match_record.stored(store)]


@pytest.mark.parametrize("record", sorted(MATCH_RECORDS))
def test_the_committed_match_records_are_their_plans_games(record):
    """Every stored game of every row is the game the plan's `go match` arguments play (its
    task id), and the plan, run now, plays nothing."""
    folder = ROOT / record
    plan = plans.load(folder)
    assert plan.rows, record
    for row in plan.rows:
        ids = _stored_ids(folder / row.name)
        assert len(ids) >= row.games, (record, row.name)
        argv = plans.match_argv(plan, row.name, len(ids), folder / row.name)
        assert {task.id for task in match_tasks(argv)} == set(ids), (record, row.name)
    plan, calls = plan_run.prepare(folder)
    assert calls == []  # complete: nothing to play, no summary to write
    before = (folder / "plan.json").read_bytes() if (folder / "plan.json").exists() else None
    assert plan_run.run(folder, plan, calls, None, None) == 0
    after = (folder / "plan.json").read_bytes() if (folder / "plan.json").exists() else None
    assert after == before  # the committed record is left as it is


def test_the_strong_records_legacy_plan_is_read_with_the_packages_rows():
    plan = plans.load(ROOT / "strong9-2026-11-26")
    assert plan.protocol == "strong9" and plan.seed == 2026 and "why" in plan.notes
    assert [r.name for r in plan.rows] == [plans.CONTROL, *plans.ABLATION, "tabu-h2h-2000-30"]
    assert plan.games["tabu-h2h-2000-30"] == 2178 and plan.games["no-edge"] == 200
    assert plan.row("no-capture").flags == ("--priors", "even,self-atari,pattern,distance,edge")
    assert "--pass-rule" in plan.match  # the committed rows' engine, not today's default
    assert set(strong_record.ROWS) == set(plans.STRONG_ROWS)  # the rows defined once


def _sgf_settings(path: Path) -> dict:
    text = path.read_text()
    return dict(line.split("=", 1) for line in re.search(r"GC\[(.*?)\]", text, re.S)[1]
                .splitlines())


def _flat(params: dict, prefix: str = "") -> dict:
    out = {}
    for key, value in params.items():
        if isinstance(value, dict):
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = str(value)
    return out


# the 9x9 notebook record's rows (its SGF files' prefixes) as rows of the paper9 protocol
NOTEBOOK_ROWS = {"gnugo": "gnugo-self", "gnugo-uct": "host-gnugo-uct", "gTabu0": "host-gTabu0",
                 "gTabu18": "host-gTabu18", "gTabu18-hash": "host-gTabu18-hash",
                 "gTabu18-hash-win": "host-gTabu18-hash-win", "gnugo-mc_L1": "gnugo-mc-L1",
                 "gnugo-mc_L10": "gnugo-mc-L10", "gnugo-uct__pure_": "pure-gnugo-uct"}


def test_the_9x9_notebook_records_games_are_the_paper9_plan_at_the_notebooks_seed():
    """The notebook's 9x9 games (paper-9x9-2026-11-27) are the games of `mctslab go records
    9x9`'s rows at the notebook's seed: each SGF's settings and seeds are its task's."""
    folder = ROOT / "paper-9x9-2026-11-27" / "games"
    plan = plans.protocol_plan("paper9", seed=plans.NOTEBOOK_SEED)
    checked = 0
    for prefix, row in NOTEBOOK_ROWS.items():
        tasks = match_tasks(plans.match_argv(plan, row, 100, "-"))
        for i, task in enumerate(tasks):
            settings = _sgf_settings(folder / f"{prefix}-{i:04d}-{task.params['color']}.sgf")
            seeds = [int(v) % 2**31 for v in task.seed_sequence().generate_state(3)]
            assert settings.pop("restarts") is not None
            assert settings == {**_flat(task.params), "candidate_seed": str(seeds[0]),
                                "opponent_seed": str(seeds[1]),
                                "referee_seed": str(seeds[2])}, (row, i)
            checked += 1
    assert checked == 900


def test_rows_are_interleaved_ten_games_at_a_time():
    plan = plans.protocol_plan("paper9")
    calls = plans.schedule(plan, {}, ["host-gTabu0", "host-gTabu18-hash-win"])
    assert calls == [(row, games) for games in range(10, 101, 10)
                     for row in ("host-gTabu0", "host-gTabu18-hash-win")]
    assert len(plans.schedule(plan, {})) == 100 and plans.schedule(plan, {})[-1] == (
        "pure-gnugo-uct", 100)


def test_a_resumed_plan_starts_above_the_games_stored_and_rewrites_summaries_below():
    plan = plans.protocol_plan("strong9")
    stored = {"no-rave": 23, "no-capture": 20}
    assert plans.schedule(plan, stored, ["no-rave", "no-capture"], 40) == [
        ("no-rave", 30), ("no-capture", 30), ("no-rave", 40), ("no-capture", 40)]
    # a target every row holds: one call each at it (plays nothing, writes the summary)
    assert plans.schedule(plan, stored, ["no-rave", "no-capture"], 15) == [
        ("no-rave", 15), ("no-capture", 15)]
    # rows with other targets: each stops at its own
    mixed = plans.schedule(plans.protocol_plan("strong9", games=25), {}, ["full", "resign"])
    assert mixed == [("full", 10), ("resign", 10), ("full", 20), ("resign", 20), ("full", 25),
                     ("resign", 25)]


def test_the_queues_rows_and_games():
    assert plans.queue_request("validate", []) == ("strong9", ["full"], 200)
    assert plans.queue_request("ablation", ["20", "no-rave"]) == ("strong9", ["no-rave"], 20)
    assert plans.queue_request("ablation", []) == ("strong9", list(plans.ABLATION), 60)
    assert plans.queue_request("tabu", ["40", "1000", "8"]) == ("strong9", ["tabu-h2h-1000-8"],
                                                                 40)
    assert plans.queue_request("pilot19", []) == ("strong19", ["full"], 20)
    assert plans.queue_request("9x9", ["host-gTabu0"]) == ("paper9", ["host-gTabu0"], None)
    assert plans.queue_request("19x19", []) == ("paper19", None, None)
    with pytest.raises(ValueError, match="no row names"):
        plans.queue_request("validate", ["no-rave"])


def test_a_rows_match_arguments_are_the_recorded_scripts():
    plan = plans.protocol_plan("strong9")
    argv = plans.match_argv(plan, "no-rave", 20, "/r/no-rave", workers=2)
    assert argv[-5:] == ["--json", "--rave", "none", "--out", "/r/no-rave"]  # the row's last
    assert argv[argv.index("--rave") + 1] == "none" and argv[argv.index("--seed") + 1] == "2026"
    assert argv[argv.index("--pass-rule") + 1] == "estimate"
    assert argv[argv.index("--games") + 1] == "20" and argv[argv.index("--workers") + 1] == "2"
    tabu = plans.row_flags("strong9", "tabu-h2h-2000-30")
    assert tabu[tabu.index("--config") + 1] == plans.TABU_CONFIG
    host = plans.row_flags("paper9", "host-gTabu12-hash")
    assert host[host.index("--config") + 1] == "gTabu12-hash" and "gnugo" in host
    with pytest.raises(ValueError, match="has no row"):
        plans.row_flags("strong9", "no-such-row")
    with pytest.raises(ValueError, match="the plan's to set"):
        plans.Row("x", ("--seed", "3"), 10)


def test_a_plan_is_saved_and_read_back_and_a_legacy_plan_keeps_its_notes(tmp_path):
    plan = plans.protocol_plan("strong19").with_rows(["full"], 40)
    plans.save(plan, tmp_path / "strong19-x")
    assert plans.load(tmp_path / "strong19-x") == plan
    assert plans.planned_games(tmp_path / "strong19-x") == {"full": 40}
    legacy = tmp_path / "strong9-x"
    legacy.mkdir()
    (legacy / "plan.json").write_text(json.dumps({"why": "w", "planned_games": {"full": 30}}))
    read = plans.load(legacy).with_rows(["gelly"], 20)
    plans.save(read, legacy)
    data = json.loads((legacy / "plan.json").read_text())
    assert data["why"] == "w" and "planned_games" not in data
    assert {n: r["games"] for n, r in data["rows"].items()} == {"full": 30, "gelly": 20}
    assert plans.planned_games(legacy) == {"full": 30, "gelly": 20}
    with pytest.raises(ValueError, match="no plan.json and no protocol"):
        plans.load(tmp_path / "other")


def test_a_row_whose_games_are_not_the_plans_is_refused(tmp_path):
    """A copy of a committed row under a plan with another seed: refused, nothing played."""
    source = ROOT / "strong19-2026-11-27" / "full"
    folder = tmp_path / "strong19-x"
    store = next(iter(match_record.match_stores(source)))
    lines = [json.dumps(r) for r in match_record.stored(store)]
    target = folder / "full" / "data" / "results" / store.name / "results.jsonl"
    target.parent.mkdir(parents=True)
    target.write_text("\n".join(lines) + "\n")
    plans.save(plans.Plan("strong19", 7, plans.PROTOCOLS["strong19"][0],
                          (plans.Row("full", (), 30),)), folder)
    plan, calls = plan_run.prepare(folder)
    assert calls and calls[0].games == 30
    played = []
    with pytest.raises(ValueError, match="20 stored games are not the plan's"):
        plan_run.run(folder, plan, calls, played.append, match_tasks)
    assert played == []


def test_a_run_plays_its_calls_in_order_with_the_output_in_each_rows_log(tmp_path):
    folder = tmp_path / "strong9-x"
    plan, calls = plan_run.prepare(folder, rows=["no-rave", "gelly"], games=20)
    assert [(c.row, c.games) for c in calls] == [("no-rave", 10), ("gelly", 10),
                                                ("no-rave", 20), ("gelly", 20)]

    def play(argv):
        print("played", argv[argv.index("--games") + 1])
        if "gelly" in argv[-1] and "20" in argv:
            raise ValueError("1 game(s) failed")

    said = []
    assert plan_run.run(folder, plan, calls, play, match_tasks, echo=said.append) == 1
    assert (folder / "no-rave.log").read_text() == "played 10\nplayed 20\n"
    assert (folder / "gelly.log").read_text().endswith("error: 1 game(s) failed\n")
    assert said[-1] == "gelly: failed: 1 game(s) failed"
    assert plans.planned_games(folder) == {"no-rave": 20, "gelly": 20}  # the plan is stored


def test_the_strong_record_is_the_dated_one_not_another_engines(tmp_path):
    for name in ("strong9-2026-11-26", "strong9-plain-2026-11-28"):
        (tmp_path / "go_state_tabu" / name).mkdir(parents=True)
    assert strong_record.find(tmp_path).name == "strong9-2026-11-26"


@pytest.mark.usefixtures("gnugo_executable")
def test_a_real_plan_on_5x5_is_played_interleaved_and_resumed(tmp_path, capsys):
    """Two rows of GNU Go level 0 against itself on 5x5, 4 games two at a time; run again,
    nothing is played; asked for fewer games, only the summaries are rewritten."""
    folder = tmp_path / "tiny"
    plans.save(plans.Plan("", 5, ("--size", "5", "--komi", "0.5", "--opponent-level", "0",
                                  "--referee-level", "0"),
                          (plans.Row("a", ("--candidate", "gnugo", "--candidate-level", "0"), 4),
                           plans.Row("b", ("--candidate", "gnugo", "--candidate-level", "1"), 4)),
                          step=2), folder)
    assert mctslab_cli.main(["go", "plan", "run", str(folder)]) == 0
    said = capsys.readouterr().out
    assert [line.split(" (")[0] for line in said.splitlines()] == [
        "a: to 2 games", "b: to 2 games", "a: to 4 games", "b: to 4 games"]
    stores = {row: next(iter(match_record.match_stores(folder / row))) for row in "ab"}
    before = {row: (s / "results.jsonl").read_bytes() for row, s in stores.items()}
    assert all(len(text.splitlines()) == 4 for text in before.values())
    assert json.loads((folder / "a" / "summary.json").read_text())["games"] == 4
    assert mctslab_cli.main(["go", "plan", "run", str(folder)]) == 0
    assert capsys.readouterr().out == ""  # complete: nothing played, nothing rewritten
    assert mctslab_cli.main(["go", "plan", "run", str(folder), "a", "--games", "2"]) == 0
    assert json.loads((folder / "a" / "summary.json").read_text())["games"] == 2
    assert {row: (s / "results.jsonl").read_bytes() for row, s in stores.items()} == before


def test_the_pieces_protocols_control_row_is_the_plain_rule_validation(tmp_path):
    """``pieces9``'s control row plays the games stored in strong9-plain-2026-11-28/full (the
    same task ids: copied into a pieces9 record, they are found, not replayed); its other rows
    add one optional piece each, or all three."""
    folder = tmp_path / "pieces9-2026-11-29"
    plan = plans.load(folder)
    assert plan.protocol == "pieces9" and plan.seed == plans.MATCH_SEED
    assert [r.name for r in plan.rows] == [plans.CONTROL, *plans.PIECE_ROWS]
    assert all(r.games == 200 for r in plan.rows)
    assert plan.row("pieces").flags == ("--ladders", "all", "--lgrf", "--large-patterns", "100")
    assert "--pass-rule" not in plan.match  # today's engine: the plain rule
    validation = ROOT / "strong9-plain-2026-11-28" / plans.CONTROL
    ids = _stored_ids(validation)
    argv = plans.match_argv(plan, plans.CONTROL, len(ids), folder / plans.CONTROL)
    assert {task.id for task in match_tasks(argv)} == set(ids)
    large = plans.match_argv(plan, "large-patterns", 4, folder / "large-patterns")
    assert not {task.id for task in match_tasks(large)} & set(ids)
    assert plans.ABLATION == tuple(r for r in plans.STRONG_ROWS
                                   if r != plans.CONTROL and r not in plans.PIECE_ROWS)
