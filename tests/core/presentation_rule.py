"""The domain contract's rule that tables and figures compute nothing, through any path
(``tests/core/test_domain_contract.py`` checks it for every domain and shows it failing on a
fake domain): what ``tables.py`` and ``figures.py`` import and reach, read with ``ast``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import mctslab
from mctslab.core import coderules

DOMAINS = mctslab.DOMAINS


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text())


# -- tables and figures compute nothing: no files, no kernels, no experiments, by any path -----
# Calls that open, read, write or list files: a builtin, a method of any object (a Path's, an
# archive's, a figure's), or a function of a module (as the module is usually imported).
FILE_BUILTINS = {"open"}
FILE_METHODS = {"open", "read_text", "read_bytes", "write_text", "write_bytes", "iterdir",
                "glob", "rglob", "savefig", "to_csv", "to_json", "to_parquet", "to_pickle"}
FILE_FUNCTIONS = {
    "np": {"load", "loadtxt", "genfromtxt", "fromfile", "save", "savez", "savez_compressed",
           "savetxt"},
    "pd": {"read_csv", "read_json", "read_parquet", "read_pickle", "read_table", "read_excel",
           "read_feather", "read_fwf", "read_hdf"},
    "json": {"load", "dump"}, "pickle": {"load", "dump"}, "os": {"open", "listdir", "scandir"},
    "gzip": {"open"}, "bz2": {"open"}, "lzma": {"open"}, "io": {"open"}, "tarfile": {"open"},
    "zipfile": {"ZipFile"}, "shutil": {"copyfile", "copy", "copytree"},
}
FILE_FUNCTIONS["numpy"], FILE_FUNCTIONS["pandas"] = FILE_FUNCTIONS["np"], FILE_FUNCTIONS["pd"]


def _dotted_modules(package: Path) -> dict[str, Path]:
    return {("mctslab." + ".".join(p.relative_to(package).with_suffix("").parts))
            .removesuffix(".__init__"): p for p in sorted(package.rglob("*.py"))}


def _bindings(module: str, modules: dict[str, Path]) -> dict[str, tuple[str, str | None]]:
    """Each name an import binds anywhere in ``module`` -> (the module it comes from, the name
    there; None when the name is that module)."""
    path = modules[module]
    found = {}
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found[alias.asname or alias.name.split(".")[0]] = (
                    alias.name if alias.asname else alias.name.split(".")[0], None)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
                for _ in range(node.level - 1):
                    package = package.rsplit(".", 1)[0]
                base = f"{package}.{base}" if node.module else package
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found[alias.asname or alias.name] = (full, None) if full in modules \
                    else (base, alias.name)
    return found


def origin(module: str, name: str, modules: dict[str, Path], hops: int = 0):
    """(module, name) where ``name`` of ``module`` is defined, following re-exports: a name
    imported from a module that imported it is traced to the first one (name None: a module)."""
    binding = _bindings(module, modules).get(name) if module in modules else None
    if binding is None or hops > 20:
        return module, name
    source, there = binding
    if there is None or source not in modules:
        return source, there
    return origin(source, there, modules, hops + 1)


def _last(module: str) -> str:
    return module.rsplit(".", 1)[-1]


def _is_kernel_module(module: str) -> bool:
    return _last(module).startswith("_") and not _last(module).startswith("__")


def presentation_modules(package: Path, domain: str) -> dict[str, list[str]]:
    """``tables`` and ``figures`` of the domain and every module of the domain they import,
    through any path (not the package ``__init__``, a kernel module or ``experiments``, which
    the rule judges where they are imported): dotted module -> the import path to it."""
    modules = _dotted_modules(package)
    prefix = f"mctslab.{domain}."
    queue = [(f"{prefix}{stem}", [f"{stem}.py"]) for stem in ("tables", "figures")
             if f"{prefix}{stem}" in modules]
    found = {}
    while queue:
        module, chain = queue.pop(0)
        if module in found:
            continue
        found[module] = chain
        for source, there in _bindings(module, modules).values():
            target = source if there is None else source
            if there is not None and f"{source}.{there}" in modules:
                target = f"{source}.{there}"
            if target.startswith(prefix) and target in modules and not (
                    _is_kernel_module(target) or _last(target) == "experiments"):
                queue.append((target, [*chain, f"{_last(target)}.py"]))
    return found


def _file_call(node: ast.Call, bound: dict) -> str | None:
    """What a call opens, reads, writes or lists a file with, or None."""
    func = node.func
    if isinstance(func, ast.Name) and func.id in FILE_BUILTINS and func.id not in bound:
        return func.id
    if isinstance(func, ast.Attribute):
        owner = func.value.id if isinstance(func.value, ast.Name) else None
        module = bound.get(owner, (owner, None))[0] if owner else None
        short = {"numpy": "np", "pandas": "pd"}.get(module, module)
        if short in FILE_FUNCTIONS and func.attr in FILE_FUNCTIONS[short]:
            return f"{owner}.{func.attr}"
        if short not in FILE_FUNCTIONS and func.attr in FILE_METHODS and (
                not func.attr.startswith("to_") or node.args or node.keywords):
            return f".{func.attr}"
    return None


class _Code:
    """The package's modules read once: their import bindings and their units (module-level
    functions and classes by name, ``<module>`` for the code run at import)."""

    def __init__(self, package: Path):
        self.modules = _dotted_modules(package)
        self._bound, self._units = {}, {}

    def bound(self, module: str) -> dict:
        if module not in self._bound:
            self._bound[module] = _bindings(module, self.modules)
        return self._bound[module]

    def units(self, module: str) -> dict[str, ast.AST]:
        if module not in self._units:
            tree = _tree(self.modules[module])
            defs = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
            units = {n.name: n for n in tree.body if isinstance(n, defs)}
            units["<module>"] = ast.Module([n for n in tree.body if not isinstance(n, defs)],
                                           type_ignores=[])
            self._units[module] = units
        return self._units[module]

    def referenced(self, module: str, node: ast.AST) -> tuple[str, str] | None:
        """The (module, name) a name or ``module.name`` in ``module`` refers to."""
        bound = self.bound(module)
        if isinstance(node, ast.Name):
            if node.id in bound:
                return origin(module, node.id, self.modules)
            return (module, node.id) if node.id in self.units(module) else None
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and bound.get(node.value.id, ("", ""))[1] is None:
            return origin(bound[node.value.id][0], node.attr, self.modules)
        return None

    def is_kernel(self, module: str, name: str | None) -> bool:
        if name is None or not _is_kernel_module(module) or module not in self.modules:
            return False
        function = self.units(module).get(name)
        return isinstance(function, ast.FunctionDef) and coderules._is_kernel(function)


def _walk_unit(node: ast.AST):
    """The nodes of a unit (a ``<module>`` unit's without the bodies of its definitions)."""
    yield from ast.walk(node)


def reachable(package: Path, domain: str, code: _Code | None = None) -> dict:
    """Every unit (module, name) of a domain module that ``tables`` or ``figures`` reach
    through any path of names (a call, a function handed on, a class and all its methods;
    re-exports followed; kernel modules not entered) -> the path to it."""
    code = code or _Code(package)
    domains = tuple(f"mctslab.{d}." for d in (*DOMAINS, domain))
    start = [(f"mctslab.{domain}.{stem}", name) for stem in ("tables", "figures")
             if f"mctslab.{domain}.{stem}" in code.modules
             for name in code.units(f"mctslab.{domain}.{stem}")]
    found = {unit: [f"{_last(unit[0])}.{unit[1]}"] for unit in start}
    queue = list(start)
    while queue:
        module, name = queue.pop(0)
        for node in _walk_unit(code.units(module)[name]):
            targets = [code.referenced(module, node)]
            if isinstance(node, (ast.Import, ast.ImportFrom)):  # an import runs its module
                bound = code.bound(module)
                targets = [(origin(*bound[a.asname or a.name.split(".")[0]], code.modules)[0]
                            if bound[a.asname or a.name.split(".")[0]][1] else
                            bound[a.asname or a.name.split(".")[0]][0], "<module>")
                           for a in node.names if (a.asname or a.name.split(".")[0]) in bound]
            for target in targets:
                if target is None or target in found or not target[0].startswith(domains) \
                        or _is_kernel_module(target[0]) or target[0] not in code.modules \
                        or target[1] not in code.units(target[0]):
                    continue
                for unit in (target, (target[0], "<module>")):  # its module's code runs too
                    if unit not in found:
                        found[unit] = [*found[(module, name)], f"{_last(unit[0])}.{unit[1]}"]
                        queue.append(unit)
    return found


def presentation_problems(package: Path, domain: str) -> list[str]:
    """Tables and figures compute nothing, through any path: no module of the domain they
    import, directly or through others, imports an ``experiments`` module or a name of one
    (re-exported by ``tables`` or any other: laundering counts); and no code they reach
    (:func:`reachable`) opens, reads, writes or lists a file (:data:`FILE_BUILTINS`,
    :data:`FILE_METHODS`, :data:`FILE_FUNCTIONS`) or calls a kernel (an ``@njit`` function of
    a ``_*.py`` module, re-exports followed)."""
    code = _Code(package)
    problems = []
    for module, chain in presentation_modules(package, domain).items():
        where = f"{domain}/{' -> '.join(chain)}"
        for local, (source, there) in sorted(code.bound(module).items()):
            home = source if there is None else origin(source, there, code.modules)[0]
            if _last(home) == "experiments":
                via = "" if home == source else f", re-exported by {source}"
                problems.append(f"{where} imports {local} from {home}{via}: tables and figures "
                                f"are given the results, they run no experiment")
    for (module, name), chain in reachable(package, domain, code).items():
        where = f"{domain}: {' -> '.join(chain)}"
        bound = code.bound(module)
        for node in _walk_unit(code.units(module)[name]):
            if not isinstance(node, ast.Call):
                continue
            opened = _file_call(node, bound)
            if opened:
                problems.append(f"{where} ({_last(module)}.py:{node.lineno}) calls {opened}: "
                                f"tables and figures read no file, they are given what they show")
            target = code.referenced(module, node.func)
            if target is not None and code.is_kernel(*target):
                problems.append(f"{where} ({_last(module)}.py:{node.lineno}) calls the kernel "
                                f"{target[0]}.{target[1]}: measurements are tasks of the "
                                f"experiments")
    return sorted(set(problems))
