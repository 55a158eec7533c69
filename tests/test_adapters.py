"""The shared adapter vocabulary: the program a command ran, and the kind of a failure."""

from __future__ import annotations

import pytest

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
        ("git status | head", "git"),
        ("cd build", "cd"),
        ('echo "unclosed', "echo"),
        ("", ""),
    ],
)
def test_the_program_is_the_command_actually_run(command, program):
    assert program_word(command) == program


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
