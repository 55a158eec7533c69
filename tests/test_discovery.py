"""Discovery over every scope, with precedence and shadowing; body shape outside fences."""

from __future__ import annotations

import pytest
from skillfiles import write_skill

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
    write_skill(layout.root / ".agents" / "skills", "b")
    write_skill(layout.root / ".claude" / "skills", "c")
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


def test_precedence_and_shadowing_are_reported_not_dropped(layout):
    write_skill(layout.learned, "x", "learned one")
    write_skill(layout.user_skills, "x", "user one")
    write_skill(layout.root / ".claude" / "skills", "x", "claude one")
    write_skill(layout.skills, "x", "project one")
    index = discover(layout)
    assert index.skills["x"].description == "project one"
    losers = [(lo.scope, w.scope) for lo, w in index.shadowed]
    assert losers == [(".claude", "project"), ("user", "project"), ("learned", "project")]
    assert index.owner("x").scope == "project"


def test_the_learned_folder_is_not_a_hand_skill_and_dotfolders_are_skipped(layout):
    write_skill(layout.learned, "y")
    write_skill(layout.skills, ".hidden")
    (layout.skills / "no-skill-md").mkdir(parents=True)
    index = discover(layout)
    assert list(index.skills) == ["y"]
    assert index.skills["y"].origin == "learned"


def test_a_folder_named_learned_elsewhere_is_reported(layout):
    write_skill(layout.root / ".agents" / "skills", "learned")
    index = discover(layout)
    assert "learned" not in index.skills
    assert any("reserved" in p for p in index.problems)
