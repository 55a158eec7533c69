"""Writes reach their place from the root without following a link; a link or a misplaced file is refused.

A hostile checkout can commit symbolic links where edgar keeps its own files. Every case here
builds such a checkout in `tmp_path`, with an `outside` folder standing for the person's own
files (`~/.claude/skills`, `~/.bashrc`), and shows that edgar refuses with a sentence naming the
link, leaves the outside untouched and writes nothing partial.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from conftest import tree_snapshot
from hypothesis import given, settings
from hypothesis import strategies as st
from skillfiles import BODY

from edgar_min import atomic
from edgar_min.errors import Refused
from edgar_min.layout import Layout
from edgar_min.learning.ledger import read_ledger
from edgar_min.learning.lifecycle import forget
from edgar_min.learning.writer import Draft, Provenance, Target, write_learned

RECOVERED = {
    "prompt": "bump the httpx pin",
    "tools": ["shell", "edit", "shell"],
    "errors": [{"tool": "shell", "kind": "nonzero_exit", "exit_code": 1, "program": "pytest"}],
    "verification": "passed",
}
PERSONS_SKILL = f"---\nname: deploy\ndescription: How I deploy.\n---\n\n{BODY}"


@pytest.fixture
def root(tmp_path):
    r = tmp_path / "proj"
    (r / ".edgar").mkdir(parents=True)
    return r


@pytest.fixture
def outside(tmp_path):
    """The person's own files, outside the project: nothing may change here."""
    o = tmp_path / "outside"
    (o / "deploy").mkdir(parents=True)
    (o / "deploy" / "SKILL.md").write_text(PERSONS_SKILL)
    (o / "deploy" / "notes.txt").write_text("mine")
    (o / "bashrc").write_text("export PATH=/usr/bin\n")
    return o


def turn_file(root, data=RECOVERED):
    path = root.parent / "turn.json"
    path.write_text(json.dumps(data))
    return str(path)


def link(place: Path, target: Path) -> None:
    place, target = Path(place), Path(target)
    place.parent.mkdir(parents=True, exist_ok=True)
    place.symlink_to(target, target_is_directory=target.is_dir())


# The primitives, both ways: with O_NOFOLLOW and dir_fd (POSIX), and the lstat walk used where
# those are missing.


@pytest.fixture
def walk_mode(request, monkeypatch):
    if request.param == "lstat":
        monkeypatch.setattr(atomic, "_FD_WALK", False)
    return request.param


both_walks = pytest.mark.parametrize("walk_mode", ["dir_fd", "lstat"], indirect=True)


@both_walks
@pytest.mark.usefixtures("walk_mode")
def test_write_text_refuses_a_link_on_the_way_and_at_the_end(root, outside):
    link(root / ".edgar" / "proposals", outside)
    before = tree_snapshot(outside)
    with pytest.raises(Refused, match=r"\.edgar/proposals is a symbolic link"):
        atomic.write_text(root / ".edgar" / "proposals" / "x" / "SKILL.md", "x", root=root)
    link(root / ".edgar" / "notes.md", outside / "bashrc")
    with pytest.raises(Refused, match=r"\.edgar/notes\.md is a symbolic link"):
        atomic.write_text(root / ".edgar" / "notes.md", "x", root=root)
    assert tree_snapshot(outside) == before
    assert (root / ".edgar" / "notes.md").is_symlink()


@both_walks
@pytest.mark.usefixtures("walk_mode")
def test_write_text_makes_folders_and_leaves_no_temp_file(root):
    atomic.write_text(root / ".edgar" / "a" / "b" / "c.txt", "hello", root=root)
    assert (root / ".edgar" / "a" / "b" / "c.txt").read_text() == "hello"
    assert os.listdir(root / ".edgar" / "a" / "b") == ["c.txt"]


@both_walks
@pytest.mark.usefixtures("walk_mode")
def test_write_text_gives_the_mode_asked_whatever_was_there(root):
    path = root / "private.json"
    path.write_text("old")
    path.chmod(0o644)
    atomic.write_text(path, "{}", root=root, mode=0o600)
    assert (path.stat().st_mode & 0o777, path.read_text()) == (0o600, "{}")
    # A temp file a killed write left under the same name does not lend the new file its mode.
    leftover = root / f".again.json.{os.getpid()}.{threading.get_ident()}.tmp"
    leftover.write_text("stale")
    leftover.chmod(0o666)
    atomic.write_text(root / "again.json", "{}", root=root, mode=0o600)
    assert (root / "again.json").stat().st_mode & 0o777 == 0o600


@both_walks
@pytest.mark.usefixtures("walk_mode")
@pytest.mark.parametrize("with_root", [True, False])
def test_write_text_gives_the_mode_asked_for_whatever_the_umask(root, with_root):
    target = root / ".edgar" / "private.json"
    previous = os.umask(0o077)
    try:
        atomic.write_text(target, "{}", root=root if with_root else None, mode=0o664)
        assert oct(target.stat().st_mode & 0o777) == "0o664"
    finally:
        os.umask(previous)
    atomic.write_text(target, "{}", root=root if with_root else None, mode=0o600)
    assert oct(target.stat().st_mode & 0o777) == "0o600"
    atomic.write_text(target, "{}", root=root if with_root else None)
    assert oct(target.stat().st_mode & 0o777) == "0o644"  # no mode: the default, as before


@both_walks
@pytest.mark.usefixtures("walk_mode")
def test_a_file_where_a_folder_belongs_and_a_folder_where_a_file_belongs(root):
    (root / ".edgar" / "versions").write_text("not a folder")
    with pytest.raises(Refused, match=r"\.edgar/versions is a file where edgar keeps a folder"):
        atomic.write_text(root / ".edgar" / "versions" / "abc", "x", root=root)
    (root / ".edgar" / "ledger.jsonl").mkdir()
    with pytest.raises(Refused, match=r"\.edgar/ledger\.jsonl is a folder where edgar keeps a file"):
        atomic.append_line(root / ".edgar" / "ledger.jsonl", "{}", root=root)


@both_walks
@pytest.mark.usefixtures("walk_mode")
def test_append_line_refuses_a_linked_log_and_a_fifo(root, outside):
    link(root / ".edgar" / "ledger.jsonl", outside / "bashrc")
    with pytest.raises(Refused, match="symbolic link"):
        atomic.append_line(root / ".edgar" / "ledger.jsonl", "{}", root=root)
    assert (outside / "bashrc").read_text() == "export PATH=/usr/bin\n"
    os.mkfifo(root / ".edgar" / "rejections.jsonl")
    with pytest.raises(Refused, match="not a plain file"):
        atomic.append_line(root / ".edgar" / "rejections.jsonl", "{}", root=root)


@both_walks
@pytest.mark.usefixtures("walk_mode")
def test_read_text_refuses_a_link_instead_of_reading_the_outside(root, outside):
    link(root / ".edgar" / "versions" / "abc", outside / "bashrc")
    with pytest.raises(Refused, match=r"\.edgar/versions/abc is a symbolic link"):
        atomic.read_text(root / ".edgar" / "versions" / "abc", root=root)
    assert atomic.read_text(root / ".edgar" / "nothing" / "here", root=root) is None


@both_walks
@pytest.mark.usefixtures("walk_mode")
def test_remove_tree_never_follows_a_link(root, outside):
    link(root / ".edgar" / "proposals", outside)
    with pytest.raises(Refused, match=r"\.edgar/proposals is a symbolic link"):
        atomic.remove_tree(root / ".edgar" / "proposals" / "deploy", root=root)
    # A link inside the tree is removed as a link; what it points at stays.
    tree = root / ".edgar" / "cache" / "t"
    tree.mkdir(parents=True)
    link(tree / "scripts", outside / "deploy")
    atomic.remove_tree(tree, root=root)
    assert not tree.exists()
    assert (outside / "deploy" / "notes.txt").read_text() == "mine"


@both_walks
@pytest.mark.usefixtures("walk_mode")
def test_move_refuses_a_linked_source_and_a_linked_destination(root, outside):
    link(root / ".edgar" / "skills" / "learned" / "deploy", outside / "deploy")
    with pytest.raises(Refused, match=r"learned/deploy is a symbolic link"):
        atomic.move(root / ".edgar" / "skills" / "learned" / "deploy", root / ".edgar" / "x", root=root)
    (root / ".edgar" / "real").mkdir()
    link(root / ".edgar" / "skills" / "learned" / ".archive", outside)
    with pytest.raises(Refused, match=r"\.archive is a symbolic link"):
        atomic.move(
            root / ".edgar" / "real", root / ".edgar" / "skills" / "learned" / ".archive" / "r", root=root
        )
    assert (root / ".edgar" / "real").is_dir()
    assert sorted(p.name for p in outside.iterdir()) == ["bashrc", "deploy"]


@both_walks
@pytest.mark.usefixtures("walk_mode")
def test_a_path_outside_the_root_is_refused(root, tmp_path):
    with pytest.raises(Refused, match="not inside"):
        atomic.write_text(tmp_path / "elsewhere.txt", "x", root=root)
    assert not (tmp_path / "elsewhere.txt").exists()


@both_walks
@pytest.mark.usefixtures("walk_mode")
def test_check_writable_creates_nothing(root, outside):
    atomic.check_writable(root / ".edgar" / "a" / "b" / "c", root=root)
    assert not (root / ".edgar" / "a").exists()
    link(root / ".edgar" / "a", outside)
    with pytest.raises(Refused):
        atomic.check_writable(root / ".edgar" / "a" / "b" / "c", root=root)


# The writer and the lifecycle.


def test_write_learned_does_not_resolve_a_linked_base(root, outside):
    layout = Layout(root, root / "home")
    link(layout.learned, outside)
    before = tree_snapshot(outside)
    with pytest.raises(Refused, match=r"\.edgar/skills/learned is a symbolic link"):
        write_learned(
            layout, Draft("pin-bump", "Bump a pin.", BODY), Provenance("s", ("long",)), Target("learned")
        )
    assert tree_snapshot(outside) == before
    assert not Path(layout.ledger).exists()


@pytest.mark.parametrize("place", ["versions", "ledger.jsonl"])
def test_no_skill_file_is_written_without_its_ledger_row(root, place):
    layout = Layout(root, root / "home")
    (root / ".edgar" / place).write_text("in the way") if place == "versions" else (
        root / ".edgar" / place
    ).mkdir()
    with pytest.raises(Refused, match=rf"\.edgar/{place}"):
        write_learned(
            layout, Draft("pin-bump", "Bump a pin.", BODY), Provenance("s", ("long",)), Target("proposal")
        )
    assert not (Path(layout.proposals) / "pin-bump").exists()


def test_a_learned_folder_that_is_a_file_is_a_sentence_and_nothing_is_written(edgar, root):
    (root / ".edgar" / "skills").mkdir()
    (root / ".edgar" / "skills" / "learned").write_text("a file")
    before = tree_snapshot(root)
    layout = Layout(root, root / "home")
    with pytest.raises(Refused, match=r"\.edgar/skills/learned is a file where edgar keeps a folder"):
        write_learned(
            layout, Draft("pin-bump", "Bump a pin.", BODY), Provenance("s", ("long",)), Target("learned")
        )
    assert tree_snapshot(root) == before
    result = edgar("--root", str(root), "--set", "skills.synthesis=auto", "learn", turn_file(root))
    assert "internal error" not in result.err + result.out
    assert result.code in {0, 1}
    assert not list(root.rglob("learned/*/SKILL.md"))


def test_accept_through_a_linked_proposals_folder_deletes_nothing(edgar, root, outside):
    link(root / ".edgar" / "proposals", outside)
    before = tree_snapshot(outside)
    result = edgar("--root", str(root), "skills", "accept", "deploy")
    assert result.code == 1
    assert ".edgar/proposals is a symbolic link" in result.err
    assert tree_snapshot(outside) == before
    assert not (root / ".edgar" / "skills" / "learned").exists()


def test_accept_removes_a_link_inside_a_proposal_without_following_it(edgar, root, outside):
    layout = Layout(root, root / "home")
    write_learned(
        layout, Draft("pin-bump", "Bump a pin.", BODY), Provenance("s", ("long",)), Target("proposal")
    )
    link(Path(layout.proposals) / "pin-bump" / "scripts", outside / "deploy")
    result = edgar("--root", str(root), "skills", "accept", "pin-bump")
    assert result.code == 0, result
    assert not (Path(layout.proposals) / "pin-bump").exists()
    assert (outside / "deploy" / "notes.txt").read_text() == "mine"


def test_forget_does_not_copy_a_linked_skill_file_into_versions(edgar, root, outside):
    layout = Layout(root, root / "home")
    link(Path(layout.learned) / "deploy" / "SKILL.md", outside / "deploy" / "SKILL.md")
    result = edgar("--root", str(root), "skills", "forget", "deploy")
    assert result.code == 1
    assert ".edgar/skills/learned/deploy/SKILL.md is a symbolic link" in result.err
    assert not Path(layout.versions).exists()
    assert not Path(layout.archive).exists()
    with pytest.raises(Refused):
        forget(layout, "deploy")


# Every machine-owned place, linked out of the root, through the command that writes it.


def _learn(edgar, root, *extra):
    return edgar("--root", str(root), *extra, "learn", turn_file(root), "--session", "s-1")


DECIDE = ("decide", "--state", "s", "--question", "q", "--option", "a", "--option", "b")
AUTO = ("--set", "skills.synthesis=auto")
CASES = {
    ".edgar": (),
    ".edgar/proposals": (),
    ".edgar/versions": (),
    ".edgar/experience": (),
    ".edgar/skills/learned": AUTO,
    ".edgar/decisions": DECIDE,
}


@pytest.mark.parametrize("place", sorted(CASES))
def test_a_linked_machine_folder_is_refused_by_name_and_the_outside_is_untouched(edgar, root, outside, place):
    target = root / place
    if place == ".edgar":
        target.rmdir()
    link(target, outside)
    before = tree_snapshot(outside)
    args = CASES[place]
    result = edgar("--root", str(root), *args) if args == DECIDE else _learn(edgar, root, *args)
    assert f"{place} is a symbolic link" in result.err + result.out, result
    if place != ".edgar/skills/learned":  # auto falls back to a proposal and says why
        assert result.code == 1, result
    assert tree_snapshot(outside) == before
    assert "internal error" not in result.err


@pytest.mark.parametrize("log", ["ledger.jsonl", "rejections.jsonl", "hook-problems.jsonl"])
def test_a_log_linked_to_a_persons_file_gets_no_line(edgar, root, outside, log, monkeypatch):
    import io

    link(root / ".edgar" / log, outside / "bashrc")
    if log == "rejections.jsonl":
        result = _learn(edgar, root, "--set", "model.provider=command", "--set", 'model.command=["false"]')
    elif log == "hook-problems.jsonl":
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"not json")))
        result = edgar("--root", str(root), "learn", "--from", "claude-code", "--hook")
        assert result.code == 0
    else:
        result = _learn(edgar, root)
        assert result.code == 1
        assert ".edgar/ledger.jsonl is a symbolic link" in result.out + result.err
        assert not (root / ".edgar" / "proposals").exists()
    assert (outside / "bashrc").read_text() == "export PATH=/usr/bin\n"
    assert "internal error" not in result.err + result.out


def test_a_linked_history_folder_gets_no_note(edgar, root, outside):
    layout = Layout(root, root / "home")
    write_learned(
        layout, Draft("pin-bump", "Bump a pin.", BODY), Provenance("s", ("long",)), Target("learned")
    )
    link(layout.history, outside)
    before = tree_snapshot(outside)
    bad = {**RECOVERED, "verification": "failed", "skills": ["pin-bump"]}
    result = edgar("--root", str(root), "learn", turn_file(root, bad))
    assert "internal error" not in result.err
    assert tree_snapshot(outside) == before


def test_a_linked_archive_is_refused_when_forgetting(edgar, root, outside):
    layout = Layout(root, root / "home")
    write_learned(
        layout, Draft("pin-bump", "Bump a pin.", BODY), Provenance("s", ("long",)), Target("learned")
    )
    link(layout.archive, outside)
    result = edgar("--root", str(root), "skills", "forget", "pin-bump")
    assert result.code == 1
    assert ".edgar/skills/learned/.archive is a symbolic link" in result.err
    assert (Path(layout.learned) / "pin-bump" / "SKILL.md").is_file()
    assert sorted(p.name for p in outside.iterdir()) == ["bashrc", "deploy"]
    assert [r.action for r in read_ledger(layout).rows] == ["write"]


def test_a_code_proposal_folder_that_is_a_link_is_refused(root, outside):
    from edgar_min.agent.tree import Manifest
    from edgar_min.agent.writer import write_code_skill

    layout = Layout(root, root / "home")
    Path(layout.registry).parent.mkdir(parents=True)
    Path(layout.registry).write_text(json.dumps({"categories": [{"name": "email", "description": "Mail."}]}))
    link(layout.code_proposals, outside)
    body = (Path(__file__).resolve().parents[1] / "examples/tree/data/skills/email/compose.py").read_text()
    manifest = Manifest(name="email.reply", category="email", description="Reply to an email.")
    with pytest.raises(Refused, match=r"\.edgar/code-proposals is a symbolic link"):
        write_code_skill(layout, manifest, body, to="proposal")
    assert sorted(p.name for p in outside.iterdir()) == ["bashrc", "deploy"]


# End to end: a hostile repository, cloned with git, and the built zipapp run inside it.


def test_a_cloned_repository_that_links_proposals_to_a_persons_skills_cannot_delete_them(tmp_path, pyz):
    import shutil
    import subprocess
    import sys

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    home = tmp_path / "home"
    persons = home / ".claude" / "skills"
    (persons / "deploy").mkdir(parents=True)
    (persons / "deploy" / "SKILL.md").write_text(PERSONS_SKILL)
    (persons / "deploy" / "notes.txt").write_text("mine")
    hostile = tmp_path / "hostile"
    (hostile / ".edgar").mkdir(parents=True)
    # The link a hostile checkout carries: relative, so it lands in whoever clones it.
    (hostile / ".edgar" / "proposals").symlink_to("../../home/.claude/skills")
    env = {"GIT_AUTHOR_NAME": "x", "GIT_AUTHOR_EMAIL": "x@x", "GIT_COMMITTER_NAME": "x",
           "GIT_COMMITTER_EMAIL": "x@x", "HOME": str(home), "PATH": "/usr/bin:/bin"}  # fmt: skip
    git = ["git", "-c", "init.defaultBranch=main", "-c", "core.symlinks=true"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "skills"]):
        subprocess.run([*git, *args], cwd=hostile, env=env, check=True, capture_output=True)
    clone = tmp_path / "clone"
    subprocess.run([*git, "clone", "-q", str(hostile), str(clone)], env=env, check=True, capture_output=True)
    assert (clone / ".edgar" / "proposals").is_symlink()
    assert (clone / ".edgar" / "proposals" / "deploy" / "SKILL.md").is_file()  # the link resolves
    before = tree_snapshot(persons)
    env = {**env, "EDGAR_HOME": str(home / ".edgar")}
    for command in (["skills", "accept", "deploy"], ["skills", "reject", "deploy"], ["learn", "-"]):
        done = subprocess.run(
            [sys.executable, str(pyz), "--root", str(clone), *command],
            input=json.dumps(RECOVERED), capture_output=True, text=True, env=env, timeout=60, check=False,
        )  # fmt: skip
        assert done.returncode == 1, (command, done.stderr)
        assert ".edgar/proposals is a symbolic link" in done.stderr + done.stdout
        assert "Traceback" not in done.stderr
    assert tree_snapshot(persons) == before
    doctor = subprocess.run(
        [sys.executable, str(pyz), "--root", str(clone), "doctor"],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert doctor.returncode == 1
    assert "- link: .edgar/proposals is a symbolic link (to ../../home/.claude/skills)" in doctor.stdout


def test_restore_refuses_a_kept_version_that_is_a_link(edgar, root, outside):
    layout = Layout(root, root / "home")
    write_learned(
        layout, Draft("pin-bump", "Bump a pin.", BODY), Provenance("s", ("long",)), Target("learned")
    )
    (row,) = read_ledger(layout).rows
    kept = Path(layout.versions) / row.after
    kept.unlink()
    link(kept, outside / "bashrc")
    result = edgar("--root", str(root), "skills", "restore", "pin-bump", "--to", row.after)
    assert result.code == 1
    assert f".edgar/versions/{row.after} is a symbolic link" in result.err


def test_a_persons_own_links_outside_edgars_places_are_read_and_not_refused(edgar, root):
    # As JuliaLang/julia and JacobPEvans/ai-assistant-instructions commit it: `.claude/skills`
    # is a relative link to the folder where the project keeps its skills.
    shared = root / "agentsmd" / "skills" / "github-graphql"
    shared.mkdir(parents=True)
    (shared / "SKILL.md").write_text(
        "---\nname: github-graphql\ndescription: GraphQL for PRs.\n---\n\nProse.\n"
    )
    link(root / ".claude" / "skills", Path("../agentsmd/skills"))
    listed = edgar("--root", str(root), "--json", "skills", "list").json()
    assert [s["name"] for s in listed] == ["github-graphql"]
    learned = edgar("--root", str(root), "--json", "learn", turn_file(root)).json()
    assert learned["outcome"] == "proposed", learned
    places = edgar("--root", str(root), "--json", "doctor").json()["places"]
    assert places == {"links": [], "misplaced": [], "temp_removed": [], "temp_kept": []}


def test_a_linked_shape_folder_refuses_the_turn_before_its_line_is_written(edgar, root, outside):
    from edgar_min.learning.store import ExperienceStore, _slug
    from edgar_min.learning.turn import parse_turn

    layout = Layout(root, root / "home")
    turn = parse_turn(RECOVERED)
    link(Path(layout.experience) / "shapes" / _slug(turn.shape), outside)
    store = ExperienceStore(layout.experience, host="box", root=root)
    with pytest.raises(Refused, match=r"\.edgar/experience/shapes/.* is a symbolic link"):
        store.record(turn, "s-1")
    assert not (Path(layout.experience) / "turns").exists()
    assert sorted(p.name for p in outside.iterdir()) == ["bashrc", "deploy"]


def _call(op, a, b, root):
    if op == "write":
        atomic.write_text(a, "x", root=root)
    elif op == "append":
        atomic.append_line(a, "x", root=root)
    elif op == "read":
        atomic.read_text(a, root=root)
    elif op == "move":
        atomic.move(a, b, root=root)
    elif op == "remove":
        atomic.remove_tree(a, root=root)
    elif op == "check":
        atomic.check_writable(a, root=root)
    else:
        atomic.create_empty(a, root=root)


def test_no_primitive_ever_changes_the_outside_whatever_is_linked(tmp_path_factory):
    """Random trees with links (to outside folders and files, dangling, to /dev/zero) at random places."""
    import shutil

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    rel = st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=4).map("/".join)
    targets = st.sampled_from(["outside-dir", "outside-file", "dangling", "/dev/zero", "inside"])
    ops = st.sampled_from(["write", "append", "read", "move", "remove", "check", "marker"])

    @settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.data())
    def check(data):
        links = data.draw(st.lists(st.tuples(rel, targets), min_size=1, max_size=4))
        # Most calls aim at a linked place or below it: that is where a followed link would show.
        near = st.sampled_from([p for p, _ in links]).flatmap(
            lambda p: st.sampled_from([p, f"{p}/a", f"{p}/b/c", f"{p}/SKILL.md"])
        )
        where_to = near | rel
        calls = data.draw(st.lists(st.tuples(ops, where_to, where_to), min_size=1, max_size=6))
        base = tmp_path_factory.mktemp("case")
        root, outside = base / "root", base / "outside"
        root.mkdir()
        (outside / "d").mkdir(parents=True)
        (outside / "d" / "keep.txt").write_text("mine")
        (outside / "file").write_text("mine")
        where = {"outside-dir": outside / "d", "outside-file": outside / "file", "dangling": base / "none"}
        where |= {"/dev/zero": Path("/dev/zero"), "inside": root}
        for place, target in links:
            try:
                (root / place).parent.mkdir(parents=True, exist_ok=True)
                (root / place).symlink_to(where[target])
            except OSError:
                continue
        before = tree_snapshot(outside)
        for op, one, two in calls:
            try:
                _call(op, root / one, root / two, root)
            except (Refused, OSError, UnicodeDecodeError):
                pass
        assert tree_snapshot(outside) == before
        assert not (base / "none").exists()
        shutil.rmtree(base)

    check()


def test_a_refused_reply_is_kept_in_the_state_folder_and_not_through_a_linked_folder(edgar, root, outside):
    import shutil
    import sys

    from edgar_min.layout import user_home

    # What a checkout can commit at the old place is no place of edgar's any more.
    link(root / ".edgar" / "rejected", outside)
    script = root.parent / "model.py"
    script.write_text("print('this is not a skill at all')\n")
    command = json.dumps([sys.executable, str(script)])
    args = ("--set", "model.provider=command", "--set", f"model.command={command}")
    result = _learn(edgar, root, *args)
    assert result.code == 1, result
    assert sorted(p.name for p in outside.iterdir()) == ["bashrc", "deploy"]
    kept = Path(Layout(root, user_home()).rejected)
    assert len(list(kept.glob("*.json"))) == 1
    # A link in the state folder itself is refused with a sentence, as in the project.
    shutil.rmtree(kept)
    link(kept, outside)
    result = _learn(edgar, root, *args)
    assert result.code == 1, result
    assert "rejected is a symbolic link" in result.out + result.err
    assert sorted(p.name for p in outside.iterdir()) == ["bashrc", "deploy"]
    assert "internal error" not in result.out + result.err


@given(st.text(alphabet=".0123456789tmpa\n\u0663", max_size=16), st.booleans(), st.booleans())
@settings(max_examples=600, deadline=None)
def test_a_temp_file_is_known_by_its_pattern(middle, dot, tmp):
    """doctor tells temp files apart with string operations; `_TEMP_NAME` is what they promise."""
    import re

    from edgar_min.atomic import _TEMP_NAME, temp_file_pid

    name = ("." if dot else "") + middle + (".tmp" if tmp else "")
    match = re.fullmatch(_TEMP_NAME, name)
    assert temp_file_pid(name) == (int(match["pid"]) if match else None)


def test_a_line_appended_after_a_cut_last_line_is_whole(root):
    # Two copies joined end to end, or a crash mid-write, leave a last line with no newline.
    log = root / "log.jsonl"
    log.write_bytes(b'{"a": 1}\n{"cut": ')
    atomic.append_line(log, '{"b": 2}', root=root)
    atomic.append_line(log, '{"c": 3}', root=root)
    assert log.read_bytes().split(b"\n") == [b'{"a": 1}', b'{"cut": ', b'{"b": 2}', b'{"c": 3}', b""]
