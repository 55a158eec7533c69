"""`edgar install claude-code`: edgar's three hooks merged into Claude Code's settings, and only those."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import tree_snapshot
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
