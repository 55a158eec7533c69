"""`edgar decide`, `edgar decisions export`, `edgar decisions relabel`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from edgar_min.errors import BadInput

if TYPE_CHECKING:
    import argparse

    from edgar_min.cli.app import Context

__all__ = ["register"]


def register(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("decide", help="answer one multiple-choice decision with the configured engine")
    p.add_argument("--state", required=True, help="the evidence to decide on")
    p.add_argument("--question", required=True, help="the criterion")
    p.add_argument(
        "--option",
        action="append",
        required=True,
        metavar="ID[=DESCRIPTION]",
        help="one option (repeat, 1-16 times)",
    )
    p.add_argument("--phase", default="decide", help="the phase recorded in the decision log")
    p.set_defaults(handler=cmd_decide)

    p = commands.add_parser("decisions", help="the decision log: export and relabel")
    sub = p.add_subparsers(dest="decisions_command", metavar="SUBCOMMAND")
    sub.required = True
    e = sub.add_parser("export", help="write the log as JSONL (raw rows, or chat fine-tuning examples)")
    e.add_argument("--format", choices=("rows", "chat"), default="rows")
    e.add_argument("--out", metavar="FILE", help="write to FILE instead of stdout")
    e.set_defaults(handler=cmd_export)
    r = sub.add_parser("relabel", help="record the observed outcome of one decision")
    r.add_argument("decision_id", metavar="ID")
    r.add_argument("--outcome", required=True, help="what happened (an option id marks the right answer)")
    r.add_argument("--source", choices=("self", "human"), default="human")
    r.set_defaults(handler=cmd_relabel)


def parse_option(raw: str) -> tuple[str, str]:
    """`ID=DESCRIPTION` or `ID` -> (id, description)."""
    option_id, _, description = raw.partition("=")
    if not option_id.strip():
        msg = f"--option {raw[:60]!r}: the option id before '=' may not be empty"
        raise BadInput(msg)
    return option_id.strip(), description.strip()


def cmd_decide(ctx: Context) -> int:
    from edgar_min.semif import DecisionRequest, decide

    options = [parse_option(raw) for raw in ctx.ns.option]
    # Checked before the engine is built, so bad input never costs a model call.
    DecisionRequest(ctx.ns.state, ctx.ns.question, options, "check")
    result = decide(ctx.layout, ctx.config, ctx.ns.state, ctx.ns.question, options, phase=ctx.ns.phase)
    if ctx.json:
        ctx.emit(result.as_json())
        return 0
    width = max(len(i) for i in result.option_ids)
    for option_id, p in zip(result.option_ids, result.probabilities, strict=True):
        mark = "*" if option_id == result.selected else " "
        ctx.out(f"{mark} {option_id:<{width}}  {p:.3f}")
    status = result.extra.get("probability_status")
    note = f"; {status}" if status and status != "logprobs" else ""
    if result.extra.get("calibrated") is False:
        note += "; uncalibrated"
    ctx.out(f"selected {result.selected} (engine {result.engine}{note})")
    return 0


def cmd_export(ctx: Context) -> int:
    from edgar_min.atomic import write_text
    from edgar_min.semif.log import DecisionLog, chat_rows

    read = DecisionLog.of(ctx.layout).read()
    problems = list(read.problems)
    if ctx.ns.format == "chat":
        rows, skipped = chat_rows(read.rows)
        problems += skipped
    else:
        rows = list(read.rows)
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    for problem in problems:
        ctx.warn(f"edgar: {problem}")
    if ctx.ns.out:
        target = Path(ctx.ns.out)
        if target.is_dir():
            msg = f"--out {ctx.ns.out}: is a folder; give a file name"
            raise BadInput(msg)
        write_text(target.absolute(), text)
        ctx.warn(f"edgar: wrote {len(rows)} row(s) to {ctx.ns.out}")
    else:
        ctx.stdout.write(text)
    return 0


def cmd_relabel(ctx: Context) -> int:
    from edgar_min.semif.log import DecisionLog

    label = DecisionLog.of(ctx.layout).relabel(ctx.ns.decision_id, ctx.ns.outcome, ctx.ns.source)
    ctx.out(f"labelled {label['id']}: {label['observed_outcome']} ({label['label_source']})")
    ctx.emit(label)
    return 0
