"""The acceptance checker: every problem, with file and line."""

from __future__ import annotations

import textwrap

import pytest

from edgar_min.agent.acceptance import check_body
from edgar_min.agent.tree import Manifest, parse_registry

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


@pytest.mark.parametrize(
    ("line", "sentence"),
    [
        # Attribute paths to modules a body may not import.
        ("import os\nX = os.sys.modules", "reaches for 'sys' (reaches the module 'sys'"),
        ("import os\nX = os.path.os.sys", "reaches for 'sys'"),
        ("import collections\nX = collections._sys", "reaches for '_sys' (reaches the module 'sys'"),
        ("import logging\nX = logging.threading", "reaches for 'threading'"),
        ("import enum\nX = enum.bltns", "reaches for 'bltns'"),
        ("import asyncio\nX = asyncio.events.concurrent", "reaches for 'concurrent'"),
        ("from os import sys", "imports 'sys' from 'os'"),
        ("from collections import _sys", "imports '_sys' from 'collections'"),
        # Dunder access to module, class or frame state.
        ("X = ActionResult.__dict__", "reaches for '__dict__' (interpreter internals"),
        ("X = predict.__globals__", "reaches for '__globals__'"),
        ("X = ().__class__", "reaches for '__class__'"),
        ("X = object.__subclasses__()", "reaches for '__subclasses__'"),
        ("X = __builtins__", "uses '__builtins__'"),
        ("X = __loader__", "uses '__loader__'"),
        ("X = object.__getattribute__(1, 'real')", "reaches for '__getattribute__'"),
        # Namespaces and attributes by string.
        ("X = vars()", "uses 'vars'"),
        ("X = globals()", "uses 'globals'"),
        ("X = locals()", "uses 'locals'"),
        ("N = 'real'\nX = getattr(1, N)", "getattr with a name that is not a constant string"),
        ("X = setattr(Prediction, 'te' + 'xt', 1)", "setattr with a name that is not a constant string"),
        ("delattr(Prediction, NAME)", "delattr with a name that is not a constant string"),
        ("X = getattr(predict, '__globals__')", "getattr of '__globals__'"),
        ("import os\nX = getattr(os, 'sys')", "getattr of 'sys'"),
        ("G = getattr", "uses 'getattr' other than as a direct call"),
        ("import operator\nX = operator.attrgetter('f_globals')", "reaches for 'attrgetter'"),
        ("from operator import attrgetter", "imports 'attrgetter' from 'operator'"),
        # Frames.
        ("import traceback\nX = traceback.walk_stack(None)", "reaches for 'walk_stack'"),
        ("try:\n    1 / 0\nexcept Exception as e:\n    X = e.__traceback__", "reaches for '__traceback__'"),
        ("def g():\n    yield 1\nX = g().gi_frame.f_back", "reaches for 'gi_frame'"),
        # Code that runs other code, threads and processes outside the wall.
        ("import pickle", "imports 'pickle', which a skill may not use"),
        ("import marshal", "imports 'marshal', which a skill may not use"),
        ("import shelve", "imports 'shelve', which a skill may not use"),
        ("from concurrent.futures import ThreadPoolExecutor", "imports from 'concurrent.futures', which"),
        ("import concurrent.futures", "imports 'concurrent.futures', which a skill may not use"),
        ("import threading", "imports 'threading', which a skill may not use"),
        ("import _thread", "imports '_thread', which a skill may not use"),
        ("import asyncio\nX = asyncio.get_event_loop().run_in_executor", "reaches for 'run_in_executor'"),
        ("import asyncio\nX = asyncio.to_thread", "reaches for 'to_thread'"),
        ("import asyncio.subprocess", "imports 'asyncio.subprocess', which a skill may not use"),
        ("import logging.handlers", "imports 'logging.handlers', which a skill may not use"),
        ("from logging.handlers import QueueListener", "imports from 'logging.handlers', which"),
        ("import logging\nX = logging.handlers.QueueListener", "reaches for 'QueueListener'"),
        ("import logging.config", "imports 'logging.config', which a skill may not use"),
        ("from logging import config", "imports 'config' from 'logging', which a skill may not use"),
        ("import gc", "imports 'gc', which a skill may not use"),
        ("import inspect", "imports 'inspect', which a skill may not use"),
        ("import timeit", "imports 'timeit', which a skill may not use"),
        ("import pkgutil", "imports 'pkgutil', which a skill may not use"),
        ("import unittest.mock", "imports 'unittest.mock', which a skill may not use"),
        ("import _posixsubprocess", "imports '_posixsubprocess', which a skill may not use"),
        ("import types\nX = types.CodeType", "reaches for 'CodeType'"),
        ("import os\nos.fork()", "reaches for 'fork'"),
        # Writes the wall cannot see or resolves wrongly.
        ("import sqlite3", "imports 'sqlite3', which a skill may not use"),
        ("import dbm", "imports 'dbm', which a skill may not use"),
        ("import fcntl", "imports 'fcntl', which a skill may not use"),
        ("import os\nos.mkfifo('/tmp/f')", "reaches for 'mkfifo'"),
        ("import resource\nresource.setrlimit(resource.RLIMIT_CPU, (-1, -1))", "reaches for 'setrlimit'"),
        ("import os\nos.setxattr('/tmp/f', 'user.x', b'1')", "reaches for 'setxattr'"),
        ("import os\nos.open('x', os.O_WRONLY, dir_fd=3)", "passes dir_fd="),
        ("import os\nos.rename('a', 'b', src_dir_fd=3)", "passes src_dir_fd="),
        # edgar's own internals.
        ("import edgar_min.agent.skills", "binds the name 'edgar_min', which reaches edgar's internals"),
        ("from edgar_min.agent.walls import Wall", "imports from 'edgar_min.agent.walls': only the stdlib"),
        ("from edgar_min.agent import loop", "imports from 'edgar_min.agent': only the stdlib"),
        ("from semif_agent.skills import __dict__", "imports '__dict__' from 'semif_agent.skills'"),
        ("from os import *", "imports * from 'os'"),
    ],
)
def test_paths_to_the_interpreter_threads_processes_and_hidden_writes_are_refused(line, sentence):
    found = problems(GOOD + line + "\n")
    line_no = GOOD.count("\n") + 1
    lines = range(line_no, line_no + line.count("\n") + 1)
    assert any(any(p.startswith(f"body.py:{n}: ") for n in lines) and sentence in p for p in found), found


@pytest.mark.parametrize(
    "line",
    [
        "import email.utils\nX = email.utils.formatdate()",
        "import json, re, datetime, dataclasses, collections, enum, asyncio, logging, os, textwrap",
        "import edgar_min.agent.skills as skills",
        "import semif_agent.skills",
        "from edgar_min.agent import skills",
        "X = getattr(Prediction, 'text', None)",
        (
            "class Note:\n    def __init__(self, code):\n        self.code = code\n"
            "    def __repr__(self):\n        return self.code\nX = Note(1).code"
        ),
        "if __name__ == '__main__':\n    pass",
        "import logging\nLOG = logging.getLogger(__name__)",
        "import os\nX = os.path.join(os.sep, 'a')",
    ],
)
def test_ordinary_stdlib_code_still_passes(line):
    found = problems(GOOD + line + "\n")
    assert found == [], found


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
