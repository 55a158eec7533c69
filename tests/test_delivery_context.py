"""The text handed to the agent: marked as edgar's, within the budget, never a silent cut."""

from __future__ import annotations

from edgar_min.delivery.context import HEADER, render_context
from edgar_min.skills.suggest import Candidate


def pick(name, probability=0.8):
    return Candidate(name, probability, f"about {name}", f"/p/.claude/skills/{name}/SKILL.md", "hand")


def test_short_bodies_are_given_whole_with_name_and_path():
    text = render_context([(pick("pdf"), "## Steps\n\n1. Merge.\n")], 8000)
    assert text.startswith(HEADER)
    assert "## Skill `pdf` (probability 0.80) - /p/.claude/skills/pdf/SKILL.md" in text
    assert text.endswith("## Steps\n\n1. Merge.")


def test_long_bodies_share_the_budget_and_say_where_the_rest_is():
    picks = [(pick("pdf"), "p" * 20_000), (pick("xlsx", 0.5), "short body")]
    text = render_context(picks, 3000)
    assert len(text) <= 3000
    assert "short body" in text
    assert "the whole skill is at /p/.claude/skills/pdf/SKILL.md" in text


def test_a_skill_that_does_not_fit_at_all_is_named_as_left_out():
    picks = [(pick(f"skill-{i}"), "body " * 100) for i in range(12)]
    text = render_context(picks, 1200)
    assert len(text) <= 1200
    assert "left out for room: " in text


def test_nothing_chosen_is_no_text():
    assert render_context([], 8000) == ""


def test_a_skill_only_named_gets_its_description_and_path_and_no_body():
    named = Candidate("xlsx", 0.55, "Spreadsheets. " * 60, "/p/.claude/skills/xlsx/SKILL.md", "hand")
    text = render_context([(pick("pdf", 0.95), "p" * 20_000)], 3000, [named])
    assert len(text) <= 3000
    assert text.startswith(HEADER)
    assert "## Skill `pdf` (probability 0.95)" in text
    assert "## Perhaps: skill `xlsx` (probability 0.55) - /p/.claude/skills/xlsx/SKILL.md" in text
    assert text.endswith("Not shown: read it only if it fits the task.")
    assert "Spreadsheets. " * 20 in text
    assert "Spreadsheets. " * 30 not in text
    alone = render_context([], 8000, [named])
    assert alone.startswith(HEADER)
    assert "Perhaps: skill `xlsx`" in alone


def test_named_skills_that_do_not_fit_are_left_out_and_the_text_stays_in_budget():
    named = [Candidate(f"skill-{i}", 0.5, "about it " * 30, f"/p/{i}/SKILL.md", "hand") for i in range(9)]
    text = render_context([], 1200, named)
    assert len(text) <= 1200
    assert "skill-0" in text
    assert "skill-8" not in text
    assert render_context([], len(HEADER) + 10, named) == ""
