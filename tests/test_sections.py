"""The four-section rule and the fence-aware heading scanner every reader of sections uses."""

from __future__ import annotations

from skillfiles import BODY, NESTED_FENCE_BODY

from edgar_min.learning.similarity import procedure_of
from edgar_min.skills.sections import BODY_SECTIONS, fenced, headings, section, shape_problems


def titles(body: str) -> tuple[str, ...]:
    return tuple(text for text, _ in headings(body))


def test_headings_inside_fences_do_not_count():
    body = "## When to use\n\nx\n```md\n## Procedure\n```\n~~~~\n## Pitfalls\n~~~~\n## Verification\n\ny\n"
    assert titles(body) == ("When to use", "Verification")
    assert shape_problems(body) == ["missing section(s): Procedure, Pitfalls"]


def test_a_good_body_has_the_four_sections():
    assert titles(BODY) == BODY_SECTIONS
    assert shape_problems(BODY) == []


def test_level_three_headings_do_not_count():
    assert titles("### When to use\n# Procedure\n##Pitfalls\n") == ()


def test_a_repeated_section_is_reported_once():
    problems = shape_problems(BODY + BODY + BODY)
    assert problems == [
        "section 'When to use' appears more than once",
        "section 'Procedure' appears more than once",
        "section 'Pitfalls' appears more than once",
        "section 'Verification' appears more than once",
    ]


FENCED = (
    "## When to use\n\nWhen installing.\n\n## Procedure\n\n1. Write the README:\n\n"
    "```md\n## Install\n\npip install it\n```\n\n2. Commit it.\n\n## Pitfalls\n\nNone.\n"
)


def test_a_fenced_heading_does_not_end_a_section():
    procedure = section(FENCED, "Procedure")
    assert procedure is not None
    assert "2. Commit it." in procedure
    assert "None." not in procedure


def test_the_near_duplicate_rule_reads_the_whole_procedure_past_a_fenced_heading():
    assert "2. Commit it." in procedure_of(FENCED)


def test_a_missing_section_is_none():
    assert section("## When to use\n\nx\n", "Procedure") is None


def test_a_fence_closes_only_at_a_run_of_its_own_character_at_least_as_long():
    lines = ["````md", "```sh", "make test", "```", "## Not a heading", "~~~~", "````", "after"]
    assert fenced(lines) == [True] * 7 + [False]
    assert fenced(["~~~", "```", "~~~", "text"]) == [True, True, True, False]
    assert fenced(["```python", "never closed", "## Still code"]) == [True, True, True]


def test_a_shorter_fence_inside_a_longer_one_is_code_for_every_reader():
    assert shape_problems(NESTED_FENCE_BODY) == []
    assert [title for title, _ in headings(NESTED_FENCE_BODY)] == list(BODY_SECTIONS)
    assert "make build" in section(NESTED_FENCE_BODY, "Procedure")
