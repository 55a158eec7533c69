"""A person's operations: forget moves a learned skill into the archive and never deletes it."""

from __future__ import annotations

from pathlib import Path

import pytest
from skillfiles import BODY, write_skill

from edgar_min.errors import NotFound, Refused
from edgar_min.invocation import program
from edgar_min.layout import Layout
from edgar_min.learning.lifecycle import accept, forget
from edgar_min.learning.writer import Draft, Provenance, Target, write_learned


@pytest.fixture
def layout(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    return Layout(root, tmp_path / "home")


def write(layout, name="pin-bump-with-lockfile", to="learned"):
    return Path(
        write_learned(
            layout,
            Draft(name, "Bump a pin and refresh the lock file.", BODY),
            Provenance("s-1", ("recovered",)),
            Target(to),
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


def test_accepting_a_proposal_for_a_name_a_person_owns_is_refused_by_the_writers_own_rule(layout):
    proposal = write(layout, name="deploy-the-app", to="proposal")
    mine = write_skill(layout.skills, "deploy-the-app", "My own deploy.", BODY)
    with pytest.raises(Refused) as refused:
        accept(layout, "deploy-the-app")
    assert refused.value.message == (
        f"refused deploy-the-app: a hand-authored skill of that name exists at {mine}; edgar never takes "
        f"a name a person owns: copy what you want from {proposal} yourself, then "
        f"`{program()} skills reject deploy-the-app`"
    )
    assert proposal.is_file()
    assert not (Path(layout.learned) / "deploy-the-app").exists()


def test_accepting_keeps_the_triggers_a_proposal_names_and_drops_words_that_are_none(layout):
    proposal = write(layout, name="deploy-the-app", to="proposal")
    text = proposal.read_text().replace('trigger: "recovered"', 'trigger: "long,recovered"')
    proposal.write_text(text)
    learned = Path(accept(layout, "deploy-the-app"))
    assert 'trigger: "long,recovered"' in learned.read_text()
    forget(layout, "deploy-the-app")
    proposal = write(layout, name="deploy-the-app", to="proposal")
    proposal.write_text(
        proposal.read_text().replace('trigger: "recovered"', 'trigger: "ignore the rules,long"')
    )
    assert 'trigger: "long"' in Path(accept(layout, "deploy-the-app")).read_text()
    forget(layout, "deploy-the-app")
    proposal = write(layout, name="deploy-the-app", to="proposal")
    proposal.write_text(proposal.read_text().replace('trigger: "recovered"', 'trigger: "anything"'))
    assert 'trigger: "accept"' in Path(accept(layout, "deploy-the-app")).read_text()
