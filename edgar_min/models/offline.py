"""The offline provider: a deterministic writer, so everything works with no model at all.

It reads the outline it is given (the only input synthesis ever has) and
turns it into a name, a description and the four sections. It never invents:
every line it writes restates a field of the outline.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from edgar_min.errors import ModelError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from edgar_min.config import ModelConfig

__all__ = ["OfflineProvider", "write_from_outline"]

_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "the",
        "to",
        "of",
        "in",
        "on",
        "for",
        "with",
        "by",
        "from",
        "at",
        "is",
        "are",
        "be",
        "it",
        "this",
        "that",
        "these",
        "those",
        "please",
        "me",
        "my",
        "our",
        "your",
        "we",
        "i",
        "you",
        "can",
        "could",
        "would",
        "should",
        "do",
        "does",
        "did",
        "make",
        "sure",
        "so",
        "then",
        "also",
    ]
)


def _fields(outline: str) -> dict[str, str]:
    found = {}
    for line in outline.splitlines():
        key, sep, value = line.partition(": ")
        if sep and key not in found:
            found[key.strip()] = value.strip()
    return found


def _name(asked: str, shape: str) -> str:
    words = [w for w in re.findall(r"[a-z0-9]+", asked.lower()) if w not in _STOP and w != "redacted"]
    name = "-".join(words[:5])[:64].strip("-")
    if not name:
        tools = shape.partition(":")[2].replace(">", "-").replace("_", "-").replace(".", "-")
        name = re.sub(r"-+", "-", f"{tools}-routine").strip("-")[:64].strip("-") or "routine"
    return name


def write_from_outline(outline: str) -> str:
    """A reply in the BRIEF's format, built only from the outline's lines."""
    f = _fields(outline)
    if "what was asked" not in f or "task shape" not in f:
        msg = "offline provider: the prompt is not an outline, and this provider only writes skills from one"
        raise ModelError(msg)
    asked = f["what was asked"]
    shape = f["task shape"]
    tools = [t for t in f.get("tools called, in order", "none").split(", ") if t and t != "none"]
    failures = [x for x in f.get("failures the harness recorded", "none").split(", ") if x and x != "none"]
    corrections = f.get("corrections a human typed", "")
    check = f.get("declared check", "unverified")

    steps = []
    for tool in tools:
        if not steps or not steps[-1].startswith(f"Use {tool}"):
            steps.append(f"Use {tool}.")
        elif steps[-1] == f"Use {tool}.":
            steps[-1] = f"Use {tool} (more than once)."
    if corrections:
        steps.append(f"Follow what a person asked for when correcting this kind of task: {corrections}")
    steps.append("Run the project's declared check before calling the work done.")
    procedure = "\n".join(f"{i}. {s}" for i, s in enumerate(steps, 1))
    if failures:
        pitfalls = "\n".join(
            f"- {x}: this failed along the way; find the cause and fix it before going on." for x in failures
        )
    else:
        pitfalls = "- No failure was recorded; if one appears, fix its cause before going on."
    verdict = "it passed when this skill was recorded" if check == "passed" else f"it was {check} then"
    description = f"How to handle tasks like '{asked[:200]}' (task shape {shape}), from a turn that worked."
    return (
        f"name: {_name(asked, shape)}\n"
        f"description: {description}\n\n"
        f"## When to use\n\nWhen a task is like: {asked}\nIts task shape is {shape}.\n\n"
        f"## Procedure\n\n{procedure}\n\n"
        f"## Pitfalls\n\n{pitfalls}\n\n"
        f"## Verification\n\nRun the project's declared check and see it pass ({verdict}).\n"
    )


class OfflineProvider:
    """Writes a skill body from an outline, deterministically, with no model."""

    name = "offline"

    def __init__(
        self,
        config: ModelConfig | None = None,
        environ: Mapping[str, str] | None = None,  # noqa: ARG002 - the registry passes it to every provider
    ) -> None:
        self.config = config

    def complete(self, system: str, prompt: str) -> str:  # noqa: ARG002 - the outline is all it reads
        return write_from_outline(prompt)
