"""A person's operations on learned skills and proposals: accept, reject, forget, restore.

Each goes through `write_learned` (every rule of the writer applies again) or
moves a folder into `learned/.archive/` (never deleted), and each leaves one
ledger row, so any text can be brought back.
"""

from __future__ import annotations

import os

from edgar_min.atomic import check_writable, move, read_text, remove_tree
from edgar_min.errors import NotFound, Refused
from edgar_min.invocation import program
from edgar_min.learning.ledger import check_record, read_ledger, record, version_text
from edgar_min.learning.proposals import proposal_path
from edgar_min.learning.triggers import from_text
from edgar_min.learning.writer import Draft, Provenance, Target, owner_problem, write_learned
from edgar_min.logfile import timestamp
from edgar_min.skills.discovery import SkillSet, discover
from edgar_min.skills.frontmatter import parse_skill
from edgar_min.skills.names import name_problem

TYPE_CHECKING = False
if TYPE_CHECKING:
    from edgar_min.layout import Layout
    from edgar_min.learning.ledger import Action, Actor, Place

__all__ = ["accept", "forget", "move_to_archive", "reject", "restore", "write_stored"]


def accept(layout: Layout, name: str) -> str:
    """A person accepts: the proposal goes through `write_learned` into learned/, then is removed."""
    path = proposal_path(layout, name)
    try:
        text = read_text(path, root=layout.root)
    except (OSError, UnicodeDecodeError) as exc:
        msg = f"refused {name}: {path} cannot be read ({exc})"
        raise Refused(msg) from None
    if text is None:
        raise NotFound(f"no proposal named {name}")
    index = discover(layout)
    owned = owner_problem(index, name, Target("learned", patch=True))
    if owned:
        msg = (
            f"refused {name}: {owned}: copy what you want from {path} yourself, "
            f"then `{program()} skills reject {name}`"
        )
        raise Refused(msg)
    target = write_stored(layout, name, text, str(path), actor="person", action="accept", index=index)
    remove_tree(os.path.dirname(path), root=layout.root)
    return target


def reject(layout: Layout, name: str) -> str:
    """Move a proposal into `learned/.archive/` (kept, not deleted)."""
    path = proposal_path(layout, name)
    return move_to_archive(
        layout, os.path.dirname(path), name, actor="person", action="reject", place="proposal"
    )


def forget(layout: Layout, name: str, index: SkillSet | None = None, actor: Actor = "person") -> str:
    """Forget a learned skill: move it into `learned/.archive/` (never deleted); return where it went."""
    problem = name_problem(name)
    if problem:
        raise NotFound(f"no skill named {name[:80]!r}: {problem}")
    folder = os.path.join(layout.learned, name)
    if not os.path.isfile(os.path.join(folder, "SKILL.md")):
        index = discover(layout) if index is None else index
        if index.owner(name) is not None:
            msg = (
                f"{name} is hand-authored ({index.owner(name).path}); edgar does not forget a "
                "person's skill: remove it yourself if you mean to"
            )
            raise Refused(msg)
        msg = f"no learned skill named {name}"
        raise NotFound(msg)
    return move_to_archive(layout, folder, name, actor=actor, action="archive", place="learned")


def move_to_archive(
    layout: Layout, folder: str, name: str, *, actor: Actor, action: Action, place: Place
) -> str:
    """Move a skill folder into `learned/.archive/STAMP-NAME[-rejected]` and record it in the ledger.

    The ledger row keeps the text, so `edgar skills restore` can bring it back.
    """
    stamp = timestamp(compact=True)
    label = f"{stamp}-{name}" + ("-rejected" if action == "reject" else "")
    target = os.path.join(layout.archive, label)
    n = 1
    while os.path.exists(target):
        n += 1
        target = os.path.join(layout.archive, f"{label}-{n}")
    check_writable(target, root=layout.root)
    check_record(layout)
    try:
        before = read_text(os.path.join(folder, "SKILL.md"), root=layout.root)
    except (OSError, UnicodeDecodeError):
        before = None
    move(folder, target, root=layout.root)
    record(layout, actor=actor, action=action, name=name, place=place, before=before, after=None)
    return target


def write_stored(
    layout: Layout,
    name: str,
    text: str,
    source: str,
    *,
    actor: Actor,
    action: Action,
    index: SkillSet | None = None,
    keep_created: bool = False,
) -> str:
    """Write a stored SKILL.md text (a proposal, a kept version) into learned/ through `write_learned`.

    Its provenance (session, trigger) is kept, so every rule of the writer applies again. It is
    a patch when it says so (`patch_of`) or when a learned skill of that name exists.
    """
    parsed = parse_skill(text, source)
    meta = parsed.data.get("metadata") if isinstance(parsed.data.get("metadata"), dict) else {}
    description = parsed.data.get("description")
    if not isinstance(description, str):
        msg = f"refused {name}: {source} has no description"
        raise Refused(msg)
    patch = bool(meta.get("patch_of")) or os.path.isfile(os.path.join(layout.learned, name, "SKILL.md"))
    how = Provenance(
        session=str(meta.get("session", "person")),
        # What the stored text says fired, in the words edgar knows; else what the person did.
        triggers=from_text(str(meta.get("trigger", ""))) or (action,),  # type: ignore[arg-type]
        actor=actor,
        action=action,
        created=str(meta["created"]) if keep_created and meta.get("created") else "",
    )
    return write_learned(
        layout, Draft(name, description, parsed.body), how, Target("learned", patch=patch), index=index
    )


def restore(layout: Layout, name: str, to: str | None = None, actor: Actor = "person") -> tuple[str, str]:
    """Bring back a version of `name` as its learned skill, through `write_learned`.

    Without `to`: the version before the last change to the learned skill
    (undoes a patch, brings back an archived skill). Returns the hash and the path.
    """
    problem = name_problem(name)
    if problem:
        raise NotFound(f"no skill named {name[:80]!r}: {problem}")
    if to is None:
        rows = [r for r in read_ledger(layout, name).rows if r.place == "learned"]
        if not rows:
            msg = f"the ledger has no changes to a learned skill named {name}; nothing to restore"
            raise NotFound(msg)
        last = rows[-1]
        if last.before is None:
            msg = (
                f"{name} has no earlier version: its last change ({last.action}, {last.time}) created it "
                f"(`{program()} skills log {name}` lists its versions; `--to SHA` picks one)"
            )
            raise Refused(msg)
        to = last.before
    digest, text = version_text(layout, name, to)
    path = write_stored(
        layout,
        name,
        text,
        str(os.path.join(layout.versions, digest)),
        actor=actor,
        action="restore",
        keep_created=True,
    )
    return digest, path
