"""The one data lookup.

Every data set (TSPLIB instances, 17-clue Sudoku, GNU Go pattern files, Go games) is found
through :func:`find`, which tries, in order:

1. an explicit path given by the caller,
2. ``$MCTSLAB_DATA/<relpath>``,
3. ``<project>/data/<relpath>`` (the data sets shipped in the repository; see
   :mod:`mctslab.datasets` for what they are, their checksums and the sets fetched on demand).

A miss raises :class:`DataNotFoundError` naming what was looked for and every place tried.
"""

from __future__ import annotations

import os
from pathlib import Path

from mctslab.paths import project_root

__all__ = ["DataNotFoundError", "find", "search_dirs", "available"]


class DataNotFoundError(FileNotFoundError):
    """A data file was not found in any of the lookup locations."""


def search_dirs() -> list[Path]:
    """The data directories, in lookup order (the explicit path excluded)."""
    dirs = []
    env = os.environ.get("MCTSLAB_DATA")
    if env:
        dirs.append(Path(env).expanduser())
    root = project_root()
    dirs.append(root / "data")
    return dirs


def find(relpath: str | os.PathLike, explicit: str | os.PathLike | None = None) -> Path:
    """Return the path of a data file or folder, e.g. ``find("tsplib/eil51.tsp.gz")``.

    ``explicit``, when given, must exist: it is not silently replaced by another copy.
    """
    if explicit is not None:
        path = Path(explicit).expanduser()
        if path.exists():
            return path.resolve()
        raise DataNotFoundError(f"data file {str(path)!r} (given explicitly) does not exist")
    tried = []
    for base in search_dirs():
        path = base / relpath
        tried.append(str(path))
        if path.exists():
            return path.resolve()
    raise DataNotFoundError(
        f"data {str(relpath)!r} not found; looked in: "
        + ", ".join(tried)
        + " (set $MCTSLAB_DATA or pass an explicit path)"
    )


def available(relpath: str | os.PathLike) -> bool:
    """True when :func:`find` would succeed (for tests that skip without the data)."""
    try:
        find(relpath)
    except DataNotFoundError:
        return False
    return True
