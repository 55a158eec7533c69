"""When a turn is worth a skill: four comparisons, and three want a passing check.

Pure but for one read of the experience store, so a turn where nothing fires
costs no model call.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from edgar_min.config import SkillsConfig
    from edgar_min.learning.store import ExperienceStore
    from edgar_min.learning.turn import Turn

__all__ = ["TRIGGERS", "triggers"]

TRIGGERS = ("long", "recovered", "correction", "repeated")


def triggers(turn: Turn, config: SkillsConfig, store: ExperienceStore | None, session: str = "") -> list[str]:
    """The names of the triggers that fired, in the order of `TRIGGERS`."""
    verified = turn.verified
    fired = []
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
    return fired
