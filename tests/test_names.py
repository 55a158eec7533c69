"""The skill name rule: what a name may be, said once and checked without a pattern."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from edgar_min.skills.names import is_skill_name, name_problem


@given(st.text(alphabet="az09-_A \n", max_size=70))
@settings(max_examples=800, deadline=None)
def test_the_rule_is_the_formats_pattern(text):
    expected = bool(re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", text)) and len(text) <= 64
    assert is_skill_name(text) == expected
    assert (name_problem(text) is None) == (expected and text != "learned")


def test_each_refusal_says_why():
    assert "longer than 64" in name_problem("a" * 65)
    for bad in ("-pin", "pin-", "pin--bump", "Pin", "pin bump", "pin_bump"):
        assert "single hyphens" in name_problem(bad), bad
    assert "reserved" in name_problem("learned")
    assert name_problem("pin-bump-2") is None


@pytest.mark.parametrize(
    ("prompt", "skill"),
    [
        ("/pdf rotate page 3", "pdf"),
        ("/pdf", "pdf"),
        ("/handgemacht:create-beads set up credo", "create-beads"),
        ("/pdf\nand more", "pdf"),
        ("rotate /pdf", None),
        ("/ pdf", None),
        ("/", None),
        ("/usr/bin/python3 crashes", None),
        ("/Review this", None),
    ],
)
def test_the_skill_a_slash_command_runs(prompt, skill):
    from edgar_min.skills.names import slash_skill

    assert slash_skill(prompt) == skill
