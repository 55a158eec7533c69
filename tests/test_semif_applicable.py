"""Which candidates apply to one text: one question per candidate over the text, asked together."""

from __future__ import annotations

import json

import pytest

from edgar_min.errors import BadInput
from edgar_min.semif import LoggedEngine
from edgar_min.semif.applicable import NONE, QUESTION, applicable
from edgar_min.semif.lexical import LexicalEngine
from edgar_min.semif.log import DecisionLog

CANDIDATES = [
    ("pin-bump", "Bump a dependency pin and refresh the lock file."),
    ("release-notes", "Write release notes from the merged pull requests."),
    ("lockfile-refresh", "Refresh a stale lock file after a dependency change."),
]


def test_each_candidate_gets_its_own_question_and_probability(tmp_path):
    engine = LoggedEngine(LexicalEngine(), DecisionLog(tmp_path), phase="suggest", run_id="r-s")
    found = applicable(engine, "bump the httpx pin and refresh the lock file", CANDIDATES)
    assert [a.name for a in found] == ["pin-bump", "release-notes", "lockfile-refresh"]
    # Two skills fit: each beats `none` on its own, which one shared decision would not promise.
    assert [a.applies for a in found] == [True, False, True]
    for a in found:
        assert a.result.option_ids == (a.name, "none")
        assert a.probability == a.result.probabilities[0]
        assert a.result.request.question == QUESTION
        assert a.result.request.options[1] == NONE
    rows = [json.loads(x) for path in tmp_path.glob("*.jsonl") for x in path.read_text().splitlines()]
    assert [(r["phase"], r["run_id"]) for r in rows] == [("suggest", "r-s")] * 3
    assert {r["state"] for r in rows} == {"bump the httpx pin and refresh the lock file"}


def test_no_candidates_asks_nothing(tmp_path):
    engine = LoggedEngine(LexicalEngine(), DecisionLog(tmp_path))
    assert applicable(engine, "hello", []) == ()
    assert not list(tmp_path.glob("*.jsonl"))


def test_a_candidate_named_none_is_refused_by_name(tmp_path):
    engine = LoggedEngine(LexicalEngine(), DecisionLog(tmp_path))
    with pytest.raises(BadInput, match=r"question 2 \('Should the agent.*option id 'none' is given twice"):
        applicable(engine, "hello", [CANDIDATES[0], ("none", "a skill called none")])
    assert not list(tmp_path.glob("*.jsonl"))
