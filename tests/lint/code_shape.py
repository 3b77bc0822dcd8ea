"""The shape of the source, measured with the ast: module length, function length, import cycles and
private names imported across modules (issue 17).

The targets: no source module over 600 lines, no function over 80, no import cycle, at most 10 private
names imported across modules. Where the code is not there yet, ``code_shape_budget.json`` beside this
file lists what is over today; the check fails on anything new or grown, so the figures only fall.
``make lint`` runs it; ``--write-budget`` records today's figures after a change that lowered them.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BUDGET = Path(__file__).with_name("code_shape_budget.json")
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
MAX_PRIVATE_IMPORTS = 10


@dataclass
class Shape:
    long_modules: dict[str, int] = field(default_factory=dict)
    long_functions: dict[str, int] = field(default_factory=dict)
    cycles: list[list[str]] = field(default_factory=list)
    private_imports: list[str] = field(default_factory=list)


def source_modules() -> Iterator[tuple[str, Path]]:
    """Each source module as (dotted name, path), from every package's ``src``."""
    for path in sorted(REPO.glob("packages/*/src/**/*.py")):
        parts = path.relative_to(path.parents[len(path.relative_to(REPO).parts) - 4]).with_suffix("").parts
        name = ".".join(p for p in parts if p != "__init__")
        yield name, path


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module an ``ImportFrom`` names (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import a module runs, at load time or later inside a function (a lazy import is still a
    dependency, so two modules that import each other that way are a cycle); ``if TYPE_CHECKING`` blocks
    are left out, since they never run."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for n in ast.walk(node))
        elif isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in skipped:
            yield node


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def measure() -> Shape:
    shape = Shape()
    modules = dict(source_modules())
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        rel = str(path.relative_to(REPO))
        lines = len(text.splitlines())
        if lines > MAX_MODULE_LINES:
            shape.long_modules[rel] = lines
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    shape.long_functions[f"{rel}::{node.name}"] = length
            if isinstance(node, ast.ImportFrom):
                target = _resolve(name, path.name == "__init__.py", node)
                if target in modules and target != name:
                    shape.private_imports.extend(
                        f"{name} <- {target}.{a.name}"
                        for a in node.names
                        if a.name.startswith("_") and not a.name.startswith("__")
                    )
        edges = graph.setdefault(name, set())
        for node in _imports(tree):
            if isinstance(node, ast.ImportFrom):
                target = _resolve(name, path.name == "__init__.py", node)
                candidates = [target, *(f"{target}.{a.name}" for a in node.names)]
            else:
                candidates = [a.name for a in node.names]
            edges.update(c for c in candidates if c in modules and c != name and not name.startswith(c + "."))
    shape.cycles = _cycles(graph)
    shape.private_imports.sort()
    return shape


def figures(shape: Shape) -> dict[str, int]:
    return {
        "modules over 600 lines": len(shape.long_modules),
        "functions over 80 lines": len(shape.long_functions),
        "import cycles": len(shape.cycles),
        "private names imported across modules": len(shape.private_imports),
    }


def over_budget(shape: Shape, budget: dict[str, object]) -> list[str]:
    """What is new or grown since the budget was written."""
    problems: list[str] = []
    allowed_modules = dict(budget.get("long_modules", {}))  # type: ignore[call-overload]
    for path, lines in shape.long_modules.items():
        if lines > allowed_modules.get(path, MAX_MODULE_LINES):
            problems.append(f"{path}: {lines} lines (at most {allowed_modules.get(path, MAX_MODULE_LINES)})")
    allowed_functions = dict(budget.get("long_functions", {}))  # type: ignore[call-overload]
    for name, lines in shape.long_functions.items():
        if lines > allowed_functions.get(name, MAX_FUNCTION_LINES):
            problems.append(
                f"{name}: {lines} lines (at most {allowed_functions.get(name, MAX_FUNCTION_LINES)})"
            )
    known_cycles = [sorted(c) for c in budget.get("cycles", [])]  # type: ignore[attr-defined]
    problems += [f"import cycle: {' <-> '.join(c)}" for c in shape.cycles if c not in known_cycles]
    allowed_private = int(budget.get("private_imports", MAX_PRIVATE_IMPORTS))  # type: ignore[call-overload]
    if len(shape.private_imports) > max(allowed_private, MAX_PRIVATE_IMPORTS):
        problems.append(
            f"{len(shape.private_imports)} private names imported across modules (at most "
            f"{max(allowed_private, MAX_PRIVATE_IMPORTS)}); the newest are listed by --verbose"
        )
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write-budget", action="store_true", help="record today's figures as the budget")
    parser.add_argument(
        "--verbose", action="store_true", help="list every module, function, cycle and import"
    )
    args = parser.parse_args(argv)
    shape = measure()
    for key, value in figures(shape).items():
        print(f"code shape: {key}: {value}")
    if args.verbose:
        for item in [*shape.long_modules.items(), *shape.long_functions.items()]:
            print(f"  {item[0]}: {item[1]}")
        for cycle in shape.cycles:
            print(f"  cycle: {' <-> '.join(cycle)}")
        for imp in shape.private_imports:
            print(f"  {imp}")
    if args.write_budget:
        BUDGET.write_text(
            json.dumps(
                {
                    "long_modules": shape.long_modules,
                    "long_functions": shape.long_functions,
                    "cycles": shape.cycles,
                    "private_imports": len(shape.private_imports),
                },
                indent=1,
                sort_keys=True,
            )
            + "\n",
            encoding="utf-8",
        )
        return 0
    budget = json.loads(BUDGET.read_text(encoding="utf-8")) if BUDGET.is_file() else {}
    problems = over_budget(shape, budget)
    for problem in problems:
        print(f"code shape: over budget: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
