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
from edgar_min.learning.drafts import PATCH_BRIEF, PATCH_BRIEF_JSON, parse_patch, patch_schema
from edgar_min.learning.walls import Source
from edgar_min.models import ask

if TYPE_CHECKING:
    from edgar_min.config import Config
    from edgar_min.controller.gate import Outcome
    from edgar_min.layout import Layout
    from edgar_min.models import Provider

__all__ = ["HISTORY_LIMIT", "distill", "outline"]

# The newest lines shown to the model; older ones are kept on disk, not sent.
HISTORY_LIMIT = 50

BODY_LABEL = "current body:"
HISTORY_LABEL = "observations, oldest first:"


def outline(body: str, lines: tuple[str, ...] | list[str]) -> str:
    """The distill prompt: the quoted body, then the history lines (newest `HISTORY_LIMIT`)."""
    from edgar_min.learning.outline import one_line

    quoted = [f"| {line}".rstrip() for line in body.strip("\n").splitlines()]
    notes = [f"- {one_line(n)}" for n in list(lines)[-HISTORY_LIMIT:]]
    return "\n".join([BODY_LABEL, *quoted, HISTORY_LABEL, *notes]) + "\n"


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
    reply = None
    try:
        body = skill.frontmatter().body
        if len(body) > MAX_BODY_CHARS:
            msg = (
                f"refused {name}: its body is {len(body)} characters; distill works on up to {MAX_BODY_CHARS}"
            )
            raise Refused(msg)
        gate = Gate(layout, config, provider)
        shown = list(history.lines)[-HISTORY_LIMIT:]
        reply = ask(
            gate.provider, outline(body, shown), brief=PATCH_BRIEF, json_brief=PATCH_BRIEF_JSON,
            schema=patch_schema(config.model.max_tokens),
        )  # fmt: skip
        description, new_body = parse_patch(name, reply, skill.description)
    except EdgarError as exc:
        log_rejection(layout, trigger=trigger, skill=name, error=exc.message, session=session, reply=reply)
        return Outcome(fired, "refused", message=f"distill {name}: {exc.message}", name=name)
    # The observations are what the model was shown of the turns; what the skill already says stays allowed.
    source = Source(corrections=tuple(shown), outline=tuple(shown), kept=f"{skill.description}\n{body}")
    return gate.apply(
        name,
        description,
        new_body,
        session=session,
        trigger=trigger,
        verified=verified,
        patch=True,
        actor="distill",
        source=source,
        reply=reply,
    )
