"""charsets: the string checks that stand for small patterns say what the patterns say."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from edgar_min.charsets import ALNUM, DIGITS, LOWER, consists_of, dashed

_TEXT = st.text(alphabet="aZ09._-:@ !\n\t\u00e9/", max_size=60)


@given(_TEXT)
@settings(max_examples=500, deadline=None)
def test_consists_of_is_a_class_matched_whole(text):
    assert consists_of(text, LOWER + DIGITS + "-") == bool(re.fullmatch(r"[a-z0-9-]*", text))
    assert consists_of(text, ALNUM + "._-") == bool(re.fullmatch(r"[A-Za-z0-9._-]*", text))


@given(_TEXT)
@settings(max_examples=500, deadline=None)
def test_dashed_makes_each_run_of_other_characters_one_dash(text):
    assert dashed(text, frozenset(ALNUM + "._-")) == re.sub(r"[^A-Za-z0-9._-]+", "-", text)
    assert dashed(text, ALNUM + "_-") == re.sub(r"[^A-Za-z0-9_-]+", "-", text)
