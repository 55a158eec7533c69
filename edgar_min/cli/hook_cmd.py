"""`edgar hook session-start|user-prompt-submit|stop`: the agents' hooks (payload on stdin).

Every hook is bounded as a whole by `adapters.hook_timeout_s`, always exits 0,
and appends its problems to `.edgar/hook-problems.jsonl`. SessionStart and
UserPromptSubmit print the hook's JSON output or nothing (what they print
reaches the model); Stop prints one line for Claude Code's transcript view, and the
JSON Codex and Gemini CLI read from a Stop hook (delivery/hooks.py).
"""

from __future__ import annotations

import sys

from edgar_min.cli.quick import Positional, Spec

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from edgar_min.cli.context import Context

__all__ = ["register", "report_problem", "run_event"]

EVENT_NAMES = ("session-start", "user-prompt-submit", "stop")


# The config is read inside the bounded runner: a broken file is one more logged problem.
HOOK = Spec(
    positionals=(
        Positional("event", "the hook: session-start, user-prompt-submit or stop", choices=EVENT_NAMES),
    ),
    defaults=(("needs_config", False),),
)


def register(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser(
        "hook",
        help="run one agent hook (Claude Code, Codex, Gemini CLI; payload on stdin); bounded, always exits 0",
    )
    HOOK.add_to(p, cmd_hook)


def run_event(ctx: Context, event: str) -> int:
    """Run `event`'s hook and print what it has to say; exit 0 whatever happened."""
    from edgar_min.delivery.hooks import run_hook

    result = run_hook(event, ctx.layout, lambda: ctx.config, sys.stdin)
    for note in result.notes:
        ctx.warn(note)
    for problem in result.problems:
        ctx.warn(f"edgar: hook: {problem}")
    if event == "stop":
        # The transcript view shows a Stop hook's stdout; the model never sees it.
        if ctx.json:
            if result.document is not None:
                ctx.emit(result.document)
            elif result.problems:
                ctx.emit({"outcome": "problem", "message": result.problems[0]})
        elif result.stdout:
            print(result.stdout, file=ctx.stdout)
        elif result.problems:
            print(f"edgar: hook: {result.problems[0]}", file=ctx.stdout)
        return 0
    if result.stdout:
        print(result.stdout, file=ctx.stdout)
    return 0


def report_problem(ctx: Context, event: str, sentence: str) -> int:
    """Log and print a problem met before the hook could run (a usage mistake); exit 0."""
    from edgar_min.delivery.hooks import log_problem

    sentence = " ".join(sentence.split())
    log_problem(ctx.layout, event, sentence)
    if ctx.json:
        ctx.emit({"outcome": "problem", "message": sentence})
    elif event == "stop":
        print(f"edgar: hook: {sentence}", file=ctx.stdout)
    else:
        ctx.warn(f"edgar: hook: {sentence}")
    return 0


def cmd_hook(ctx: Context) -> int:
    return run_event(ctx, ctx.ns.event)
