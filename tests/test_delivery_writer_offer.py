"""`install claude-code` sets the person's own agent as the model that writes skills, and undoes it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from edgar_min.config import load_config
from edgar_min.layout import Layout


@pytest.fixture
def agent_on_path(tmp_path, monkeypatch):
    """A `claude` program on PATH (install only finds it; nothing here runs it)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    program = folder / "claude"
    program.write_text("#!/bin/sh\nexit 3\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}/usr/bin:/bin")
    return program


def person_config() -> Path:
    return Path(os.environ["EDGAR_HOME"]) / "config.toml"


def model_of(root):
    return load_config(Layout(str(root), os.environ["EDGAR_HOME"]), environ={}).model


def test_install_sets_the_agent_as_the_writer_says_so_and_how_to_undo_it(tmp_path, edgar, agent_on_path):
    done = edgar("--root", str(tmp_path), "install", "claude-code")
    assert done.code == 0, done
    (line,) = [line for line in done.out.splitlines() if line.startswith("skills:")]
    assert f"written by claude-code headless ({agent_on_path}, no tools" in line
    assert line.endswith("keep the offline writer instead: edgar install claude-code --offline-writer")
    model = model_of(tmp_path)
    assert (model.provider, model.command) == ("claude-code", (str(agent_on_path),))
    before = person_config().read_bytes()
    again = edgar("--root", str(tmp_path), "install", "claude-code")
    assert "skills: written by claude-code headless, as" in again.out
    assert person_config().read_bytes() == before
    undone = edgar("--root", str(tmp_path), "install", "claude-code", "--offline-writer")
    assert "skills: the offline writer again" in undone.out
    assert not person_config().exists()  # install made it, and nothing else was in it
    assert model_of(tmp_path).provider == "offline"


def test_undo_leaves_the_persons_own_lines_as_they_were(tmp_path, edgar, agent_on_path):
    mine = b'# my settings\n[skills]\nsynthesis = "propose"\n'
    person_config().write_bytes(mine)
    assert edgar("--root", str(tmp_path), "install", "claude-code").code == 0
    assert person_config().read_bytes().startswith(mine)
    assert model_of(tmp_path).provider == "claude-code"
    assert edgar("--root", str(tmp_path), "install", "claude-code", "--offline-writer").code == 0
    assert person_config().read_bytes() == mine


@pytest.mark.parametrize(
    "mine", ['[model]\nprovider = "offline"\n', "[model]\ntimeout_s = 30\n", '[model]\nprovider = "openai"\n']
)
def test_a_model_the_person_configured_is_never_touched(tmp_path, edgar, agent_on_path, mine):
    person_config().write_text(mine)
    for flags in ((), ("--offline-writer",)):
        done = edgar("--root", str(tmp_path), "install", "claude-code", *flags)
        assert done.code == 0, done
        assert ("skills:" in done.out) == (flags != () and "openai" not in mine)  # said only of offline
        assert person_config().read_text() == mine


def test_dry_run_and_declining_write_nothing(tmp_path, edgar, agent_on_path):
    dry = edgar("--root", str(tmp_path), "install", "claude-code", "--dry-run")
    assert "dry run, nothing written: skills: written by claude-code headless" in dry.out
    assert not person_config().exists()
    declined = edgar("--root", str(tmp_path), "install", "claude-code", "--offline-writer")
    assert "skills: written by the offline writer (nothing set)" in declined.out
    assert not person_config().exists()
    assert (tmp_path / ".claude" / "settings.local.json").is_file()  # the hooks went in all the same


def test_without_the_agent_on_path_the_offline_writer_stays(tmp_path, edgar, monkeypatch):
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    done = edgar("--root", str(tmp_path), "install", "claude-code")
    assert "skills: written by the offline writer ('claude' is not on PATH to write them)" in done.out
    assert not person_config().exists()


def test_json_says_what_install_did_about_the_writer(tmp_path, edgar, agent_on_path):
    doc = edgar("--root", str(tmp_path), "--json", "install", "claude-code").json()
    assert doc["writer"]["action"] == "set"
    assert doc["writer"]["program"] == str(agent_on_path)
    assert doc["writer"]["path"] == str(person_config())
