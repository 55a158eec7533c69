"""The arithmetic of position-fair letter slots: every cyclic order, combined by the geometric mean."""

from __future__ import annotations

import math

import pytest

from edgar_min.semif import DecisionRequest, Option
from edgar_min.semif.cyclic import combined, rotations

DECISION = DecisionRequest(
    "the boiler is broken", "Who to call?", [Option("alice"), Option("bob"), Option("carol"), Option("dan")]
)
# A model's letter slot as PriDe describes it: a prior over letters plus the options' own log-probability.
PRIOR = {"A": -0.1, "B": -1.5, "C": -2.5, "D": -4.0}
OWN = {"alice": 0.0, "bob": 1.2, "carol": 0.3, "dan": -0.4}


def letter_slot(decision):
    """Each option's log-probability, in the decision's own order, from every cyclic order of it."""
    per_order = []
    for asked in rotations(decision):
        at = {o.id: PRIOR["ABCD"[j]] + OWN[o.id] for j, o in enumerate(asked.options)}
        per_order.append([at[i] for i in decision.option_ids])
    return per_order


def test_each_option_sits_at_each_letter_once_and_the_given_order_comes_first():
    orders = rotations(DECISION)
    assert orders[0] is DECISION
    assert [[o.id for o in d.options] for d in orders] == [
        ["alice", "bob", "carol", "dan"],
        ["bob", "carol", "dan", "alice"],
        ["carol", "dan", "alice", "bob"],
        ["dan", "alice", "bob", "carol"],
    ]
    assert {d.id for d in orders} == {DECISION.id}
    assert {d.state for d in orders} == {DECISION.state}


def test_a_prior_over_the_letters_is_removed_exactly():
    probs = combined(letter_slot(DECISION))
    weights = [math.exp(OWN[i]) for i in DECISION.option_ids]
    assert probs == pytest.approx(tuple(w / sum(weights) for w in weights), abs=1e-12)
    # Asked in the given order alone, the letter A's pull decides instead.
    alone = combined(letter_slot(DECISION)[:1])
    assert DECISION.option_ids[alone.index(max(alone))] == "alice"
    assert DECISION.option_ids[probs.index(max(probs))] == "bob"


def test_the_same_decision_rotated_gets_the_same_probability_per_option():
    base = dict(zip(DECISION.option_ids, combined(letter_slot(DECISION)), strict=True))
    for turned in rotations(DECISION)[1:]:
        again = dict(zip(turned.option_ids, combined(letter_slot(turned)), strict=True))
        assert again == pytest.approx(base, abs=1e-12)


def test_one_order_is_the_softmax_over_its_letters_and_every_option_gets_a_probability():
    probs = combined([[-0.5, -1.0, -800.0]])
    exps = [math.exp(-0.5), math.exp(-1.0)]
    assert probs[:2] == pytest.approx((exps[0] / sum(exps), exps[1] / sum(exps)))
    assert sum(probs) == pytest.approx(1.0)
    assert len(probs) == 3


def test_a_single_option_is_certain():
    only = DecisionRequest("s", "q", [Option("x")])
    assert rotations(only) == (only,)
    assert combined([[-3.0]]) == (1.0,)
