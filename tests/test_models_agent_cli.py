"""The person's own Claude Code as the model that writes skills (models/agent_cli.py).

The real Claude Code CLI runs headless against a scripted Messages API server, the only test
double: what the request carries (the outline and the brief, nothing of the transcript, no
tool that reaches a file), what is written from the answer, and what happens when the agent
is missing or fails.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest
from messages_server import MessagesServer, claude_binary, claude_env, run_claude

from edgar_min.config import Config, ModelConfig, load_config
from edgar_min.controller.gate import Gate
from edgar_min.layout import Layout
from edgar_min.learning.drafts import BRIEF, BRIEF_JSON
from edgar_min.learning.turn import parse_turn
from edgar_min.models import get_provider
from edgar_min.records import replace

REPO = Path(__file__).resolve().parent.parent
CLAUDE = claude_binary()
needs_claude = pytest.mark.skipif(CLAUDE is None, reason="the Claude Code CLI is not installed here")
SECRET = "sk-edgar-planted-7c1f9e2d4b"  # noqa: S105 - a planted value, not a credential; in a tool's output only: it must never reach the writer
PROMPT = "make the greeting script pass its check"
FAILING = "python3 -c \"print('token " + SECRET + "'); raise SystemExit(1)\""
# What the scripted model answers the writer with: a skill that passes the writer's walls.
SKILL = {
    "name": "greeting-script-repair",
    "description": "Repair a small script whose run exits nonzero, then confirm the project check passes.",
    "when_to_use": "Use this when a small script exits with a nonzero status and its check must pass.",
    "procedure": "1. Run the script and read what it prints.\n2. Fix the cause in the script.\n"
    "3. Run it again until it exits cleanly.",
    "pitfalls": "A python3 run that exits with status 1 means the script stopped on purpose or failed; "
    "read its output before editing anything.",
    "verification": "Run the declared python3 check and confirm it exits with status 0.",
}


def is_writer(body: dict) -> bool:
    """Whether a request is the skill writer's: its system prompt is the brief."""
    return "You write one reusable skill" in json.dumps(body.get("system"))


class WriterServer(MessagesServer):
    """The session's replies in order; the writer's request is answered with SKILL, in the way
    Claude Code asks for it (its StructuredOutput tool when it offers one, else text)."""

    def answer(self, body):
        if not is_writer(body):
            return super().answer(body)
        with self._lock:
            self.requests.append(body)
            self.writer_at = time.time()
        if any(t.get("name") == "StructuredOutput" for t in body.get("tools", [])):
            return [{"type": "tool_use", "id": "toolu_w", "name": "StructuredOutput", "input": SKILL}]
        sections = "\n\n".join(
            f"## {title}\n\n{SKILL[key]}"
            for title, key in (
                ("When to use", "when_to_use"),
                ("Procedure", "procedure"),
                ("Pitfalls", "pitfalls"),
                ("Verification", "verification"),
            )
        )
        return [
            {
                "type": "text",
                "text": f"name: {SKILL['name']}\ndescription: {SKILL['description']}\n\n{sections}",
            }
        ]


def bash(tool_id, command):
    return [{"type": "tool_use", "id": tool_id, "name": "Bash", "input": {"command": command}}]


def wait_for(predicate, seconds=150.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(0.25)
    return None


def person_config(text: str) -> None:
    path = Path(os.environ["EDGAR_HOME"]) / "config.toml"
    path.write_text(text)


@needs_claude
def test_real_claude_code_writes_the_skill_from_the_outline_alone_after_the_hook_answered(
    tmp_path, pyz, monkeypatch
):
    root, home = tmp_path / "project", tmp_path / "home"
    root.mkdir()
    home.mkdir()
    monkeypatch.setenv("PATH", f"{Path(CLAUDE).parent}{os.pathsep}{os.environ['PATH']}")
    # The person's own config: a check that passes, run after the Stop hook answered, so a recovered
    # turn fires.
    person_config('[check]\ncommand = ["python3", "-c", "pass"]\n[adapters]\nhook_check = true\n')
    done = subprocess.run(
        [sys.executable, str(pyz), "--root", str(root), "install", "claude-code"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "skills: written by claude-code headless" in done.stdout
    assert "--offline-writer" in done.stdout  # how to undo it
    script = [
        bash("t1", FAILING),
        bash("t2", "python3 -c \"print('hello')\""),
        [{"type": "text", "text": "Fixed."}],
    ]
    with WriterServer(script) as server:
        ran = run_claude(PROMPT, cwd=root, home=home, server=server, debug_file=tmp_path / "debug.log")
        assert ran.returncode == 0, ran.stderr
        proposal = root / ".edgar" / "proposals" / SKILL["name"] / "SKILL.md"
        assert wait_for(proposal.is_file), (
            (root / ".edgar" / "rejections.jsonl").read_text()
            if (root / ".edgar" / "rejections.jsonl").exists()
            else "no proposal and no rejection"
        )
    session = [r for r in server.requests if not is_writer(r)]
    (writer,) = [r for r in server.requests if is_writer(r)]
    # The secret was in the turn (the agent's model saw the tool's output), and never reached the writer.
    assert SECRET in json.dumps(session)
    sent = json.dumps(writer)
    assert SECRET not in sent
    assert "what was asked: " + PROMPT in sent
    # One message: Claude Code's date line, then the outline, and nothing of the transcript.
    (message,) = writer["messages"]
    outline = message["content"][-1]["text"]
    assert outline.startswith("what tripped: recovered\nwhat was asked: " + PROMPT + "\n")
    assert "failures the harness recorded: shell nonzero_exit exit 1 (python3)\n" in outline
    assert "Fixed." not in sent
    assert "hello" not in sent
    # No tool that reaches a file or a shell: only the one that holds the reply to the schema.
    assert [t["name"] for t in writer.get("tools", [])] == ["StructuredOutput"]
    assert writer["tools"][0]["input_schema"]["required"][0] == "name"
    # The Stop hook answered before the writer was asked: the person did not wait for it.
    log = (tmp_path / "debug.log").read_text()
    # It left to the background either the whole turn (not yet in the log when the hook ran), the
    # writer (the verdict read from the log) or the check, after which the writer runs in that
    # same process.
    (line,) = [line for line in log.splitlines() if "Hook Stop (Stop) success:" in line]
    left = (
        "learned once the agent has written it",
        "runs in the background",
        "claude-code writes in the background",
    )
    assert any(sentence in line for sentence in left), line
    answered = datetime.fromisoformat(line.split(" ", 1)[0]).timestamp()
    assert server.writer_at > answered
    text = proposal.read_text()
    assert SKILL["pitfalls"] in text
    assert SECRET not in text


@needs_claude
def test_asked_in_text_the_request_offers_no_tool_at_all(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    with WriterServer() as server:
        env = claude_env(home, server.base_url)
        provider = get_provider(ModelConfig(provider="claude-code", command=(CLAUDE,), timeout_s=120), env)
        reply = provider.complete(BRIEF, "what was asked: rename a module\n")
    (request,) = server.requests
    assert request.get("tools", []) == []
    assert request["messages"][-1]["content"][-1]["text"] == "what was asked: rename a module\n"
    assert reply.startswith(f"name: {SKILL['name']}")


@needs_claude
def test_held_to_the_schema_the_reply_is_the_object(tmp_path):
    from edgar_min.learning.drafts import skill_schema

    home = tmp_path / "home"
    home.mkdir()
    with WriterServer() as server:
        env = claude_env(home, server.base_url)
        provider = get_provider(ModelConfig(provider="claude-code", command=(CLAUDE,), timeout_s=120), env)
        reply = provider.complete_object(BRIEF_JSON, "what was asked: rename a module\n", skill_schema(1024))
    assert json.loads(reply) == SKILL


def turn_record(prompt):
    return parse_turn(
        {
            "prompt": prompt,
            "tools": ["shell", "edit", "shell"],
            "errors": [{"tool": "shell", "kind": "nonzero_exit", "exit_code": 1, "program": "pytest"}],
            "verification": "passed",
        },
        (),
    )


def fake_agent(tmp_path, body):
    """A program standing in for the agent's binary, for what the real one cannot be made to do."""
    path = tmp_path / "claude"
    path.write_text(f"#!{sys.executable}\n{body}")
    path.chmod(0o755)
    return str(path)


@pytest.mark.parametrize(
    ("program", "why"),
    [
        ("/nonexistent/claude", "was not found"),
        ("broken", "the agent ended with an error"),
    ],
)
def test_an_agent_that_is_missing_or_fails_is_a_logged_rejection_and_the_offline_writer_answers(
    tmp_path, program, why
):
    if program == "broken":
        program = fake_agent(
            tmp_path,
            "import json, sys\nif '--help' in sys.argv: print('--tools --json-schema'); sys.exit(0)\n"
            "print(json.dumps({'type': 'result', 'is_error': True, 'subtype': 'error_during_execution',"
            " 'errors': ['Invalid API key']})); sys.exit(1)\n",
        )
    root = tmp_path / "proj"
    root.mkdir()
    layout = Layout(str(root), os.environ["EDGAR_HOME"])
    config = replace(Config(), model=ModelConfig(provider="claude-code", command=(program,), timeout_s=30))
    outcome = Gate(layout, config).learn(turn_record("upgrade the test runner and fix what breaks"), "s-1")
    assert outcome.outcome == "proposed", outcome
    rows = [json.loads(line) for line in (root / ".edgar" / "rejections.jsonl").read_text().splitlines()]
    assert len(rows) == 1
    assert why in rows[0]["error"]
    assert rows[0]["error"].endswith("the offline writer wrote this one instead")


def test_the_agent_gets_its_own_variables_and_no_other_secret(tmp_path):
    seen = tmp_path / "env.json"
    program = fake_agent(
        tmp_path,
        "import json, os, sys\nif '--help' in sys.argv: print('--tools'); sys.exit(0)\n"
        f"open({str(seen)!r}, 'w').write(json.dumps({{'env': dict(os.environ), 'cwd': os.getcwd(), "
        "'argv': sys.argv, 'stdin': sys.stdin.read()}))\n"
        "doc = {'type': 'result', 'subtype': 'success', 'is_error': False, 'result': 'name: x'}\n"
        "print(json.dumps(doc))\n",
    )
    environ = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "ANTHROPIC_API_KEY": "the-persons-key",
        "CLAUDE_CONFIG_DIR": str(tmp_path / "cc"),
        "GITHUB_TOKEN": "ghp_not_for_the_agent",
        "OPENAI_API_KEY": "sk-not-for-claude",
        "CLAUDE_PROJECT_DIR": "/the/project",
        "CLAUDECODE": "1",
    }
    provider = get_provider(ModelConfig(provider="claude-code", command=(program,)), environ)
    assert provider.complete("the brief", "the outline\n") == "name: x"
    got = json.loads(seen.read_text())
    assert {k: got["env"].get(k) for k in ("ANTHROPIC_API_KEY", "CLAUDE_CONFIG_DIR", "HOME")} == {
        "ANTHROPIC_API_KEY": "the-persons-key",
        "CLAUDE_CONFIG_DIR": str(tmp_path / "cc"),
        "HOME": str(tmp_path),
    }
    for name in ("GITHUB_TOKEN", "OPENAI_API_KEY", "CLAUDE_PROJECT_DIR", "CLAUDECODE"):
        assert name not in got["env"], name
    assert got["stdin"] == "the outline\n"
    argv = got["argv"][1:]
    assert argv[argv.index("--tools") + 1] == ""
    assert argv[argv.index("--max-turns") + 1] == "1"
    assert argv[argv.index("--system-prompt") + 1] == "the brief"
    assert not os.path.exists(got["cwd"])  # an empty folder of its own, removed after
    assert got["cwd"] != os.getcwd()


def test_a_version_without_tools_off_is_never_run_for_a_skill(tmp_path):
    ran = tmp_path / "ran"
    program = fake_agent(
        tmp_path,
        "import sys\nif '--help' in sys.argv: print('--json-schema'); sys.exit(0)\n"
        f"open({str(ran)!r}, 'w')\n",
    )
    provider = get_provider(ModelConfig(provider="claude-code", command=(program,)), dict(os.environ))
    with pytest.raises(Exception, match="cannot be run without its tools"):
        provider.complete("the brief", "the outline\n")
    assert not ran.exists()


def test_a_projects_config_cannot_choose_to_run_the_agent(tmp_path):
    root = tmp_path / "clone"
    (root / ".edgar").mkdir(parents=True)
    (root / ".edgar" / "config.toml").write_text(
        '[model]\nprovider = "claude-code"\ncommand = ["/tmp/evil"]\n'
    )
    config = load_config(Layout(str(root), os.environ["EDGAR_HOME"]), environ={})
    assert config.model.provider == "offline"
    assert set(config.untrusted) == {"model.provider", "model.command"}


FIXTURES = Path(__file__).parent / "fixtures" / "transcripts"
REAL_LOGS = [
    ("claude-code", FIXTURES / "claude-code-2.1.39-compaction-task-notification.jsonl"),
    ("claude-code", FIXTURES / "claude-code-project" / "ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl"),
    ("codex", FIXTURES / "codex-0.171-two-turns.jsonl"),
    ("gemini", FIXTURES / "gemini-0.61-two-turns.jsonl"),
]


def strings_of(path: Path, least: int = 24) -> set[str]:
    """Every string of at least `least` characters anywhere in a log (tool output, file text, ...)."""
    found: set[str] = set()

    def walk(value):
        if isinstance(value, str):
            if len(value) >= least:
                found.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    text = path.read_text()
    try:
        walk(json.loads(text))
    except ValueError:
        for line in text.splitlines():
            if line.strip():
                walk(json.loads(line))
    return found


@needs_claude
@pytest.mark.parametrize(("agent", "log"), REAL_LOGS, ids=[p.name for _, p in REAL_LOGS])
def test_from_real_agents_logs_the_writer_gets_the_outline_and_nothing_else(
    tmp_path, edgar, monkeypatch, agent, log
):
    root, home = tmp_path / "project", tmp_path / "home"
    root.mkdir()
    home.mkdir()
    with WriterServer() as server:
        for name, value in claude_env(home, server.base_url).items():
            monkeypatch.setenv(name, value)
        flags = [
            *("--set", "model.provider=claude-code", "--set", f"model.command={json.dumps([CLAUDE])}"),
            *(
                "--set",
                'check.command=["true"]',
                "--set",
                "model.timeout_s=120",
                "--set",
                "skills.min_tool_calls=1",
            ),
        ]
        done = edgar("--root", str(root), *flags, "--json", "learn", "--from", agent, str(log), "--check")
    # The scripted answer is another turn's skill: the writer's walls may refuse it here.
    assert done.json()["triggers"], done
    (writer,) = server.requests
    (message,) = writer["messages"]
    outline = message["content"][-1]["text"]
    assert outline.startswith("what tripped: ")
    sent = json.dumps(writer)
    assert len(strings_of(log)) >= 5  # tool output, file text, commands: what must stay behind
    leaked = [s for s in strings_of(log) if json.dumps(s)[1:-1] in sent and s not in outline]
    assert leaked == []
    assert [t["name"] for t in writer.get("tools", [])] == ["StructuredOutput"]


def test_apart_the_turn_is_recorded_at_once_and_the_skill_written_by_a_process_of_its_own(tmp_path):
    program = fake_agent(
        tmp_path,
        "import json, os, sys, time\nif '--help' in sys.argv: print('--tools'); sys.exit(0)\n"
        f"open({str(tmp_path / 'pid')!r}, 'w').write(str(os.getppid()))\n"
        f"while not os.path.exists({str(tmp_path / 'go')!r}): time.sleep(0.05)\n"
        "sys.exit(7)\n",
    )
    root = tmp_path / "proj"
    root.mkdir()
    layout = Layout(str(root), os.environ["EDGAR_HOME"])
    config = replace(Config(), model=ModelConfig(provider="claude-code", command=(program,), timeout_s=30))
    outcome = Gate(layout, config).learn(
        turn_record("upgrade the test runner and fix what breaks"), "s-1", apart=True
    )
    # The agent waits for a file this test writes only now: nothing waited for it.
    assert outcome.outcome == "started"
    assert outcome.message.startswith("recovered fired: claude-code writes in the background")
    assert (root / ".edgar" / "experience").is_dir()  # the turn itself is recorded before the answer
    proposals = root / ".edgar" / "proposals"
    assert not list(proposals.glob("*/SKILL.md"))
    (tmp_path / "go").touch()
    assert wait_for(lambda: list(proposals.glob("*/SKILL.md")), 60)
    assert int((tmp_path / "pid").read_text()) != os.getpid()  # run by another process
    rows = (root / ".edgar" / "rejections.jsonl").read_text()
    assert "claude-code provider: the agent exited with status 7" in rows
