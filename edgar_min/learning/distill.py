"""The distill prompt: a skill's current body plus its history lines, for a patched body.

The model sees the body and the observation lines and nothing else. Asking
for the patch and routing it is the gate's (`Gate.distill`), the one place
that decides between a proposal and a learned write.
"""

from __future__ import annotations

from edgar_min.learning.outline import one_line

__all__ = ["HISTORY_LIMIT", "outline"]

# The newest lines shown to the model; older ones are kept on disk, not sent.
HISTORY_LIMIT = 50

BODY_LABEL = "current body:"
HISTORY_LABEL = "observations, oldest first:"


def outline(body: str, lines: tuple[str, ...] | list[str]) -> str:
    """The distill prompt: the quoted body, then the history lines (newest `HISTORY_LIMIT`)."""
    quoted = [f"| {line}".rstrip() for line in body.strip("\n").splitlines()]
    notes = [f"- {one_line(n)}" for n in list(lines)[-HISTORY_LIMIT:]]
    return "\n".join([BODY_LABEL, *quoted, HISTORY_LABEL, *notes]) + "\n"
