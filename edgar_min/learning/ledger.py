"""The change ledger: one JSON line per change to a learned skill or proposal, and every version kept.

`.edgar/ledger.jsonl` is append-only (single `O_APPEND` writes of whole lines).
A row: `time`, `actor` (gate | distill | person), `action` (write | patch |
accept | reject | archive | restore), `name`, `place` (learned | proposal |
tree, a code skill's body),
`session`, `trigger`, and `before` / `after`: the sha256 of the SKILL.md text
before and after the change (null where there was or is no file). Every text a
row names is kept under `.edgar/versions/<sha256>` (machine-owned), written
once, so `restore` can bring any of them back. Reading skips and counts torn
or garbage lines; `doctor` reports them.
"""

from __future__ import annotations

import os
import stat

from edgar_min.atomic import check_writable, lstat, read_text, write_text
from edgar_min.digests import sha256_hex
from edgar_min.errors import NotFound, Refused
from edgar_min.invocation import program
from edgar_min.learning.triggers import as_text
from edgar_min.logfile import append_row, read_rows, timestamp
from edgar_min.records import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    from edgar_min.layout import Layout
    from edgar_min.learning.triggers import Trigger

    # The same words as the tuples below (tests/test_ledger.py holds them together).
    Actor = Literal["gate", "distill", "person"]
    Action = Literal["write", "patch", "accept", "reject", "archive", "restore"]
    Place = Literal["learned", "proposal", "tree"]

__all__ = [
    "ACTIONS",
    "ACTORS",
    "Ledger",
    "Row",
    "check_record",
    "keep_version",
    "read_ledger",
    "record",
    "sha256_text",
    "version_text",
]

ACTORS: tuple[Actor, ...] = ("gate", "distill", "person")
ACTIONS: tuple[Action, ...] = ("write", "patch", "accept", "reject", "archive", "restore")
PLACES: tuple[Place, ...] = ("learned", "proposal", "tree")
_HEX = frozenset("0123456789abcdef")
_MIN_PREFIX = 7


def sha256_text(text: str) -> str:
    return sha256_hex(text.encode("utf-8"))


def _is_hash(value: object) -> bool:
    return isinstance(value, str) and len(value) == 64 and set(value) <= _HEX


@dataclass(frozen=True, slots=True)
class Row:
    """One change, as the ledger keeps it."""

    time: str
    actor: Actor
    action: Action
    name: str
    place: Place
    session: str
    trigger: str
    before: str | None
    after: str | None

    def as_json(self) -> dict[str, str | None]:
        return {
            "time": self.time,
            "actor": self.actor,
            "action": self.action,
            "name": self.name,
            "place": self.place,
            "session": self.session,
            "trigger": self.trigger,
            "before": self.before,
            "after": self.after,
        }


@dataclass(slots=True)
class Ledger:
    """The rows read back, and how many lines were torn or garbage."""

    rows: list[Row] = field(default_factory=list)
    torn: int = 0


def keep_version(layout: Layout, text: str) -> str:
    """Store `text` under its sha256 (once) and return the hash."""
    digest = sha256_text(text)
    path = os.path.join(layout.versions, digest)
    st = lstat(path, root=layout.root)
    if st is None or not stat.S_ISREG(st.st_mode):
        write_text(path, text, root=layout.root)
    return digest


def check_record(layout: Layout) -> None:
    """Refuse before a change when its ledger row or kept versions could not be written."""
    check_writable(layout.ledger, os.path.join(layout.versions, "0"), root=layout.root)


def record(
    layout: Layout,
    *,
    actor: Actor,
    action: Action,
    name: str,
    place: Place,
    before: str | None,
    after: str | None,
    session: str = "",
    fired: tuple[Trigger, ...] = (),
) -> Row:
    """Keep both texts and append one row; `before`/`after` are the file texts (None: no file)."""
    if actor not in ACTORS or action not in ACTIONS or place not in PLACES:
        msg = f"ledger: actor {actor!r}, action {action!r} or place {place!r} is not one the ledger knows"
        raise ValueError(msg)
    row = Row(
        time=timestamp(),
        actor=actor,
        action=action,
        name=name,
        place=place,
        session=session,
        trigger=as_text(fired),
        before=keep_version(layout, before) if before is not None else None,
        after=keep_version(layout, after) if after is not None else None,
    )
    append_row(layout.ledger, row.as_json(), root=layout.root)
    return row


def _row(data: dict) -> Row | None:
    texts = ("time", "actor", "action", "name", "place", "session", "trigger")
    if not all(isinstance(data.get(k), str) for k in texts):
        return None
    if data["actor"] not in ACTORS or data["action"] not in ACTIONS or data["place"] not in PLACES:
        return None
    before, after = data.get("before"), data.get("after")
    if not (before is None or _is_hash(before)) or not (after is None or _is_hash(after)):
        return None
    return Row(*(data[k] for k in texts), before=before, after=after)


def read_ledger(layout: Layout, name: str | None = None) -> Ledger:
    """Every well-formed row (of one skill when `name` is given), oldest first."""
    read = read_rows(layout.ledger)
    result = Ledger(torn=len(read.bad) + read.not_a_file)
    for data in read.rows:
        row = _row(data)
        if row is None:
            result.torn += 1
        elif name is None or row.name == name:
            result.rows.append(row)
    return result


def version_text(layout: Layout, name: str, sha: str) -> tuple[str, str]:
    """The full hash and the kept text of a version of `name` the ledger names (a 7+ hex prefix will do)."""
    wanted = sha.strip().lower()
    shown = sha[:80]
    if len(wanted) < _MIN_PREFIX or not set(wanted) <= _HEX:
        msg = (
            f"{shown!r} is not a version hash: give at least {_MIN_PREFIX} hex digits "
            f"from `{program()} skills log {name}`"
        )
        raise NotFound(msg)
    known = {h for r in read_ledger(layout, name).rows for h in (r.before, r.after) if h}
    found = sorted(h for h in known if h.startswith(wanted))
    if not found:
        msg = f"no version {shown} of {name} in the ledger (`{program()} skills log {name}` lists them)"
        raise NotFound(msg)
    if len(found) > 1:
        msg = f"{shown} matches {len(found)} versions of {name}; give more digits"
        raise Refused(msg)
    digest = found[0]
    path: str = os.path.join(layout.versions, digest)
    try:
        text = read_text(path, root=layout.root)
    except (OSError, UnicodeDecodeError):
        text = None
    if text is None:
        msg = f"version {digest[:12]} of {name} is named in the ledger but its copy {path} cannot be read"
        raise Refused(msg)
    if sha256_text(text) != digest:
        msg = f"version {digest[:12]} of {name}: the copy at {path} has been changed; refusing to restore it"
        raise Refused(msg)
    return digest, text
