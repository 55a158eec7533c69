"""`edgar install claude-code`: edgar's three hooks merged into Claude Code's settings, and only those."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import state_of, tree_snapshot
from suggestfiles import write_skills

REPO = Path(__file__).resolve().parent.parent
EVENTS = ("SessionStart", "UserPromptSubmit", "Stop")


def settings(root, name="settings.json"):
    return json.loads((root / ".claude" / name).read_text())


def commands(doc, event):
    return [h["command"] for g in doc["hooks"].get(event, []) for h in g["hooks"]]


def test_install_adds_the_three_hooks_and_a_second_run_changes_nothing(tmp_path, edgar):
    first = edgar("--root", str(tmp_path), "install", "claude-code")
    assert first.code == 0, first
    assert first.out.startswith("changed .claude/settings.json:")
    assert first.out.count("  added ") == 3
    doc = settings(tmp_path)
    for event, name in zip(EVENTS, ("session-start", "user-prompt-submit", "stop"), strict=True):
        (command,) = commands(doc, event)
        assert command.endswith(f'--root "$CLAUDE_PROJECT_DIR" hook {name}')
        assert doc["hooks"][event][0]["hooks"][0]["timeout"] == 30
    before = tree_snapshot(tmp_path)
    second = edgar("--root", str(tmp_path), "install", "claude-code")
    assert second.code == 0
    assert "nothing to change" in second.out
    assert tree_snapshot(tmp_path) == before


def test_other_keys_and_hooks_are_kept_and_uninstall_removes_only_edgars(tmp_path, edgar):
    mine = {"type": "command", "command": "ruff format $FILE"}
    original = {
        "permissions": {"allow": ["Bash(npm test:*)"]},
        "hooks": {
            "PostToolUse": [{"matcher": "Edit|Write", "hooks": [mine]}],
            "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
        },
    }
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps(original))
    assert edgar("--root", str(tmp_path), "install", "claude-code").code == 0
    doc = settings(tmp_path)
    assert doc["permissions"] == original["permissions"]
    assert doc["hooks"]["PostToolUse"] == original["hooks"]["PostToolUse"]
    assert commands(doc, "Stop")[0] == "notify-send done"
    assert len(commands(doc, "Stop")) == 2
    removed = edgar("--root", str(tmp_path), "install", "claude-code", "--uninstall")
    assert removed.out.count("  removed ") == 3
    assert settings(tmp_path) == original


def test_a_moved_edgar_replaces_its_old_command_and_a_hand_written_stop_hook_counts_as_ours(tmp_path, edgar):
    old = {
        "hooks": {
            "UserPromptSubmit": [
                {"hooks": [{"type": "command", "command": "python3 /old/edgar.pyz hook user-prompt-submit"}]}
            ],
            "Stop": [
                {
                    "hooks": [
                        {
                            "type": "command",
                            "command": "python3 /old/edgar.pyz learn --from claude-code --hook",
                        }
                    ]
                }
            ],
        }
    }
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps(old))
    result = edgar("--root", str(tmp_path), "install", "claude-code")
    assert "replaced UserPromptSubmit hook" in result.out
    assert "replaced Stop hook" in result.out
    doc = settings(tmp_path)
    assert len(commands(doc, "UserPromptSubmit")) == 1
    assert len(commands(doc, "Stop")) == 1
    assert "/old/" not in json.dumps(doc)


def test_dry_run_and_local(tmp_path, edgar):
    dry = edgar("--root", str(tmp_path), "install", "claude-code", "--dry-run")
    assert dry.out.startswith("would change .claude/settings.json:")
    assert not (tmp_path / ".claude").exists()
    local = edgar("--root", str(tmp_path), "--json", "install", "claude-code", "--local")
    assert local.json()["changed"] is True
    assert len(local.json()["changes"]) == 3
    assert set(settings(tmp_path, "settings.local.json")["hooks"]) == set(EVENTS)
    assert not (tmp_path / ".claude" / "settings.json").exists()


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ('{"hooks": {', "not valid JSON (line 1"),
        ("[1, 2]", "must hold a JSON object, not list"),
        ('{"hooks": []}', "'hooks' must be an object"),
        ('{"hooks": {"Stop": {"command": "x"}}}', "hooks.Stop must be a list"),
    ],
)
def test_a_settings_file_out_of_shape_is_a_sentence_exit_2_and_left_untouched(
    tmp_path, edgar, text, sentence
):
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(text)
    before = tree_snapshot(tmp_path)
    result = edgar("--root", str(tmp_path), "install", "claude-code")
    assert result.code == 2
    assert sentence in result.err
    assert "nothing was changed" in result.err
    assert tree_snapshot(tmp_path) == before


@pytest.fixture(scope="module")
def pyz(tmp_path_factory):
    out = tmp_path_factory.mktemp("build") / "edgar.pyz"
    subprocess.run([sys.executable, str(REPO / "build_zipapp.py"), "-o", str(out)], check=True, timeout=120)
    return out


def test_the_installed_commands_run_the_built_pyz_from_claude_codes_shell(tmp_path, pyz):
    write_skills(tmp_path / ".claude" / "skills")
    done = subprocess.run(
        [sys.executable, str(pyz), "--root", str(tmp_path), "install", "claude-code"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    doc = settings(tmp_path)
    (command,) = commands(doc, "UserPromptSubmit")
    assert str(pyz.resolve()) in command
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(tmp_path)}
    payload = json.dumps(
        {"session_id": "s-1", "prompt": "merge these two pdfs into one", "cwd": str(tmp_path)}
    )
    ran = subprocess.run(  # noqa: S602 - run by a shell, as Claude Code runs a hook command
        command,
        shell=True,
        input=payload,
        capture_output=True,
        text=True,
        env=env,
        cwd="/",
        timeout=60,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert "## Skill `pdf`" in json.loads(ran.stdout)["hookSpecificOutput"]["additionalContext"]
    (start,) = commands(doc, "SessionStart")
    started = subprocess.run(  # noqa: S602 - as Claude Code runs it
        start,
        shell=True,
        input="{}",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert "- pdf: " in json.loads(started.stdout)["hookSpecificOutput"]["additionalContext"]


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_settings_file_that_is_a_fifo_or_dev_zero_is_named_and_left_alone(tmp_path, edgar, kind):
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    if kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no fifos here")
        os.mkfifo(settings)
    else:
        settings.symlink_to("/dev/zero")
    result = edgar("--root", str(tmp_path), "install", "claude-code")
    what = "a fifo (named pipe)" if kind == "fifo" else "a device"
    assert result.code == 2, result
    assert f"is {what}, not a settings file; nothing was changed" in result.err
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json"]


# Claude Code's name for a project's folder of transcripts, from the public reports of it:
# every character but an ASCII letter or digit becomes `-` (anthropics/claude-code#24067,
# chadbyte/clay#182, mrocklin/claudechic#20, agentclientprotocol/claude-agent-acp#307), each
# non-ASCII letter one `-` (anthropics/claude-code#45718), and past 200 characters the first 200,
# `-` and a base-36 hash of the path (Digital-Process-Tools/claude-remember#157).
@pytest.mark.parametrize(
    ("path", "name"),
    [
        (
            "/home/chris/2_project-files/projects/m2-clients/101-cal",
            "-home-chris-2-project-files-projects-m2-clients-101-cal",
        ),
        ("/home/user/my_example_workspace", "-home-user-my-example-workspace"),
        ("/home/me/.local/tool", "-home-me--local-tool"),
        ("/Users/me/work/my.app", "-Users-me-work-my-app"),
        ("/Users/foo/Projects/Open Source/checkmate", "-Users-foo-Projects-Open-Source-checkmate"),
        ("/home/u/Проект", "-home-u-------"),
        ("/home/u/a\U0001f600b", "-home-u-a--b"),  # outside the BMP: two UTF-16 units, two dashes
    ],
)
def test_the_project_folder_is_named_as_claude_code_names_it(path, name):
    from edgar_min.delivery.install import project_folder_name

    assert project_folder_name(path) == name


def test_a_long_path_keeps_200_characters_and_a_hash_of_the_path():
    from edgar_min.delivery.install import project_folder_name

    parts = [letter * 20 for letter in "abcdefghijk"]
    path = "/private/tmp/" + "/".join(parts)
    # The value Claude Code's bundled function gives (checked by running it under Node).
    expected = "-private-tmp-" + "-".join(parts[:9])[: 200 - 13] + "-y4pbkj"
    assert project_folder_name(path) == expected
    assert len(project_folder_name(path)) == 207
    assert project_folder_name(path + "x") != project_folder_name(path)
    assert project_folder_name(path)[:200] == project_folder_name(path + "x")[:200]


def _past_sessions_folder(tmp_path, monkeypatch, root):
    from edgar_min.delivery.install import project_folder_name

    config = tmp_path / "claude-config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    folder = config / "projects" / project_folder_name(str(root))
    (folder / "s1" / "subagents").mkdir(parents=True)
    for name in ("s1.jsonl", "s2.jsonl", "s3.jsonl"):
        (folder / name).write_text("{}\n")
    (folder / "s1" / "subagents" / "agent-a.jsonl").write_text("{}\n")
    (folder / "agent-b.jsonl").write_text("{}\n")  # where Claude Code before 2.1.2 kept a subagent's log
    return folder


def test_install_says_how_many_past_sessions_there_are_and_how_to_import_them(tmp_path, edgar, monkeypatch):
    root = tmp_path / "my_project"
    root.mkdir()
    folder = _past_sessions_folder(tmp_path, monkeypatch, root)
    done = edgar("--root", str(root), "install", "claude-code")
    assert done.code == 0, done
    last = done.out.splitlines()[-1]
    assert last.startswith(f"3 past Claude Code session(s) of this project are in {folder}; ")
    assert last.endswith(f"skills examples --import claude-code {folder}")
    assert f"--root {root}" in last
    # Nothing was imported on its own.
    assert not (state_of(root) / "routing-examples.jsonl").exists()
    doc = edgar("--root", str(root), "--json", "install", "claude-code").json()
    assert doc["past_sessions"]["sessions"] == 3
    assert doc["past_sessions"]["folder"] == str(folder)
    again = edgar("--root", str(root), "install", "claude-code", "--dry-run")
    assert "3 past Claude Code session(s)" in again.out
    gone = edgar("--root", str(root), "install", "claude-code", "--uninstall")
    assert "past Claude Code" not in gone.out


def test_install_says_nothing_of_past_sessions_when_there_are_none(tmp_path, edgar, monkeypatch):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude-config"))
    done = edgar("--root", str(tmp_path), "install", "claude-code")
    assert done.code == 0
    assert "past Claude Code" not in done.out
    assert edgar("--root", str(tmp_path), "--json", "install", "claude-code").json()["past_sessions"] is None


def test_the_import_command_install_prints_runs_from_the_built_pyz(tmp_path, pyz, monkeypatch):
    root = tmp_path / "proj"
    write_skills(root / ".claude" / "skills")
    folder = _past_sessions_folder(tmp_path, monkeypatch, root.resolve())
    shutil.copy(
        REPO / "tests" / "fixtures" / "transcripts" / "claude-code-2.1.39-skill-tool.jsonl",
        folder / "s1.jsonl",
    )
    (root / ".claude" / "skills" / "hex-docs-search").mkdir()
    (root / ".claude" / "skills" / "hex-docs-search" / "SKILL.md").write_text(
        "---\nname: hex-docs-search\ndescription: Search Hex package documentation.\n---\nBody.\n"
    )
    done = subprocess.run(
        [sys.executable, str(pyz), "--root", str(root), "install", "claude-code"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    command = done.stdout.splitlines()[-1].split("run: ", 1)[1]
    ran = subprocess.run(  # noqa: S602 - a person pastes it into a shell
        command, shell=True, capture_output=True, text=True, cwd="/", timeout=60, check=False
    )
    assert ran.returncode == 0, ran.stderr
    assert "hex-docs-search: " in ran.stdout
    assert "kept 1 example(s), 1 new" in ran.stdout
