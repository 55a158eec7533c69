"""When a turn is worth a skill: four comparisons, and three want a passing check.

Pure but for one read of the experience store, so a turn where nothing fires
costs no model call. What fired travels as a tuple of `Trigger`s to every place
that writes it down, and becomes text only there (`as_text`).
"""

from __future__ import annotations

from edgar_min.records import replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    from edgar_min.config import SkillsConfig
    from edgar_min.learning.store import ExperienceStore
    from edgar_min.learning.turn import Turn

    # A turn's four, then what else asks for a body: a skill's history, a request for a code
    # skill, and a person who accepts or restores a stored text that names none.
    Trigger = Literal[
        "long", "recovered", "correction", "repeated", "distill", "generate", "accept", "restore"
    ]

__all__ = ["CHECKED", "ORIGINS", "TRIGGERS", "as_text", "from_text", "needs_verdict", "triggers"]

TRIGGERS: tuple[Trigger, ...] = ("long", "recovered", "correction", "repeated")
# The three that fire only on a turn whose declared check passed.
CHECKED: tuple[Trigger, ...] = ("long", "recovered", "repeated")
ORIGINS: tuple[Trigger, ...] = ("distill", "generate", "accept", "restore")


def triggers(
    turn: Turn, config: SkillsConfig, store: ExperienceStore | None, session: str = ""
) -> tuple[Trigger, ...]:
    """The triggers that fired, in the order of `TRIGGERS`."""
    verified = turn.verified
    fired: list[Trigger] = []
    if verified and len(turn.tools) >= config.min_tool_calls:
        fired.append("long")
    if verified and turn.errors:
        fired.append("recovered")
    if turn.corrections:
        fired.append("correction")
    # A turn with no tool call did no work to repeat: its shape is the agent's alone.
    if verified and turn.tools and not turn.skills and store is not None:
        seen = store.repeats(turn.shape, exclude_session=session, enough=config.min_repeats)
        if seen >= config.min_repeats:
            fired.append("repeated")
    return tuple(fired)


def needs_verdict(turn: Turn, config: SkillsConfig, store: ExperienceStore | None, session: str = "") -> bool:
    """Whether a passing check would make `long`, `recovered` or `repeated` fire for this turn:
    when not, its verdict changes nothing learned, and the check need not run. A turn with no
    tool call (a chat) never needs one."""
    if not turn.tools:
        return False
    passed = replace(turn, verification="passed")
    return any(fired in CHECKED for fired in triggers(passed, config, store, session))


def as_text(fired: tuple[Trigger, ...]) -> str:
    """`long,recovered`: how a file (a skill's metadata, the ledger, the rejections log) says them."""
    return ",".join(fired)


def from_text(text: str) -> tuple[Trigger, ...]:
    """The triggers a stored text names, in its order; a word that is none of them is left out."""
    known = (*TRIGGERS, *ORIGINS)
    return tuple(word for word in (w.strip() for w in text.split(",")) if word in known)  # type: ignore[misc]
