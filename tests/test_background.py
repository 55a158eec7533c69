"""The background catalogue's word counts: the whole table, and one word looked up in it."""

from __future__ import annotations

import pytest

from edgar_min.skills.background import COUNTS, DOCUMENTS, background_count, background_counts


def test_one_word_is_counted_as_the_whole_table_counts_it():
    counts, documents = background_counts()
    assert documents == DOCUMENTS
    assert len(counts) > 1000
    for word, count in counts.items():
        assert background_count(word) == count, word


@pytest.mark.parametrize(
    "word",
    # Not in the table, though a table word starts, ends or holds each; and what no word can be.
    ["nosuchword", "analy", "nalysis", "c+", "++", "", "0:5", "abstract academic", "5 1", "\n", ":"],
)
def test_a_word_the_table_does_not_have_counts_nothing(word):
    assert word not in background_counts()[0]
    assert background_count(word) == 0


def test_the_first_and_last_words_of_the_table_are_found():
    pairs = COUNTS.split()
    for pair in (pairs[0], pairs[-1]):
        word, _, count = pair.partition(":")
        assert background_count(word) == int(count)
