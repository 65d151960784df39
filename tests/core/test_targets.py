"""The targets files hold every target table of ``docs/papers/*.md`` (the scorecard's targets).

Each markdown table under a ``**Table N**`` / ``## ... (Table N)`` heading of a paper brief is
parsed; every row's numbers must be among the targets of that paper and artefact whose row or
column names the row (its first cell), so a number added to a brief without its target fails.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import mctslab
from mctslab.core import targets

ROOT = Path(__file__).resolve().parents[2]
PAPERS = ROOT / "docs" / "papers"
_BRIEF_LINK = re.compile(r"docs/papers/([\w.-]+\.md)")


def briefs(notebooks=None, root: Path = ROOT) -> dict[str, str]:
    """Each paper's brief (a file of ``docs/papers/``) -> its notebook, for every notebook of
    ``mctslab.NOTEBOOKS``: the one brief the notebook's markdown links to. A notebook linking
    none or several, or a brief of no notebook, is a ``ValueError`` naming it."""
    notebooks = mctslab.NOTEBOOKS if notebooks is None else notebooks
    found = {}
    for notebook in notebooks.values():
        cells = json.loads((root / "notebooks" / f"{notebook}.ipynb").read_text())["cells"]
        text = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        linked = sorted(set(_BRIEF_LINK.findall(text)))
        if len(linked) != 1:
            raise ValueError(f"notebooks/{notebook}.ipynb links {len(linked)} briefs of "
                             f"docs/papers/ ({', '.join(linked) or 'none'}), not its one")
        found[linked[0]] = notebook
    orphans = sorted(p.name for p in (root / "docs" / "papers").glob("*.md")
                     if p.name != "README.md" and p.name not in found)
    if orphans:
        raise ValueError(f"docs/papers/ briefs of no notebook of mctslab.NOTEBOOKS: {orphans}")
    return found


BRIEFS = briefs()
# Tables of the briefs that are not results to reproduce, each with its reason (none: Go's
# Table 1, the configurations, is a set of config targets).
NOT_TARGETS: dict = {}
_TABLE_NAME = re.compile(r"\b(Table \d+)\b")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def briefs_tables() -> list[tuple[str, str, list[str], list[list[str]]]]:
    """(paper, artefact, header, rows) of every markdown table of the briefs that reports a
    table of the paper: the artefact is the last "Table N" named above the table (in bold text
    or a heading); a heading naming none starts a part of the brief with no target table (the
    readings of the generator, say), whose tables are not the paper's."""
    found = []
    for name, paper in BRIEFS.items():
        artefact, lines = None, (PAPERS / name).read_text().splitlines()
        i = 0
        while i < len(lines):
            line = lines[i]
            if not line.startswith("|"):
                named = _TABLE_NAME.findall(line)
                if named and (line.startswith("#") or line.startswith("**")):
                    artefact = named[0]
                elif line.startswith("#"):
                    artefact = None
                i += 1
                continue
            block = []
            while i < len(lines) and lines[i].startswith("|"):
                block.append([c.strip() for c in lines[i].strip().strip("|").split("|")])
                i += 1
            if artefact is not None:
                found.append((paper, artefact, block[0], block[2:]))
    return found


def _numbers(cell: str) -> list[float]:
    """The numbers of a cell: "9.8 (8.5)" -> 9.8, 8.5; "513/1000" -> 513 (the denominator is
    the protocol); "0.482-0.544" -> both ends; "53.2%" -> 53.2."""
    return [float(x) for x in _NUMBER.findall(re.sub(r"/\d+", "", cell))]


def _names(label: str, text: str) -> bool:
    """Whether a target's row or column ``text`` names the table row ``label`` ("gnugo
    (self)" is "gnugo"; a number such as "1.0" matches "c = 1")."""
    label = re.sub(r"\s*\(.*\)$", "", label)
    if _NUMBER.fullmatch(label):
        return float(label) in {float(x) for x in _NUMBER.findall(text)}
    return re.search(rf"(^|\W){re.escape(label)}(\W|$)", text) is not None


def test_the_briefs_have_target_tables():
    tables = briefs_tables()
    assert {(p, a) for p, a, _, _ in tables} >= {
        ("go_state_tabu", "Table 2"), ("go_state_tabu", "Table 3"), ("go_state_tabu", "Table 4"),
        ("sudoku_less_clue", "Table 1"), ("sudoku_less_clue", "Table 2")}


@pytest.mark.parametrize("paper,artefact,header,rows",
                         [t for t in briefs_tables() if (t[0], t[1]) not in NOT_TARGETS],
                         ids=lambda v: v if isinstance(v, str) else None)
def test_every_target_table_row_is_in_the_targets_file(paper, artefact, header, rows):
    frame = targets.load(paper)
    frame = frame[frame.artefact == artefact]
    assert len(frame), f"{artefact} of {paper} has no targets"
    for cells in rows:
        label = cells[0]
        named = frame[[_names(label, f"{r} | {c}") for r, c in zip(frame.row, frame.column)]]
        assert len(named), f"{paper} {artefact}: no target names the row {label!r}"
        values = [v for v in named.value if isinstance(v, int | float)]
        in_labels = {float(x) for r in named.row for x in _NUMBER.findall(r)}
        for cell, column in zip(cells[1:], header[1:]):
            for number in _numbers(cell):
                found = (number in in_labels
                         or any(abs(v - number) < 1e-9 or abs(100 * v - number) < 1e-6
                                for v in values))
                assert found, (f"{paper} {artefact}, row {label!r}, column {column!r}: "
                               f"{number:g} is in the brief but not in {targets.targets_path(paper)}")


def test_the_exclusions_name_real_tables():
    present = {(p, a) for p, a, _, _ in briefs_tables()}
    assert set(NOT_TARGETS) <= present


@pytest.mark.parametrize("paper", list(targets.DOMAINS))
def test_each_targets_file_is_well_formed(paper):
    frame = targets.load(paper)
    assert len(frame) and (frame.paper == paper).all()
    assert frame.criterion.str.len().gt(0).all(), "every target says what reproduced means"
    assert frame.unit.str.len().gt(0).all()
    assert frame.source.str.startswith("docs/papers/").all()
    for source in set(frame.source):
        assert (ROOT / source.split(" ")[0]).is_file(), source


@pytest.mark.parametrize("paper", list(targets.DOMAINS))
def test_every_numeric_target_has_a_kind_and_a_margin(paper):
    """A number is judged by a margin stated in advance (sampled ones from a minimum
    sample); what is not judged says why (uncompared) or from what (derived)."""
    for record in targets.load(paper).to_dict("records"):
        where = (record["artefact"], record["row"], record["column"])
        assert record["kind"] in targets.KINDS, where
        numeric = isinstance(record["value"], int | float)
        if record["kind"] in targets.NUMERIC_KINDS and numeric:
            lower, upper = targets.margin_bounds(record["value"], record["margin"])
            assert lower <= record["value"] <= upper, where
        if record["kind"] == "sampled":
            assert numeric and record["min_n"] >= 1 and record["sample"], where
        if numeric and record["kind"] in ("claim",):
            raise AssertionError(f"{where}: a claim is a statement, not a number")
        if record["kind"] == "derived":
            assert record["criterion"].startswith(targets.DERIVED_PREFIX), where
        if record["kind"] == "uncompared":
            assert record["criterion"].startswith(targets.NOT_COMPARED_PREFIX), where


def test_a_bad_target_row_is_refused_naming_it():
    good = dict(paper="p", artefact="Table 1", row="r", column="c", value=0.5, unit="u",
                kind="sampled", margin="0.05", min_n=100, sample="games", criterion="why",
                source="docs/papers/p.md")
    targets.check_target(good)
    for change, words in ((dict(kind="close"), "kind must be"), (dict(margin=""), "margin"),
                          (dict(margin="about 5"), "a margin is"), (dict(min_n=None), "min_n"),
                          (dict(kind="derived"), "derived from"),
                          (dict(kind="uncompared"), "not compared"),
                          (dict(criterion="not compared: x"), "kind uncompared"),
                          (dict(criterion=""), "a criterion"),
                          (dict(value="many"), "a sampled target is a number"),
                          (dict(kind="config", uninformative="echoed back"), "only an outcome"),
                          (dict(cause="see the docs"), "a cause is")):
        with pytest.raises(ValueError, match=words):
            targets.check_target(dict(good, **change))
    assert targets.margin_bounds(0.632, "0.05") == pytest.approx((0.582, 0.682))
    assert targets.margin_bounds(685, "20%") == pytest.approx((548, 822))
    assert targets.margin_bounds(300, "x3") == pytest.approx((100, 900))
    assert targets.margin_bounds(-2.0, "x2") == pytest.approx((-4.0, -1.0))


def test_values_keep_the_type_they_are_written_in():
    assert targets.value("tsp_mcts_vs_sa", "Sec. 4", "MCT_RM",
                         "speed-up over SA at equal or better length") == 685
    assert isinstance(targets.value("tsp_mcts_vs_sa", "Sec. 4", "MCT_RM",
                                    "speed-up over SA at equal or better length"), int)
    assert isinstance(targets.value("sudoku_less_clue", "Table 1",
                                    "fully random, mean, rules no", "N=18"), float)
    assert targets.value("go_state_tabu", "Table 3", "gTabu18-hash-win",
                         "binomial test against 0.5 at 5%") == "significant"
    with pytest.raises(KeyError, match="no target Table 9"):
        targets.value("go_state_tabu", "Table 9", "x", "y")


def test_the_domains_read_their_numbers_from_the_targets_files():
    from mctslab.go import tables as go_tables
    from mctslab.sudoku import tables as sudoku_tables
    from mctslab.tsp import tables as tsp_tables

    assert go_tables.PAPER_TABLE2["gTabu18-hash-win"] == (277, 263)
    assert go_tables.PAPER_TABLE4[8] == 1700
    assert sudoku_tables.PAPER_TABLE2[(1.0, 40)] == (117.0, 90.5, 7469.8, 78794.0)
    assert tsp_tables.PAPER_CP[("sd", 4.0)] == 0.634


def test_the_briefs_are_those_of_the_one_list(tmp_path):
    """BRIEFS comes from mctslab.NOTEBOOKS (each notebook's link to its brief): every paper has
    its brief, and a notebook without one, or a brief without a notebook, is an error."""
    assert sorted(BRIEFS.values()) == sorted(mctslab.NOTEBOOKS.values())
    assert BRIEFS["many-faces-knowledge.md"] == "manyfaces_knowledge"
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "docs" / "papers").mkdir(parents=True)
    for name in ("toy.md", "README.md"):
        (tmp_path / "docs" / "papers" / name).write_text("# brief\n")
    cell = {"cell_type": "markdown", "source": ["See [the brief](../docs/papers/toy.md)."]}
    (tmp_path / "notebooks" / "toy_nb.ipynb").write_text(json.dumps({"cells": [cell]}))
    assert briefs({"toy": "toy_nb"}, tmp_path) == {"toy.md": "toy_nb"}
    (tmp_path / "docs" / "papers" / "other.md").write_text("# brief\n")
    with pytest.raises(ValueError, match="briefs of no notebook"):
        briefs({"toy": "toy_nb"}, tmp_path)
    cell["source"] = ["No link."]
    (tmp_path / "notebooks" / "toy_nb.ipynb").write_text(json.dumps({"cells": [cell]}))
    with pytest.raises(ValueError, match="links 0 briefs"):
        briefs({"toy": "toy_nb"}, tmp_path)
