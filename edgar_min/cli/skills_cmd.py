"""`edgar skills ...`: list, show, validate, forget, proposals, accept, reject."""

from __future__ import annotations

import os

from edgar_min.cli.quick import Option, Spec
from edgar_min.errors import NotFound
from edgar_min.invocation import program
from edgar_min.skills.terminal import printable

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from edgar_min.cli.context import Context
    from edgar_min.skills.discovery import Skill

__all__ = ["register_skills"]


LIST = Spec(options=(Option("--learned", "learned", "only machine-written skills", value=False),))


def register_skills(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("list", help="every skill, by scope, with shadowed names")
    LIST.add_to(p, cmd_list)

    p = sub.add_parser(
        "show", help="print one skill (--proposal: a proposal, and what its text is flagged for)"
    )
    p.add_argument("name")
    p.add_argument("--proposal", action="store_true", help="the proposal of that name, waiting for review")
    p.set_defaults(handler=cmd_show)

    p = sub.add_parser(
        "validate", help="check SKILL.md files, code skill bodies and data/categories.json (all by default)"
    )
    p.add_argument("paths", nargs="*", metavar="PATH")
    p.set_defaults(handler=cmd_validate)

    p = sub.add_parser("forget", help="move a learned skill into the archive")
    p.add_argument("name")
    p.set_defaults(handler=cmd_forget)

    p = sub.add_parser("proposals", help="proposals waiting for a person")
    p.set_defaults(handler=cmd_proposals)

    p = sub.add_parser("accept", help="make a proposal a learned skill (through the writer)")
    p.add_argument("name")
    p.set_defaults(handler=cmd_accept)

    p = sub.add_parser("reject", help="archive a proposal")
    p.add_argument("name")
    p.set_defaults(handler=cmd_reject)


def _entry(ctx: Context, skill: Skill, shadowed_by: Skill | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "name": skill.name,
        "origin": skill.origin,
        "scope": skill.scope,
        "path": ctx.layout.relative(skill.path),
        "description": skill.description,
        "warning": skill.warning,
    }
    if skill.origin == "learned":
        entry["provenance"] = skill.provenance
    entry["shadowed_by"] = ctx.layout.relative(shadowed_by.path) if shadowed_by else None
    return entry


def cmd_list(ctx: Context) -> int:
    from edgar_min.skills.discovery import discover

    index = discover(ctx.layout)
    winners = [s for s in index.skills.values() if not ctx.ns.learned or s.origin == "learned"]
    losers = [(lo, w) for lo, w in index.shadowed if not ctx.ns.learned or lo.origin == "learned"]
    entries = [_entry(ctx, s) for s in sorted(winners, key=lambda s: s.name)]
    entries += [_entry(ctx, lo, w) for lo, w in losers]
    if ctx.json:
        ctx.emit(entries)
        return 0
    for problem in index.problems:
        ctx.warn(f"edgar: {problem}")
    if not winners and not losers:
        which = "learned skills" if ctx.ns.learned else "skills"
        from edgar_min.layout import agent_user_skills

        folders = [ctx.layout.relative(f) for _, f in ctx.layout.agent_project_skills]
        folders += [ctx.layout.user_skills, *(f for _, f in agent_user_skills())]
        ctx.out(f"no {which} found (looked in .edgar/skills, {', '.join(folders)} and .edgar/skills/learned)")
        return 0
    for e in entries:
        # A skill whose file has a problem still lists; say what the problem is, once,
        # the way 'skills validate' would.
        if e["warning"] and not e["shadowed_by"]:
            ctx.warn(f"edgar: {printable(e['warning'])}")
    width = max(len(e["name"]) for e in entries)
    for e in entries:
        if e["shadowed_by"]:
            continue
        tag = "learned" if e["origin"] == "learned" else e["scope"]
        # One line per skill: a `|` block description keeps its line breaks in --json only.
        description = printable(" ".join(e["description"].split()))
        ctx.out(f"{e['name']:<{width}}  {tag:<8}  {description}")
    for e in entries:
        if e["shadowed_by"]:
            ctx.out(f"shadowed: {e['name']} at {e['path']} (hidden by {e['shadowed_by']})")
    return 0


def _find(ctx: Context, name: str) -> Skill:
    from edgar_min.skills.discovery import discover

    skill = discover(ctx.layout).get(name)
    if skill is None:
        hint = ""
        if os.path.isfile(os.path.join(ctx.layout.proposals, name, "SKILL.md")):
            hint = f"; a proposal of that name is waiting: `{program()} skills show --proposal {name}`"
        msg = f"no skill named {name[:80]!r}{hint}"
        raise NotFound(msg)
    return skill


def _show_proposal(ctx: Context) -> int:
    """A proposal as a person reviews it: the file, and what its text is flagged for (on stderr)."""
    from edgar_min.atomic import read_text
    from edgar_min.learning.proposals import flags_of, proposal_path
    from edgar_min.skills.frontmatter import parse_skill

    name = ctx.ns.name
    path = proposal_path(ctx.layout, name)
    text = read_text(path, root=ctx.layout.root)
    if text is None:
        raise NotFound(f"no proposal named {name[:80]!r}")
    parsed = parse_skill(text, path)
    description = parsed.data.get("description")
    flags = flags_of(description if isinstance(description, str) else "", parsed.body)
    if ctx.json:
        ctx.emit(
            {
                "name": name,
                "path": ctx.layout.relative(path),
                "description": description,
                "metadata": parsed.data.get("metadata") or {},
                "body": parsed.body,
                "flags": list(flags),
            }
        )
        return 0
    for sentence in flags:
        ctx.warn(f"edgar: flagged: {printable(sentence)}")
    ctx.stdout.write(printable(text))
    return 0


def cmd_show(ctx: Context) -> int:
    if ctx.ns.proposal:
        return _show_proposal(ctx)
    skill = _find(ctx, ctx.ns.name)
    parsed = skill.frontmatter()
    if ctx.json:
        entry = _entry(ctx, skill)
        entry["metadata"] = parsed.data.get("metadata") or {}
        entry["body"] = parsed.body
        ctx.emit(entry)
        return 0
    if skill.warning:
        ctx.warn(f"edgar: {printable(skill.warning)}")
    # The file is anyone's text: its escape sequences are shown, never sent to the terminal.
    with open(skill.path, encoding="utf-8") as handle:
        ctx.stdout.write(printable(handle.read()))
    return 0


def _targets(ctx: Context, paths: list[str]) -> list[str]:
    from edgar_min.errors import BadInput
    from edgar_min.skills.discovery import discover, skill_files

    if not paths:
        index = discover(ctx.layout)
        found = [s.path for s in index.skills.values()] + [lo.path for lo, _ in index.shadowed]
        found += skill_files(ctx.layout.proposals)
        return found
    found = []
    for raw in paths:
        path = os.path.abspath(raw)
        if os.path.isfile(path):
            found.append(path)
        elif os.path.isfile(os.path.join(path, "SKILL.md")):
            found.append(os.path.join(path, "SKILL.md"))
        elif os.path.isdir(path):
            inner = skill_files(path)
            if not inner:
                msg = f"{raw}: no SKILL.md in this folder or its sub-folders"
                raise BadInput(msg)
            found += inner
        else:
            from edgar_min.logfile import kind_of

            what = "no such file or folder"
            if os.path.exists(path):
                what = f"is {kind_of(path)}, not a SKILL.md or a folder"
            msg = f"{raw}: {what}"
            raise BadInput(msg)
    return found


def cmd_validate(ctx: Context) -> int:
    from edgar_min.skills.validation import validate_file

    code_paths = [p for p in ctx.ns.paths if p.endswith(".py") or os.path.basename(p) == "categories.json"]
    skill_paths = [p for p in ctx.ns.paths if p not in code_paths]
    targets = _targets(ctx, skill_paths) if skill_paths or not code_paths else []
    problems: list[str] = []
    for path in targets:
        found = validate_file(path)
        problems += found
        if not found and not ctx.json:
            ctx.out(f"ok {ctx.layout.relative(path)}")
    checked, code_problems = _validate_code(ctx, code_paths)
    problems += code_problems
    checked += len(targets)
    for problem in problems:
        ctx.out(problem)
    if ctx.json:
        ctx.emit({"ok": not problems, "checked": checked, "problems": problems})
    elif not checked:
        ctx.out("nothing to validate: no skills, proposals or skill tree found")
    else:
        ctx.out(f"{checked} checked, {len(problems)} problem(s)")
    return 1 if problems else 0


def _validate_code(ctx: Context, paths: list[str]) -> tuple[int, list[str]]:
    """Code skills (the agent tree): the given files, or by default the whole tree and code proposals."""
    from edgar_min.agent.validate import validate_code_file, validate_tree
    from edgar_min.errors import BadInput

    if ctx.ns.paths and not paths:
        return 0, []
    problems: list[str] = []
    if not paths:
        checked = 0
        if os.path.isfile(ctx.layout.registry):
            checked, problems = validate_tree(ctx.layout)
        folder = ctx.layout.code_proposals
        bodies = sorted(n for n in os.listdir(folder) if n.endswith(".py")) if os.path.isdir(folder) else []
        for body in bodies:
            checked += 1
            problems += validate_code_file(ctx.layout, os.path.join(folder, body))
        return checked, problems
    for raw in paths:
        path = os.path.abspath(raw)
        if not os.path.isfile(path):
            from edgar_min.logfile import kind_of

            msg = (
                f"{raw}: is {kind_of(path)}, not a code skill"
                if os.path.exists(path)
                else f"{raw}: no such file"
            )
            raise BadInput(msg)
        problems += validate_code_file(ctx.layout, path)
    return len(paths), problems


def cmd_forget(ctx: Context) -> int:
    from edgar_min.learning.lifecycle import forget

    target = forget(ctx.layout, ctx.ns.name)
    ctx.out(f"forgot {ctx.ns.name}: moved to {ctx.layout.relative(target)}")
    ctx.emit({"name": ctx.ns.name, "archived_to": ctx.layout.relative(target)})
    return 0


def cmd_proposals(ctx: Context) -> int:
    from edgar_min.learning.proposals import list_proposals

    proposals = list_proposals(ctx.layout)
    if ctx.json:
        ctx.emit([{**p.as_json(), "path": ctx.layout.relative(p.path)} for p in proposals])
        return 0
    if not proposals:
        ctx.out("no proposals waiting")
        return 0
    for p in proposals:
        patch = f" (patch to {p.patch_of})" if p.patch_of else ""
        ctx.out(
            f"{p.name}{patch}  trigger={p.trigger or '?'}  created={p.created or '?'}  "
            f"{ctx.layout.relative(p.path)}"
        )
        if p.description:
            ctx.out(f"    {p.description}")
        if p.problem:
            ctx.out(f"    problem: {p.problem}")
        for sentence in p.flags:
            ctx.out(f"    flagged: {printable(sentence)}")
    return 0


def cmd_accept(ctx: Context) -> int:
    from edgar_min.learning.lifecycle import accept
    from edgar_min.learning.proposals import list_proposals

    waiting = [p for p in list_proposals(ctx.layout) if p.name == ctx.ns.name]
    path = accept(ctx.layout, ctx.ns.name)
    for sentence in waiting[0].flags if waiting else ():
        ctx.warn(f"edgar: warning: accepted as you asked, though it is flagged: {printable(sentence)}")
    ctx.out(f"accepted {ctx.ns.name}: {ctx.layout.relative(path)}")
    ctx.emit({"name": ctx.ns.name, "path": ctx.layout.relative(path)})
    return 0


def cmd_reject(ctx: Context) -> int:
    from edgar_min.learning.lifecycle import reject

    target = reject(ctx.layout, ctx.ns.name)
    ctx.out(f"rejected {ctx.ns.name}: moved to {ctx.layout.relative(target)}")
    ctx.emit({"name": ctx.ns.name, "archived_to": ctx.layout.relative(target)})
    return 0
