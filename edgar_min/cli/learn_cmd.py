"""`edgar learn`: one turn through triggers, the store and the gate.

    edgar learn TURN.json|- [--session ID] [--check] [--dry-run]
    edgar learn --from claude-code|codex|gemini TRANSCRIPT [--session ID] [--check] [--dry-run]
    edgar learn --from claude-code --hook        (a Claude Code Stop hook; payload on stdin)

`--from` builds the turn record of the log's last turn (computed by edgar,
never copied): its skills are those the log shows the agent used, and what edgar
offered at that turn's prompt (its session's offer record) is recorded beside
them; the verdict is that of the agent's own last run of the declared check after
its last edit when the log states it; `--check` runs the declared check and takes
the verdict from its exit code alone. `--dry-run` prints the turn record
edgar computed and the triggers that would fire, and writes nothing. `--hook` is
`edgar hook stop` (cli/hook_cmd.py): bounded as a whole, exit 0 always, one line on
any problem (also logged in `.edgar/hook-problems.jsonl`).
"""

from __future__ import annotations

from edgar_min.cli.quick import Option, Positional, Spec
from edgar_min.errors import BadInput

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from edgar_min.cli.context import Context
    from edgar_min.learning.triggers import Trigger
    from edgar_min.learning.turn import Turn

__all__ = ["register"]

# A turn record is a few lines a harness wrote; anything bigger is not one.
MAX_TURN_BYTES = 1_000_000
AGENTS = ("claude-code", "codex", "gemini")
AGENT_NAMES = {"claude-code": "Claude Code", "codex": "Codex", "gemini": "Gemini CLI"}


# The config is read inside the handler, so that in hook mode a broken config file is one more
# problem reported with exit 0 (a Stop hook exiting 2 would keep the agent going).
LEARN = Spec(
    positionals=(Positional("turn", required=False, metavar="TURN.json|-|TRANSCRIPT"),),
    options=(
        Option("--session", "session", "the session this turn belongs to (default: the log's, or a new id)"),
        Option(
            "--from",
            "from_agent",
            "read the last turn of this agent's session log (TRANSCRIPT) instead of a turn record",
            choices=AGENTS,
        ),
        Option(
            "--hook",
            "hook",
            "with --from claude-code: read the Stop hook's payload on stdin; never fails the agent",
            value=False,
        ),
        Option(
            "--check",
            "check",
            "run the declared check ([check] command) and set the verdict from its exit code",
            value=False,
        ),
        Option(
            "--dry-run",
            "dry_run",
            "print the turn record edgar computed and the triggers that would fire; write nothing",
            value=False,
        ),
    ),
    defaults=(("needs_config", False),),
)


def register(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser(
        "learn",
        help="learn from one turn: a turn record (JSON file, or - for stdin) or an agent's session log",
    )
    LEARN.add_to(p, cmd_learn)


def read_turn_text(source: str) -> str:
    """The text of a turn record from a file or stdin, or `BadInput`."""
    from edgar_min.cli.context import read_input

    return read_input(
        source,
        limit=MAX_TURN_BYTES,
        label=source,
        kind="a turn record",
        too_big="; a turn record is a few lines, nothing was stored",
        tail="; nothing was stored",
    )


def _usage(ns: argparse.Namespace) -> None:
    if ns.hook and ns.dry_run:
        msg = (
            "--hook and --dry-run do not go together: a hook learns; "
            "to see what it would learn, run `learn --from claude-code TRANSCRIPT --dry-run`"
        )
        raise BadInput(msg)
    if ns.hook:
        if ns.from_agent != "claude-code":
            msg = "--hook reads a Claude Code hook payload: use it as `learn --from claude-code --hook`"
            raise BadInput(msg)
        if ns.turn is not None:
            msg = "--hook reads the transcript path from the payload on stdin; give no TRANSCRIPT"
            raise BadInput(msg)
    elif ns.turn is None:
        what = "TRANSCRIPT (the session log)" if ns.from_agent else "TURN.json (or - for stdin)"
        msg = f"learn needs {what}"
        raise BadInput(msg)


def _session(ctx: Context, found: str | None) -> str:
    from edgar_min.learning.sessions import check_session, is_session, new_session_id

    if ctx.ns.session:
        return check_session(ctx.ns.session)
    if found and is_session(found):
        return found
    return new_session_id()


def _verified(ctx: Context, turn: Turn) -> Turn:
    from edgar_min.learning.check import run_check
    from edgar_min.records import replace

    result = run_check(ctx.config.check, ctx.layout.root)
    return replace(turn, verification=result.verdict)


def _adapt(ctx: Context, agent: str, path: str):
    from edgar_min.adapters.common import tool_table
    from edgar_min.adapters.logs import last_turn, log_agent
    from edgar_min.skills.discovery import SkillNames

    found = log_agent(path)
    if found is not None and found != agent:
        msg = (
            f"{path} is a {AGENT_NAMES[found]} log, not a {AGENT_NAMES[agent]} one: "
            f"use learn --from {found}; nothing was stored"
        )
        raise BadInput(msg)
    names = SkillNames(ctx.layout)
    return last_turn(agent, path, tool_table(ctx.config.adapters.tool_map), names), names


def _report(ctx: Context, outcome: Any, extra: dict[str, Any]) -> None:
    if ctx.json:
        ctx.emit({**outcome.as_json(), **extra})
    else:
        ctx.out(f"triggers: {', '.join(outcome.triggers) or 'none'}")
        ctx.out(outcome.message)


def cmd_learn(ctx: Context) -> int:
    if ctx.ns.hook:
        return _hook(ctx)
    _usage(ctx.ns)
    ctx.say_config()
    from edgar_min.controller.gate import Gate
    from edgar_min.delivery.record import Offer, last_offer
    from edgar_min.learning.turn import parse_turn, turn_from_json

    config = ctx.config
    extra: dict[str, Any] = {}
    offer = Offer()
    if ctx.ns.from_agent:
        adapted, names = _adapt(ctx, ctx.ns.from_agent, ctx.ns.turn)
        for note in adapted.notes():
            ctx.warn(f"edgar: note: {note}")
        session = _session(ctx, adapted.session)
        if adapted.session == session:  # the log's own session: what edgar offered at its prompt
            offer = last_offer(ctx.layout, session, names)
        turn = parse_turn(adapted.record, config.skills.tools)
        if not ctx.ns.check:  # the agent's own run of the declared check, as the Stop hook reads it
            from edgar_min.delivery.verdict import from_log

            turn = from_log(config, turn, adapted.runs, ctx.layout.root)
        extra = {"session": session, "notes": adapted.notes()}
    else:
        session = _session(ctx, None)
        source = "stdin" if ctx.ns.turn == "-" else ctx.ns.turn
        turn = turn_from_json(read_turn_text(ctx.ns.turn), source, config.skills.tools)
    if ctx.ns.check:
        turn = _verified(ctx, turn)
        extra["verification"] = turn.verification
    if ctx.ns.dry_run:
        return _dry_run(ctx, turn, session, extra.get("notes", []))
    if ctx.ns.from_agent and config.suggest.learn_from_use:
        from edgar_min.delivery.hooks import learn_examples

        problems: list[str] = []
        extra["examples"] = learn_examples(ctx.layout, turn, problems)
        for problem in problems:
            ctx.warn(f"edgar: {problem}")
    outcome = Gate(ctx.layout, config).learn(turn, session, offered=offer.names)
    _report(ctx, outcome, extra)
    return 1 if outcome.outcome == "refused" else 0


def turn_record(turn: Turn) -> dict[str, Any]:
    """The seven-key record of a parsed turn (secrets already redacted), as a harness would write it."""
    return {
        "prompt": turn.prompt,
        "corrections": list(turn.corrections),
        "tools": list(turn.tools),
        "errors": [
            {"tool": e.tool, "kind": e.kind, "exit_code": e.exit_code, "program": e.program}
            for e in turn.errors
        ],
        "verification": turn.verification,
        "agent": turn.agent,
        "skills": list(turn.skills),
    }


def _would(ctx: Context, fired: tuple[Trigger, ...], turn: Turn) -> str:
    """What `learn` would do with this turn: the gate's own `route`, said in words."""
    from edgar_min.controller.gate import route

    config = ctx.config
    if not config.controller.enabled:
        return "nothing: controller.enabled is false, so learning is inert"
    if not fired:
        return "nothing: no trigger fired (the turn would be recorded in the experience store)"
    place, why = route(config.skills.synthesis, verified=turn.verified, fired=fired)  # type: ignore[arg-type]
    if place == "nowhere":
        return f"nothing: {why} (no model call)"
    if place == "learned":
        return (
            "ask the model for a skill and write it as a learned skill if the writer accepts it and its "
            "text is not flagged as aimed at the agent (else as a proposal)"
        )
    because = f" ({why})" if why else ""
    return f"ask the model for a skill and write it as a proposal for a person to accept or reject{because}"


def _dry_run(ctx: Context, turn: Turn, session: str, notes: list[str]) -> int:
    """The turn record and the triggers that would fire; reads the store, writes nothing."""
    from edgar_min import jsoncodec
    from edgar_min.learning.store import ExperienceStore
    from edgar_min.learning.triggers import triggers

    fired = triggers(turn, ctx.config.skills, ExperienceStore(ctx.layout.experience), session)
    record = turn_record(turn)
    would = _would(ctx, fired, turn)
    if ctx.json:
        ctx.emit(
            {
                "dry_run": True,
                "turn": record,
                "shape": turn.shape,
                "triggers": list(fired),
                "would": would,
                "session": session,
                "notes": notes,
            }
        )
    else:
        ctx.out("turn record edgar computed (nothing was stored):")
        # One key a line: a long run's tool list stays one line, and the whole is still JSON.
        lines = [
            f"  {jsoncodec.dumps(k)}: {jsoncodec.dumps(v, ensure_ascii=False)}" for k, v in record.items()
        ]
        ctx.out("{\n" + ",\n".join(lines) + "\n}")
        ctx.out(f"task shape: {turn.shape}")
        ctx.out(f"triggers that would fire: {', '.join(fired) or 'none'}")
        ctx.out(f"learn would: {would}")
    return 0


# The hook: the Stop hook of `edgar hook stop`, under its older name.


def _hook(ctx: Context) -> int:
    from edgar_min.cli.hook_cmd import report_problem, run_event

    try:
        _usage(ctx.ns)
    except BadInput as exc:
        return report_problem(ctx, "stop", exc.message)
    return run_event(ctx, "stop")
