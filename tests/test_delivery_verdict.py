"""The Stop hook's verdict: no check for a turn that could learn nothing from one, the agent's own
run of the check when the log has it, else the check after the hook has answered."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest
from messages_server import MessagesServer, claude_binary, run_claude
from transcripts import SESSION, Claude, config_toml, recorded_turns, stdin_bytes, toml_list, wait_until

from edgar_min.config import load_config
from edgar_min.delivery.verdict import describe
from edgar_min.layout import Layout, user_home


def marker_check(marker: Path, code: int = 0, sleep: float = 0.0) -> list[str]:
    """A declared check that leaves `marker` behind (after `sleep` seconds) and exits `code`."""
    script = (
        f"import pathlib, sys, time; time.sleep({sleep}); "
        f"pathlib.Path({str(marker)!r}).touch(); sys.exit({code})"
    )
    return [sys.executable, "-c", script]


def stop(edgar, monkeypatch, root: Path, transcript: Path):
    payload = {"session_id": SESSION, "transcript_path": str(transcript), "hook_event_name": "Stop"}
    stdin_bytes(monkeypatch, json.dumps(payload).encode())
    return edgar("--root", str(root), "--json", "hook", "stop")


def worked(t: Claude, *, ran: str | None = None, code: int = 0) -> Claude:
    """A turn that failed once, edited, and (with `ran`) ran that command after its last edit."""
    t.user("the build is red, fix the failing date test")
    t.tool("t1", "Bash", {"command": "pytest -x tests/test_dates.py"})
    t.result("t1", "Exit code 1\nFAILED tests/test_dates.py::test_leap", is_error=True)
    t.tool("t2", "Read", {"file_path": "/p/dates.py"})
    t.result("t2", "def leap(y): ...")
    t.tool("t3", "Edit", {"file_path": "/p/dates.py", "old_string": "a", "new_string": "b"})
    t.result("t3", "The file /p/dates.py has been updated.")
    if ran is not None:
        t.tool("t4", "Bash", {"command": ran})
        t.result("t4", f"Exit code {code}\n1 failed" if code else "3 passed", is_error=bool(code))
    return t


def test_a_chat_turn_never_runs_the_check(tmp_path, edgar, monkeypatch):
    marker = tmp_path / "check-ran"
    config_toml(tmp_path, f"[check]\ncommand = {toml_list(marker_check(marker))}\n", trusted=True)
    t = Claude()
    t.user("write a haiku about the sea")
    t.assistant({"type": "text", "text": "Waves fold into foam..."})
    result = stop(edgar, monkeypatch, tmp_path, t.write(tmp_path / "t.jsonl"))
    assert result.code == 0, result
    assert result.json()["outcome"] == "none"
    assert not wait_until(marker.exists, seconds=2)  # not now, not in the background
    assert recorded_turns(tmp_path)[-1][4] == "unverified"


def test_a_chat_turn_repeated_across_sessions_still_runs_no_check(tmp_path, edgar, monkeypatch):
    marker = tmp_path / "check-ran"
    config_toml(tmp_path, f"[check]\ncommand = {toml_list(marker_check(marker))}\n", trusted=True)
    for n in range(4):  # more than skills.min_repeats other sessions asked the same kind of thing
        t = Claude(session=f"{n}f2b8c1e-7d4a-4e59-9a61-0c5d2e8b7a10")
        t.user("thanks, that worked")
        payload = {"session_id": t.session, "transcript_path": str(t.write(tmp_path / f"{n}.jsonl"))}
        stdin_bytes(monkeypatch, json.dumps(payload).encode())
        assert edgar("--root", str(tmp_path), "--json", "hook", "stop").json()["triggers"] == []
    assert not wait_until(marker.exists, seconds=1)


def test_the_agents_own_run_of_the_check_after_its_last_edit_is_the_verdict(tmp_path, edgar, monkeypatch):
    marker = tmp_path / "check-ran"
    check = marker_check(marker)
    config_toml(tmp_path, f"[check]\ncommand = {toml_list(check)}\n", trusted=True)
    transcript = worked(Claude(), ran=shlex.join(check)).write(tmp_path / "t.jsonl")
    started = time.monotonic()
    result = stop(edgar, monkeypatch, tmp_path, transcript)
    elapsed = time.monotonic() - started
    doc = result.json()
    assert doc["triggers"] == ["recovered"]  # it failed, got past it, and the check passed
    assert doc["outcome"] == "proposed"
    assert recorded_turns(tmp_path)[-1][4] == "passed"
    assert not wait_until(marker.exists, seconds=1)  # edgar ran nothing: the log had the verdict
    assert elapsed < 30  # nothing waited on


def test_the_agents_failing_run_of_the_check_is_a_failure(tmp_path, edgar, monkeypatch):
    marker = tmp_path / "check-ran"
    check = marker_check(marker)
    config_toml(tmp_path, f"[check]\ncommand = {toml_list(check)}\n", trusted=True)
    transcript = worked(Claude(), ran=shlex.join(check), code=1).write(tmp_path / "t.jsonl")
    doc = stop(edgar, monkeypatch, tmp_path, transcript).json()
    assert (doc["triggers"], doc["outcome"]) == ([], "none")
    assert recorded_turns(tmp_path)[-1][4] == "failed"
    assert not wait_until(marker.exists, seconds=1)


@pytest.mark.parametrize("ran", ["pytest -x tests/test_dates.py", None])
def test_without_the_agents_own_run_the_check_runs_after_the_hook_has_answered(
    tmp_path, edgar, monkeypatch, ran
):
    # A run of part of the tests is not the declared check; nor is a run before the last edit.
    marker = tmp_path / "check-ran"
    config_toml(tmp_path, f"[check]\ncommand = {toml_list(marker_check(marker, sleep=3))}\n", trusted=True)
    transcript = worked(Claude(), ran=ran).write(tmp_path / "t.jsonl")
    started = time.monotonic()
    result = stop(edgar, monkeypatch, tmp_path, transcript)
    answered = time.monotonic() - started
    doc = result.json()
    assert doc["outcome"] == "checking"
    assert "runs in the background" in doc["message"]
    assert answered < 3  # the hook did not wait for the three-second check
    assert recorded_turns(tmp_path) == []  # the turn is learned once its verdict is in
    assert wait_until(lambda: len(recorded_turns(tmp_path)) == 1)
    assert recorded_turns(tmp_path)[0][4:] == ["passed", "-", "-", "recovered"]
    assert marker.exists()
    assert wait_until(lambda: list((tmp_path / ".edgar" / "proposals").glob("*/SKILL.md")))


def test_checks_in_the_background_run_one_at_a_time(tmp_path, edgar, monkeypatch):
    # Two turns in quick succession: two test suites at once in one tree may fight over its files.
    spans = tmp_path / "spans"
    script = (
        "import time; t = time.time(); time.sleep(1.5); "
        f"open({str(spans)!r}, 'a').write(f'{{t}} {{time.time()}}\\n')"
    )
    config_toml(tmp_path, f"[check]\ncommand = {toml_list([sys.executable, '-c', script])}\n", trusted=True)
    for n in range(2):
        transcript = worked(Claude(session=f"{n}f2b8c1e-7d4a-4e59-9a61-0c5d2e8b7a10")).write(
            tmp_path / f"{n}.jsonl"
        )
        assert stop(edgar, monkeypatch, tmp_path, transcript).json()["outcome"] == "checking"
    assert wait_until(lambda: spans.exists() and len(spans.read_text().splitlines()) == 2)
    (first, second) = sorted(tuple(map(float, line.split())) for line in spans.read_text().splitlines())
    assert second[0] >= first[1]  # the second began once the first had ended


def test_a_check_that_cannot_run_is_logged_and_the_turn_kept_unverified(tmp_path, edgar, monkeypatch):
    config_toml(tmp_path, '[check]\ncommand = ["no-such-check-program-x1"]\n', trusted=True)
    transcript = worked(Claude()).write(tmp_path / "t.jsonl")
    assert stop(edgar, monkeypatch, tmp_path, transcript).json()["outcome"] == "checking"
    assert wait_until(lambda: len(recorded_turns(tmp_path)) == 1)
    assert recorded_turns(tmp_path)[0][4] == "unverified"
    problems = tmp_path / ".edgar" / "hook-problems.jsonl"
    assert wait_until(problems.exists)
    assert "'no-such-check-program-x1' was not found" in problems.read_text()


def test_with_hook_check_off_only_the_agents_own_run_counts(tmp_path, edgar, monkeypatch):
    marker = tmp_path / "check-ran"
    text = f"[check]\ncommand = {toml_list(marker_check(marker))}\n[adapters]\nhook_check = false\n"
    config_toml(tmp_path, text, trusted=True)
    transcript = worked(Claude()).write(tmp_path / "t.jsonl")
    assert stop(edgar, monkeypatch, tmp_path, transcript).json()["outcome"] == "none"
    assert not wait_until(marker.exists, seconds=1)
    assert recorded_turns(tmp_path)[-1][4] == "unverified"


def test_doctor_says_the_agent_never_waits_for_the_check(tmp_path, edgar):
    config_toml(tmp_path, '[check]\ncommand = ["pytest"]\ntimeout_s = 900\n', trusted=True)
    line, trouble = describe(load_config(Layout(str(tmp_path), user_home())))
    assert not trouble
    assert "in the background (within check.timeout_s, 900 s)" in line
    out = edgar("--root", str(tmp_path), "doctor").out
    assert "the agent never waits for it" in out


# --- the real Claude Code -------------------------------------------------------------------------

FAILING = {
    "pyproject.toml": (
        '[project]\nname = "calc"\nversion = "0"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n'
    ),
    "calc.py": "def add(a, b):\n    return a - b\n",
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
}


def bash(use_id: str, command: str) -> list[dict[str, object]]:
    return [{"type": "tool_use", "id": use_id, "name": "Bash", "input": {"command": command}}]


@pytest.mark.skipif(claude_binary() is None, reason="needs the Claude Code CLI on PATH (.ci/run installs it)")
def test_real_claude_code_fixing_a_failing_test_gives_a_verified_proposal(tmp_path, pyz):
    root, home = tmp_path / "project", tmp_path / "home"
    for name, text in FAILING.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    home.mkdir()
    # Each run of the test suite leaves a line: the agent's two runs, and any of edgar's.
    sessions = tmp_path / "pytest-sessions"
    (root / "conftest.py").write_text(
        f"def pytest_sessionstart(session):\n    open({str(sessions)!r}, 'a').write('ran\\n')\n"
    )
    done = subprocess.run(
        # The offline writer: what is measured here is the verdict, not the agent writing the skill.
        [sys.executable, str(pyz), "--root", str(root), "install", "claude-code", "--offline-writer"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "found the check python3 -m pytest -q in pyproject.toml" in done.stdout
    calc = str(root / "calc.py")
    script = [
        bash("toolu_01", "python3 -m pytest -q"),
        [{"type": "tool_use", "id": "toolu_02", "name": "Read", "input": {"file_path": calc}}],
        [
            {
                "type": "tool_use",
                "id": "toolu_03",
                "name": "Edit",
                "input": {"file_path": calc, "old_string": "a - b", "new_string": "a + b"},
            }
        ],
        bash("toolu_04", "python3 -m pytest -q"),
        [{"type": "text", "text": "Fixed: add() subtracted; the test passes now."}],
    ]
    with MessagesServer(script) as server:
        ran = run_claude(
            "the test suite fails, fix it",
            cwd=root,
            home=home,
            server=server,
            debug_file=tmp_path / "debug.log",
        )
    assert ran.returncode == 0, ran.stderr
    assert "a + b" in (root / "calc.py").read_text()  # the real agent made the edit
    # Claude Code runs its Stop hook before it has written the turn's last lines: the turn is
    # read again once the transcript is still, and the verdict is the agent's own passing run
    # after its edit, so edgar never ran the tests itself.
    assert wait_until(lambda: len(recorded_turns(root)) == 1)
    assert recorded_turns(root)[0][4:] == ["passed", "-", "-", "recovered"]
    assert wait_until(lambda: list((root / ".edgar" / "proposals").glob("*/SKILL.md")))
    assert sessions.read_text() == "ran\nran\n"
    # No edgar config but what install wrote: the check it found, and the trust it recorded.
    assert (root / ".edgar" / "config.toml").read_text() == (
        '[check]\ncommand = ["python3", "-m", "pytest", "-q"]  # found in pyproject.toml by `edgar install`\n'
    )


def test_learn_from_a_log_takes_the_agents_own_run_of_the_check_too(tmp_path, edgar):
    marker = tmp_path / "check-ran"
    check = marker_check(marker)
    config_toml(tmp_path, f"[check]\ncommand = {toml_list(check)}\n", trusted=True)
    transcript = worked(Claude(), ran=shlex.join(check)).write(tmp_path / "t.jsonl")
    dry = edgar(
        "--root", str(tmp_path), "--json", "learn", "--from", "claude-code", str(transcript), "--dry-run"
    )
    assert dry.json()["turn"]["verification"] == "passed"
    assert dry.json()["triggers"] == ["recovered"]
    assert not marker.exists()


def test_where_no_process_can_be_forked_the_hook_still_never_runs_the_check(tmp_path, edgar, monkeypatch):
    marker = tmp_path / "check-ran"
    config_toml(tmp_path, f"[check]\ncommand = {toml_list(marker_check(marker))}\n", trusted=True)
    monkeypatch.delattr("os.fork")  # a system without fork
    transcript = worked(Claude()).write(tmp_path / "t.jsonl")
    result = stop(edgar, monkeypatch, tmp_path, transcript)
    assert result.json()["outcome"] == "none"
    assert "the declared check cannot run in the background here" in result.err
    assert recorded_turns(tmp_path)[-1][4] == "unverified"
    assert not marker.exists()
    doctor = edgar("--root", str(tmp_path), "--json", "doctor").json()
    assert any(
        item.startswith("check: ") and "cannot run it after the hook" in item for item in doctor["attention"]
    )
    (tmp_path / "pyproject.toml").write_text("[tool.pytest.ini_options]\n")
    out = edgar("--root", str(tmp_path), "install", "claude-code").out
    assert "warning: the Stop hook takes a turn's verdict from the agent's own run" in out


def test_a_turn_the_background_cannot_record_is_said_in_the_problems_log(tmp_path, edgar, monkeypatch):
    config_toml(tmp_path, f"[check]\ncommand = {toml_list(marker_check(tmp_path / 'ran'))}\n", trusted=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / ".edgar" / "experience").symlink_to(elsewhere)  # edgar never writes through a link
    transcript = worked(Claude()).write(tmp_path / "t.jsonl")
    assert stop(edgar, monkeypatch, tmp_path, transcript).json()["outcome"] == "checking"
    problems = tmp_path / ".edgar" / "hook-problems.jsonl"
    assert wait_until(lambda: problems.exists() and "was not learned" in problems.read_text())
    (row,) = [json.loads(line) for line in problems.read_text().splitlines()]
    assert row["hook"] == "Stop"
    assert "the turn left to the check in the background was not learned: refused:" in row["problem"]
    assert list(elsewhere.iterdir()) == []
