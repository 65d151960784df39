"""The tables of ``docs/bench/*.md`` that come from a committed record, generated from it, so
that no number is copied by hand.

A generated table sits between two comment lines naming its source, a record folder (relative
to the project root) and one of its tables, optionally with the columns to show::

    <!-- from-record: records/<notebook>/paper-2026-11-27 fig8_mean_ratio_to_sa -->
    From `records/<notebook>/paper-2026-11-27/fig8_mean_ratio_to_sa.csv` (scale paper, ...):

    | method | ratio |
    ...
    <!-- /from-record -->

    <!-- from-record: records/... census_connections columns=type,cut,total -->
    <!-- from-record: records/... table4_candidates columns=L,per playout,Eq. 12 bound -->

A record folder of a domain's own kind gives its record hook's summary table (any table
name), and the tables of the hooks' ``TABLES`` by their names, each built from the folder and
cited as the hook says (:func:`mctslab.records.hooked_tables`; the hook's signatures are in
:mod:`mctslab.records`).

:func:`update` rewrites every block from its record (``mctslab records docs``); :func:`stale`
lists the blocks whose text differs from what the record gives, which ``mctslab records check``
(part of ``make test``) reports as errors, so a hand-edited number or a record replaced under a
table fails. Prose around a block cites the record by its path and quotes no number of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from mctslab import paths
from mctslab.core.scorecard import md_table
from mctslab.records import hooked_tables, markdown_table, select_columns

__all__ = ["Block", "blocks", "render", "stale", "update", "bench_pages"]

_BEGIN = re.compile(r"^<!-- from-record: (?P<spec>[^>]*?) -->\n", re.M)
_END = "<!-- /from-record -->"


@dataclass(frozen=True)
class Block:
    """One generated table of a page: where it is, its source and the text it holds now."""

    page: Path
    line: int          # 1-based line of the opening comment
    record: str        # the record folder, relative to the project root
    table: str         # the table's stem
    columns: tuple[str, ...]
    start: int         # character offsets of the generated text (between the comments)
    end: int
    text: str

    def where(self) -> str:
        return f"{self.page}:{self.line}"


def _base(root) -> Path:
    return Path(root) if root is not None else paths.project_root()


def bench_pages(root=None) -> list[Path]:
    """The pages whose blocks are checked: ``docs/bench/*.md`` and ``BENCHMARKS.md``."""
    base = _base(root)
    pages = sorted((base / "docs" / "bench").glob("*.md"))
    return pages + [p for p in [base / "BENCHMARKS.md"] if p.is_file()]


def _parse_spec(spec: str, where: str) -> tuple[str, str, tuple[str, ...]]:
    """``folder table [columns=a,b c,d]``: the columns are the rest of the line split at commas,
    so a column's name may hold spaces (``columns=L,per playout``)."""
    head, _, columns = spec.partition(" columns=")
    words = head.split()
    if len(words) != 2 or head.strip().startswith("columns="):
        raise ValueError(f"{where}: a from-record comment names a record folder and a table "
                         f"(then optionally columns=a,b), got {spec!r}")
    return words[0], words[1], tuple(c.strip() for c in columns.split(",") if c.strip())


def blocks(page) -> list[Block]:
    """Every generated block of ``page``; an opening comment without its closing one is an
    error naming the line."""
    page = Path(page)
    text = page.read_text()
    found = []
    for match in _BEGIN.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        where = f"{page}:{line}"
        end = text.find(_END, match.end())
        following = _BEGIN.search(text, match.end())
        if end < 0 or (following and following.start() < end):
            raise ValueError(f"{where}: from-record block without its closing {_END}")
        record, table, columns = _parse_spec(match.group("spec"), where)
        found.append(Block(page, line, record, table, columns, match.end(), end,
                           text[match.end():end]))
    return found


def _cited(block: Block, folder: Path, frame, how: str) -> str:
    """A table built from a record, under a line citing the record, the table and ``how``."""
    return (f"From `{block.record}` (`{block.table}`{how}):\n\n"
            + md_table(select_columns(frame, block.columns, folder)))


def _hooked_table(folder: Path, block: Block, build, how: str) -> str:
    """A table of a domain's record hook; a folder it does not read is named with the block."""
    try:
        frame = build(folder)
    except KeyError as error:
        raise KeyError(f"{block.where()}: {block.table} is {error.args[0]}") from None
    return _cited(block, folder, frame, how)


def render(block: Block, root=None) -> str:
    """The text the block's record gives: a line citing the record, a blank line, the table."""
    base = _base(root)
    folder = base / block.record
    if not folder.is_dir():
        raise FileNotFoundError(f"{block.where()}: no record folder {block.record}")
    hooked = hooked_tables()
    if block.table in hooked:
        return _hooked_table(folder, block, *hooked[block.table]) + "\n"
    return markdown_table(folder, block.table, columns=block.columns, relative_to=base) + "\n"


def _rendered(root):
    """Each page with its blocks, each block with the text its record gives (or the error
    that names why it cannot be made); an unclosed or malformed block: the page's error."""
    for page in bench_pages(root):
        try:
            found = blocks(page)
        except ValueError as error:
            yield page, str(error), []
            continue
        pairs = []
        for block in found:
            try:
                pairs.append((block, render(block, root)))
            except (FileNotFoundError, KeyError) as error:
                pairs.append((block, error))
        yield page, None, pairs


def stale(root=None) -> list[str]:
    """One line per block whose text is not what its record gives (or whose record or table
    is missing), naming the page and line; empty when every block is current."""
    problems = []
    for _, page_error, pairs in _rendered(root):
        if page_error:
            problems.append(page_error)
        for block, wanted in pairs:
            if isinstance(wanted, Exception):
                problems.append(str(wanted).strip("'\""))
            elif block.text != wanted:
                problems.append(f"{block.where()}: the table from {block.record} "
                                f"{block.table} differs from the record (edited by hand, or "
                                f"the record changed): run `mctslab records docs`")
    return problems


def update(root=None) -> list[Block]:
    """Rewrite every block from its record; returns the blocks that changed. A block that
    cannot be made (its page's error, a missing record) raises, and nothing of that page is
    written."""
    changed = []
    for page, page_error, pairs in _rendered(root):
        if page_error:
            raise ValueError(page_error)
        text = page.read_text()
        pieces, last = [], 0
        for block, wanted in pairs:
            if isinstance(wanted, Exception):
                raise wanted
            pieces += [text[last:block.start], wanted]
            last = block.end
            if wanted != block.text:
                changed.append(block)
        new = "".join(pieces) + text[last:]
        if new != text:
            page.write_text(new)
    return changed
