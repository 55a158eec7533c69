"""`edgar skills index [--budget-chars N] [--order NAME ...]`: the listing a harness puts in its prompt."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from edgar_min.cli.context import Context

__all__ = ["register_skills"]

DEFAULT_BUDGET = 4000


def register_skills(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "index",
        help="names and descriptions within a character budget; the last line says what was cut",
    )
    p.add_argument(
        "--budget-chars",
        type=int,
        default=DEFAULT_BUDGET,
        metavar="N",
        help=f"the most characters the listing may take (default {DEFAULT_BUDGET})",
    )
    p.add_argument(
        "--order",
        action="append",
        default=[],
        metavar="NAME",
        help="list this skill before the others (repeatable; the most useful first)",
    )
    p.set_defaults(handler=cmd_index)


def cmd_index(ctx: Context) -> int:
    from edgar_min.skills.listing import build_index
    from edgar_min.skills.terminal import printable

    index = build_index(ctx.layout, ctx.ns.budget_chars, ctx.ns.order or _most_useful_first(ctx))
    if ctx.json:
        ctx.emit(index.as_json())
    else:
        for _, warning in index.warnings:
            ctx.warn(f"edgar: {printable(warning)}")
        ctx.out(index.text)
    return 0


def _most_useful_first(ctx: Context) -> list[str]:
    """Skills most useful first by the evidence; a build without the learning package has none to give."""
    try:
        from edgar_min.learning.evidence import usefulness_order
    except ModuleNotFoundError as exc:
        # Reading skills never needs what writes them: without it, skills are listed as found.
        if exc.name != "edgar_min.learning":
            raise
        return []
    return usefulness_order(ctx.layout)
