"""Gemini CLI session logs become turn records computed by edgar, never copied."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from conftest import tree_snapshot
from transcripts import Gemini, files_containing, recording_model, toml_list

from edgar_min.adapters.common import NoTurn, tool_table
from edgar_min.adapters.gemini import read_session, read_turns, typed_text
from edgar_min.errors import BadInput

REAL = Path(__file__).parent / "fixtures" / "transcripts" / "gemini-0.61-two-turns.jsonl"
NAMES = frozenset({"release-notes", "deploy-check"})
CANARY = "CANARY-9e2d71"
FAILED = {"output": "<untrusted_context>\nOutput: 2 failed\nExit Code: 1\nProcess Group PGID: 7\n"}
PASSED = {"output": "<untrusted_context>\nOutput: 3 passed\nProcess Group PGID: 8\n</untrusted_context>"}


def _read(path, names=NAMES):
    return read_session(str(path), tool_table(()), names)


def test_a_real_sessions_turns_are_read_exactly_as_typed_after_a_resume():
    first, second = read_turns(str(REAL), tool_table(()), NAMES)
    # Edgar's own hooks put `<hook_context>` before and after each prompt; resuming rewrote the
    # history without the first prompt, which was read before it was rewritten.
    assert first.record == {
        "prompt": "<b>fix</b> the failing test, then write the release notes",
        "corrections": [],
        "tools": ["shell", "shell", "edit", "edit", "read", "skill"],
        "errors": [
            {"tool": "shell", "kind": "nonzero_exit", "exit_code": 1, "program": "python3"},
            {"tool": "edit", "kind": "not_found", "exit_code": None, "program": ""},
        ],
        "verification": "unverified",
        "agent": "main",
        "skills": ["release-notes"],
    }
    assert second.record["prompt"] == "now check the deploy"
    assert second.record["tools"] == ["skill", "shell"]
    assert second.record["skills"] == ["deploy-check"]  # activated, then read with `cat ~/.gemini/...`
    assert first.session == second.session == "41a0afe1-7a6c-4c8d-96fe-0b8304c46eb3"
    assert first.notes() == []


def test_hook_context_is_dropped_wherever_it_stands():
    assert typed_text("<hook_context>skills: a, b</hook_context>\n\nfix the build") == "fix the build"
    assert typed_text("fix the build<hook_context>use `ci`</hook_context>") == "fix the build"
    assert typed_text("<hook_context>cut short") == ""


def test_what_the_person_typed_is_the_displayed_text_not_the_files_an_at_path_added(tmp_path):
    g = Gemini()
    g.raw(
        {
            "id": "u1",
            "type": "user",
            "content": [
                {"text": "explain @app.py please"},
                {"text": "\n--- Content from referenced files ---"},
                {"text": f"\nContent from @app.py:\n{CANARY}"},
            ],
            "displayContent": [{"text": "explain @app.py please"}],
        }
    )
    assert _read(g.write(tmp_path / "s.jsonl")).record["prompt"] == "explain @app.py please"


def test_commands_and_the_session_context_start_no_turn(tmp_path):
    g = Gemini().user("run the suite").call("run_shell_command", {"command": "pytest -q"}, PASSED)
    g.user("/stats").user("?")
    record = _read(g.write(tmp_path / "s.jsonl")).record
    assert record["prompt"] == "run the suite"
    assert record["tools"] == ["shell"]


def test_a_failing_command_an_edit_error_and_a_call_the_person_stopped(tmp_path):
    g = Gemini().user("make the tests pass", hook="edgar lists the skills")
    g.call("run_shell_command", {"command": "cd web && npm test", "description": "t"}, FAILED)
    g.call(
        "replace",
        {"file_path": "a.py", "old_string": "x", "new_string": "y"},
        {"error": "Failed to edit, expected 1 occurrence but found 2."},
        status="error",
    )
    g.call(
        "run_shell_command", {"command": "rm -rf build"}, {"error": "Request cancelled."}, status="cancelled"
    )
    g.call("run_shell_command", {"command": "pytest -q"}, PASSED)
    record = _read(g.write(tmp_path / "s.jsonl")).record
    assert record["prompt"] == "make the tests pass"
    assert record["tools"] == ["shell", "edit", "shell", "shell"]
    assert record["errors"] == [
        {"tool": "shell", "kind": "nonzero_exit", "exit_code": 1, "program": "npm"},
        {"tool": "edit", "kind": "invalid_input", "exit_code": None, "program": ""},
        {"tool": "shell", "kind": "denied", "exit_code": None, "program": "rm"},
    ]


def test_the_exit_code_is_read_after_a_long_output(tmp_path):
    long = {"output": "Output: " + "line\n" * 2000 + "Exit Code: 2\nProcess Group PGID: 9"}
    g = Gemini().user("build it").call("run_shell_command", {"command": "make"}, long)
    errors = _read(g.write(tmp_path / "s.jsonl")).record["errors"]
    assert errors == [{"tool": "shell", "kind": "nonzero_exit", "exit_code": 2, "program": "make"}]


def test_skills_loaded_by_name_or_by_reading_their_file(tmp_path):
    g = Gemini().user("write the notes")
    g.call("activate_skill", {"name": "release-notes"}, {"output": "<activated_skill>"})
    g.call("activate_skill", {"name": "deploy-check"}, {"error": "not found"}, status="error")
    g.call("activate_skill", {"name": "unknown-skill"}, {"output": "<activated_skill>"})
    g.call("read_file", {"file_path": "/home/u/.gemini/skills/deploy-check/SKILL.md"}, {"output": "---"})
    assert _read(g.write(tmp_path / "s.jsonl")).record["skills"] == ["release-notes", "deploy-check"]


def test_a_skill_file_read_to_be_edited_was_not_loaded(tmp_path):
    path = ".agents/skills/release-notes/SKILL.md"
    g = Gemini().user("tidy the release notes skill")
    g.call("read_file", {"file_path": path}, {"output": "---"})
    g.call("replace", {"file_path": path, "old_string": "a", "new_string": "b"}, {"output": "ok"})
    assert _read(g.write(tmp_path / "s.jsonl")).record["skills"] == []


def test_a_rewind_takes_the_turns_after_it_away(tmp_path):
    g = Gemini().user("first task").call("run_shell_command", {"command": "ls"}, PASSED)
    g.user("a wrong turn").call("run_shell_command", {"command": "rm x"}, PASSED)
    wrong = next(line["id"] for line in g.lines if line.get("type") == "user" and "wrong" in json.dumps(line))
    g.raw({"$rewindTo": wrong}).user("the right turn")
    turns = [t.record["prompt"] for t in read_turns(str(g.write(tmp_path / "s.jsonl")), tool_table(()))]
    assert turns == ["first task", "the right turn"]


def test_another_agents_session_names_it(tmp_path):
    g = Gemini(kind="subagent").user("the task its parent wrote")
    assert _read(g.write(tmp_path / "s.jsonl")).record["agent"] == "subagent"


def test_no_typed_message_is_no_turn_and_a_folder_is_bad_input(tmp_path):
    with pytest.raises(NoTurn, match="no message a person typed"):
        _read(Gemini().write(tmp_path / "s.jsonl"))
    with pytest.raises(BadInput, match="is a folder"):
        _read(tmp_path)
    (tmp_path / "junk.jsonl").write_text("not json\n")
    with pytest.raises(BadInput, match="no message a person typed") as raised:
        _read(tmp_path / "junk.jsonl")
    assert not isinstance(raised.value, NoTurn)


def test_learn_from_gemini_reads_only_the_computed_record(tmp_path, edgar):
    root = tmp_path / "proj"
    root.mkdir()
    seen = tmp_path / "seen.txt"
    # The person's own config: the model and the check that passes, so the turn is worth a skill.
    model = f'[model]\nprovider = "command"\ncommand = {toml_list(recording_model(seen))}\n'
    check = f"[check]\ncommand = {toml_list([sys.executable, '-c', 'pass'])}\n"
    (Path(os.environ["EDGAR_HOME"]) / "config.toml").write_text(model + check)
    g = Gemini().user("bump the httpx pin", hook=f"context {CANARY}")
    g.call(
        "run_shell_command", {"command": f"pytest -q {CANARY}"}, {"output": f"Output: {CANARY}\nExit Code: 1"}
    )
    g.said(f"It fails: {CANARY}")
    g.user("no, refresh the lock file too")
    g.call(
        "run_shell_command", {"command": f"uv lock {CANARY}"}, {"output": f"Output: {CANARY}\nExit Code: 2"}
    )
    path = g.write(tmp_path / "session.jsonl")
    result = edgar("--root", str(root), "--json", "learn", "--from", "gemini", "--check", str(path))
    assert result.code == 0, result
    assert result.json()["session"] == "2557d357-ddc6-4c9f-b484-710d4cd97380"
    assert result.json()["outcome"] == "proposed"
    prompt = seen.read_text()
    assert "no, refresh the lock file too" in prompt
    assert "shell nonzero_exit exit 2 (uv)" in prompt
    assert CANARY not in prompt
    assert files_containing(root / ".edgar", CANARY) == []


def test_learn_from_the_wrong_agent_says_whose_log_it_is_and_writes_nothing(tmp_path, edgar):
    before = tree_snapshot(tmp_path)
    result = edgar("--root", str(tmp_path), "learn", "--from", "codex", str(REAL))
    assert result.code == 2
    assert "is a Gemini CLI log, not a Codex one: use learn --from gemini" in result.err
    assert tree_snapshot(tmp_path) == before


def test_the_older_session_file_one_json_object_is_read_too(tmp_path):
    session = {
        "sessionId": "gemini-sess-001",
        "startTime": "2025-04-08T08:00:00Z",
        "messages": [
            {"id": "u1", "type": "user", "content": "change the port to 9000"},
            {
                "id": "g1",
                "type": "gemini",
                "content": "I'll update it.",
                "toolCalls": [
                    {
                        "id": "e1",
                        "name": "replace",
                        "args": {"file_path": "config.json", "old_string": "8080", "new_string": "9000"},
                        "result": [
                            {
                                "functionResponse": {
                                    "id": "e1",
                                    "name": "replace",
                                    "response": {
                                        "error": "Failed to edit, 0 occurrences found for old_string"
                                    },
                                }
                            }
                        ],
                        "status": "error",
                    }
                ],
            },
        ],
    }
    path = tmp_path / "session-001.json"
    path.write_text(json.dumps(session, indent=2))
    adapted = _read(path)
    assert adapted.record["prompt"] == "change the port to 9000"
    assert adapted.record["errors"] == [
        {"tool": "edit", "kind": "invalid_input", "exit_code": None, "program": ""}
    ]
    assert adapted.session == "gemini-sess-001"
    assert adapted.notes() == []


def test_the_shell_commands_since_the_last_edit_of_a_real_session():
    first, second = read_turns(str(REAL), tool_table(()), NAMES)
    assert first.runs == ()  # its shell commands all came before its edits
    assert second.runs == (("cat ~/.gemini/skills/deploy-check/SKILL.md", 0),)
