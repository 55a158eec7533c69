"""`edgar skills suggest TEXT [--limit N] [--agent AGENT]`: the skills that may apply to a task, or none.

`edgar skills teach NAME TEXT [--forget]` and `edgar skills examples [NAME]`: what routing learns from
(`skills/examples.py`); `edgar skills examples --import claude-code|codex|gemini PATH ... [--dry-run]`: the
examples of an agent's past sessions (`delivery/backfill.py`).
"""

from __future__ import annotations

from edgar_min.errors import BadInput, NotFound
from edgar_min.invocation import program
from edgar_min.layout import AGENT_LISTS

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from edgar_min.cli.context import Context

__all__ = ["register_skills"]


def register_skills(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "suggest",
        help="the skills that may apply to a task, as the prompt hook hands them over, or none",
    )
    p.add_argument("text", nargs="+", metavar="TEXT", help="the task, as a person typed it")
    p.add_argument(
        "--limit",
        type=int,
        metavar="N",
        help="at most N skills (default: suggest.max_skills)",
    )
    p.add_argument(
        "--agent",
        choices=tuple(AGENT_LISTS),
        help="named_only as this agent's prompt hook says it (a skill it lists itself is only named)",
    )
    p.set_defaults(handler=cmd_suggest)
    p = sub.add_parser(
        "teach", help="tell routing which skill a message calls for (or none); --forget takes it back"
    )
    p.add_argument("name", metavar="NAME", help="a discovered skill, or none (the message needs no skill)")
    p.add_argument("text", nargs="+", metavar="TEXT", help="the message, as a person typed it")
    p.add_argument("--forget", action="store_true", help="take this example back")
    p.set_defaults(handler=cmd_teach)
    p = sub.add_parser("examples", help="the messages routing learned from, per skill")
    p.add_argument(
        "args",
        nargs="*",
        metavar="NAME | PATH",
        help="only this skill's (or none's) messages; with --import, the session logs or folders to read",
    )
    p.add_argument(
        "--import",
        dest="import_from",
        choices=("claude-code", "codex", "gemini"),
        help="learn examples from every turn of this agent's past sessions (PATH: a log, or a folder)",
    )
    p.add_argument(
        "--dry-run", action="store_true", help="with --import: print what would be kept; write nothing"
    )
    p.set_defaults(handler=cmd_examples)


def _reading(count: int) -> str:
    return f"edgar: reading {count:,} skills for routing (once: a cache keeps them)..."


def cmd_suggest(ctx: Context) -> int:
    from edgar_min.skills.catalog import load_catalog
    from edgar_min.skills.suggest import named_note, suggest

    text = " ".join(ctx.ns.text)
    if not text.strip():
        msg = "skills suggest needs the text of a task; it was empty"
        raise BadInput(msg)
    limit = ctx.ns.limit
    if limit is not None and limit < 1:
        msg = f"--limit must be at least 1, not {limit}"
        raise BadInput(msg)
    catalog = load_catalog(ctx.layout, before_long=lambda count: ctx.warn(_reading(count)))
    found = suggest(ctx.layout, ctx.config, text, limit=limit, catalog=catalog)
    for warning in found.warnings:
        ctx.warn(f"edgar: warning: {warning}")
    least, agent = ctx.config.suggest.body_probability, ctx.ns.agent
    if ctx.json:
        ctx.emit(found.as_json(least, agent))
        return 0
    if not found.picks:
        ctx.out(f"none (probability {found.none_probability:.2f}): no skill applies to this text")
        return 0
    for pick in found.picks:
        ctx.out(f"{pick.name}  {pick.probability:.2f}  {pick.path}{named_note(pick, least, agent)}")
    return 0


def _known(ctx: Context, name: str) -> None:
    from edgar_min.skills.discovery import SkillNames
    from edgar_min.skills.examples import NONE

    if name != NONE and name not in SkillNames(ctx.layout):
        msg = f"no skill named {name!r} was discovered; `{program()} skills list` shows them (or say none)"
        raise NotFound(msg)


def cmd_teach(ctx: Context) -> int:
    from edgar_min.skills.examples import add_example, clean_text, forget_example

    name, text = ctx.ns.name, " ".join(ctx.ns.text)
    if not clean_text(text):
        msg = "skills teach needs the text of a message; it was empty"
        raise BadInput(msg)
    if ctx.ns.forget:
        gone = forget_example(ctx.layout, text, name)
        if not gone:
            msg = f"no example of {name} has this text; `{program()} skills examples {name}` shows them"
            raise NotFound(msg)
        kept = clean_text(text)
        if ctx.json:
            ctx.emit({"forgot": True, "skill": name, "text": kept})
        else:
            ctx.out(f"forgot: {kept!r} as an example of {name}")
        return 0
    _known(ctx, name)
    kept = add_example(ctx.layout, name, text, "person")
    if ctx.json:
        ctx.emit({"taught": True, "skill": name, "text": kept})
    else:
        ctx.out(f"taught: {kept!r} " + (f"calls for {name}" if name != "none" else "needs no skill"))
    return 0


def cmd_examples(ctx: Context) -> int:
    from edgar_min.skills.discovery import SkillNames
    from edgar_min.skills.examples import NONE, read_examples
    from edgar_min.skills.terminal import printable

    if ctx.ns.import_from is not None:
        return _import(ctx)
    if ctx.ns.dry_run:
        msg = "--dry-run goes with --import (`skills examples --import claude-code PATH --dry-run`)"
        raise BadInput(msg)
    if len(ctx.ns.args) > 1:
        msg = "skills examples takes at most one NAME (or --import AGENT PATH ...)"
        raise BadInput(msg)
    ctx.ns.name = ctx.ns.args[0] if ctx.ns.args else None
    if ctx.ns.name is not None and ctx.ns.name != NONE:
        from edgar_min.skills.names import name_problem

        problem = name_problem(ctx.ns.name)
        if problem is not None:
            raise BadInput(problem)
    held = read_examples(ctx.layout)
    names = SkillNames(ctx.layout)
    if ctx.ns.name is not None:
        held = {ctx.ns.name: held.get(ctx.ns.name, [])}
    rows = [
        {"skill": skill, "discovered": skill == NONE or skill in names, "texts": texts}
        for skill, texts in sorted(held.items())
    ]
    if ctx.json:
        ctx.emit({"examples": rows})
        return 0
    if not any(row["texts"] for row in rows):
        ctx.out(
            "no examples yet: they come from the skills an agent loads itself, "
            f"and `{program()} skills teach`"
        )
        return 0
    for row in rows:
        away = "" if row["discovered"] else " (not discovered now: unused)"
        ctx.out(f"{row['skill']}: {len(row['texts'])} example(s){away}")
        if ctx.ns.name is not None:
            for text in row["texts"]:
                ctx.out(f"  {printable(text)}")  # a pasted prompt may hold a terminal's escapes
    return 0


def _import(ctx: Context) -> int:
    """`--import AGENT PATH ...`: the examples of every turn of past sessions."""
    from edgar_min.adapters.common import tool_table
    from edgar_min.delivery.backfill import backfill
    from edgar_min.skills.discovery import SkillNames
    from edgar_min.skills.terminal import printable

    if not ctx.ns.args:
        msg = (
            f"--import {ctx.ns.import_from} needs a PATH: a session log, or a folder of them "
            "(~/.claude/projects/<project>/ or ~/.codex/sessions/)"
        )
        raise BadInput(msg)
    if not ctx.config.suggest.learn_from_use and not ctx.ns.dry_run:
        from edgar_min.errors import Refused

        msg = (
            "suggest.learn_from_use is false, so the skills an agent loads are not kept as examples; "
            "nothing was imported (--dry-run shows what would be)"
        )
        raise Refused(msg)
    table = tool_table(ctx.config.adapters.tool_map)
    found = backfill(
        ctx.layout,
        ctx.ns.import_from,
        ctx.ns.args,
        table,
        SkillNames(ctx.layout),
        dry_run=ctx.ns.dry_run,
        progress=ctx.progress("reading session logs"),
    )
    for sentence in found.skipped:
        ctx.warn(f"edgar: warning: {printable(sentence)}")
    if ctx.json:
        ctx.emit({**found.as_json(), "dry_run": bool(ctx.ns.dry_run)})
        return 0
    lead = "would keep" if ctx.ns.dry_run else "kept"
    for example in found.examples:
        mark = "" if example.new else "  (already kept)"
        ctx.out(f"{example.skill}: {printable(example.text)}{mark}")
    new = "would be new" if ctx.ns.dry_run else "new"
    ctx.out(
        f"read {found.sessions} session(s), {found.turns} turn(s); {lead} {len(found.examples)} example(s), "
        f"{found.new} {new}" + ("; nothing was written" if ctx.ns.dry_run else "")
    )
    return 0
