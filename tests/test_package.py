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
