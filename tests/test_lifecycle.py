"""A person's operations: forget moves a learned skill into the archive and never deletes it."""

from __future__ import annotations

from pathlib import Path

import pytest
from skillfiles import BODY, write_skill

from edgar_min.errors import NotFound, Refused
from edgar_min.layout import Layout
from edgar_min.learning.lifecycle import forget
from edgar_min.learning.writer import write_learned


@pytest.fixture
def layout(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    return Layout(root, tmp_path / "home")


def write(layout, name="pin-bump-with-lockfile", to="learned"):
    return Path(
        write_learned(
            layout,
            name,
            "Bump a pin and refresh the lock file.",
            BODY,
            session="s-1",
            trigger="recovered",
            to=to,
        )
    )


def test_forget_moves_a_learned_skill_and_never_deletes(layout):
    path = write(layout, to="learned")
    text = path.read_text()
    moved = Path(forget(layout, "pin-bump-with-lockfile"))
    assert not path.exists()
    assert moved.parent == Path(layout.archive)
    assert (moved / "SKILL.md").read_text() == text


def test_forget_refuses_a_persons_skill_and_unknown_names(layout):
    write_skill(layout.skills, "mine")
    with pytest.raises(Refused, match="hand-authored"):
        forget(layout, "mine")
    assert (Path(layout.skills) / "mine" / "SKILL.md").exists()
    with pytest.raises(NotFound):
        forget(layout, "nothing-here")
    with pytest.raises(NotFound):
        forget(layout, "../../etc")
