"""The routing index: what a person types finds the skill, and a chat line finds none."""

from __future__ import annotations

import pytest
from suggestfiles import SKILLS

from edgar_min.semif.types import DecisionRequest, Option
from edgar_min.skills.routing import NONE_EVIDENCE, Card, RoutingEngine, RoutingIndex, stem, words


@pytest.fixture(scope="module")
def index():
    return RoutingIndex(Card(name, d, w) for name, (d, w) in SKILLS.items())


@pytest.mark.parametrize(
    ("plain", "stemmed"),
    [("tests", "test"), ("testing", "test"), ("tester", "test"), ("debugging", "debug"), ("fuzzing", "fuzz")],
)
def test_word_forms_meet_at_one_stem(plain, stemmed):
    assert stem(plain) == stemmed


def test_function_words_and_pleasantries_are_not_evidence():
    assert words("hey can u pls help me with the thing, thanks!") == []


@pytest.mark.parametrize(
    ("text", "skill"),
    [
        ("make a gif for slack of a dancing cat", "slack-gif-creator"),
        ("ci is red on my pull request, figure out why", "gh-fix-ci"),
        ("fuzz the rust decoder crate", "cargo-fuzz"),
        ("fuzz my python code with a coverage guided fuzzer", "atheris"),
        ("merge these three pdfs and rotate page 2", "pdf"),
    ],
)
def test_a_task_in_a_persons_words_finds_its_skill(index, text, skill):
    hits = index.search(text)
    assert hits[0].name == skill
    assert hits[0].evidence > NONE_EVIDENCE


def test_one_typo_still_matches(index):
    assert index.search("creat a gif for slak")[0].name == "slack-gif-creator"
    assert index.search("exel spredsheet needs a new column")[0].name == "xlsx"


def test_an_everyday_word_reaches_the_skills_own_words(index):
    # "slides" appears in no description here as such; the alias table maps it to pptx/presentation.
    assert index.search("turn my notes into slides")[0].name == "pptx"


@pytest.mark.parametrize(
    "text", ["thanks, that worked!", "lol ok", "good morning", "what time is it in tokyo"]
)
def test_a_chat_line_has_no_evidence_for_any_skill(index, text):
    hits = index.search(text)
    assert not hits or hits[0].evidence < NONE_EVIDENCE


def test_the_engine_answers_none_when_nothing_applies(index):
    options = (Option("pdf", "pdf files"), Option("xlsx", "spreadsheets"), Option("none", "none of these"))
    chat = RoutingEngine(index).call(DecisionRequest("thanks, that worked", "which skill?", options))
    assert chat.selected == "none"
    task = RoutingEngine(index).call(DecisionRequest("merge two pdfs into one", "which skill?", options))
    assert task.selected == "pdf"
    assert task.extra["calibrated"] is False
    assert abs(sum(task.probabilities) - 1) < 1e-9


def test_a_huge_text_is_cut_before_scoring(index):
    text = "merge these pdfs " + "zzqx " * 200_000
    assert index.search(text)[0].name == "pdf"
