"""`edgar skills rejections [--show ID]`: the model replies the writer refused, and why."""

from __future__ import annotations

from edgar_min.invocation import program
from edgar_min.regex import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from edgar_min.cli.context import Context

__all__ = ["register_skills"]

# A reply is a model's text: a terminal control sequence in it is shown, never run.
_CONTROL = lazy(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _shown(text: str) -> str:
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group(0)):02x}", text)


def register_skills(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rejections", help="model replies the writer refused, newest first, with the reason")
    p.add_argument("--show", metavar="ID", help="print one refused reply in full")
    p.set_defaults(handler=cmd_rejections)


def cmd_rejections(ctx: Context) -> int:
    from edgar_min.learning.rejected import KEEP, list_rejected, read_rejected

    if ctx.ns.show:
        found = read_rejected(ctx.layout, ctx.ns.show)
        ctx.emit(found.as_json())
        ctx.out(f"id: {found.id}")
        ctx.out(f"time: {found.time}; trigger: {found.trigger}; session: {found.session or '-'}")
        if found.skill:
            ctx.out(f"skill: {found.skill}")
        ctx.out(f"refused: {_shown(found.sentence)}")
        ctx.out("reply" + (" (cut)" if found.cut else "") + ":")
        for line in found.reply.splitlines():
            ctx.out(f"  {_shown(line)}")
        return 0
    rows = list_rejected(ctx.layout)
    ctx.emit({"keep": KEEP, "rejections": [r.as_json() for r in rows]})
    if not rows:
        ctx.out("no refused replies kept")
        return 0
    for r in rows:
        ctx.out(f"{r.id}  {r.trigger or '-'}  {_shown(' '.join(r.sentence.split())[:160])}")
    ctx.out(f"{len(rows)} kept (the newest {KEEP}); `{program()} skills rejections --show ID` prints one")
    return 0
