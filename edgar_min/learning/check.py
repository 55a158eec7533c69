"""The declared check: the project's own test command, whose exit code alone is the verdict.

Its output goes nowhere: stdout and stderr are discarded, never stored, never
shown to a person or a model, so nothing the check prints can reach a skill.
Exit 0 is `passed`; any other exit, a signal or running past `timeout_s` is
`failed`. The command runs in the project root, in its own process group, so a
timeout ends the whole tree it started.
"""

from __future__ import annotations

import os
import time

from edgar_min.errors import ConfigError
from edgar_min.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    from edgar_min.config import CheckConfig

__all__ = ["CheckResult", "check_program", "describe_check", "run_check", "runs_check", "verdict_of_runs"]


@dataclass(frozen=True, slots=True)
class CheckResult:
    """The verdict of one run of the declared check."""

    verdict: Literal["passed", "failed"]
    exit_code: int | None  # None when it timed out
    timed_out: bool
    seconds: float


# Interpreters whose `-m MODULE` names the check better than they do (`python3 -m pytest` is pytest).
_INTERPRETERS = ("python", "py")


def check_program(command: tuple[str, ...]) -> str:
    """The program a declared check runs, as a skill may name it: `pytest`, `make`, `npm`; "" for none.

    The file name of the command's first word (`/usr/bin/make` is `make`), or the module of
    `python -m MODULE`; the outline strips it like any program name, so no path, argument or
    value of the command reaches a model.
    """
    if not command:
        return ""
    program = os.path.basename(command[0])
    if program.rstrip("0123456789.") in _INTERPRETERS and len(command) > 2 and command[1] == "-m":
        return command[2]
    return program


# Shell words that make a command more than one program run, whose exit code may not be the
# check's (`pytest | tail` exits as `tail` does); a trailing `2>&1` changes no exit code.
_OPERATORS = frozenset({"|", "||", "&&", ";", "&", "(", ")", "|&", ";;"})
_SAME_EXIT = ["2", ">&", "1"]  # `2>&1`, as the lexer splits it


# Options that change what a test runner prints, or how soon it stops at a failure, never
# whether it passes: `pytest -x -q` passes exactly when `pytest` does.
_QUIET = frozenset({"-q", "-qq", "-v", "-vv", "-s", "-x", "--quiet", "--verbose", "--silent", "--no-header"})
_QUIET_PREFIXES = ("--tb=", "--color=")


def _invocation(words: list[str]) -> list[str]:
    """The words of a command as a check names them: `python3 -m pytest -q` and `pytest` alike,
    a program by its file name (`.venv/bin/pytest` is `pytest`), without options of `_QUIET`."""
    if not words:
        return []
    program = check_program(tuple(words))
    rest = words[3:] if program != os.path.basename(words[0]) else words[1:]
    return [program, *(w for w in rest if w not in _QUIET and not w.startswith(_QUIET_PREFIXES))]


def runs_check(command: str, declared: tuple[str, ...], root: str) -> bool:
    """Whether the shell `command` runs the declared check as it is, in the project root.

    The same words (an interpreter's `-m`, a program's folder and options that only change
    what is printed aside), optionally after `cd ROOT &&` and before `2>&1`; nothing else: a
    pipe, a second command, a redirection or another argument (`-k one_test`) is another
    command, whose exit code is not the check's.
    """
    if not declared or check_program(declared) not in command:
        return False  # the check's program is not even named: no need to split the command
    import shlex  # its import compiles a pattern: only for a command that may be the check

    try:
        lexer = shlex.shlex(command[:1000], posix=True, punctuation_chars=";&|()<>")
        lexer.whitespace_split = True
        lexer.commenters = ""
        words = list(lexer)
    except ValueError:
        return False
    if len(words) >= 3 and words[0] == "cd" and words[2] == "&&":
        folder = os.path.join(root, os.path.expanduser(words[1]))
        if os.path.realpath(folder) != os.path.realpath(root):
            return False
        words = words[3:]
    if words[-3:] == _SAME_EXIT:
        words = words[:-3]
    if any(w in _OPERATORS or w.startswith(("<", ">")) for w in words):
        return False
    return _invocation(words) == _invocation(list(declared))


def verdict_of_runs(
    runs: tuple[tuple[str, int | None], ...], declared: tuple[str, ...], root: str
) -> Literal["passed", "failed"] | None:
    """The verdict of the last run of the declared check among a turn's shell commands since its
    last edit (`AdaptedTurn.runs`): its exit code alone, as `run_check` reads one; None when the
    agent did not run it there, or the log does not state how it exited."""
    for command, code in reversed(runs):
        if code is not None and runs_check(command, declared, root):
            return "passed" if code == 0 else "failed"
    return None


def describe_check(config: CheckConfig) -> str:
    """One line for `doctor`: the declared check and its time limit, or that there is none."""
    if not config.command:
        return (
            "declared check: none ([check] command is empty): a turn record's own verdict is used; "
            "turns read from an agent's log (learn --from, the hook) stay 'unverified', so long, "
            "recovered and repeated cannot fire for them"
        )
    import shlex  # its import compiles a pattern: only when a check is declared

    shown = shlex.join(config.command)
    program = config.command[0]
    import shutil  # only when a check is declared

    found = shutil.which(program) is not None or (os.sep in program and os.access(program, os.X_OK))
    where = "" if found else f" (warning: {program!r} is not found on PATH)"
    return f"declared check: {shown} (timeout {config.timeout_s:g} s){where}"


def run_check(config: CheckConfig, cwd: str) -> CheckResult:
    """Run the declared check in `cwd` and return its verdict; a missing command is a `ConfigError`."""
    import signal
    import subprocess

    if not config.command:
        msg = 'no declared check: set [check] command in .edgar/config.toml, e.g. command = ["pytest", "-q"]'
        raise ConfigError(msg)
    if config.timeout_s <= 0:
        msg = f"check.timeout_s must be more than 0 seconds, not {config.timeout_s:g}"
        raise ConfigError(msg)
    program = config.command[0]
    start = time.monotonic()
    try:
        process = subprocess.Popen(
            list(config.command),
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except FileNotFoundError:
        msg = f"the declared check cannot run: {program!r} was not found (check [check] command)"
        raise ConfigError(msg) from None
    except PermissionError:
        msg = f"the declared check cannot run: {program!r} is not executable (check [check] command)"
        raise ConfigError(msg) from None
    except OSError as exc:
        msg = f"the declared check cannot run: {program!r}: {exc.strerror}"
        raise ConfigError(msg) from None
    try:
        code = process.wait(timeout=config.timeout_s)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except OSError:
            process.kill()
        process.wait()
        return CheckResult("failed", None, timed_out=True, seconds=time.monotonic() - start)
    except BaseException:
        # Interrupted while waiting: leave no check running behind us.
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except OSError:
            pass
        process.wait()
        raise
    verdict = "passed" if code == 0 else "failed"
    return CheckResult(verdict, code, timed_out=False, seconds=time.monotonic() - start)
