"""`edgar install codex|gemini`: edgar's hooks in the agent's own file, merged, idempotent, undone exactly."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from agent_servers import (
    GeminiServer,
    ResponsesServer,
    codex_binary,
    codex_home,
    gemini_binary,
    gemini_call,
    gemini_home,
    run_codex,
    run_gemini,
    shell,
    text,
)
from conftest import tree_snapshot
from skillfiles import BODY

from edgar_min.layout import Layout, user_home
from edgar_min.learning.writer import Draft, Provenance, Target, write_learned

CODEX_PERSONAL = {
    "hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done", "timeout": 5}]}],
    },
}


@pytest.fixture
def homes(tmp_path, monkeypatch):
    """The agents' own folders, as their variables name them."""
    codex, gemini = tmp_path / "codex-home", tmp_path / "gemini-home"
    monkeypatch.setenv("CODEX_HOME", str(codex))
    monkeypatch.setenv("GEMINI_CLI_HOME", str(gemini))
    return {"codex": codex / "hooks.json", "gemini": gemini / ".gemini" / "settings.json"}


@pytest.fixture
def root(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    return project


def install(edgar, root, agent, *flags):
    return edgar("--root", str(root), "install", agent, *flags)


def test_codex_hooks_go_into_the_persons_own_file_and_act_only_in_this_project(edgar, root, homes):
    result = install(edgar, root, "codex")
    assert result.code == 0, result
    hooks = json.loads(homes["codex"].read_text())["hooks"]
    assert list(hooks) == ["SessionStart", "UserPromptSubmit", "Stop"]
    stop = hooks["Stop"][0]["hooks"][0]
    assert stop["type"] == "command"
    assert stop["timeout"] == 30  # seconds: edgar's own bound (20 s) and a margin
    assert stop["command"].startswith(f'case "$PWD"/ in {root}/*) ')
    assert f"--root {root} hook stop || " in stop["command"]  # then exit 0, whatever happened
    assert stop["command"].endswith("exit 0;; esac")
    assert "trust edgar's hooks when it lists them" in result.out
    assert not (root / ".codex").exists()  # nothing in the project
    again = install(edgar, root, "codex")
    assert "nothing to change" in again.out


def test_codex_shared_hooks_go_into_the_project_and_say_the_project_must_be_trusted(edgar, root, homes):
    result = install(edgar, root, "codex", "--shared")
    assert result.code == 0, result
    stop = json.loads((root / ".codex" / "hooks.json").read_text())["hooks"]["Stop"][0]["hooks"][0]
    assert f"--root {root} hook stop || " in stop["command"]
    assert stop["command"].endswith("; exit 0")
    assert "trust the folder when it asks" in result.out
    assert not homes["codex"].exists()


def test_gemini_hooks_take_milliseconds_names_and_switch_hooks_on(edgar, root, homes):
    homes["gemini"].parent.mkdir(parents=True)
    homes["gemini"].write_text(json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}}))
    result = install(edgar, root, "gemini")
    assert result.code == 0, result
    settings = json.loads(homes["gemini"].read_text())
    assert settings["security"] == {"auth": {"selectedType": "gemini-api-key"}}
    assert settings["hooksConfig"] == {"enabled": True}
    assert list(settings["hooks"]) == ["SessionStart", "BeforeAgent", "AfterAgent"]
    after = settings["hooks"]["AfterAgent"][0]["hooks"][0]
    assert after["timeout"] == 30_000  # milliseconds: 30 would time out after 30 ms
    assert after["name"] == "edgar-stop"
    # Gemini CLI expands `$PWD` itself from where it was started: its project folder says where.
    assert after["command"].startswith(f"case $GEMINI_PROJECT_DIR/ in {root}/*) ")
    assert "set hooksConfig.enabled to true" in result.out


def test_a_persons_hooks_off_stay_off_and_are_said(edgar, root, homes):
    homes["gemini"].parent.mkdir(parents=True)
    homes["gemini"].write_text(json.dumps({"hooksConfig": {"enabled": False}}))
    result = install(edgar, root, "gemini", "--shared")
    assert result.code == 0, result
    assert json.loads(homes["gemini"].read_text()) == {"hooksConfig": {"enabled": False}}
    settings = json.loads((root / ".gemini" / "settings.json").read_text())
    assert settings["hooksConfig"] == {"enabled": True}  # the project's file had no say
    homes["gemini"].write_text(json.dumps({}))
    (root / ".gemini" / "settings.json").write_text(json.dumps({"hooksConfig": {"enabled": False}}))
    result = install(edgar, root, "gemini", "--shared")
    assert json.loads((root / ".gemini" / "settings.json").read_text())["hooksConfig"] == {"enabled": False}
    assert "hooksConfig.enabled is false" in result.out


@pytest.mark.parametrize("agent", ["codex", "gemini"])
def test_uninstall_puts_back_the_very_bytes_the_file_had(edgar, root, homes, agent):
    path = homes[agent]
    path.parent.mkdir(parents=True)
    mine = '{"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}'
    original = '{\n    "hooks": ' + mine + ',\n\n  "x": 1}\n'
    path.write_text(original)
    assert install(edgar, root, agent).code == 0
    assert "notify-send done" in path.read_text()
    assert "hook stop" in path.read_text()
    result = install(edgar, root, agent, "--uninstall")
    assert result.code == 0, result
    assert path.read_text() == original
    assert "as it was before install, byte for byte" in result.out


@pytest.mark.parametrize("agent", ["codex", "gemini"])
def test_uninstall_removes_a_file_and_folder_install_made(edgar, root, homes, agent):
    before = tree_snapshot(root)
    assert install(edgar, root, agent, "--shared").code == 0
    result = install(edgar, root, agent, "--shared", "--uninstall")
    assert result.code == 0, result
    assert tree_snapshot(root) == before
    assert not (root / f".{agent}").exists()


def test_uninstall_after_the_person_changed_the_file_takes_only_edgars_entries_out(edgar, root, homes):
    assert install(edgar, root, "gemini").code == 0
    settings = json.loads(homes["gemini"].read_text())
    mine = {"hooks": [{"type": "command", "name": "mine", "command": "echo hi", "timeout": 500}]}
    settings["hooks"]["BeforeAgent"].append(mine)
    settings["ui"] = {"theme": "dark"}
    homes["gemini"].write_text(json.dumps(settings))
    result = install(edgar, root, "gemini", "--uninstall")
    assert result.code == 0, result
    left = json.loads(homes["gemini"].read_text())
    assert left == {
        "hooks": {"BeforeAgent": [mine]},
        "hooksConfig": {"enabled": True},
        "ui": {"theme": "dark"},
    }


def test_a_moved_edgar_replaces_its_commands_and_a_dry_run_writes_nothing(edgar, root, homes):
    homes["codex"].parent.mkdir(parents=True)
    old = json.loads(json.dumps(CODEX_PERSONAL))
    old["hooks"]["Stop"].append(
        {
            "hooks": [
                {
                    "type": "command",
                    "command": f"python3 /old/edgar.pyz --root {root} hook stop",
                    "timeout": 30,
                }
            ]
        }
    )
    homes["codex"].write_text(json.dumps(old))
    before = homes["codex"].read_bytes()
    dry = install(edgar, root, "codex", "--dry-run")
    assert dry.code == 0, dry
    assert "would change" in dry.out
    assert "replaced Stop hook" in dry.out
    assert homes["codex"].read_bytes() == before
    assert install(edgar, root, "codex").code == 0
    stops = json.loads(homes["codex"].read_text())["hooks"]["Stop"]
    commands = [h["command"] for g in stops for h in g["hooks"]]
    assert commands[0] == "notify-send done"
    assert len(commands) == 2
    assert "/old/edgar.pyz" not in commands[1]


def test_a_file_that_is_not_json_is_a_sentence_and_left_as_it_was(edgar, root, homes):
    homes["codex"].parent.mkdir(parents=True)
    homes["codex"].write_text("{not json")
    result = install(edgar, root, "codex")
    assert result.code == 2
    assert "not valid JSON (line 1, column 2); fix it or move it away, nothing was changed" in result.err
    assert homes["codex"].read_text() == "{not json"


def test_local_and_shared_do_not_go_together(edgar, root, homes):
    both = install(edgar, root, "codex", "--local", "--shared")
    assert both.code == 2
    assert "not allowed with argument" in both.err
    assert not homes["codex"].exists()


def test_the_json_report(edgar, root, homes):
    result = edgar("--root", str(root), "--json", "install", "gemini")
    document = result.json()
    assert document["agent"] == "gemini"
    assert document["path"] == str(homes["gemini"])
    assert document["changed"] is True
    assert document["hooks_enabled_set"] is True
    assert [c["event"] for c in document["changes"]] == ["SessionStart", "BeforeAgent", "AfterAgent"]
    assert "act only in sessions in" in document["trust"]


def test_the_shell_keeps_a_personal_hook_to_its_project_and_exits_0_when_edgar_is_gone(root, tmp_path):
    from edgar_min.delivery.agent_install import agent_command

    command = agent_command("echo edgar_min", str(root), "stop", agent="codex", shared=False)
    gone = agent_command("/gone/python3 edgar_min", str(root), "stop", agent="codex", shared=False)
    inside = root / "sub"
    inside.mkdir()
    other = tmp_path / "project-two"
    other.mkdir()
    runs = {
        folder: subprocess.run(
            ["sh", "-c", command], cwd=folder, capture_output=True, text=True, check=True
        ).stdout
        for folder in (root, inside, other)
    }
    assert runs[root] == runs[inside] == f"edgar_min --root {root} hook stop\n"
    assert runs[other] == ""
    (root / ".edgar").mkdir()
    done = subprocess.run(["sh", "-c", gone], cwd=root, capture_output=True, text=True, check=False)
    assert done.returncode == 0
    logged = json.loads((root / ".edgar" / "hook-problems.jsonl").read_text())
    assert "run edgar install codex again" in logged["problem"]


# The real CLIs from npm (`.ci/run` installs them), driven against a scripted model on 127.0.0.1
# with edgar's hooks installed by `edgar install`, as a person would.

REPO = Path(__file__).resolve().parents[1]
TYPED = "<b>release</b> notes for v2, and make sure the tests pass"
SKILL = (
    "---\nname: release-notes\ndescription: Write release notes from the git log of a tag range.\n---\n\n"
    "## When to use\nWhen a release is cut and its notes must be written.\n\n## Procedure\n1. Read the log.\n"
)


def agent_project(tmp_path: Path) -> Path:
    """A project with a skill of the agents' shared folder, and one edgar learned in an earlier
    (Claude Code) session: one skill memory, so both reach every agent's session."""
    root = tmp_path / "project"
    (root / ".agents" / "skills" / "release-notes").mkdir(parents=True)
    (root / ".agents" / "skills" / "release-notes" / "SKILL.md").write_text(SKILL)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    layout = Layout(root, user_home())
    description = "Bump a dependency pin and refresh the lock file so the tests pass."
    write_learned(
        layout,
        Draft("pin-bump-with-lockfile", description, BODY),
        Provenance("claude-1", ("recovered",)),
        Target("learned"),
    )
    return root


def hook_problems(root: Path) -> list[str]:
    path = root / ".edgar" / "hook-problems.jsonl"
    return path.read_text().splitlines() if path.exists() else []


@pytest.mark.skipif(
    codex_binary() is None,
    reason="the real Codex CLI is not here: npm install @openai/codex (.ci/run puts it on PATH)",
)
def test_a_real_codex_turn_with_edgars_hooks_is_read_exactly_and_its_skill_load_counted(
    tmp_path, edgar, monkeypatch
):
    home, root = tmp_path / "home", agent_project(tmp_path)
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    monkeypatch.setenv("PYTHONPATH", str(REPO))  # the hooks run this checkout's edgar
    script = [
        [shell("c1", "sed -n '1,200p' .agents/skills/release-notes/SKILL.md")],
        [shell("c2", "python3 -c 'import sys; sys.exit(1)'")],
        [text("The notes are written; one test fails.")],
    ]
    with ResponsesServer(script) as server:
        codex_home(home, server.base_url, metrics=True)
        installed = install(edgar, root, "codex")
        assert installed.code == 0, installed
        done = run_codex([TYPED], cwd=root, home=home)
    said = done.stdout + done.stderr
    assert done.returncode == 0, said[-2000:]
    for event in ("SessionStart", "UserPromptSubmit", "Stop"):
        assert f"hook: {event} Completed" in said  # a Stop hook that printed no JSON would be "Failed"
    assert hook_problems(root) == []
    # The listing and the suggestion reached the model as developer messages.
    sent = json.dumps(server.requests[0]["input"])
    assert "edgar (this project's skill memory) lists the skills available here" in sent
    assert "pin-bump-with-lockfile: Bump a dependency pin" in sent  # learned elsewhere, listed here
    (rollout,) = (home / ".codex" / "sessions").rglob("rollout-*.jsonl")
    dry = edgar("--root", str(root), "--json", "learn", "--from", "codex", str(rollout), "--dry-run").json()
    assert dry["turn"]["prompt"] == TYPED
    assert dry["turn"]["errors"] == [
        {"tool": "shell", "kind": "nonzero_exit", "exit_code": 1, "program": "python3"}
    ]
    stats = edgar("--root", str(root), "--json", "skills", "stats", "release-notes").json()
    assert stats["used"] == 1  # the Stop hook recorded the turn that read it
    print(f"codex hook run times (ms), as Codex reported them: {server.hook_durations()}")


@pytest.mark.skipif(
    gemini_binary() is None,
    reason="the real Gemini CLI is not here: npm install @google/gemini-cli (.ci/run puts it on PATH)",
)
def test_a_real_gemini_turn_with_edgars_hooks_is_read_exactly_and_its_skill_load_counted(
    tmp_path, edgar, monkeypatch
):
    home, root = tmp_path / "home", agent_project(tmp_path)
    monkeypatch.setenv("GEMINI_CLI_HOME", str(home))
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    gemini_home(home)
    installed = install(edgar, root, "gemini")
    assert installed.code == 0, installed
    script = [
        [gemini_call("activate_skill", name="release-notes")],
        [
            gemini_call(
                "run_shell_command", command="python3 -c 'import sys; sys.exit(1)'", description="tests"
            )
        ],
        [{"text": "The notes are written; one test fails."}],
    ]
    with GeminiServer(script) as server:
        done = run_gemini(TYPED, cwd=root, home=home, server=server, extra=("--debug",))
    said = done.stdout + done.stderr
    assert done.returncode == 0, said[-2000:]
    ran = [line for line in said.splitlines() if line.startswith("Hook execution for ")]
    assert [line.split(":")[0] for line in ran] == [
        "Hook execution for SessionStart",
        "Hook execution for BeforeAgent",
        "Hook execution for AfterAgent",
    ]
    assert all("1 hooks executed successfully" in line for line in ran), ran
    assert hook_problems(root) == []
    sent = json.dumps(server.requests[0]["contents"])
    assert "<hook_context>edgar (this project's skill memory)" in sent
    assert "pin-bump-with-lockfile: Bump a dependency pin" in sent
    (log,) = (home / ".gemini" / "tmp").rglob("session-*.jsonl")
    dry = edgar("--root", str(root), "--json", "learn", "--from", "gemini", str(log), "--dry-run").json()
    assert dry["turn"]["prompt"] == TYPED
    stats = edgar("--root", str(root), "--json", "skills", "stats", "release-notes").json()
    assert stats["used"] == 1
    print("gemini hook run times, as Gemini CLI reported them:", *(line.split(": ", 1)[1] for line in ran))
