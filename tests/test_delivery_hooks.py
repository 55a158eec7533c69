"""The Claude Code hooks: what reaches the agent, what is recorded, and that no hook ever fails or hangs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from suggestfiles import write_skills
from transcripts import SESSION, Claude, config_toml, stdin_bytes

from edgar_min.delivery import hooks
from edgar_min.delivery.hooks import EVENTS
from edgar_min.errors import BadInput

PROMPT = "the ci checks on my pull request are failing, figure out why and fix it"


@pytest.fixture
def project(tmp_path):
    write_skills(tmp_path / ".claude" / "skills")
    return tmp_path


def prompt_hook(edgar, monkeypatch, root, prompt=PROMPT, session=SESSION, **extra):
    payload = {
        "session_id": session,
        "transcript_path": str(root / "t.jsonl"),
        "cwd": str(root),
        "permission_mode": "default",
        "hook_event_name": "UserPromptSubmit",
        "prompt": prompt,
        **extra,
    }
    stdin_bytes(monkeypatch, json.dumps(payload).encode())
    return edgar("--root", str(root), "hook", "user-prompt-submit")


def problems(root):
    path = root / ".edgar" / "hook-problems.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_the_prompt_hook_hands_the_chosen_skill_to_the_agent(project, edgar, monkeypatch):
    result = prompt_hook(edgar, monkeypatch, project)
    assert result.code == 0, result
    doc = json.loads(result.out)
    assert doc["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    context = doc["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("edgar (this project's skill memory) suggests")
    assert "not the user's words" in context
    assert "## Skill `gh-fix-ci`" in context
    assert str(project / ".claude" / "skills" / "gh-fix-ci" / "SKILL.md") in context
    assert "Do the work for gh-fix-ci." in context  # the body itself
    assert len(context) <= 8000
    assert problems(project) == []


def test_nothing_chosen_prints_nothing_and_records_an_empty_line(project, edgar, monkeypatch):
    result = prompt_hook(edgar, monkeypatch, project, prompt="thanks, that worked!")
    assert result.code == 0
    assert result.out == ""
    lines = (project / ".edgar" / "suggestions" / f"{SESSION}.jsonl").read_text().splitlines()
    assert json.loads(lines[-1])["skills"] == []


def test_the_context_stays_within_the_budget(project, edgar, monkeypatch):
    body = project / ".claude" / "skills" / "gh-fix-ci" / "SKILL.md"
    body.write_text(body.read_text() + ("Check the failing job's log line by line. " * 2000))
    config_toml(project, "[suggest]\nbudget_chars = 1500\n")
    result = prompt_hook(edgar, monkeypatch, project)
    context = json.loads(result.out)["hookSpecificOutput"]["additionalContext"]
    assert len(context) <= 1500
    assert f"the whole skill is at {body}" in context


@pytest.mark.parametrize(
    ("payload", "sentence"),
    [
        (b"not json", "the hook payload on stdin is not JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b'{"session_id": "s"}', "the hook payload has no prompt"),
        (b'{"prompt": 42}', "the hook payload has no prompt"),
        (b"[" * 100_000, "not JSON"),
    ],
)
def test_a_bad_prompt_payload_prints_nothing_exits_0_and_is_logged(
    project, edgar, monkeypatch, payload, sentence
):
    stdin_bytes(monkeypatch, payload)
    result = edgar("--root", str(project), "hook", "user-prompt-submit")
    assert result.code == 0
    assert result.out == ""  # what this hook prints reaches the model
    assert sentence in result.err
    logged = problems(project)
    assert len(logged) == 1
    assert sentence in logged[0]["problem"]
    assert logged[0]["hook"] == "UserPromptSubmit"


def test_an_empty_or_huge_prompt_is_no_problem(project, edgar, monkeypatch):
    assert prompt_hook(edgar, monkeypatch, project, prompt="").out == ""
    huge = prompt_hook(edgar, monkeypatch, project, prompt="merge these pdfs " + "x" * 5_000_000)
    assert huge.code == 0
    assert "skill `pdf`" in json.loads(huge.out)["hookSpecificOutput"]["additionalContext"].lower()


def test_a_cwd_outside_the_root_is_logged_and_the_roots_skills_are_used(
    project, edgar, monkeypatch, tmp_path_factory
):
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    result = prompt_hook(edgar, monkeypatch, project, cwd=str(elsewhere))
    assert "gh-fix-ci" in result.out
    assert "is not inside the project root" in problems(project)[0]["problem"]


def test_a_broken_skill_file_never_breaks_the_hook(project, edgar, monkeypatch):
    bad = project / ".claude" / "skills" / "bad" / "SKILL.md"
    bad.parent.mkdir()
    bad.write_bytes(b"---\nname: bad\ndescription: \xff\xfe\n---\n")
    result = prompt_hook(edgar, monkeypatch, project)
    assert result.code == 0
    assert "gh-fix-ci" in result.out
    assert any("bad/SKILL.md" in p["problem"] for p in problems(project))


def test_no_skills_prints_nothing(tmp_path, edgar, monkeypatch):
    assert prompt_hook(edgar, monkeypatch, tmp_path).out == ""
    stdin_bytes(monkeypatch, b'{"session_id": "s", "source": "startup"}')
    assert edgar("--root", str(tmp_path), "hook", "session-start").out == ""


def test_the_session_hook_prints_the_budgeted_index(project, edgar, monkeypatch):
    stdin_bytes(
        monkeypatch, json.dumps({"session_id": SESSION, "source": "startup", "cwd": str(project)}).encode()
    )
    result = edgar("--root", str(project), "hook", "session-start")
    assert result.code == 0, result
    doc = json.loads(result.out)
    assert doc["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    context = doc["hookSpecificOutput"]["additionalContext"]
    assert "- slack-gif-creator: Knowledge and utilities" in context
    assert context.endswith("(all 9 skills listed in full)")
    assert len(context) <= 4000


def test_a_broken_config_is_a_logged_problem_not_a_failure(project, edgar, monkeypatch):
    config_toml(project, "[suggest\n")
    result = prompt_hook(edgar, monkeypatch, project)
    assert result.code == 0
    assert result.out == ""
    assert "not valid TOML" in problems(project)[0]["problem"]


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_the_stop_hook_given_dev_zero_as_its_transcript_names_it_and_finishes(project, edgar, monkeypatch):
    config_toml(project, "[adapters]\nhook_timeout_s = 1.0\n")
    stdin_bytes(monkeypatch, json.dumps({"session_id": SESSION, "transcript_path": "/dev/zero"}).encode())
    start = time.monotonic()
    result = edgar("--root", str(project), "hook", "stop")
    elapsed = time.monotonic() - start
    assert result.code == 0
    assert elapsed < 10
    said = "/dev/zero: is a device, not a log file; nothing was read"
    assert said in result.out
    assert problems(project)[0]["problem"] == said


def test_the_old_stop_hook_name_runs_the_same_hook(project, edgar, monkeypatch):
    stdin_bytes(monkeypatch, json.dumps({"transcript_path": "/dev/zero"}).encode())
    result = edgar("--root", str(project), "learn", "--from", "claude-code", "--hook")
    assert result.code == 0
    assert "/dev/zero: is a device, not a log file" in result.out


def failing_turn(root):
    """A Claude Code transcript whose last turn ran the tests, which failed, and stopped there."""
    t = Claude().user(PROMPT)
    t.tool("t1", "Bash", {"command": "gh pr checks"}).result("t1", "Exit code 1\nX lint", is_error=True)
    t.tool("t2", "Bash", {"command": "pytest -q"}).result("t2", "Exit code 1\n2 failed", is_error=True)
    t.assistant({"type": "text", "text": "The checks still fail."})
    return t.write(root / "t.jsonl")


def test_the_whole_loop_suggest_then_a_failing_turn_then_history_then_stats(project, edgar, monkeypatch):
    # 1. At prompt time, edgar hands the agent gh-fix-ci and records it for the session.
    assert "gh-fix-ci" in prompt_hook(edgar, monkeypatch, project).out
    # 2. The turn ends badly; the Stop hook computes the turn and lists the suggested skill.
    transcript = failing_turn(project)
    stdin_bytes(
        monkeypatch,
        json.dumps(
            {"session_id": SESSION, "transcript_path": str(transcript), "hook_event_name": "Stop"}
        ).encode(),
    )
    stop = edgar("--root", str(project), "--json", "hook", "stop")
    assert stop.code == 0, stop
    assert stop.json()["skills"] == ["gh-fix-ci"]
    # 3. The bad turn left a history line for that skill.
    history = project / ".edgar" / "skills" / "learned" / ".history" / "gh-fix-ci.md"
    assert "shell nonzero_exit exit 1 (gh)" in history.read_text()
    assert edgar("--root", str(project), "skills", "history", "gh-fix-ci").out.startswith("- ")
    # 4. The evidence counts the turn that loaded it.
    stats = edgar("--root", str(project), "--json", "skills", "stats", "gh-fix-ci").json()
    assert stats["loaded"] == 1


def test_a_later_prompt_with_no_suggestion_is_not_blamed_on_an_earlier_skill(project, edgar, monkeypatch):
    prompt_hook(edgar, monkeypatch, project)
    prompt_hook(edgar, monkeypatch, project, prompt="thanks, that worked!")
    stdin_bytes(
        monkeypatch,
        json.dumps({"session_id": SESSION, "transcript_path": str(failing_turn(project))}).encode(),
    )
    stop = edgar("--root", str(project), "--json", "hook", "stop")
    assert stop.json()["skills"] == []
    assert not (project / ".edgar" / "skills" / "learned" / ".history" / "gh-fix-ci.md").exists()


def test_a_skill_edgar_is_less_sure_of_is_named_not_handed_over_blamed_or_taught(project, edgar, monkeypatch):
    config_toml(project, "[suggest]\nbody_probability = 1.0\n")  # every pick is below it
    context = context_of(prompt_hook(edgar, monkeypatch, project))
    assert "## Perhaps: skill `gh-fix-ci`" in context
    assert str(project / ".claude" / "skills" / "gh-fix-ci" / "SKILL.md") in context
    assert "Do the work for gh-fix-ci." not in context  # no body
    assert "read it only if it fits" in context
    line = (project / ".edgar" / "suggestions" / f"{SESSION}.jsonl").read_text().splitlines()[-1]
    assert (json.loads(line)["skills"], json.loads(line)["named"]) == ([], ["gh-fix-ci"])
    # The turn ends badly without the agent reading it: the skill is not blamed.
    stop = stop_hook(edgar, monkeypatch, project, failing_turn(project))
    assert stop.json()["skills"] == []
    assert not (project / ".edgar" / "skills" / "learned" / ".history" / "gh-fix-ci.md").exists()
    # The agent loads it after edgar named it: a load, but edgar's, so no example.
    prompt_hook(edgar, monkeypatch, project)
    t = Claude().user(PROMPT).skill("s1", "gh-fix-ci")
    t.tool("b1", "Bash", {"command": "gh pr checks"}).result("b1", "all green")
    stop = stop_hook(edgar, monkeypatch, project, t.write(project / "t2.jsonl"))
    assert stop.json()["skills"] == ["gh-fix-ci"]
    assert stop.json()["examples"] == []
    assert kept_examples(project) == []


def test_a_named_skill_the_agent_reads_is_loaded_and_blamed_but_teaches_nothing(project, edgar, monkeypatch):
    config_toml(project, "[suggest]\nbody_probability = 1.0\n")
    assert "Perhaps: skill `gh-fix-ci`" in context_of(prompt_hook(edgar, monkeypatch, project))
    t = Claude().user(PROMPT)
    path = str(project / ".claude" / "skills" / "gh-fix-ci" / "SKILL.md")
    t.tool("r1", "Read", {"file_path": path}).result("r1", "---\nname: gh-fix-ci\n---\n")
    t.tool("t1", "Bash", {"command": "gh pr checks"}).result("t1", "Exit code 1\nX lint", is_error=True)
    stop = stop_hook(edgar, monkeypatch, project, t.write(project / "t.jsonl"))
    assert stop.json()["skills"] == ["gh-fix-ci"]
    assert stop.json()["examples"] == []
    history = project / ".edgar" / "skills" / "learned" / ".history" / "gh-fix-ci.md"
    assert "shell nonzero_exit exit 1 (gh)" in history.read_text()


def test_every_hook_name_is_claude_codes_event():
    assert EVENTS == {
        "session-start": "SessionStart",
        "user-prompt-submit": "UserPromptSubmit",
        "stop": "Stop",
    }


def test_the_bound_holds_off_the_main_thread_too():
    import threading

    from edgar_min.delivery.hooks import HookTimeout, bounded

    seen = []

    def outside():
        start = time.monotonic()
        try:
            bounded(lambda _clock: time.sleep(5), 0.2)
        except HookTimeout as exc:
            seen.append((time.monotonic() - start, exc.message))

    worker = threading.Thread(target=outside)
    worker.start()
    worker.join(10)
    ((elapsed, message),) = seen
    assert elapsed < 2
    assert "ran out of time (0.2 s" in message
    assert bounded(lambda _clock: 42, 1.0) == 42


def test_an_unreachable_model_server_is_a_logged_problem_and_the_prompt_goes_on(project, edgar, monkeypatch):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    config_toml(
        project, f'[semif]\nengine = "openai"\nbase_url = "http://127.0.0.1:{port}/v1"\ntimeout_s = 2\n'
    )
    result = prompt_hook(edgar, monkeypatch, project)
    assert result.code == 0
    assert result.out == ""
    assert "semif engine openai" in problems(project)[0]["problem"]


def test_a_lone_surrogate_in_the_prompt_is_no_problem(project, edgar, monkeypatch):
    stdin_bytes(monkeypatch, b'{"session_id": "s-1", "prompt": "merge these two pdfs \\ud800 into one"}')
    result = edgar("--root", str(project), "hook", "user-prompt-submit")
    assert result.code == 0
    assert "## Skill `pdf`" in json.loads(result.out)["hookSpecificOutput"]["additionalContext"]
    assert problems(project) == []


FIXTURES = Path(__file__).resolve().parent / "fixtures" / "hooks"


@pytest.mark.parametrize(
    ("event", "payload"),
    [("user-prompt-submit", "user-prompt-submit.json"), ("session-start", "session-start.json")],
)
def test_the_reference_payloads_are_read_as_documented(project, edgar, monkeypatch, event, payload):
    doc = json.loads((FIXTURES / payload).read_text())
    doc["cwd"] = str(project)
    if event == "user-prompt-submit":
        doc["prompt"] = "merge these two pdf files into one"
    stdin_bytes(monkeypatch, json.dumps(doc).encode())
    result = edgar("--root", str(project), "hook", event)
    assert result.code == 0, result
    out = json.loads(result.out)["hookSpecificOutput"]
    assert out["hookEventName"] == doc["hook_event_name"]
    assert out["additionalContext"]
    assert problems(project) == []


def test_the_reference_prompt_itself_needs_no_skill_here(project, edgar, monkeypatch):
    doc = json.loads((FIXTURES / "user-prompt-submit.json").read_text())
    doc["cwd"] = str(project)
    stdin_bytes(monkeypatch, json.dumps(doc).encode())
    result = edgar("--root", str(project), "hook", "user-prompt-submit")
    assert result.code == 0
    assert result.out == ""  # writing a factorial function needs none of these skills


def test_the_reference_stop_payload_learns_from_the_transcript_it_names(project, edgar, monkeypatch):
    doc = json.loads((FIXTURES / "stop.json").read_text())
    doc["transcript_path"] = str(failing_turn(project))
    doc["cwd"] = str(project)
    stdin_bytes(monkeypatch, json.dumps(doc).encode())
    result = edgar("--root", str(project), "--json", "hook", "stop")
    assert result.code == 0, result
    assert result.json()["session"] == "abc123"


def test_a_linked_history_folder_keeps_the_turn_and_logs_the_lost_observation(
    project, edgar, monkeypatch, tmp_path_factory
):
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    learned = project / ".edgar" / "skills" / "learned"
    learned.mkdir(parents=True)
    (learned / ".history").symlink_to(elsewhere, target_is_directory=True)
    prompt_hook(edgar, monkeypatch, project)
    payload = {
        "session_id": SESSION,
        "transcript_path": str(failing_turn(project)),
        "hook_event_name": "Stop",
    }
    stdin_bytes(monkeypatch, json.dumps(payload).encode())
    stop = edgar("--root", str(project), "--json", "hook", "stop")
    assert stop.code == 0, stop
    assert stop.json()["skills"] == ["gh-fix-ci"]
    assert list(elsewhere.iterdir()) == []
    (problem,) = stop.json()["problems"]
    assert problem.startswith(
        "watching gh-fix-ci: refused: .edgar/skills/learned/.history is a symbolic link"
    )
    assert problem.endswith("this turn is not in its history")
    logged = [json.loads(line) for line in (project / ".edgar/hook-problems.jsonl").read_text().splitlines()]
    assert [row["problem"] for row in logged] == [problem]
    # The turn itself is stored.
    assert edgar("--root", str(project), "--json", "skills", "stats", "gh-fix-ci").json()["loaded"] == 1


def _pipe_stream(payload: bytes | None, *, later: bytes = b"", close: bool = True):
    """A real pipe's read end as stdin: `payload` written before reading, `later` after 0.2 s."""
    read_end, write_end = os.pipe()
    if payload:
        os.write(write_end, payload)

    def finish() -> None:
        time.sleep(0.2)
        if later:
            os.write(write_end, later)
        if close:
            os.close(write_end)

    threading.Thread(target=finish, daemon=True).start()
    return os.fdopen(read_end, "rb")


def test_a_payload_in_a_pipe_is_read_whole_written_at_once_or_in_parts(monkeypatch):
    document = {"session_id": "s-1", "prompt": "merge these pdfs"}
    text = json.dumps(document).encode()
    with _pipe_stream(text) as stream:
        assert hooks.read_payload(stream) == document
    with _pipe_stream(text[:10], later=text[10:]) as stream:  # the harness still writing
        assert hooks.read_payload(stream) == document
    with _pipe_stream(None, later=text) as stream:  # not a byte yet when the hook starts
        assert hooks.read_payload(stream) == document


def test_a_payload_that_never_arrives_or_never_ends_is_a_sentence(monkeypatch):
    monkeypatch.setattr(hooks, "PAYLOAD_WAIT_S", 0.5)
    for stream in (_pipe_stream(None, close=False), _pipe_stream(b'{"session_id": ', close=False)):
        started = time.monotonic()
        with stream, pytest.raises(BadInput, match=r"no hook payload arrived on stdin within 0\.5 s"):
            hooks.read_payload(stream)
        assert time.monotonic() - started < 5


def test_a_payload_over_the_cap_is_refused_without_reading_it_all(monkeypatch):
    monkeypatch.setattr(hooks, "MAX_PAYLOAD_BYTES", 1000)
    with _pipe_stream(b"x" * 5000, close=False) as stream, pytest.raises(BadInput, match="larger than 1000"):
        hooks.read_payload(stream)


# Routing learns from use: a prompt the agent loaded a skill for, itself, becomes an example of it.
TRANSCRIPTS = Path(__file__).resolve().parent / "fixtures" / "transcripts"
SKILL_TOOL = TRANSCRIPTS / "claude-code-2.1.39-skill-tool.jsonl"
REAL_SESSION = "ae4a77f8-aedd-4bc1-888f-c94edc91af04"
REAL_PROMPT = (
    "Work on bead spotter-4te. Run bd show spotter-4te to see the issue details and bd ready to find "
    "available subtasks. Start with the first ready task."
)
# The next prompt of the same kind, worded otherwise.
NEXT_PROMPT = "pick up bead spotter-9cc, bd show it and start on the first ready task"
# bradleygolden/claude-marketplace-elixir, plugins/core/skills/hex-docs-search/SKILL.md (MIT).
HEX_DOCS = (
    "---\nname: hex-docs-search\ndescription: Research Hex packages (Sobelow, Phoenix, Ecto, Credo, Ash, "
    "etc). Use when investigating packages, understanding integration patterns, or finding "
    "module/function docs and usage examples.\nallowed-tools: Read, Grep, Glob, Bash, WebSearch, "
    "AskUserQuestion\n---\n\n# Hex Documentation Search\n\nSearch Elixir package documentation. "
    "Prioritize local sources, fetch if needed.\n"
)
CLIP = "turn this clip of the cat into a looping reaction for the team chat"
CLIP_AGAIN = "make a looping reaction of the dog for the team chat"


@pytest.fixture
def elixir_project(project):
    folder = project / ".claude" / "skills" / "hex-docs-search"
    folder.mkdir()
    (folder / "SKILL.md").write_text(HEX_DOCS)
    return project


def stop_hook(edgar, monkeypatch, root, transcript, session=SESSION, **extra):
    payload = {"session_id": session, "transcript_path": str(transcript), "hook_event_name": "Stop", **extra}
    stdin_bytes(monkeypatch, json.dumps(payload).encode())
    return edgar("--root", str(root), "--json", "hook", "stop")


def context_of(result) -> str:
    return json.loads(result.out)["hookSpecificOutput"]["additionalContext"] if result.out else ""


def kept_examples(root) -> list[dict]:
    path = root / ".edgar" / "routing-examples.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_the_whole_loop_on_a_real_transcript_the_agents_own_skill_is_handed_over_next_time(
    elixir_project, edgar, monkeypatch
):
    root = elixir_project
    # 1. The person's prompt matches no skill: nothing is handed over.
    first = prompt_hook(edgar, monkeypatch, root, prompt=REAL_PROMPT, session=REAL_SESSION)
    assert first.code == 0, first
    assert first.out == ""
    assert prompt_hook(edgar, monkeypatch, root, prompt=NEXT_PROMPT, session=REAL_SESSION).out == ""
    # 2. The agent loaded hex-docs-search itself (the real transcript); the Stop hook keeps the prompt.
    stop = stop_hook(edgar, monkeypatch, root, SKILL_TOOL, session=REAL_SESSION)
    assert stop.code == 0, stop
    assert stop.json()["examples"] == ["hex-docs-search"]
    assert stop.json()["skills"] == ["hex-docs-search"]
    (row,) = kept_examples(root)
    assert (row["skill"], row["text"], row["source"]) == ("hex-docs-search", REAL_PROMPT, "agent")
    # 3. The next prompt of the same kind gets the skill handed over.
    after = prompt_hook(edgar, monkeypatch, root, prompt=NEXT_PROMPT, session=REAL_SESSION)
    assert after.code == 0, after
    assert "## Skill `hex-docs-search`" in context_of(after)
    assert "Search Elixir package documentation." in context_of(after)
    assert problems(root) == []


@pytest.mark.parametrize("older", [False, True])
def test_a_skill_loaded_with_either_form_of_the_skill_tool_teaches_routing(
    project, edgar, monkeypatch, older
):
    assert prompt_hook(edgar, monkeypatch, project, prompt=CLIP).out == ""
    t = Claude().user(CLIP).skill("s1", "slack-gif-creator", older=older)
    t.tool("b1", "Bash", {"command": "python make_gif.py"}).result("b1", "wrote cat.gif")
    stop = stop_hook(edgar, monkeypatch, project, t.write(project / "t.jsonl"))
    assert stop.json()["examples"] == ["slack-gif-creator"]
    assert "## Skill `slack-gif-creator`" in context_of(
        prompt_hook(edgar, monkeypatch, project, prompt=CLIP_AGAIN)
    )


def test_a_skill_edgar_suggested_for_the_prompt_is_no_example_even_when_the_agent_loaded_it(
    project, edgar, monkeypatch
):
    assert "gh-fix-ci" in prompt_hook(edgar, monkeypatch, project).out  # edgar handed it over
    t = Claude().user(PROMPT).skill("s1", "gh-fix-ci").skill("s2", "systematic-debugging")
    t.tool("b1", "Bash", {"command": "gh pr checks"}).result("b1", "all green")
    stop = stop_hook(edgar, monkeypatch, project, t.write(project / "t.jsonl"))
    assert stop.code == 0, stop
    assert stop.json()["examples"] == ["systematic-debugging"]  # the one the agent chose itself
    assert [row["skill"] for row in kept_examples(project)] == ["systematic-debugging"]
    # With only the suggested one loaded, nothing is kept at all.
    prompt_hook(edgar, monkeypatch, project)
    t = Claude().user(PROMPT).skill("s1", "gh-fix-ci")
    stop = stop_hook(edgar, monkeypatch, project, t.write(project / "t2.jsonl"))
    assert stop.json()["examples"] == []
    assert len(kept_examples(project)) == 1


def test_a_skill_the_person_runs_as_a_slash_command_is_not_handed_over_again_and_teaches(
    project, edgar, monkeypatch
):
    typed = "/gh-fix-ci the checks on my pull request are failing, fix them"
    result = prompt_hook(edgar, monkeypatch, project, prompt=typed)
    assert result.code == 0
    assert "gh-fix-ci" not in result.out  # Claude Code has put its body in the turn already
    lines = (project / ".edgar" / "suggestions" / f"{SESSION}.jsonl").read_text().splitlines()
    assert "gh-fix-ci" not in json.loads(lines[-1])["skills"]
    line = (
        "<command-message>gh-fix-ci</command-message>\n<command-name>/gh-fix-ci</command-name>\n"
        "<command-args>the checks on my pull request are failing, fix them</command-args>"
    )
    t = Claude().user(line)
    t.tool("b1", "Bash", {"command": "gh pr checks"}).result("b1", "all green")
    stop = stop_hook(edgar, monkeypatch, project, t.write(project / "t.jsonl"))
    assert stop.code == 0, stop
    assert stop.json()["examples"] == ["gh-fix-ci"]  # the person's own choice
    assert [row["text"] for row in kept_examples(project)] == [typed]


def test_a_subagents_turn_keeps_no_example(project, edgar, monkeypatch):
    main = Claude().user(CLIP).tool("t1", "Task", {"subagent_type": "gif-maker", "prompt": "model-written"})
    side = Claude(sidechain=True).user("model-written instructions").skill("s1", "slack-gif-creator")
    stop = stop_hook(
        edgar,
        monkeypatch,
        project,
        main.write(project / "main.jsonl"),
        agent_transcript_path=str(side.write(project / "agent-1.jsonl")),
        agent_type="gif-maker",
        hook_event_name="SubagentStop",
    )
    assert stop.code == 0, stop
    assert stop.json()["skills"] == ["slack-gif-creator"]  # the subagent's load is recorded...
    assert stop.json()["examples"] == []  # ...but its prompt was the model's, not a person's
    assert kept_examples(project) == []


def test_a_skill_not_discovered_is_no_example(project, edgar, monkeypatch):
    t = Claude().user(CLIP).skill("s1", "gif-wizard")
    stop = stop_hook(edgar, monkeypatch, project, t.write(project / "t.jsonl"))
    assert stop.json()["examples"] == []
    assert kept_examples(project) == []


def test_an_examples_file_that_cannot_be_written_is_logged_and_the_stop_hook_exits_0(
    project, edgar, monkeypatch
):
    (project / ".edgar" / "routing-examples.jsonl").mkdir(parents=True)
    t = Claude().user(CLIP).skill("s1", "slack-gif-creator")
    stop = stop_hook(edgar, monkeypatch, project, t.write(project / "t.jsonl"))
    assert stop.code == 0, stop
    assert stop.json()["examples"] == []
    assert stop.json()["skills"] == ["slack-gif-creator"]  # the turn itself is learned from as ever
    (problem,) = [p["problem"] for p in problems(project)]
    assert problem.startswith("the prompt was not kept as a routing example: ")
    assert problem in stop.json()["problems"]
    assert problems(project)[0]["hook"] == "Stop"


def test_learn_from_claude_code_keeps_the_example_and_lists_it(elixir_project, edgar):
    result = edgar("--root", str(elixir_project), "--json", "learn", "--from", "claude-code", str(SKILL_TOOL))
    assert result.code == 0, result
    doc = result.json()
    assert doc["examples"] == ["hex-docs-search"]
    assert doc["session"] == REAL_SESSION
    (row,) = kept_examples(elixir_project)
    assert (row["skill"], row["text"], row["source"]) == ("hex-docs-search", REAL_PROMPT, "agent")
    listed = edgar("--root", str(elixir_project), "skills", "examples", "hex-docs-search")
    assert listed.out.splitlines() == ["hex-docs-search: 1 example(s)", f"  {REAL_PROMPT}"]
    # --dry-run writes nothing, examples included.
    (elixir_project / ".edgar" / "routing-examples.jsonl").unlink()
    edgar("--root", str(elixir_project), "learn", "--from", "claude-code", str(SKILL_TOOL), "--dry-run")
    assert kept_examples(elixir_project) == []


def test_learn_from_claude_code_keeps_no_example_of_what_edgar_suggested_in_that_session(
    project, edgar, monkeypatch
):
    prompt_hook(edgar, monkeypatch, project)  # gh-fix-ci handed over in SESSION
    t = Claude().user(PROMPT).skill("s1", "gh-fix-ci")
    result = edgar(
        "--root", str(project), "--json", "learn", "--from", "claude-code", str(t.write(project / "t.jsonl"))
    )
    assert result.code == 0, result
    assert result.json()["examples"] == []
    assert kept_examples(project) == []


@pytest.fixture(scope="module")
def pyz(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist") / "edgar.pyz"
    repo = Path(__file__).resolve().parents[1]
    build = [sys.executable, str(repo / "build_zipapp.py"), "-o", str(out)]
    subprocess.run(build, check=True, capture_output=True)
    return out


def test_the_built_pyz_runs_the_whole_loop_through_the_hooks(pyz, elixir_project):
    root = elixir_project

    def hook(event: str, payload: dict) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, str(pyz), "--root", str(root), "hook", event],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    def prompt(text: str) -> subprocess.CompletedProcess:
        payload = {"session_id": REAL_SESSION, "prompt": text, "cwd": str(root)}
        return hook("user-prompt-submit", {**payload, "hook_event_name": "UserPromptSubmit"})

    assert prompt(REAL_PROMPT).stdout == ""
    stop = hook("stop", {"session_id": REAL_SESSION, "transcript_path": str(SKILL_TOOL)})
    assert stop.returncode == 0, stop.stderr
    assert kept_examples(root)[0]["skill"] == "hex-docs-search"
    after = prompt(NEXT_PROMPT)
    assert after.returncode == 0, after.stderr
    assert "## Skill `hex-docs-search`" in json.loads(after.stdout)["hookSpecificOutput"]["additionalContext"]
    listed = subprocess.run(
        [sys.executable, str(pyz), "--root", str(root), "--json", "skills", "examples"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(listed.stdout)["examples"] == [
        {"skill": "hex-docs-search", "discovered": True, "texts": [REAL_PROMPT]}
    ]
    assert problems(root) == []


def test_a_secret_in_the_prompt_never_reaches_the_examples_file(project, edgar, monkeypatch):
    token = "glpat-AbCdEfGhIjKlMnOpQrSt12"  # noqa: S105 - a made-up token in gitleaks' shape
    t = Claude().user(f"{CLIP}, the upload token is {token}").skill("s1", "slack-gif-creator")
    stop = stop_hook(edgar, monkeypatch, project, t.write(project / "t.jsonl"))
    assert stop.json()["examples"] == ["slack-gif-creator"]
    kept = (project / ".edgar" / "routing-examples.jsonl").read_text()
    assert token not in kept
    assert "[REDACTED]" in kept


def test_learn_from_use_off_keeps_no_example_from_the_hook_or_from_learn(project, edgar, monkeypatch):
    config_toml(project, "[suggest]\nlearn_from_use = false\n")
    t = Claude().user(CLIP).skill("s1", "slack-gif-creator")
    stop = stop_hook(edgar, monkeypatch, project, t.write(project / "t.jsonl"))
    assert stop.code == 0, stop
    assert stop.json()["examples"] == []
    assert stop.json()["skills"] == ["slack-gif-creator"]  # the turn is still learned from
    learned = edgar(
        "--root", str(project), "--json", "learn", "--from", "claude-code", str(project / "t.jsonl")
    )
    assert learned.code == 0, learned
    assert kept_examples(project) == []
    # A person can still teach.
    assert edgar("--root", str(project), "skills", "teach", "slack-gif-creator", CLIP).code == 0
    assert [row["source"] for row in kept_examples(project)] == ["person"]


# Codex and Gemini CLI run the same hooks: the Stop hook reads the log the payload names by its
# shape, and answers in the JSON they read from a Stop hook.

CODEX_SESSION = "01a2353d-3439-7192-a058-0ed27c9e6047"


def codex_failing_turn(root, session=CODEX_SESSION):
    """A Codex 0.171 rollout whose last turn ran the checks, which failed."""
    from transcripts import Codex

    c = Codex(session=session).said(PROMPT)
    c.call("c1", "exec_command", {"cmd": "gh pr checks"}).output(
        "c1", "Process exited with code 1\nOutput:\nX"
    )
    return c.write(root / "rollout.jsonl")


def codex_stop(edgar, monkeypatch, root, rollout, *flags, session=CODEX_SESSION):
    payload = {
        "session_id": session,
        "turn_id": "01a2353d-0000-7000-8000-000000000001",
        "transcript_path": str(rollout),
        "cwd": str(root),
        "hook_event_name": "Stop",
        "model": "gpt-5.5",
        "permission_mode": "bypassPermissions",
        "stop_hook_active": False,
        "last_assistant_message": "The checks still fail.",
    }
    stdin_bytes(monkeypatch, json.dumps(payload).encode())
    return edgar("--root", str(root), *flags, "hook", "stop")


def test_codexs_stop_hook_learns_from_its_rollout_with_the_skill_handed_over(project, edgar, monkeypatch):
    assert "gh-fix-ci" in prompt_hook(edgar, monkeypatch, project, session=CODEX_SESSION).out
    rollout = codex_failing_turn(project)
    stop = codex_stop(edgar, monkeypatch, project, rollout)
    assert stop.code == 0, stop
    assert json.loads(stop.out) == {"continue": True}  # what Codex reads from a Stop hook; never a block
    assert problems(project) == []
    history = project / ".edgar" / "skills" / "learned" / ".history" / "gh-fix-ci.md"
    assert "shell nonzero_exit exit 1 (gh)" in history.read_text()
    stats = edgar("--root", str(project), "--json", "skills", "stats", "gh-fix-ci").json()
    assert stats["loaded"] == 1


def test_codexs_stop_hook_says_a_problem_in_its_json_and_exits_0(project, edgar, monkeypatch):
    stop = codex_stop(edgar, monkeypatch, project, project / "gone.jsonl")
    assert stop.code == 0
    answer = json.loads(stop.out)
    assert answer["continue"] is True
    assert "gone.jsonl: no such file" in answer["systemMessage"]
    assert "decision" not in answer
    assert "no such file" in problems(project)[0]["problem"]


def test_geminis_after_agent_hook_learns_from_its_session_log(project, edgar, monkeypatch):
    from transcripts import Gemini

    g = (
        Gemini()
        .user(PROMPT)
        .call("run_shell_command", {"command": "gh pr checks"}, {"output": "Exit Code: 1"})
    )
    log = g.write(project / "session.jsonl")
    payload = {
        "session_id": "2557d357-ddc6-4c9f-b484-710d4cd97380",
        "transcript_path": str(log),
        "cwd": str(project),
        "hook_event_name": "AfterAgent",
        "timestamp": "2026-12-02T05:31:06.000Z",
        "prompt": PROMPT,
        "prompt_response": "The checks still fail.",
        "stop_hook_active": False,
    }
    stdin_bytes(monkeypatch, json.dumps(payload).encode())
    stop = edgar("--root", str(project), "hook", "stop")
    assert stop.code == 0, stop
    assert json.loads(stop.out) == {"continue": True}
    stdin_bytes(monkeypatch, json.dumps(payload).encode())
    document = edgar("--root", str(project), "--json", "hook", "stop").json()
    assert document["session"] == "2557d357-ddc6-4c9f-b484-710d4cd97380"
    assert document["outcome"] == "none"


def test_geminis_before_agent_hook_is_answered_under_its_own_name(project, edgar, monkeypatch):
    result = prompt_hook(edgar, monkeypatch, project, hook_event_name="BeforeAgent")
    assert json.loads(result.out)["hookSpecificOutput"]["hookEventName"] == "BeforeAgent"
    assert "gh-fix-ci" in context_of(result)
