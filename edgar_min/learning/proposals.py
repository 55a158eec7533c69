"""Proposals waiting for a person: list, accept (through the writer), reject (archived)."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from typing import TYPE_CHECKING

from edgar_min.errors import EdgarError, NotFound, Refused
from edgar_min.skills.names import name_problem

if TYPE_CHECKING:
    from pathlib import Path

    from edgar_min.layout import Layout

__all__ = ["Proposal", "accept", "list_proposals", "reject"]


@dataclass(frozen=True, slots=True)
class Proposal:
    """A proposal waiting for a person: its name, file and description."""

    name: str
    path: Path
    description: str
    trigger: str
    session: str
    created: str
    patch_of: str
    problem: str = ""

    def as_json(self) -> dict[str, str]:
        return {
            "name": self.name,
            "description": self.description,
            "trigger": self.trigger,
            "session": self.session,
            "created": self.created,
            "patch_of": self.patch_of,
            "problem": self.problem,
        }


def _read(path: Path) -> Proposal:
    from edgar_min.skills.frontmatter import read_skill

    name = path.parent.name
    try:
        data = read_skill(path).data
    except EdgarError as exc:
        return Proposal(name, path, "", "", "", "", "", exc.message)
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
    )


def list_proposals(layout: Layout) -> list[Proposal]:
    """Every `.edgar/proposals/NAME/SKILL.md`, by name."""
    if not layout.proposals.is_dir():
        return []
    return [
        _read(p) for p in sorted(layout.proposals.glob("*/SKILL.md")) if not p.parent.name.startswith(".")
    ]


def _proposal_path(layout: Layout, name: str) -> Path:
    problem = name_problem(name)
    path = layout.proposals / name / "SKILL.md"
    if problem or not path.is_file():
        msg = f"no proposal named {name[:80]!r}"
        raise NotFound(msg)
    return path


def accept(layout: Layout, name: str) -> Path:
    """A person accepts: the proposal goes through `write_learned` into learned/, then is removed."""
    from edgar_min.learning.writer import write_stored
    from edgar_min.skills.discovery import discover

    path = _proposal_path(layout, name)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        msg = f"refused {name}: {path} cannot be read ({exc})"
        raise Refused(msg) from None
    index = discover(layout)
    owner = index.owner(name)
    if owner is not None:
        msg = (
            f"refused {name}: it patches your hand-authored skill at {owner.path}; edgar does not "
            f"write into folders a person owns: copy what you want from {path} yourself, then "
            f"`edgar skills reject {name}`"
        )
        raise Refused(msg)
    target = write_stored(layout, name, text, str(path), actor="person", action="accept", index=index)
    shutil.rmtree(path.parent)
    return target


def reject(layout: Layout, name: str) -> Path:
    """Move a proposal into `learned/.archive/` (kept, not deleted)."""
    from edgar_min.learning.writer import move_to_archive

    path = _proposal_path(layout, name)
    return move_to_archive(layout, path.parent, name, actor="person", action="reject", place="proposal")
