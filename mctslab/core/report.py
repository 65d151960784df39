"""Saving a notebook's figures and tables with their provenance.

A :class:`Run` is created once per notebook execution. It

- runs the notebook's experiments (:meth:`Run.map`, through :func:`~mctslab.core.executor.run_tasks`
  with the notebook's ``workers`` / ``scheduler`` / ``out`` settings),
- saves every figure as PNG and PDF (:meth:`Run.figure`) and every table as CSV (:meth:`Run.table`)
  under ``<out>/figures/<notebook>/``,
- keeps ``manifest.json`` next to them up to date after every save: parameters, scale, seed,
  mctslab version, git commit, dependency versions, start / last-update time, task counts and
  the list of artefacts. ``mctslab reproduce`` adds the end time and status when the notebook ends.

A figure from a scale other than ``paper`` gets "(scale: <scale>)" appended to its suptitle, so a
reduced run can never be mistaken for the paper's protocol.

Every artefact has a caption (given by the notebook, else drawn from the figure's titles or the
table's name) and the sha256 of each of its files in the manifest; PNG and PDF metadata name the
notebook, scale, seed, version and commit. A run that finishes removes the files of its folder
it did not write (listed under ``removed_stale``), so the folder holds exactly what the manifest
lists; a run that fails leaves them and lists them under ``stale``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.metadata
import json
import os
import platform
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from mctslab import __version__, paths
from mctslab.core.display import shown
from mctslab.core.executor import ExperimentResults, run_tasks
from mctslab.core.figcheck import figure_problems
from mctslab.core.params import SCALES, check_scale, positive_int
from mctslab.core.plotting import plt
from mctslab.core.store import to_jsonable, utc_now, write_json
from mctslab.core.tasks import Task
from mctslab.core.varying import caption_note, declared

__all__ = ["Run", "SCALES", "check_scale", "git_commit", "dependency_versions", "scale_label",
           "merged_summary", "machine", "sha256"]


def git_commit(root: Path | None = None) -> dict:
    """The checkout's commit and whether it differs from it (``None`` outside git).

    ``dirty`` counts untracked files too (a new module the run imported is as much a change as
    an edited one); ``changes`` lists up to 20 of ``git status --porcelain``'s lines. Generated
    outputs are git-ignored, so a run does not make its own checkout dirty.
    """
    root = root or paths.project_root()
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                                text=True, timeout=10).stdout.strip() or None
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=normal"],
                                cwd=root, capture_output=True, text=True,
                                timeout=10).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None}
    if not commit:
        return {"commit": None, "dirty": None}
    return {"commit": commit, "dirty": bool(status), "changes": status[:20]}


def _requirement_name(requirement: str) -> tuple[str, list[str]]:
    """``"dask[distributed]>=2024.1"`` -> ``("dask", ["distributed"])``."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[([^\]]*)\])?", requirement)
    extras = [e.strip() for e in (match.group(2) or "").split(",") if e.strip()]
    return match.group(1), extras


def _runtime_requirements() -> list[str]:
    """mctslab's runtime requirements: from the installed package's metadata, else (a checkout
    that is not installed) from ``pyproject.toml``. Extras (``[dev]``...) are left out."""
    try:
        listed = importlib.metadata.requires("mctslab") or []
        return [r for r in listed if "extra ==" not in r.replace("extra==", "extra ==")]
    except importlib.metadata.PackageNotFoundError:
        pyproject = paths.project_root() / "pyproject.toml"
        return list(tomllib.loads(pyproject.read_text())["project"]["dependencies"])


def dependency_versions() -> dict:
    """The Python version and the installed version of every runtime requirement of mctslab,
    with the packages an extra pulls in (``dask[distributed]`` -> ``distributed``)."""
    versions = {"python": platform.python_version()}
    names = []
    for requirement in _runtime_requirements():
        name, extras = _requirement_name(requirement)
        names.append(name)
        for extra in extras:
            try:
                pulled = importlib.metadata.requires(name) or []
            except importlib.metadata.PackageNotFoundError:
                continue
            names += [_requirement_name(r)[0] for r in pulled
                      if re.search(rf"extra\s*==\s*['\"]{re.escape(extra)}['\"]", r)]
    for name in dict.fromkeys(names):
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def machine() -> dict:
    """What ran the notebook's own process: OS, CPU model, logical cores (and those usable)."""
    model = platform.processor() or None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith(("model name", "hardware", "cpu model")):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        usable = os.cpu_count()
    return {"system": platform.platform(), "machine": platform.machine(), "cpu_model": model,
            "cpus": os.cpu_count(), "cpus_usable": usable, "executable": sys.executable}


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def scale_label(scale: str) -> str:
    """``""`` for the paper's protocol, else ``" (scale: <scale>)"``."""
    return "" if scale == "paper" else f" (scale: {scale})"


def merged_summary(calls) -> dict:
    """The manifest counts of one experiment over the ``ExperimentResults`` of its map calls.

    ``tasks`` counts distinct task ids, ``ran`` the tasks computed by these calls (a task runs
    at most once: a later call finds it stored), ``already_stored`` the other distinct tasks;
    ``seconds`` adds the calls' wall times, ``task_seconds`` the stored compute times of the
    distinct tasks.
    """
    records = {}
    for results in calls:
        for record in results.records:
            records.setdefault(record["id"], record)
    finished = sorted(r["finished"] for r in records.values() if r.get("finished"))
    ran = sum(results.ran for results in calls)
    return {"experiment": calls[0].experiment, "tasks": len(records),
            "already_stored": len(records) - ran, "ran": ran,
            "seconds": round(sum(results.seconds for results in calls), 3),
            "backend": "+".join(dict.fromkeys(r.backend for r in calls if r.backend != "store"))
            or "store", "calls": len(calls),
            "task_seconds": round(sum(float(r.get("seconds", 0.0)) for r in records.values()), 3),
            "first_finished": finished[0] if finished else None,
            "last_finished": finished[-1] if finished else None}


class Run:
    """One execution of a notebook: where its outputs go and what produced them."""

    def __init__(self, notebook: str, config=None, *, scale: str, seed: int | None = None,
                 workers: int | None = None, scheduler: str | None = None, out=None,
                 progress: bool = True):
        self.notebook = notebook
        self.scale = check_scale(scale)
        # The experiment seed: every domain spawns its task seeds from run.seed (0 if not given).
        self.seed = 0 if seed is None else positive_int("seed", seed, minimum=0)
        self.workers = workers
        self.scheduler = scheduler
        self.out = out
        self.progress = progress
        self.directory = paths.figures_dir(notebook, out)
        self.directory.mkdir(parents=True, exist_ok=True)
        config_dict = dataclasses.asdict(config) if dataclasses.is_dataclass(config) else (config or {})
        self.manifest = {
            "notebook": notebook,
            "scale": scale,
            "seed": self.seed,
            "parameters": to_jsonable(config_dict),
            "execution": {"workers": workers, "scheduler": scheduler,
                          "output_root": str(paths.output_root(out))},
            "mctslab_version": __version__,
            "git": git_commit(),
            "dependencies": dependency_versions(),
            "platform": machine(),
            # the run's start: also the date of the game records it writes (not the day a
            # stored task happened to run), so a re-run from the store writes the same records
            "started": utc_now(),
            "updated": None,
            "finished": None,
            "status": "running",
            "experiments": {},
            "artefacts": {},
        }
        self._maps: dict[str, list] = {}  # experiment name -> the results of each map call
        self._write()

    # -- running -----------------------------------------------------------------------------
    def map(self, experiment: str, tasks: list[Task]) -> ExperimentResults:
        """Run ``tasks`` through the executor (resumably) and record the counts.

        A notebook may map tasks of one experiment in several calls: the manifest entry counts
        them all (:func:`merged_summary`), so ``ran`` is what this notebook run computed.
        """
        results = run_tasks(experiment, tasks, workers=self.workers, scheduler=self.scheduler,
                            out=self.out, progress=self.progress)
        self._maps.setdefault(experiment, []).append(results)
        self.manifest["experiments"][experiment] = merged_summary(self._maps[experiment])
        self._write()
        return results

    # -- saving ------------------------------------------------------------------------------
    @property
    def label(self) -> str:
        return scale_label(self.scale)

    @property
    def date(self) -> str:
        """The run's start date (``YYYY-MM-DD``, UTC), as recorded in the manifest."""
        return self.manifest["started"][:10]

    def figure(self, fig, stem: str, caption: str | None = None, dpi: int = 150):
        """Save ``fig`` as ``<stem>.png`` and ``<stem>.pdf``; label it with the scale.

        ``caption`` (one or two sentences: what is shown, and the scale's effect) goes to the
        manifest; without one, the figure's suptitle and axes titles stand in.
        Returns the figure, so a notebook cell ending in ``run.figure(...)`` displays it.
        """
        _check_stem(stem)
        if self.label:
            current = fig._suptitle.get_text() if getattr(fig, "_suptitle", None) else ""
            if self.label.strip() not in current:
                fig.suptitle((current + self.label).strip())
        caption = caption or _figure_caption(fig, stem, self.label)
        checks = figure_problems(fig)  # labels, log scales said, colour bars, overlapping texts
        files = []
        for ext in ("png", "pdf"):
            path = self.directory / f"{stem}.{ext}"
            fig.savefig(path, dpi=dpi, bbox_inches="tight",
                        metadata=_figure_metadata(ext, self, stem, caption))
            files.append(path.name)
        self._record(stem, "figure", files, caption, checks=checks)
        plt.close(fig)  # shown once, as the cell's value (not again by the inline backend)
        return fig

    def table(self, df, stem: str, caption: str | None = None, index: bool = False):
        """Save a DataFrame as ``<stem>.csv`` and return it as a :class:`~mctslab.core.display.
        ShownTable` (the notebook displays it without an index, captioned; it is still the
        DataFrame).

        ``caption`` says what a row is and where the numbers come from (without one, the
        stem and the columns stand in)."""
        _check_stem(stem)
        path = self.directory / f"{stem}.csv"
        df.to_csv(path, index=index)
        caption = caption or f"{stem.replace('_', ' ')}: columns {', '.join(map(str, df.columns))}"
        extra = {}
        varies = declared(self.notebook, stem)  # timing columns: mctslab.core.varying
        if varies:
            caption = f"{caption.rstrip('. ')}. {caption_note(varies)}"
            extra["varies"] = {"columns": list(varies.columns), "kind": varies.kind,
                               "why": varies.why, "rows": list(varies.rows),
                               "row_column": varies.row_column}
        self._record(stem, "table", [path.name], caption, rows=len(df), **extra)
        return shown(df, f"{path.name}: {caption}")

    def save_text(self, text: str, name: str, caption: str | None = None) -> Path:
        """Save a text artefact (e.g. a list of puzzles, a tour) next to the figures."""
        _check_stem(name)
        path = self.directory / name
        path.write_text(text)
        self._record(Path(name).stem, "text", [name], caption or f"text file {name}")
        return path

    def finish(self, status: str = "complete") -> None:
        """Mark the run finished. A complete run removes the files of its folder it did not
        write (an earlier run's artefacts), so every file there is one the manifest lists."""
        stale = self._stale_files()
        if status == "complete":
            for name in stale:
                (self.directory / name).unlink(missing_ok=True)
            self.manifest["removed_stale"] = stale
        elif stale:
            self.manifest["stale"] = stale
        self.manifest["finished"] = utc_now()
        self.manifest["status"] = status
        self._write()

    def _stale_files(self) -> list[str]:
        written = {"manifest.json"}
        for artefact in self.manifest["artefacts"].values():
            written.update(artefact["files"])
        return sorted(p.name for p in self.directory.iterdir()
                      if p.is_file() and p.name not in written)

    # -- manifest ----------------------------------------------------------------------------
    def _record(self, stem, kind, files, caption, **extra) -> None:
        digests = {name: sha256(self.directory / name) for name in files}
        artefacts = self.manifest["artefacts"]
        # a table and its figure may share a stem (fig5.csv, fig5.png): one entry per kind
        key = stem if artefacts.get(stem, {}).get("kind", kind) == kind else f"{stem} ({kind})"
        artefacts[key] = {"kind": kind, "files": files, "caption": caption,
                          "sha256": digests, "saved": utc_now(), **extra}
        self._write()

    def _write(self) -> None:
        self.manifest["updated"] = utc_now()
        write_json(self.directory / "manifest.json", self.manifest)


def _check_stem(stem: str) -> None:
    if not stem or "/" in stem or stem.startswith("."):
        raise ValueError(f"artefact name must be a plain file stem, got {stem!r}")


def _figure_caption(fig, stem: str, label: str) -> str:
    """A figure's own titles (and its scale) as its caption when the notebook gives none."""
    titles = [fig._suptitle.get_text()] if getattr(fig, "_suptitle", None) else []
    titles += [ax.get_title() for ax in fig.axes if ax.get_title()]
    titles = [t.replace(label.strip(), "").strip() for t in titles] if label else titles
    return ("; ".join(dict.fromkeys(t for t in titles if t)) or stem.replace("_", " ")) + label


def _figure_metadata(ext: str, run: Run, stem: str, caption: str) -> dict:
    git = run.manifest["git"]
    commit = (git.get("commit") or "unknown") + ("-dirty" if git.get("dirty") else "")
    text = (f"mctslab {__version__}; commit {commit}; notebook {run.notebook}; "
            f"scale {run.scale}; seed {run.seed}")
    title = f"{run.notebook}/{stem}"
    if ext == "pdf":
        # no CreationDate: the same figure gives the same bytes (the run's time is in the manifest)
        return {"Creator": text, "Title": title, "Subject": caption, "CreationDate": None}
    return {"Software": text, "Title": title, "Description": caption}


def update_manifest(notebook: str, out=None, since: str | None = None, **fields) -> bool:
    """Merge ``fields`` into an existing manifest (used by ``mctslab reproduce`` at the end).

    ``since`` (an ISO time as :func:`~mctslab.core.store.utc_now` writes it): only a manifest whose run started then or
    later is updated, so a notebook that failed before creating its ``Run`` does not mark the
    previous run's manifest (and artefacts) as its own. Returns whether a manifest was updated.
    """
    path = paths.figures_dir(notebook, out) / "manifest.json"
    if not path.exists():
        return False
    manifest = json.loads(path.read_text())
    if since is not None and manifest.get("started", "") < since:
        return False
    manifest.update(to_jsonable(fields))
    if manifest.get("status") not in ("complete", "running"):
        # a failed run leaves an earlier run's files in place: say which they are
        written = {"manifest.json"}
        for artefact in manifest.get("artefacts", {}).values():
            written.update(artefact["files"])
        stale = sorted(p.name for p in path.parent.iterdir() if p.is_file() and p.name not in written)
        if stale:
            manifest["stale"] = stale
    manifest["updated"] = utc_now()
    write_json(path, manifest)
    return True
