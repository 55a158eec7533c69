"""`edgar decide` (one question, or several over one state), `edgar decisions export`, `relabel`."""

from __future__ import annotations

import argparse
import os

from edgar_min import jsoncodec
from edgar_min.errors import BadInput

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from edgar_min.cli.context import Context
    from edgar_min.semif.log import DecisionLog
    from edgar_min.semif.questions import Question
    from edgar_min.semif.types import DecisionResult

__all__ = ["register"]


MAX_QUESTIONS_BYTES = 4 * 1024 * 1024


class _InOrder(argparse.Action):
    """Keeps `--question` and `--option` in one list, in the order given, so options follow their question."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:  # noqa: ARG002
        items = getattr(namespace, "asked", None) or []
        items.append((self.dest, values))
        namespace.asked = items


def register(commands: argparse._SubParsersAction) -> None:
    # The help line is also in the command table of cli/__init__.py, which prints it without importing this.
    p = commands.add_parser("decide", help="answer one multiple-choice decision with the configured engine")
    p.add_argument("--state", required=True, help="the evidence to decide on")
    p.add_argument(
        "--question",
        action=_InOrder,
        help="the criterion; repeat to ask several questions over the state, each followed by its --option",
    )
    p.add_argument(
        "--option",
        action=_InOrder,
        metavar="ID[=DESCRIPTION]",
        help="one option of the question before it (repeat, 1-16 times per question)",
    )
    p.add_argument(
        "--questions",
        metavar="FILE",
        help='questions as JSONL (- for stdin): {"question": ..., "options": [...], "id": ...} per line',
    )
    p.add_argument("--phase", default="decide", help="the phase recorded in the decision log")
    p.set_defaults(handler=cmd_decide, asked=None)

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


def _questions_in_order(asked: list[tuple[str, str]]) -> list[Question]:
    """`--question Q --option A --option B --question R ...` -> Questions.

    With one --question every --option is its own, wherever it stands (as `decide` always took
    them); with several, an --option before the first --question belongs to none and is refused.
    """
    from edgar_min.semif.questions import Question, parse_option
    from edgar_min.semif.types import Option

    questions: list[tuple[str, list[tuple[str, str]]]] = []
    if sum(kind == "question" for kind, _ in asked) == 1:
        asked = sorted(asked, key=lambda item: item[0] != "question")
    for kind, value in asked:
        if kind == "question":
            questions.append((value, []))
        elif not questions:
            msg = (
                f"--option {value[:60]!r} comes before any --question; "
                "with several questions, give each question first, then its options"
            )
            raise BadInput(msg)
        else:
            questions[-1][1].append(parse_option(value))
    for number, (question, options) in enumerate(questions, 1):
        if not options:
            shown = " ".join(question.split())[:60]
            msg = f"question {number} ({shown!r}) has no --option; give 1-16 after it"
            raise BadInput(msg)
    return [Question(q, tuple(Option(i, d) for i, d in opts)) for q, opts in questions]


def _read_questions_file(source: str) -> str:
    from edgar_min.cli.context import read_input

    return read_input(source, limit=MAX_QUESTIONS_BYTES, label=f"--questions {source}", kind="a JSONL file")


def cmd_decide(ctx: Context) -> int:
    from edgar_min.semif.questions import read_questions

    asked = ctx.ns.asked or []
    if ctx.ns.questions is not None:
        if asked:
            msg = "give the questions either as --question/--option or in --questions FILE, not both"
            raise BadInput(msg)
        source = "stdin" if ctx.ns.questions == "-" else ctx.ns.questions
        questions = read_questions(_read_questions_file(ctx.ns.questions), f"--questions {source}")
        return _decide_many(ctx, questions)
    if not any(kind == "question" for kind, _ in asked) or not any(kind == "option" for kind, _ in asked):
        msg = "decide needs --question and at least one --option after it (or --questions FILE)"
        raise BadInput(msg)
    questions = _questions_in_order(asked)
    if len(questions) > 1:
        return _decide_many(ctx, questions)
    return _decide_one(ctx, questions[0])


def _decide_one(ctx: Context, question: Question) -> int:
    from edgar_min.semif import DecisionRequest, decide

    # Checked before the engine is built, so bad input never costs a model call.
    DecisionRequest(ctx.ns.state, question.question, question.options, "check")
    result = decide(
        ctx.layout, ctx.config, ctx.ns.state, question.question, question.options, phase=ctx.ns.phase
    )
    if ctx.json:
        ctx.emit(result.as_json())
        return 0
    _print_result(ctx, result)
    return 0


def _decide_many(ctx: Context, questions: tuple[Question, ...] | list[Question]) -> int:
    from edgar_min.semif import decide_many, new_run_id

    run_id = new_run_id()
    results = decide_many(ctx.layout, ctx.config, ctx.ns.state, questions, phase=ctx.ns.phase, run_id=run_id)
    if ctx.json:
        ctx.emit({"run_id": run_id, "results": [r.as_json() for r in results]})
        return 0
    for number, result in enumerate(results, 1):
        if number > 1:
            ctx.out()
        ctx.out(f"question {number}: {' '.join(result.request.question.split())}")
        _print_result(ctx, result)
    ctx.out()
    ctx.out(f"{len(results)} decisions logged under run {run_id}")
    return 0


def _print_result(ctx: Context, result: DecisionResult) -> None:
    width = max(len(i) for i in result.option_ids)
    for option_id, p in zip(result.option_ids, result.probabilities, strict=True):
        mark = "*" if option_id == result.selected else " "
        ctx.out(f"{mark} {option_id:<{width}}  {p:.3f}")
    status = result.extra.get("probability_status")
    note = f"; {status}" if status and status != "logprobs" else ""
    if result.extra.get("calibrated") is False:
        note += "; uncalibrated"
    ctx.out(f"selected {result.selected} (engine {result.engine}{note})")


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
    text = "".join(jsoncodec.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    for problem in problems:
        ctx.warn(f"edgar: {problem}")
    if ctx.ns.out:
        target = ctx.ns.out
        if os.path.isdir(target):
            msg = f"--out {ctx.ns.out}: is a folder; give a file name"
            raise BadInput(msg)
        write_text(os.path.abspath(target), text)
        ctx.warn(f"edgar: wrote {len(rows)} row(s) to {ctx.ns.out}")
    else:
        ctx.stdout.write(text)
    return 0


def cmd_relabel(ctx: Context) -> int:
    from edgar_min.semif.log import DecisionLog

    log = DecisionLog.of(ctx.layout)
    label = log.relabel(ctx.ns.decision_id, ctx.ns.outcome, ctx.ns.source)
    ctx.out(f"labelled {label['id']}: {label['observed_outcome']} ({label['label_source']})")
    taught = _teach_routing(ctx, log, label)
    if taught is not None:
        label = {**label, "taught": taught}
        ctx.out(f"routing learns from it: {taught['text']!r} calls for {taught['skill']}")
    ctx.emit(label)
    return 0


def _teach_routing(ctx: Context, log: DecisionLog, label: dict[str, Any]) -> dict[str, str] | None:
    """A person's label of a `suggest` decision naming a skill (or `none`): a routing example too."""
    if label["label_source"] != "human":
        return None
    row = next((r for r in log.read().rows if r["id"] == label["id"]), None)
    outcome = label["observed_outcome"].strip()
    if row is None or row.get("phase") != "suggest" or not isinstance(row.get("state"), str):
        return None
    from edgar_min.skills.discovery import SkillNames
    from edgar_min.skills.examples import add_example

    options = {o.get("id") for o in row.get("options") or () if isinstance(o, dict)}
    if outcome not in options and outcome not in SkillNames(ctx.layout):
        return None

    text = add_example(ctx.layout, outcome, row["state"], "person")
    return {"skill": outcome, "text": text}
