"""The outline a model sees, and the brief that tells it what to write.

`Outline` is built from a `Turn` and nothing else, so it cannot carry what a
turn cannot hold. Every human line is folded onto one line before it is shown,
so a typed newline cannot forge another outline line.
"""

from __future__ import annotations

from dataclasses import dataclass

from edgar_min.learning.turn import Turn

__all__ = ["BRIEF", "Outline", "one_line"]

BRIEF = """\
You write one reusable skill for a coding agent from the outline of a turn that worked.
Reply with exactly this shape and nothing else:

name: a-short-name (lower-case letters, digits and single hyphens; at most 64 characters)
description: one sentence (at most 1024 characters) saying what the skill does and when to use it

## When to use
## Procedure
## Pitfalls
## Verification

Put the four sections in that order, each as a '## ' heading with text under it.
Write the general procedure, not today's file names, paths or values.
Under Pitfalls, name the failure the outline records and how to get past it.
Under Verification, say how to check the work: the project's declared check.
Do not put the four headings inside a code fence.
"""


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
