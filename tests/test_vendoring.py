"""Vendoring: the README's Python snippet works as written, and importing edgar_min does nothing."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def readme_snippet() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Quick start: your own agent") :]
    return re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)


def test_the_readme_harness_snippet_runs_as_written(tmp_path, monkeypatch, capsys):
    """Every line it needs is shown: it runs in an empty namespace, as a person pastes it."""
    monkeypatch.chdir(tmp_path)
    scope: dict = {}
    exec(compile(readme_snippet(), "README.md", "exec"), scope)  # noqa: S102 - the documented snippet is the test
    assert capsys.readouterr().out.startswith("proposed .edgar/proposals/")
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


def test_the_vendoring_surface_resolves_lazily_and_import_edgar_min_stays_free():
    script = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(REPO)!r})
        before = set(sys.modules)
        import edgar_min
        assert sorted(m for m in set(sys.modules) - before if m.startswith("edgar_min")) == ["edgar_min"]
        from edgar_min import Gate, Layout, Outcome, load_config, parse_turn, user_home
        from edgar_min.controller.gate import Gate as G
        assert Gate is G and Outcome.__module__ == "edgar_min.controller.outcome"
        assert set(edgar_min.__all__) <= set(dir(edgar_min))
        try:
            edgar_min.nothing_here
        except AttributeError as exc:
            assert "nothing_here" in str(exc)
        else:
            raise SystemExit("an unknown name resolved")
        print("ok")
        """
    )
    done = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "ok", done.stderr
