"""The outline a model sees (the brief that tells it what to write is in `learning/drafts.py`).

`Outline` is built from a `Turn` and, beside it, one thing the person chose: the
program their declared check runs (`learning/check.py` `check_program`), so the
skill can say how to check the work. Every human line is folded onto one line
before it is shown, so a typed newline cannot forge another outline line; the
program is stripped like any program name.
"""

from __future__ import annotations

from edgar_min.learning.turn import ErrorRecord, Turn, strip_program
from edgar_min.records import dataclass

__all__ = ["Outline", "one_line"]


def one_line(text: str) -> str:
    """Fold all whitespace runs (line breaks included) into single spaces."""
    return " ".join(text.split())


@dataclass(frozen=True, slots=True)
class Outline:
    """What tripped, what was asked, corrections, tools, failures, the check, the shape."""

    tripped: tuple[str, ...]
    asked: str
    corrections: tuple[str, ...]
    tools: tuple[str, ...]
    failures: tuple[ErrorRecord, ...]
    check: str
    shape: str
    check_program: str = ""

    @classmethod
    def of(cls, turn: Turn, tripped: tuple[str, ...] | list[str] = (), check_program: str = "") -> Outline:
        return cls(
            tripped=tuple(tripped),
            asked=one_line(turn.prompt),
            corrections=tuple(one_line(c) for c in turn.corrections),
            tools=turn.tools,
            failures=turn.errors,
            check=turn.verification,
            shape=turn.shape,
            check_program=strip_program(check_program),
        )

    def render(self) -> str:
        lines = [
            f"what tripped: {', '.join(self.tripped) or 'none'}",
            f"what was asked: {self.asked}",
        ]
        if self.corrections:
            lines.append(f"corrections a human typed: {'; '.join(self.corrections)}")
        failures = ", ".join(f.render() for f in self.failures)
        check = f"{self.check} ({self.check_program})" if self.check_program else self.check
        lines += [
            f"tools called, in order: {', '.join(self.tools) or 'none'}",
            f"failures the harness recorded: {failures or 'none'}",
            f"declared check: {check}",
            f"task shape: {self.shape}",
        ]
        return "\n".join(lines) + "\n"
