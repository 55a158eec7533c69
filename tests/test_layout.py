"""Where edgar keeps things: the project's record in its tree, a person's derived data in their own folder."""

from __future__ import annotations

import json
import os
import stat

from conftest import state_of
from suggestfiles import write_skills
from transcripts import SESSION, stdin_bytes

from edgar_min.layout import Layout, project_id


def test_two_projects_get_different_state_folders_a_person_can_tell_apart(tmp_path):
    home = tmp_path / "home"
    first, second = tmp_path / "work" / "api", tmp_path / "work" / "web"
    # Paths that read alike once made into a name still get folders of their own.
    dashed, nested = tmp_path / "a" / "b-c", tmp_path / "a" / "b" / "c"
    for folder in (first, second, dashed, nested):
        folder.mkdir(parents=True)
    states = {Layout(p, home).state for p in (first, second, dashed, nested)}
    assert len(states) == 4
    for state in states:
        assert os.path.dirname(state) == str(home / "projects")
    assert "-work-api-" in os.path.basename(Layout(first, home).state)
    assert "-a-b-c-" in os.path.basename(Layout(dashed, home).state)


def test_a_project_reached_through_a_link_has_the_one_state_folder(tmp_path):
    real = tmp_path / "src" / "proj"
    real.mkdir(parents=True)
    (tmp_path / "proj-link").symlink_to(real, target_is_directory=True)
    home = tmp_path / "home"
    assert Layout(tmp_path / "proj-link", home).state == Layout(real, home).state


def test_a_state_folders_name_is_whole_words_and_never_hidden(tmp_path):
    deep = tmp_path / ("x" * 30) / "a-very-long-folder-name-for-a-project" / ".hidden"
    name = project_id(str(deep))
    assert not name.startswith((".", "-"))
    assert name.startswith("a-very-long-folder-name-for-a-project-.hidden-")
    assert project_id("/").startswith("root-")


def test_derived_data_is_written_outside_the_project_into_a_folder_only_its_person_can_read(
    tmp_path, edgar, monkeypatch
):
    root = tmp_path / "proj"
    write_skills(root / ".claude" / "skills")
    (root / ".edgar").mkdir()
    payload = {"session_id": SESSION, "hook_event_name": "UserPromptSubmit", "prompt": "merge two pdfs"}
    stdin_bytes(monkeypatch, json.dumps(payload).encode())
    assert edgar("--root", str(root), "hook", "user-prompt-submit").code == 0
    assert edgar("--root", str(root), "skills", "teach", "pdf", "rotate the scanned pages").code == 0
    state = state_of(root)
    assert (state / "suggestions" / f"{SESSION}.jsonl").is_file()
    assert (state / "routing-examples.jsonl").is_file()
    for old in ("cache", "suggestions", "routing-examples.jsonl", "rejected"):
        assert not (root / ".edgar" / old).exists()
    for folder in (state, state.parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
