"""The `edgar` command line: argparse, and errors mapped to exit codes in one place.

Exit codes: 0 done; 1 refused or invalid (a failed validation, a refused write,
an unknown skill); 2 bad usage or unreadable input. `main()` returns the code
and never lets a traceback reach the user.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn, TextIO

__all__ = ["COMMANDS", "EXAMPLES", "EXIT_CODES", "HOOK_EXIT_CODES", "SKILLS_COMMANDS", "leave", "main"]

# Every command, in the order `--help` lists them: (name, help line, module). The module's
# `register(commands)` adds its top-level parsers and `register_skills(sub)` its `skills`
# subcommands. Only the module of the command that runs is imported, and only its parsers
# are built; the others are names and help lines. Adding a command is one row here plus
# the module's own register function (tests/test_cli.py checks the two agree).
COMMANDS: tuple[tuple[str, str, str | None], ...] = (
    ("skills", "list, show, check and manage skills", None),
    (
        "learn",
        "learn from one turn: a turn record (JSON file, or - for stdin) or an agent's session log",
        "edgar_min.cli.learn_cmd",
    ),
    ("doctor", "check the setup: mode, provider, config, skills, store", "edgar_min.cli.doctor_cmd"),
    (
        "trust",
        "let this project's .edgar/config.toml, as it is now, set every key (--revoke: undo)",
        "edgar_min.cli.trust_cmd",
    ),
    (
        "mcp",
        "serve skills_index, skill_show, learn_turn, decide and skills_suggest over MCP (stdio)",
        "edgar_min.cli.mcp_cmd",
    ),
    ("decide", "answer one multiple-choice decision with the configured engine", "edgar_min.cli.semif_cmd"),
    ("decisions", "the decision log: export and relabel", "edgar_min.cli.semif_cmd"),
    ("tree", "print the code-skill tree (data/categories.json)", "edgar_min.cli.agent_cmd"),
    (
        "run",
        "handle one request with the skill tree (navigate, predict, act, assess)",
        "edgar_min.cli.agent_cmd",
    ),
    (
        "hook",
        "run one agent hook (Claude Code, Codex, Gemini CLI; payload on stdin); bounded, always exits 0",
        "edgar_min.cli.hook_cmd",
    ),
    (
        "install",
        "put edgar's hooks into an agent's settings, and record the project's test command",
        "edgar_min.cli.install_cmd",
    ),
)
SKILLS_COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("list", "every skill, by scope, with shadowed names", "edgar_min.cli.skills_cmd"),
    (
        "show",
        "print one skill (--proposal: a proposal, and what its text is flagged for)",
        "edgar_min.cli.skills_cmd",
    ),
    (
        "validate",
        "check SKILL.md files, code skill bodies and data/categories.json (all by default)",
        "edgar_min.cli.skills_cmd",
    ),
    ("forget", "move a learned skill into the archive", "edgar_min.cli.skills_cmd"),
    ("proposals", "proposals waiting for a person", "edgar_min.cli.skills_cmd"),
    ("accept", "make a proposal a learned skill (through the writer)", "edgar_min.cli.skills_cmd"),
    ("reject", "archive a proposal", "edgar_min.cli.skills_cmd"),
    ("history", "the observation lines recorded for one skill", "edgar_min.cli.watch_cmd"),
    ("distill", "ask the model for a patched body from a skill's history", "edgar_min.cli.watch_cmd"),
    (
        "index",
        "names and descriptions within a character budget; the last line says what was cut",
        "edgar_min.cli.index_cmd",
    ),
    (
        "generate",
        "ask the model for a code skill body (through acceptance and the gate)",
        "edgar_min.cli.agent_cmd",
    ),
    (
        "stats",
        "turns each skill was offered in and used in, verdicts, pass rate with vs without it",
        "edgar_min.cli.lifecycle_cmd",
    ),
    ("prune", "archive learned skills that are stale or measured as hurting", "edgar_min.cli.lifecycle_cmd"),
    (
        "log",
        "the change ledger: every write, patch, accept, reject, archive, restore",
        "edgar_min.cli.lifecycle_cmd",
    ),
    (
        "restore",
        "bring back an earlier version of a learned skill (through the writer)",
        "edgar_min.cli.lifecycle_cmd",
    ),
    (
        "rejections",
        "model replies the writer refused, newest first, with the reason",
        "edgar_min.cli.rejections_cmd",
    ),
    (
        "suggest",
        "the skills that may apply to a task, as the prompt hook hands them over, or none",
        "edgar_min.cli.suggest_cmd",
    ),
    (
        "teach",
        "tell routing which skill a message calls for (or none); --forget takes it back",
        "edgar_min.cli.suggest_cmd",
    ),
    ("examples", "the messages routing learned from, per skill", "edgar_min.cli.suggest_cmd"),
)


# What every `--help` ends with: the one exit-code map (errors.py) in words.
EXIT_CODES = """exit codes:
  0  done
  1  refused or invalid: a failed validation, a refused write, an unknown skill, a doctor finding
  2  bad usage or unreadable input: a wrong option, malformed JSON, TOML or frontmatter"""
# A hook's instead: Claude Code reads a hook's exit 2 as "block" (cli/hook_cmd.py).
HOOK_EXIT_CODES = """exit codes:
  0  always: a problem is printed and logged in .edgar/hook-problems.jsonl, never a failure"""

# A command's `--help` shows how people run it. Keys: a command, or `skills SUBCOMMAND`.
EXAMPLES: dict[str, tuple[str, ...]] = {
    "edgar": (
        "edgar install claude-code          # hooks: skills reach the agent, verified turns are learned",
        "edgar skills list",
        'edgar skills suggest "bump the httpx pin" --json',
        "edgar learn turn.json --session s-1",
    ),
    "learn": (
        "edgar learn turn.json --session s-1",
        "edgar learn --from claude-code ~/.claude/projects/P/SESSION.jsonl --check",
        "edgar learn turn.json --dry-run    # the turn record and the triggers; writes nothing",
    ),
    "install": (
        "edgar install claude-code --dry-run",
        "edgar install claude-code --uninstall",
        "edgar install codex                # your ~/.codex/hooks.json, acting only in this project",
        "edgar install gemini --shared      # the project's .gemini/settings.json",
    ),
    "hook": ('echo \'{"prompt": "bump the pin", "session_id": "s"}\' | edgar hook user-prompt-submit',),
    "doctor": ("edgar doctor", "edgar doctor --network --json"),
    "trust": (
        "edgar trust    # after reading what .edgar/config.toml sets",
        "edgar trust --revoke",
    ),
    "decide": (
        (
            'edgar decide --state "the build fails on a missing pin" --question "Which team?" '
            "--option infra=Builds --option web=Pages"
        ),
    ),
    "run": ('edgar run "write an email to bob about the boiler repair"',),
    "skills suggest": ('edgar skills suggest "bump the httpx pin"', 'edgar skills suggest "thanks!" --json'),
    "skills teach": (
        'edgar skills teach bump-pin "update the dependency version in the lock"',
        'edgar skills teach none "thanks, looks good"',
    ),
    "skills accept": ("edgar skills accept bump-pin    # after reading edgar skills show bump-pin",),
    "skills validate": ("edgar skills validate", "edgar skills validate path/to/SKILL.md"),
}


def main(argv: list[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run one command; return its exit status."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args == ["--version"]:
        from edgar_min import __version__

        print(f"edgar {__version__}", file=sys.stdout if stdout is None else stdout)
        return 0
    from edgar_min.cli.quick import parse

    ns = parse(args)
    if ns is not None:  # a per-turn command, read without argparse
        from edgar_min.cli.context import execute

        return execute(ns, stdout, stderr)
    from edgar_min.cli.app import run

    return run(args, stdout, stderr)


def leave(code: int) -> NoReturn:
    """End the process with `code`, as `sys.exit` does, without the interpreter's teardown when
    nothing needs it.

    Teardown frees every module and object one by one: about 2 ms, a tenth of a per-turn
    command. Every file edgar writes is complete when the write returns (atomic.py), so with no
    other thread running and nothing registered to run at exit, what is left is flushing what
    was printed. Otherwise, or when the flush fails (a closed pipe), the normal exit runs.
    """
    import atexit

    threading = sys.modules.get("threading")
    if (threading is None or threading.active_count() == 1) and not atexit._ncallbacks():
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        else:
            os._exit(code)
    sys.exit(code)
