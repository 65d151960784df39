"""The report pages of a real run, rendered by a real browser (headless Chromium).

``reports/index.html`` and one notebook's page (the Go notebook's: it plays matches with progress
bars) are loaded by Chromium; the test reads the DOM the browser built and a screenshot of each
page, and asserts what a reader sees: tables with their headers, figures that are not blank, no
traceback and no progress bar text. ``scripts/ensure-chromium`` installs the browser (``.ci/run``
calls it); without one the test skips, except in CI (tests/conftest.py).
"""

import base64
import io
import os
import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest
from matplotlib import image

from tests.conftest import CHROMIUM_MISSING

PAGE = "go_state_tabu"


def _chromium() -> str:
    for candidate in (os.environ.get("MCTSLAB_CHROMIUM"), shutil.which("chromium"),
                      shutil.which("chromium-browser"), shutil.which("google-chrome")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    pytest.skip(f"{CHROMIUM_MISSING} (scripts/ensure-chromium installs it)")


def _browser(tmp_path, *args) -> subprocess.CompletedProcess:
    # the flags a sandboxed, offline machine needs (no background connections, no GPU)
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--hide-scrollbars", f"--user-data-dir={tmp_path / 'profile'}"]
    return subprocess.run([_chromium(), *flags, *args], capture_output=True, text=True,
                          timeout=120)


def _dom(tmp_path, page) -> str:
    done = _browser(tmp_path, "--dump-dom", page.as_uri())
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _screenshot(tmp_path, page, name) -> np.ndarray:
    target = tmp_path / f"{name}.png"
    done = _browser(tmp_path, "--window-size=1200,2400", f"--screenshot={target}", page.as_uri())
    assert done.returncode == 0 and target.exists(), done.stderr[-2000:]
    return image.imread(target)


def _blank(pixels: np.ndarray) -> bool:
    """One colour everywhere (a white page, an empty plot area would still have axes)."""
    rgb = pixels[..., :3]
    return float(rgb.std()) < 0.01 or np.mean(rgb.min(axis=-1) < 0.9) < 0.001


def _text(dom: str) -> str:
    return re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)\b.*?</\1>", " ", dom, flags=re.S))


def _images(dom: str) -> list[np.ndarray]:
    found = re.findall(r'<img[^>]+src="data:image/png;base64,([^"]+)"', dom)
    return [image.imread(io.BytesIO(base64.b64decode(data)), format="png") for data in found]


def test_the_report_pages_render_their_tables_and_figures_in_a_browser(smoke_run, tmp_path):
    out, done = smoke_run(PAGE)
    assert done.returncode == 0, done.stdout + done.stderr
    reports = out / "reports"

    index = _dom(tmp_path, reports / "index.html")
    assert f'href="{PAGE}.html"' in index and "<th>notebook</th>" in index
    assert not _blank(_screenshot(tmp_path, reports / "index.html", "index"))

    dom = _dom(tmp_path, reports / f"{PAGE}.html")
    text = _text(dom)
    for forbidden in ("Traceback", "%|", "it/s]", "task/s]", "WARNING", "Config("):
        assert forbidden not in text, f"the page shows {forbidden!r}"
    # every table the notebook saved is on the page, with its headers and its CSV's name,
    # and without pandas' bare index column (an empty first header)
    tables = sorted((out / "figures" / PAGE).glob("*.csv"))
    assert tables
    for csv in tables:
        assert f"{csv.name}:" in text, f"{csv.name} is not on the page"
        for header in pd.read_csv(csv, nrows=0).columns:
            assert f"<th>{header}" in dom or f">{header}</th>" in dom, (csv.name, header)
    assert "<th></th>" not in dom, "a table shows its bare index"
    assert "parameter" in text and "paper scale" in text, "no configuration table"
    figures = _images(dom)
    expected = len(list((out / "figures" / PAGE).glob("*.png")))
    assert len(figures) >= expected > 0, (len(figures), expected)
    assert not any(_blank(pixels) for pixels in figures), "a blank figure"
    assert not _blank(_screenshot(tmp_path, reports / f"{PAGE}.html", "page"))
