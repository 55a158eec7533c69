"""The shared adapter vocabulary: the program a command ran, and the kind of a failure."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from edgar_min.adapters.common import error_kind, program_word


@pytest.mark.parametrize(
    ("command", "program"),
    [
        ("pytest -x", "pytest"),
        ("cd apps/app && pnpm test", "pnpm"),
        ("cd apps/app; make", "make"),
        ("FOO=1 BAR=2 cargo test", "cargo"),
        ("PYTHONPATH=src /usr/bin/pytest -x tests", "pytest"),
        ("sudo -u www apt-get install x", "apt-get"),
        ("timeout 60 pytest", "pytest"),
        ("timeout -s KILL 5m ./run.sh", "run.sh"),
        ("env X=1 make", "make"),
        ("nice -n 10 make", "make"),
        ("uv run pytest", "pytest"),
        ("uv run --with httpx python script.py", "python"),
        ("npx jest --ci", "jest"),
        ("pnpm exec vitest", "vitest"),
        ("poetry run pytest", "pytest"),
        ("bash -lc 'cd x && cargo test'", "cargo"),
        ("source .venv/bin/activate && pytest", "pytest"),
        ("python3 -m pytest -q", "pytest"),
        ("(cd web && npm ci)", "npm"),
        ("git status | head", "head"),  # a pipeline's status is its last stage's
        ("cd build", "cd"),
        ('echo "unclosed', "echo"),
        ("", ""),
    ],
)
def test_the_program_is_the_command_actually_run(command, program):
    assert program_word(command) == program


@pytest.mark.parametrize(
    ("command", "said", "program"),
    [
        # The log names the stage that failed.
        ("head -50 data.csv | python3 summarise.py", "Exit code 1\nhead: cannot open 'data.csv'", "head"),
        ("cat a | /usr/bin/grep x | wc -l", "Exit code 2\n/usr/bin/grep: a: No such file", "grep"),
        ("bash -lc 'head -5 x | python3 y.py'", "Process exited with code 1\nOutput:\nhead: x: oops", "head"),
        # It names none (or a program that is not a stage): the last stage, whose status it is.
        (
            "head -50 data.csv | python3 summarise.py",
            "Exit code 1\nTraceback (most recent call last):",
            "python3",
        ),
        ("head -50 data.csv | python3 summarise.py", "Exit code 1\nValueError: bad row", "python3"),
        ("cd src && make 2>&1 | tee build.log", "Exit code 1\nmake: *** [all] Error 2", "make"),
        # One program: whatever the log says.
        ("pytest -x", "head: not this one", "pytest"),
    ],
)
def test_a_pipeline_is_named_by_the_stage_that_failed_else_its_last(command, said, program):
    assert program_word(command, said) == program


@pytest.mark.parametrize(
    ("head", "exit_code", "kind"),
    [
        ("execution error: No such file or directory (os error 2)", None, "not_found"),
        ("Exit code 1\nFAILED", 1, "nonzero_exit"),
        ("Pre-commit validation failed:\n[FORMAT]", None, "denied"),
        ("PreToolUse:Bash hook error: the hook blocked this", None, "denied"),
        ("File content (806.5KB) exceeds maximum allowed size (256KB).", None, "invalid_input"),
        ("Command timed out after 2m", None, "timeout"),
    ],
)
def test_error_kinds(head, exit_code, kind):
    assert error_kind(head, exit_code) == kind


def test_a_rejection_by_text_alone_is_not_a_persons_when_the_log_says_otherwise():
    text = "The user doesn't want to proceed with this tool use."
    assert error_kind(text, None) == "denied"
    assert error_kind(text, None, person_said_no=False) == "crashed"


# The rules read on every turn are string operations; these are the patterns they stand for,
# and the standard shell splitter, checked on generated text.
_SHELLISH = st.text(alphabet="aZ09_=.-/:@%+, \t\n'\"\\;&|()$~*#", max_size=40)


@given(_SHELLISH)
@settings(max_examples=600, deadline=None)
def test_command_words_are_what_shlex_reads(command):
    import shlex

    from edgar_min.adapters.common import _words

    lexer = shlex.shlex(command[:512], posix=True, punctuation_chars=";&|()")
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        expected = list(lexer)
    except ValueError:
        expected = command[:512].split()
    assert _words(command) == expected


@given(st.text(alphabet="aZ09_=.-smhdpython \n", max_size=20))
@settings(max_examples=600, deadline=None)
def test_assignments_pythons_and_durations_are_their_patterns(word):
    import re

    from edgar_min.adapters.common import _is_assignment, _is_duration, _is_python

    assert _is_assignment(word) == bool(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", word, re.DOTALL))
    assert _is_python(word) == bool(re.fullmatch(r"python[0-9.]*", word))
    assert _is_duration(word) == bool(re.fullmatch(r"[0-9.]+[smhd]?", word))


@given(st.text(alphabet="aZ09_.-_ AbCd\u0130", max_size=30))
@settings(max_examples=400, deadline=None)
def test_a_tool_name_maps_as_its_pattern_says(name):
    import re

    from edgar_min.adapters.common import _CAMEL, _DROP, map_tool

    text = _DROP.sub("_", _CAMEL.sub("_", name.replace("__", ".")).lower()).strip("_.-")
    expected = re.sub(r"^[^a-z]+", "", text)[:64].rstrip("_.-") or "tool"
    assert map_tool(name, {}) == expected


@given(st.text(alphabet="exitcodEXIT stau:1-0\n\u0131hookblcdenprv", max_size=60))
@settings(max_examples=600, deadline=None)
def test_exit_codes_and_hook_blocks_are_found_where_the_patterns_find_them(head):
    from edgar_min.adapters.common import _EXIT, _HOOK_BLOCK, stated_exit_code

    m = _EXIT.search(head[:300])
    value = int(m.group(1)) if m else None
    assert stated_exit_code(head) == (value if value is None or -(2**31) <= value < 2**32 else None)
    lowered = head[:300].lstrip().lower()
    if _HOOK_BLOCK.search(lowered):
        assert error_kind(head, None, person_said_no=False) == "denied"
