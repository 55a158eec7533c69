"""DecisionRequest / DecisionResult: the shape every engine can rely on."""

from __future__ import annotations

import pytest

from edgar_min.errors import BadInput
from edgar_min.semif import DecisionRequest, DecisionResult, Option


def opts(n):
    return [Option(f"o{i}", f"option {i}") for i in range(n)]


def test_pairs_strings_and_options_all_become_options():
    req = DecisionRequest("s", "q", [("a", "first"), Option("b", "second"), "c"])
    assert req.options == (Option("a", "first"), Option("b", "second"), Option("c", ""))
    assert req.option_ids == ("a", "b", "c")
    assert req.id.startswith("d-")


def test_sixteen_options_are_fine_seventeen_are_not():
    assert len(DecisionRequest("s", "q", opts(16)).options) == 16
    with pytest.raises(BadInput, match=r"at most 16 options \(letters A-P\); 17 were given"):
        DecisionRequest("s", "q", opts(17))


@pytest.mark.parametrize(
    ("options", "sentence"),
    [
        ([Option("a"), Option("a")], "option id 'a' is given twice"),
        ([Option("", "empty")], "an option id may not be empty"),
        ([Option("  ", "blank")], "an option id may not be empty"),
        ([Option("a\nb")], "may not contain a line break"),
        ([], "at least one option"),
        ([42], "an Option or an \\(id, description\\) pair"),
    ],
)
def test_bad_options_are_sentences(options, sentence):
    with pytest.raises(BadInput, match=sentence):
        DecisionRequest("s", "q", options)


def test_empty_state_or_question_is_refused():
    with pytest.raises(BadInput, match="non-empty state"):
        DecisionRequest("  ", "q", opts(2))
    with pytest.raises(BadInput, match="non-empty question"):
        DecisionRequest("s", "", opts(2))


def test_selected_is_the_argmax_id_and_the_first_on_a_tie():
    req = DecisionRequest("s", "q", opts(3))
    result = DecisionResult(req, req.option_ids, (0.2, 0.5, 0.3), "test")
    assert result.selected == "o1"
    assert result.probs == {"o0": 0.2, "o1": 0.5, "o2": 0.3}
    tie = DecisionResult(req, req.option_ids, (0.4, 0.4, 0.2), "test")
    assert tie.selected == "o0"
    assert tie.as_json()["selected"] == "o0"


def test_decisions_with_the_same_options_share_a_prompt_prefix_up_to_the_evidence():
    from edgar_min.semif.prompt import render

    options = [Option("billing", "Invoices and payments."), Option("none", "None of these.")]
    first = render(DecisionRequest("my invoice is wrong", "Which topic?", options))
    second = render(DecisionRequest("where is my parcel", "Which topic?", options))
    assert first.splitlines() == [
        "Criterion: Which topic?",
        "",
        "Options:",
        "A. billing: Invoices and payments.",
        "B. none: None of these.",
        "",
        "Evidence:",
        "my invoice is wrong",
        "",
        "Answer with one letter (A, B).",
    ]
    shared = first[: first.index("my invoice")]
    assert second.startswith(shared)
    assert shared.endswith("Evidence:\n")


def test_a_str_subclass_is_copied_to_a_plain_str_before_any_engine_sees_it():
    calls = []

    class Loud(str):  # noqa: SLOT000 - a hostile subclass, as a body would write it
        def lower(self):
            calls.append("lower")
            return str.lower(self)

    class Sly(Option):
        __slots__ = ()

    request = DecisionRequest(
        Loud("the state"), Loud("Which?"), [Sly(Loud("a"), Loud("the a option"))], Loud("d-1")
    )
    assert [type(v) for v in (request.state, request.question, request.id)] == [str, str, str]
    (option,) = request.options
    assert (type(option), type(option.id), type(option.description)) == (Option, str, str)
    assert request.state.lower() == "the state"
    assert calls == []
