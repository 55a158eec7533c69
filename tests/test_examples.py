"""The examples routing learns from: what is kept, what the latest line says, what is passed over."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from edgar_min.errors import BadInput
from edgar_min.layout import Layout
from edgar_min.redact import MARK
from edgar_min.skills import examples as examples_module
from edgar_min.skills.examples import (
    NONE,
    TEXT_CHARS,
    add_example,
    forget_example,
    learn_from_loads,
    read_examples,
)

# A GitLab token in the shape gitleaks' rule matches (made up; see tests/test_redact.py).
TOKEN = "glpat-AbCdEfGhIjKlMnOpQrSt12"  # noqa: S105 - a made-up token in a real shape


@pytest.fixture
def layout(tmp_path):
    return Layout(tmp_path, tmp_path / "home")


def lines(layout: Layout) -> list[dict]:
    return [json.loads(line) for line in Path(layout.routing_examples).read_text().splitlines()]


def test_an_added_example_is_read_back_under_its_skill(layout):
    kept = add_example(layout, "pdf", "stitch these two scans together", "person")
    assert kept == "stitch these two scans together"
    add_example(layout, NONE, "thanks, that worked!", "person")
    assert read_examples(layout) == {"pdf": [kept], "none": ["thanks, that worked!"]}
    (row, _) = lines(layout)
    assert row["skill"] == "pdf"
    assert row["source"] == "person"
    assert row["time"].endswith("Z")


def test_no_file_is_no_examples(layout):
    assert read_examples(layout) == {}
    assert not Path(layout.routing_examples).exists()


def test_the_same_text_twice_counts_once(layout):
    add_example(layout, "pdf", "stitch these two scans together", "agent")
    add_example(layout, "pdf", "stitch  these two\nscans together", "person")  # the same, once flattened
    assert read_examples(layout) == {"pdf": ["stitch these two scans together"]}
    assert len(lines(layout)) == 2  # the file only ever grows


def test_forget_takes_a_text_back_and_teaching_it_again_brings_it_back(layout):
    add_example(layout, "pdf", "stitch these scans", "person")
    add_example(layout, "pdf", "glue the two reports", "person")
    assert forget_example(layout, "stitch these scans") == 1
    assert read_examples(layout) == {"pdf": ["glue the two reports"]}
    assert lines(layout)[-1]["forget"] is True
    # Forgotten again: nothing is in force, so nothing is written.
    assert forget_example(layout, "stitch these scans") == 0
    assert len(lines(layout)) == 3
    add_example(layout, "pdf", "stitch these scans", "person")
    # The latest line of a text decides, and it now stands last.
    assert read_examples(layout) == {"pdf": ["glue the two reports", "stitch these scans"]}


def test_forget_of_one_skill_leaves_the_same_text_under_another(layout):
    add_example(layout, "pdf", "make it smaller", "person")
    add_example(layout, "slack-gif-creator", "make it smaller", "agent")
    assert forget_example(layout, "make it smaller", "pdf") == 1
    assert read_examples(layout) == {"slack-gif-creator": ["make it smaller"]}
    assert forget_example(layout, "make it smaller") == 1
    assert read_examples(layout) == {}


def test_only_the_latest_per_skill_and_none_kept_are_read(layout, monkeypatch):
    monkeypatch.setattr(examples_module, "PER_SKILL", 3)
    monkeypatch.setattr(examples_module, "NONE_KEPT", 2)
    for n in range(6):
        add_example(layout, "pdf", f"merge report {n}", "agent")
        add_example(layout, NONE, f"thanks {n}", "person")
    held = read_examples(layout)
    assert held["pdf"] == ["merge report 3", "merge report 4", "merge report 5"]
    assert held["none"] == ["thanks 4", "thanks 5"]
    # A text taught again moves to the end, so it is among the latest again.
    add_example(layout, "pdf", "merge report 0", "person")
    assert read_examples(layout)["pdf"] == ["merge report 4", "merge report 5", "merge report 0"]
    everything = read_examples(layout, latest=False)
    assert len(everything["pdf"]) == 6
    assert len(everything["none"]) == 6


def test_a_torn_last_line_garbage_and_foreign_lines_are_passed_over(layout):
    add_example(layout, "pdf", "stitch these scans", "person")
    with open(layout.routing_examples, "a", encoding="utf-8") as out:
        out.write("not json at all\n")
        out.write("[1, 2, 3]\n")
        out.write(json.dumps({"skill": "Bad Name!", "text": "a bad skill name"}) + "\n")
        out.write(json.dumps({"skill": "pdf", "text": 42}) + "\n")
        out.write(json.dumps({"skill": "pdf", "text": ""}) + "\n")
        out.write(json.dumps({"skill": 7, "text": "a skill that is a number"}) + "\n")
        out.write(json.dumps({"text": "no skill at all"}) + "\n")
        out.write(json.dumps({"skill": "pdf", "text": "glue the reports", "forget": "yes"}) + "\n")
        out.write('{"skill": "pdf", "text": "half a li')  # torn: a writer died mid-line
    assert read_examples(layout) == {"pdf": ["stitch these scans", "glue the reports"]}


def test_a_secret_in_a_text_is_redacted_before_it_is_written(layout):
    kept = add_example(layout, "gh-fix-ci", f"the ci fails since I rotated {TOKEN}, fix it", "person")
    assert TOKEN not in kept
    assert MARK in kept
    assert TOKEN not in Path(layout.routing_examples).read_text()
    assert read_examples(layout) == {"gh-fix-ci": [kept]}
    # Forgetting by the text as typed finds the redacted one.
    assert forget_example(layout, f"the ci fails since I rotated {TOKEN}, fix it") == 1


def test_a_long_text_is_cut_and_put_on_one_line(layout):
    text = "merge\tthese\r\nscans " + "and the appendix " * 100
    kept = add_example(layout, "pdf", text, "agent")
    assert len(kept) <= TEXT_CHARS
    assert kept.startswith("merge these scans and the appendix")
    assert "\n" not in kept
    assert "\t" not in kept
    assert kept == kept.strip()
    assert len(Path(layout.routing_examples).read_text().splitlines()) == 1


def test_a_lone_surrogate_is_written_as_valid_utf8(layout):
    kept = add_example(layout, "pdf", "merge these \ud800 scans", "person")
    Path(layout.routing_examples).read_bytes().decode("utf-8")  # no UnicodeDecodeError
    assert read_examples(layout) == {"pdf": [kept]}


@pytest.mark.parametrize("text", ["", "   ", "\n\t\n"])
def test_an_empty_text_is_bad_input_and_nothing_is_written(layout, text):
    with pytest.raises(BadInput, match="an example needs the text of a message"):
        add_example(layout, "pdf", text, "person")
    assert not Path(layout.routing_examples).exists()


@pytest.mark.parametrize("name", ["Bad Name", "-pdf", "pdf--tools", "a" * 65, "learned/pdf"])
def test_a_bad_skill_name_is_bad_input_and_nothing_is_written(layout, name):
    with pytest.raises(BadInput):
        add_example(layout, name, "merge these", "person")
    with pytest.raises(BadInput):
        forget_example(layout, "merge these", name)
    assert not Path(layout.routing_examples).exists()


def test_an_unknown_source_is_bad_input(layout):
    with pytest.raises(BadInput, match="agent, person"):
        add_example(layout, "pdf", "merge these", "suggestion")
    assert not Path(layout.routing_examples).exists()


def test_learn_from_loads_keeps_the_prompt_for_each_good_name_once(layout):
    recorded = learn_from_loads(layout, "stitch these scans", ["pdf", "none", "Bad Name", "pdf", "xlsx"])
    assert recorded == ["pdf", "xlsx"]
    assert read_examples(layout) == {"pdf": ["stitch these scans"], "xlsx": ["stitch these scans"]}
    assert {row["source"] for row in lines(layout)} == {"agent"}


def test_learn_from_loads_with_an_empty_prompt_or_nothing_loaded_writes_nothing(layout):
    assert learn_from_loads(layout, "  ", ["pdf"]) == []
    assert learn_from_loads(layout, "stitch these scans", []) == []
    assert learn_from_loads(layout, "stitch these scans", ["none"]) == []
    assert not Path(layout.routing_examples).exists()


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_an_examples_file_that_is_not_a_file_is_a_sentence(layout, kind):
    path = Path(layout.routing_examples)
    path.parent.mkdir(parents=True)
    if kind == "folder":
        path.mkdir()
    else:
        os.mkfifo(path)
    with pytest.raises(BadInput, match=r"routing-examples\.jsonl is a"):
        read_examples(layout)


def test_a_text_longer_than_an_example_may_be_is_read_cut(tmp_path):
    from edgar_min.skills.examples import TEXT_CHARS, read_examples

    layout = Layout(str(tmp_path), str(tmp_path / "home"))
    (tmp_path / ".edgar").mkdir()
    line = json.dumps({"skill": "pdf", "text": "merge " * 200, "source": "person"})
    path = Path(layout.routing_examples)
    path.parent.mkdir(parents=True)
    path.write_text(line + "\n")
    (text,) = read_examples(layout)["pdf"]
    assert len(text) == TEXT_CHARS
