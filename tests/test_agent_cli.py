"""`edgar tree` and `edgar run` as a person sees them."""

from __future__ import annotations

import shutil
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "tree"


def test_tree_text_and_json(edgar, tmp_path):
    shutil.copytree(EXAMPLE, tmp_path, dirs_exist_ok=True)
    (tmp_path / "data/skills/notes/todo.py").unlink()
    r = edgar("--root", str(tmp_path), "tree")
    assert r.code == 0
    assert r.out.splitlines()[0] == "email: Write, draft and compose email messages to contacts."
    assert "  notes.todo: Add a task to the todo list with a priority.  [body missing]" in r.out
    doc = edgar("--root", str(tmp_path), "--json", "tree").json()
    compose = doc["categories"][0]["skills"][0]
    assert (compose["name"], compose["body"], compose["body_exists"]) == (
        "email.compose",
        "data/skills/email/compose.py",
        True,
    )


def test_tree_without_a_registry_says_there_is_none(edgar, tmp_path):
    r = edgar("--root", str(tmp_path), "tree")
    assert r.code == 0
    assert "no skill tree yet" in r.out
    assert edgar("--root", str(tmp_path), "--json", "tree").json() == {"categories": []}
    assert not (tmp_path / "data").exists()


def test_run_without_a_registry_is_exit_1_and_says_how_to_make_one(edgar, tmp_path):
    r = edgar("--root", str(tmp_path), "run", "write an email to bob")
    assert r.code == 1
    assert "no skill tree at" in r.err
    assert "examples/tree" in r.err


def test_run_text_output(edgar, tmp_path):
    shutil.copytree(EXAMPLE, tmp_path, dirs_exist_ok=True)
    r = edgar("--root", str(tmp_path), "run", "add a todo: renew the passport asap")
    assert r.code == 0, r
    lines = r.out.splitlines()
    assert lines[0].endswith(": notes > notes.todo")
    assert lines[1].startswith("action: notes.todo: added a high-priority task to")
    assert (
        tmp_path / "data/drafts/todo.md"
    ).read_text() == "- [ ] (high) add a todo: renew the passport asap\n"
