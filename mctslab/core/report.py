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
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

from .. import __version__, paths
from .executor import ExperimentResults, run_tasks
from .params import SCALES, check_scale, positive_int
from .plotting import plt
from .store import to_jsonable, utc_now, write_json
from .tasks import Task

__all__ = ["Run", "SCALES", "check_scale", "git_commit", "dependency_versions", "scale_label",
           "merged_summary"]

DEPENDENCIES = ("numpy", "numba", "scipy", "pandas", "matplotlib", "python-sat", "papermill",
                "dask", "distributed", "tqdm", "llvmlite", "tsplib95", "elkai")


def git_commit(root: Path | None = None) -> dict:
    """The checkout's commit and whether it has uncommitted changes (``None`` outside git)."""
    root = root or paths.project_root()
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                                text=True, timeout=10).stdout.strip() or None
        dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                                    cwd=root, capture_output=True, text=True,
                                    timeout=10).stdout.strip())
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None}
    return {"commit": commit, "dirty": dirty if commit else None}


def dependency_versions() -> dict:
    versions = {"python": platform.python_version()}
    for name in DEPENDENCIES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    return versions


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
            "platform": {"system": platform.platform(), "machine": platform.machine(),
                         "cpus": os.cpu_count(), "executable": sys.executable},
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

    def figure(self, fig, stem: str, caption: str | None = None, dpi: int = 150):
        """Save ``fig`` as ``<stem>.png`` and ``<stem>.pdf``; label it with the scale.

        Returns the figure, so a notebook cell ending in ``run.figure(...)`` displays it.
        """
        _check_stem(stem)
        if self.label:
            current = fig._suptitle.get_text() if getattr(fig, "_suptitle", None) else ""
            if self.label.strip() not in current:
                fig.suptitle((current + self.label).strip())
        files = []
        for ext in ("png", "pdf"):
            path = self.directory / f"{stem}.{ext}"
            fig.savefig(path, dpi=dpi, bbox_inches="tight", metadata=_figure_metadata(ext, self))
            files.append(path.name)
        self._record(stem, "figure", files, caption)
        plt.close(fig)  # shown once, as the cell's value (not again by the inline backend)
        return fig

    def table(self, df, stem: str, caption: str | None = None, index: bool = False):
        """Save a DataFrame as ``<stem>.csv`` and return it (so the notebook displays it)."""
        _check_stem(stem)
        path = self.directory / f"{stem}.csv"
        df.to_csv(path, index=index)
        self._record(stem, "table", [path.name], caption, rows=len(df))
        return df

    def save_text(self, text: str, name: str, caption: str | None = None) -> Path:
        """Save a text artefact (e.g. a list of puzzles, a tour) next to the figures."""
        path = self.directory / name
        path.write_text(text)
        self._record(Path(name).stem, "text", [name], caption)
        return path

    def finish(self, status: str = "complete") -> None:
        self.manifest["finished"] = utc_now()
        self.manifest["status"] = status
        self._write()

    # -- manifest ----------------------------------------------------------------------------
    def _record(self, stem, kind, files, caption, **extra) -> None:
        self.manifest["artefacts"][stem] = {"kind": kind, "files": files, "caption": caption,
                                            "saved": utc_now(), **extra}
        self._write()

    def _write(self) -> None:
        self.manifest["updated"] = utc_now()
        write_json(self.directory / "manifest.json", self.manifest)


def _check_stem(stem: str) -> None:
    if not stem or "/" in stem or stem.startswith("."):
        raise ValueError(f"artefact name must be a plain file stem, got {stem!r}")


def _figure_metadata(ext: str, run: Run) -> dict:
    text = f"mctslab {__version__}; notebook {run.notebook}; scale {run.scale}; seed {run.seed}"
    if ext == "pdf":
        return {"Creator": text}
    return {"Software": text}


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
    manifest["updated"] = utc_now()
    write_json(path, manifest)
    return True
