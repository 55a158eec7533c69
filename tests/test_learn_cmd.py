"""`edgar learn --dry-run`: the turn record edgar computed and the triggers, with nothing written."""

from __future__ import annotations

import json

import pytest
from conftest import tree_snapshot
from transcripts import Claude, Codex

from edgar_min.delivery.record import record_offer
from edgar_min.layout import Layout, user_home

TURN = {
    "prompt": "bump the httpx pin",
    "corrections": ["no, refresh the lock file too"],
    "tools": ["shell", "edit", "shell"],
    "errors": [{"tool": "shell", "kind": "nonzero_exit", "exit_code": 1, "program": "pytest"}],
    "verification": "passed",
}


def test_a_turn_record_dry_run_prints_the_record_and_triggers_and_writes_nothing(tmp_path, edgar):
    turn = tmp_path / "turn.json"
    turn.write_text(json.dumps(TURN))
    root = tmp_path / "proj"
    root.mkdir()
    before = tree_snapshot(root)
    result = edgar("--root", str(root), "learn", str(turn), "--dry-run")
    assert result.code == 0, result
    assert "turn record edgar computed (nothing was stored):" in result.out
    assert '"prompt": "bump the httpx pin"' in result.out
    assert "triggers that would fire: recovered, correction" in result.out
    assert "learn would: ask the model for a skill and write it as a proposal" in result.out
    assert tree_snapshot(root) == before


def test_a_claude_code_dry_run_as_json(tmp_path, edgar):
    t = Claude().user("run the tests and fix them")
    t.tool("t1", "Bash", {"command": "cd pkg && pytest -x"})
    t.result("t1", "Exit code 1\nFAILED", is_error=True, tool_use_result="Error: Exit code 1\nFAILED")
    t.tool("t2", "Edit", {"file_path": "/p/a.py"}).result("t2", "ok")
    t.interrupt()
    t.user("<ide_opened_file>The user opened the file /p/a.py in the IDE.</ide_opened_file>\nuse a fixture")
    path = t.write(tmp_path / "t.jsonl")
    root = tmp_path / "proj"
    root.mkdir()
    before = tree_snapshot(root)
    result = edgar("--root", str(root), "--json", "learn", "--from", "claude-code", str(path), "--dry-run")
    assert result.code == 0, result
    doc = result.json()
    assert doc["dry_run"] is True
    assert doc["turn"] == {
        "prompt": "run the tests and fix them",
        "corrections": ["use a fixture"],
        "tools": ["shell", "edit"],
        "errors": [{"tool": "shell", "kind": "nonzero_exit", "exit_code": 1, "program": "pytest"}],
        "verification": "unverified",
        "agent": "main",
        "skills": [],
    }
    assert doc["triggers"] == ["correction"]
    assert doc["shape"] == "main:shell>edit"
    assert tree_snapshot(root) == before


def test_a_codex_dry_run_redacts_what_it_prints(tmp_path, edgar):
    key = "sk-" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6"
    path = Codex().typed(f"deploy with {key}").write(tmp_path / "r.jsonl")
    result = edgar("--root", str(tmp_path), "--json", "learn", "--from", "codex", str(path), "--dry-run")
    assert result.code == 0, result
    assert key not in result.out
    assert result.json()["triggers"] == []
    assert result.json()["would"].startswith("nothing: no trigger fired")
    assert not (tmp_path / ".edgar").exists()


def test_dry_run_with_the_hook_is_bad_usage(tmp_path, edgar):
    result = edgar("--root", str(tmp_path), "learn", "--from", "claude-code", "--hook", "--dry-run")
    assert result.code == 0  # a hook never fails the agent; the sentence says why nothing happened
    assert "--hook and --dry-run do not go together" in result.out


def test_a_bad_turn_record_in_a_dry_run_is_the_same_sentence_and_exit_code(tmp_path, edgar):
    turn = tmp_path / "turn.json"
    turn.write_text(json.dumps({**TURN, "stdout": "x"}))
    result = edgar("--root", str(tmp_path), "learn", str(turn), "--dry-run")
    assert result.code == 2
    assert "stdout" in result.err
    assert "Traceback" not in result.err


RECOVERED = {**TURN, "corrections": []}
CORRECTED = {**TURN, "errors": [], "verification": "unverified"}
FAILED = {**RECOVERED, "verification": "failed"}


@pytest.mark.parametrize("mode", ["off", "propose", "auto"])
@pytest.mark.parametrize(
    "record", [RECOVERED, TURN, CORRECTED, FAILED], ids=["recovered", "both", "corr", "failed"]
)
def test_the_dry_run_says_what_learn_then_does(tmp_path, edgar, mode, record):
    """The dry run asks the gate's own route: what it says is what the real run does."""
    turn = tmp_path / "turn.json"
    turn.write_text(json.dumps(record))
    root = tmp_path / "proj"
    root.mkdir()
    flags = ("--set", f"skills.synthesis={mode}")
    dry = edgar("--root", str(root), "--json", *flags, "learn", str(turn), "--dry-run", "--session", "s1")
    would = json.loads(dry.out)["would"]
    real = json.loads(edgar("--root", str(root), "--json", *flags, "learn", str(turn), "--session", "s1").out)
    expected = {"nothing": {"off", "none"}, "learned": {"learned"}, "proposal": {"proposed"}}
    said = "learned" if "learned skill" in would else "proposal" if "proposal" in would else "nothing"
    assert real["outcome"] in expected[said], (would, real)


def test_learn_from_a_log_counts_an_offer_in_its_session_apart_from_a_use(tmp_path, edgar):
    root = tmp_path / "proj"
    skill = root / ".agents" / "skills" / "release-notes"
    skill.mkdir(parents=True)
    skill.joinpath("SKILL.md").write_text(
        "---\nname: release-notes\ndescription: Write release notes from the git log of a tag range.\n---\n\n"
        "## When to use\nWhen a release is cut.\n"
    )
    session = "0199a3c2-5b7e-7f10-9c3d-2a6e4b8d1f00"
    c = Codex(session=session).said("write the release notes for v2")
    c.call("c1", "exec_command", {"cmd": "git log --oneline v1..HEAD"}).output(
        "c1", "Process exited with code 0"
    )
    rollout = c.write(tmp_path / "rollout.jsonl")
    other = edgar(
        "--root", str(root), "learn", "--from", "codex", str(rollout), "--session", "another-session"
    )
    assert other.code == 0, other
    # What the prompt hook records when it hands the skill over at this session's prompt.
    record_offer(Layout(root, user_home()), session, ["release-notes"])
    result = edgar("--root", str(root), "learn", "--from", "codex", str(rollout))
    assert result.code == 0, result
    stats = edgar("--root", str(root), "--json", "skills", "stats", "release-notes").json()
    # Offered in this session's turn (not the one learned under another session), and not used:
    # the agent ran `git log` and never read the skill.
    assert (stats["offered"], stats["used"]) == (1, 0)
    # The agent then reads the skill's file: that turn used it.
    c.said("now follow the skill").call(
        "c2", "exec_command", {"cmd": "cat .agents/skills/release-notes/SKILL.md"}
    ).output("c2", "Process exited with code 0")
    c.write(rollout)
    record_offer(Layout(root, user_home()), session, [])
    assert edgar("--root", str(root), "learn", "--from", "codex", str(rollout)).code == 0
    stats = edgar("--root", str(root), "--json", "skills", "stats", "release-notes").json()
    assert (stats["offered"], stats["used"]) == (1, 1)


def test_the_offline_writer_names_the_failure_and_the_declared_check_it_was_shown(tmp_path, edgar):
    import sys

    from transcripts import config_toml, toml_list

    config_toml(tmp_path, f"[check]\ncommand = {toml_list([sys.executable, '-m', 'pytest'])}\n", trusted=True)
    turn = {
        "prompt": "deploy",
        "tools": ["shell", "shell"],
        "errors": [{"tool": "shell", "kind": "timeout"}],
        "verification": "passed",
    }
    (tmp_path / "turn.json").write_text(json.dumps(turn))
    result = edgar("--root", str(tmp_path), "--json", "learn", str(tmp_path / "turn.json"))
    assert (result.code, result.json()["outcome"]) == (0, "proposed"), result.out
    text = (tmp_path / result.json()["path"]).read_text()
    assert "name: deploy-routine\n" in text
    assert "- shell timeout: this failed along the way" in text
    assert "Run the project's declared check (pytest) and see it pass" in text
