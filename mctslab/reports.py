"""Readable reports of a run: one HTML page per executed notebook and an index.

``mctslab reproduce`` writes, next to each executed notebook ``reports/<notebook>.ipynb``:

- ``reports/<notebook>.html``: the notebook as run (nbconvert), code cells hidden, figures and
  tables inline, and at its end a summary of its manifest (version, commit, scale, seed, times,
  machine, task counts, every artefact with its caption and checksum), so a colleague can read
  a run without Jupyter;
- ``reports/index.html``: one line per notebook of the output folder, linking its report, with
  its status, scale, commit and time, and a link to the scorecard ``figures/scorecard.html``
  (:mod:`mctslab.core.scorecard`) when the folder has one.

Nothing here computes: it only formats what the notebook and its manifest hold.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

import nbformat
from nbconvert import HTMLExporter

from mctslab import paths

__all__ = ["notebook_html", "write_index", "manifest_markdown"]


def _short(commit: str | None) -> str:
    return (commit or "unknown")[:10]


def manifest_markdown(manifest: dict) -> str:
    """The manifest as Markdown: what produced the run, what it ran, what it wrote."""
    git = manifest.get("git") or {}
    machine = manifest.get("platform") or {}
    lines = [
        "## About this run (from its manifest.json)",
        "",
        "| about | this run |",
        "|---|---|",
        f"| notebook | `{manifest.get('notebook')}` |",
        f"| scale, seed | {manifest.get('scale')}, {manifest.get('seed')} |",
        f"| mctslab | {manifest.get('mctslab_version')}, commit `{_short(git.get('commit'))}`"
        + (" (with uncommitted changes)" if git.get("dirty") else "") + " |",
        f"| started, finished | {manifest.get('started')}, {manifest.get('finished')} "
        f"({manifest.get('status')}) |",
        f"| machine | {machine.get('cpu_model')}, {machine.get('cpus')} cores, "
        f"{machine.get('system')} |",
        f"| execution | {html.escape(json.dumps(manifest.get('execution', {})))} |",
        "",
    ]
    experiments = manifest.get("experiments") or {}
    if experiments:
        lines += ["| experiment | tasks | already stored | ran | backend | task seconds |",
                  "|---|---|---|---|---|---|"]
        lines += [f"| {name} | {e.get('tasks')} | {e.get('already_stored')} | {e.get('ran')} | "
                  f"{e.get('backend')} | {e.get('task_seconds')} |"
                  for name, e in experiments.items()]
        lines.append("")
    lines += ["| artefact | files | caption | sha256 |", "|---|---|---|---|"]
    for name, artefact in (manifest.get("artefacts") or {}).items():
        digests = artefact.get("sha256", {})
        files = ", ".join(artefact.get("files", []))
        sums = ", ".join(f"{digests[f][:12]}" for f in artefact.get("files", []) if f in digests)
        caption = str(artefact.get("caption", "")).replace("|", "\\|").replace("\n", " ")
        lines.append(f"| {name} | {files} | {caption} | {sums} |")
    return "\n".join(lines) + "\n"


def notebook_html(executed: Path, manifest_path: Path | None = None) -> Path:
    """Write ``<executed>.html`` beside the executed notebook: code hidden, manifest at the end."""
    nb = nbformat.read(executed, as_version=4)
    if manifest_path is not None and manifest_path.exists():
        manifest = json.loads(manifest_path.read_text())
        nb.cells.append(nbformat.v4.new_markdown_cell(manifest_markdown(manifest)))
    exporter = HTMLExporter(exclude_input=True, exclude_input_prompt=True,
                            exclude_output_prompt=True)
    body, _ = exporter.from_notebook_node(nb)
    target = executed.with_suffix(".html")
    target.write_text(body, encoding="utf-8")
    return target


def _scorecard_line(out=None) -> str:
    """The index's link to ``figures/scorecard.html`` (:mod:`mctslab.core.scorecard`)."""
    if (paths.output_root(out) / "figures" / "scorecard.html").exists():
        return ("<p><a href=\"../figures/scorecard.html\">The scorecard</a>: every number of "
                "the five papers beside this folder's runs, with the verdict and its criterion "
                "(also <code>../figures/scorecard.md</code> and <code>.csv</code>).</p>")
    return ("<p>No scorecard in this folder yet (<code>mctslab scorecard</code> writes "
            "<code>figures/scorecard.html</code>).</p>")


def write_index(out=None) -> Path:
    """``reports/index.html``: every report of the output folder with its manifest's status."""
    reports = paths.reports_dir(out)
    rows = []
    for page in sorted(reports.glob("*.html")):
        if page.name == "index.html":
            continue
        manifest_path = paths.figures_dir(page.stem, out) / "manifest.json"
        manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
        git = manifest.get("git") or {}
        figures = [a for a in (manifest.get("artefacts") or {}).values() if a["kind"] == "figure"]
        rows.append(
            f"<tr><td><a href=\"{html.escape(page.name)}\">{html.escape(page.stem)}</a></td>"
            f"<td>{html.escape(str(manifest.get('status', '?')))}</td>"
            f"<td>{html.escape(str(manifest.get('scale', '?')))}</td>"
            f"<td>{html.escape(str(manifest.get('mctslab_version', '?')))}</td>"
            f"<td><code>{html.escape(_short(git.get('commit')))}</code>"
            f"{' (dirty)' if git.get('dirty') else ''}</td>"
            f"<td>{html.escape(str(manifest.get('finished') or manifest.get('started') or ''))}</td>"
            f"<td>{len(figures)}</td></tr>")
    page = ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>mctslab reports</title>"
            "<style>body{font-family:sans-serif;margin:2em}td,th{padding:0.3em 0.8em;"
            "border-bottom:1px solid #ddd;text-align:left}</style></head><body>\n"
            "<h1>mctslab: reports of this output folder</h1>\n"
            "<p>One page per notebook run (code hidden, figures and tables inline, the run's "
            "manifest at the end). Figures, tables and manifests are in <code>../figures/"
            "</code>.</p>\n" + _scorecard_line(out)
            + "\n<table><tr><th>notebook</th><th>status</th><th>scale</th>"
            "<th>version</th><th>commit</th><th>finished</th><th>figures</th></tr>\n"
            + "\n".join(rows) + "\n</table></body></html>\n")
    target = reports / "index.html"
    target.write_text(page, encoding="utf-8")
    return target
