"""Distill: a skill's current body plus its history lines in, a patched body out, through the gate.

The model sees the body and the observation lines and nothing else. Its answer
goes back through `Gate.apply(patch=True)`, the one place that decides between
a proposal and a learned write: a learned skill's patch keeps its name, and a
patch to a hand-authored skill is always a proposal. A model that fails or a
reply the writer refuses becomes a logged rejection and a sentence, never a
traceback.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from edgar_min.errors import EdgarError, NotFound, Refused

if TYPE_CHECKING:
    from edgar_min.config import Config
    from edgar_min.controller.gate import Outcome
    from edgar_min.layout import Layout
    from edgar_min.models import Provider

__all__ = ["HISTORY_LIMIT", "PATCH_BRIEF", "distill", "outline", "parse_patch"]

# The newest lines shown to the model; older ones are kept on disk, not sent.
HISTORY_LIMIT = 50

PATCH_BRIEF = """\
You improve one reusable skill of a coding agent. You get the skill's current body (each line
quoted with '| ') and the observations recorded when a turn that had loaded the skill went
wrong: a failed check, failures the harness recorded, corrections a person typed.
Reply with the better body, in exactly this shape and nothing else:

description: one sentence on what the skill does and when to use it (leave it out to keep the current one)

## When to use
## Procedure
## Pitfalls
## Verification

Put the four sections in that order, each as a '## ' heading with text under it, without the '| ' quotes.
Keep what still holds. Under Pitfalls, say what the observations teach and how to avoid it;
change the Procedure where they show it is wrong.
Write the general procedure, not one day's file names, paths or values.
Do not put the four headings inside a code fence.
"""

BODY_LABEL = "current body:"
HISTORY_LABEL = "observations, oldest first:"


def outline(body: str, lines: tuple[str, ...] | list[str]) -> str:
    """The distill prompt: the quoted body, then the history lines (newest `HISTORY_LIMIT`)."""
    from edgar_min.learning.outline import one_line

    quoted = [f"| {line}".rstrip() for line in body.strip("\n").splitlines()]
    notes = [f"- {one_line(n)}" for n in list(lines)[-HISTORY_LIMIT:]]
    return "\n".join([BODY_LABEL, *quoted, HISTORY_LABEL, *notes]) + "\n"


def parse_patch(name: str, reply: str, current_description: str) -> tuple[str, str]:
    """(description, body) from a patch reply; the name is always the skill's own."""
    from edgar_min.learning.writer import parse_reply, reply_lines

    lines = reply_lines(reply, f"refused {name}")
    while lines and (not lines[0].strip() or lines[0].strip() == "---"):
        lines.pop(0)
    # A model that repeats (or renames) the skill: the name is not its to choose.
    if lines and lines[0].strip().strip("*").strip().lower().startswith("name:"):
        lines.pop(0)
    while lines and not lines[0].strip():
        lines.pop(0)
    head = lines[0].strip().strip("*").strip().lower() if lines else ""
    if not head.startswith("description:"):
        lines.insert(0, f"description: {current_description}")
    draft = parse_reply("\n".join([f"name: {name}", *lines]))
    return draft.description, draft.body


def distill(
    layout: Layout,
    config: Config,
    name: str,
    provider: Provider | None = None,
    *,
    session: str = "",
    verified: bool = False,
) -> Outcome:
    """Ask for a patched body of NAME from its history and route it through `Gate.apply(patch=True)`.

    `verified` says whether the turn that asked for it passed its declared check
    (a distill by hand has none, so it can only propose). Raises `NotFound` for
    a skill that does not exist and `Refused` when there is nothing to distill.
    """
    from edgar_min.controller.gate import INERT, Gate, Outcome, log_rejection
    from edgar_min.learning.observations import read_history
    from edgar_min.learning.store import new_session_id
    from edgar_min.learning.writer import MAX_BODY_CHARS
    from edgar_min.skills.discovery import discover

    history = read_history(layout, name)  # checks the name
    skill = discover(layout).get(name)
    if skill is None:
        msg = f"no skill named {name!r} to distill"
        raise NotFound(msg)
    if not history.lines:
        msg = f"{name} has no history lines yet ({layout.history.name}/{name}.md); nothing to distill"
        raise Refused(msg)
    if not config.controller.enabled:
        return Outcome((), "off", message=INERT, name=name)
    if config.skills.synthesis == "off":
        return Outcome(
            (), "off", message="skills.synthesis is 'off': no model call, nothing written", name=name
        )
    session = session or new_session_id()
    # A person's correction among the lines means the patch can only be proposed.
    corrected = any("corrected: " in line for line in history.lines[-HISTORY_LIMIT:])
    trigger = "distill,correction" if corrected else "distill"
    fired = tuple(trigger.split(","))
    try:
        body = skill.frontmatter().body
        if len(body) > MAX_BODY_CHARS:
            msg = (
                f"refused {name}: its body is {len(body)} characters; distill works on up to {MAX_BODY_CHARS}"
            )
            raise Refused(msg)
        gate = Gate(layout, config, provider)
        reply = gate.provider.complete(PATCH_BRIEF, outline(body, history.lines))
        description, new_body = parse_patch(name, reply, skill.description)
    except EdgarError as exc:
        log_rejection(layout, trigger=trigger, skill=name, error=exc.message, session=session)
        return Outcome(fired, "refused", message=f"distill {name}: {exc.message}", name=name)
    return gate.apply(
        name,
        description,
        new_body,
        session=session,
        trigger=trigger,
        verified=verified,
        patch=True,
        actor="distill",
    )
