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


def test_skills_validate_names_the_line_of_a_body_that_reaches_past_the_wall(edgar, tmp_path):
    shutil.copytree(EXAMPLE, tmp_path, dirs_exist_ok=True)
    body = tmp_path / "data/skills/email/compose.py"
    lines = body.read_text().splitlines()
    lines.insert(5, "import os")
    lines.insert(6, "WALL = os.sys.modules")
    body.write_text("\n".join(lines) + "\n")
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    r = edgar("--root", str(tmp_path), "skills", "validate")
    assert r.code == 1
    assert (
        f"{body}:7: reaches for 'sys' (reaches the module 'sys', which a skill may not use)" in r.out + r.err
    )
    r = edgar("--root", str(tmp_path), "run", "write an email to bob about the boiler repair")
    assert r.code == 1
    assert "refused body: the body of email.compose fails acceptance" in r.out
    assert {
        p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file() and ".edgar/decisions" not in str(p)
    } == {p: v for p, v in before.items() if ".edgar/decisions" not in str(p)}
