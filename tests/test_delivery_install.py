"""`edgar install claude-code`: edgar's three hooks merged into Claude Code's settings, and only those."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import state_of, tree_snapshot
from messages_server import MessagesServer, claude_binary, run_claude
from suggestfiles import write_skills

from edgar_min.invocation import program

REPO = Path(__file__).resolve().parent.parent
EVENTS = ("SessionStart", "UserPromptSubmit", "Stop")


def settings(root, name="settings.local.json"):
    return json.loads((root / ".claude" / name).read_text())


def commands(doc, event):
    return [h["command"] for g in doc["hooks"].get(event, []) for h in g["hooks"]]


def test_install_adds_the_three_hooks_and_a_second_run_changes_nothing(tmp_path, edgar):
    first = edgar("--root", str(tmp_path), "install", "claude-code")
    assert first.code == 0, first
    assert first.out.startswith("changed .claude/settings.local.json:")
    assert first.out.count("  added ") == 3
    doc = settings(tmp_path)
    for event, name in zip(EVENTS, ("session-start", "user-prompt-submit", "stop"), strict=True):
        (command,) = commands(doc, event)
        assert f'--root "$CLAUDE_PROJECT_DIR" hook {name} || ' in command
        assert command.endswith("; exit 0")
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
    assert edgar("--root", str(tmp_path), "install", "claude-code", "--shared").code == 0
    doc = settings(tmp_path, "settings.json")
    assert doc["permissions"] == original["permissions"]
    assert doc["hooks"]["PostToolUse"] == original["hooks"]["PostToolUse"]
    assert commands(doc, "Stop")[0] == "notify-send done"
    assert len(commands(doc, "Stop")) == 2
    removed = edgar("--root", str(tmp_path), "install", "claude-code", "--shared", "--uninstall")
    assert removed.out.count("  removed ") == 3
    assert settings(tmp_path, "settings.json") == original


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
    (tmp_path / ".claude" / "settings.local.json").write_text(json.dumps(old))
    result = edgar("--root", str(tmp_path), "install", "claude-code")
    assert "replaced UserPromptSubmit hook" in result.out
    assert "replaced Stop hook" in result.out
    doc = settings(tmp_path)
    assert len(commands(doc, "UserPromptSubmit")) == 1
    assert len(commands(doc, "Stop")) == 1
    assert "/old/" not in json.dumps(doc)


def test_dry_run_local_and_shared(tmp_path, edgar):
    dry = edgar("--root", str(tmp_path), "install", "claude-code", "--dry-run")
    assert dry.out.startswith("would change .claude/settings.local.json:")
    assert not (tmp_path / ".claude").exists()
    local = edgar("--root", str(tmp_path), "--json", "install", "claude-code", "--local")
    assert local.json()["changed"] is True
    assert len(local.json()["changes"]) == 3
    assert set(settings(tmp_path)["hooks"]) == set(EVENTS)
    assert not (tmp_path / ".claude" / "settings.json").exists()
    shared = edgar("--root", str(tmp_path), "install", "claude-code", "--shared")
    assert shared.out.startswith("changed .claude/settings.json:")
    assert set(settings(tmp_path, "settings.json")["hooks"]) == set(EVENTS)


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
    (tmp_path / ".claude" / "settings.local.json").write_text(text)
    before = tree_snapshot(tmp_path)
    result = edgar("--root", str(tmp_path), "install", "claude-code")
    assert result.code == 2
    assert sentence in result.err
    assert "nothing was changed" in result.err
    assert tree_snapshot(tmp_path) == before


def test_the_installed_commands_run_the_built_pyz_from_claude_codes_shell(tmp_path, pyz):
    write_skills(tmp_path / ".claude" / "skills")
    write_skills(tmp_path / ".edgar" / "skills", ["gh-fix-ci"])
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
    assert "- `pdf` (project)" in json.loads(ran.stdout)["hookSpecificOutput"]["additionalContext"]
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
    listed = json.loads(started.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "- gh-fix-ci: " in listed
    assert "- pdf: " not in listed  # Claude Code lists .claude/skills itself


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_settings_file_that_is_a_fifo_or_dev_zero_is_named_and_left_alone(tmp_path, edgar, kind):
    settings = tmp_path / ".claude" / "settings.local.json"
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
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.local.json"]


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


# Settings a person keeps: their permissions, their number formatting, their bytes.


@pytest.mark.parametrize("flag", ["--local", "--shared"])
def test_install_and_uninstall_keep_the_files_mode(tmp_path, edgar, flag):
    name = "settings.local.json" if flag == "--local" else "settings.json"
    path = tmp_path / ".claude" / name
    path.parent.mkdir()
    path.write_text('{"env": {"ANTHROPIC_API_KEY": "sk-ant-kept-private"}}\n')
    path.chmod(0o600)
    assert edgar("--root", str(tmp_path), "install", "claude-code", flag).code == 0
    assert "hooks" in settings(tmp_path, name)
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert edgar("--root", str(tmp_path), "install", "claude-code", flag, "--uninstall").code == 0
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    path.chmod(0o664)  # a mode wider than the umask gives is kept too
    assert edgar("--root", str(tmp_path), "install", "claude-code", flag).code == 0
    assert oct(path.stat().st_mode & 0o777) == "0o664"


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        ('{"env": {"BIG": 1e400}}', "env.BIG", "too large for JSON (it reads as infinity)"),
        ('{"x": [1, -1e999]}', "x[1]", "too large for JSON (it reads as infinity)"),
        ('{"hooks": {}, "n": NaN}', "n", "not a number"),
        ('{"n": Infinity}', "n", "too large for JSON (it reads as infinity)"),
    ],
)
def test_a_number_json_cannot_carry_is_refused_with_exit_2_and_nothing_written(
    tmp_path, edgar, text, where, what
):
    path = tmp_path / ".claude" / "settings.local.json"
    path.parent.mkdir()
    path.write_text(text)
    before = tree_snapshot(tmp_path)
    for extra in ([], ["--uninstall"]):
        result = edgar("--root", str(tmp_path), "install", "claude-code", *extra)
        assert result.code == 2, result
        assert result.err == (
            f"edgar: {path}: the number at {where} is {what}; write it within range, nothing was changed\n"
        )
        assert tree_snapshot(tmp_path) == before


def test_uninstall_removes_the_file_and_folder_install_made(tmp_path, edgar):
    assert edgar("--root", str(tmp_path), "install", "claude-code").code == 0
    assert (tmp_path / ".claude" / "settings.local.json").exists()
    removed = edgar("--root", str(tmp_path), "install", "claude-code", "--uninstall")
    assert removed.code == 0, removed
    assert removed.out.splitlines()[-1] == "removed .claude/settings.local.json: install made it"
    assert not (tmp_path / ".claude").exists()
    assert list(tmp_path.iterdir()) == []
    assert list((Path(os.environ["EDGAR_HOME"]) / "installs").iterdir()) == []


def test_uninstall_without_a_record_leaves_no_empty_object_behind(tmp_path, edgar):
    # Installed by an earlier edgar, or the record lost: taking edgar's entries out leaves
    # nothing, which is no file at all (Claude Code reads the two the same).
    assert edgar("--root", str(tmp_path), "install", "claude-code").code == 0
    shutil.rmtree(Path(os.environ["EDGAR_HOME"]) / "installs")
    assert edgar("--root", str(tmp_path), "install", "claude-code", "--uninstall").code == 0
    assert not (tmp_path / ".claude" / "settings.local.json").exists()


HAND_WRITTEN = (
    '{\r\n\t"permissions" : { "allow" : [ "Bash(npm test:*)" ] },\r\n'
    '\t"hooks": {},\r\n\t"model":"opus",   "n": 1.50\r\n}'
)


@pytest.mark.parametrize(
    "text",
    [HAND_WRITTEN, '{"hooks": {}}', '{"hooks": {"Stop": []}}', "", "{}", '{"é": "ü"}\n\n'],
    ids=["hand-written", "empty-hooks", "empty-stop-list", "empty-file", "empty-object", "unicode"],
)
def test_uninstall_restores_the_file_byte_for_byte(tmp_path, edgar, pyz, text):
    path = tmp_path / ".claude" / "settings.local.json"
    path.parent.mkdir()
    path.write_bytes(text.encode())
    assert edgar("--root", str(tmp_path), "install", "claude-code").code == 0
    assert path.read_bytes() != text.encode()
    # A second install from another edgar (a moved archive) replaces the commands; the record stays.
    moved = subprocess.run(
        [sys.executable, str(pyz), "--root", str(tmp_path), "install", "claude-code"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert "replaced Stop hook" in moved.stdout, moved.stderr
    done = edgar("--root", str(tmp_path), "install", "claude-code", "--uninstall")
    assert done.code == 0, done
    assert (
        done.out.splitlines()[-1] == ".claude/settings.local.json: is as it was before install, byte for byte"
    )
    assert path.read_bytes() == text.encode()
    assert sorted(p.name for p in tmp_path.rglob("*")) == [".claude", "settings.local.json"]


def test_a_file_edited_after_install_keeps_the_edit_on_uninstall(tmp_path, edgar):
    path = tmp_path / ".claude" / "settings.local.json"
    path.parent.mkdir()
    path.write_text('{"model": "opus"}')
    assert edgar("--root", str(tmp_path), "install", "claude-code").code == 0
    doc = settings(tmp_path)
    doc["permissions"] = {"allow": ["Bash(make:*)"]}
    path.write_text(json.dumps(doc))
    done = edgar("--root", str(tmp_path), "install", "claude-code", "--uninstall")
    assert done.code == 0
    assert "byte for byte" not in done.out
    assert settings(tmp_path) == {"model": "opus", "permissions": {"allow": ["Bash(make:*)"]}}


def test_what_uninstall_puts_back_is_kept_privately_under_the_persons_home(tmp_path, edgar):
    path = tmp_path / ".claude" / "settings.local.json"
    path.parent.mkdir()
    path.write_text('{"env": {"ANTHROPIC_API_KEY": "sk-ant-kept-private"}}')
    project_before = set(tmp_path.rglob("*"))
    assert edgar("--root", str(tmp_path), "install", "claude-code").code == 0
    assert set(tmp_path.rglob("*")) == project_before  # nothing new in the project but the settings
    (record,) = (Path(os.environ["EDGAR_HOME"]) / "installs").iterdir()
    assert oct(record.stat().st_mode & 0o777) == "0o600"
    assert json.loads(record.read_text())["settings"] == str(path)
    # A record that does not name this file (forged, or for another one) is no record.
    record.write_text(json.dumps({"settings": "/elsewhere", "before": "{}", "made_folder": True}))
    assert edgar("--root", str(tmp_path), "install", "claude-code", "--uninstall").code == 0
    assert settings(tmp_path) == {"env": {"ANTHROPIC_API_KEY": "sk-ant-kept-private"}}


# The command install writes, run as Claude Code runs it (`sh -c`, CLAUDE_PROJECT_DIR set):
# exit 2 would erase the person's prompt, or keep the agent going at Stop.

PAYLOADS = {
    "SessionStart": {"hook_event_name": "SessionStart", "source": "startup"},
    "UserPromptSubmit": {"hook_event_name": "UserPromptSubmit", "prompt": "merge these two pdfs into one"},
    "Stop": {"hook_event_name": "Stop", "stop_hook_active": False},
}


def shell_env():
    """This environment as a person's shell has it: without what `pyenv exec` set to run these tests."""
    return {k: v for k, v in os.environ.items() if k not in {"PYENV_VERSION", "PYENV_DIR"}}


def run_as_claude_code(command, root, event, path=None):
    env = {**shell_env(), "CLAUDE_PROJECT_DIR": str(root)}
    if path is not None:
        env["PATH"] = path
    payload = {
        "session_id": "s-1",
        "cwd": str(root),
        "transcript_path": str(root / "t.jsonl"),
        **PAYLOADS[event],
    }
    return subprocess.run(
        ["/bin/sh", "-c", command],
        input=json.dumps(payload), capture_output=True, text=True, env=env, cwd=root, timeout=60, check=False,
    )  # fmt: skip


def install_with(python, pyz, root, *extra):
    done = subprocess.run(
        [str(python), str(pyz), "--root", str(root), "install", "claude-code", *extra],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done


def hook_problems(root):
    path = root / ".edgar" / "hook-problems.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.mark.parametrize(
    ("breakage", "status"), [("archive-moved", 2), ("archive-damaged", 1), ("python-removed", 127)]
)
def test_every_hook_exits_0_and_logs_a_line_when_edgar_cannot_start(tmp_path, pyz, breakage, status):
    root, bin_dir = tmp_path / "project", tmp_path / "bin"
    write_skills(root / ".claude" / "skills")
    (root / ".edgar").mkdir()
    bin_dir.mkdir()
    python = bin_dir / "python3"  # the Python that ran install, as a removable pyenv version is
    python.symlink_to(sys.executable)
    archive = shutil.copy(pyz, tmp_path / "edgar.pyz")
    install_with(python, archive, root)
    doc = settings(root)
    assert commands(doc, "Stop")[0].startswith(f"{python} -I -S {archive} ")
    if breakage == "archive-moved":
        Path(archive).rename(tmp_path / "elsewhere.pyz")
    elif breakage == "archive-damaged":
        Path(archive).write_bytes(pyz.read_bytes()[:4000])
    else:
        python.unlink()
    for event in EVENTS:
        (command,) = commands(doc, event)
        ran = run_as_claude_code(command, root, event)
        assert ran.returncode == 0, ran.stderr
        assert ran.stdout == ""  # nothing reaches the model
    rows = hook_problems(root)
    assert [row["hook"] for row in rows] == list(EVENTS)
    for row in rows:
        assert set(row) == {"time", "hook", "problem"}
        assert row["problem"] == (
            f"the hook command could not run edgar (exit status {status}): the Python or the edgar it "
            "names is missing, too old or damaged; run edgar install claude-code again"
        )
    # doctor, run from where the archive is now, shows them.
    assert "run edgar install claude-code again" in subprocess.run(
        [sys.executable, str(pyz), "--root", str(root), "doctor"],
        capture_output=True, text=True, timeout=60, check=False,
    ).stdout  # fmt: skip


@pytest.mark.parametrize("place", ["no-edgar-folder", "edgar-folder-is-a-link", "log-is-a-link"])
def test_the_command_writes_nothing_where_edgar_keeps_no_real_folder(tmp_path, pyz, place):
    # A teammate's clone that never ran edgar, or a clone that ships links where the log goes.
    root, outside = tmp_path / "project", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "hook-problems.jsonl").write_text("kept\n")
    if place == "edgar-folder-is-a-link":
        (root / ".edgar").symlink_to(outside)
    elif place == "log-is-a-link":
        (root / ".edgar").mkdir()
        (root / ".edgar" / "hook-problems.jsonl").symlink_to(outside / "hook-problems.jsonl")
    archive = shutil.copy(pyz, tmp_path / "edgar.pyz")
    install_with(sys.executable, archive, root, "--shared")
    Path(archive).unlink()
    before = tree_snapshot(tmp_path)
    for event in EVENTS:
        (command,) = commands(settings(root, "settings.json"), event)
        assert run_as_claude_code(command, root, event).returncode == 0
    assert tree_snapshot(tmp_path) == before
    assert (outside / "hook-problems.jsonl").read_text() == "kept\n"


def old_python3_first_on_path(tmp_path: Path, _root: Path) -> str:
    """A `python3` first on PATH that refuses edgar as a 3.10 does."""
    folder = tmp_path / "bin"
    folder.mkdir()
    fake = folder / "python3"
    fake.write_text('#!/bin/sh\necho "edgar needs Python 3.11 or newer" >&2\nexit 1\n')
    fake.chmod(0o755)
    return f"{folder}{os.pathsep}{os.environ['PATH']}"


def pyenv_pinned_to_310(_tmp_path: Path, root: Path) -> str:
    """PATH with pyenv's shims first, and the project pinned to 3.10 by `.python-version`."""
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    versions = sorted(p.name for p in pyenv.glob("versions/3.10*"))
    if not versions or not (pyenv / "shims" / "python3").exists():
        pytest.skip("needs pyenv with a 3.10 installed")
    (root / ".python-version").write_text(versions[-1] + "\n")
    path = f"{pyenv / 'shims'}{os.pathsep}{os.environ['PATH']}"
    env = {**shell_env(), "PATH": path}
    pinned = subprocess.run(
        ["python3", "--version"], capture_output=True, text=True, env=env, cwd=root, check=False
    )
    assert pinned.stdout.startswith("Python 3.10"), pinned
    return path


@pytest.mark.parametrize("pin", [old_python3_first_on_path, pyenv_pinned_to_310])
def test_a_project_pinned_to_an_older_python_still_gets_its_skills(tmp_path, pyz, pin):
    root = tmp_path / "project"
    write_skills(root / ".claude" / "skills")
    install_with(sys.executable, pyz, root)
    path = pin(tmp_path, root)
    (command,) = commands(settings(root), "UserPromptSubmit")
    ran = run_as_claude_code(command, root, "UserPromptSubmit", path=path)
    assert ran.returncode == 0, ran.stderr
    assert "- `pdf` (project)" in json.loads(ran.stdout)["hookSpecificOutput"]["additionalContext"]
    assert hook_problems(root) == []


def test_install_says_when_the_other_settings_file_runs_edgars_hooks_too(tmp_path, edgar):
    # An earlier install wrote the committed file; each hook would now run twice.
    assert edgar("--root", str(tmp_path), "install", "claude-code", "--shared").code == 0
    local = edgar("--root", str(tmp_path), "install", "claude-code")
    assert local.out.splitlines()[-2] == (
        "note: .claude/settings.json runs edgar's hooks too (an earlier install put them there), so each "
        f"would run twice; take them out with: {program()} install claude-code --shared --uninstall"
    )
    assert edgar("--root", str(tmp_path), "--json", "install", "claude-code").json()["also_in"] == (
        ".claude/settings.json"
    )
    local_out = edgar("--root", str(tmp_path), "install", "claude-code", "--uninstall").out
    assert local_out.splitlines()[-1] == (
        "note: .claude/settings.json still runs edgar's hooks; take them out with: "
        f"{program()} install claude-code --shared --uninstall"
    )
    edgar("--root", str(tmp_path), "install", "claude-code", "--shared", "--uninstall")
    assert "note:" not in edgar("--root", str(tmp_path), "install", "claude-code").out


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_install_says_when_git_would_commit_the_local_file(tmp_path, edgar, monkeypatch):
    subprocess.run(["git", "-C", str(tmp_path), "init", "-q"], check=True, timeout=30)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no global git ignore of the person's own
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "home" / ".config"))
    first = edgar("--root", str(tmp_path), "install", "claude-code")
    assert "note: git does not ignore .claude/settings.local.json here" in first.out
    assert first.out.count("note:") == 1
    edgar("--root", str(tmp_path), "install", "claude-code", "--uninstall")
    (tmp_path / ".gitignore").write_text(".claude/settings.local.json\n")
    assert "git does not ignore" not in edgar("--root", str(tmp_path), "install", "claude-code").out


# The real Claude Code CLI, offline against a scripted Messages API on loopback (the model is the
# only stand-in): it reads the settings install writes, and a hook edgar cannot start costs nothing.

needs_claude = pytest.mark.skipif(
    claude_binary() is None,
    reason="needs the Claude Code CLI on PATH: npm install @anthropic-ai/claude-code (.ci/run does)",
)


def hooks_that_ran(debug_log: str) -> dict[str, str]:
    """Each hook event and how Claude Code says it ended (`success`, `error`, ...), from its debug log."""
    found = re.findall(r'"Hook (\w+)(?::\w+)? \(\1\) (\w+):', debug_log)
    return dict(found)


@needs_claude
def test_real_claude_code_runs_every_hook_with_exit_0_before_and_after_the_archive_moves(tmp_path, pyz):
    root, home = tmp_path / "project", tmp_path / "home"
    write_skills(root / ".claude" / "skills")
    write_skills(root / ".edgar" / "skills", ["gh-fix-ci"])  # one only edgar lists: SessionStart says it
    home.mkdir()
    archive = Path(shutil.copy(pyz, tmp_path / "edgar.pyz"))
    install_with(sys.executable, archive, root)
    prompt = "merge these two pdfs into one"
    with MessagesServer() as server:
        first = run_claude(prompt, cwd=root, home=home, server=server, debug_file=tmp_path / "first.log")
        assert first.returncode == 0, first.stderr
        # Claude Code read .claude/settings.local.json: the prompt hook's skill reached the model.
        assert "- `pdf` (project)" in json.dumps(server.requests[-1])
        assert hooks_that_ran((tmp_path / "first.log").read_text()) == dict.fromkeys(EVENTS, "success")
        archive.rename(tmp_path / "moved.pyz")
        asked = len(server.requests)
        second = run_claude(prompt, cwd=root, home=home, server=server, debug_file=tmp_path / "second.log")
    assert second.returncode == 0, second.stderr
    result = json.loads(second.stdout)
    assert result["is_error"] is False
    assert result["result"] == "Done."  # not "UserPromptSubmit operation blocked by hook"
    assert prompt in json.dumps(server.requests[asked:])  # the prompt reached the model
    log = (tmp_path / "second.log").read_text()
    assert hooks_that_ran(log) == dict.fromkeys(EVENTS, "success"), log
    rows = hook_problems(root)
    assert [row["hook"] for row in rows] == list(EVENTS)
    assert all(
        row["problem"].startswith("the hook command could not run edgar (exit status 2)") for row in rows
    )


@needs_claude
def test_real_claude_code_uninstall_leaves_the_settings_as_they_were(tmp_path, pyz):
    root, home = tmp_path / "project", tmp_path / "home"
    (root / ".claude").mkdir(parents=True)
    home.mkdir()
    local = root / ".claude" / "settings.local.json"
    local.write_bytes(b'{\n  "env": {"EDGAR_PROBE": "1"},\n  "hooks": {}\n}\n')
    install_with(sys.executable, pyz, root)
    with MessagesServer() as server:
        ran = run_claude("hello", cwd=root, home=home, server=server, debug_file=tmp_path / "with.log")
        assert ran.returncode == 0, ran.stderr
        assert set(hooks_that_ran((tmp_path / "with.log").read_text())) == {"Stop"}  # no skills: one line
        install_with(sys.executable, pyz, root, "--uninstall")
        assert local.read_bytes() == b'{\n  "env": {"EDGAR_PROBE": "1"},\n  "hooks": {}\n}\n'
        ran = run_claude("hello", cwd=root, home=home, server=server, debug_file=tmp_path / "without.log")
        assert ran.returncode == 0, ran.stderr
    log = (tmp_path / "without.log").read_text()
    assert hooks_that_ran(log) == {}
    assert "hook stop" not in log


@needs_claude
def test_real_claude_code_a_skill_offered_is_used_only_when_read_and_a_resume_adds_no_index(tmp_path, pyz):
    root, home = tmp_path / "project", tmp_path / "home"
    # Where Claude Code does not list them itself: edgar's index and shortlist name them.
    write_skills(root / ".edgar" / "skills")
    home.mkdir()
    install_with(sys.executable, pyz, root)
    prompt = "merge these two pdfs into one"
    index = "lists the skills available here"

    def pdf_stats():
        done = subprocess.run(
            [sys.executable, str(pyz), "--root", str(root), "--json", "skills", "stats", "pdf"],
            capture_output=True, text=True, timeout=60, check=True,
        )  # fmt: skip
        found = json.loads(done.stdout)
        return found["offered"], found["used"]

    with MessagesServer() as server:
        first = run_claude(prompt, cwd=root, home=home, server=server, debug_file=tmp_path / "first.log")
        assert first.returncode == 0, first.stderr
        assert "- `pdf` (project): read" in json.dumps(server.requests[-1])  # offered in the shortlist
        # The agent answered in text: the skill was offered, not used.
        assert pdf_stats() == (1, 0)
        # Resumed, the agent reads the skill's file through its shell.
        read = {"command": "cat .edgar/skills/pdf/SKILL.md", "description": "Read the skill"}
        server.script.append([{"type": "tool_use", "id": "toolu_01", "name": "Bash", "input": read}])
        session = json.loads(first.stdout)["session_id"]
        again = run_claude(
            prompt, cwd=root, home=home, server=server, debug_file=tmp_path / "again.log",
            args=("--resume", session),
        )  # fmt: skip
        assert again.returncode == 0, again.stderr
        # The resumed history holds the index its start gave it; the hook added no second copy.
        assert json.dumps(server.requests[-1]).count(index) == 1
    assert pdf_stats() == (2, 1)
    assert hook_problems(root) == []
    (transcript,) = (home / ".claude" / "projects").rglob(f"{session}.jsonl")
    dry = subprocess.run(
        [sys.executable, str(pyz), "--root", str(root), "--json", "learn", "--from", "claude-code",
         str(transcript), "--dry-run"],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    # Every record this version writes is one edgar knows.
    assert (json.loads(dry.stdout)["turn"]["skills"], json.loads(dry.stdout)["notes"]) == (["pdf"], [])


def test_a_venvs_python_is_named_by_the_real_one_so_deleting_the_venv_breaks_nothing(tmp_path, pyz):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    root = tmp_path / "project"
    write_skills(root / ".claude" / "skills")
    install_with(venv / "bin" / "python", pyz, root)
    (command,) = commands(settings(root), "UserPromptSubmit")
    assert command.startswith(f"{os.path.realpath(venv / 'bin' / 'python')} -I -S ")
    shutil.rmtree(venv)
    ran = run_as_claude_code(command, root, "UserPromptSubmit")
    assert ran.returncode == 0, ran.stderr
    assert "- `pdf` (project)" in json.loads(ran.stdout)["hookSpecificOutput"]["additionalContext"]
