"""Run (figures, tables, manifest) and the papermill pipeline on a toy notebook."""

import json
import re
import subprocess
import sys
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import nbformat  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import mctslab  # noqa: E402
from mctslab import cli, pipeline  # noqa: E402
from mctslab.core.params import positive_int  # noqa: E402
from mctslab.core.report import Run  # noqa: E402
from mctslab.core.tasks import make_tasks  # noqa: E402
from tests.core.demo import importable_env  # noqa: E402


def test_run_saves_figures_tables_and_manifest(tmp_path):
    run = Run("toy", {"n": 3}, scale="smoke", seed=1, workers=1, out=tmp_path)
    fig, ax = plt.subplots()
    ax.plot([1, 2, 3])
    fig.suptitle("Fig. 1")
    run.figure(fig, "fig1", caption="a line")
    df = run.table(pd.DataFrame({"a": [1, 2]}), "table1")
    assert list(df["a"]) == [1, 2]
    results = run.map("toy_squares", make_tasks("tests.core.demo:square_with_noise",
                                                [{"x": 2}], seed=1))
    assert results[0]["square"] == 4
    folder = tmp_path / "figures" / "toy"
    for name in ("fig1.png", "fig1.pdf", "table1.csv", "manifest.json"):
        assert (folder / name).stat().st_size > 0
    assert fig._suptitle.get_text() == "Fig. 1 (scale: smoke)"
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["scale"] == "smoke" and manifest["parameters"] == {"n": 3}
    assert set(manifest["artefacts"]) == {"fig1", "table1"}
    assert manifest["experiments"]["toy_squares"]["tasks"] == 1
    assert manifest["dependencies"]["numpy"]
    assert "commit" in manifest["git"]


def test_manifest_counts_every_map_call_of_an_experiment(tmp_path):
    """Two calls with overlapping tasks: distinct tasks, what this run computed, the rest stored."""
    tasks = make_tasks("tests.core.demo:square_with_noise", [{"x": x} for x in range(4)], seed=1)
    Run("toy", {}, scale="smoke", workers=1, out=tmp_path, progress=False).map("toy_sq", tasks[:1])
    run = Run("toy", {}, scale="smoke", workers=1, out=tmp_path, progress=False)
    run.map("toy_sq", tasks[:3])          # task 0 stored by the earlier run; 1 and 2 run now
    assert run.manifest["experiments"]["toy_sq"]["ran"] == 2
    run.map("toy_sq", tasks[1:])          # 1 and 2 stored by the call above; 3 runs now
    counts = run.manifest["experiments"]["toy_sq"]
    assert {k: counts[k] for k in ("tasks", "already_stored", "ran", "calls")} == {
        "tasks": 4, "already_stored": 1, "ran": 3, "calls": 2}
    manifest = json.loads((tmp_path / "figures" / "toy" / "manifest.json").read_text())
    assert manifest["experiments"]["toy_sq"] == counts


def test_paper_scale_figures_are_not_labelled(tmp_path):
    run = Run("toy", scale="paper", out=tmp_path)
    fig, _ = plt.subplots()
    run.figure(fig, "plain")
    assert fig._suptitle is None or "scale" not in fig._suptitle.get_text()


def test_run_rejects_unknown_scale(tmp_path):
    with pytest.raises(ValueError, match="unknown scale 'huge'"):
        Run("toy", scale="huge", out=tmp_path)


TOY_CELLS = [
    ("markdown", "# Toy notebook\nRegenerates one table."),
    ("parameters", 'scale = "default"  # smoke | default | paper\nseed = 1  # experiment seed\n'
                   'workers = None  # local processes\nscheduler = None  # Dask address\n'
                   'out = None  # output root\nsize = 3  # number of tasks'),
    ("code", "import pandas as pd\nfrom mctslab.core.report import Run\n"
             "from mctslab.core.tasks import make_tasks\n"
             "run = Run('toy', {'size': size}, scale=scale, seed=seed, workers=workers, "
             "scheduler=scheduler, out=out)"),
    ("code", "results = run.map('toy', make_tasks('tests.core.demo:square_with_noise', "
             "[{'x': i} for i in range(size)], seed))\n"
             "run.table(pd.DataFrame(list(results)), 'squares')"),
    ("code", "print('toy stdout marker')"),
]


@pytest.fixture
def toy_project(tmp_path, monkeypatch):
    project = tmp_path / "project"
    (project / "notebooks").mkdir(parents=True)
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for kind, source in TOY_CELLS:
        if kind == "markdown":
            nb.cells.append(nbformat.v4.new_markdown_cell(source))
        else:
            cell = nbformat.v4.new_code_cell(source)
            if kind == "parameters":
                cell.metadata["tags"] = ["parameters"]
            nb.cells.append(cell)
    nbformat.write(nb, project / "notebooks" / "toy.ipynb")
    monkeypatch.setenv("MCTSLAB_HOME", str(project))
    monkeypatch.setenv("MCTSLAB_PROGRESS", "0")
    # the notebook's kernel imports the test-only task functions (tests/core/demo.py)
    monkeypatch.setenv("PYTHONPATH", importable_env()["PYTHONPATH"])
    return project


def test_pipeline_lists_and_validates(toy_project):
    assert list(pipeline.notebooks()) == ["toy"]
    params = pipeline.parameters("toy")
    assert params["size"]["default"] == "3" and params["size"]["help"] == "number of tasks"
    assert pipeline.validate([], "smoke", {"size": 2}) == ["toy"]
    with pytest.raises(KeyError, match="unknown notebook"):
        pipeline.validate(["nope"], "smoke", {})
    with pytest.raises(ValueError, match="unknown scale"):
        pipeline.validate(["toy"], "enormous", {})
    with pytest.raises(KeyError, match="no parameter.*'colour'"):
        pipeline.validate(["toy"], "smoke", {"colour": 1})


def test_cli_errors_before_running_anything(toy_project, capsys):
    assert cli.main(["reproduce", "nope", "--scale", "smoke"]) == 2
    assert "unknown notebook" in capsys.readouterr().err
    assert cli.main(["reproduce", "toy", "--scale", "huge"]) == 2
    assert cli.main(["reproduce", "toy", "-p", "colour", "red"]) == 2
    assert "colour" in capsys.readouterr().err
    assert not (toy_project / "reports").exists()


def toy_config(scale, size=None):
    """Stands in for a domain's ``experiments.config``: rejects a bad ``size``."""
    if size is not None:
        positive_int("size", size)
    return {"scale": scale, "size": size}


def test_validate_checks_values_through_the_domain_config(toy_project, monkeypatch):
    monkeypatch.setitem(pipeline.CONFIGS, "toy", toy_config)
    # seed, workers and scheduler are not passed on to this config (it would reject them)
    assert pipeline.validate(["toy"], "smoke", {"size": 2, "seed": 3, "workers": 1}) == ["toy"]
    with pytest.raises(ValueError, match="notebook 'toy': size must be a positive integer, got -1"):
        pipeline.validate(["toy"], "smoke", {"size": -1})
    with pytest.raises(ValueError, match="seed must be an integer >= 0"):
        pipeline.validate(["toy"], "smoke", {"seed": -1})
    with pytest.raises(ValueError, match="workers must be a positive integer"):
        pipeline.validate(["toy"], "smoke", {"workers": 0})
    with pytest.raises(ValueError, match="scheduler must be an address"):
        pipeline.validate(["toy"], "smoke", {"scheduler": 8786})


def test_cli_rejects_bad_values_before_running_anything(toy_project, monkeypatch, capsys):
    monkeypatch.setitem(pipeline.CONFIGS, "toy", toy_config)
    assert cli.main(["reproduce", "toy", "--scale", "smoke", "-p", "size", "-1"]) == 2
    assert "size must be a positive integer" in capsys.readouterr().err
    for workers in ("0", "-3", "two"):
        with pytest.raises(SystemExit) as exit_info:
            cli.main(["reproduce", "toy", "--scale", "smoke", "--workers", workers])
        assert exit_info.value.code == 2
        assert "--workers" in capsys.readouterr().err
    assert not (toy_project / "reports").exists()


def test_every_notebook_has_a_value_check():
    """The real notebooks: each has a config function, which knows every notebook parameter
    (None: "from the scale") and rejects a bad value."""
    found = pipeline.notebooks()
    assert set(found) <= set(pipeline.CONFIGS), "add the notebook to pipeline.CONFIGS"
    for name in found:
        everything = {key: None for key in pipeline.parameters(name)
                      if key not in ("scale", "out")}
        pipeline.check_values(name, "smoke", everything)
    if "tsp_mcts_vs_sa" in found:
        with pytest.raises(ValueError, match="'tsp_mcts_vs_sa': replicates must be a positive"):
            pipeline.validate(["tsp_mcts_vs_sa"], "smoke", {"replicates": -1})
    for name in found:  # the seed is the Run's in every notebook, checked once for all
        pipeline.validate([name], "smoke", {"seed": 7})
    with pytest.raises(ValueError, match="seed must be an integer >= 0"):
        pipeline.validate(list(found), "smoke", {"seed": -1})


def test_reproduce_passes_the_kernel_progress_on_and_keeps_it_out_of_the_report(
        toy_project, tmp_path, monkeypatch, capfd):
    """The executor's tqdm bar runs in the kernel; it must reach the terminal (this process's
    stderr, at the descriptor level), and neither the executed notebook nor its HTML page;
    the cells' stdout stays in the executed notebook, the kernel's own log lines in its log."""
    monkeypatch.setenv("MCTSLAB_PROGRESS", "1")  # the kernel inherits the environment
    outcomes = pipeline.reproduce(["toy"], "smoke", {"size": 2}, workers=1, out=tmp_path,
                                  progress=True)
    assert outcomes[0].ok, outcomes[0].error
    captured = capfd.readouterr()
    assert re.search(r"toy: 100%.*2/2", captured.err), captured.err[-2000:]
    assert "toy stdout marker" not in captured.out + captured.err
    assert "without encryption" not in captured.err and "IPKernelApp" not in captured.err
    report = (tmp_path / "reports" / "toy.ipynb").read_text()
    assert "toy stdout marker" in report
    for page in ("toy.ipynb", "toy.html"):
        text = (tmp_path / "reports" / page).read_text()
        assert "%|" not in text and "2/2 [" not in text, page
    assert (tmp_path / "reports" / "toy.kernel.log").exists()


def test_quiet_reproduce_passes_nothing_on(toy_project, tmp_path, monkeypatch, capfd):
    monkeypatch.setenv("MCTSLAB_PROGRESS", "1")
    outcomes = pipeline.reproduce(["toy"], "smoke", {"size": 2}, workers=1, out=tmp_path,
                                  progress=False)
    assert outcomes[0].ok, outcomes[0].error
    assert "2/2" not in capfd.readouterr().err
    assert "2/2 [" not in (tmp_path / "reports" / "toy.ipynb").read_text()


def test_reproduce_executes_into_out_dir(toy_project, tmp_path):
    out = tmp_path / "elsewhere"
    outcomes = pipeline.reproduce(["toy"], "smoke", {"size": 2}, workers=1, out=out,
                                  progress=False)
    assert outcomes[0].ok, outcomes[0].error
    assert (out / "reports" / "toy.ipynb").exists()
    table = pd.read_csv(out / "figures" / "toy" / "squares.csv")
    assert list(table["square"]) == [0, 1]
    manifest = json.loads((out / "figures" / "toy" / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["scale"] == "smoke"
    assert manifest["parameters"] == {"size": 2}
    assert (out / "data" / "results" / "toy" / "results.jsonl").exists()


def test_console_script_lists_notebooks(toy_project):
    done = subprocess.run([sys.executable, "-m", "mctslab.cli", "list"], capture_output=True,
                          text=True, check=True)
    assert "toy" in done.stdout and "size" in done.stdout


def test_a_notebook_failing_before_its_run_leaves_the_previous_manifest_alone(toy_project,
                                                                               tmp_path):
    out = tmp_path / "out"
    assert pipeline.reproduce(["toy"], "smoke", {"size": 2}, workers=1, out=out,
                              progress=False)[0].ok
    path = out / "figures" / "toy" / "manifest.json"
    before = json.loads(path.read_text())
    assert before["status"] == "complete"
    # the same notebook, now failing before it creates its Run
    nb_path = toy_project / "notebooks" / "toy.ipynb"
    nb = nbformat.read(nb_path, as_version=4)
    nb.cells[2].source = "assert size != 5, 'fails before Run'\n" + nb.cells[2].source
    nbformat.write(nb, nb_path)
    time.sleep(1.1)  # manifests carry times to the second
    outcome = pipeline.reproduce(["toy"], "smoke", {"size": 5}, workers=1, out=out,
                                 progress=False)[0]
    assert not outcome.ok and "fails before Run" in outcome.error
    assert json.loads(path.read_text()) == before  # not marked failed, not re-timed
    # a run that does create its manifest is still updated at the end
    assert pipeline.reproduce(["toy"], "smoke", {"size": 3}, workers=1, out=out,
                              progress=False)[0].ok
    after = json.loads(path.read_text())
    assert after["status"] == "complete" and after["parameters"] == {"size": 3}
    assert after["started"] >= before["finished"]


def test_command_line_values_are_literals_and_a_tuple_reaches_papermill_as_a_list():
    from papermill.translators import PythonTranslator

    assert pipeline.parse_value("3") == 3 and pipeline.parse_value("None") is None
    assert pipeline.parse_value("true") is True and pipeline.parse_value("drop") == "drop"
    value = pipeline.parse_value("(10, 64)")
    assert value == [10, 64]
    assert PythonTranslator.translate(value) == "[10, 64]"  # not the string "(10, 64)"


def test_manifest_records_checksums_captions_machine_and_every_dependency(tmp_path):
    import hashlib

    run = Run("toy", {}, scale="smoke", out=tmp_path, progress=False)
    fig, ax = plt.subplots()
    ax.set_title("squares")
    run.figure(fig, "fig1")                                     # caption from its titles
    run.table(pd.DataFrame({"a": [1]}), "table1", caption="one row")
    run.save_text("x\n", "notes.txt")
    folder = tmp_path / "figures" / "toy"
    manifest = json.loads((folder / "manifest.json").read_text())
    for artefact in manifest["artefacts"].values():
        assert artefact["caption"], artefact
        for name in artefact["files"]:
            assert artefact["sha256"][name] == hashlib.sha256((folder / name).read_bytes()).hexdigest()
    assert manifest["artefacts"]["fig1"]["caption"] == "squares (scale: smoke)"
    assert manifest["artefacts"]["table1"]["caption"] == "one row"
    assert manifest["platform"]["cpu_model"] and manifest["platform"]["cpus"] >= 1
    # every runtime requirement of the package's metadata (sgfmill and pooch were once missing),
    # and what an extra pulls in (dask[distributed])
    for name in ("numpy", "sgfmill", "pooch", "elkai", "papermill", "dask", "distributed"):
        assert manifest["dependencies"][name], name
    assert manifest["started"][:10] == run.date
    pdf = (folder / "fig1.pdf").read_bytes()
    commit = manifest["git"]["commit"]
    if commit:
        assert commit.encode() in pdf and commit.encode() in (folder / "fig1.png").read_bytes()
    assert b"/CreationDate" not in pdf  # same figure, same bytes


def test_a_finished_run_removes_what_it_did_not_write(tmp_path):
    first = Run("toy", {}, scale="smoke", out=tmp_path, progress=False)
    first.table(pd.DataFrame({"a": [1]}), "old_table", caption="from an earlier version")
    first.table(pd.DataFrame({"a": [1]}), "kept", caption="kept")
    first.finish()
    second = Run("toy", {}, scale="smoke", out=tmp_path, progress=False)
    second.table(pd.DataFrame({"a": [2]}), "kept", caption="kept")
    second.finish()
    folder = tmp_path / "figures" / "toy"
    assert sorted(p.name for p in folder.iterdir()) == ["kept.csv", "manifest.json"]
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["removed_stale"] == ["old_table.csv"]


def test_a_table_and_a_figure_may_share_a_stem_and_both_are_kept(tmp_path):
    import matplotlib.pyplot as plt

    run = Run("toy", {}, scale="smoke", out=tmp_path, progress=False)
    run.table(pd.DataFrame({"a": [1]}), "fig5", caption="Fig. 5 in numbers")
    fig, _ = plt.subplots()
    run.figure(fig, "fig5", caption="Fig. 5")
    run.finish()
    folder = tmp_path / "figures" / "toy"
    assert sorted(p.name for p in folder.iterdir()) == ["fig5.csv", "fig5.pdf", "fig5.png",
                                                         "manifest.json"]
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["removed_stale"] == []
    assert {a["kind"] for a in manifest["artefacts"].values()} == {"table", "figure"}


def test_a_failed_run_lists_the_stale_files(tmp_path):
    from mctslab.core.report import update_manifest

    first = Run("toy", {}, scale="smoke", out=tmp_path, progress=False)
    first.table(pd.DataFrame({"a": [1]}), "old_table", caption="earlier")
    first.finish()
    second = Run("toy", {}, scale="smoke", out=tmp_path, progress=False)
    assert update_manifest("toy", tmp_path, since=second.manifest["started"], status="failed")
    manifest = json.loads((tmp_path / "figures" / "toy" / "manifest.json").read_text())
    assert manifest["stale"] == ["old_table.csv"]
    assert (tmp_path / "figures" / "toy" / "old_table.csv").exists()


def test_untracked_files_make_the_checkout_dirty(tmp_path):
    from mctslab.core.report import git_commit

    def git(*args):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=tmp_path,
                       check=True, capture_output=True)

    git("init", "-q")
    (tmp_path / "a.py").write_text("x = 1\n")
    git("add", "a.py")
    git("commit", "-qm", "one")
    assert git_commit(tmp_path)["dirty"] is False
    (tmp_path / "new_module.py").write_text("y = 2\n")
    state = git_commit(tmp_path)
    assert state["dirty"] is True and state["changes"] == ["?? new_module.py"]


def test_figure_checks_name_what_a_reader_trips_over(tmp_path):
    from mctslab.core.figcheck import figure_problems

    fig, axes = plt.subplots(1, 2)
    axes[0].plot([1, 10], [1, 100])
    axes[0].set_yscale("log")
    axes[0].set_ylabel("length")                       # log, not said; no x label
    axes[1].imshow([[0, 1], [1, 0]])                    # a map without a colour bar
    problems = figure_problems(fig)
    assert "axes 0: no x label" in problems
    assert "axes 0: y axis is log and its label does not say so" in problems
    assert "axes 1: an image without a colour bar" in problems
    fig, ax = plt.subplots()
    ax.plot([1, 2], [1, 2])
    ax.set(xlabel="n", ylabel="score")
    twin = ax.twinx()                                   # a twin shares the labelled x axis
    twin.plot([1, 2], [3, 4])
    twin.set_ylabel("rating")
    ax.set_title("A title")
    assert figure_problems(fig) == []
    fig.suptitle("A suptitle drawn over the title", y=0.89)
    assert figure_problems(fig) == ["suptitle overlaps axes 0 title"]
    run = Run("toy", scale="paper", out=tmp_path)
    run.figure(fig, "twin", caption="twin axes")
    assert run.manifest["artefacts"]["twin"]["checks"] == ["suptitle overlaps axes 0 title"]


def test_no_project_found_is_one_clear_line(tmp_path, monkeypatch, capsys):
    """`pip install .` (not -e) used outside the checkout: say how the project is found."""
    monkeypatch.setenv("MCTSLAB_HOME", str(tmp_path))
    assert cli.main(["reproduce", "--scale", "smoke"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "no notebooks/ folder in" in err
    assert "MCTSLAB_HOME" in err and "pip install -e ." in err
    assert cli.main(["list"]) == 2


def test_the_kernels_are_compiled_first_once_per_domain(monkeypatch):
    """mctslab reproduce compiles the notebooks' kernels before running them, manyfaces with go
    (it runs on go's board), the largest group first; one worker compiles them in-process."""
    assert pipeline.warm_up_groups(["manyfaces_knowledge", "othello_wpc_de", "go_state_tabu"]) \
        == [("go", "manyfaces"), ("othello",)]
    assert pipeline.warm_up_groups(["manyfaces_knowledge"]) == [("manyfaces",)]
    assert pipeline.warm_up_groups(["toy"]) == []
    calls = []
    monkeypatch.setattr(mctslab, "warmup", lambda domains: calls.append(domains))
    pipeline.warm_up(["tsp_mcts_vs_sa", "sudoku_less_clue", "toy"], workers=1)
    assert calls == [("sudoku", "tsp")]
    pipeline.warm_up(["toy"], workers=2)
    assert calls == [("sudoku", "tsp")]


def test_a_stop_names_the_experiment_updated_last_even_within_one_second(tmp_path):
    """The one line a stopped run prints names the running experiment: the store whose
    progress.json was written last, by its nanosecond stamp when two share a second."""
    stores = tmp_path / "data" / "results"
    for name, ns in (("finished_first", 2), ("running", 3), ("earlier", 1)):
        (stores / name).mkdir(parents=True)
        (stores / name / "progress.json").write_text(json.dumps(
            {"experiment": name, "stored": 0, "total": 1, "updated": "2026-11-26T18:28:11+00:00",
             "updated_ns": ns}))
    found = pipeline._running_experiment(tmp_path, since="2026-11-26T18:00:00+00:00")
    assert found["experiment"] == "running"
    assert pipeline._running_experiment(tmp_path, since="2026-11-26T19:00:00+00:00") == {}
