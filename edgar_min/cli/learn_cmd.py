"""`edgar learn TURN.json|- [--session ID]`: one turn through triggers, the store and the gate."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from edgar_min.errors import BadInput

if TYPE_CHECKING:
    import argparse

    from edgar_min.cli.app import Context

__all__ = ["register"]

# A turn record is a few lines a harness wrote; anything bigger is not one.
MAX_TURN_BYTES = 1_000_000


def register(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("learn", help="learn from one turn record (JSON file, or - for stdin)")
    p.add_argument("turn", metavar="TURN.json|-")
    p.add_argument("--session", help="the session this turn belongs to (default: a new id)")
    p.set_defaults(handler=cmd_learn)


def read_turn_text(source: str) -> str:
    """The text of a turn record from a file or stdin, or `BadInput`."""
    try:
        if source == "-":
            data = sys.stdin.buffer.read(MAX_TURN_BYTES + 1)
        else:
            with Path(source).open("rb") as handle:
                data = handle.read(MAX_TURN_BYTES + 1)
    except FileNotFoundError:
        msg = f"{source}: no such file"
        raise BadInput(msg) from None
    except IsADirectoryError:
        msg = f"{source}: is a folder, not a turn record"
        raise BadInput(msg) from None
    except OSError as exc:
        msg = f"{source}: cannot be read ({exc.strerror})"
        raise BadInput(msg) from None
    if len(data) > MAX_TURN_BYTES:
        msg = (
            f"{source}: larger than {MAX_TURN_BYTES} bytes; a turn record is a few lines, nothing was stored"
        )
        raise BadInput(msg)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        msg = f"{source}: not UTF-8 text; nothing was stored"
        raise BadInput(msg) from None


def cmd_learn(ctx: Context) -> int:
    from edgar_min.controller.gate import Gate
    from edgar_min.learning.store import check_session, new_session_id
    from edgar_min.learning.turn import turn_from_json

    session = check_session(ctx.ns.session) if ctx.ns.session else new_session_id()
    config = ctx.config
    source = "stdin" if ctx.ns.turn == "-" else ctx.ns.turn
    turn = turn_from_json(read_turn_text(ctx.ns.turn), source, config.skills.tools)
    outcome = Gate(ctx.layout, config).learn(turn, session)
    if ctx.json:
        ctx.emit(outcome.as_json())
    else:
        ctx.out(f"triggers: {', '.join(outcome.triggers) or 'none'}")
        ctx.out(outcome.message)
    return 1 if outcome.outcome == "refused" else 0
