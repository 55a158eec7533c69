"""What a code skill body imports: the types its `predict` and `act` take and return.

    from edgar_min.agent.skills import ActionResult, DecisionRequest, Option, Prediction

Bodies written for the SemIf agent (`from semif_agent.skills import ...`) get
this same module: the loader provides `semif_agent.skills` as an alias of it
while a body loads and runs.
"""

from __future__ import annotations

import os

from edgar_min.records import dataclass, field
from edgar_min.semif.types import DecisionRequest, DecisionResult, Option

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "ActionContext",
    "ActionResult",
    "DecisionRequest",
    "DecisionResult",
    "Option",
    "Prediction",
    "Request",
]


@dataclass(frozen=True, slots=True)
class Request:
    """The text being handled and an id that is safe in a file name (`r-` and hex digits)."""

    text: str
    id: str = ""

    def __post_init__(self) -> None:
        if not self.id:
            object.__setattr__(self, "id", "r-" + os.urandom(6).hex())


@dataclass(frozen=True, slots=True)
class Prediction:
    """What `predict` returns: a forecast, and the (DecisionRequest, DecisionResult) pairs it made."""

    text: str
    decisions: list[Any] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ActionResult:
    """What `act` returns (and what a run returns when no skill could act): a log and the new state."""

    action_log: str
    new_state: str


@dataclass(frozen=True, slots=True)
class ActionContext:
    """`engine` answers decisions (`ctx.engine.call(decision)`); `config` is the `[agent]` table."""

    engine: Any
    config: dict[str, Any]
    root: str | None = None
