"""Proposals waiting for a person: list, accept (through the writer), reject (archived)."""

from __future__ import annotations

import os
import shutil
import time
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
    from edgar_min.learning.writer import write_learned
    from edgar_min.skills.discovery import discover
    from edgar_min.skills.frontmatter import read_skill

    path = _proposal_path(layout, name)
    parsed = read_skill(path)
    meta = parsed.data.get("metadata") if isinstance(parsed.data.get("metadata"), dict) else {}
    description = parsed.data.get("description")
    if not isinstance(description, str):
        msg = f"refused {name}: the proposal has no description"
        raise Refused(msg)
    index = discover(layout)
    patch = bool(meta.get("patch_of")) or (layout.learned / name / "SKILL.md").is_file()
    owner = index.owner(name)
    if owner is not None:
        msg = (
            f"refused {name}: it patches your hand-authored skill at {owner.path}; edgar does not "
            f"write into folders a person owns: copy what you want from {path} yourself, then "
            f"`edgar skills reject {name}`"
        )
        raise Refused(msg)
    target = write_learned(
        layout,
        name,
        description,
        parsed.body,
        session=str(meta.get("session", "person")),
        trigger=str(meta.get("trigger", "accepted")),
        to="learned",
        patch=patch,
        index=index,
        actor="person",
        action="accept",
    )
    shutil.rmtree(path.parent)
    return target


def reject(layout: Layout, name: str) -> Path:
    """Move a proposal into `learned/.archive/` (kept, not deleted)."""
    path = _proposal_path(layout, name)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    target = layout.archive / f"{stamp}-{name}-rejected"
    n = 1
    while target.exists():
        n += 1
        target = layout.archive / f"{stamp}-{name}-rejected-{n}"
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        before = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        before = None
    os.replace(path.parent, target)
    # --- lifecycle: one ledger row per rejection (learning/ledger.py)
    from edgar_min.learning.ledger import record

    record(layout, actor="person", action="reject", name=name, place="proposal", before=before, after=None)
    # ---
    return target
