"""Discovery over every scope, with precedence and shadowing; body shape outside fences."""

from __future__ import annotations

from pathlib import Path

import pytest
from skillfiles import write_skill

from edgar_min import layout as layouts
from edgar_min.layout import Layout
from edgar_min.skills.discovery import discover


@pytest.fixture
def layout(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    return Layout(root, tmp_path / "home")


def test_an_empty_project_has_no_skills(layout):
    index = discover(layout)
    assert index.skills == {}
    assert index.shadowed == []


def test_every_scope_is_read_with_its_origin(layout):
    write_skill(layout.skills, "a")
    write_skill(Path(layout.root) / ".agents" / "skills", "b")
    write_skill(Path(layout.root) / ".claude" / "skills", "c")
    write_skill(layout.user_skills, "d")
    write_skill(layout.learned, "e")
    index = discover(layout)
    assert {n: (s.origin, s.scope) for n, s in index.skills.items()} == {
        "a": ("hand", "project"),
        "b": ("hand", ".agents"),
        "c": ("hand", ".claude"),
        "d": ("hand", "user"),
        "e": ("learned", "learned"),
    }


def test_every_agents_folders_are_read_the_projects_first_then_the_persons(layout, monkeypatch, tmp_path):
    # Codex and Gemini CLI name their homes by variables; each is where that agent reads skills.
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    monkeypatch.setenv("GEMINI_CLI_HOME", str(tmp_path / "gemini-home"))
    write_skill(Path(layout.root) / ".codex" / "skills", "a")
    write_skill(Path(layout.root) / ".gemini" / "skills", "b")
    write_skill(tmp_path / "codex-home" / "skills", "c")
    write_skill(tmp_path / "gemini-home" / ".gemini" / "skills", "d")
    write_skill(tmp_path / "gemini-home" / ".agents" / "skills", "e")
    home = Path(layouts.person_home())  # a folder of the test's own (tests/conftest.py)
    write_skill(home / ".agents" / "skills", "f")
    write_skill(home / ".claude" / "skills", "g")
    write_skill(tmp_path / "codex-home" / "skills", "a", "the person's own copy")
    write_skill(home / ".codex" / "skills", "h")  # not Codex's home while CODEX_HOME is set
    index = discover(layout)
    assert {n: (s.origin, s.scope) for n, s in index.skills.items()} == {
        "a": ("hand", ".codex"),
        "b": ("hand", ".gemini"),
        "c": ("hand", "~/.codex"),
        "d": ("hand", "~/.gemini"),
        "e": ("hand", "~/.agents"),
        "f": ("hand", "~/.agents"),
        "g": ("hand", "~/.claude"),
    }
    assert [(lo.scope, w.scope) for lo, w in index.shadowed] == [("~/.codex", ".codex")]


def test_precedence_and_shadowing_are_reported_not_dropped(layout):
    write_skill(layout.learned, "x", "learned one")
    write_skill(layout.user_skills, "x", "user one")
    write_skill(Path(layout.root) / ".claude" / "skills", "x", "claude one")
    write_skill(layout.skills, "x", "project one")
    index = discover(layout)
    assert index.skills["x"].description == "project one"
    losers = [(lo.scope, w.scope) for lo, w in index.shadowed]
    assert losers == [(".claude", "project"), ("user", "project"), ("learned", "project")]
    assert index.owner("x").scope == "project"


def test_the_learned_folder_is_not_a_hand_skill_and_dotfolders_are_skipped(layout):
    write_skill(layout.learned, "y")
    write_skill(layout.skills, ".hidden")
    (Path(layout.skills) / "no-skill-md").mkdir(parents=True)
    index = discover(layout)
    assert list(index.skills) == ["y"]
    assert index.skills["y"].origin == "learned"


def test_a_folder_named_learned_elsewhere_is_reported(layout):
    write_skill(Path(layout.root) / ".agents" / "skills", "learned")
    index = discover(layout)
    assert "learned" not in index.skills
    assert any("reserved" in p for p in index.problems)


# --- a person's name is theirs, whatever the folder says ----------------------------------------


def _learn(layout, name):
    from skillfiles import BODY

    from edgar_min.learning.writer import Draft, Provenance, Target, write_learned

    return write_learned(
        layout, Draft(name, "Deploy the app.", BODY), Provenance("s-1", ("long",)), Target("learned")
    )


def test_a_skill_whose_name_differs_from_its_folder_lists_by_folder_and_owns_both(layout, edgar):
    from edgar_min.errors import Refused

    folder = Path(layout.root) / ".claude" / "skills" / "ops-notes"
    write_skill(folder.parent, "ops-notes")
    (folder / "SKILL.md").write_text("---\nname: deploy\ndescription: How we deploy.\n---\nSteps.\n")
    index = discover(layout)
    assert list(index.skills) == ["ops-notes"]
    assert index.owner("deploy") is index.skills["ops-notes"]
    assert index.owner("ops-notes") is index.skills["ops-notes"]
    assert "declares name 'deploy' but sits in folder 'ops-notes'" in index.skills["ops-notes"].warning
    for name in ("deploy", "ops-notes"):
        with pytest.raises(Refused, match="hand-authored skill of that name exists"):
            _learn(layout, name)
    assert not Path(layout.learned).exists()
    listed = edgar("--root", str(layout.root), "--json", "skills", "list").json()
    assert [(e["name"], e["description"]) for e in listed] == [("ops-notes", "How we deploy.")]
    assert "declares name 'deploy'" in listed[0]["warning"]


@pytest.mark.parametrize("kind", ["dangling link", "folder"])
def test_a_skill_file_that_cannot_be_read_still_keeps_its_name(layout, kind):
    from edgar_min.errors import Refused

    folder = Path(layout.root) / ".claude" / "skills" / "deploy"
    folder.mkdir(parents=True)
    if kind == "folder":
        (folder / "SKILL.md").mkdir()
    else:
        (folder / "SKILL.md").symlink_to(Path(layout.root) / "gone" / "SKILL.md")
    index = discover(layout)
    assert index.skills == {}
    assert index.owner("deploy") is not None
    assert any("deploy/SKILL.md: not a readable file" in p for p in index.problems)
    with pytest.raises(Refused, match="hand-authored skill of that name exists"):
        _learn(layout, "deploy")
    assert not Path(layout.learned).exists()


def test_a_learned_skill_does_not_claim_a_name_it_declares(layout):
    write_skill(layout.learned, "notes")
    (Path(layout.learned) / "notes" / "SKILL.md").write_text("---\nname: deploy\ndescription: x\n---\n")
    assert discover(layout).owner("deploy") is None


# A project's skills are read only inside the project; the person's own scope is theirs.


@pytest.fixture
def outside(tmp_path):
    """A skill outside the project, as a key or another project's file would be."""
    folder = tmp_path / "outside" / "notes"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\nname: notes\ndescription: Not this project's.\n---\n\nSecret.\n")
    return folder


@pytest.mark.parametrize("where", ["scope folder", "skill folder", "SKILL.md"])
def test_a_link_out_of_the_project_is_a_sentence_never_a_skill(layout, outside, where):
    scope = Path(layout.root) / ".claude" / "skills"
    if where == "scope folder":
        scope.parent.mkdir()
        scope.symlink_to(outside.parent, target_is_directory=True)
    elif where == "skill folder":
        scope.mkdir(parents=True)
        (scope / "notes").symlink_to(outside, target_is_directory=True)
    else:
        (scope / "notes").mkdir(parents=True)
        (scope / "notes" / "SKILL.md").symlink_to(outside / "SKILL.md")
    index = discover(layout)
    assert index.skills == {}
    (problem,) = index.problems
    assert "out of the project" in problem
    assert "a project's skills are read only inside it" in problem


def test_a_link_that_stays_in_the_project_is_followed(layout):
    shared = Path(layout.root) / "docs" / "skills"
    write_skill(shared, "notes")
    scope = Path(layout.root) / ".claude" / "skills"
    scope.mkdir(parents=True)
    (scope / "notes").symlink_to(shared / "notes", target_is_directory=True)
    (scope / "deploy").mkdir()
    write_skill(shared, "deploy-shared")
    (scope / "deploy" / "SKILL.md").symlink_to(shared / "deploy-shared" / "SKILL.md")
    index = discover(layout)
    assert sorted(index.skills) == ["deploy", "notes"]
    assert index.problems == []
    assert index.skills["notes"].frontmatter().body


def test_a_link_in_the_persons_own_scope_is_followed_wherever_it_leads(layout, outside):
    Path(layout.user_skills).mkdir(parents=True)
    (Path(layout.user_skills) / "notes").symlink_to(outside, target_is_directory=True)
    index = discover(layout)
    assert list(index.skills) == ["notes"]
    assert "Secret." in index.skills["notes"].frontmatter().body
