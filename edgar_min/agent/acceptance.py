"""The acceptance criteria for a code skill body, in one checker.

Used by `skills validate`, by the loader before anything runs, and by the
writer before anything is written. It reports every problem at once, each as
`PATH:LINE: sentence`. The checks are static (the source is parsed, never
run); the run-time walls in `walls.py` stand behind them.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import ast

    from edgar_min.agent.registry import Manifest, Registry

__all__ = [
    "AGENT_MODULES",
    "FORBIDDEN_MODULES",
    "FORBIDDEN_NAMES",
    "MAX_BODY_CHARS",
    "Problem",
    "check_body",
]

# The agent package a body may import from (besides the stdlib).
AGENT_MODULES = frozenset({"semif_agent", "semif_agent.skills", "edgar_min.agent.skills"})
# Stdlib modules a body may not import: dynamic import and code loading, the
# interpreter's internals (which would reach past the walls), processes,
# sockets and threads (which the walls refuse anyway at run time).
FORBIDDEN_MODULES = frozenset(
    {
        "ctypes", "_ctypes", "importlib", "imp", "builtins", "runpy", "code", "codeop", "zipimport",
        "marshal", "sys", "gc", "inspect", "subprocess", "_posixsubprocess", "socket", "_socket",
        "ssl", "multiprocessing", "_thread", "threading", "signal", "pty",
    }
)  # fmt: skip
FORBIDDEN_NAMES = frozenset({"__import__", "exec", "eval", "compile", "__builtins__", "breakpoint"})
# Attributes that lead from any object to the interpreter's internals.
FORBIDDEN_ATTRS = frozenset(
    {"__import__", "__builtins__", "__subclasses__", "__globals__", "__code__", "__loader__", "__spec__"}
)
MAX_BODY_CHARS = 64_000
REQUIRED = {
    "predict": (2, "predict(ctx, request)", "Prediction"),
    "act": (3, "act(ctx, request, prediction)", "ActionResult"),
}


@dataclass(frozen=True, slots=True)
class Problem:
    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def _import_problem(node: ast.AST) -> str | None:
    import ast

    stdlib = sys.stdlib_module_names
    if isinstance(node, ast.Import):
        for alias in node.names:
            top = alias.name.partition(".")[0]
            if alias.name in AGENT_MODULES:
                continue
            if top in FORBIDDEN_MODULES:
                return f"imports {alias.name!r}, which a skill may not use"
            if top not in stdlib:
                return f"imports {alias.name!r}: only the stdlib and the agent package are allowed"
        return None
    if not isinstance(node, ast.ImportFrom):
        return None
    if node.level:
        return "uses a relative import; import from the stdlib or semif_agent.skills"
    module = node.module or ""
    top = module.partition(".")[0]
    if module in AGENT_MODULES:
        return None
    if all(f"{module}.{a.name}" in AGENT_MODULES for a in node.names):
        return None
    if top in FORBIDDEN_MODULES:
        return f"imports from {module!r}, which a skill may not use"
    if top not in stdlib:
        return f"imports from {module!r}: only the stdlib and the agent package are allowed"
    return None


def _returns(func: ast.FunctionDef) -> list[ast.Return]:
    """The return statements of `func` itself, not of functions nested in it."""
    import ast

    found = []
    stack: list[ast.AST] = list(func.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Return):
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _calls(func: ast.FunctionDef, type_name: str) -> bool:
    import ast

    for node in ast.walk(func):
        if isinstance(node, ast.Call):
            f = node.func
            if (isinstance(f, ast.Name) and f.id == type_name) or (
                isinstance(f, ast.Attribute) and f.attr == type_name
            ):
                return True
    return False


def check_body(
    source: str,
    path: str,
    manifest: Manifest | None = None,
    registry: Registry | None = None,
    *,
    new: bool = False,
) -> list[Problem]:
    """Every reason `source` is not an acceptable body for `manifest` (empty when it is).

    With `new`, the manifest is about to be added, so an existing leaf of the
    same name is a duplicate; otherwise the body's own registry entry is skipped.
    """
    import ast

    problems: list[Problem] = []

    def add(line: int, message: str) -> None:
        problems.append(Problem(path, line, message))

    if manifest is not None:
        _manifest_problems(manifest, registry, new, add)
    if len(source) > MAX_BODY_CHARS:
        add(1, f"the body is {len(source)} characters; the limit is {MAX_BODY_CHARS}")
        return problems
    try:
        tree = ast.parse(source, path)
        compile(tree, path, "exec")
    except SyntaxError as exc:
        add(exc.lineno or 1, f"does not compile: {exc.msg}")
        return problems
    except ValueError as exc:  # e.g. a null byte
        add(1, f"does not compile: {exc}")
        return problems

    functions: dict[str, ast.FunctionDef] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in REQUIRED:
            functions[node.name] = node
        elif isinstance(node, ast.AsyncFunctionDef) and node.name in REQUIRED:
            add(node.lineno, f"{node.name} must be a plain function, not async")
    for name, (count, signature, type_name) in REQUIRED.items():
        func = functions.get(name)
        if func is None:
            add(1, f"does not define {signature} at the top level")
            continue
        args = func.args
        positional = len(args.posonlyargs) + len(args.args)
        if positional != count or args.vararg or args.kwarg or args.kwonlyargs:
            add(func.lineno, f"{name} must take exactly the arguments {signature}")
        if not _calls(func, type_name):
            add(
                func.lineno, f"{name} must return {'an' if type_name[0] in 'AEIOU' else 'a'} {type_name}(...)"
            )
        for ret in _returns(func):
            value = ret.value
            if value is None or isinstance(
                value,
                (
                    ast.Constant,
                    ast.List,
                    ast.Dict,
                    ast.Tuple,
                    ast.Set,
                    ast.JoinedStr,
                    ast.ListComp,
                    ast.DictComp,
                ),
            ):
                add(ret.lineno, f"{name} returns something that is not a {type_name}")

    context_names = {f.args.args[0].arg for f in functions.values() if f.args.args}
    uses_engine = False
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            problem = _import_problem(node)
            if problem:
                add(node.lineno, problem)
        elif isinstance(node, ast.Name) and node.id in FORBIDDEN_NAMES:
            add(node.lineno, f"uses {node.id!r} (no dynamic code or import in a skill)")
        elif isinstance(node, ast.Attribute):
            if node.attr in FORBIDDEN_ATTRS:
                add(node.lineno, f"reaches for {node.attr!r} (interpreter internals are off limits)")
            elif (
                node.attr == "engine" and isinstance(node.value, ast.Name) and node.value.id in context_names
            ):
                uses_engine = True
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in {"getattr", "setattr", "delattr"}
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and node.args[1].value.startswith("__")
        ):
            add(
                node.lineno,
                f"{node.func.id} of {node.args[1].value!r} (interpreter internals are off limits)",
            )
    if functions and not uses_engine:
        line = functions["predict"].lineno if "predict" in functions else 1
        add(line, "never uses ctx.engine: sub-decisions go through the real engine, never a mock")
    return sorted(problems, key=lambda p: (p.path, p.line))


def _manifest_problems(manifest: Manifest, registry: Registry | None, new: bool, add) -> None:
    from edgar_min.agent.registry import NAME_RE, near_duplicate

    if not NAME_RE.fullmatch(manifest.name):
        add(1, f"skill name {manifest.name!r} must match {NAME_RE.pattern}")
    if not manifest.category or not manifest.name.startswith(manifest.category + "."):
        add(1, f"skill name {manifest.name!r} must start with its category ({manifest.category!r}) and a dot")
    if registry is None:
        return
    category = registry.category(manifest.category)
    if category is None:
        add(1, f"category {manifest.category!r} is not in the skill tree {registry.path}")
        return
    for leaf in category.skills:
        if leaf.name == manifest.name:
            if new:
                add(1, f"{manifest.name!r} is already a leaf of category {category.name!r}")
            continue
        if near_duplicate(leaf.description, manifest.description):
            add(1, f"{manifest.name!r} duplicates the leaf {leaf.name!r} (nearly the same description)")
