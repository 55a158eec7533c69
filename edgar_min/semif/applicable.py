"""Which of several candidates apply to one text: one yes-or-none question per candidate, asked together.

    from edgar_min.semif import LoggedEngine, get_engine
    from edgar_min.semif.applicable import applicable
    engine = LoggedEngine(get_engine(config.semif), DecisionLog.of(layout), phase="suggest")
    found = applicable(engine, prompt, [("pin-bump", "Bump a pin and refresh the lock file."), ...])
    [(a.name, a.probability) for a in found if a.applies]

One decision over all candidates plus `none` splits the probability between
two skills that both fit, so neither may beat `none`. Asking each candidate
on its own ("this skill, or none?") gives every candidate its own
probability, and through `call_many` the text is read once for all of them:
on a letter-slot server each question after the first pays only for its own
words. Every question is logged as its own row, with the engine's phase.
"""

from __future__ import annotations

from edgar_min.records import dataclass
from edgar_min.semif import ask_many
from edgar_min.semif.questions import Question, requests_for
from edgar_min.semif.types import Option

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from edgar_min.semif import Engine
    from edgar_min.semif.types import DecisionResult

__all__ = ["NONE", "QUESTION", "Applicability", "applicable"]

QUESTION = (
    "Should the agent load this skill for this task? Answer none when the message needs no "
    "skill (a chat line, a question, a small edit) or when this skill does not fit it."
)
NONE = Option("none", "Not this skill: the message needs no skill, or a different one.")


@dataclass(frozen=True, slots=True)
class Applicability:
    """One candidate's answer: the probability that it applies, and the decision behind it."""

    name: str
    probability: float
    result: DecisionResult

    @property
    def applies(self) -> bool:
        """The candidate beat `none`."""
        return self.result.selected == self.name


def applicable(engine: Engine, text: str, candidates: Iterable[tuple[str, str]]) -> tuple[Applicability, ...]:
    """Ask, over `text`, one question per (name, description) candidate; answers in the candidates' order.

    A candidate named `none`, a repeated name or an empty text is a `BadInput` naming the question.
    """
    questions = [Question(QUESTION, (Option(name, description), NONE)) for name, description in candidates]
    if not questions:
        return ()
    results = ask_many(engine, requests_for(text, questions))
    return tuple(Applicability(r.option_ids[0], r.probabilities[0], r) for r in results)
