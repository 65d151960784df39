"""The ``mctslab sudoku`` verbs and the experiment configuration / tables at smoke scale."""

from __future__ import annotations

import numpy as np
import pytest

from mctslab.cli import main
from mctslab.core.tasks import run_task
from mctslab.sudoku import api, experiments, figures, generator, tables

SEED = 20261122  # an experiment seed (the notebook's default)


def test_check_verb(tmp_path, capsys, puzzle17):
    path = tmp_path / "in.txt"
    many = np.where(np.arange(81) == np.flatnonzero(puzzle17)[0], 0, puzzle17)
    path.write_text("\n".join([api.format_puzzle(puzzle17), "12345", api.format_puzzle(many),
                               "11" + "." * 79]) + "\n")
    for backend in ("fast", "sat"):
        code = main(["sudoku", "check", str(path), "--backend", backend])
        out, err = capsys.readouterr()
        assert code == 1  # a bad line was reported
        assert "1: unique\n3: multiple\n4: none" in out
        assert "in.txt:2: not a puzzle" in err
        assert "3 puzzles, unique 1 (33.3%), multiple 1, none 1, not a puzzle 1" in out


def test_generate_verb(tmp_path, capsys):
    out_file = tmp_path / "found.txt"
    code = main(["sudoku", "generate", "--selection", "mean", "--playout", "random", "--no-rules",
                 "--playouts", "50", "--threshold", "5", "--seed", "3", "--puzzle-file",
                 str(out_file)])
    out, _ = capsys.readouterr()
    assert code == 0
    assert "random/mean/no-rules, 50 playouts" in out
    text = out_file.read_text()
    assert text.startswith("# mctslab sudoku generate")
    assert sum(int(line.split(":")[1]) for line in text.splitlines()
               if line.startswith("#   ")) <= 50


def test_generate_writes_every_distinct_puzzle_up_to_max_clues(tmp_path, capsys):
    from mctslab.sudoku.api import canonical_form, format_puzzle, parse_puzzle, read_puzzles

    out_file = tmp_path / "found.txt"
    argv = ["sudoku", "generate", "--playouts", "300", "--threshold", "5", "--seed", "1",
            "--max-clues", "30", "--puzzle-file", str(out_file)]
    assert main(argv) == 0
    text = out_file.read_text()
    histogram = {int(line.split(":")[0][1:]): int(line.split(":")[1])
                 for line in text.splitlines() if line.startswith("#   ")}
    boards, _, errors = read_puzzles(out_file)  # comment lines skipped, every puzzle readable
    assert not errors and 0 < len(boards) <= sum(v for k, v in histogram.items() if k <= 30)
    clues = [int(line.split()[1].split("=")[1]) for line in text.splitlines()
             if line.startswith("# clues=")]
    assert clues == sorted(clues) and max(clues) <= 30 and len(clues) == len(boards)
    assert [int((b != 0).sum()) for b in boards] == clues
    lines = [format_puzzle(b) for b in boards]
    assert len(set(lines)) == len(lines)  # distinct
    assert all(format_puzzle(canonical_form(parse_puzzle(p))) == p for p in lines)  # canonical
    assert f"{len(boards)} distinct puzzle(s) with at most 30 clues" in capsys.readouterr().out
    assert main(argv[:-4] + ["--max-clues", "16", "--puzzle-file", str(out_file)]) == 2
    assert "--max-clues must be in 17..81" in capsys.readouterr().err


def test_config_scales_and_errors():
    assert experiments.config("paper").table1_playouts == 1_000_000
    assert experiments.config("paper").table2_playouts == 3_000_000
    assert experiments.config("default", table1_seeds=None).table1_seeds == 4
    with pytest.raises(ValueError, match="unknown scale 'huge'"):
        experiments.config("huge")
    with pytest.raises(ValueError, match="unknown Sudoku parameter"):
        experiments.config("smoke", playout_budget=3)
    cfg = experiments.config("paper")
    assert len(experiments.table1_tasks(cfg, SEED)) == 32 and len(experiments.table2_tasks(cfg, SEED)) == 32


def test_smoke_tasks_build_every_table():
    cfg = experiments.config("smoke", table1_playouts=120, table2_playouts=120, removal_runs=60,
                             beyond_playouts=120)
    t1 = [run_task(t) for t in experiments.table1_tasks(cfg, SEED)[:2]]
    t2 = [run_task(t) for t in experiments.table2_tasks(cfg, SEED)[:2]]
    beyond = [run_task(t) for t in experiments.beyond_tasks(cfg, SEED)]
    removal = [run_task(t) for t in experiments.baseline_tasks(cfg, SEED)]
    table = tables.table1(t1)
    assert list(table["paper N=19"]) == [2337.5, 331.8]
    assert table["N=20"].notna().all()
    assert len(tables.table2(t2)) == 2  # smoke: one seed, so two (c, threshold) settings
    assert tables.baseline_table(removal)["runs"].iloc[0] == 60
    assert len(tables.yield_table(("t1", t1), ("beyond", beyond))) == 3
    assert set(tables.heuristic_table(("t1", t1))["clues"]) == {18, 19, 20}
    hunt = tables.hunt(("t1", t1), ("beyond", beyond))
    # 2 variants, their pool, beyond, the paper (its best combination's 4 runs, Sec. 5.1)
    assert list(hunt["runs"]) == [1, 1, 2, 1, 4]
    assert list(hunt["reading"])[2] == "all (2 readings)"
    finds = tables.finds17(("t1", t1))
    assert list(finds.columns)[-1] == "census"
    assert tables.puzzle_list(finds).startswith("# 0 distinct puzzle(s)")
    fake = dict(t1[0], raw=dict(t1[0]["raw"], puzzles=[
        dict(puzzle="." * 81, clues=17, playout=7, canonical="." * 81),
        dict(puzzle="." * 81, clues=18, playout=8, canonical="1" + "." * 80)]))
    table = tables.finds(("fake", [fake]), census=experiments.census_forms())
    assert list(table["clues"]) == [17, 18] and table["census"].iloc[0].startswith("not in")
    # a table reads no census itself: without one given, a 17 is unchecked
    assert tables.finds(("fake", [fake]))["census"].iloc[0] == "unchecked (no census)"
    known = (frozenset({bytes(81)}), "Royle 49,151")
    assert list(tables.finds(("fake", [fake]), census=known)["census"]) == ["known", "-"]
    assert figures.histogram_figure(tables.clue_histograms(t1)).axes


def test_removal_baseline_is_reproducible_and_minimal():
    cfg = experiments.config("smoke", removal_runs=40)
    task = experiments.baseline_tasks(cfg, SEED)[0]
    a, b = run_task(task), run_task(task)
    assert a["histogram"] == b["histogram"] and sum(a["histogram"]) == 40
    assert 20 <= np.dot(np.arange(82), a["histogram"]) / 40 <= 28  # issue: mean ~24.4
    for p in a["raw"]["puzzles"]:
        assert api.solve(p["puzzle"]).status == "unique"


# -- every quantity the paper varies is a notebook parameter -----------------------------------

def test_defaults_are_the_papers_and_a_variant_subset_reuses_the_full_tables_tasks():
    cfg = experiments.config("paper")
    assert (cfg.c, cfg.threshold, cfg.max_children, cfg.exploration_n) == (1.0, 30, 30, "total")
    assert cfg.table2_c == (0.5, 1.0) and cfg.table2_thresholds == (10, 20, 30, 40)
    assert cfg.variants == experiments.VARIANT_NAMES and len(set(cfg.variants)) == 8
    assert experiments.VARIANT_NAMES[0] == "reducing/min/rules"  # the paper's Table 1 order
    full = {t.id: t for t in experiments.table1_tasks(cfg, SEED)}
    some = experiments.table1_tasks(experiments.config("paper", variants=["random/mean/no-rules",
                                                                           "reducing/min/rules"]), SEED)
    assert len(some) == 8 and all(t.id in full for t in some)
    assert {(t.params["playout"], t.params["selection"], t.params["rules"]) for t in some} == {
        ("random", "mean", False), ("reducing", "min", True)}
    # an int literal for c is the same run as the float
    assert experiments.config("paper", c=1, table2_c=[0.5, 1]) == cfg


@pytest.mark.parametrize("name, value, key", [
    ("c", 0.5, "c"), ("threshold", 12, "threshold"), ("max_children", 7, "max_children"),
    ("exploration_n", "parent", "exploration_n"), ("reduce_upto", 19, "reduce_upto")])
def test_each_generation_parameter_reaches_the_table1_tasks(name, value, key):
    tasks = experiments.table1_tasks(experiments.config("smoke", **{name: value}), SEED)
    assert {t.params[key] for t in tasks} == {value}
    base = experiments.table1_tasks(experiments.config("smoke"), SEED)
    assert {t.id for t in tasks}.isdisjoint({t.id for t in base})


def test_table2_grid_is_a_parameter():
    tasks = experiments.table2_tasks(experiments.config("smoke", table2_c=[2.0], table2_thresholds=[5, 50]), SEED)
    assert [(t.params["c"], t.params["threshold"]) for t in tasks] == [(2.0, 5), (2.0, 50)]


def test_a_changed_parameter_changes_a_tiny_run():
    tiny = dict(table1_playouts=200, variants=["reducing/min/rules"])
    base = run_task(experiments.table1_tasks(experiments.config("smoke", **tiny), SEED)[0])
    other = run_task(experiments.table1_tasks(experiments.config("smoke", threshold=3, **tiny), SEED)[0])
    assert (base["config"]["threshold"], other["config"]["threshold"]) == (30, 3)
    # threshold 3 expands a leaf after 3 playouts instead of 30: the search itself changed
    assert other["stats"]["expansions"] > base["stats"]["expansions"]
    assert other["stats"]["nodes"] > base["stats"]["nodes"]


def test_reduced_counts_hold_only_re_verified_puzzles(monkeypatch, puzzle17):
    """Every reported puzzle is re-verified unique by python-sat before it is counted.

    A known 17-clue puzzle (minimal, so the post-hoc reduction keeps it as it is) is added to a
    tiny run's recorded boards. With the real verifier Tables 1 and 2 count it as a reduced 17;
    with a verifier that rejects it they must not, although the reduction histogram has it.
    """
    real_generate = experiments.generate

    def with_a_17(config, seed):
        result = real_generate(config, seed)
        result.boards = np.vstack([result.boards, puzzle17[None]])
        result.playout_of = np.append(result.playout_of, -1)
        return result

    monkeypatch.setattr(experiments, "generate", with_a_17)
    cfg = experiments.config("smoke", table1_playouts=100, table2_playouts=100)
    tasks = [(experiments.table1_tasks(cfg, SEED)[0], tables.table1),
             (experiments.table2_tasks(cfg, SEED)[0], tables.table2)]
    for task, table in tasks:
        accepted = run_task(task)
        assert table([accepted])["reduced N=17"].iloc[0] == 1
        assert accepted["stats"]["verify_failed_reduced"] == 0

    class Rejecting17(generator.SatSudoku):
        def check(self, board):
            return (2, None) if np.count_nonzero(board) == 17 else super().check(board)

    monkeypatch.setattr(generator, "SatSudoku", Rejecting17)
    for task, table in tasks:
        rejected = run_task(task)
        assert rejected["reduced_histogram"][17] == 1  # reduced, but not confirmed unique
        assert rejected["stats"]["verify_failed_reduced"] == 1
        assert table([rejected])["reduced N=17"].iloc[0] == 0
        assert rejected["reduced"]["distinct"]["17"] == {"count": 0, "distinct": 0,
                                                         "distinct_paper_heuristic": 0}
        assert all(p["clues"] != 17 for p in rejected["reduced"]["puzzles"])


@pytest.mark.parametrize("name, value, message", [
    ("c", -0.1, "c must be >= 0"),
    ("c", "1", "c must be a finite number"),
    ("threshold", 0, "threshold must be a positive integer"),
    ("max_children", 2.5, "max_children must be a positive integer"),
    ("exploration_n", "root", "exploration_n must be 'total' or 'parent'"),
    ("table2_c", [], "table2_c must be a non-empty list"),
    ("table2_c", [0.5, float("inf")], "table2_c must be a finite number"),
    ("table2_thresholds", [10, 0], "table2_thresholds must be a positive integer"),
    ("variants", ["reducing/max/rules"], "unknown variant.*'reducing/max/rules'.*choose from"),
    ("variants", ["random/min/rules", "random/min/rules"], "variants lists a variant twice"),
    ("table1_playouts", 0, "table1_playouts must be a positive integer"),
    ("removal_runs", 0, "removal_runs must be a positive integer"),
])
def test_config_names_a_bad_value(name, value, message):
    with pytest.raises(ValueError, match=message):
        experiments.config("smoke", **{name: value})
