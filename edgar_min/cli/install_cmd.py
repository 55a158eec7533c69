"""`edgar install claude-code|codex|gemini [--local|--shared] [--dry-run] [--uninstall]`: edgar's hooks
in the agent's settings (Codex and Gemini CLI: cli/install_agent_cmd.py)."""

from __future__ import annotations

import os

from edgar_min.invocation import program

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from edgar_min.cli.context import Context

__all__ = ["register"]

SETTINGS = {"local": "settings.local.json", "shared": "settings.json"}


def register(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser(
        "install",
        help="put edgar's hooks into an agent's settings, and record the project's test command",
    )
    p.add_argument("agent", choices=("claude-code", "codex", "gemini"), help="the agent")
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--local",
        dest="scope",
        action="store_const",
        const="local",
        help="write .claude/settings.local.json, which is not committed (the default); codex, gemini: "
        "your own hooks file, acting only in this project",
    )
    where.add_argument(
        "--shared",
        dest="scope",
        action="store_const",
        const="shared",
        help="write the committed .claude/settings.json instead (the hooks do nothing in a clone "
        "where this machine's paths are not); codex, gemini: the project's .codex/hooks.json, "
        ".gemini/settings.json",
    )
    p.add_argument("--dry-run", action="store_true", help="print what would change; write nothing")
    p.add_argument(
        "--uninstall",
        action="store_true",
        help="remove edgar's hooks, and only those (the file as it was before install, when it can)",
    )
    p.set_defaults(handler=cmd_install, scope="local")


def cmd_install(ctx: Context) -> int:
    if ctx.ns.agent != "claude-code":
        from edgar_min.cli.install_agent_cmd import cmd_install_agent

        return cmd_install_agent(ctx)
    from edgar_min.delivery.declare import declare_and_say
    from edgar_min.delivery.install import (
        apply_plan,
        edgar_command,
        holds_edgar_hooks,
        plan_install,
        read_before,
    )

    ns = ctx.ns
    folder = os.path.join(ctx.layout.root, ".claude")
    path = os.path.join(folder, SETTINGS[ns.scope])
    records = ctx.layout.install_records
    timeout = ctx.config.adapters.hook_timeout_s
    plan = plan_install(
        path, edgar_command(), timeout, uninstall=ns.uninstall, before=read_before(records, path)
    )
    if plan.changes and not ns.dry_run:
        apply_plan(plan, root=ctx.layout.root, records=records, uninstall=ns.uninstall)
    shown = ctx.layout.relative(path)
    other = os.path.join(folder, SETTINGS["shared" if ns.scope == "local" else "local"])
    also = ctx.layout.relative(other) if holds_edgar_hooks(other) else None
    ignored = None
    if ns.scope == "local" and not ns.uninstall and plan.current is None and plan.changes:
        ignored = _git_ignores(ctx.layout.root, path)
    past = None if ns.uninstall else _past(ctx)
    check = None if ns.uninstall else declare_and_say(ctx.layout, ctx.config, dry_run=ns.dry_run)
    if ctx.json:
        ctx.emit(
            {
                "path": str(path),
                "changed": bool(plan.changes) and not ns.dry_run,
                "dry_run": bool(ns.dry_run),
                "changes": [
                    {"action": c.action, "event": c.event, "command": c.command} for c in plan.changes
                ],
                "restored": plan.restored,
                "removed_file": plan.remove,
                "also_in": also,
                "git_ignores": ignored,
                "past_sessions": past,
                "check": check and check[0],
            }
        )
        return 0
    if not plan.changes:
        ctx.out(f"{shown}: nothing to change (edgar's hooks are {'absent' if ns.uninstall else 'in place'})")
    else:
        lead = "would change" if ns.dry_run else "changed"
        ctx.out(f"{lead} {shown}:")
        for change in plan.changes:
            ctx.out(f"  {change.line()}")
        if plan.remove:
            ctx.out(f"{'would remove' if ns.dry_run else 'removed'} {shown}: install made it")
        elif plan.restored:
            ctx.out(f"{shown}: {'would be' if ns.dry_run else 'is'} as it was before install, byte for byte")
    if also is not None:
        flag = "--shared" if ns.scope == "local" else "--local"
        why = (
            "still runs edgar's hooks"
            if ns.uninstall
            else ("runs edgar's hooks too (an earlier install put them there), so each would run twice")
        )
        ctx.out(f"note: {also} {why}; take them out with: {program()} install claude-code {flag} --uninstall")
    if ignored is False:
        ctx.out(
            f"note: git does not ignore {shown} here; add it to .gitignore (Claude Code adds it to "
            "your global git ignore when it writes the file itself) so this machine's paths stay out "
            "of commits"
        )
    for line in check[1] if check else ():
        ctx.out(line)
    if past is not None:
        ctx.out(
            f"{past['sessions']} past Claude Code session(s) of this project are in {past['folder']}; "
            f"to learn from the skills their agent loaded, run: {past['command']}"
        )
    return 0


def _git_ignores(root: str, path: str) -> bool | None:
    """Whether git ignores `path` in `root`'s repository; None outside one, or without git."""
    import subprocess

    try:
        done = subprocess.run(
            ["git", "-C", root, "check-ignore", "-q", "--", path],
            capture_output=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return {0: True, 1: False}.get(done.returncode)


def _past(ctx: Context) -> dict[str, object] | None:
    """This project's past Claude Code sessions and the command that imports them, if there are any."""
    import shlex

    from edgar_min.delivery.install import edgar_command, past_sessions

    found = past_sessions(ctx.layout.root)
    if found is None:
        return None
    folder, count = found
    root = shlex.quote(os.path.abspath(ctx.layout.root))
    command = f"{edgar_command()} --root {root} skills examples --import claude-code {shlex.quote(folder)}"
    return {"folder": folder, "sessions": count, "command": command}
