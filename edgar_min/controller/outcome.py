"""What became of a turn at the gate (`Outcome`), and a synthesis still running (`Pending`)."""

from __future__ import annotations

from edgar_min.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    import threading
    from typing import Literal

    from edgar_min.learning.triggers import Trigger

    # `started`: the model's work goes on in a process of its own (`Gate.after_turn(apart=True)`).
    Result = Literal["none", "proposed", "learned", "refused", "off", "started"]

__all__ = ["Outcome", "Pending"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of one turn: the triggers that fired and what was written, if anything."""

    triggers: tuple[Trigger, ...]
    outcome: Result
    path: str | None = None
    message: str = ""
    name: str | None = None
    # Patches asked for because a used skill's history reached skills.distill_after.
    distills: tuple[Outcome, ...] = ()
    # What went wrong beside the turn (a used skill's history that could not be written).
    problems: tuple[str, ...] = ()
    # What the written text says to the agent rather than about the task (`learning/injection.py`).
    flags: tuple[str, ...] = ()

    def as_json(self) -> dict[str, object]:
        doc: dict[str, object] = {
            "triggers": list(self.triggers),
            "outcome": self.outcome,
            "path": self.path,
            "message": self.message,
        }
        if self.distills:
            doc["distills"] = [
                {"skill": d.name, "outcome": d.outcome, "path": d.path, "message": d.message}
                for d in self.distills
            ]
        if self.problems:
            doc["problems"] = list(self.problems)
        if self.flags:
            doc["flags"] = list(self.flags)
        return doc


def _event() -> threading.Event:
    import threading

    return threading.Event()


class Pending:
    """A synthesis running in the background; `wait()` returns its `Outcome`."""

    def __init__(self, triggers: tuple[Trigger, ...], immediate: Outcome | None = None) -> None:
        self.triggers = triggers
        self._outcome = immediate
        # A turn where nothing fires (most turns) has its outcome at once, and no thread: the
        # threading module is not even imported for it.
        self._done = None if immediate is not None else _event()
        # Background distills started by this turn, and their outcomes as they finish.
        self.distill_threads: list[threading.Thread] = []
        self.distilled: list[Outcome] = []
        # Sentences for what watching the used skills could not record.
        self.problems: list[str] = []

    def _finish(self, outcome: Outcome) -> None:
        self._outcome = outcome
        self._done.set()  # type: ignore[union-attr]  # only a background synthesis finishes

    def done(self) -> bool:
        return self._done is None or self._done.is_set()

    def wait(self, timeout: float | None = None) -> Outcome:
        """The outcome; if it is not ready within `timeout`, a `refused` outcome saying so."""
        if self._done is not None and not self._done.wait(timeout):
            return Outcome(self.triggers, "refused", message="the model did not answer in time")
        return self._outcome  # type: ignore[return-value]  # set before the event
