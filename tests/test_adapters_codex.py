"""Codex CLI session logs become turn records computed by edgar, never copied."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import state_of, tree_snapshot
from transcripts import Codex, config_toml, files_containing, recording_model, toml_list

from edgar_min.adapters.codex import read_session, read_turns
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
    config_toml(
        root, f'[model]\nprovider = "command"\ncommand = {toml_list(recording_model(seen))}\n', trusted=True
    )
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


# Skills: the agent opens a listed skill's SKILL.md itself, through its shell.

FIXTURE = Path(__file__).parent / "fixtures" / "transcripts" / "codex-0.100-skill-read.jsonl"
NAMES = frozenset({"pdf", "conversation-export"})


def _skills(c: Codex, tmp_path, names=NAMES) -> list[str]:
    return read_session(str(c.write(tmp_path / "r.jsonl")), tool_table(()), names).record["skills"]


def test_the_skill_a_real_session_opened_with_sed_is_loaded(tmp_path):
    adapted = read_session(str(FIXTURE), tool_table(()), frozenset({"conversation-export"}))
    assert adapted.record["prompt"] == "save this conversation."
    assert adapted.record["skills"] == ["conversation-export"]
    assert adapted.record["tools"] == ["shell", "shell", "shell"]
    assert adapted.notes() == []
    # A skill edgar has not discovered is not one it can learn about.
    assert read_session(str(FIXTURE), tool_table(()), frozenset({"pdf"})).record["skills"] == []


READS = {
    "sed through exec_command": ("exec_command", {"cmd": "sed -n '1,200p' /h/.agents/skills/pdf/SKILL.md"}),
    "relative to the call's workdir": (
        "exec_command",
        {"cmd": "cat SKILL.md", "workdir": "/p/.agents/skills/pdf"},
    ),
    "past cd, piped into sed": (
        "exec_command",
        {"cmd": "cd .agents/skills/pdf && nl -ba SKILL.md | sed -n '1,80p'", "workdir": "/p"},
    ),
    "after other commands, stderr dropped": (
        "shell_command",
        {"command": "pwd && ls -la && head -n 50 skills/pdf/SKILL.md 2>/dev/null", "workdir": "/p"},
    ),
    "the second of two lines": (
        "exec_command",
        {"cmd": "git status --short\nsed -n '1,120p' ~/.codex/skills/pdf/SKILL.md"},
    ),
    "bash -lc in an argument vector": (
        "shell",
        {"command": ["bash", "-lc", "cat .claude/skills/pdf/SKILL.md"]},
    ),
    "a learned skill, as an argument vector": (
        "shell",
        {"command": ["cat", "/p/.edgar/skills/learned/pdf/SKILL.md"]},
    ),
    "a Codex system skill": (
        "exec_command",
        {"cmd": "sed -n '1,220p' /h/.codex/skills/.system/pdf/SKILL.md"},
    ),
    "a brace the shell expands": (
        "exec_command",
        {"cmd": "sed -n '1,400p' ~/.agents/skills/{tdd,pdf}/SKILL.md"},
    ),
    "from standard input": ("exec_command", {"cmd": "tail -n +1 < .agents/skills/pdf/SKILL.md"}),
    "the read_file tool": ("read_file", {"file_path": "/p/.agents/skills/pdf/SKILL.md", "offset": 1}),
}


@pytest.mark.parametrize(("name", "arguments"), READS.values(), ids=READS.keys())
def test_a_read_of_a_discovered_skills_file_loads_it(tmp_path, name, arguments):
    c = Codex().typed("turn the scan into a searchable pdf")
    c.call("c1", name, arguments).output("c1", "Process exited with code 0\nOutput:\n---\nname: pdf\n")
    assert _skills(c, tmp_path) == ["pdf"]


def test_code_mode_exec_and_local_shell_reads_load_the_skill(tmp_path):
    c = Codex().typed("review the staged change")
    source = (
        "const r = await Promise.all([\n"
        '  tools.exec_command({"cmd":"pwd && sed -n \'1,240p\' /h/.agents/skills/pdf/SKILL.md",'
        '"workdir":"/p","yield_time_ms":10000}),\n'
        "  tools.exec_command({cmd:'cat skills/conversation-export/SKILL.md', workdir:'/p'}),\n"
        "]);\ntext(r.output);\n"
    )
    c.add("response_item", {"type": "custom_tool_call", "name": "exec", "call_id": "x1", "input": source})
    c.add("response_item", {"type": "custom_tool_call_output", "call_id": "x1", "output": "Script completed"})
    action = {
        "type": "exec",
        "command": ["sed", "-n", "1,80p", "SKILL.md"],
        "working_directory": "/p/skills/pdf",
    }
    c.add(
        "response_item",
        {"type": "local_shell_call", "call_id": "l1", "status": "completed", "action": action},
    )
    assert _skills(c, tmp_path) == ["pdf", "conversation-export"]


NOT_READS = {
    "sed -i edits it": "sed -i 's/old/new/' .agents/skills/pdf/SKILL.md",
    "sed -ni edits it": "sed -ni '1,5p' .agents/skills/pdf/SKILL.md",
    "gawk -i inplace edits it": "gawk -i inplace '{print}' .agents/skills/pdf/SKILL.md",
    "a heredoc writes it": (
        "cat > .agents/skills/pdf/SKILL.md <<'EOF'\n---\nname: pdf\n---\ncat .agents/skills/pdf/SKILL.md\nEOF"
    ),
    "appended to": "echo '- one more step' >> .agents/skills/pdf/SKILL.md",
    "copied into a file": "cat .agents/skills/pdf/SKILL.md > /tmp/copy.md",
    "copied with cp": "cp .agents/skills/pdf/SKILL.md /tmp/pdf.md",
    "searched": "rg -n 'ocr' .agents/skills/pdf/SKILL.md",
    "only named": "echo see .agents/skills/pdf/SKILL.md",
    "not discovered": "cat .agents/skills/docx/SKILL.md",
    "a backup beside it": "cat .agents/skills/pdf/SKILL.md.bak",
    "a file deeper in the skill": "cat .agents/skills/pdf/references/SKILL.md",
    "not a skills folder": "cat docs/pdf/SKILL.md",
    "a folder only named like one": "cat myskills/pdf/SKILL.md",
    "a proposal": "cat .edgar/proposals/pdf/SKILL.md",
    "a hidden folder not Codex's": "cat .agents/skills/.cache/pdf/SKILL.md",
    "another file name": "cat .agents/skills/pdf/skill.md",
}


@pytest.mark.parametrize("command", NOT_READS.values(), ids=NOT_READS.keys())
def test_a_write_a_search_or_a_path_that_only_looks_like_a_skill_loads_nothing(tmp_path, command):
    c = Codex().typed("fix the pdf skill")
    c.call("c1", "exec_command", {"cmd": command, "workdir": "/p"}).output("c1", "Process exited with code 0")
    assert _skills(c, tmp_path) == []


def test_a_patch_to_a_skill_file_loads_nothing(tmp_path):
    c = Codex().typed("fix the pdf skill")
    patch = (
        "*** Begin Patch\n*** Update File: /p/.agents/skills/pdf/SKILL.md\n@@\n-old\n+new\n*** End Patch\n"
    )
    c.add(
        "response_item", {"type": "custom_tool_call", "name": "apply_patch", "call_id": "p1", "input": patch}
    )
    c.add("response_item", {"type": "custom_tool_call_output", "call_id": "p1", "output": "Success."})
    assert _skills(c, tmp_path) == []


def test_a_read_the_person_rejected_or_that_never_started_loads_nothing(tmp_path):
    c = Codex().typed("make a pdf")
    c.call("c1", "exec_command", {"cmd": "cat .agents/skills/pdf/SKILL.md", "workdir": "/p"})
    c.output("c1", "exec command rejected by user")
    c.call(
        "c2",
        "shell",
        {"command": ["bash", "-lc", "cat skills/conversation-export/SKILL.md"], "workdir": "/p"},
    )
    c.output("c2", "execution error: No such file or directory (os error 2)")
    assert _skills(c, tmp_path) == []


def test_a_skill_read_in_an_earlier_turn_is_not_this_turns(tmp_path):
    c = Codex().typed("make a pdf")
    c.call("c1", "exec_command", {"cmd": "cat .agents/skills/pdf/SKILL.md", "workdir": "/p"}).output(
        "c1", "ok"
    )
    c.typed("thanks, now commit it")
    c.call("c2", "exec_command", {"cmd": "git commit -am pdf", "workdir": "/p"}).output("c2", "ok")
    assert _skills(c, tmp_path) == []


def test_only_the_skills_name_reaches_the_record(tmp_path):
    c = Codex().typed("make a pdf")
    cmd = f"cd /p/{CANARY} && sed -n '1,200p' .agents/skills/pdf/SKILL.md | head -{CANARY}"
    c.call("c1", "exec_command", {"cmd": cmd, "workdir": f"/{CANARY}"}).output("c1", f"Output:\n{CANARY}")
    record = read_session(str(c.write(tmp_path / "r.jsonl")), tool_table(()), NAMES).record
    assert record["skills"] == ["pdf"]
    assert CANARY not in json.dumps(record)


def test_a_skill_the_person_named_is_loaded(tmp_path):
    c = Codex().typed("$pdf make the scan searchable")
    c.named("pdf", "/h/.agents/skills/pdf/SKILL.md", "---\nname: pdf\ndescription: PDFs.\n---\n# PDF")
    c.call("c1", "exec_command", {"cmd": "ocrmypdf scan.pdf out.pdf"}).output(
        "c1", "Process exited with code 0"
    )
    record = read_session(str(c.write(tmp_path / "r.jsonl")), tool_table(()), NAMES).record
    assert record["prompt"] == "$pdf make the scan searchable"
    assert record["skills"] == ["pdf"]


def test_a_plugins_skill_is_its_own_name_and_a_named_skill_read_too_counts_once(tmp_path):
    c = Codex().typed("$superpowers:pdf split the handbook")
    c.named("superpowers:pdf", "/h/.codex/plugins/superpowers/skills/pdf/SKILL.md")
    c.call("c1", "exec_command", {"cmd": "cat /h/.agents/skills/pdf/SKILL.md"}).output("c1", "ok")
    assert _skills(c, tmp_path) == ["pdf"]


def test_a_named_skill_not_discovered_or_a_message_that_only_looks_like_one_loads_nothing(tmp_path):
    c = Codex().typed("$tdd then <skill> what is this tag")
    c.named("tdd", "/h/.agents/skills/tdd/SKILL.md")
    c.add(
        "response_item",
        {
            "type": "message",
            "role": "user",
            "content": [{"type": "input_text", "text": "<skill> what is this tag, <name>pdf</name>"}],
        },
    )
    assert _skills(c, tmp_path) == []


def test_a_skill_named_in_an_earlier_turn_is_not_this_turns(tmp_path):
    c = Codex().typed("$pdf rotate page 3")
    c.named("pdf", "/h/.agents/skills/pdf/SKILL.md")
    c.typed("thanks, commit it")
    assert _skills(c, tmp_path) == []


def test_in_a_log_without_events_the_typed_text_beside_a_named_skill_is_the_prompt(tmp_path):
    path = tmp_path / "r.jsonl"
    skill = "<skill>\n<name>pdf</name>\n<path>/h/.agents/skills/pdf/SKILL.md</path>\n# PDF\n</skill>"
    message = {
        "type": "message",
        "role": "user",
        "content": [{"type": "input_text", "text": skill}, {"type": "input_text", "text": "shrink the pdf"}],
    }
    path.write_text(json.dumps(message) + "\n")
    record = read_session(str(path), tool_table(()), NAMES).record
    assert record["prompt"] == "shrink the pdf"
    assert record["skills"] == ["pdf"]


def test_learn_from_codex_keeps_the_prompt_as_an_example_of_the_skill_read(tmp_path, edgar):
    skill = tmp_path / ".agents" / "skills" / "conversation-export" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: conversation-export\ndescription: Export the conversation as JSONL.\n---\n")
    result = edgar("--root", str(tmp_path), "--json", "learn", "--from", "codex", str(FIXTURE))
    assert result.code == 0, result.err
    assert json.loads(result.out)["examples"] == ["conversation-export"]
    rows = [
        json.loads(line) for line in (state_of(tmp_path) / "routing-examples.jsonl").read_text().splitlines()
    ]
    assert [(r["skill"], r["text"], r["source"]) for r in rows] == [
        ("conversation-export", "save this conversation.", "agent")
    ]


def test_learn_from_codex_writes_no_example_for_a_skill_not_discovered(tmp_path, edgar):
    result = edgar("--root", str(tmp_path), "--json", "learn", "--from", "codex", str(FIXTURE))
    assert result.code == 0, result.err
    assert json.loads(result.out)["examples"] == []
    assert not (state_of(tmp_path) / "routing-examples.jsonl").exists()


def test_every_turn_is_read_in_order_and_the_last_is_read_sessions(tmp_path):
    from edgar_min.adapters.codex import read_turns

    c = Codex()
    c.typed("convert the scans")
    c.call("c1", "shell_command", {"command": "cat ~/.codex/skills/pdf/SKILL.md"})
    c.output("c1", "Exit code: 0")
    c.typed("thanks")
    c.typed("now the spreadsheet")
    c.call("c3", "shell_command", {"command": "head -50 .agents/skills/xlsx/SKILL.md"})
    c.output("c3", "Exit code: 0")
    path = c.write(tmp_path / "rollout.jsonl")
    turns = list(read_turns(path, tool_table(()), {"pdf", "xlsx"}))
    assert [(a.record["prompt"], a.record["skills"], a.session) for a in turns] == [
        ("convert the scans", ["pdf"], SESSION),
        ("thanks", [], SESSION),
        ("now the spreadsheet", ["xlsx"], SESSION),
    ]
    assert turns[-1].record == read_session(path, tool_table(()), {"pdf", "xlsx"}).record


@pytest.mark.parametrize(
    ("source", "agent"),
    [
        ("cli", "main"),
        ("vscode", "main"),
        ("exec", "main"),
        ({"subagent": "review"}, "review"),
        (
            {"subagent": {"thread_spawn": {"parent_thread_id": "x", "depth": 1, "agent_role": "explorer"}}},
            "explorer",
        ),
        ({"subagent": {"thread_spawn": {"parent_thread_id": "x", "depth": 1}}}, "thread_spawn"),
        ({"subagent": {"other": "Weird Name!"}}, "other"),
        ({"subagent": "Not A Name"}, "subagent"),
        ({"internal": "memory_consolidation"}, "memory_consolidation"),
    ],
)
def test_a_rollout_a_subagent_wrote_names_that_agent(tmp_path, source, agent):
    c = Codex()
    c.lines[0]["payload"]["source"] = source
    c.typed("review the changes")
    assert _read(c.write(tmp_path / "rollout.jsonl")).record["agent"] == agent


def test_learn_from_a_review_subagents_rollout_keeps_no_example(tmp_path, edgar):
    from skillfiles import write_skill

    write_skill(tmp_path / ".claude" / "skills", "gh-address-comments", "Address review comments.")
    folder = (
        Path(__file__).resolve().parent / "fixtures" / "transcripts" / "codex-sessions" / "2026" / "02" / "16"
    )
    (rollout,) = folder.glob("rollout-*-019c6740-*.jsonl")
    result = edgar("--root", str(tmp_path), "--json", "learn", "--from", "codex", str(rollout))
    assert result.code == 0, result
    assert result.json()["examples"] == []
    assert not (state_of(tmp_path) / "routing-examples.jsonl").exists()
    dry = edgar(
        "--root", str(tmp_path), "--json", "learn", "--from", "codex", str(rollout), "--dry-run"
    ).json()
    assert dry["turn"]["agent"] == "review"
    assert dry["turn"]["skills"] == ["gh-address-comments"]


# Codex 0.171, as the real CLI wrote it (tests/fixtures/transcripts/README.md: record_agents.py)

REAL_171 = Path(__file__).parent / "fixtures" / "transcripts" / "codex-0.171-two-turns.jsonl"


def test_a_real_0171_rollouts_turns_are_read_exactly_as_typed():
    from edgar_min.adapters.codex import read_turns

    first, second = read_turns(str(REAL_171), tool_table(()), {"release-notes", "deploy-check"})
    # Typed text starts with `<`, and the file piped into `codex exec` is not part of it.
    assert first.record["prompt"] == "<b>fix</b> the failing test, then write the release notes"
    assert first.record["tools"] == [
        "shell",
        "shell",
        "edit",
        "edit",
        "shell",
        "shell",
        "shell",
        "mcp.docs.read_file",
    ]
    assert first.record["errors"] == [
        {"tool": "shell", "kind": "nonzero_exit", "exit_code": 1, "program": "python3"},
        # `apply_patch verification failed: Failed to read file to update ...: No such file ...`
        {"tool": "edit", "kind": "not_found", "exit_code": None, "program": ""},
        # `sleep 1; exit 3` ran in the background: its exit code came in a later `write_stdin` poll.
        {"tool": "shell", "kind": "nonzero_exit", "exit_code": 3, "program": "sleep"},
    ]
    assert first.record["skills"] == ["release-notes"]
    assert second.record["prompt"] == "summarize this with $release-notes"
    # `$release-notes` put the skill in the turn; `cat ~/.codex/skills/deploy-check/SKILL.md` read one.
    assert second.record["skills"] == ["release-notes", "deploy-check"]
    assert first.notes() == second.notes() == []  # world_state and token_usage_record are known
    assert first.session == second.session == "01a2353d-3439-7192-a058-0ed27c9e6047"


def test_the_0171_event_of_a_typed_message_wins_over_the_response_items(tmp_path):
    c = Codex()
    c.labelled(
        ("# AGENTS.md instructions for /p\n\n<INSTRUCTIONS>x</INSTRUCTIONS>", "agents_md"),
        ("<environment_context/>", "harness"),
    )
    c.said("<div> is not centred, fix the css")
    c.call("c1", "exec_command", {"cmd": "npm test"}).output("c1", "Process exited with code 1\nOutput:\n")
    c.said("now the header")
    record = _read(c.write(tmp_path / "r.jsonl")).record
    assert record["prompt"] == "now the header"
    assert record["tools"] == []
    from edgar_min.adapters.codex import read_turns

    first = next(read_turns(str(tmp_path / "r.jsonl"), tool_table(())))
    assert first.record["prompt"] == "<div> is not centred, fix the css"
    assert first.record["errors"][0]["program"] == "npm"


def test_a_log_with_both_kinds_of_event_gives_one_turn_per_message(tmp_path):
    c = Codex().typed("one prompt")  # response item and `user_message` event
    item = {"type": "UserMessage", "content": [{"type": "text", "text": "one prompt"}]}
    c.add("event_msg", {"type": "item_completed", "item": item})
    c.call("c1", "exec_command", {"cmd": "ls"}).output("c1", "Process exited with code 0")
    from edgar_min.adapters.codex import read_turns

    turns = list(read_turns(str(c.write(tmp_path / "r.jsonl")), tool_table(())))
    assert [t.record["prompt"] for t in turns] == ["one prompt"]
    assert turns[0].record["tools"] == ["shell"]


def test_without_events_only_the_parts_labelled_user_are_typed(tmp_path):
    c = Codex()
    c.labelled(("<environment_context><cwd>/p</cwd></environment_context>", "harness"))
    c.labelled(("<b>bold</b> is wrong here", "user"), ("<skill>\n<name>pdf</name>\n</skill>", "skills"))
    adapted = read_session(c.write(tmp_path / "r.jsonl"), tool_table(()), {"pdf"})
    assert adapted.record["prompt"] == "<b>bold</b> is wrong here"
    assert adapted.record["skills"] == ["pdf"]


def test_the_piped_file_is_dropped_only_where_codex_put_it(tmp_path):
    from edgar_min.adapters.codex import typed_text

    assert typed_text("summarize\n\n<stdin>\nline one\n</stdin>") == "summarize"
    assert typed_text("explain <stdin> in this code") == "explain <stdin> in this code"
    assert typed_text("a\n\n<stdin>\nx\n</stdin> and more") == "a\n\n<stdin>\nx\n</stdin> and more"


def test_an_mcp_tool_named_like_codexs_own_is_the_servers_and_reads_no_skill(tmp_path):
    c = Codex().said("look it up")
    path = "/home/dev/project/.agents/skills/pdf/SKILL.md"
    c.add(
        "response_item",
        {
            "type": "function_call",
            "namespace": "mcp__docs",
            "name": "read_file",
            "arguments": json.dumps({"path": path}),
            "call_id": "m1",
        },
    )
    c.add("response_item", {"type": "function_call_output", "call_id": "m1", "output": "page"})
    c.call("m2", "mcp__rubymine__build_project", {})  # the older form of the same name
    record = read_session(c.write(tmp_path / "r.jsonl"), tool_table(()), {"pdf"}).record
    assert record["tools"] == ["mcp.docs.read_file", "mcp.rubymine.build_project"]
    assert record["skills"] == []


def test_a_failed_patch_is_an_edit_error_and_a_poll_finds_its_command_once(tmp_path):
    c = Codex().said("fix it")
    c.add(
        "response_item",
        {"type": "custom_tool_call", "name": "apply_patch", "call_id": "p1", "input": "*** Begin Patch"},
    )
    c.add(
        "response_item",
        {
            "type": "custom_tool_call_output",
            "call_id": "p1",
            "output": "apply_patch verification failed: Failed to find expected lines in a.py",
        },
    )
    c.call("b1", "exec_command", {"cmd": "cd web && npm run build", "yield_time_ms": 250})
    c.output("b1", "Chunk ID: a\nWall time: 0.25 seconds\nProcess running with session ID 4242\nOutput:\n")
    c.call("w1", "write_stdin", {"session_id": 4242, "chars": ""}).output(
        "w1", "Process running with session ID 4242\n"
    )
    c.call("w2", "write_stdin", {"session_id": 4242, "chars": ""}).output(
        "w2", "Process exited with code 2\nOutput:\n"
    )
    # An older Codex also states the command's end under the command's own call id: one error.
    c.add("event_msg", {"type": "exec_command_end", "call_id": "b1", "exit_code": 2})
    record = _read(c.write(tmp_path / "r.jsonl")).record
    assert record["errors"] == [
        {"tool": "edit", "kind": "invalid_input", "exit_code": None, "program": ""},
        {"tool": "shell", "kind": "nonzero_exit", "exit_code": 2, "program": "npm"},
    ]


def test_the_shell_commands_since_the_last_edit_of_a_real_rollout():
    first, second = read_turns(str(REAL_171), tool_table(()))
    # After its patches, the turn read a skill and ran a command that exited 3 (its failure).
    assert first.runs == (
        ("sed -n '1,200p' .agents/skills/release-notes/SKILL.md", 0),
        ("sleep 1; exit 3", 3),
    )
    assert second.runs == (("cat ~/.codex/skills/deploy-check/SKILL.md", 0),)
