"""The kernels' cache key (mctslab.core.jit): a cached caller notices an edited callee."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import mctslab
from mctslab.core import jit

PACKAGE = Path(mctslab.__file__).resolve().parent


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


@pytest.fixture
def tree(tmp_path):
    """A package ``pkg`` with kernels that import each other in the ways mctslab's do."""
    _write(tmp_path, {
        "pkg/__init__.py": "from pkg import noise\n",
        "pkg/a.py": "X = 1\n",
        "pkg/b.py": "from pkg.a import X\n",
        "pkg/c.py": "from . import a\n",
        "pkg/noise.py": "Y = 2\n",
        "pkg/sub/__init__.py": "from .e import Z\n",
        "pkg/sub/e.py": "from ..b import X\nZ = X\n",
        "pkg/sub/f.py": "import pkg.sub.e\nimport numpy\n",
        "pkg/sub/g.py": "from pkg.sub import Z\n",
    })
    root = (tmp_path / "pkg").resolve()
    jit.ROOTS[root] = "pkg"
    yield root
    del jit.ROOTS[root]


def _names(root, files):
    return sorted(str(Path(f).relative_to(root)) for f in files)


def test_closure_follows_every_import_form(tree):
    assert _names(tree, jit.closure(tree / "b.py")) == ["a.py", "b.py"]
    assert _names(tree, jit.closure(tree / "c.py")) == ["a.py", "c.py"]  # not pkg/__init__
    assert _names(tree, jit.closure(tree / "sub/f.py")) == ["a.py", "b.py", "sub/e.py",
                                                           "sub/f.py"]
    # a name defined in a package's __init__ brings the __init__ and what it imports
    assert _names(tree, jit.closure(tree / "sub/g.py")) == [
        "a.py", "b.py", "sub/__init__.py", "sub/e.py", "sub/g.py"]


def test_digest_changes_with_an_imported_file_only(tree):
    before = jit.closure_digest(tree / "sub/f.py")
    (tree / "noise.py").write_text("Y = 3  # a module f does not import\n")
    assert jit.closure_digest(tree / "sub/f.py") == before
    (tree / "a.py").write_text("X = 10  # two imports away\n")
    assert jit.closure_digest(tree / "sub/f.py") != before


def test_a_file_outside_the_roots_keeps_numbas_key(tmp_path):
    (tmp_path / "m.py").write_text("import os\n")
    assert jit.closure(tmp_path / "m.py") == (str((tmp_path / "m.py").resolve()),)


def test_mctslab_kernels_close_over_their_callees():
    files = _names(PACKAGE, jit.closure(PACKAGE / "go" / "_strong.py"))
    for callee in ("go/_board.py", "go/_heavy.py", "go/_search.py", "core/tree.py", "rng.py"):
        assert callee in files
    assert "go/cli.py" not in files and "go/__init__.py" not in files


_CALLEE = "from numba import njit\n\n\n@njit(cache=True)\ndef f():\n    return {value}\n"
_CALLER = ("from numba import njit\n\nfrom stale.callee import f\n\n\n"
           "@njit(cache=True)\ndef g():\n    return f() + 100\n")
_RUN = """
import sys
if {install}:
    from mctslab.core import jit
    jit.install({root!r}, "stale")
sys.path.insert(0, {parent!r})
from stale.caller import g
print(g(), sum(g.stats.cache_hits.values()))
"""


def _run(tmp_path, install, env):
    code = _RUN.format(install=install, root=str(tmp_path / "stale"), parent=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True).stdout.split()
    return int(out[0]), int(out[1])  # the value, and whether the caller came from the cache


def _stale_package(work: Path) -> None:
    _write(work, {"stale/__init__.py": "", "stale/callee.py": _CALLEE.format(value=1),
                  "stale/caller.py": _CALLER})


def _env(cache_dir: Path | None) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CACHE")}
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = str(cache_dir)
    return env


@pytest.mark.parametrize("cache_dir", [False, True], ids=["in-tree", "NUMBA_CACHE_DIR"])
def test_a_cached_caller_runs_the_edited_callee(tmp_path, cache_dir):
    env = _env(tmp_path / "cache" if cache_dir else None)
    _stale_package(tmp_path)
    assert _run(tmp_path, True, env) == (101, 0)  # compiled
    assert _run(tmp_path, True, env) == (101, 1)  # from the cache
    (tmp_path / "stale" / "callee.py").write_text(_CALLEE.format(value=2))
    assert _run(tmp_path, True, env) == (102, 0)  # the caller recompiled
    assert _run(tmp_path, True, env) == (102, 1)  # and cached again


def test_numbas_own_key_keeps_the_old_callee(tmp_path):
    """Why the module exists. If numba ever keys a caller on its callees, this fails and
    mctslab.core.jit can go."""
    env = _env(None)
    _stale_package(tmp_path)
    assert _run(tmp_path, False, env) == (101, 0)
    (tmp_path / "stale" / "callee.py").write_text(_CALLEE.format(value=2))
    assert _run(tmp_path, False, env) == (101, 1)  # the old callee, from the cache


def test_kernel_modules_take_njit_from_mctslab_core_jit():
    """The locators are installed before any kernel is decorated: every module imports njit
    from mctslab.core.jit, none from numba."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if path.name == "jit.py" and path.parent.name == "core":
            continue
        text = path.read_text()
        if re.search(r"^\s*from numba import [^\n]*\bnjit\b|numba\.njit|^\s*import numba\b",
                     text, re.M):
            offenders.append(str(path.relative_to(PACKAGE)))
    assert offenders == []
