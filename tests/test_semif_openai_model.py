"""The openai engine against a real llama.cpp server (SmolLM2-135M): wire format and letter mapping.

A 135M model's judgement is not under test; the readout is: probabilities
over exactly the declared options, summing to 1, each id getting the
probability of its own letter.
"""

from __future__ import annotations

import math
import random

import pytest

from edgar_min.config import SemifConfig
from edgar_min.models.http import post_json
from edgar_min.semif import LETTERS, DecisionRequest, Option, get_engine, readout
from edgar_min.semif.systemone import SystemOneEngine

pytestmark = pytest.mark.model

WORDS = [
    "apple", "boiler", "castle", "dentist", "engine", "forest", "guitar", "harbour",
    "island", "jacket", "kettle", "lantern", "meadow", "notebook", "orchard", "pillow",
]  # fmt: skip


def expected_by_id(reply, decision):
    """Map the letters of a raw reply to ids by position, independently of the engine.

    A letter missing from the top logprobs counts at the lowest one listed (the most it can have).
    """
    top = reply["choices"][0]["logprobs"]["content"][0]["top_logprobs"]
    letters = LETTERS[: len(decision.options)]
    found = {}
    for entry in top:
        if entry["token"] in letters and entry["token"] not in found:
            found[entry["token"]] = entry["logprob"]
    lowest = min(entry["logprob"] for entry in top)
    weights = {x: math.exp(found.get(x, lowest)) for x in letters}
    total = sum(weights.values())
    return {o.id: weights[letter] / total for letter, o in zip(letters, decision.options, strict=False)}


@pytest.mark.parametrize("count", [2, 16])
def test_probabilities_cover_exactly_the_options_and_map_letters_to_ids(llama_server, count):
    engine = get_engine(SemifConfig(engine="openai", base_url=llama_server.base_url, timeout_s=60), {})
    options = [Option(w, f"Something about a {w}.") for w in WORDS[:count]]
    random.Random(count).shuffle(options)  # noqa: S311 - a fixed shuffle, not a secret
    decision = DecisionRequest(
        "I need someone to fix the boiler in my flat.", "Which word fits best?", options
    )
    result = engine.call(decision)
    assert result.engine == "openai"
    assert result.option_ids == tuple(o.id for o in options)
    assert set(result.probs) == {o.id for o in options}
    assert math.isclose(sum(result.probabilities), 1.0, rel_tol=1e-9)
    assert result.selected in result.probs
    assert result.extra["probability_status"] == "logprobs"
    assert result.extra["orders"] == count
    # The mapping, on one raw reply (two calls may differ in the last digits).
    reply = post_json("test", f"{engine.base_url}/chat/completions", engine.letter_body(decision), {}, 60)
    read = engine.read(decision, reply)
    expected = expected_by_id(reply, decision)
    for option_id, p in read.probs.items():
        assert p == pytest.approx(expected[option_id], abs=1e-9), option_id
    assert math.isclose(sum(read.probabilities), 1.0, rel_tol=1e-9)
    assert all(p > 0 for p in read.probabilities)


def test_the_constrained_fallback_answers_with_one_of_the_letters(llama_server):
    engine = get_engine(SemifConfig(engine="openai", base_url=llama_server.base_url, timeout_s=60), {})
    options = [Option("yes", "It is."), Option("no", "It is not."), Option("maybe", "Unclear.")]
    result = engine.constrained(DecisionRequest("The sky is blue.", "Is the sky blue?", options), "test")
    assert sorted(result.probabilities) == [0.0, 0.0, 1.0]
    assert result.selected in {"yes", "no", "maybe"}
    assert "constrained answer" in result.extra["probability_status"]


def test_systemone_on_a_server_without_a_decision_model_is_a_sentence(llama_server):
    from edgar_min.errors import ModelError

    engine = SystemOneEngine(
        SemifConfig(engine="systemone", base_url=llama_server.root_url, timeout_s=60), {}
    )
    options = [Option("a", "first"), Option("b", "second")]
    with pytest.raises(ModelError, match=r"/v1/systemone answered HTTP 501"):
        engine.call(DecisionRequest("s", "q", options))


def whole_prompts(engine):
    """The engine, with the server told to evaluate every prompt whole (no prompt cache)."""
    post = engine._post
    engine._post = lambda body, *where: post({**body, "cache_prompt": False}, *where)
    return engine


STATE = "The kitchen tap has been dripping since Monday and now there is water under the sink."
TRADES = [
    Option("plumber", "Fixes taps, pipes, leaks and drains."),
    Option("electrician", "Fixes wiring, sockets and lights."),
    Option("gardener", "Mows lawns and trims hedges."),
    Option("painter", "Paints walls and ceilings."),
]
# How far one option's probability may move when the same decision comes with its options
# rotated: the prompts are the same, asked in another order, and the prompt cache then
# evaluates them in other pieces, which rounds differently (a few hundredths measured).
ROTATION_TOLERANCE = 0.05


def test_the_installed_server_takes_prompt_lists_which_answer_as_chat_requests_do(llama_server):
    config = SemifConfig(engine="openai", base_url=llama_server.base_url, timeout_s=120)
    listed = whole_prompts(get_engine(config, {}))
    listed._tokenizes = False  # read by letter, as a chat request is
    chatted = whole_prompts(get_engine(config, {}))
    chatted.transport = "one request per prompt"
    asked = [
        DecisionRequest(STATE, "Who should come?", TRADES),
        DecisionRequest(STATE, "Is it urgent?", [Option("yes"), Option("no")]),
    ]
    by_list, by_chat = listed.call_many(asked), chatted.call_many(asked)
    assert listed.transport == "prompt lists"
    for a, b in zip(by_list, by_chat, strict=True):
        assert a.probabilities == pytest.approx(b.probabilities, abs=1e-6)
        assert a.extra["orders"] == len(a.option_ids)


def test_a_decision_with_its_options_rotated_gets_the_same_top_choice_and_probabilities(llama_server):
    engine = get_engine(SemifConfig(engine="openai", base_url=llama_server.base_url, timeout_s=120), {})
    results = [
        engine.call(DecisionRequest(STATE, "Who should come to the house?", TRADES[r:] + TRADES[:r]))
        for r in range(len(TRADES))
    ]
    first = results[0].probs
    for result in results[1:]:
        assert result.selected == results[0].selected
        for option_id, p in result.probs.items():
            assert p == pytest.approx(first[option_id], abs=ROTATION_TOLERANCE), option_id


def test_the_installed_server_is_read_by_option_id_with_every_option_a_probability(llama_server, monkeypatch):
    from edgar_min.semif import openai as openai_engine

    asked_paths = []
    post = openai_engine.post_json
    monkeypatch.setattr(
        openai_engine, "post_json", lambda who, url, *rest: asked_paths.append(url) or post(who, url, *rest)
    )
    engine = get_engine(SemifConfig(engine="openai", base_url=llama_server.base_url, timeout_s=120), {})
    asked = [
        DecisionRequest(STATE, "Who should come?", TRADES),
        DecisionRequest(STATE, "Is it urgent?", [Option("yes"), Option("no")]),
    ]
    for result, decision in zip(engine.call_many(asked), asked, strict=True):
        assert readout(result) == "option-id logprobs"
        assert result.option_ids == decision.option_ids
        assert math.isclose(sum(result.probabilities), 1.0, rel_tol=1e-9)
        assert all(p > 0 for p in result.probabilities)
        assert result.extra["orders"] == len(decision.options)
    # Each id's first token came from the server's own tokenizer, and they differ.
    assert len({engine._pieces[o.id] for o in TRADES}) == len(TRADES)
    # All six ids in one request, each piece what the id alone gives.
    assert sum(url.endswith("/tokenize") for url in asked_paths) == 1
    for option_id, piece in engine._pieces.items():
        body = {"content": f" {option_id}", "with_pieces": True}
        alone = post_json("test", f"{llama_server.root_url}/tokenize", body, {}, 60)
        assert alone["tokens"][0]["piece"] == piece, option_id
