"""The house's code rules, measured on the source with ``ast``: module and function sizes,
numba kernels' argument counts, function-local imports and ruff's waived findings (``# noqa``
comments and ``per-file-ignores`` of C901, PLR0913, PLR0915). The tests
(``tests/core/test_code_rules.py``, ``tests/core/test_import_graph.py``) hold the package to the
rules; ``python -m mctslab.core.coderules [CHECKOUT] [--list]`` (``scripts/code-sizes``) prints
the counts of a checkout, so the before and after of a refactor are measured, not counted.

STYLE.md: modules under ~400 lines, functions under ~60, a kernel needing many arrays takes
named bundles rather than many positional arguments, and imports go at the top of a module. A
function-local import is allowed only where :data:`LOCAL_IMPORTS_ALLOWED` says why.
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import io
import json
import re
import sys
import tokenize
import tomllib
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]

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
    ("mctslab.*.cli_*", "mctslab"):
        "a part of the domain's verbs (cli_engine: the engine options and the search verb), "
        "added to every `mctslab` command line like cli.py",
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


# The hard limits (tests/core/test_code_rules.py fails past any of them) and STYLE.md's soft
# ones, past which a module or function is listed below with its reason.
HARD_MODULE_LINES = 550
HARD_FUNCTION_LINES = 100
HARD_WIDE_KERNELS = 3      # kernels over KERNEL_ARGUMENTS arguments
KERNEL_ARGUMENTS = 15
SOFT_KERNEL_ARGUMENTS = 10  # ruff's PLR0913 limit for Python functions, counted for kernels
SOFT_MODULE_LINES = 400
SOFT_FUNCTION_LINES = 60

# Modules over STYLE.md's ~400 lines, each with why it stays one module. A module that grows
# past 400 fails until its reason is written here; one back under 400 fails until it is removed.
MODULES_OVER_400 = {
    "mctslab.go.tables": "the state-tabu paper's Tables 2-4, Fig. 5's counts and paper_vs_run "
                         "read the same Played results: one paper, one tables module, as in "
                         "the other four domains",
    "mctslab.go.experiments": "the paper's protocol (scales, Config, every task and runner of "
                              "the notebook); the strong engine's rows share its Config",
    "mctslab.go._board": "the board kernels (play, legality, strings, eyes, score, hash) share "
                         "one array layout; split, numba would compile the helpers twice",
    "mctslab.go.gtp": "one GTP 2 engine: the command table and each command's handler",
    "mctslab.go.gnugo": "the GTP client with its failure detection (crash, hang, garbage, "
                        "restart), each failure mode next to the call it guards",
    "mctslab.go._patterns": "the pattern playout's kernels: tactics near the last move and the "
                            "3x3 table, called from one sampling loop",
    "mctslab.go.match": "the one game loop, the game task and the match summary (every "
                        "match of the three papers plays through this one loop on purpose)",
    "mctslab.go.api": "Board, search and GTP vertices: the public Go API in one place",
    "mctslab.manyfaces._knowledge": "the knowledge kernels (strings, liberties, connections, "
                                    "eyes) share one pass over the board per update level",
    "mctslab.manyfaces.joseki": "the joseki DAG, its 6-bit encoding and the GNU Go reader: the "
                                "paper's one section, and the compression figures read all three",
    "mctslab.manyfaces.patterns": "the mkpat parser and its compiler to 8x8 masks: the reader "
                                  "and the matcher's data format change together",
    "mctslab.manyfaces.knowledge": "Knowledge, the paper's three update levels over one board",
    "mctslab.manyfaces._match": "the 8x8 mask matcher's kernels (anchors, rematch near a move)",
    "mctslab.tsp.experiments": "the TSP paper's protocol: scales, Config with its field checks, "
                               "tasks and runners",
    "mctslab.tsp.tables": "every TSP table reads the same long result table",
    "mctslab.tsp.api": "the solvers' Python side: validation, arrays, timing, one SolveResult "
                       "per method",
    "mctslab.sudoku.tables": "Tables 1 and 2, the 17-clue hunt, the baseline and paper_vs_run "
                             "read the same generation results",
    "mctslab.sudoku.readings_run": "the readings search's long run: its phases, the record it "
                                   "writes from the store, the tables read back from that "
                                   "record, staging for the notebook, and the one command "
                                   "line that drives them all (python -m ...readings_run)",
    "mctslab.othello.learning": "DE/rand/1/bin's individual and group learning: Sec. 4 and 5 "
                                "share the population, the mutation and the fitness",
    "mctslab.othello.tables": "Tables 3 and 4, the repetitions and the claims read the same "
                              "learned and evaluated results",
    "mctslab.records": "a notebook record: saving, checking (sums, manifest, every verdict "
                       "judged again), the scorecard and tables read from records",
    "mctslab.pipeline": "mctslab reproduce and list: papermill, the run folder, the manifest",
}

# Functions over STYLE.md's ~60 lines, each with why it stays whole.
FUNCTIONS_OVER_60 = {
    "mctslab.go.api search": "the search's keyword arguments, each checked with its message",
    "mctslab.manyfaces._match match_anchor": "a kernel's hot loop: every case inline, no helper "
                                              "call per window",
    "mctslab.go.tables paper_vs_run": "one row per target of the paper, in the paper's order",
    "mctslab.go._patterns sample_near_move": "a kernel's hot loop: each tactic inline",
    "mctslab.go.cli add_parser": "every go verb's arguments, one by one",
    "mctslab.tsp._sa sa_swap": "a kernel's annealing loop, inline",
    "mctslab.go._patterns liberties_after": "a kernel: each neighbour case of a move inline",
    "mctslab.pipeline _reproduce_one": "one notebook's run: papermill, manifest, checks",
    "mctslab.tsp.api sa_2opt": "the annealing's arguments checked and passed to its kernel",
    "mctslab.sudoku._solver propagate": "a kernel's propagation loop, inline",
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


def _unexplained(long: dict[str, int], listed: dict, limit: int, name: str) -> list[str]:
    """Entries of ``long`` (over the soft ``limit``) missing from ``listed`` (the dict called
    ``name``), and entries of ``listed`` no longer over it."""
    return ([f"{key}: {long[key]} lines, over {limit} with no reason in {name} (split it, or "
             "write why)" for key in sorted(set(long) - set(listed))]
            + [f"{key}: listed in {name} but not over {limit} lines: remove it"
               for key in sorted(set(listed) - set(long))])


def size_problems(package: Path = PACKAGE, modules_over=None, functions_over=None) -> list[str]:
    """The hard limits, and every module and function past STYLE.md's soft ones without
    a reason in :data:`MODULES_OVER_400` / :data:`FUNCTIONS_OVER_60` (or with one no longer
    needed). Empty when the package keeps the rules."""
    modules_over = MODULES_OVER_400 if modules_over is None else modules_over
    functions_over = FUNCTIONS_OVER_60 if functions_over is None else functions_over
    lines, functions = module_lines(package), function_lines(package)
    problems = [f"{module}: {n} lines, over the hard limit of {HARD_MODULE_LINES}"
                for module, n in sorted(over(lines, HARD_MODULE_LINES).items())]
    problems += _unexplained(over(lines, SOFT_MODULE_LINES), modules_over, SOFT_MODULE_LINES,
                             "MODULES_OVER_400")
    problems += [f"{name}: {n} lines, over the hard limit of {HARD_FUNCTION_LINES}"
                 for name, n in sorted(over(functions, HARD_FUNCTION_LINES).items())]
    long_functions = {" ".join((key.split(":")[0], key.split(" ", 1)[1])): n  # module name
                      for key, n in over(functions, SOFT_FUNCTION_LINES).items()}
    problems += _unexplained(long_functions, functions_over, SOFT_FUNCTION_LINES,
                             "FUNCTIONS_OVER_60")
    wide = over(kernel_arguments(package), KERNEL_ARGUMENTS)
    if len(wide) > HARD_WIDE_KERNELS:
        problems.append(f"{len(wide)} kernels over {KERNEL_ARGUMENTS} arguments, more than "
                        f"{HARD_WIDE_KERNELS}: {', '.join(sorted(wide))}")
    return problems


# -- ruff's waived findings: the rules a function may be excepted from, and where -------------
WAIVABLE = ("C901", "PLR0913", "PLR0915")  # complexity, arguments, statements
_NOQA = re.compile(r"#\s*noqa\s*:\s*([A-Z0-9, ]+)", re.I)
_REASONED = re.compile(r"#\s*noqa\s*:\s*[A-Z0-9]+(?:\s*,\s*[A-Z0-9]+)*\s+-\s+\S", re.I)


def _comments(source: str) -> list[tuple[int, str]]:
    """(line, text) of each comment of a Python source (a line that does not tokenize, such as
    a notebook's magic, is read as a whole)."""
    try:
        return [(t.start[0], t.string) for t in
                tokenize.generate_tokens(io.StringIO(source).readline)
                if t.type == tokenize.COMMENT]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return [(i, line[line.index("#"):]) for i, line in enumerate(source.splitlines(), 1)
                if "#" in line]


def _sources(checkout: Path):
    """(name, source) of every Python file ruff checks in a checkout (``mctslab/``, ``tests/``)
    and of every code cell of its notebooks."""
    for folder in ("mctslab", "tests"):
        for path in sorted((checkout / folder).rglob("*.py")):
            yield path.relative_to(checkout).as_posix(), path.read_text()
    for path in sorted((checkout / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text()).get("cells", [])
        for number, cell in enumerate(cells):
            if cell.get("cell_type") == "code":
                source = cell.get("source", "")
                yield (f"{path.relative_to(checkout).as_posix()}[{number}]",
                       "".join(source) if isinstance(source, list) else source)


def _waivers(checkout: Path):
    """(``"file:line"``, comment, codes) of every ``# noqa`` comment waiving one of
    :data:`WAIVABLE`."""
    for name, source in _sources(Path(checkout)):
        for line, comment in _comments(source):
            match = _NOQA.search(comment)
            codes = [c for c in re.split(r"[,\s]+", match[1].upper()) if c in WAIVABLE] \
                if match else []
            if codes:
                yield f"{name}:{line}", comment, codes


def noqa_waivers(checkout: Path) -> dict[str, list[str]]:
    """``"file:line" -> codes`` of every ``# noqa`` comment waiving one of :data:`WAIVABLE`."""
    return {where: codes for where, _, codes in _waivers(checkout)}


def unreasoned_waivers(checkout: Path) -> list[str]:
    """``"file:line"`` of each such ``# noqa`` with no reason after its codes: a waiver is
    written ``# noqa: PLR0913 - <why>``."""
    return [where for where, comment, _ in _waivers(checkout) if not _REASONED.search(comment)]


def per_file_waivers(checkout: Path) -> dict[str, list[str]]:
    """``file pattern -> codes`` of ``pyproject.toml``'s ``per-file-ignores`` entries that waive
    one of :data:`WAIVABLE` (the long-lines entry, E501, is not a waiver of these)."""
    path = Path(checkout) / "pyproject.toml"
    if not path.is_file():
        return {}
    lint = tomllib.loads(path.read_text()).get("tool", {}).get("ruff", {}).get("lint", {})
    return {pattern: [c for c in codes if c in WAIVABLE]
            for pattern, codes in lint.get("per-file-ignores", {}).items()
            if any(c in WAIVABLE for c in codes)}


def measures(checkout: Path) -> list[tuple[str, dict]]:
    """What :func:`main` prints of a checkout: (what, ``{name: number}``) in order."""
    checkout = Path(checkout)
    package = checkout / "mctslab"
    lines, functions, kernels = (module_lines(package), function_lines(package),
                                 kernel_arguments(package))
    noqa, per_file = noqa_waivers(checkout), per_file_waivers(checkout)
    codes = ", ".join(WAIVABLE)
    return [
        (f"modules over {SOFT_MODULE_LINES} lines", over(lines, SOFT_MODULE_LINES)),
        (f"modules over {HARD_MODULE_LINES} lines", over(lines, HARD_MODULE_LINES)),
        (f"functions over {SOFT_FUNCTION_LINES} lines", over(functions, SOFT_FUNCTION_LINES)),
        (f"functions over {HARD_FUNCTION_LINES} lines", over(functions, HARD_FUNCTION_LINES)),
        (f"kernels over {SOFT_KERNEL_ARGUMENTS} arguments", over(kernels, SOFT_KERNEL_ARGUMENTS)),
        (f"kernels over {KERNEL_ARGUMENTS} arguments", over(kernels, KERNEL_ARGUMENTS)),
        (f"ruff exceptions: # noqa comments waiving {codes}",
         {k: len(v) for k, v in noqa.items()}),
        (f"ruff exceptions: per-file-ignores entries waiving {codes} in pyproject.toml",
         {k: len(v) for k, v in per_file.items()}),
        ("function-local imports outside the allow-list",
         {str(i): 0 for i in unreasoned_local_imports(package)}),
    ]


def main(argv=None) -> int:
    """Print the counts of :func:`measures` for a checkout (default: this one), each with the
    names when ``--list`` is given; another checkout is measured with this one's rules and
    allow-list (the "before" column of a refactor)."""
    parser = argparse.ArgumentParser(
        prog="python -m mctslab.core.coderules",
        description="the house's size counts and ruff exceptions of a checkout")
    parser.add_argument("checkout", nargs="?", default=str(PACKAGE.parent),
                        help="a checkout of mctslab (default: this one)")
    parser.add_argument("--list", action="store_true", help="also name each one")
    args = parser.parse_args(argv)
    checkout = Path(args.checkout).resolve()
    if not (checkout / "mctslab").is_dir():
        parser.error(f"no mctslab/ in {args.checkout}")
    print(checkout / "mctslab")
    for what, found in measures(checkout):
        print(f"{len(found):4d}  {what}")
        if args.list:
            for name, count in found.items():
                print(f"        {name}" + (f"  {count}" if count else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
