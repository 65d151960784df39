"""The house's size and import rules measured on the source with ``ast`` (issue 28), for the
tests (``tests/core/test_import_graph.py``) and ``scripts/code-sizes``, which prints the counts.

STYLE.md: modules under ~400 lines, functions under ~60, a kernel needing many arrays takes
named bundles rather than many positional arguments, and imports go at the top of a module. A
function-local import is allowed only where :data:`LOCAL_IMPORTS_ALLOWED` says why.
"""

from __future__ import annotations

import ast
import fnmatch
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "mctslab"

# Where an import may sit inside a function, and why: (importing module, imported module) ->
# reason. The importing module is a pattern of dotted names (fnmatch); the imported module
# matches itself and its submodules ("mctslab" allows every mctslab module). Anything else goes
# at the top of its module (tests/core/test_import_graph.py fails on it, naming file and line).
LOCAL_IMPORTS_ALLOWED = {
    ("mctslab.cli", "mctslab"):
        "a verb imports its modules when it runs, so `mctslab --help` and the quick verbs do "
        "not import every domain (numba kernels, pandas, papermill)",
    ("mctslab.*.cli", "mctslab"):
        "the domain's verbs are added to every `mctslab` command line: each imports its "
        "modules when it runs, so `mctslab --help` stays fast",
    ("mctslab.*.bench", "mctslab"):
        "`mctslab bench` imports every domain's bench module to list the benchmarks; a "
        "benchmark imports what it times when it runs",
    ("mctslab.go.bench", "pyspiel"):
        "OpenSpiel is the optional same-run reference of `mctslab bench go` (the bench extra)",
    ("mctslab.go.bench", "open_spiel"):
        "OpenSpiel is the optional same-run reference of `mctslab bench go` (the bench extra)",
    ("mctslab.core.executor", "distributed"):
        "Dask: only a run given a scheduler needs it, and importing it costs about a second",
    ("mctslab.pipeline", "papermill"):
        "papermill pulls in nbconvert and the Jupyter machinery: imported by the verbs that "
        "run or inspect notebooks, not by every `mctslab` command",
    ("mctslab.datasets", "pooch"):
        "only `mctslab data fetch` downloads",
    ("mctslab.tsp.lkh", "elkai"):
        "LKH-3 (elkai) is loaded when the lkh method runs, and its absence is a clear error",
    ("mctslab.core.stopping", "fcntl"):
        "POSIX only: without it the output lock is skipped (`except ImportError`)",
}


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package: dotted name -> file."""
    return {("mctslab." + ".".join(p.relative_to(package).with_suffix("").parts))
            .removesuffix(".__init__"): p for p in sorted(package.rglob("*.py"))}


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    for _ in range(node.level - 1):
        package = package.rsplit(".", 1)[0]
    return f"{package}.{node.module}" if node.module else package


@dataclass(frozen=True)
class LocalImport:
    module: str      # the importing module
    line: int
    imported: str    # the module imported (absolute)

    def __str__(self) -> str:
        return f"{self.module}:{self.line} imports {self.imported}"


def function_local_imports(package: Path = PACKAGE) -> list[LocalImport]:
    """Every import statement inside a function (or method) of the package."""
    found, known = [], modules(package)
    for module, path in known.items():
        seen = set()
        for function in ast.walk(ast.parse(path.read_text())):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(function):
                if id(node) in seen or not isinstance(node, (ast.Import, ast.ImportFrom)):
                    continue
                seen.add(id(node))
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                else:  # `from package import module` imports the module
                    base = _absolute(module, path, node)
                    names = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                             for a in node.names]
                found += [LocalImport(module, node.lineno, name) for name in dict.fromkeys(names)]
    return sorted(found, key=lambda i: (i.module, i.line, i.imported))


def allowed_by(local: LocalImport, allowed: dict = LOCAL_IMPORTS_ALLOWED):
    """The allow-list entry that lets ``local`` be, or None."""
    for key in allowed:
        pattern, imported = key
        if fnmatch.fnmatchcase(local.module, pattern) and (
                local.imported == imported or local.imported.startswith(imported + ".")):
            return key
    return None


def unreasoned_local_imports(package: Path = PACKAGE) -> list[LocalImport]:
    """Function-local imports that no entry of :data:`LOCAL_IMPORTS_ALLOWED` allows."""
    return [i for i in function_local_imports(package) if allowed_by(i) is None]


def module_lines(package: Path = PACKAGE) -> dict[str, int]:
    """Lines of each module."""
    return {m: len(p.read_text().splitlines()) for m, p in modules(package).items()}


def _functions(package: Path):
    for module, path in modules(package).items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield module, node


def function_lines(package: Path = PACKAGE) -> dict[str, int]:
    """Lines of each function and method (``module:line name``), its ``def`` to its end."""
    return {f"{m}:{f.lineno} {f.name}": f.end_lineno - f.lineno + 1
            for m, f in _functions(package)}


def _is_kernel(function: ast.FunctionDef) -> bool:
    """Decorated with numba's ``njit`` (or ``jit``), bare or called, by name or attribute."""
    for decorator in function.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in ("njit", "jit"):
            return True
    return False


def kernel_arguments(package: Path = PACKAGE) -> dict[str, int]:
    """Arguments of each numba kernel (``module:line name``)."""
    counts = {}
    for m, f in _functions(package):
        if _is_kernel(f):
            a = f.args
            counts[f"{m}:{f.lineno} {f.name}"] = (len(a.posonlyargs) + len(a.args)
                                                  + len(a.kwonlyargs))
    return counts


def over(counts: dict[str, int], limit: int) -> dict[str, int]:
    """The entries of ``counts`` above ``limit``, largest first."""
    return dict(sorted(((k, v) for k, v in counts.items() if v > limit),
                       key=lambda kv: (-kv[1], kv[0])))
