"""data/categories.json: parsing, every problem with file and line, and what the CLI says."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import tree_snapshot

from edgar_min.agent.tree import body_path, load_registry, parse_registry
from edgar_min.errors import BadInput, NotFound

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "tree"


def test_the_example_tree_parses():
    registry = load_registry(EXAMPLE / "data" / "categories.json")
    assert [c.name for c in registry.categories] == ["email", "notes", "calendar"]
    compose = registry.find("email.compose")
    assert compose.cost_budget == 4
    assert compose.rest == "compose"
    assert body_path(str(EXAMPLE / "data" / "skills"), compose) == str(
        EXAMPLE / "data/skills/email/compose.py"
    )


def test_deeper_names_become_folders(tmp_path):
    skill = {"name": "email.draft.reply", "description": "x"}
    text = json.dumps({"categories": [{"name": "email", "description": "d", "skills": [skill]}]})
    registry, problems = parse_registry(text, tmp_path / "c.json")
    assert problems == []
    assert body_path(str(tmp_path), registry.find("email.draft.reply")) == str(
        tmp_path / "email/draft/reply.py"
    )


def test_malformed_json_is_a_sentence_with_file_line_and_column(tmp_path):
    path = tmp_path / "categories.json"
    path.write_text('{"categories": [\n  {"name": "email",\n   "description": "x"\n  ,]}\n')
    with pytest.raises(BadInput, match=r"categories.json:4:4: not valid JSON"):
        load_registry(path)


def test_every_structural_problem_is_reported_with_its_line(tmp_path):
    doc = {
        "categories": [
            {"name": "email", "description": "Mail.", "skills": [
                {"name": "email.compose", "description": "Compose a draft."},
                {"name": "calendar.book", "description": "Book."},
                {"name": "email.Bad", "description": "x"},
                {"name": "email.send", "description": "", "cost_budget": 0, "colour": "red"},
            ]},
            {"name": "email", "description": "Again."},
        ]
    }  # fmt: skip
    path = tmp_path / "categories.json"
    path.write_text(json.dumps(doc, indent=2))
    _, problems = parse_registry(path.read_text(), path)
    text = "\n".join(problems)
    lines = path.read_text().splitlines()

    def line_of(needle):
        return next(i for i, x in enumerate(lines, 1) if needle in x)

    assert (
        f"{path}:{line_of('calendar.book')}: skill name 'calendar.book' must start with its category" in text
    )
    assert f"{path}:{line_of('email.Bad')}: skill name 'email.Bad' must match" in text
    assert f"{path}:{line_of('email.send')}: unknown manifest field 'colour'" in text
    assert "cost_budget of 'email.send' must be a whole number" in text
    assert "'email.send' needs a non-empty description" in text
    assert "category 'email' is listed twice" in text


def test_missing_registry_is_not_found(tmp_path):
    with pytest.raises(NotFound, match="no skill tree at"):
        load_registry(tmp_path / "data" / "categories.json")


def test_cli_malformed_registry_exits_2_with_file_and_position(edgar, tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "categories.json").write_text('{"categories": [}')
    before = tree_snapshot(tmp_path)
    for args in (["tree"], ["run", "write an email"]):
        r = edgar("--root", str(tmp_path), *args)
        assert r.code == 2, r
        assert "categories.json:1:17: not valid JSON" in r.err
        assert "Traceback" not in r.err
    assert tree_snapshot(tmp_path) == before


def test_validate_reports_a_missing_body_and_a_broken_one(edgar, tmp_path):
    shutil.copytree(EXAMPLE, tmp_path, dirs_exist_ok=True)
    (tmp_path / "data/skills/notes/todo.py").unlink()
    (tmp_path / "data/skills/notes/append.py").write_text("def predict(ctx, request)\n    pass\n")
    r = edgar("--root", str(tmp_path), "--json", "skills", "validate")
    assert r.code == 1
    problems = r.json()["problems"]
    assert any(
        "notes.todo: its body" in p and "is missing" in p and "categories.json:" in p for p in problems
    )
    assert any(p.endswith("append.py:1: does not compile: expected ':'") for p in problems), problems
    assert len(problems) == 2


def test_validate_the_example_tree_is_clean_and_single_files_work(edgar, tmp_path, monkeypatch):
    shutil.copytree(EXAMPLE, tmp_path, dirs_exist_ok=True)
    r = edgar("--root", str(tmp_path), "skills", "validate")
    assert r.code == 0, r
    assert "5 checked, 0 problem(s)" in r.out
    monkeypatch.chdir(tmp_path)
    r = edgar(
        "--root", str(tmp_path), "skills", "validate", "data/skills/email/compose.py", "data/categories.json"
    )
    assert r.code == 0, r
    (tmp_path / "data/skills/email/stray.py").write_text("x = 1\n")
    r = edgar("--root", str(tmp_path), "skills", "validate", "data/skills/email/stray.py")
    assert r.code == 1
    assert "email.stray is not listed in the skill tree" in r.out


def test_a_body_far_larger_than_acceptance_allows_is_not_read_whole(edgar, tmp_path):
    from edgar_min.agent.loader import MAX_BODY_BYTES

    shutil.copytree(EXAMPLE, tmp_path, dirs_exist_ok=True)
    body = tmp_path / "data/skills/email/compose.py"
    body.write_text("#" * (MAX_BODY_BYTES + 10) + "\n")
    r = edgar("--root", str(tmp_path), "--json", "skills", "validate")
    assert r.code == 1, r
    assert f"{body}:1: cannot be read (it is larger than {MAX_BODY_BYTES} bytes)" in r.json()["problems"]
