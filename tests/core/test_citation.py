"""What a researcher cites: LICENSE, CITATION.cff and CHANGELOG.md agree with the package."""

import re
import tomllib
from pathlib import Path

import yaml

import mctslab

ROOT = Path(__file__).resolve().parents[2]


def test_license_is_the_mit_text():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == {"text": "MIT"} and project["authors"]


def test_version_has_one_source():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "mctslab.__version__"}


def test_citation_cff_names_the_version_and_the_five_papers():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0" and cff["type"] == "software"
    assert cff["version"] == mctslab.__version__
    assert cff["license"] == "MIT" and cff["authors"]
    titles = " | ".join(ref["title"] for ref in cff["references"])
    for words in ("Game State Tabu Lists", "Less-Clue Sudoku", "Monte-Carlo Tree Search to the TSP",
                  "The Many Faces of Go", "Othello by differential evolution"):
        assert words in titles, words
    for ref in cff["references"]:
        assert ref["type"] and ref["authors"], ref["title"]
        for author in ref["authors"]:  # a person has a family name, an entity a name
            assert author.get("family-names") or author.get("name"), ref["title"]
        if "doi" in ref:
            assert re.fullmatch(r"10\.\d{4,9}/\S+", ref["doi"]), ref["doi"]


def test_changelog_has_a_section_for_this_version():
    changelog = (ROOT / "CHANGELOG.md").read_text()
    versions = re.findall(r"^## (\d+\.\d+\.\d+)", changelog, flags=re.MULTILINE)
    assert versions and versions[0] == mctslab.__version__, versions[:2]
