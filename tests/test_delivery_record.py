"""The per-session record of what was offered: the last prompt's line counts, torn lines do not."""

from __future__ import annotations

from pathlib import Path

import pytest

from edgar_min.delivery.record import Offer, last_offer, record_offer
from edgar_min.errors import BadInput
from edgar_min.layout import Layout


@pytest.fixture
def layout(tmp_path):
    return Layout(tmp_path, tmp_path / "home")


def test_the_last_prompt_of_the_session_is_what_counts(layout):
    record_offer(layout, "s-1", ["pdf"])
    record_offer(layout, "s-1", ["xlsx", "pptx"])
    record_offer(layout, "s-2", [])
    assert last_offer(layout, "s-1").handed == ("xlsx", "pptx")
    assert last_offer(layout, "s-2") == Offer()
    assert last_offer(layout, "never-seen") == Offer()
    assert sorted(p.name for p in Path(layout.suggestions).iterdir()) == ["s-1.jsonl", "s-2.jsonl"]


def test_a_torn_last_line_falls_back_to_the_whole_one_before(layout):
    record_offer(layout, "s-1", ["pdf"])
    with (Path(layout.suggestions) / "s-1.jsonl").open("a") as handle:
        handle.write('{"time": "2026-12-01T10:00:00Z", "skil')
    assert last_offer(layout, "s-1").handed == ("pdf",)


def test_names_that_are_not_skill_names_are_dropped_when_read(layout):
    Path(layout.suggestions).mkdir(parents=True)
    (Path(layout.suggestions) / "s-1.jsonl").write_text('{"skills": ["pdf", "../../etc", 7, "Bad Name"]}\n')
    assert last_offer(layout, "s-1").handed == ("pdf",)


def test_a_session_id_that_could_leave_the_folder_is_refused(layout):
    with pytest.raises(BadInput, match="session id"):
        record_offer(layout, "../x", ["pdf"])


def test_the_skills_only_named_are_kept_apart_from_those_handed_over(layout):
    record_offer(layout, "s-1", ["pdf"], ["xlsx", "pdf"])
    record_offer(layout, "s-2", [])
    offer = last_offer(layout, "s-1")
    assert (offer.handed, offer.named) == (("pdf",), ("xlsx", "pdf"))
    assert offer.names == ("pdf", "xlsx")  # every skill offered, each once
    line = (Path(layout.suggestions) / "s-2.jsonl").read_text()
    assert "named" not in line  # a line names what there is


def test_an_offer_of_a_skill_no_longer_discovered_is_left_out(layout):
    record_offer(layout, "s-1", ["pdf", "gone"], ["xlsx"])
    assert last_offer(layout, "s-1", {"pdf"}) == Offer(("pdf",), ())
