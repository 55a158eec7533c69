"""Codex CLI session logs become turn records computed by edgar, never copied."""

from __future__ import annotations

import json

from conftest import tree_snapshot
from transcripts import Codex, config_toml, files_containing, recording_model, toml_list

from edgar_min.adapters.codex import read_session
from edgar_min.adapters.common import tool_table

CANARY = "CANARY-5b1c0a"
SESSION = "0199a3c2-5b7e-7f10-9c3d-2a6e4b8d1f00"


def _read(path):
    return read_session(path, tool_table(()))


def typical(c: Codex, canary: str = "x") -> Codex:
    c.add("turn_context", {"cwd": f"/p/{canary}", "approval_policy": "on-request", "model": "gpt-5-codex"})
    c.add(
        "response_item",
        {
            "type": "message",
            "role": "user",
            "content": [
                {"type": "input_text", "text": f"<environment_context>{canary}</environment_context>"}
            ],
        },
    )
    c.typed("bump the httpx pin")
    c.add("response_item", {"type": "reasoning", "summary": [{"type": "summary_text", "text": canary}]})
    c.call("c1", "shell", {"command": ["bash", "-lc", f"pytest -q {canary}"], "workdir": "/p"})
    c.output(
        "c1", json.dumps({"output": f"FAILED {canary}", "metadata": {"exit_code": 1, "duration_seconds": 1}})
    )
    c.add("event_msg", {"type": "exec_command_end", "call_id": "c1", "exit_code": 1, "stdout": canary})
    c.add(
        "response_item",
        {
            "type": "custom_tool_call",
            "name": "apply_patch",
            "call_id": "c2",
            "input": f"*** Begin Patch {canary}",
        },
    )
    c.add(
        "response_item", {"type": "custom_tool_call_output", "call_id": "c2", "output": f"Success {canary}"}
    )
    c.add("event_msg", {"type": "turn_aborted", "reason": "interrupted"})
    c.typed("no, refresh the lock file too")
    c.call("c3", "exec_command", {"cmd": f"uv lock {canary}"})
    c.output("c3", f"Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 2\nOutput:\n{canary}")
    c.call("c4", "exec_command", {"cmd": "pytest -q"})
    c.output("c4", "Process exited with code 0\nOutput:\n3 passed")
    c.add(
        "response_item",
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": canary}]},
    )
    c.add("event_msg", {"type": "agent_message", "message": canary})
    c.add("event_msg", {"type": "token_count", "info": None})
    return c


def test_the_last_turn_is_computed_field_by_field(tmp_path):
    c = Codex().typed("an earlier turn")
    c.call("c0", "shell", {"command": ["ls"]}).output("c0", "a")
    adapted = _read(typical(c).write(tmp_path / "rollout.jsonl"))
    assert adapted.session == SESSION
    assert adapted.record == {
        "prompt": "bump the httpx pin",
        "corrections": ["no, refresh the lock file too"],
        "tools": ["shell", "edit", "shell", "shell"],
        "errors": [
            {"tool": "shell", "kind": "nonzero_exit", "exit_code": 1, "program": "pytest"},
            {"tool": "shell", "kind": "nonzero_exit", "exit_code": 2, "program": "uv"},
        ],
        "verification": "unverified",
        "agent": "main",
        "skills": [],
    }


def test_a_canary_in_every_other_field_reaches_no_file_and_no_prompt(tmp_path, edgar):
    root = tmp_path / "proj"
    root.mkdir()
    seen = tmp_path / "seen.txt"
    config_toml(root, f'[model]\nprovider = "command"\ncommand = {toml_list(recording_model(seen))}\n')
    c = typical(Codex(), CANARY)
    c.add("compacted", {"message": CANARY})
    c.add("future_kind", {"x": CANARY})
    path = c.write(tmp_path / "rollout.jsonl", tail=f'{{"type":"event_msg","payload":{{"message":"{CANARY}')
    result = edgar("--root", str(root), "--json", "learn", "--from", "codex", str(path))
    assert result.code == 0, result
    assert result.json()["outcome"] == "proposed"
    prompt = seen.read_text()
    assert "bump the httpx pin" in prompt
    assert "shell nonzero_exit exit 2 (uv)" in prompt
    assert CANARY not in prompt
    assert files_containing(root / ".edgar", CANARY) == []


def test_older_logs_without_user_message_events_use_the_typed_response_items(tmp_path):
    c = Codex()
    c.add(
        "response_item",
        {
            "type": "message",
            "role": "user",
            "content": [{"type": "input_text", "text": "<user_instructions>be brief</user_instructions>"}],
        },
    )
    c.add(
        "response_item",
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "add a test"}]},
    )
    c.add(
        "response_item",
        {"type": "local_shell_call", "call_id": "l1", "action": {"command": ["cargo", "test"]}},
    )
    record = _read(c.write(tmp_path / "r.jsonl")).record
    assert record["prompt"] == "add a test"
    assert record["tools"] == ["shell"]


def test_no_typed_message_is_refused_and_writes_nothing(tmp_path, edgar):
    c = Codex().call("c1", "shell", {"command": ["ls"]}).output("c1", "a")
    path = c.write(tmp_path / "r.jsonl")
    before = tree_snapshot(tmp_path)
    result = edgar("--root", str(tmp_path), "learn", "--from", "codex", str(path))
    assert result.code == 2
    assert "no message a person typed was found" in result.err
    assert tree_snapshot(tmp_path) == before


def test_an_output_without_its_call_and_garbage_are_counted(tmp_path):
    c = Codex().typed("go")
    c.output("nope", "Process exited with code 1")
    c.lines.append("garbage")
    adapted = _read(c.write(tmp_path / "r.jsonl"))
    assert adapted.record["errors"] == []
    assert adapted.orphan_results == 1
    assert adapted.stats.garbage == 1


def test_a_command_that_could_not_start_is_not_found(tmp_path):
    c = Codex().typed("run the app")
    c.call("c1", "shell", {"command": ["bash", "-lc", "cd apps/web && FOO=1 pnpm dev"], "workdir": "/p"})
    c.output("c1", "execution error: No such file or directory (os error 2)")
    record = _read(c.write(tmp_path / "r.jsonl")).record
    assert record["errors"] == [{"tool": "shell", "kind": "not_found", "exit_code": None, "program": "pnpm"}]


IDE = (
    "# Context from my IDE setup:\n\n## Active file: api/test/import.e2e-spec.ts\n\n"
    "## Open tabs:\n- import.e2e-spec.ts: api/test/import.e2e-spec.ts\n- PLAN.md: PLAN.md\n\n"
    "## My request for Codex:\nsummarise the current stage\n"
)


def test_the_ide_preamble_is_dropped_and_the_request_kept(tmp_path):
    c = Codex().typed(IDE)
    c.call("c1", "shell", {"command": ["bash", "-lc", "cat PLAN.md"]}).output("c1", "Exit code: 0")
    assert _read(c.write(tmp_path / "r.jsonl")).record["prompt"] == "summarise the current stage"
    files = (
        "# Files mentioned by the user:\n\n## clip.png: /tmp/clip.png\n\n## My request for Codex:\n"
        'why is this red\n<image name=[Image #1] path="/tmp/clip.png">\n</image>'
    )
    c = Codex().typed(files)
    assert _read(c.write(tmp_path / "r2.jsonl")).record["prompt"] == "why is this red"


def test_image_parts_of_a_typed_message_are_dropped(tmp_path):
    c = Codex()
    content = [
        {"type": "input_text", "text": "explain the mismatch.\n"},
        {"type": "input_text", "text": "<image>"},
        {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo"},
        {"type": "input_text", "text": "</image>"},
    ]
    c.add("response_item", {"type": "message", "role": "user", "content": content})
    assert _read(c.write(tmp_path / "r.jsonl")).record["prompt"] == "explain the mismatch."


def test_the_first_rollout_format_is_read(tmp_path):
    path = tmp_path / "rollout-2025-09-10.jsonl"
    session = "981d779b-eff6-469e-bb55-b423fe135b79"
    context = "<environment_context>\n  <cwd>/p</cwd>\n</environment_context>"
    call = {"command": ["bash", "-lc", "ls"]}
    output = {"output": "", "metadata": {"exit_code": 2}}
    lines = [
        {"id": session, "timestamp": "2025-09-10T02:47:38.812Z", "instructions": None},
        {"record_type": "state"},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": context}]},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "add a README"}]},
        {"type": "function_call", "name": "shell", "arguments": json.dumps(call), "call_id": "a"},
        {"type": "function_call_output", "call_id": "a", "output": json.dumps(output)},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    adapted = _read(path)
    assert adapted.session == session
    assert adapted.record["prompt"] == "add a README"
    error = {"tool": "shell", "kind": "nonzero_exit", "exit_code": 2, "program": "ls"}
    assert adapted.record["errors"] == [error]
    assert adapted.notes() == []
