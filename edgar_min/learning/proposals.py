"""Proposals waiting for a person: what is waiting and where (accept and reject are `lifecycle`'s)."""

from __future__ import annotations

import os

from edgar_min.errors import EdgarError, NotFound
from edgar_min.learning.injection import aimed_at_agent
from edgar_min.records import dataclass
from edgar_min.skills.discovery import skill_files
from edgar_min.skills.frontmatter import read_skill
from edgar_min.skills.names import name_problem

TYPE_CHECKING = False
if TYPE_CHECKING:
    from edgar_min.layout import Layout

__all__ = ["Proposal", "flags_of", "list_proposals", "proposal_path"]


@dataclass(frozen=True, slots=True)
class Proposal:
    """A proposal waiting for a person: its name, file and description."""

    name: str
    path: str
    description: str
    trigger: str
    session: str
    created: str
    patch_of: str
    problem: str = ""
    # What its text says to the agent rather than about the task (`learning/injection.py`).
    flags: tuple[str, ...] = ()

    def as_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "description": self.description,
            "trigger": self.trigger,
            "session": self.session,
            "created": self.created,
            "patch_of": self.patch_of,
            "problem": self.problem,
            "flags": list(self.flags),
        }


def flags_of(description: str, body: str) -> tuple[str, ...]:
    """What a proposal's text says to the agent rather than about the task, as sentences."""
    return tuple(flag.sentence for flag in aimed_at_agent(f"{description}\n{body}"))


def _read(path: str, inside: str) -> Proposal:
    name = os.path.basename(os.path.dirname(path))
    try:
        parsed = read_skill(path, inside=inside)
    except EdgarError as exc:
        return Proposal(name, path, "", "", "", "", "", exc.message)
    data = parsed.data
    meta = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    desc = data.get("description")
    return Proposal(
        name=name,
        path=path,
        description=desc if isinstance(desc, str) else "",
        trigger=str(meta.get("trigger", "")),
        session=str(meta.get("session", "")),
        created=str(meta.get("created", "")),
        patch_of=str(meta.get("patch_of", "")),
        flags=flags_of(desc if isinstance(desc, str) else "", parsed.body),
    )


def list_proposals(layout: Layout) -> list[Proposal]:
    """Every `.edgar/proposals/NAME/SKILL.md`, by name."""
    # Plain files only, inside the project: a SKILL.md linked to /dev/zero would be read forever,
    # and one linked out of the project is a checkout's, not a proposal.
    return [_read(p, layout.real_root) for p in skill_files(layout.proposals)]


def proposal_path(layout: Layout, name: str) -> str:
    problem = name_problem(name)
    path = os.path.join(layout.proposals, name, "SKILL.md")
    if problem or not os.path.isfile(path):
        msg = f"no proposal named {name[:80]!r}"
        raise NotFound(msg)
    return path
