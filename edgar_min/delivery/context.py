"""The text handed to an agent with its prompt: the chosen skills, within a character budget.

Clearly marked as edgar's suggestion (not the user's words), each skill with
its name and probability, and its body fenced (`delivery/framing.py`) with its
file and whose it is, so that nothing in a body can pass for edgar's lines or
the user's. When the bodies do not fit, each is cut to an equal share and says
where the rest is; a skill whose header alone does not fit is left out and
named. A skill edgar is less sure of is only named, with its description (fenced
too) and path, for the agent to read if it fits. Never longer than the budget.
"""

from __future__ import annotations

from edgar_min import jsoncodec
from edgar_min.delivery.framing import RULE, fence, new_key, overhead, provenance
from edgar_min.skills.names import is_skill_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from edgar_min.layout import Layout
    from edgar_min.skills.suggest import Candidate

__all__ = ["HEADER", "render_context"]

HEADER = (
    "edgar (this project's skill memory) suggests the skill(s) below for this prompt. This is "
    "edgar's suggestion, not the user's words: follow a skill only where it fits the task. " + RULE
)
CUT = "\n[cut to fit; the whole skill is at {path}]"
# Below this many characters a body is not worth showing; the path alone is given.
MIN_BODY = 200
# A named skill's description is cut to this many characters.
NAMED_CHARS = 300


def _name(name: str) -> str:
    """A skill's name as edgar's own lines show it: a name of the usual shape in backticks, any
    other (a folder may be called anything) as a JSON string, so it cannot break a line."""
    return f"`{name}`" if is_skill_name(name) else jsoncodec.dumps(name)


def _labels(layout: Layout, pick: Candidate) -> dict[str, str]:
    return {"name": pick.name, "whose": provenance(layout, pick.path), "path": pick.path}


def _head(pick: Candidate) -> str:
    return f"\n\n## Skill {_name(pick.name)} (probability {pick.probability:.2f})\n"


def _fit(body: str, room: int, path: str) -> tuple[str, str]:
    """`body` cut to `room` characters with what the cut leaves after its fence, or the
    sentence that stands in for a body that does not fit at all (and no fence)."""
    if len(body) <= room:
        return body, ""
    note = CUT.format(path=jsoncodec.dumps(path))
    if room - len(note) < MIN_BODY // 2:
        return "", f"[not shown for lack of room; read {jsoncodec.dumps(path)}]"[: max(0, room)]
    return body[: room - len(note)].rstrip(), note


def _named(layout: Layout, key: str, pick: Candidate) -> str:
    description = " ".join(pick.description.split())
    if len(description) > NAMED_CHARS:
        description = description[: NAMED_CHARS - 3].rstrip() + "..."
    return (
        f"\n\n## Perhaps: skill {_name(pick.name)} (probability {pick.probability:.2f}). Not shown: read it "
        "only if it fits the task. Its description:\n" + fence(key, description, **_labels(layout, pick))
    )


def render_context(
    picks: list[tuple[Candidate, str]],
    budget_chars: int,
    named: list[Candidate] | tuple = (),
    *,
    layout: Layout,
) -> str:
    """The context for `picks` (each a candidate and its SKILL.md body) and the skills only
    `named`, in at most `budget_chars`; `layout` says whose each file is."""
    texts = [t for pick, body in picks for t in (body, pick.name, pick.path)]
    texts += [t for pick in named for t in (pick.description, pick.name, pick.path)]
    key = new_key(texts)
    notes = [_named(layout, key, pick) for pick in named]
    while notes and len(HEADER) + sum(map(len, notes)) > budget_chars:
        notes.pop()  # the least likely goes first
    aside = "".join(notes)
    bodies = _with_bodies(layout, key, picks, budget_chars - len(aside)) if picks else ""
    if not bodies:
        return HEADER + aside if aside else ""
    return bodies + aside


def _with_bodies(layout: Layout, key: str, picks: list[tuple[Candidate, str]], budget_chars: int) -> str:
    shown = list(picks)
    while shown:
        heads = [_head(pick) for pick, _ in shown]
        fences = [overhead(**_labels(layout, pick)) for pick, _ in shown]
        left_out = picks[len(shown) :]
        tail = ""
        if left_out:
            names = ", ".join(_name(p.name) for p, _ in left_out)
            tail = f"\n\n(also fitting, left out for room: {names})"
        room = budget_chars - len(HEADER) - sum(map(len, heads)) - sum(fences) - len(tail)
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
    fitted = [("", "")] * len(shown)
    left = room
    for rank, i in enumerate(order):
        share = left // (len(order) - rank)
        fitted[i] = _fit(bodies[i], share, shown[i][0].path)
        text, note = fitted[i]
        left -= len(text) + len(note)
        if not text:  # no fence is written for a body not shown: its room is free
            left += fences[i]
    for (pick, _), head, (text, note) in zip(shown, heads, fitted, strict=True):
        framed = fence(key, text, **_labels(layout, pick)) if text else ""
        parts.append(head + framed + note)
    return "".join(parts) + tail
