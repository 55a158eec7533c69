"""The declared check: the verdict from the exit code alone, its output discarded."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import tree_snapshot
from transcripts import config_toml, toml_list

from edgar_min.config import CheckConfig
from edgar_min.errors import ConfigError
from edgar_min.learning.check import check_program, describe_check, run_check, runs_check, verdict_of_runs

REPO = Path(__file__).resolve().parents[1]

PY = sys.executable


def test_exit_0_passes_and_anything_else_fails(tmp_path):
    assert run_check(CheckConfig((PY, "-c", "pass"), 10), tmp_path).verdict == "passed"
    failed = run_check(CheckConfig((PY, "-c", "raise SystemExit(3)"), 10), tmp_path)
    assert (failed.verdict, failed.exit_code, failed.timed_out) == ("failed", 3, False)


def test_the_check_runs_in_the_project_root(tmp_path):
    script = "import os, sys; sys.exit(0 if os.path.exists('marker') else 1)"
    (tmp_path / "marker").write_text("")
    assert run_check(CheckConfig((PY, "-c", script), 10), tmp_path).verdict == "passed"


def test_its_output_goes_nowhere(tmp_path, capfd):
    loud = "import sys; print('CHECK-OUTPUT'); print('CHECK-ERR', file=sys.stderr)"
    before = tree_snapshot(tmp_path)
    run_check(CheckConfig((PY, "-c", loud), 10), tmp_path)
    out, err = capfd.readouterr()
    assert "CHECK-OUTPUT" not in out + err
    assert "CHECK-ERR" not in out + err
    assert tree_snapshot(tmp_path) == before


def test_a_check_that_times_out_fails_and_its_children_end(tmp_path):
    pidfile = tmp_path / "child.pid"
    script = (
        "import subprocess, sys, pathlib, time; "
        f"p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); "
        f"pathlib.Path({str(pidfile)!r}).write_text(str(p.pid)); time.sleep(60)"
    )
    start = time.monotonic()
    result = run_check(CheckConfig((PY, "-c", script), 1.5), tmp_path)
    assert time.monotonic() - start < 10
    assert (result.verdict, result.exit_code, result.timed_out) == ("failed", None, True)
    pid = int(pidfile.read_text())
    time.sleep(0.2)
    assert _gone(pid), "the check's child process is still running"


def _gone(pid: int) -> bool:
    """Ended, or a zombie waiting for a reaper (a container's init may not reap at once)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in {"Z", "X"}


def test_a_command_that_does_not_exist_is_a_sentence(tmp_path):
    with pytest.raises(ConfigError) as err:
        run_check(CheckConfig(("no-such-check-program-x1",), 10), tmp_path)
    assert "'no-such-check-program-x1' was not found" in err.value.message
    with pytest.raises(ConfigError) as err:
        run_check(CheckConfig((), 10), tmp_path)
    assert "no declared check" in err.value.message


def test_describe_check_for_doctor(tmp_path):
    assert "declared check: none" in describe_check(CheckConfig())
    line = describe_check(CheckConfig(("pytest", "-q", "tests dir"), 120))
    assert line.startswith("declared check: pytest -q 'tests dir' (timeout 120 s)")
    assert "not found on PATH" in describe_check(CheckConfig(("no-such-check-program-x1",), 5))


def test_learn_check_overrides_the_records_verdict(tmp_path, edgar):
    config_toml(
        tmp_path, f"[check]\ncommand = {toml_list([PY, '-c', 'raise SystemExit(1)'])}\n", trusted=True
    )
    turn = tmp_path / "turn.json"
    turn.write_text('{"prompt": "p", "tools": ["shell"], "verification": "passed"}')
    result = edgar("--root", str(tmp_path), "--json", "learn", str(turn), "--check")
    assert result.code == 0, result
    assert result.json()["verification"] == "failed"


def test_learn_check_with_a_missing_program_exits_2_and_stores_nothing(tmp_path, edgar):
    config_toml(tmp_path, '[check]\ncommand = ["no-such-check-program-x1"]\n', trusted=True)
    turn = tmp_path / "turn.json"
    turn.write_text('{"prompt": "p"}')
    before = tree_snapshot(tmp_path)
    result = edgar("--root", str(tmp_path), "learn", str(turn), "--check")
    assert result.code == 2
    assert "the declared check cannot run: 'no-such-check-program-x1' was not found" in result.err
    assert tree_snapshot(tmp_path) == before


@pytest.mark.parametrize(
    ("command", "program"),
    [
        (("pytest", "-q"), "pytest"),
        (("/usr/bin/make", "test"), "make"),
        (("python3", "-m", "pytest", "-q"), "pytest"),
        (("python3.12", "-m", "unittest"), "unittest"),
        (("python", "tests/run.py"), "python"),
        (("npm", "test"), "npm"),
        ((), ""),
    ],
)
def test_the_checks_program_is_the_name_a_skill_can_say(command, program):
    assert check_program(command) == program


# --- the agent's own run of the declared check, as its log states it ------------------------------

DECLARED = ("python3", "-m", "pytest", "-q")


@pytest.mark.parametrize(
    ("command", "runs"),
    [
        ("python3 -m pytest -q", True),
        ("pytest", True),  # the same program, its -m and its output options aside
        ("python -m pytest -x --tb=short", True),
        (".venv/bin/pytest -q 2>&1", True),
        ("cd {root} && pytest -q", True),
        ("cd . && python3 -m pytest", True),
        ("cd /elsewhere && pytest -q", False),
        ("pytest -q 2>&1 | tail -20", False),  # exits as tail does
        ("pytest -q; echo done", False),
        ("pytest -q > out.txt", False),
        ("pytest tests/test_dates.py", False),  # part of the suite is not the check
        ("pytest -k leap", False),
        ("PYTHONPATH=src pytest", False),
        ("python3 -m unittest", False),
        ("pytest 'unclosed", False),
        ("", False),
    ],
)
def test_a_shell_command_runs_the_declared_check_only_as_it_is(tmp_path, command, runs):
    assert runs_check(command.format(root=tmp_path), DECLARED, str(tmp_path)) is runs


def test_other_declared_checks_are_matched_by_their_words(tmp_path):
    root = str(tmp_path)
    assert runs_check("npm test", ("npm", "test"), root)
    assert runs_check("go test ./...", ("go", "test", "./..."), root)
    assert not runs_check("go test ./pkg/...", ("go", "test", "./..."), root)
    assert runs_check("make test", ("make", "test"), root)
    assert not runs_check("make lint", ("make", "test"), root)
    assert not runs_check("pytest", (), root)


def test_the_verdict_is_the_last_run_of_the_check_whose_exit_code_the_log_states(tmp_path):
    root = str(tmp_path)
    assert verdict_of_runs((("pytest -q", 1), ("ls", 0)), DECLARED, root) == "failed"
    assert verdict_of_runs((("pytest -q", 1), ("pytest -q", 0)), DECLARED, root) == "passed"
    assert verdict_of_runs((("pytest -q", 0), ("pytest -q", None)), DECLARED, root) == "passed"
    assert verdict_of_runs((("pytest -q", None),), DECLARED, root) is None
    assert verdict_of_runs((("pytest -k one", 0),), DECLARED, root) is None
    assert verdict_of_runs((), DECLARED, root) is None


def test_a_command_that_does_not_name_the_checks_program_is_not_split():
    # A turn's every shell command is asked whether it ran the check: one that does not even name
    # the check's program costs no import of shlex (and of the modules it pulls in) on the hook path.
    code = (
        "import sys; from edgar_min.learning.check import runs_check; "
        "assert not runs_check('ls -la src', ('python3', '-m', 'pytest', '-q'), '.'); "
        "print('shlex' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(REPO)!r}); {code}"],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert done.stdout.strip() == "False"
