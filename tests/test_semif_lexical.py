"""The offline lexical engine: BM25 + softmax, deterministic, labelled uncalibrated."""

from __future__ import annotations

import math

from edgar_min.semif import DecisionRequest, Option
from edgar_min.semif.lexical import LexicalEngine, stem, tokens

OPTIONS = [
    Option("email", "Write, draft and compose email messages to contacts."),
    Option("calendar", "Schedule meetings and calendar events."),
    Option("notes", "Take notes and keep a todo list."),
]


def test_tokens_are_lowercased_stemmed_and_drop_stop_words():
    assert tokens("The Drafts and DRAFTING of emails") == ("draft", "draft", "email")
    assert stem("meetings") == "meeting"
    assert stem("replies") == "reply"


def test_the_matching_option_wins_and_probabilities_sum_to_one():
    engine = LexicalEngine()
    result = engine.call(DecisionRequest("please schedule a meeting on friday", "Which category?", OPTIONS))
    assert result.selected == "calendar"
    assert math.isclose(sum(result.probabilities), 1.0)
    assert result.option_ids == ("email", "calendar", "notes")
    assert result.extra["calibrated"] is False
    assert result.engine == "lexical"


def test_deterministic():
    engine = LexicalEngine()
    req = DecisionRequest("draft an email to bob", "Which?", OPTIONS)
    assert engine.call(req).probabilities == engine.call(req).probabilities


def test_none_wins_when_nothing_matches_and_loses_when_something_does():
    engine = LexicalEngine()
    with_none = [*OPTIONS, Option("none", "None of these.")]
    assert engine.call(DecisionRequest("what is the weather", "Which?", with_none)).selected == "none"
    assert engine.call(DecisionRequest("compose an email", "Which?", with_none)).selected == "email"


def test_a_single_option_still_beats_none_on_a_shared_word():
    engine = LexicalEngine()
    opts = [Option("email.compose", "Compose an email draft to one contact."), Option("none", "None.")]
    assert engine.call(DecisionRequest("write an email to bob", "Which?", opts)).selected == "email.compose"


def test_option_ids_count_as_words():
    engine = LexicalEngine()
    opts = [Option("alice"), Option("bob"), Option("none", "Nobody.")]
    assert engine.call(DecisionRequest("send it to bob", "Who?", opts)).selected == "bob"
