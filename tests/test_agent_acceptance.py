"""The acceptance checker: every problem, with file and line."""

from __future__ import annotations

import textwrap

import pytest

from edgar_min.agent.acceptance import check_body
from edgar_min.agent.registry import Manifest, parse_registry

GOOD = textwrap.dedent(
    """\
    from pathlib import Path

    from semif_agent.skills import ActionResult, DecisionRequest, Option, Prediction


    def predict(ctx, request):
        options = [Option("a"), Option("none")]
        decision = DecisionRequest(state=request.text, question="Which?", options=options)
        result = ctx.engine.call(decision)
        return Prediction(text=result.selected, decisions=[(decision, result)])


    def act(ctx, request, prediction):
        Path(ctx.config["drafts"]).mkdir(parents=True, exist_ok=True)
        return ActionResult(action_log="did it", new_state="done")
    """
)
MANIFEST = Manifest("email.compose", "email", "Compose an email draft to one contact.")


def problems(source, manifest=MANIFEST, registry=None, new=False):
    return [str(p) for p in check_body(source, "body.py", manifest, registry, new=new)]


def test_a_good_body_passes():
    assert problems(GOOD) == []


def test_edgar_min_public_module_is_allowed_too():
    body = GOOD.replace("from semif_agent.skills import", "from edgar_min.agent.skills import")
    assert problems(body) == []
    body = GOOD.replace("from semif_agent.skills import ActionResult, DecisionRequest, Option, Prediction",
                        "from semif_agent import skills\nActionResult = skills.ActionResult\n"
                        "DecisionRequest = skills.DecisionRequest\nOption = skills.Option\n"
                        "Prediction = skills.Prediction")  # fmt: skip
    assert problems(body) == []


def test_syntax_error_names_the_line():
    assert problems("def predict(ctx, request):\n    return (\n\n") == [
        "body.py:2: does not compile: '(' was never closed"
    ]


@pytest.mark.parametrize(
    ("line", "sentence"),
    [
        ("import requests", "imports 'requests': only the stdlib and the agent package are allowed"),
        ("from yaml import safe_load", "imports from 'yaml': only the stdlib"),
        ("import ctypes", "imports 'ctypes', which a skill may not use"),
        ("import importlib", "imports 'importlib', which a skill may not use"),
        ("from importlib import import_module", "imports from 'importlib', which a skill may not use"),
        ("import subprocess", "imports 'subprocess', which a skill may not use"),
        ("import socket", "imports 'socket', which a skill may not use"),
        ("import sys", "imports 'sys', which a skill may not use"),
        ("import edgar_min", "imports 'edgar_min': only the stdlib"),
        ("from edgar_min.agent import walls", "imports from 'edgar_min.agent': only the stdlib"),
        ("from . import sibling", "relative import"),
        ("X = __import__('os')", "uses '__import__'"),
        ("X = eval('1')", "uses 'eval'"),
        ("exec('x = 1')", "uses 'exec'"),
        ("X = compile('1', 'f', 'eval')", "uses 'compile'"),
        ("X = ().__class__.__subclasses__", "reaches for '__subclasses__'"),
        ("X = getattr(object, '__subclasses__')", "getattr of '__subclasses__'"),
    ],
)
def test_hostile_lines_are_refused_with_their_line(line, sentence):
    found = problems(GOOD + line + "\n")
    line_no = GOOD.count("\n") + 1
    assert any(p.startswith(f"body.py:{line_no}: ") and sentence in p for p in found), found


def test_missing_functions_wrong_arity_and_wrong_returns_are_all_reported():
    body = textwrap.dedent(
        """\
        def predict(ctx):
            ctx.engine.call(None)
            return "a string"
        """
    )
    found = problems(body)
    assert "body.py:1: does not define act(ctx, request, prediction) at the top level" in found
    assert "body.py:1: predict must take exactly the arguments predict(ctx, request)" in found
    assert "body.py:1: predict must return a Prediction(...)" in found
    assert "body.py:3: predict returns something that is not a Prediction" in found


def test_a_body_that_never_uses_the_engine_is_refused():
    body = GOOD.replace("result = ctx.engine.call(decision)", "result = FAKE")
    assert any("never uses ctx.engine" in p for p in problems(body))


def test_bad_name_and_wrong_category():
    found = problems(GOOD, Manifest("Email.Compose!", "email", "x"))
    assert any("must match" in p for p in found)
    found = problems(GOOD, Manifest("calendar.compose", "email", "x"))
    assert any("must start with its category ('email')" in p for p in found)


def test_duplicate_leaves_same_name_or_nearly_the_same_description(tmp_path):
    text = (
        '{"categories": [{"name": "email", "description": "Email.", "skills": ['
        '{"name": "email.compose", "description": "Compose an email draft to one contact."}]}]}'
    )
    registry, errs = parse_registry(text, tmp_path / "categories.json")
    assert errs == []
    assert any("already a leaf" in p for p in problems(GOOD, MANIFEST, registry, new=True))
    twin = Manifest("email.write", "email", "Compose an email draft to a contact.")
    assert any("duplicates the leaf 'email.compose'" in p for p in problems(GOOD, twin, registry, new=True))
    other = Manifest("email.archive", "email", "Move old messages into the archive folder.")
    assert problems(GOOD, other, registry, new=True) == []
