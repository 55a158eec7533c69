"""`edgar skills history NAME` and `edgar skills distill NAME`: watching skills by hand."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from edgar_min.cli.context import Context

__all__ = ["register_skills"]


def register_skills(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("history", help="the observation lines recorded for one skill")
    p.add_argument("name")
    p.set_defaults(handler=cmd_history)

    p = sub.add_parser("distill", help="ask the model for a patched body from a skill's history")
    p.add_argument("name")
    p.add_argument("--session", help="the session id to stamp on the patch (default: a new id)")
    p.set_defaults(handler=cmd_distill)


def cmd_history(ctx: Context) -> int:
    from edgar_min.errors import NotFound
    from edgar_min.learning.observations import read_history
    from edgar_min.skills.discovery import discover

    name = ctx.ns.name
    history = read_history(ctx.layout, name)
    if not history.lines and not history.garbage and discover(ctx.layout).get(name) is None:
        msg = f"no skill named {name!r} and no history for it"
        raise NotFound(msg)
    every = ctx.config.skills.distill_after
    if ctx.json:
        ctx.emit(
            {
                "skill": name,
                "path": ctx.layout.relative(history.path),
                "lines": list(history.lines),
                "count": len(history.lines),
                "distill_after": every,
                "skipped": history.garbage,
            }
        )
        return 0
    if not history.lines:
        ctx.out(f"no observations for {name}: every turn that used it went well")
    for line in history.lines:
        ctx.out(f"- {line}")
    if history.lines:
        ctx.out(f"{len(history.lines)} line(s); a distill is asked for every {every} (skills.distill_after)")
    if history.garbage:
        ctx.warn(f"edgar: {history.path}: {history.garbage} line(s) that are not observations were skipped")
    return 0


def cmd_distill(ctx: Context) -> int:
    from edgar_min.controller.gate import Gate
    from edgar_min.learning.sessions import check_session

    session = check_session(ctx.ns.session) if ctx.ns.session else ""
    # By hand there is no turn: no declared check passed and no correction of its own.
    gate = Gate(ctx.layout, ctx.config)
    outcome = gate.distill(ctx.ns.name, verified=False, corrected=False, session=session)
    if ctx.json:
        ctx.emit({"skill": ctx.ns.name, **outcome.as_json()})
    else:
        ctx.out(outcome.message)
    return 1 if outcome.outcome == "refused" else 0
