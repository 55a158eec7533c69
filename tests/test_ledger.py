"""The change ledger: one row per change, every version kept, restore through the writer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import tree_snapshot
from skillfiles import BODY, write_skill

from edgar_min.config import load_config
from edgar_min.controller.gate import Gate
from edgar_min.errors import NotFound, Refused
from edgar_min.layout import Layout
from edgar_min.learning.ledger import read_ledger, sha256_text, version_text
from edgar_min.learning.lifecycle import accept, forget, reject, restore
from edgar_min.learning.writer import Draft, Provenance, Target, write_learned

NAME = "pin-bump-with-lockfile"


@pytest.fixture
def layout(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    return Layout(root, tmp_path / "home")


def write(
    layout,
    body=BODY,
    to="learned",
    patch=False,
    name=NAME,
    description="Bump a pin and refresh the lock file.",
):
    draft = Draft(name, description, body)
    return Path(write_learned(layout, draft, Provenance("s-1", ("recovered",)), Target(to, patch)))


def test_a_write_and_a_patch_each_append_a_row_and_keep_both_texts(layout):
    first = write(layout).read_text()
    second = write(layout, BODY + "\nOne more line.\n", patch=True).read_text()
    rows = read_ledger(layout).rows
    assert [(r.actor, r.action, r.name, r.place) for r in rows] == [
        ("gate", "write", NAME, "learned"),
        ("gate", "patch", NAME, "learned"),
    ]
    assert (rows[0].before, rows[0].after) == (None, sha256_text(first))
    assert (rows[1].before, rows[1].after) == (sha256_text(first), sha256_text(second))
    assert (rows[1].session, rows[1].trigger) == ("s-1", "recovered")
    assert rows[1].time.endswith("Z")
    assert (Path(layout.versions) / sha256_text(first)).read_text() == first
    assert (Path(layout.versions) / sha256_text(second)).read_text() == second


def test_accept_reject_and_archive_rows_are_the_persons(layout):
    write(layout, to="proposal")
    accept(layout, NAME)
    keys = BODY.replace(
        "1. Change the pin.\n2. Refresh the lock file.\n3. Run the tests.", "1. Rotate the signing keys."
    )
    write(layout, name="other-proposal", body=keys, description="Rotate signing keys.", to="proposal")
    reject(layout, "other-proposal")
    forget(layout, NAME)
    rows = read_ledger(layout).rows
    assert [(r.actor, r.action, r.place) for r in rows] == [
        ("gate", "write", "proposal"),
        ("person", "accept", "learned"),
        ("gate", "write", "proposal"),
        ("person", "reject", "proposal"),
        ("person", "archive", "learned"),
    ]
    assert rows[3].after is None
    assert rows[4].before == rows[1].after
    assert rows[4].after is None


def test_restore_undoes_a_patch_and_brings_back_an_archived_skill(layout):
    path = write(layout)
    first = path.read_text()
    write(layout, BODY + "\nA worse line.\n", patch=True)
    digest, back = restore(layout, NAME)
    back = Path(back)
    assert digest == sha256_text(first)
    assert back.read_text().count("A worse line") == 0
    assert read_ledger(layout).rows[-1].action == "restore"
    assert read_ledger(layout).rows[-1].actor == "person"
    forget(layout, NAME)
    assert not path.exists()
    restore(layout, NAME)
    assert path.is_file()
    assert "A worse line" not in path.read_text()


def test_restore_to_a_hash_prefix(layout):
    first = write(layout).read_text()
    write(layout, BODY + "\nSecond.\n", patch=True)
    write(layout, BODY + "\nThird.\n", patch=True)
    digest, path = restore(layout, NAME, to=sha256_text(first)[:10])
    path = Path(path)
    assert digest == sha256_text(first)
    # Session, trigger and creation time come back too: the text is the first one, patch mark aside.
    assert path.read_text().replace('  patch_of: "pin-bump-with-lockfile"\n', "") == first


@pytest.mark.parametrize(
    ("to", "words"),
    [
        ("0123456789abcdef", "no version 0123456789abcdef of pin-bump-with-lockfile in the ledger"),
        ("xyz", "is not a version hash"),
        ("abc", "is not a version hash"),
    ],
)
def test_restore_to_an_unknown_hash_is_refused_and_writes_nothing(layout, to, words):
    write(layout)
    before = tree_snapshot(layout.root)
    with pytest.raises(NotFound, match=words):
        restore(layout, NAME, to=to)
    assert tree_snapshot(layout.root) == before


def test_restore_with_nothing_earlier_or_an_unknown_name_is_refused(layout):
    write(layout)
    with pytest.raises(Refused, match="has no earlier version"):
        restore(layout, NAME)
    with pytest.raises(NotFound, match="no changes to a learned skill named never-seen"):
        restore(layout, "never-seen")
    with pytest.raises(NotFound):
        restore(layout, "../../etc")


def test_restore_goes_through_the_writer_so_a_persons_name_stays_theirs(layout):
    write(layout)
    forget(layout, NAME)
    write_skill(layout.skills, NAME, "Now a person's skill.", BODY)
    before = tree_snapshot(layout.root)
    with pytest.raises(Refused, match="hand-authored"):
        restore(layout, NAME)
    assert tree_snapshot(layout.root) == before


def test_a_changed_version_copy_is_refused(layout):
    first = write(layout).read_text()
    write(layout, BODY + "\nSecond.\n", patch=True)
    (Path(layout.versions) / sha256_text(first)).write_text(first + "\nInjected line.\n")
    with pytest.raises(Refused, match="has been changed"):
        version_text(layout, NAME, sha256_text(first))


def test_torn_and_garbage_ledger_lines_are_skipped_and_counted(layout):
    write(layout)
    with Path(layout.ledger).open("ab") as f:
        f.write(b"garbage\n")
        f.write(b'{"time": "x", "actor": "robot", "action": "write", "name": "a", "place": "learned", '
                b'"session": "", "trigger": "", "before": null, "after": null}\n')  # fmt: skip
        f.write(b"[1, 2]\n\n")
    write(layout, BODY + "\nSecond.\n", patch=True)
    with Path(layout.ledger).open("ab") as f:
        f.write(b'{"time": "2026-')
    ledger = read_ledger(layout)
    assert ledger.torn == 4
    assert [r.action for r in ledger.rows] == ["write", "patch"]
    assert read_ledger(layout, "other").rows == []


def test_rows_are_single_json_lines(layout):
    write(layout)
    (line,) = Path(layout.ledger).read_text().splitlines()
    row = json.loads(line)
    assert set(row) == {"time", "actor", "action", "name", "place", "session", "trigger", "before", "after"}


def test_the_gate_and_distill_are_named_as_actors(layout):
    config = load_config(layout, overrides=["skills.synthesis=auto"])
    gate = Gate(layout, config)
    gate.apply(Draft(NAME, "Bump a pin.", BODY), Provenance("s-1", ("long",)), verified=True)
    better = Draft(NAME, "Bump a pin.", BODY + "\nBetter.\n")
    gate.apply(better, Provenance("s-2", ("distill",), actor="distill"), verified=True, patch=True)
    rows = read_ledger(layout).rows
    assert [(r.actor, r.action, r.place) for r in rows] == [
        ("gate", "write", "learned"),
        ("distill", "patch", "learned"),
    ]


def test_the_vocabularies_are_the_words_of_their_types():
    # The types live only for type checkers (typing is kept off the per-turn imports), so the
    # tuples that the checks use at run time are spelled out: they must say the same words.
    import ast
    import re
    from pathlib import Path

    from edgar_min.learning import ledger

    source = Path(ledger.__file__).read_text()
    for alias, words in (("Actor", ledger.ACTORS), ("Action", ledger.ACTIONS), ("Place", ledger.PLACES)):
        declared = re.search(rf"^    {alias} = Literal\[(.*)\]$", source, re.MULTILINE).group(1)
        assert ast.literal_eval(f"({declared},)") == words
