"""`edgar mcp`: serve this project's skills, learning and decisions over MCP on stdio."""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from edgar_min.cli.context import Context

__all__ = ["register"]


def register(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser(
        "mcp",
        help="serve skills_index, skill_show, learn_turn, decide and skills_suggest over MCP (stdio)",
    )
    p.set_defaults(handler=cmd_mcp)


def cmd_mcp(ctx: Context) -> int:
    from edgar_min.config import load_config
    from edgar_min.mcp.server import Server, serve

    # The config is read per call, so an edit to .edgar/config.toml applies without a restart;
    # a broken file is reported once, here, before the first message.
    ctx.config  # noqa: B018 - fail fast on a broken config
    layout = ctx.layout
    overrides = ctx.ns.set or ()
    server = Server(layout, lambda: load_config(layout, overrides=overrides))
    stdin = getattr(sys.stdin, "buffer", None)
    stdout = getattr(sys.stdout, "buffer", None)
    if stdin is None or stdout is None:
        from edgar_min.errors import BadInput

        msg = "edgar mcp needs byte streams on stdin and stdout"
        raise BadInput(msg)
    return serve(server, stdin, stdout)
