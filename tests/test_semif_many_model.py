"""Several questions over one state on a real llama.cpp server (SmolLM2-135M): the state-first letter slot.

What is under test is the readout and the batching, not a 135M model's judgement:
- in both prompt orders each id gets exactly the probability of its own letter in the raw reply;
- with every prompt evaluated whole (`cache_prompt: false`), the same request gives the same
  answer, and a question's probabilities are the same whether it was asked first, last or alone:
  the batch carries nothing from one question to the next;
- with the prompt cache on they move by a few hundredths, as the model's answer to one unchanged
  request does when a different part of it was cached (llama.cpp evaluates the pieces in other
  batch shapes, which rounds differently), in either prompt order.
"""

from __future__ import annotations

import math

import pytest
from test_semif_openai_model import expected_by_id

from edgar_min.config import SemifConfig
from edgar_min.models.http import post_json
from edgar_min.semif import DecisionRequest, Option, get_engine

pytestmark = pytest.mark.model

STATE = (
    "Hi, I was charged twice for invoice 2291 (49 EUR each) and want one refunded to my card. "
    "Also the nightly CSV export has failed since Tuesday with a timeout, and our accountant "
    "needs the file by Friday. Please call me in the afternoon. Dana"
)
QUESTIONS = [
    ("Which team first?", [("billing", "Payments, refunds."), ("technical", "Bugs, failures.")]),
    ("How urgent is it?", [("low", "Can wait."), ("high", "This week."), ("critical", "Business down.")]),
    ("How is a refund paid?", [("card", "To the card."), ("credit", "Store credit."), ("none", "None.")]),
    ("When to call?", [("morning", "Morning."), ("afternoon", "Afternoon."), ("evening", "Evening.")]),
]  # fmt: skip
# Asked before a batch so that every batch meets the server's prompt cache in the same state.
PRIMER = DecisionRequest("nothing to see here", "Anything?", [Option("yes"), Option("no")])


def decisions(state=STATE):
    return [DecisionRequest(state, q, [Option(i, d) for i, d in opts]) for q, opts in QUESTIONS]


@pytest.fixture
def engine(llama_server):
    return get_engine(SemifConfig(engine="openai", base_url=llama_server.base_url, timeout_s=120), {})


def most_apart(first, second):
    return max(
        abs(p - q)
        for a, b in zip(first, second, strict=True)
        for p, q in zip(a.probabilities, b.probabilities, strict=True)
    )


@pytest.mark.parametrize("order", ["options_first", "state_first"])
def test_the_letter_slot_readout_is_exact_in_both_orders(engine, order):
    for decision in decisions()[:2]:
        body = engine.letter_body(decision, order)
        reply = post_json("test", f"{engine.base_url}/chat/completions", body, {}, 120)
        read = engine.read(decision, reply, order)
        expected = expected_by_id(reply, decision)
        assert read.extra["probability_status"] == "logprobs"
        assert math.isclose(sum(read.probabilities), 1.0, rel_tol=1e-9)
        for option_id, p in read.probs.items():
            assert p == pytest.approx(expected[option_id], abs=1e-9), option_id


def whole_prompts(engine):
    """The engine, with the server told to evaluate every prompt whole (no prompt cache)."""
    post = engine._post
    engine._post = lambda body, *where: post({**body, "cache_prompt": False}, *where)
    return engine


def test_the_same_request_gives_the_same_answer(engine):
    engine = whole_prompts(engine)
    asked = decisions("Ticket 1\n" + STATE)[:2]
    first = engine.call_many(asked)
    engine.call(PRIMER)
    second = engine.call_many(asked)
    assert most_apart(first, second) == 0.0
    assert [r.request for r in first] == asked
    assert {r.prompt_order for r in first} == {"state_first"}


def test_a_question_gets_the_same_answer_first_last_or_alone(engine):
    engine = whole_prompts(engine)
    asked = decisions("Ticket 2\n" + STATE)
    forward = engine.call_many(asked)
    backward = engine.call_many(asked[::-1])[::-1]
    alone = [engine.call_many([d])[0] for d in asked]
    assert [r.request for r in backward] == asked
    assert most_apart(forward, backward) == 0.0
    assert most_apart(forward, alone) == 0.0


def test_the_prompt_cache_moves_answers_only_by_the_models_own_rounding(llama_server):
    # With the cache, each question after the first is evaluated on top of the cached state; the
    # same prompt evaluated in other pieces rounds differently (about 0.03 measured here, in
    # either prompt order), never by enough to mistake one option's letter for another's.
    cached = get_engine(SemifConfig(engine="openai", base_url=llama_server.base_url, timeout_s=120), {})
    whole = whole_prompts(
        get_engine(SemifConfig(engine="openai", base_url=llama_server.base_url, timeout_s=120), {})
    )
    asked = decisions("Ticket 3\n" + STATE)
    assert most_apart(cached.call_many(asked), whole.call_many(asked)) < 0.1
