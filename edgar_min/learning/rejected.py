"""Refused replies, kept for a person: what the model said, and the sentence that refused it.

One JSON file per refused reply in `rejected/` of the person's state folder
(`Layout.rejected`, outside the project), the newest `KEEP` kept and older ones
removed. A file named for a time later than now (a clock set back, a copy from
another machine) is left out of that count: it never pushes out a reply just kept.
The reply is cut to `REPLY_CHARS`
and passed through the same redaction as a turn's human lines, so what lands
here is never more than a turn could hold, and never a key.
"""

from __future__ import annotations

import os
import time

from edgar_min import jsoncodec
from edgar_min.atomic import remove_tree, write_text
from edgar_min.errors import NotFound
from edgar_min.invocation import program
from edgar_min.learning.triggers import as_text
from edgar_min.logfile import files_ending, open_plain, timestamp
from edgar_min.records import asdict, dataclass
from edgar_min.redact import redact
from edgar_min.regex import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from edgar_min.layout import Layout
    from edgar_min.learning.triggers import Trigger

__all__ = ["KEEP", "REPLY_CHARS", "Rejected", "keep", "list_rejected", "read_rejected"]

KEEP = 50
REPLY_CHARS = 8_000
_ID = lazy(r"\d{8}T\d{12}Z-[0-9a-f]{6}")
_TIME_CHARS = len("20261201T101500123456Z")


@dataclass(frozen=True, slots=True)
class Rejected:
    """One refused reply: when, from which trigger and session, why, and what it said."""

    id: str
    time: str
    trigger: str
    session: str
    skill: str | None
    sentence: str
    reply: str
    cut: bool

    def as_json(self) -> dict[str, object]:
        return asdict(self)


def keep(
    layout: Layout,
    *,
    reply: str,
    sentence: str,
    fired: tuple[Trigger, ...],
    session: str,
    skill: str | None = None,
) -> str:
    """Keep one refused reply and return its id; the oldest beyond `KEEP` are removed."""
    stamp = time.time()
    now = time.gmtime(stamp)
    # Microseconds in the id, so names sort in the order the replies were kept.
    micro = int(stamp * 1_000_000) % 1_000_000
    ident = f"{time.strftime('%Y%m%dT%H%M%S', now)}{micro:06d}Z-{os.urandom(3).hex()}"
    text = redact(reply.replace("\r\n", "\n"))
    row = Rejected(
        id=ident,
        time=timestamp(stamp),
        trigger=as_text(fired),
        session=session,
        skill=skill,
        sentence=redact(sentence),
        reply=text[:REPLY_CHARS],
        cut=len(text) > REPLY_CHARS,
    )
    write_text(
        os.path.join(layout.rejected, f"{ident}.json"),
        jsoncodec.dumps(row.as_json(), ensure_ascii=False, indent=1) + "\n",
        root=layout.state,
    )
    # Names start with the time, in a fixed width: one compares as a time by its text.
    until = ident[:_TIME_CHARS]
    dated = [p for p in _files(layout) if os.path.basename(p)[:_TIME_CHARS] <= until]
    for old in dated[:-KEEP]:
        remove_tree(old, root=layout.state)
    return ident


def _files(layout: Layout) -> list[str]:
    """The kept files, oldest first (their names start with the time)."""
    found = files_ending(layout.rejected, ".json")
    return [p for p in found if _ID.fullmatch(os.path.basename(p)[: -len(".json")])]


def _read(path) -> Rejected | None:
    try:
        handle = open_plain(path)  # not a fifo or /dev/zero a checkout linked here
        if handle is None:
            return None
        with handle:
            data = jsoncodec.loads(handle.read().decode("utf-8"))
        return Rejected(**{k: data[k] for k in Rejected.__slots__})
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None


def list_rejected(layout: Layout) -> list[Rejected]:
    """Every kept refused reply, newest first; unreadable files are skipped."""
    found = (_read(path) for path in reversed(_files(layout)))
    return [r for r in found if r is not None]


def read_rejected(layout: Layout, ident: str) -> Rejected:
    """One kept refused reply by id, or `NotFound`."""
    if not _ID.fullmatch(ident):
        msg = f"no refused reply with id {ident[:80]!r} (ids look like 20261201T101500123456Z-a1b2c3)"
        raise NotFound(msg)
    found = _read(os.path.join(layout.rejected, f"{ident}.json"))
    if found is None:
        msg = f"no refused reply with id {ident} (`{program()} skills rejections` lists the ones kept)"
        raise NotFound(msg)
    return found
