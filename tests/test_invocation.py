"""The advice a person reads names edgar the way they ran it: the archive, the script, or the module."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

from edgar_min.invocation import invocation, program

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "turn.json"


def script_in(folder: Path) -> Path:
    """An `edgar` script as an installer writes one: this Python, the package, `main()`."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "edgar"
    script.write_text(
        f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {str(REPO)!r})\n"
        "from edgar_min.cli import leave, main\nleave(main())\n"
    )
    script.chmod(0o755)
    return script


def learn(command: list[str], root: Path, env: dict[str, str] | None = None) -> str:
    """What `learn` prints for a turn that is proposed as a skill."""
    root.mkdir(exist_ok=True)
    done = subprocess.run(
        [*command, "--root", str(root), "learn", str(EXAMPLE), "--session", "s-1"],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=root,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_run_from_the_archive_the_advice_names_python_and_the_archive(tmp_path, pyz):
    out = learn([sys.executable, str(pyz)], tmp_path / "proj")
    assert f"review it, then `python3 {pyz.resolve()} skills accept " in out


def test_run_by_the_edgar_script_on_path_the_advice_says_edgar(tmp_path):
    script = script_in(tmp_path / "bin")
    path = f"{script.parent}{os.pathsep}{os.environ.get('PATH', '')}"
    out = learn([str(script)], tmp_path / "proj", {"PATH": path})
    assert "review it, then `edgar skills accept " in out


def test_run_as_a_module_the_advice_says_python_m_edgar_min(tmp_path):
    out = learn([sys.executable, "-m", "edgar_min"], tmp_path / "proj", {"PYTHONPATH": str(REPO)})
    assert "review it, then `python3 -m edgar_min skills accept " in out


def test_an_edgar_script_that_is_not_the_one_on_path_is_named_by_its_path(tmp_path, monkeypatch):
    mine = script_in(tmp_path / "venv" / "bin")
    other = script_in(tmp_path / "bin")
    monkeypatch.setenv("PATH", str(other.parent))
    assert invocation(str(mine)).form == "script"
    assert program(str(mine)) == str(mine.resolve())
    monkeypatch.setenv("PATH", f"{mine.parent}{os.pathsep}{other.parent}")
    assert program(str(mine)) == "edgar"


def test_a_path_with_a_space_is_quoted_for_the_shell(tmp_path, monkeypatch):
    mine = script_in(tmp_path / "my tools")
    monkeypatch.setenv("PATH", "")
    assert program(str(mine)) == shlex.quote(str(mine.resolve()))
    assert program(str(mine)).startswith("'")


def test_a_program_not_named_edgar_is_the_module(tmp_path):
    assert program(str(tmp_path / "pytest")) == "python3 -m edgar_min"
