"""`edgar install claude-code|codex|gemini [--local|--shared] [--dry-run] [--uninstall]`: edgar's hooks
in the agent's settings (Codex and Gemini CLI: cli/install_agent_cmd.py)."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from edgar_min.cli.context import Context

__all__ = ["register"]


def register(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser(
        "install",
        help="put edgar's hooks (SessionStart, UserPromptSubmit, Stop) into an agent's settings",
    )
    p.add_argument("agent", choices=("claude-code", "codex", "gemini"), help="the agent")
    p.add_argument(
        "--local",
        action="store_true",
        help="claude-code: write .claude/settings.local.json (not committed), not .claude/settings.json; "
        "codex, gemini: write your own hooks file (the default), acting only in this project",
    )
    p.add_argument(
        "--shared",
        action="store_true",
        help="codex, gemini: write the project's hooks file (.codex/hooks.json, .gemini/settings.json)",
    )
    p.add_argument("--dry-run", action="store_true", help="print what would change; write nothing")
    p.add_argument("--uninstall", action="store_true", help="remove edgar's hooks, and only those")
    p.set_defaults(handler=cmd_install)


def cmd_install(ctx: Context) -> int:
    if ctx.ns.agent != "claude-code":
        from edgar_min.cli.install_agent_cmd import cmd_install_agent

        return cmd_install_agent(ctx)
    if ctx.ns.shared:
        from edgar_min.errors import BadInput

        msg = "--shared is for codex and gemini; claude-code writes .claude/settings.json unless --local"
        raise BadInput(msg)
    from edgar_min.atomic import write_text
    from edgar_min.delivery.install import edgar_command, plan_install

    name = "settings.local.json" if ctx.ns.local else "settings.json"
    path = os.path.join(ctx.layout.root, ".claude", name)
    plan = plan_install(path, edgar_command(), ctx.config.adapters.hook_timeout_s, uninstall=ctx.ns.uninstall)
    shown = ctx.layout.relative(path)
    if plan.text is not None and not ctx.ns.dry_run:
        write_text(path, plan.text, root=ctx.layout.root)
    past = None if ctx.ns.uninstall else _past(ctx)
    if ctx.json:
        ctx.emit(
            {
                "path": str(path),
                "changed": bool(plan.changes) and not ctx.ns.dry_run,
                "dry_run": bool(ctx.ns.dry_run),
                "changes": [
                    {"action": c.action, "event": c.event, "command": c.command} for c in plan.changes
                ],
                "past_sessions": past,
            }
        )
        return 0
    if not plan.changes:
        ctx.out(
            f"{shown}: nothing to change (edgar's hooks are {'absent' if ctx.ns.uninstall else 'in place'})"
        )
    else:
        lead = "would change" if ctx.ns.dry_run else "changed"
        ctx.out(f"{lead} {shown}:")
        for change in plan.changes:
            ctx.out(f"  {change.line()}")
    if past is not None:
        ctx.out(
            f"{past['sessions']} past Claude Code session(s) of this project are in {past['folder']}; "
            f"to learn from the skills their agent loaded, run: {past['command']}"
        )
    return 0


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
