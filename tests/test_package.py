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
