"""The one writer: every refusal a sentence, every write atomic and inside its folder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import tree_snapshot
from skillfiles import BODY, write_skill

from edgar_min.errors import Refused
from edgar_min.layout import Layout, agent_user_skills
from edgar_min.learning.writer import (
    MAX_BODY_CHARS,
    Draft,
    Provenance,
    Target,
    render_skill,
    write_learned,
)
from edgar_min.skills.frontmatter import parse_skill
from edgar_min.skills.validation import validate_file


@pytest.fixture
def layout(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    return Layout(root, tmp_path / "home")


def write(layout, name="pin-bump-with-lockfile", body=BODY, to="proposal", patch=False, **kw):
    draft = Draft(name, kw.pop("description", "Bump a pin and refresh the lock file."), body)
    return Path(write_learned(layout, draft, Provenance("s-1", ("recovered",)), Target(to, patch), **kw))


def test_a_proposal_lands_in_proposals_with_provenance_and_validates(layout):
    path = write(layout)
    assert path == Path(layout.proposals) / "pin-bump-with-lockfile" / "SKILL.md"
    parsed = parse_skill(path.read_text())
    assert parsed.data["name"] == "pin-bump-with-lockfile"
    meta = parsed.data["metadata"]
    assert (meta["learned"], meta["session"], meta["trigger"]) == ("true", "s-1", "recovered")
    assert meta["created"].endswith("Z")
    assert validate_file(path) == []


def test_learned_lands_in_learned(layout):
    path = write(layout, to="learned")
    assert path == Path(layout.learned) / "pin-bump-with-lockfile" / "SKILL.md"
    assert validate_file(path) == []


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (BODY.replace("## Pitfalls", "## Gotchas"), "missing section(s): Pitfalls"),
        ("## When to use\n\nx\n", "missing section(s): Procedure, Pitfalls, Verification"),
        (
            "## Procedure\n\nx\n## When to use\n\nx\n## Pitfalls\n\nx\n## Verification\n\nx\n",
            "sections out of order",
        ),
        (
            BODY.replace("- The tests fail until the lock file is refreshed.", ""),
            "section 'Pitfalls' is empty",
        ),
        ("```\n" + BODY + "```\n", "missing section(s): When to use, Procedure, Pitfalls, Verification"),
        (BODY.replace("## Verification", "```\n## Verification\n```"), "missing section(s): Verification"),
        (BODY + "x" * MAX_BODY_CHARS, "the limit is"),
        (BODY + "\x00", "control character ('\\x00') on its line"),
        (
            BODY + "Then \x1b[31mred\x1b[0m.\n",
            f"control character ('\\x1b') on its line {BODY.count(chr(10)) + 1};",
        ),
        (BODY.replace("## Pitfalls", "\x1b]0;title\x07## Pitfalls"), "control character ('\\x1b')"),
        ("\x1b[2J" + BODY, "control character ('\\x1b') on its line 1;"),
        (BODY + "a one-character CSI \x9b2J\n", "control character ('\\x9b')"),
    ],
)
def test_a_body_out_of_shape_is_refused_and_nothing_is_written(layout, body, words):
    before = tree_snapshot(layout.root)
    with pytest.raises(Refused) as err:
        write(layout, body=body)
    assert err.value.message.startswith("refused pin-bump-with-lockfile: ")
    assert words in err.value.message
    assert tree_snapshot(layout.root) == before


@pytest.mark.parametrize(
    "name",
    [
        "../x",
        "a/b",
        "..",
        ".hidden",
        "Upper",
        "has space",
        "x" * 65,
        "-lead",
        "trail-",
        "dou--ble",
        "",
        "learned",
        "a\\b",
        "ä",
        "x\n",
    ],
)
def test_hostile_names_are_refused_and_nothing_is_written(layout, name):
    before = tree_snapshot(Path(layout.root).parent)
    with pytest.raises(Refused) as err:
        write(layout, name=name)
    assert err.value.message.startswith("refused ")
    assert tree_snapshot(Path(layout.root).parent) == before


SCOPES = [
    "project",
    ".agents",
    ".claude",
    ".codex",
    ".gemini",
    "user",
    "~/.agents",
    "~/.claude",
    "~/.codex",
    "~/.gemini",
]


@pytest.mark.parametrize("scope", SCOPES)
@pytest.mark.parametrize("to", ["proposal", "learned"])
def test_a_name_a_person_owns_is_never_taken(layout, scope, to):
    # A person's skill in any agent's folder, the project's or their home's, keeps its name.
    folder = {
        "project": layout.skills,
        "user": layout.user_skills,
        **dict(layout.agent_project_skills),
        **dict(agent_user_skills()),
    }[scope]
    write_skill(folder, "pin-bump-with-lockfile")
    with pytest.raises(Refused, match="hand-authored skill of that name exists"):
        write(layout, to=to)
    assert not Path(layout.proposals).exists()
    assert not Path(layout.learned).exists()


def test_a_patch_to_a_persons_skill_may_be_proposed_but_never_learned(layout):
    write_skill(layout.skills, "pin-bump-with-lockfile")
    path = write(layout, patch=True)
    assert path.parent.parent == Path(layout.proposals)
    assert parse_skill(path.read_text()).data["metadata"]["patch_of"] == "pin-bump-with-lockfile"
    with pytest.raises(Refused):
        write(layout, patch=True, to="learned")


def test_a_new_skill_never_overwrites_a_learned_one_but_a_patch_does(layout):
    write(layout, to="learned")
    with pytest.raises(Refused, match="is a patch"):
        write(layout, to="learned")
    path = write(layout, to="learned", patch=True, description="A better description.")
    assert "A better description." in path.read_text()


def test_descriptions_are_folded_onto_one_line_and_quoted_when_needed(layout):
    tricky = 'Use when: "x" # not a comment\n---\nname: evil'
    path = write(layout, description=tricky)
    data = parse_skill(path.read_text()).data
    assert data["name"] == "pin-bump-with-lockfile"
    assert data["description"] == 'Use when: "x" # not a comment --- name: evil'
    assert set(data) == {"name", "description", "metadata"}


@pytest.mark.parametrize("description", ["", "   ", "x" * 1025])
def test_a_bad_description_is_refused(layout, description):
    with pytest.raises(Refused, match="description"):
        write(layout, description=description)


def test_render_skill_matches_the_design_layout():
    text = render_skill(
        Draft(
            "pin-bump-with-lockfile",
            "Bump a dependency pin and refresh the lock file so the test suite passes.",
            BODY,
        ),
        Provenance(session="s-20261130-1", triggers=("recovered",), created="2026-11-30T09:00:00Z"),
    )
    assert text.startswith(
        "---\nname: pin-bump-with-lockfile\n"
        "description: Bump a dependency pin and refresh the lock file so the test suite passes.\n"
        'metadata:\n  learned: "true"\n  session: "s-20261130-1"\n  trigger: "recovered"\n'
        '  created: "2026-11-30T09:00:00Z"\n---\n\n## When to use\n'
    )


CRASHER = textwrap.dedent(
    """
    import os, sys, time
    sys.path.insert(0, {repo!r})
    import edgar_min.atomic as atomic
    real_write = os.write
    def slow_write(fd, data):
        # Write half, tell the parent, and hang until killed.
        n = real_write(fd, bytes(data[: len(data) // 2]))
        print("HALF", flush=True)
        time.sleep(60)
        return n
    atomic.os.write = slow_write
    from pathlib import Path
    from edgar_min.layout import Layout
    from edgar_min.learning.writer import Draft, Provenance, Target, write_learned
    body = open({body!r}).read()
    draft = Draft("pin-bump", "A new description.", body)
    write_learned(Layout(Path({root!r}), Path({root!r}) / "home"), draft, Provenance("s-2", ("long",)),
                  Target("learned", patch=True))
    """
)


def test_a_writer_killed_mid_write_leaves_the_old_file_or_nothing(layout, tmp_path):
    repo = str(__import__("pathlib").Path(__file__).resolve().parents[1])
    body_file = tmp_path / "body.md"
    body_file.write_text(BODY.replace("3. Run the tests.", "3. Run the tests. " + "Then check again. " * 600))
    for existing in (False, True):
        if existing:
            old = write(layout, name="pin-bump", to="learned")
            old_text = old.read_text()
        script = CRASHER.format(repo=repo, body=str(body_file), root=str(layout.root))
        proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "HALF"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        target = Path(layout.learned) / "pin-bump" / "SKILL.md"
        if existing:
            assert target.read_text() == old_text
        else:
            assert not target.exists()
        # No half-written SKILL.md anywhere; only a hidden temp file may be left.
        for path in Path(layout.learned).rglob("SKILL.md"):
            assert validate_file(path) == []


# --- what the writer renders reads back, here and in the reference validator --------------------

# Among the most common last prompts of real sessions, and words YAML reads as something else.
EVERYDAY = ["yes", "no", "null", "true", "123", "2026", "0777", "2024-01-31", "1e3", "y"]


@pytest.mark.parametrize("name", EVERYDAY)
def test_a_name_yaml_would_read_as_something_else_is_written_quoted(layout, name):
    path = write(layout, name=name, description=name)
    parsed = parse_skill(path.read_text())
    assert parsed.data["name"] == name
    assert parsed.data["description"] == name
    assert f'name: "{name}"\n' in path.read_text()
    assert validate_file(path) == []


def test_the_frontmatter_never_holds_three_dashes(layout):
    path = write(layout, description="Fix it --- then ---- run --- again")
    frontmatter, _ = path.read_text().removeprefix("---\n").split("\n---\n", 1)
    assert "---" not in frontmatter
    assert parse_skill(path.read_text()).data["description"] == "Fix it --- then ---- run --- again"


def test_every_file_edgar_writes_passes_the_reference_validator(layout):
    skills_ref = pytest.importorskip("skills_ref", reason="skills-ref (the dev extra) is not installed")
    from edgar_min.learning.lifecycle import accept, restore

    checked = []

    def check(path):
        path = Path(path)
        assert skills_ref.validate(path.parent) == [], path.read_text()
        checked.append(path)

    for name in EVERYDAY:  # proposals
        check(write(layout, name=name, description=f"Handle '{name}' --- again: it #matters"))
    check(accept(layout, "yes"))  # accepted into learned/
    other = BODY.replace("dependency pin", "release tag").replace("lock file", "changelog entry")
    other = other.replace("pin", "tag").replace("lock", "notes").replace("tests", "linters")
    check(write(layout, name="release-tag", body=other, to="learned", description="Tag a release."))
    check(write(layout, name="release-tag", body=other, to="learned", patch=True, description="Tag it."))
    check(write(layout, name="release-tag", body=other, patch=True, description="A proposed patch."))
    restore(layout, "release-tag")
    check(Path(layout.learned) / "release-tag" / "SKILL.md")  # restored
    write_skill(layout.skills, "deploy")
    check(write(layout, name="deploy", patch=True, description="A patch to a person's skill."))
    assert len(checked) == len(EVERYDAY) + 6
