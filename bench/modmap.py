"""The package's module map: files, lines, import circles, and imports that run back up the layers.

Reads the source with `ast` (nothing is imported). An import counts whether it sits at the top of a
file or inside a function; `lazy` counts the ones inside functions. A circle is a strongly connected
set of modules; an upward import is one from a lower layer to a higher one (`LAYERS`, lowest first).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "edgar_min"

# Lowest first; a module may import its own layer and those below it.
LAYERS = (
    ("errors", "atomic", "bytecode", "bytecode_writer", "layout", "config"),
    ("skills", "models"),
    ("learning", "semif", "adapters"),
    ("controller",),
    ("agent", "delivery"),
    ("mcp",),
    ("cli", "__main__"),
)


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer(module: str) -> int:
    parts = module.split(".")
    head = parts[1] if len(parts) > 1 else ""
    for rank, names in enumerate(LAYERS):
        if head in names:
            return rank
    return 0


def imports(path: Path, modules: set[str]) -> list[tuple[str, bool]]:
    """(target module, inside a function) for each import of a package module; TYPE_CHECKING skipped."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, *, lazy: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                for alias in child.names:
                    sub = f"{child.module}.{alias.name}"
                    target = sub if sub in modules else child.module
                    if target in modules:
                        found.append((target, lazy))
            elif isinstance(child, ast.Import):
                found.extend((a.name, lazy) for a in child.names if a.name in modules)
            inner = lazy or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            visit(child, lazy=inner)

    visit(tree, lazy=False)
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    sys.setrecursionlimit(10_000)

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def main() -> None:
    files = sorted(ROOT.rglob("*.py"))
    modules = {module_name(p) for p in files}
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in files)
    graph: dict[str, set[str]] = {}
    lazy = top = 0
    upward: list[str] = []
    for p in files:
        me = module_name(p)
        for target, inside in imports(p, modules):
            if target == me or me.startswith(target + "."):
                continue  # a package's own __init__
            graph.setdefault(me, set()).add(target)
            lazy += inside
            top += not inside
            if layer(target) > layer(me):
                upward.append(f"{me} -> {target}{' (lazy)' if inside else ''}")
    print(f"files: {len(files)}  lines: {lines}")
    print(f"imports between package modules: {top} at the top, {lazy} inside functions")
    found = circles(graph)
    print(f"import circles: {len(found)}")
    for group in found:
        print("  " + " <-> ".join(group))
    print(f"imports up the layers: {len(set(upward))}")
    for row in sorted(set(upward)):
        print("  " + row)


if __name__ == "__main__":
    main()
