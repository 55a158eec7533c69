"""What edgar hands an agent, read as the fence rule tells the agent to read it: edgar's lines, and
each fenced text with its labels (`delivery/framing.py`)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

OPEN = re.compile(r'<skill-text key=([0-9a-f]{16})((?: [a-z]+="(?:[^"\\]|\\.)*")*)>')
LABEL = re.compile(r' ([a-z]+)=("(?:[^"\\]|\\.)*")')


@dataclass(frozen=True)
class Fenced:
    key: str
    labels: dict[str, str]
    text: str


def read_delivery(text: str) -> tuple[str, list[Fenced]]:
    """edgar's own lines, joined, and every fenced text: a fence opens at a whole line `OPEN` and
    ends at the first whole line `</skill-text key=KEY>` with its key after it."""
    lines = text.split("\n")
    outside: list[str] = []
    fenced: list[Fenced] = []
    at = 0
    while at < len(lines):
        found = OPEN.fullmatch(lines[at])
        if found is None:
            outside.append(lines[at])
            at += 1
            continue
        key = found.group(1)
        end = lines.index(f"</skill-text key={key}>", at + 1)  # ValueError: a fence never closed
        labels = {name: json.loads(value) for name, value in LABEL.findall(found.group(2))}
        fenced.append(Fenced(key, labels, "\n".join(lines[at + 1 : end])))
        at = end + 1
    return "\n".join(outside), fenced
