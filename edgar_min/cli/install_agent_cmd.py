"""`edgar install codex|gemini [--local|--shared] [--dry-run] [--uninstall]`: edgar's hooks for Codex
and Gemini CLI (delivery/agent_install.py), and what the person must do for the agent to run them."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from edgar_min.cli.context import Context

__all__ = ["cmd_install_agent"]


def cmd_install_agent(ctx: Context) -> int:
    from edgar_min.delivery.agent_install import FORMATS, hooks_file, plan_install, trust_steps
    from edgar_min.delivery.declare import declare_and_say
    from edgar_min.delivery.install import apply_plan, edgar_command, read_before

    ns = ctx.ns
    shared = ns.scope == "shared"
    agent, root, records = ns.agent, ctx.layout.root, ctx.layout.install_records
    path = hooks_file(agent, root, shared=shared)
    before = read_before(records, path)
    timeout = ctx.config.adapters.hook_timeout_s
    planned = plan_install(
        agent, path, edgar_command(), root, timeout, shared=shared, uninstall=ns.uninstall, before=before
    )
    plan = planned.plan
    # The project's file is written from the project root; the person's own from its agent's folder.
    within = root if shared else os.path.dirname(os.path.dirname(path))
    if (plan.text is not None or plan.remove) and not ns.dry_run:
        apply_plan(plan, root=within, records=records, uninstall=ns.uninstall)
    steps = (
        None
        if ns.uninstall or not (plan.changes or plan.had_hooks)
        else trust_steps(agent, root, path, shared=shared)
    )
    shown = ctx.layout.relative(path)
    check = None if ns.uninstall else declare_and_say(ctx.layout, ctx.config, dry_run=ns.dry_run)
    if ctx.json:
        ctx.emit(
            {
                "agent": agent,
                "path": path,
                "changed": bool(plan.changes or planned.switched_on) and not ns.dry_run,
                "dry_run": bool(ns.dry_run),
                "changes": [
                    {"action": c.action, "event": c.event, "command": c.command} for c in plan.changes
                ],
                "hooks_enabled_set": planned.switched_on,
                "restored": plan.restored,
                "removed_file": plan.remove,
                "trust": steps,
                "check": check and check[0],
            }
        )
        return 0
    name = FORMATS[agent].name
    if not plan.changes and not planned.switched_on:
        state = "absent" if ns.uninstall else "in place"
        ctx.out(f"{shown}: nothing to change (edgar's {name} hooks are {state})")
    else:
        ctx.out(f"{'would change' if ns.dry_run else 'changed'} {shown}:")
        for change in plan.changes:
            ctx.out(f"  {change.line()}")
        if planned.switched_on:
            ctx.out("  set hooksConfig.enabled to true (Gemini CLI runs no hook without it)")
        if plan.remove:
            ctx.out(f"{'would remove' if ns.dry_run else 'removed'} {shown}: install made it")
        elif plan.restored:
            ctx.out(f"{shown}: {'would be' if ns.dry_run else 'is'} as it was before install, byte for byte")
    if planned.switched_off and not ns.uninstall:
        ctx.out(
            f"note: hooksConfig.enabled is false in {shown}, so Gemini CLI runs none of its hooks; "
            "set it to true"
        )
    if steps:
        ctx.out(steps)
    for line in check[1] if check else ():
        ctx.out(line)
    return 0
