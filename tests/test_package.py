"""The package as a whole: every module imports on its own in any order, and every `__all__` is true."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "edgar_min"


def modules() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__main__":
            continue  # running it is the CLI
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join(parts))
    return sorted(names)


SCRIPT = """
import importlib, json, sys
sys.path.insert(0, sys.argv[1])
failed = []
for name in json.loads(sys.argv[2]):
    try:
        importlib.import_module(name)
    except Exception as exc:
        failed.append(f"{name}: {type(exc).__name__}: {exc}")
print(json.dumps(failed))
"""


@pytest.mark.parametrize("order", ["alphabetical", "reverse"])
def test_every_module_imports_in_a_fresh_interpreter_in_either_order(order):
    """A circle between top-of-file imports fails here, whichever of its modules is imported first."""
    names = modules() if order == "alphabetical" else modules()[::-1]
    assert len(names) > 50
    run = subprocess.run(
        [sys.executable, "-I", "-c", SCRIPT, str(PACKAGE.parent), json.dumps(names)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == []


def test_each_module_imports_first_on_its_own():
    """Each module as the very first import of a fresh interpreter (a circle's other entry point)."""
    code = "import importlib, sys; sys.path.insert(0, sys.argv[1]); importlib.import_module(sys.argv[2])"
    failed = []
    for name in modules():
        run = subprocess.run(
            [sys.executable, "-I", "-c", code, str(PACKAGE.parent), name],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if run.returncode != 0:
            failed.append(f"{name}: {run.stderr.strip().splitlines()[-1]}")
    assert failed == []


@pytest.mark.parametrize("name", modules())
def test_every_name_in_all_exists(name):
    import importlib

    module = importlib.import_module(name)
    exported = getattr(module, "__all__", ())
    assert len(set(exported)) == len(exported), f"{name}.__all__ names something twice"
    missing = [n for n in exported if not hasattr(module, n)]
    assert missing == []


def deferred_uses() -> list[tuple[str, str, str]]:
    """(module, name bound, deferred module) for every `NAME = deferred.module("...")` in the package."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for line in path.read_text(encoding="utf-8").splitlines():
            bound, sep, rest = line.partition(' = deferred.module("')
            if sep and bound.isidentifier():
                found.append((str(path.relative_to(PACKAGE.parent)), bound, rest.split('"')[0]))
    return found


def test_deferred_imports_name_real_modules_and_only_edgars_own():
    """A deferred module that was renamed or moved would fail only when its path runs: name it here."""
    uses = deferred_uses()
    assert len(uses) >= 10  # the synthesis path and the decision layer
    code = "import importlib, sys; sys.path.insert(0, sys.argv[1]); importlib.import_module(sys.argv[2])"
    failed = []
    for where, bound, target in uses:
        assert target.startswith("edgar_min."), where
        run = subprocess.run(
            [sys.executable, "-I", "-c", code, str(PACKAGE.parent), target],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        if run.returncode != 0:
            failed.append(f"{where}: {bound} -> {target}: {run.stderr.strip().splitlines()[-1]}")
    assert failed == []


def test_a_deferred_module_is_imported_on_first_use_and_not_before():
    code = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "from edgar_min.controller import gate\n"
        "before = 'edgar_min.learning.writer' in sys.modules\n"
        "limit = gate.writer.MAX_BODY_CHARS\n"
        "print(before, 'edgar_min.learning.writer' in sys.modules, limit > 0)\n"
    )
    run = subprocess.run(
        [sys.executable, "-I", "-c", code, str(PACKAGE.parent)], capture_output=True, text=True, check=True
    )
    assert run.stdout.split() == ["False", "True", "True"]


def test_only_edgars_own_modules_are_deferred():
    from edgar_min import deferred

    with pytest.raises(ValueError, match="only edgar's own modules"):
        deferred.module("json")


IMPORT_LEARNING = "import sys; sys.path.insert(0, sys.argv[1]); import edgar_min.learning"
READER = """
import sys
sys.path.insert(0, sys.argv[1])
from edgar_min.cli import main
sys.exit(main(sys.argv[2:]))
"""


def test_reading_skills_and_deciding_work_with_the_learning_package_deleted(tmp_path):
    """What reads skills and decides never needs what writes them (a build may leave `learning/` out)."""
    import shutil

    build = tmp_path / "build"
    shutil.copytree(PACKAGE, build / "edgar_min", ignore=shutil.ignore_patterns("__pycache__", "learning"))
    assert not (build / "edgar_min" / "learning").exists()
    project = tmp_path / "proj"
    skill = project / ".edgar" / "skills" / "pin-bump" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(
        "---\nname: pin-bump\ndescription: Bump a pinned dependency and refresh the lock file.\n---\n\n"
        "## When to use\n\nWhen a dependency pin must move.\n\n## Procedure\n\n1. Edit the pin.\n\n"
        "## Pitfalls\n\n- The lock file goes stale.\n\n## Verification\n\nRun the tests.\n"
    )
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "EDGAR_HOME": str(tmp_path / "home")}

    def edgar(*args: str) -> subprocess.CompletedProcess[str]:
        # -S: no site, so nothing installed elsewhere can stand in for the deleted package.
        return subprocess.run(
            [sys.executable, "-I", "-S", "-c", READER, str(build), "--root", str(project), *args],
            capture_output=True, text=True, env=env, timeout=60, check=False,
        )  # fmt: skip

    missing = subprocess.run(
        [sys.executable, "-I", "-S", "-c", IMPORT_LEARNING, str(build)],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert "ModuleNotFoundError" in missing.stderr
    runs = {
        "list": edgar("skills", "list"),
        "show": edgar("skills", "show", "pin-bump"),
        "validate": edgar("skills", "validate"),
        "index": edgar("skills", "index"),
        "suggest": edgar("--json", "skills", "suggest", "bump the pinned dependency and its lock file"),
        "decide": edgar(
            "--json", "decide", "--state", "the build fails on a missing pin",
            "--question", "Which team?", "--option", "infra=Builds and pins", "--option", "web=Pages",
        ),
    }  # fmt: skip
    assert {what: (run.returncode, run.stderr) for what, run in runs.items()} == dict.fromkeys(runs, (0, ""))
    assert "pin-bump" in runs["list"].stdout
    assert "1. Edit the pin." in runs["show"].stdout
    assert "ok .edgar/skills/pin-bump/SKILL.md" in runs["validate"].stdout
    assert "- pin-bump: Bump a pinned dependency" in runs["index"].stdout
    assert [s["name"] for s in json.loads(runs["suggest"].stdout)["skills"]] == ["pin-bump"]
    assert json.loads(runs["decide"].stdout)["selected"] == "infra"


def test_nothing_that_reads_skills_or_decides_imports_the_learning_package():
    """The base modules, `skills/` and `semif/` sit below `learning/`: none of them names it."""
    import ast

    # The package's own `__init__` is its vendoring surface, every name resolved on first use.
    base = [p for p in PACKAGE.glob("*.py") if p.name != "__init__.py"]
    below = [*base, *(PACKAGE / "skills").glob("*.py"), *(PACKAGE / "semif").glob("*.py")]
    named = []
    for path in below:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                targets = [node.module or ""]
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                targets = [node.value]  # deferred.module("edgar_min.learning...")
            else:
                continue
            named += [
                f"{path.relative_to(PACKAGE)}:{node.lineno}"
                for t in targets
                if t.startswith("edgar_min.learning")
            ]
    assert len(below) > 30
    assert named == []


def imports_of(path: Path) -> set[str]:
    """The package's modules `path` imports, at the top, in a function or deferred; not for type checkers."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
        for inner in ast.walk(node)
    }
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("edgar_min"):
            found |= {f"{node.module}.{alias.name}" for alias in node.names} | {node.module}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("edgar_min")}
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "module" and node.args:
            found.add(getattr(node.args[0], "value", ""))  # deferred.module("edgar_min....")
    return found


def test_no_two_modules_import_each_other_by_any_path():
    """A circle hidden in a function or a deferral is still a circle; only type checkers' imports are not."""
    names = set(modules())
    graph = {}
    for name in names:
        path = PACKAGE.parent.joinpath(*name.split("."))
        path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        # A package's own members may read the table their package defines (cli/__init__.py).
        graph[name] = {
            m for m in imports_of(path) if m in names and m != name and not name.startswith(m + ".")
        }
    circles = set()
    for start in graph:
        stack, seen = [(start, (start,))], set()
        while stack:
            here, trail = stack.pop()
            for nxt in graph[here]:
                if nxt == start:
                    circles.add(frozenset(trail))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, (*trail, nxt)))
    # The one circle left: bytecode_writer takes IMPORTER from bytecode, which calls it to write.
    assert circles <= {frozenset({"edgar_min.bytecode", "edgar_min.bytecode_writer"})}
