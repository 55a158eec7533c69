"""`edgar tree`, `edgar run TEXT`, `edgar skills generate NAME --description TEXT`."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from edgar_min.cli.context import Context

__all__ = ["register", "register_skills"]


def register(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("tree", help="print the code-skill tree (data/categories.json)")
    p.set_defaults(handler=cmd_tree)

    p = commands.add_parser(
        "run", help="handle one request with the skill tree (navigate, predict, act, assess)"
    )
    p.add_argument("text", metavar="TEXT", help="the request")
    p.set_defaults(handler=cmd_run)


def register_skills(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "generate", help="ask the model for a code skill body (through acceptance and the gate)"
    )
    p.add_argument("name", metavar="NAME", help="category.skill")
    p.add_argument("--description", required=True, help="one or two sentences: what the skill does")
    p.set_defaults(handler=cmd_generate)


def cmd_tree(ctx: Context) -> int:
    from edgar_min.agent.tree import body_path, load_registry

    if not os.path.exists(ctx.layout.registry):
        # An empty project is a normal case, as for `skills list`.
        ctx.emit({"categories": []})
        ctx.out(f"no skill tree yet: {ctx.layout.registry} does not exist (see examples/tree for one)")
        return 0
    registry = load_registry(ctx.layout.registry)
    entries = []
    for category in registry.categories:
        leaves = []
        for m in category.skills:
            path = body_path(ctx.layout.code_skills, m)
            leaves.append(
                {
                    **m.as_json(),
                    "body": ctx.layout.relative(path),
                    "body_exists": os.path.isfile(path),
                }
            )
        entries.append({"name": category.name, "description": category.description, "skills": leaves})
    if ctx.json:
        ctx.emit({"categories": entries})
        return 0
    if not entries:
        ctx.out(f"the skill tree {ctx.layout.registry} has no categories")
    for category in entries:
        ctx.out(f"{category['name']}: {category['description']}")
        for leaf in category["skills"]:
            missing = "" if leaf["body_exists"] else "  [body missing]"
            ctx.out(f"  {leaf['name']}: {leaf['description']}{missing}")
    return 0


def cmd_run(ctx: Context) -> int:
    from edgar_min.agent.loop import run_request

    outcome = run_request(ctx.layout, ctx.config, ctx.ns.text)
    if ctx.json:
        ctx.emit(outcome.as_json())
    else:
        route = " > ".join(x for x in (outcome.category, outcome.skill) if x) or "no skill"
        ctx.out(f"run {outcome.request.id}: {route}")
        ctx.out(f"action: {outcome.result.action_log}")
        ctx.out(f"state:  {outcome.result.new_state}")
        if outcome.assessment:
            ctx.out(f"assessed: {outcome.assessment}")
        for refusal in outcome.refused:
            ctx.out(f"wall: {refusal}")
    return 0 if outcome.acted else 1


def cmd_generate(ctx: Context) -> int:
    from edgar_min.agent.generate import generate

    result = generate(ctx.layout, ctx.config, ctx.ns.name, ctx.ns.description)
    ctx.out(result.message)
    ctx.emit({"name": ctx.ns.name, "outcome": result.outcome, "path": result.path, "message": result.message})
    return 0
