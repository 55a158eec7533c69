"""`edgar hook session-start|user-prompt-submit|stop`: the Claude Code hooks (payload on stdin).

Every hook is bounded as a whole by `adapters.hook_timeout_s`, always exits 0,
and appends its problems to `.edgar/hook-problems.jsonl`. SessionStart and
UserPromptSubmit print the hook's JSON output or nothing (what they print
reaches the model); Stop prints one line for the transcript view.
"""

from __future__ import annotations

import os
import sys

from edgar_min.cli.quick import Positional, Spec

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import TextIO

    from edgar_min.cli.context import Context
    from edgar_min.layout import Layout

__all__ = ["hook_event_in", "register", "report_problem", "run_event", "unrunnable"]

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
        help="run one Claude Code hook (payload on stdin); bounded, always exits 0",
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
    return _said(ctx.layout, event, sentence, json_mode=ctx.json, stdout=ctx.stdout, stderr=ctx.stderr)


def hook_event_in(argv: list[str]) -> tuple[str, str] | None:
    """(the --root, the hook) of a command line argparse refused, when it is a hook's; else None."""
    root, words, args = ".", [], iter(argv)
    for arg in args:
        if arg == "--root":
            root = next(args, "")
        elif arg == "--set":
            next(args, None)
        elif arg.startswith("--root="):
            root = arg.partition("=")[2]
        elif not arg.startswith("-"):
            words.append(arg)
    if words[:1] == ["hook"]:
        return root, (words[1] if words[1:2] and words[1] in EVENT_NAMES else "hook")
    if words[:1] == ["learn"] and "--hook" in argv:
        return root, "stop"
    return None


def unrunnable(
    root: str, event: str, sentence: str, *, json_mode: bool, stdout: TextIO, stderr: TextIO
) -> int:
    """A hook that could not start (a bad --root, a usage mistake): said, logged where it can be, exit 0.

    Claude Code reads exit 2 as "block" (the prompt erased; at Stop the agent keeps going):
    a hook command that is wrong must cost the person nothing but this sentence.
    """
    layout = None
    if root and os.path.isdir(root):
        from edgar_min.layout import Layout, user_home

        layout = Layout(os.path.abspath(root), user_home())
    return _said(layout, event, sentence, json_mode=json_mode, stdout=stdout, stderr=stderr)


def _said(
    layout: Layout | None, event: str, sentence: str, *, json_mode: bool, stdout: TextIO, stderr: TextIO
) -> int:
    from edgar_min.delivery.hooks import log_problem

    sentence = " ".join(sentence.split())
    if layout is not None:
        log_problem(layout, event, sentence)
    if json_mode:
        from edgar_min import jsoncodec

        jsoncodec.dump({"outcome": "problem", "message": sentence}, stdout, ensure_ascii=False, indent=2)
        stdout.write("\n")
    elif event == "stop":
        print(f"edgar: hook: {sentence}", file=stdout)
    else:
        print(f"edgar: hook: {sentence}", file=stderr)
    return 0


def cmd_hook(ctx: Context) -> int:
    return run_event(ctx, ctx.ns.event)
