"""The acceptance criteria for a code skill body, in one checker.

Used by `skills validate`, by the loader before anything runs, and by the
writer before anything is written. It reports every problem at once, each as
`PATH:LINE: sentence`. The checks are static (the source is parsed, never
run); the run-time walls in `walls.py` stand behind them.
"""

from __future__ import annotations

import sys

from edgar_min.agent.tree import NAME_RE, near_duplicate
from edgar_min.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ast

    from edgar_min.agent.tree import Manifest, Registry

__all__ = [
    "AGENT_MODULES",
    "FORBIDDEN_ATTRS",
    "FORBIDDEN_MODULES",
    "FORBIDDEN_NAMES",
    "FORBIDDEN_SUBMODULES",
    "MAX_BODY_CHARS",
    "Problem",
    "attribute_problem",
    "check_body",
]

# The agent package a body may import from (besides the stdlib).
AGENT_MODULES = frozenset({"semif_agent", "semif_agent.skills", "edgar_min.agent.skills"})
# Stdlib modules a body may not import (nor reach as an attribute, `os.sys`): dynamic
# import and code loading or running from strings, the interpreter's internals
# (which would reach past the walls), processes, threads and sockets, loads that
# run code (pickle, shelve, marshal), and writes the wall cannot see or resolve
# (sqlite3 and its ATTACH, dbm, fcntl). Every module whose name starts with `_` too.
FORBIDDEN_MODULES = frozenset(
    {
        "ctypes", "importlib", "imp", "builtins", "runpy", "code", "codeop", "zipimport", "marshal",
        "sys", "gc", "inspect", "pkgutil", "pydoc", "timeit", "doctest", "pdb", "bdb", "trace",
        "profile", "cProfile", "unittest", "site", "subprocess", "socket", "ssl", "multiprocessing",
        "concurrent", "threading", "signal", "pty", "tty", "termios", "fcntl", "pickle", "shelve",
        "copyreg", "dbm", "sqlite3", "ensurepip", "venv", "idlelib", "tkinter",
    }
)  # fmt: skip
# Submodules refused although their package is allowed.
FORBIDDEN_SUBMODULES = frozenset({"logging.config", "logging.handlers", "asyncio.subprocess"})
FORBIDDEN_NAMES = frozenset(
    {
        "__import__",
        "exec",
        "eval",
        "compile",
        "__builtins__",
        "breakpoint",
        "vars",
        "globals",
        "locals",
        "help",
    }
)
# getattr and friends: only called directly, with a constant attribute name that passes the rules.
ATTRIBUTE_FUNCTIONS = frozenset({"getattr", "setattr", "delattr"})
# Dunder attributes a body may use; every other one leads to module, frame or class internals.
ALLOWED_DUNDERS = frozenset({"__init__", "__name__", "__doc__", "__post_init__"})
ALLOWED_DUNDER_NAMES = frozenset({"__name__", "__file__", "__doc__", "__debug__"})
# Attribute names that are also common words: not taken as the module of the same name.
_COMMON_WORDS = frozenset({"code", "trace", "profile", "site", "signal"})
# Attributes that hand out frames, code, or calls that run code or start threads
# outside the wall, or write where the wall cannot see (name -> what it does).
_FRAME_ATTRS = (
    "f_back", "f_globals", "f_locals", "f_builtins", "f_code", "tb_frame", "tb_next", "gi_frame", "gi_code",
    "cr_frame", "cr_code", "ag_frame", "ag_code", "_getframe", "_current_frames", "walk_stack", "walk_tb",
)  # fmt: skip
FORBIDDEN_ATTRS = {
    **dict.fromkeys(_FRAME_ATTRS, "reaches a frame (interpreter internals are off limits)"),
    **dict.fromkeys(("CodeType", "FunctionType"), "builds code (no dynamic code in a skill)"),
    **dict.fromkeys(("attrgetter", "methodcaller"), "looks attributes up by string"),
    **dict.fromkeys(("run_in_executor", "to_thread", "set_default_executor"), "starts a thread"),
    "QueueListener": "starts a thread",
    **dict.fromkeys(("dictConfig", "fileConfig"), "builds objects named by strings"),
    **dict.fromkeys(("fork", "forkpty", "register_at_fork"), "forks a process"),
    **dict.fromkeys(("create_subprocess_exec", "create_subprocess_shell"), "starts a process"),
    **dict.fromkeys(("mkfifo", "mknod"), "creates a fifo or device node"),
    **dict.fromkeys(("setxattr", "removexattr"), "changes extended attributes"),
    **dict.fromkeys(("setrlimit", "prlimit"), "changes the limits the run is held to"),
    "bltns": "reaches the module 'builtins'",
}
# Keyword arguments that make a path relative to a descriptor the wall cannot name.
FORBIDDEN_KEYWORDS = frozenset({"dir_fd", "src_dir_fd", "dst_dir_fd"})
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


_REFUSED_MODULE = ", which a skill may not use"
_NOT_STDLIB = ": only the stdlib and the agent package are allowed"


def _module_problem(name: str) -> str | None:
    """How a sentence about importing the module `name` ends, or None when it may be imported."""
    top = name.partition(".")[0]
    if top in FORBIDDEN_MODULES or (top.startswith("_") and top != "__future__"):
        return _REFUSED_MODULE
    if any(name == sub or name.startswith(sub + ".") for sub in FORBIDDEN_SUBMODULES):
        return _REFUSED_MODULE
    if top not in sys.stdlib_module_names:
        return _NOT_STDLIB
    return None


def attribute_problem(attr: str) -> str | None:
    """Why a body may not reach the attribute `attr` of anything, or None."""
    if attr.startswith("__") and attr.endswith("__"):
        return None if attr in ALLOWED_DUNDERS else "interpreter internals are off limits"
    if attr in FORBIDDEN_ATTRS:
        return FORBIDDEN_ATTRS[attr]
    bare = attr.lstrip("_")
    if bare in FORBIDDEN_MODULES and (bare != attr or bare not in _COMMON_WORDS):
        return f"reaches the module {bare!r}, which a skill may not use"
    return None


def _import_problem(node: ast.AST) -> str | None:
    import ast

    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name in AGENT_MODULES:
                if "." in alias.name and alias.asname is None and not alias.name.startswith("semif_agent"):
                    top = alias.name.partition(".")[0]
                    return (
                        f"import {alias.name} binds the name {top!r}, which reaches edgar's internals; "
                        f"write: from {alias.name} import ..."
                    )
                continue
            ending = _module_problem(alias.name)
            if ending:
                return f"imports {alias.name!r}{ending}"
        return None
    if not isinstance(node, ast.ImportFrom):
        return None
    if node.level:
        return "uses a relative import; import from the stdlib or semif_agent.skills"
    module = node.module or ""
    if module not in AGENT_MODULES and not all(f"{module}.{a.name}" in AGENT_MODULES for a in node.names):
        ending = _module_problem(module)
        if ending:
            return f"imports from {module!r}{ending}"
    for alias in node.names:
        if f"{module}.{alias.name}" in AGENT_MODULES:
            continue
        if alias.name == "*":
            return f"imports * from {module!r}: name what the skill uses"
        why = attribute_problem(alias.name)
        if why:
            return f"imports {alias.name!r} from {module!r} ({why})"
        ending = _module_problem(f"{module}.{alias.name}") if module not in AGENT_MODULES else None
        if ending:
            return f"imports {alias.name!r} from {module!r}{ending}"
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
    uses_engine = _walk(tree, context_names, add)
    if functions and not uses_engine:
        line = functions["predict"].lineno if "predict" in functions else 1
        add(line, "never uses ctx.engine: sub-decisions go through the real engine, never a mock")
    return sorted(problems, key=lambda p: (p.path, p.line))


def _attribute_call(node: ast.Call, add) -> bool:
    """Check a direct getattr/setattr/delattr call; True when its name is a constant that passes."""
    import ast

    name = node.args[1] if len(node.args) >= 2 else None
    if not isinstance(name, ast.Constant) or not isinstance(name.value, str):
        add(node.lineno, f"{node.func.id} with a name that is not a constant string (no attribute by string)")
        return False
    why = attribute_problem(name.value)
    if why:
        add(node.lineno, f"{node.func.id} of {name.value!r} ({why})")
        return False
    return True


def _walk(tree: ast.AST, context_names: set[str], add) -> bool:
    """Every rule on names, attributes, calls and imports; returns whether `ctx.engine` is used."""
    import ast

    uses_engine = False
    called: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in ATTRIBUTE_FUNCTIONS:
                _attribute_call(node, add)
                called.add(id(func))
            for keyword in node.keywords:
                if keyword.arg in FORBIDDEN_KEYWORDS:
                    add(
                        node.lineno,
                        f"passes {keyword.arg}= (a path relative to a descriptor the wall cannot see)",
                    )
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            problem = _import_problem(node)
            if problem:
                add(node.lineno, problem)
        elif isinstance(node, ast.Name):
            if node.id in FORBIDDEN_NAMES:
                add(node.lineno, f"uses {node.id!r} (no dynamic code, import or namespace access in a skill)")
            elif node.id in ATTRIBUTE_FUNCTIONS and id(node) not in called:
                add(node.lineno, f"uses {node.id!r} other than as a direct call with a constant name")
            elif node.id.startswith("__") and node.id.endswith("__") and node.id not in ALLOWED_DUNDER_NAMES:
                add(node.lineno, f"uses {node.id!r} (interpreter internals are off limits)")
        elif isinstance(node, ast.Attribute):
            why = attribute_problem(node.attr)
            if why:
                add(node.lineno, f"reaches for {node.attr!r} ({why})")
            elif (
                node.attr == "engine" and isinstance(node.value, ast.Name) and node.value.id in context_names
            ):
                uses_engine = True
    return uses_engine


def _manifest_problems(manifest: Manifest, registry: Registry | None, new: bool, add) -> None:
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
