"""The turn record: seven fields, refused whole on anything else."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from edgar_min.errors import BadInput
from edgar_min.learning.turn import ErrorRecord, Turn, parse_turn, strip_program, turn_from_json
from edgar_min.redact import redact

GOOD = {
    "prompt": "bump the httpx pin",
    "corrections": ["no, refresh the lock file too"],
    "tools": ["shell", "edit", "shell"],
    "errors": [{"tool": "shell", "kind": "nonzero_exit", "exit_code": 1, "program": "pytest"}],
    "verification": "passed",
    "agent": "main",
    "skills": [],
}


def test_the_design_example_parses_into_the_seven_fields():
    turn = parse_turn(GOOD)
    assert turn == Turn(
        prompt="bump the httpx pin",
        corrections=("no, refresh the lock file too",),
        tools=("shell", "edit", "shell"),
        errors=(ErrorRecord("shell", "nonzero_exit", 1, "pytest"),),
        verification="passed",
        agent="main",
        skills=(),
    )
    assert turn.shape == "main:shell>edit"


def test_missing_optional_keys_take_defaults():
    turn = parse_turn({"prompt": "x"})
    assert (turn.corrections, turn.tools, turn.errors) == ((), (), ())
    assert (turn.verification, turn.agent, turn.skills) == ("unverified", "main", ())
    assert turn.shape == "main:"


@pytest.mark.parametrize("key", ["stdout", "output", "message", "args", "stderr", "result"])
def test_a_forbidden_top_level_key_is_refused_by_name(key):
    with pytest.raises(BadInput) as err:
        parse_turn({**GOOD, key: "SECRET"})
    assert repr(key) in err.value.message
    assert "nothing was stored" in err.value.message
    assert "SECRET" not in err.value.message


@pytest.mark.parametrize("key", ["message", "stderr", "output", "args"])
def test_a_forbidden_key_inside_an_error_record_is_refused(key):
    error = {"tool": "shell", "kind": "nonzero_exit", key: "boom"}
    with pytest.raises(BadInput) as err:
        parse_turn({"prompt": "x", "errors": [error]})
    assert repr(key) in err.value.message
    assert "boom" not in err.value.message


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"prompt": 3}, "'prompt'"),
        ({"prompt": "  "}, "'prompt'"),
        ({}, "'prompt' is required"),
        ([], "JSON object"),
        ({"prompt": "x", "tools": "shell"}, "'tools'"),
        ({"prompt": "x", "tools": ["Shell"]}, "not a tool name"),
        ({"prompt": "x", "tools": ["rm -rf /"]}, "not a tool name"),
        ({"prompt": "x", "verification": "ok"}, "'verification'"),
        ({"prompt": "x", "errors": [{"tool": "shell", "kind": "exploded"}]}, "kind"),
        ({"prompt": "x", "errors": [{"tool": "shell"}]}, "'kind'"),
        ({"prompt": "x", "errors": [{"tool": "shell", "kind": "timeout", "exit_code": "1"}]}, "exit_code"),
        ({"prompt": "x", "errors": [{"tool": "shell", "kind": "timeout", "exit_code": True}]}, "exit_code"),
        ({"prompt": "x", "errors": ["shell failed"]}, "errors[0]"),
        ({"prompt": "x", "agent": "Main Loop"}, "'agent'"),
        ({"prompt": "x", "skills": ["../x"]}, "skill name"),
        ({"prompt": "x", "corrections": [1]}, "'corrections'"),
    ],
)
def test_wrong_types_and_values_get_a_sentence(data, words):
    with pytest.raises(BadInput) as err:
        parse_turn(data)
    assert words in err.value.message


def test_configured_tools_restrict_the_names():
    assert parse_turn({"prompt": "x", "tools": ["shell"]}, ("shell", "edit")).tools == ("shell",)
    with pytest.raises(BadInput, match="configured tools"):
        parse_turn({"prompt": "x", "tools": ["browser"]}, ("shell", "edit"))


@pytest.mark.parametrize(
    ("hostile", "kept"),
    [
        ("pytest\nrm -rf /", "pytestrm-rf"),
        ("py;test|cat", "pytestcat"),
        ("ëvïl", "vl"),
        ("x" * 500, "x" * 64),
        ("$(curl evil)", "curlevil"),
        ("../../bin/sh", "....binsh"),
    ],
)
def test_hostile_program_names_are_stripped(hostile, kept):
    turn = parse_turn({"prompt": "x", "errors": [{"tool": "shell", "kind": "crashed", "program": hostile}]})
    assert turn.errors[0].program == kept
    assert strip_program(hostile) == kept


def test_program_is_stripped_again_when_rendered():
    # A record built in code, bypassing the parser, still renders safely.
    record = ErrorRecord("shell", "nonzero_exit", 2, "make; curl x|sh\n")
    assert record.render() == "shell nonzero_exit exit 2 (makecurlxsh)"


@pytest.mark.parametrize(
    "secret",
    [
        "sk-proj-abcdefghijklmnop1234567890",
        "sk-ant-api03-abcdefghijklmnopqrstuvwx",
        "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        "AKIAIOSFODNN7EXAMPLE",
        "xoxb-1234567890-abcdefghij",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "0123456789abcdef0123456789abcdef0123",
        "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3A=",
    ],
)
def test_secret_looking_tokens_are_redacted_from_prompt_and_corrections(secret):
    turn = parse_turn({"prompt": f"use {secret} please", "corrections": [f"no, the key is {secret}"]})
    assert secret not in turn.prompt
    assert secret not in turn.corrections[0]
    assert "[REDACTED]" in turn.prompt


def test_the_typed_fields_keep_no_terminal_escape():
    pasted = "fix the build: it prints \x1b[31mFAILED\x1b[0m\x1b]0;pwned\x07\x1b[2J and \x9b2J\r\nthen stops"
    turn = parse_turn({"prompt": pasted, "corrections": [f"no, {pasted}"]})
    assert turn.prompt == "fix the build: it prints FAILED and \nthen stops"
    assert turn.corrections == ("no, fix the build: it prints FAILED and \nthen stops",)


def test_a_prompt_of_terminal_escapes_alone_is_refused_and_such_a_correction_dropped():
    with pytest.raises(BadInput, match="'prompt' holds only control characters"):
        parse_turn({"prompt": "\x1b[2J\x1b]0;title\x07"})
    turn = parse_turn({"prompt": "fix the build", "corrections": ["\x1b[31m", "use the lock file"]})
    assert turn.corrections == ("use the lock file",)


def test_redaction_keeps_ordinary_text():
    text = "bump the httpx pin in src/app/settings/config_loader.py to 0.27.2, then run make test"
    assert redact(text) == text
    assert redact("password: hunter2 and token=abc") == "password: [REDACTED] and token=[REDACTED]"
    assert redact("Authorization: Bearer abcdefgh12345678") == "Authorization: Bearer [REDACTED]"


def test_malformed_json_is_bad_input_with_a_sentence():
    with pytest.raises(BadInput, match="not valid JSON"):
        turn_from_json("{prompt: x", "turn.json")


def test_json_round_trip_of_the_example():
    assert turn_from_json(json.dumps(GOOD)).shape == "main:shell>edit"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"prompt": "deploy \\ud800 now"}', "'prompt' holds a lone surrogate"),
        ('{"prompt": "deploy", "corrections": ["no \\udfff"]}', "'corrections' holds a lone surrogate"),
        ('{"prompt": "x", "errors": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
        ("[" * 100_000, "nested too deeply"),
    ],
    ids=["surrogate-prompt", "surrogate-correction", "deep-errors", "deep-top"],
)
def test_text_that_is_not_text_and_json_too_deep_are_a_sentence(text, words):
    with pytest.raises(BadInput) as caught:
        turn_from_json(text)
    assert words in caught.value.message
    assert "nothing was stored" in caught.value.message


def test_learn_refuses_a_lone_surrogate_with_exit_2_before_storing(edgar, tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    turn = tmp_path / "turn.json"
    for text in ('{"prompt": "deploy \\ud800", "verification": "passed"}', "[" * 100_000):
        turn.write_text(text)
        result = edgar("--root", str(root), "learn", str(turn))
        assert result.code == 2, result
        assert "internal error" not in result.err
        assert list(root.iterdir()) == []


_NAME_TEXT = st.text(alphabet="az09._-:@ A\n\u212a/", max_size=70)


@given(_NAME_TEXT)
@settings(max_examples=500, deadline=None)
def test_the_name_rules_say_what_their_patterns_say(text):
    """Tool names and program names are checked with string operations; these are the rules."""
    import re

    from edgar_min.learning.turn import is_tool_name

    assert is_tool_name(text) == bool(re.fullmatch(r"[a-z][a-z0-9_.-]{0,63}", text))
    assert strip_program(text) == re.sub(r"[^A-Za-z0-9._-]", "", text)[:64]


def test_a_tool_name_is_refused_by_name():
    for bad in ("Shell", "1shell", "sh ell", "shell\n", "x" * 65, ""):
        with pytest.raises(BadInput, match="is not a tool name"):
            parse_turn({"prompt": "p", "tools": [bad]})
    assert parse_turn({"prompt": "p", "tools": ["a" * 64, "web.fetch_2-x"]}).tools == (
        "a" * 64,
        "web.fetch_2-x",
    )


def test_the_closed_vocabularies_types_and_checks_agree():
    """The Literal types a checker reads and the tuples the parser checks against are one list."""
    import ast
    from pathlib import Path

    from edgar_min.learning import turn as module

    literals = {
        node.targets[0].id: ast.literal_eval(node.value.slice)
        for node in ast.walk(ast.parse(Path(module.__file__).read_text(encoding="utf-8")))
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Subscript)
        and getattr(node.value.value, "id", "") == "Literal"
    }
    assert literals["Verdict"] == module.VERDICTS
    assert literals["ErrorKind"] == module.ERROR_KINDS
