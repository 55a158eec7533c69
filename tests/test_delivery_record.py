"""The per-session record of what was suggested: the last prompt's line counts, torn lines do not."""

from __future__ import annotations

from pathlib import Path

import pytest

from edgar_min.delivery.record import last_suggested, last_suggestion, merge_skills, record_suggested
from edgar_min.errors import BadInput
from edgar_min.layout import Layout


@pytest.fixture
def layout(tmp_path):
    return Layout(tmp_path, tmp_path / "home")


def test_the_last_prompt_of_the_session_is_what_counts(layout):
    record_suggested(layout, "s-1", ["pdf"])
    record_suggested(layout, "s-1", ["xlsx", "pptx"])
    record_suggested(layout, "s-2", [])
    assert last_suggested(layout, "s-1") == ("xlsx", "pptx")
    assert last_suggested(layout, "s-2") == ()
    assert last_suggested(layout, "never-seen") == ()
    assert sorted(p.name for p in Path(layout.suggestions).iterdir()) == ["s-1.jsonl", "s-2.jsonl"]


def test_a_torn_last_line_falls_back_to_the_whole_one_before(layout):
    record_suggested(layout, "s-1", ["pdf"])
    with (Path(layout.suggestions) / "s-1.jsonl").open("a") as handle:
        handle.write('{"time": "2026-12-01T10:00:00Z", "skil')
    assert last_suggested(layout, "s-1") == ("pdf",)


def test_names_that_are_not_skill_names_are_dropped_when_read(layout):
    Path(layout.suggestions).mkdir(parents=True)
    (Path(layout.suggestions) / "s-1.jsonl").write_text('{"skills": ["pdf", "../../etc", 7, "Bad Name"]}\n')
    assert last_suggested(layout, "s-1") == ("pdf",)


def test_a_session_id_that_could_leave_the_folder_is_refused(layout):
    with pytest.raises(BadInput, match="session id"):
        record_suggested(layout, "../x", ["pdf"])


def test_the_merge_keeps_the_loaded_skills_first_and_each_once():
    assert merge_skills(["lint-fix", "pdf"], ("pdf", "xlsx")) == ["lint-fix", "pdf", "xlsx"]


def test_the_skills_only_named_are_kept_apart_from_those_handed_over(tmp_path):
    layout = Layout(tmp_path, tmp_path / "home")
    record_suggested(layout, "s-1", ["pdf"], ["xlsx"])
    record_suggested(layout, "s-2", [])
    assert last_suggestion(layout, "s-1") == (("pdf",), ("xlsx",))
    assert last_suggested(layout, "s-1") == ("pdf",)
    assert last_suggestion(layout, "s-2") == ((), ())
    line = (Path(layout.suggestions) / "s-2.jsonl").read_text()
    assert "named" not in line  # a line names what there is
