"""Every paper notebook: hygiene (thin, parameterised, stripped) and a real run at scale=smoke."""

import ast
import json
import re
import subprocess
from pathlib import Path

import nbformat
import pandas as pd
import pytest

from mctslab.core import targets
from mctslab.core.varying import VARIES, declared
from tests.notebooks.conftest import reproduce, table_differences

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
STANDARD = ("scale", "seed", "workers", "scheduler", "out")
FORBIDDEN = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.For,
             ast.While, ast.AsyncFor, ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp)

# Figure hygiene (mctslab.core.figcheck) and figures in the HTML report are asserted for every
# notebook listed here as an exception none is (Go's figures display since they take pyplot from
# mctslab.core.plotting, like every other domain's).
FIGURE_CHECKS_ELSEWHERE: set[str] = set()

pytestmark = pytest.mark.skipif(not NOTEBOOKS, reason="no notebooks in notebooks/ yet")


def _ids(paths):
    return [p.stem for p in paths]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_notebook_is_thin_parameterised_and_stripped(path):
    nb = nbformat.read(path, as_version=4)
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"
    assert nb.cells[0].cell_type == "markdown", "first cell: the paper and what is regenerated"
    tagged = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1, "exactly one cell tagged 'parameters'"
    params = ast.parse(tagged[0].source)
    names = []
    for node in params.body:
        assert isinstance(node, (ast.Assign, ast.AnnAssign)), "parameters: assignments only"
        value = node.value
        ast.literal_eval(value)  # annotated literals only
        target = node.targets[0] if isinstance(node, ast.Assign) else node.target
        names.append(target.id)
    assert set(STANDARD) <= set(names), f"standard parameters missing: {set(STANDARD) - set(names)}"
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        assert not cell.get("outputs"), "commit notebooks with outputs stripped"
        assert cell.get("execution_count") is None
        for node in ast.walk(ast.parse(cell.source)):
            assert not isinstance(node, FORBIDDEN), (
                f"{path.name}: no {type(node).__name__} in notebooks (logic lives in mctslab): "
                f"{cell.source[:80]!r}")


def _unshown_tables(source: str) -> list[str]:
    """The ``run.table(...)`` calls of a cell whose table is not the cell's value (the cell
    neither ends in the call nor in the name it was assigned to), so no reader sees it."""
    tree = ast.parse(source)
    last = tree.body[-1] if tree.body else None
    shown_value = last.value if isinstance(last, ast.Expr) else None
    unshown = []
    for statement in tree.body:
        for node in ast.walk(statement):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "table" and getattr(node.func.value, "id", "") == "run"):
                continue
            names = {t.id for t in getattr(statement, "targets", []) if isinstance(t, ast.Name)}
            if node is shown_value or (isinstance(shown_value, ast.Name)
                                       and shown_value.id in names):
                continue
            unshown.append(ast.unparse(node)[:80])
    return unshown


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_every_saved_table_is_shown_in_the_report(path):
    """A table is saved and shown in one cell (the reader of reports/<notebook>.html sees every
    CSV the notebook writes; tests/notebooks/test_report_pages.py checks the rendered page)."""
    nb = nbformat.read(path, as_version=4)
    unshown = [call for cell in nb.cells if cell.cell_type == "code"
               for call in _unshown_tables(cell.source)]
    assert unshown == [], f"{path.name}: end the cell with each saved table: {unshown}"


def test_the_shown_table_rule_can_fail():
    assert _unshown_tables("t = run.table(df, 'a')\nrun.figure(f(t), 'a')") != []
    assert _unshown_tables("run.table(df, 'a')\nrun.table(df, 'b')") != []
    assert _unshown_tables("t = run.table(df, 'a')\nt") == []
    assert _unshown_tables("run.table(df, 'a')") == []


_BENCH_LINK = re.compile(r"\[[^\]]*\]\((\.\./docs/bench/[^)#\s]+\.md)(?:#([^)\s]+))?\)")
_RECORDED = re.compile(r"recorded (\d{4}-\d{2}-\d{2}), commit ([0-9a-f]{7,40})")


def _anchors(markdown: Path) -> set[str]:
    """GitHub's anchors of a Markdown file's headings."""
    anchors = set()
    for line in markdown.read_text().splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            anchors.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return anchors


def _commit_known(commit: str):
    """Whether git knows ``commit`` (None when this is no full git checkout)."""
    try:
        shallow = subprocess.run(["git", "rev-parse", "--is-shallow-repository"], cwd=ROOT,
                                 capture_output=True, text=True, timeout=10)
        if shallow.returncode or shallow.stdout.strip() != "false":
            return None
        return subprocess.run(["git", "cat-file", "-e", f"{commit}^{{commit}}"], cwd=ROOT,
                              capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return None


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_recorded_numbers_are_linked_with_date_and_commit(path):
    """Numbers in a notebook come from its run; a longer recorded run lives in docs/bench/ and
    is linked as "recorded <date>, commit <hash>: [docs/bench/x.md § ...](../docs/bench/x.md#...)"
    (ARCHITECTURE, notebook checklist). Each such link must resolve to a file and heading."""
    nb = nbformat.read(path, as_version=4)
    for cell in (c for c in nb.cells if c.cell_type == "markdown"):
        for line in cell.source.splitlines():
            links = list(_BENCH_LINK.finditer(line))
            bare = _BENCH_LINK.sub("", line)
            assert not re.search(r"docs/bench/\w+\.md", bare), (
                f"{path.name}: cite docs/bench as a dated link, not as text: {line[:120]!r}")
            for link in links:
                recorded = list(_RECORDED.finditer(line[:link.start()]))
                assert recorded, f"{path.name}: no 'recorded <date>, commit <hash>' before {link[0]}"
                target = (path.parent / link[1]).resolve()
                assert target.is_file(), f"{path.name}: {link[1]} does not exist"
                if link[2]:
                    assert link[2] in _anchors(target), f"{path.name}: no heading #{link[2]} in {link[1]}"
                assert _commit_known(recorded[-1][2]) in (True, None), (
                    f"{path.name}: commit {recorded[-1][2]} is not in this repository")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_notebook_runs_at_smoke_scale(path, smoke_run):
    tmp_path, done = smoke_run(path.stem)
    assert done.returncode == 0, done.stdout + done.stderr
    folder = tmp_path / "figures" / path.stem
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["status"] == "complete"
    assert manifest["scale"] == "smoke"
    artefacts = manifest["artefacts"]
    assert any(a["kind"] == "figure" for a in artefacts.values()), "no figure saved"
    assert any(a["kind"] == "table" for a in artefacts.values()), "no table saved"
    listed = {"manifest.json"}
    for stem, artefact in artefacts.items():
        assert artefact["caption"], f"{stem}: no caption"
        for name in artefact["files"]:
            assert (folder / name).stat().st_size > 0, f"{stem}: {name} missing or empty"
            listed.add(name)
        table = Path(artefact["files"][0]).stem
        if artefact["kind"] == "table" and declared(path.stem, table):  # says so in its caption
            assert "vary from run to run" in artefact["caption"], stem
        if artefact["kind"] == "figure" and path.stem not in FIGURE_CHECKS_ELSEWHERE:
            assert artefact["checks"] == [], f"{stem}: {artefact['checks']}"
    assert {p.name for p in folder.iterdir() if p.is_file()} == listed, "files the manifest does not list"
    assert (tmp_path / "reports" / f"{path.stem}.ipynb").exists()
    page = (tmp_path / "reports" / f"{path.stem}.html").read_text()
    figures = [a for a in artefacts.values() if a["kind"] == "figure"]
    if path.stem not in FIGURE_CHECKS_ELSEWHERE:  # Go's figure cells show no PNG (text only)
        assert page.count("data:image/png;base64") >= len(figures), "a figure missing from the HTML"
    assert "About this run (from its manifest.json)" in page
    assert f'href="{path.stem}.html"' in (tmp_path / "reports" / "index.html").read_text()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_the_smoke_runs_scorecard_matches_every_comparison_to_a_target(path, smoke_run):
    """Every row of the notebook's paper_vs_run table has its target (mctslab/<domain>/
    targets.csv, the same paper value: the value judged is the value shown), one row per
    target, and the run ended with the scorecard (core.scorecard)."""
    out, done = smoke_run(path.stem)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "scorecard of" in done.stdout
    card = pd.read_csv(out / "figures" / "scorecard.csv", keep_default_na=False)
    mine = card[card.paper == path.stem]
    assert not mine.note.str.startswith("no target").any(), \
        mine[mine.note.str.startswith("no target")][["artefact", "row", "column"]]
    compared = pd.read_csv(out / "figures" / path.stem / "paper_vs_run.csv",
                           keep_default_na=False)
    assert len(mine) >= len(compared)
    for row in compared.itertuples():
        target = mine[(mine.artefact == row.artefact) & (mine.row == row.row)
                      & (mine.column == row.column)]
        assert len(target) == 1, (row.artefact, row.row, row.column)
        ours, theirs = str(row.paper_value), str(target.paper_value.iloc[0])
        try:
            assert float(ours) == float(theirs), (row.artefact, row.row, row.column)
        except ValueError:
            assert ours == theirs, (row.artefact, row.row, row.column)
    assert len(mine) == len(targets.load(path.stem))  # one scorecard row per target
    assert 'href="../figures/scorecard.html"' in (out / "reports" / "index.html").read_text()


@pytest.mark.reruns
@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_same_seed_same_tables(path, smoke_run, tmp_path):
    """The README's claim: a second run from an empty store writes the same tables, except the
    columns mctslab.core.varying declares (timings, and TSP's time-budgeted results)."""
    first, done = smoke_run(path.stem)
    assert done.returncode == 0, done.stdout + done.stderr
    again = reproduce(path.stem, tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr
    assert table_differences(path.stem, first, tmp_path) == []


# A column named like a time (seconds, s/game, ms, CPU hours, per second, wall...) is measured
# and so varies between runs: core.varying must declare it, unless it is empty or listed here
# with why it cannot vary. test_same_seed_same_tables catches an undeclared one only when the
# two runs' timings happen to round apart (a fresh clone's CI found Table 4's 's per search'
# that way); this check fails on the name, every run.
TIMING_NAME = re.compile(r"seconds|\bs per\b|\bs/|\bms\b|ms_|_ms\b|/s\b|per_second|cpu|"
                         r"hours|\btime\b|\bwall\b", re.IGNORECASE)
CONSTANT_TIMINGS = {
    ("go_state_tabu", "fig6_thinking_time", "paper difference s/game"): "the paper's number",
    ("go_state_tabu", "strong_tabu", "CPU h needed"): "read from a committed record",
    ("go_state_tabu", "strong_validation", "CPU s/game (ours)"): "read from a committed record",
    ("go_state_tabu", "strong_validation", "CPU s/game (GNU Go)"): "read from a committed record",
}


def undeclared_timings(stem: str, folder: Path) -> list[str]:
    """Columns of ``folder``'s CSV tables named like a time, with a value, that neither
    core.varying declares nor CONSTANT_TIMINGS explains."""
    missing = []
    for table in sorted(folder.glob("*.csv")):
        frame = pd.read_csv(table, keep_default_na=False, dtype=str)
        varies = declared(stem, table.stem)
        for column in frame.columns:
            if not TIMING_NAME.search(column) or (stem, table.stem, column) in CONSTANT_TIMINGS:
                continue
            if varies is not None and (varies.columns == ("*",) or column in varies.columns):
                continue
            if (frame[column] != "").any():
                missing.append(f"{table.name}: {column!r}")
    return missing


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_every_timing_column_is_declared(path, smoke_run):
    out, done = smoke_run(path.stem)
    assert done.returncode == 0, done.stdout + done.stderr
    assert undeclared_timings(path.stem, out / "figures" / path.stem) == []


def test_the_timing_rule_can_fail(tmp_path):
    pd.DataFrame({"L": [1], "s per search": [0.5]}).to_csv(tmp_path / "made_up.csv", index=False)
    pd.DataFrame({"L": [1], "unit_cpu_s": [""]}).to_csv(tmp_path / "empty.csv", index=False)
    assert undeclared_timings("go_state_tabu", tmp_path) == ["made_up.csv: 's per search'"]


def _saved_tables(path) -> set[str]:
    nb = nbformat.read(path, as_version=4)
    return {node.args[1].value for cell in nb.cells if cell.cell_type == "code"
            for node in ast.walk(ast.parse(cell.source))
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "table"
            and len(node.args) > 1 and isinstance(node.args[1], ast.Constant)}


def test_every_declared_table_exists():
    """A declaration in mctslab.core.varying names a table some notebook saves (no stale ones)."""
    saved = {(p.stem, stem) for p in NOTEBOOKS for stem in _saved_tables(p)}
    assert set(VARIES) <= saved, sorted(set(VARIES) - saved)


def test_no_declared_timing_is_measured_outside_a_task():
    """Every measurement is a stored task (mctslab.core.varying's docstring): no declaration
    says a time is measured in the notebook, and Many Faces' name the tasks that measure them."""
    from mctslab.manyfaces import measures

    assert [key for key, varies in VARIES.items() if "notebook" in varies.why] == []
    assert "in each cost task" in VARIES[("manyfaces_knowledge", "pattern_cost_chain")].why
    assert "in each replay task" in VARIES[("manyfaces_knowledge", "time_shares")].why
    assert callable(measures.cost_task) and callable(measures.time_share_task)


# Each paper notebook and the experiments module whose Config its parameters cell fills
# (Go's notebook is the Go lead's: it still hands every parameter to config by name).
CONFIGURED = {"othello_wpc_de": "mctslab.othello.experiments",
              "sudoku_less_clue": "mctslab.sudoku.experiments",
              "tsp_mcts_vs_sa": "mctslab.tsp.experiments",
              "manyfaces_knowledge": "mctslab.manyfaces.experiments"}


@pytest.mark.parametrize("stem", sorted(CONFIGURED))
def test_notebook_exposes_and_passes_every_config_field(stem):
    """Every Config field is a parameter of its own, and the set-up cell builds the Config from
    the parameters cell (``notebook_config(experiments, globals())``): a parameter
    is written once in the notebook and once in the domain."""
    import dataclasses
    import importlib

    experiments = importlib.import_module(CONFIGURED[stem])
    nb = nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", as_version=4)
    cell = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    names = {(n.targets[0] if isinstance(n, ast.Assign) else n.target).id
             for n in ast.parse(cell.source).body}
    fields = {f.name for f in dataclasses.fields(experiments.Config)}
    assert names == fields | set(STANDARD)
    for line in cell.source.splitlines():  # papermill's inspection drops a line with a second "="
        if line.startswith("# "):  # a longer explanation above a parameter: papermill skips it
            continue
        assert line.count("=") == 1 and " # " in line, line
    calls = [n for c in nb.cells if c.cell_type == "code" for n in ast.walk(ast.parse(c.source))
             if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "notebook_config"]
    assert len(calls) == 1
    assert ast.unparse(calls[0]) == "notebook_config(experiments, globals())"
    configs = [n for c in nb.cells if c.cell_type == "code" for n in ast.walk(ast.parse(c.source))
               if isinstance(n, ast.Call) and getattr(n.func, "attr", None) == "config"]
    assert not configs, "the Config comes from notebook_config only"
