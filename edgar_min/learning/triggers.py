"""When a turn is worth a skill: four comparisons, and three want a passing check.

Pure but for one read of the experience store, so a turn where nothing fires
costs no model call. What fired travels as a tuple of `Trigger`s to every place
that writes it down, and becomes text only there (`as_text`).
"""

from __future__ import annotations

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

__all__ = ["ORIGINS", "TRIGGERS", "as_text", "from_text", "triggers"]

TRIGGERS: tuple[Trigger, ...] = ("long", "recovered", "correction", "repeated")
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
    if verified and not turn.skills and store is not None:
        seen = store.repeats(turn.shape, exclude_session=session, enough=config.min_repeats)
        if seen >= config.min_repeats:
            fired.append("repeated")
    return tuple(fired)


def as_text(fired: tuple[Trigger, ...]) -> str:
    """`long,recovered`: how a file (a skill's metadata, the ledger, the rejections log) says them."""
    return ",".join(fired)


def from_text(text: str) -> tuple[Trigger, ...]:
    """The triggers a stored text names, in its order; a word that is none of them is left out."""
    known = (*TRIGGERS, *ORIGINS)
    return tuple(word for word in (w.strip() for w in text.split(",")) if word in known)  # type: ignore[misc]
