"""The outline a model sees (the brief that tells it what to write is in `learning/drafts.py`).

`Outline` is built from a `Turn` and nothing else, so it cannot carry what a
turn cannot hold. Every human line is folded onto one line before it is shown,
so a typed newline cannot forge another outline line.
"""

from __future__ import annotations

from edgar_min.learning.turn import Turn
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
    failures: tuple[str, ...]
    check: str
    shape: str

    @classmethod
    def of(cls, turn: Turn, tripped: tuple[str, ...] | list[str] = ()) -> Outline:
        return cls(
            tripped=tuple(tripped),
            asked=one_line(turn.prompt),
            corrections=tuple(one_line(c) for c in turn.corrections),
            tools=turn.tools,
            failures=tuple(e.render() for e in turn.errors),
            check=turn.verification,
            shape=turn.shape,
        )

    def render(self) -> str:
        lines = [
            f"what tripped: {', '.join(self.tripped) or 'none'}",
            f"what was asked: {self.asked}",
        ]
        if self.corrections:
            lines.append(f"corrections a human typed: {'; '.join(self.corrections)}")
        lines += [
            f"tools called, in order: {', '.join(self.tools) or 'none'}",
            f"failures the harness recorded: {', '.join(self.failures) or 'none'}",
            f"declared check: {self.check}",
            f"task shape: {self.shape}",
        ]
        return "\n".join(lines) + "\n"
