"""numba's ``njit`` with a cache that notices an edited callee.

numba keys a cached kernel on its own source file only (a content hash of that file). A kernel
that calls a kernel of another module keeps the machine code it was compiled with, the callee
inlined or linked as it was, after the callee's module changes: after an update (``git pull``)
a cached caller silently runs the old callee. mctslab's kernels call across modules everywhere
(the Go search calls the board, the Sudoku generator the solver), so this module widens the key.

Every kernel module imports ``njit`` from here (``tests/core/test_jit.py`` checks that none takes
it from numba directly). Importing this module puts two cache locators in front of numba's own:
the same places as numba's in-tree and ``NUMBA_CACHE_DIR`` locators, for source files under a
registered root (mctslab's package folder), with a source stamp that is numba's own stamp plus a
digest of every mctslab module the kernel's file imports, followed transitively
(:func:`closure_digest`). A cached kernel is used only if none of those files changed; editing a
module no kernel imports (a table, the command line) leaves every cache valid.

This uses numba's locator list (``numba.core.caching.CacheImpl._locator_classes``, the hook its
``NUMBA_CACHE_LOCATOR_CLASSES`` setting also feeds); if a numba release drops it, :func:`install`
raises rather than silently caching by file.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import os
from pathlib import Path

from numba import njit  # noqa: F401  (re-exported: the one njit of the package)
from numba.core import caching

__all__ = ["njit", "install", "closure", "closure_digest", "ROOTS"]

ROOTS: dict[Path, str] = {}  # a registered package folder -> its package name


def _module_file(parts, package: str, root: Path) -> str | None:
    """The file of module ``parts`` (a list of names) if it lies under ``root``, else None."""
    if not parts or parts[0] != package:
        return None
    base = root.parent.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return str(candidate)
    return None


def _named_modules(node, pkg_parts) -> list[tuple[list[str], list[str]]]:
    """An import statement's modules: (the module's names, the names imported from it)."""
    if isinstance(node, ast.Import):
        # `import a.b.c` runs a, a.b and a.b.c; what the code uses is a.b.c
        return [(alias.name.split("."), []) for alias in node.names]
    if node.level:  # relative: `from . import x`, `from ..m import y`
        parts = list(pkg_parts[:len(pkg_parts) - (node.level - 1)])
        parts += node.module.split(".") if node.module else []
    else:
        parts = node.module.split(".") if node.module else []
    return [(parts, [alias.name for alias in node.names])]


@functools.cache
def _imports(path: str, mtime_ns: int, size: int, package: str, root: str) -> tuple[str, ...]:
    """The files under ``root`` that ``path`` imports by name (one level, not transitive)."""
    root_path = Path(root)
    here = Path(path).relative_to(root_path.parent).with_suffix("").parts
    pkg_parts = here[:-1]
    if here[-1] == "__init__":
        pkg_parts = here = here[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(Path(path).read_text(), filename=path)):
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        for parts, names in _named_modules(node, pkg_parts):
            # `from m import a`: a submodule `m.a`, or a name defined in m itself
            subs = [_module_file(parts + [name], package, root_path) for name in names]
            found.update(f for f in subs if f)
            if not names or not all(subs):
                f = _module_file(parts, package, root_path)
                if f:
                    found.add(f)
    found.discard(path)
    return tuple(sorted(found))


def _root_of(path: Path) -> tuple[Path, str] | None:
    for root, package in ROOTS.items():
        try:
            path.relative_to(root)
        except ValueError:
            continue
        return root, package
    return None


def closure(path: str | os.PathLike) -> tuple[str, ...]:
    """``path`` and every file under its root it imports, followed transitively, sorted."""
    path = Path(path).resolve()
    hit = _root_of(path)
    if hit is None:
        return (str(path),)
    root, package = hit
    seen: set[str] = set()
    todo = [str(path)]
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        st = os.stat(f)
        todo.extend(_imports(f, st.st_mtime_ns, st.st_size, package, str(root)))
    return tuple(sorted(seen))


@functools.cache
def _file_hash(path: str, mtime_ns: int, size: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def closure_digest(path: str | os.PathLike) -> str:
    """A digest of the contents of :func:`closure`'s files (their names relative to the root)."""
    files = closure(path)
    hit = _root_of(Path(path).resolve())
    base = hit[0].parent if hit else Path("/")
    h = hashlib.sha256()
    for f in files:
        st = os.stat(f)
        h.update(os.path.relpath(f, base).encode())
        h.update(_file_hash(f, st.st_mtime_ns, st.st_size).encode())
    return h.hexdigest()


class _ClosureStamp:
    """Mixed into numba's locators: the stamp is numba's own and the imports' digest."""

    def get_source_stamp(self):
        return super().get_source_stamp(), closure_digest(self._py_file)

    @classmethod
    def from_function(cls, py_func, py_file):
        if _root_of(Path(py_file).resolve()) is None:
            return None
        return super().from_function(py_func, py_file)


class InTreeClosureLocator(_ClosureStamp, caching.InTreeCacheLocator):
    """numba's in-tree (``__pycache__``) locator, keyed on the kernel's import closure."""


class UserProvidedClosureLocator(_ClosureStamp, caching.UserProvidedCacheLocator):
    """numba's ``NUMBA_CACHE_DIR`` locator, keyed on the kernel's import closure."""


def install(root: str | os.PathLike | None = None, package: str | None = None) -> None:
    """Key the caches of kernels under ``root`` (mctslab's folder by default) on their imports.

    Idempotent. Kernels decorated before the call keep numba's own key.
    """
    if root is None:
        root, package = Path(__file__).resolve().parents[1], "mctslab"
    root = Path(root).resolve()
    ROOTS[root] = package or root.name
    classes = getattr(caching.CacheImpl, "_locator_classes", None)
    if classes is None:
        raise RuntimeError("numba's cache has no _locator_classes list: mctslab cannot key its "
                           "kernels' caches on their imports with this numba "
                           f"({caching.__file__}); delete the __pycache__ *.nbi/*.nbc files "
                           "after every update instead")
    for cls in (InTreeClosureLocator, UserProvidedClosureLocator):
        if cls in classes:
            classes.remove(cls)
    # the user's NUMBA_CACHE_DIR first, as numba orders its own
    classes[:0] = [UserProvidedClosureLocator, InTreeClosureLocator]


install()
