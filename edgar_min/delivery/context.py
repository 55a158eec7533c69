"""The text handed to an agent with its prompt: the chosen skills, within a character budget.

Clearly marked as edgar's suggestion (not the person's words), each skill with
its name, path and body. When the bodies do not fit, each is cut to an equal
share and says where the rest is; a skill whose header alone does not fit is
left out and named. A skill edgar is less sure of is only named, with its
description and path, for the agent to read if it fits. Never longer than the
budget.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from edgar_min.skills.suggest import Candidate

__all__ = ["HEADER", "render_context"]

HEADER = (
    "edgar (this project's skill memory) suggests the skill(s) below for this prompt. This is "
    "edgar's suggestion, not the user's words: follow a skill only where it fits the task."
)
CUT = "\n[... cut to fit; the whole skill is at {path}]"
# Below this many characters a body is not worth showing; the path alone is given.
MIN_BODY = 200
# A named skill's description is cut to this many characters.
NAMED_CHARS = 300


def _head(pick: Candidate) -> str:
    return f"\n\n## Skill `{pick.name}` (probability {pick.probability:.2f}) - {pick.path}\n\n"


def _fit(body: str, room: int, path: str) -> str:
    if len(body) <= room:
        return body
    note = CUT.format(path=path)
    if room - len(note) < MIN_BODY // 2:
        return f"[not shown for lack of room; read {path}]"[: max(0, room)]
    return body[: room - len(note)].rstrip() + note


def _named(pick: Candidate) -> str:
    description = " ".join(pick.description.split())
    if len(description) > NAMED_CHARS:
        description = description[: NAMED_CHARS - 3].rstrip() + "..."
    return (
        f"\n\n## Perhaps: skill `{pick.name}` (probability {pick.probability:.2f}) - {pick.path}\n\n"
        f"{description}\nNot shown: read it only if it fits the task."
    )


def render_context(
    picks: list[tuple[Candidate, str]], budget_chars: int, named: list[Candidate] | tuple = ()
) -> str:
    """The context for `picks` (each a candidate and its SKILL.md body) and the skills only
    `named`, in at most `budget_chars`."""
    notes = [_named(pick) for pick in named]
    while notes and len(HEADER) + sum(map(len, notes)) > budget_chars:
        notes.pop()  # the least likely goes first
    aside = "".join(notes)
    bodies = _with_bodies(picks, budget_chars - len(aside)) if picks else ""
    if not bodies:
        return HEADER + aside if aside else ""
    return bodies + aside


def _with_bodies(picks: list[tuple[Candidate, str]], budget_chars: int) -> str:
    shown = list(picks)
    while shown:
        heads = [_head(pick) for pick, _ in shown]
        left_out = picks[len(shown) :]
        tail = ""
        if left_out:
            tail = "\n\n(also fitting, left out for room: " + ", ".join(p.name for p, _ in left_out) + ")"
        room = budget_chars - len(HEADER) - sum(len(h) for h in heads) - len(tail)
        # Each skill shown gets at least MIN_BODY characters (or its whole body, if shorter).
        if room >= sum(min(len(body.strip()), MIN_BODY) for _, body in shown):
            break
        shown.pop()
    if not shown:
        return ""
    parts = [HEADER]
    bodies = [body.strip("\n") for _, body in shown]
    # Short bodies whole; what they leave is shared by the others.
    order = sorted(range(len(shown)), key=lambda i: len(bodies[i]))
    fitted = [""] * len(shown)
    left = room
    for rank, i in enumerate(order):
        share = left // (len(order) - rank)
        fitted[i] = _fit(bodies[i], share, shown[i][0].path)
        left -= len(fitted[i])
    for head, body in zip(heads, fitted, strict=True):
        parts.append(head + body)
    return "".join(parts) + tail
