"""Several questions over one state: the checks that name which question was wrong, and the JSONL reader."""

from __future__ import annotations

import pytest

from edgar_min.errors import BadInput
from edgar_min.semif import Option, Question
from edgar_min.semif.questions import MAX_QUESTIONS, read_questions, requests_for

YES_NO = (Option("yes"), Option("no"))


def test_requests_share_the_state_and_keep_the_order():
    requests = requests_for("the ticket", [("Urgent?", ["yes", "no"]), Question("Team?", YES_NO, "d-team")])
    assert [r.question for r in requests] == ["Urgent?", "Team?"]
    assert {r.state for r in requests} == {"the ticket"}
    assert requests[1].id == "d-team"
    assert requests[0].id.startswith("d-")


@pytest.mark.parametrize(
    ("questions", "sentence"),
    [
        ([("Urgent?", YES_NO), ("Colour?", [f"c{i}" for i in range(17)])],
         "question 2 ('Colour?'): a decision takes at most 16 options (letters A-P); 17 were given"),
        ([("Urgent?", YES_NO), ("Size?", ["s", "m", "s"])],
         "question 2 ('Size?'): option id 's' is given twice; ids must be unique"),
        ([("Urgent?", YES_NO), (" ", YES_NO)], "question 2: a decision needs a non-empty question"),
        ([("Urgent?", [])], "question 1 ('Urgent?'): a decision needs at least one option"),
        ([Question("A?", YES_NO, "x"), Question("B?", YES_NO, "x")],
         "question 2 ('B?'): id 'x' is already the id of question 1; decision ids must be unique"),
        ([("A?", YES_NO), 42], "question 2: a question must be a Question or a (question, options) pair"),
        ([], "need at least one question"),
    ],
)  # fmt: skip
def test_bad_questions_are_sentences_naming_the_question(questions, sentence):
    with pytest.raises(BadInput) as caught:
        requests_for("the ticket", questions)
    assert sentence in caught.value.message


def test_an_empty_state_is_no_one_questions_fault():
    with pytest.raises(BadInput) as caught:
        requests_for("  ", [("A?", YES_NO)])
    assert caught.value.message == "a decision needs a non-empty state (the evidence to decide on)"


def test_a_runaway_list_is_stopped():
    with pytest.raises(BadInput, match=f"at most {MAX_QUESTIONS} questions"):
        requests_for("s", [(f"q{i}?", YES_NO) for i in range(MAX_QUESTIONS + 1)])


def test_read_questions_takes_ids_strings_and_objects():
    text = (
        '{"question": "Team?", "options": ["billing=payments", "technical"], "id": "d-1"}\n'
        "\n"
        '{"question": "Urgent?", "options": [{"id": "yes", "description": "now"}, {"id": "no"}]}\n'
    )
    first, second = read_questions(text, "q.jsonl")
    assert first == Question("Team?", (Option("billing", "payments"), Option("technical", "")), "d-1")
    assert second.options == (Option("yes", "now"), Option("no", ""))
    assert second.id == ""


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ('{"question": "A?", "options": ["a"]}\nnot json\n', "q.jsonl line 2: not a JSON object"),
        ("[1, 2]\n", "q.jsonl line 1: not a JSON object"),
        ('{"question": "A?", "options": ["a"], "state": "x"}', "q.jsonl line 1: unknown key 'state'"),
        ('{"question": "A?", "options": "a"}', "q.jsonl line 1: 'options' must be a list"),
        ('{"question": "A?", "options": [{"name": "a"}]}', "q.jsonl line 1: an option is 'ID'"),
        ('{"question": 3, "options": ["a"]}', "q.jsonl line 1: 'question' and 'id' must be text"),
        ('{"question": "A?", "options": ["=x"]}', "the option id before '=' may not be empty"),
        ("\n\n", "q.jsonl: no questions"),
    ],
)
def test_read_questions_names_the_bad_line(text, sentence):
    with pytest.raises(BadInput) as caught:
        read_questions(text, "q.jsonl")
    assert sentence in caught.value.message
