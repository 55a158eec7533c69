"""`edgar skills suggest TEXT [--limit N]`: which skills apply to a task, each with a probability, or none."""

from __future__ import annotations

from edgar_min.errors import BadInput

TYPE_CHECKING = False  # typing's own, without importing typing (~2 ms on every run)
if TYPE_CHECKING:
    import argparse

    from edgar_min.cli.context import Context

__all__ = ["register_skills"]


def register_skills(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "suggest",
        help="which skills apply to a task (a shortlist, then a SemIf decision with 'none'), or none",
    )
    p.add_argument("text", nargs="+", metavar="TEXT", help="the task, as a person typed it")
    p.add_argument(
        "--limit",
        type=int,
        metavar="N",
        help="at most N skills (default: suggest.max_skills)",
    )
    p.set_defaults(handler=cmd_suggest)


def cmd_suggest(ctx: Context) -> int:
    from edgar_min.skills.suggest import suggest

    text = " ".join(ctx.ns.text)
    if not text.strip():
        msg = "skills suggest needs the text of a task; it was empty"
        raise BadInput(msg)
    limit = ctx.ns.limit
    if limit is not None and limit < 1:
        msg = f"--limit must be at least 1, not {limit}"
        raise BadInput(msg)
    found = suggest(ctx.layout, ctx.config, text, limit=limit)
    for warning in found.warnings:
        ctx.warn(f"edgar: warning: {warning}")
    if ctx.json:
        ctx.emit(found.as_json())
        return 0
    if not found.picks:
        ctx.out(f"none (probability {found.none_probability:.2f}): no skill applies to this text")
        return 0
    for pick in found.picks:
        ctx.out(f"{pick.name}  {pick.probability:.2f}  {pick.path}")
    return 0
