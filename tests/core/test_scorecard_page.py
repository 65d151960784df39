"""The scorecard's page (mctslab.core.scorecard_page, scorecard_html, forest): Markdown in cells
rendered, the forest plot's rows, the same rows giving the same files, the page as headless
Chromium shows it (for a card built here from small fake tables, and for the committed
``records/scorecard-paper.html``), the committed card against what ``mctslab scorecard
--records`` builds today, and README's headline against the committed card."""

from __future__ import annotations

import difflib
import html
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib import image

from mctslab import record_card
from mctslab.core import forest, scorecard_html, scorecard_page
from mctslab.core import targets as targets_module
from mctslab.core.compare import paper_row, paper_table
from tests.notebooks.test_report_pages import _blank, _browser

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "records"
PAPERS = ("tsp_mcts_vs_sa", "othello_wpc_de")
NOTE = "see `figures/x.csv`, [the bench](docs/bench/tsp.md) and **this**"


def _fake_rows(paper: str) -> list:
    """A reproduced, a differing and an inconclusive sampled row, a claim that holds and one
    that fails, and every protocol constant as stated, from ``paper``'s targets today."""
    targets = targets_module.load(paper)
    sampled = targets[(targets.kind == "sampled")
                      & targets.value.map(lambda v: isinstance(v, int | float) and v > 0)]
    rows = []
    for factor, spread, target in zip((1.0, 3.0, 1.0), (0.001, 0.001, 0.9),
                                      sampled.to_dict("records"), strict=False):
        value = target["value"] * factor
        rows.append(paper_row(paper, target["artefact"], target["row"], target["column"],
                              value, low=value * (1 - spread), high=value * (1 + spread),
                              n=max(int(target["min_n"]), 2), scale="paper", note=NOTE))
    for said, target in zip(("holds: `fake`", "fails: fake"),
                            targets[targets.kind == "claim"].to_dict("records"), strict=False):
        rows.append(paper_row(paper, target["artefact"], target["row"], target["column"], said,
                              n=target["min_n"], scale="paper"))
    for target in targets[targets.kind == "config"].to_dict("records"):
        rows.append(paper_row(paper, target["artefact"], target["row"], target["column"],
                              target["value"], scale="paper"))
    return rows


def _fake_card(folder: Path) -> scorecard_page.Scorecard:
    tables = {paper: (paper_table(_fake_rows(paper)),
                      {"scale": "paper", "status": "complete", "mctslab_version": "0.0.0",
                       "git": {"commit": "0123456789abcdef", "dirty": False}})
              for paper in PAPERS}
    return scorecard_page.render(tables, folder, intro="A `fake` card of [two](README.md) "
                                 "papers.", stem="scorecard-fake")


def test_markdown_in_a_cell_is_rendered_and_everything_else_escaped():
    shown = scorecard_html.inline("`a<b` [the bench](docs/bench/go.md#x) **bold** "
                                  "docs/bench/tsp.md#heading, records/<notebook>/x.csv <i>",
                                  root="..")
    assert shown == ('<code>a&lt;b</code> <a href="../docs/bench/go.md#x">the bench</a> '
                     '<strong>bold</strong> <a href="../docs/bench/tsp.md#heading">'
                     'docs/bench/tsp.md#heading</a>, <code>records/&lt;notebook&gt;/x.csv</code>'
                     ' &lt;i&gt;')
    assert scorecard_html.inline("[x](https://example.org/a)") == \
        '<a href="https://example.org/a">x</a>'


def test_the_forest_plots_judged_numbers_as_ratios_and_leaves_claims_out():
    rows = pd.DataFrame([
        dict(ledger="outcome", verdict="reproduced", artefact="T", row="a", column="x",
             paper_value=0.5, our_value=0.55, low=0.5, high=0.6, margin="0.1"),
        dict(ledger="outcome", verdict="differs", artefact="T", row="b", column="x",
             paper_value=100, our_value=0.0, low=0.0, high=3.0, margin="x2"),
        dict(ledger="outcome", verdict="inconclusive", artefact="T", row="c", column="x",
             paper_value=0, our_value=2.0, low=0.0, high=5.0, margin="1"),
        dict(ledger="outcome", verdict="reproduced", artefact="T", row="d", column="x",
             paper_value="holds", our_value="holds: yes", low=None, high=None, margin=""),
        dict(ledger="outcome", verdict="not run at this scale", artefact="T", row="e",
             column="x", paper_value=1, our_value=1, low=None, high=None, margin="0.1"),
        dict(ledger="protocol", verdict="as stated", artefact="T", row="f", column="x",
             paper_value=20, our_value=20, low=None, high=None, margin="0")])
    found = forest.points(rows)
    assert [p.label for p in found] == ["T · a · x", "T · b · x", "T · c · x"]
    a, b, c = found
    assert (a.ratio, a.low, a.high) == pytest.approx((1.1, 1.0, 1.2))
    assert a.band == pytest.approx((0.8, 1.2))
    assert (b.ratio, b.band) == (0.0, pytest.approx((0.5, 2.0)))
    assert b.numbers == "ours 0 [0, 3] · paper 100 (margin x2)"
    # the paper's 0: divided by the margin, so its band is -1..1
    assert (c.ratio, c.band, c.high) == (2.0, (-1.0, 1.0), 5.0)
    svg = forest.forest_svg(rows)
    assert svg.startswith("<svg") and "T · c · x" in svg and "T · d · x" not in svg
    assert forest.forest_svg(rows) == svg  # the same rows, the same bytes
    assert forest.forest_svg(rows.iloc[3:]) is None


def test_the_same_rows_give_the_same_files(tmp_path):
    first, second = _fake_card(tmp_path / "a"), _fake_card(tmp_path / "b")
    for one, two in ((first.csv, second.csv), (first.markdown, second.markdown),
                     (first.html, second.html)):
        assert one.read_bytes() == two.read_bytes(), one.name
    page = first.html.read_text()
    assert page.count('<div class="forest"><svg') == len(PAPERS)
    assert "Date" not in page.split("<svg", 1)[1][:2000]
    md = first.markdown.read_text()
    assert "## tsp_mcts_vs_sa" in md and "### Claims" in md and "### Every target" in md


_PROBE = """<script>
window.addEventListener('load', () => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const size = e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; };
  const found = {
    text: document.body.innerText,
    plots: [...document.querySelectorAll('.forest svg, .forest img')].map(size),
    counts: [...document.querySelectorAll('[data-ledger]')].map(e => [
      e.dataset.paper, e.dataset.ledger, e.dataset.verdict, e.innerText])};
  const pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(found);
  document.body.appendChild(pre);
});
</script>"""


def _probe(tmp_path, page: Path) -> dict:
    """What Chromium shows of ``page``: its text with every <details> open, the forest plots'
    sizes, and the ledger counts shown (paper, ledger, verdict, text), read by a script added
    to a copy of the page (the plots are inline: the copy shows what the page shows)."""
    copy = tmp_path / f"probe-{page.name}"
    copy.write_text(page.read_text(encoding="utf-8").replace("</body>", _PROBE + "</body>"),
                    encoding="utf-8")
    done = _browser(tmp_path, "--virtual-time-budget=10000", "--dump-dom", copy.as_uri())
    assert done.returncode == 0, done.stderr[-2000:]
    found = re.search(r'<pre id="probe">(.*?)</pre>', done.stdout, re.S)
    assert found, "the probe did not run"
    return json.loads(html.unescape(found.group(1)))


def _check_page(tmp_path, page: Path, csv: Path) -> None:
    """The page as a reader sees it: no literal backtick, a forest plot of non-zero size for
    every paper with a plotted row, the ledger counts of the CSV, and a screenshot that is
    not blank."""
    shown = _probe(tmp_path, page)
    assert "`" not in shown["text"], [line for line in shown["text"].splitlines()
                                      if "`" in line][:5]
    card = pd.read_csv(csv)
    plotted = [paper for paper, rows in card.groupby("paper", sort=False)
               if forest.points(rows)]
    assert plotted and len(shown["plots"]) == len(plotted)
    assert all(width > 300 and height > 50 for width, height in shown["plots"])

    def expected(paper: str, ledger: str, verdict: str) -> int:
        rows = card[card.ledger == ledger]
        rows = rows if paper == "total" else rows[rows.paper == paper]
        return len(rows) if verdict == "total" else int((rows.verdict == verdict).sum())

    for paper, ledger, verdict, text in shown["counts"]:
        assert int(re.search(r"\d+", text).group()) == expected(paper, ledger, verdict), \
            (paper, ledger, verdict, text)
    keys = {tuple(found[:3]) for found in shown["counts"]}
    for key in card.groupby(["paper", "ledger", "verdict"]).size().index:
        assert key in keys and ("total", *key[1:]) in keys, f"{key} is not shown"
    shot = tmp_path / f"{page.stem}.png"
    done = _browser(tmp_path, "--window-size=1280,2400", f"--screenshot={shot}", page.as_uri())
    assert done.returncode == 0 and shot.exists(), done.stderr[-2000:]
    assert not _blank(np.asarray(image.imread(shot)))


def test_the_page_of_a_fake_card_reads_well_in_chromium(tmp_path):
    written = _fake_card(tmp_path / "card")
    _check_page(tmp_path, written.html, written.csv)


def test_the_committed_page_reads_well_in_chromium(tmp_path):
    _check_page(tmp_path, RECORDS / "scorecard-paper.html", RECORDS / "scorecard-paper.csv")


def build_from_records(folder: Path) -> Path:
    """``mctslab scorecard --records`` of the committed records, written into ``folder``
    (``folder/records`` links each notebook's records, ``folder/docs`` the project's docs, so
    the page's links are the committed page's)."""
    records = folder / "records"
    records.mkdir(parents=True)
    for notebook in RECORDS.iterdir():
        if notebook.is_dir():
            (records / notebook.name).symlink_to(notebook, target_is_directory=True)
    (folder / "docs").symlink_to(ROOT / "docs", target_is_directory=True)
    record_card.scorecard(records, bench_folder=folder / "docs" / "bench")
    return records


def _svg_text(page: str) -> tuple[str, list[str]]:
    """The page with each plot's drawing left out, and the plots' text (labels, numbers):
    a plot's bytes depend on matplotlib's version, its rows are the CSV's."""
    texts = re.findall(r"<text\b[^>]*>(.*?)</text>", page, re.S)
    return re.sub(r"<svg\b.*?</svg>", "<svg/>", page, flags=re.S), texts


def compare_cards(committed: Path, built: Path) -> list[str]:
    """The files of ``committed`` that are not what was built into ``built``, each with the
    start of its difference."""
    stale = []
    for suffix in (".csv", ".md", ".html"):
        old = (committed / f"scorecard-paper{suffix}").read_text(encoding="utf-8")
        new = (built / f"scorecard-paper{suffix}").read_text(encoding="utf-8")
        if suffix == ".html":
            old, new = ("\n".join([page, *texts]) for page, texts in (_svg_text(old),
                                                                     _svg_text(new)))
        if old != new:
            diff = difflib.unified_diff(old.splitlines(), new.splitlines(), "committed",
                                        "built today", n=0, lineterm="")
            stale.append(f"scorecard-paper{suffix}:\n" + "\n".join(
                line[:300] for line in list(diff)[:12]))
    return stale


def test_the_committed_scorecard_is_what_the_records_give_today(tmp_path):
    stale = compare_cards(RECORDS, build_from_records(tmp_path))
    assert not stale, ("records/scorecard-paper.* is not what `mctslab scorecard --records` "
                       "builds today: run it and commit the result\n" + "\n".join(stale))


def test_the_readme_headline_quotes_the_committed_scorecard():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index(scorecard_page.HEADLINE_START) + len(scorecard_page.HEADLINE_START)
    block = readme[start:readme.index(scorecard_page.HEADLINE_END)].strip("\n")
    card = pd.read_csv(RECORDS / "scorecard-paper.csv")
    assert block == scorecard_page.headline(card), (
        "README.md's headline is not the committed scorecard's: run `mctslab scorecard "
        "--records`")
    totals = card[card.ledger == "outcome"].verdict.value_counts()
    assert f"{totals.get('reproduced', 0)} reproduced" in block


def test_the_records_card_rewrites_the_readmes_headline_block(tmp_path, monkeypatch):
    monkeypatch.setenv("MCTSLAB_HOME", str(tmp_path))
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\n{scorecard_page.HEADLINE_START}\nold\n"
                      f"{scorecard_page.HEADLINE_END}\n\nrest\n")
    _fake_card(tmp_path / "elsewhere")
    assert "old" in readme.read_text()  # only the project's records/scorecard-paper writes it
    tables = {paper: (paper_table(_fake_rows(paper)), {"scale": "paper"}) for paper in PAPERS}
    written = scorecard_page.render(tables, tmp_path / "records", intro="",
                                    stem="scorecard-paper")
    text = readme.read_text()
    assert "old" not in text and text.endswith("\n\nrest\n")
    assert f"\n{scorecard_page.headline(written.card)}\n" in text
    assert scorecard_page.headline(written.card) == scorecard_page.headline(
        pd.read_csv(written.csv))
    assert not scorecard_page.update_headline(tmp_path / "none.md", written.card)
