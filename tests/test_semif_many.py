"""decide_many and call_many: one result and one log row per question, one run id, the state-first prompt."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from edgar_min.config import load_config
from edgar_min.errors import BadInput, ModelError
from edgar_min.layout import Layout
from edgar_min.semif import DecisionRequest, LoggedEngine, ask_many, decide, decide_many
from edgar_min.semif.lexical import LexicalEngine
from edgar_min.semif.log import DecisionLog, chat_rows
from edgar_min.semif.prompt import prompt_hash, render

STATE = "I was charged twice for invoice 2291 and the nightly export keeps failing with a timeout."
QUESTIONS = [
    ("Which team?", [("billing", "payments, invoices, charges"), ("technical", "export failures, bugs")]),
    ("What failed?", [("export", "the nightly export"), ("login", "signing in"), ("none", "nothing")]),
    ("Refund wanted?", [("yes", "a refund is asked for"), ("no", "no refund")]),
]


@pytest.fixture
def layout(tmp_path, _isolated_home):
    return Layout(tmp_path, _isolated_home)


def rows_of(layout):
    paths = sorted(Path(layout.decisions).glob("*.jsonl"))
    return [json.loads(x) for path in paths for x in path.read_text().splitlines()]


def test_decide_many_answers_each_question_and_logs_a_row_each_with_one_run_id(layout):
    results = decide_many(layout, load_config(layout), STATE, QUESTIONS, phase="triage")
    assert [r.request.question for r in results] == ["Which team?", "What failed?", "Refund wanted?"]
    assert [r.option_ids for r in results] == [
        ("billing", "technical"), ("export", "login", "none"), ("yes", "no")
    ]  # fmt: skip
    assert results[1].selected == "export"
    for result in results:
        assert sum(result.probabilities) == pytest.approx(1.0)
    rows = rows_of(layout)
    assert [r["id"] for r in rows] == [r.request.id for r in results]
    assert len({r["run_id"] for r in rows}) == 1
    assert rows[0]["run_id"].startswith("r-")
    assert {r["phase"] for r in rows} == {"triage"}
    assert {r["prompt_order"] for r in rows} == {"state_first"}
    assert [r["selected"] for r in rows] == [r.selected for r in results]


def test_decide_many_keeps_a_given_run_id(layout):
    decide_many(layout, load_config(layout), STATE, QUESTIONS[:2], run_id="r-given")
    assert {r["run_id"] for r in rows_of(layout)} == {"r-given"}


def test_bad_input_raises_before_anything_is_logged(layout):
    bad = [*QUESTIONS, ("Colour?", [f"c{i}" for i in range(17)])]
    with pytest.raises(BadInput, match=r"question 4 \('Colour\?'\): a decision takes at most 16 options"):
        decide_many(layout, load_config(layout), STATE, bad)
    assert not Path(layout.decisions).exists()


def test_decide_many_redacts_the_shared_state_once(layout, monkeypatch):
    from edgar_min import semif

    semif_redact = semif.redact
    seen = []

    def counting(text):
        seen.append(text)
        return semif_redact(text)

    monkeypatch.setattr(semif, "redact", counting)
    state = STATE + " Use the password=hunter22 for the portal."
    questions = [(f"Question {i}?", QUESTIONS[0][1]) for i in range(16)]
    results = decide_many(layout, load_config(layout), state, questions)
    assert seen.count(state) == 1
    assert {r.request.state for r in results} == {semif_redact(state)}
    rows = rows_of(layout)
    assert len(rows) == 16
    assert not any("hunter22" in row["state"] for row in rows)


def test_a_long_shared_state_costs_each_question_what_its_options_hold(monkeypatch):
    from edgar_min.semif import lexical

    lookups = []

    class Postings(dict):
        def get(self, key, default=None):
            lookups.append(key)
            return super().get(key, default)

    index = lexical._index
    monkeypatch.setattr(lexical, "_index", lambda options: (Postings(index(options)[0]), index(options)[1]))
    engine = LexicalEngine()
    counts = []
    for words in (1_000, 10_000):
        state = " ".join(f"word{n}" for n in range(words)) + " invoice charged twice"
        decisions = [DecisionRequest(state, q, opts) for q, opts in QUESTIONS]
        lookups.clear()
        results = engine.call_many(decisions)
        counts.append(len(lookups))
        assert results[0].selected == "billing"
    assert counts[0] == counts[1]


def test_lexical_call_many_gives_exactly_what_call_gives():
    engine = LexicalEngine()
    decisions = [DecisionRequest(STATE, q, opts) for q, opts in QUESTIONS]
    many = engine.call_many(decisions)
    for decision, result in zip(decisions, many, strict=True):
        single = engine.call(decision)
        assert result.probabilities == single.probabilities
        assert result.request is decision
        assert (single.prompt_order, result.prompt_order) == ("options_first", "state_first")


def test_one_question_through_decide_is_unchanged(layout):
    result = decide(layout, load_config(layout), STATE, *QUESTIONS[0])
    (row,) = rows_of(layout)
    assert row["run_id"] is None
    assert row["prompt_order"] == "options_first"
    assert row["prompt_hash"] == prompt_hash(result.request)


class OneByOne:
    """An engine with only `call` (a caller's own engine): ask_many falls back to it, in order."""

    name = "one-by-one"
    model = ""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def call(self, decision):
        self.seen.append(decision.question)
        return LexicalEngine().call(decision)


def test_ask_many_asks_an_engine_without_call_many_one_by_one():
    engine = OneByOne()
    decisions = [DecisionRequest(STATE, q, opts) for q, opts in QUESTIONS]
    results = ask_many(engine, decisions)
    assert engine.seen == [q for q, _ in QUESTIONS]
    assert [r.request for r in results] == decisions


class Shuffled:
    name = "shuffled"
    model = ""

    def call_many(self, decisions):
        return [LexicalEngine().call(d) for d in reversed(decisions)]


def test_an_engine_answering_out_of_order_is_a_model_error(tmp_path):
    decisions = [DecisionRequest(STATE, q, opts) for q, opts in QUESTIONS]
    with pytest.raises(ModelError, match="did not answer the 3 questions each, in order"):
        LoggedEngine(Shuffled(), DecisionLog(tmp_path)).call_many(decisions)
    assert not list(tmp_path.glob("*.jsonl"))


def test_both_prompt_orders_hold_the_same_parts_and_end_with_the_answer_line():
    decision = DecisionRequest(STATE, *QUESTIONS[1])
    first, state_first = render(decision), render(decision, "state_first")
    assert first.startswith("Criterion: What failed?\n\nOptions:\nA. export: the nightly export\n")
    assert state_first.startswith(f"Evidence:\n{STATE}\n\nCriterion: What failed?\n\nOptions:\n")
    assert sorted(first.splitlines()) == sorted(state_first.splitlines())
    for text in (first, state_first):
        assert text.endswith("\n\nAnswer with one letter (A, B, C).")
    assert prompt_hash(decision) != prompt_hash(decision, "state_first")
    with pytest.raises(ValueError, match="prompt order"):
        render(decision, "sideways")


def test_the_chat_export_renders_each_row_in_the_order_it_was_asked(layout):
    config = load_config(layout)
    decide(layout, config, STATE, *QUESTIONS[0])
    decide_many(layout, config, STATE, QUESTIONS[:2])
    examples, problems = chat_rows(DecisionLog.of(layout).read().rows)
    assert problems == []
    users = [e["messages"][1]["content"] for e in examples]
    assert users[0].startswith("Criterion: Which team?")
    assert users[1].startswith("Evidence:")
    assert users[2].startswith("Evidence:")
    assert [e["messages"][2]["content"] for e in examples] == ["A", "A", "A"]
