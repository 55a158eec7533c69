"""`lazy(...)`: a pattern that behaves like `re.compile(...)` and is compiled on first use."""

from __future__ import annotations

import re

import pytest

from edgar_min.regex import lazy


def test_a_lazy_pattern_answers_like_the_compiled_one():
    pattern = lazy(r"(?P<word>[a-z]+)-(\d+)", re.IGNORECASE)
    compiled = re.compile(r"(?P<word>[a-z]+)-(\d+)", re.IGNORECASE)
    for text in ("Pin-12", "pin-", "x pin-3 y"):
        assert bool(pattern.fullmatch(text)) == bool(compiled.fullmatch(text))
        assert pattern.sub(r"\2", text) == compiled.sub(r"\2", text)
        assert pattern.findall(text) == compiled.findall(text)
    assert pattern.search("a-1").group("word") == "a"
    assert pattern.pattern == compiled.pattern
    assert pattern.flags == compiled.flags


def test_nothing_is_compiled_until_the_pattern_is_used():
    broken = lazy("(unclosed")  # re.compile would raise here
    with pytest.raises(re.error):
        broken.match("x")


def test_once_used_every_method_of_the_compiled_pattern_is_there():
    pattern = lazy(r"a(b)?")
    assert pattern.match("ab").group(1) == "b"
    compiled = re.compile(r"a(b)?")
    for name in ("scanner", "subn", "split", "groupindex", "groups"):
        assert hasattr(pattern, name) == hasattr(compiled, name)
    assert pattern.subn("x", "abab") == compiled.subn("x", "abab")
    assert repr(pattern) == "lazy('a(b)?')"
