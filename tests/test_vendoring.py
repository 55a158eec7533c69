"""Vendoring: the README's Python snippet works as written, and importing edgar_min does nothing."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def readme_snippet() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Use it from a harness") :]
    return re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)


def test_the_readme_harness_snippet_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    record = json.loads((REPO / "examples" / "turn.json").read_text())
    code = readme_snippet().replace("...\n", "")
    scope = {"record": record}
    exec(compile(code, "README.md", "exec"), scope)  # noqa: S102 - the documented snippet is the test
    outcome = scope["outcome"]
    assert outcome.outcome == "proposed"
    assert outcome.triggers == ("recovered",)
    assert (tmp_path / outcome.path).is_file()


def test_importing_every_module_has_no_side_effects(tmp_path):
    modules = sorted(
        ".".join(p.relative_to(REPO).with_suffix("").parts)
        for p in (REPO / "edgar_min").rglob("*.py")
        if p.name != "__main__.py"
    )
    modules = [m.removesuffix(".__init__") for m in modules]
    script = textwrap.dedent(
        f"""
        import importlib, sys, threading
        sys.path.insert(0, {str(REPO)!r})
        before = set(sys.modules)
        for name in {modules!r}:
            importlib.import_module(name)
        assert threading.active_count() == 1, threading.enumerate()
        assert "semif_agent" not in sys.modules
        print("ok")
        """
    )
    home = tmp_path / "home"
    env = {**os.environ, "HOME": str(home), "EDGAR_HOME": str(home / ".edgar")}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
    )
    assert done.stdout.strip() == "ok", done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []
