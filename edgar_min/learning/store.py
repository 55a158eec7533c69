"""The experience store: what each turn was, never what it said.

Plain text under `.edgar/experience/`, append-only, laid out so copies from
several machines merge by copying files:

    turns/<host>/<YYYY-MM>.tsv        one line per turn (see `RECORD_FIELDS`)
    shapes/<shape-slug>/<session>     an empty marker: this session did this shape

A turn line is one `O_APPEND` write, so processes may record at once without
losing or interleaving lines; a torn last line (a crash mid-write) is skipped
and counted. The repeats query lists one shape's markers, never the history.
Markers are kept for the first `MARKER_CAP` sessions of a shape only: the
trigger needs to know "at least `min_repeats`", and a small folder keeps the
query a few microseconds however popular the shape (the turn lines still name
every session).

A line's `skills` are those the turn used (its log shows it), `offered` those edgar
put before the agent for its prompt. Lines of version 1 (before offers were kept
apart) have no `offered` field, and their `skills` count offers as uses; they are
read with nothing offered.
"""

from __future__ import annotations

import os
import time
from itertools import count

from edgar_min.atomic import append_line, check_writable, create_empty
from edgar_min.charsets import ALNUM, dashed
from edgar_min.digests import sha1_hex
from edgar_min.learning.sessions import check_session, new_session_id
from edgar_min.learning.triggers import as_text
from edgar_min.logfile import files_ending, timestamp
from edgar_min.records import dataclass, field
from edgar_min.regex import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from edgar_min.learning.triggers import Trigger
    from edgar_min.learning.turn import Turn

__all__ = [
    "RECORD_FIELDS",
    "VERDICTS",
    "ExperienceStore",
    "Scan",
    "check_session",
    "lines_of",
    "new_session_id",
    "scan",
]

MARKER_CAP = 64
# Bytes `scan` reads at a time.
_BLOCK = 1 << 22
RECORD_FIELDS = ("version", "time", "session", "shape", "verification", "skills", "offered", "triggers")
_VERSION = "2"
_SAFE = frozenset(ALNUM + "._-")


def _slug(text: str, limit: int = 60) -> str:
    """A file name for `text`: readable part plus a short hash when it had to be changed."""
    safe = dashed(text, _SAFE).strip("-.")[:limit] or "x"
    if safe == text:
        return safe
    return f"{safe}.{sha1_hex(text.encode())[:10]}"


def _host() -> str:
    return _slug(os.uname().nodename if hasattr(os, "uname") else "host", 40)


class ExperienceStore:
    """Append-only turn records and per-shape session markers under one folder.

    Writes reach the folder from `root` (default: the folder itself) without following a link.
    """

    def __init__(self, folder: str, host: str | None = None, root: str | None = None) -> None:
        self.folder = folder = os.fspath(folder)
        self.root = folder if root is None else os.fspath(root)
        self.host = _slug(host, 40) if host else _host()
        # Plain strings, built once: this is the per-turn hot path.
        self._turns_dir = os.path.join(folder, "turns", self.host)
        self._shapes_dir = os.path.join(folder, "shapes")
        self._shape_dirs: dict[str, str] = {}

    def _shape_dir(self, shape: str) -> str:
        found = self._shape_dirs.get(shape)
        if found is None:
            found = self._shape_dirs[shape] = os.path.join(self._shapes_dir, _slug(shape))
        return found

    def _markers(self, shape: str, limit: int) -> list[str]:
        names: list[str] = []
        try:
            with os.scandir(self._shape_dir(shape)) as entries:
                for entry in entries:
                    if not entry.name.startswith("."):
                        names.append(entry.name)
                        if len(names) >= limit:
                            break
        except (FileNotFoundError, NotADirectoryError):
            pass  # a file where the folder belongs: the write that follows refuses it with a sentence
        return names

    def record(
        self,
        turn: Turn,
        session: str,
        fired: tuple[Trigger, ...] = (),
        now: float | None = None,
        offered: tuple[str, ...] = (),
    ) -> None:
        """Append the turn's shape, session, verdict, the skills it used, those edgar `offered`
        for it, and the triggers that fired."""
        when = time.gmtime(now)
        shape = turn.shape
        line = "\t".join(
            (
                _VERSION,
                timestamp(now),
                session,
                shape,
                turn.verification,
                ",".join(turn.skills) or "-",
                ",".join(offered) or "-",
                as_text(fired) or "-",
            )
        )
        mine = _slug(session, 100)
        markers = self._markers(shape, MARKER_CAP)
        marker = None
        if mine not in markers and len(markers) < MARKER_CAP:
            marker = os.path.join(self._shape_dir(shape), mine)
            # Checked before the turn line is written, so a refusal leaves no half-recorded turn.
            check_writable(marker, root=self.root)
        append_line(os.path.join(self._turns_dir, time.strftime("%Y-%m.tsv", when)), line, root=self.root)
        if marker is not None:
            create_empty(marker, root=self.root)

    def repeats(self, shape: str, exclude_session: str = "", enough: int = 0) -> int:
        """Distinct sessions other than `exclude_session` that did `shape` (at most `MARKER_CAP`)."""
        mine = _slug(exclude_session, 100) if exclude_session else None
        names = self._markers(shape, MARKER_CAP + 1)
        count = len(names) - (mine in names)
        return min(count, enough) if enough else count

    def files(self) -> list[str]:
        """Every turn file, in a stable order."""
        turns = os.path.join(self.folder, "turns")
        hosts = files_ending(turns, "")
        return [p for host in hosts for p in files_ending(host, ".tsv") if os.path.isfile(p)]

    def signature(self) -> tuple[tuple[str, int, int], ...]:
        """Name, size and mtime of every turn file: it changes whenever a turn is recorded."""
        found = []
        for path in self.files():
            try:
                st = os.stat(path)
            except FileNotFoundError:
                continue
            found.append((path, st.st_size, st.st_mtime_ns))
        return tuple(found)

    def scan(self, block: int = _BLOCK) -> Scan:
        """One pass over every turn file; torn or garbage lines are counted and skipped."""
        return scan(self, block)


_TIME_WIDTH = 20  # 2026-11-30T09:00:00Z
# The verification field's values, each a slot of a skill's (passed, failed, unverified) counts.
VERDICTS = {b"passed": 0, b"failed": 1, b"unverified": 2}
_VERDICT_SET = frozenset(VERDICTS)
_FIELD = rb"[^\t\n]+"
_STAMP = rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"
_VERDICT = b"(?:" + b"|".join(VERDICTS) + b")"
# One well-formed line of each version, built from the fields `record` writes (the slow path of
# `scan` only). Version 1 had no offered field (and its skills counted offers as uses).
_LINE = lazy(
    rb"1\t" + rb"\t".join([_STAMP, _FIELD, _FIELD, _VERDICT, _FIELD, _FIELD])
    + rb"|2\t" + rb"\t".join([_STAMP, _FIELD, _FIELD, _VERDICT, _FIELD, _FIELD, _FIELD])
)  # fmt: skip
# The fields between two lines' versions: a line's last field and the next one's version are
# one piece when a block is split on tabs.
_PERIOD = {b"1": 6, b"2": 7}
_NONE = b"-"


class _Times:
    """A file's turn times as one fixed-width byte string, indexable for `bisect`."""

    __slots__ = ("blob", "n")

    def __init__(self, blob: bytes) -> None:
        self.blob = blob
        self.n = len(blob) // _TIME_WIDTH

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> bytes:
        return self.blob[i * _TIME_WIDTH : (i + 1) * _TIME_WIDTH]

    def after(self, stamp: bytes) -> int:
        """How many turns of this file are later than `stamp` (appends come in time order)."""
        from bisect import bisect_right  # only evidence asks; every turn imports this module

        return self.n - bisect_right(self, stamp)


@dataclass(slots=True)
class Scan:
    """What one pass over the store found: turns counted by `shape\\tverdict\\tused` bytes, and by
    their `offered` field (each a comma list of skill names, or `-`)."""

    combos: dict[bytes, int] = field(default_factory=dict)
    offers: dict[bytes, int] = field(default_factory=dict)
    last_used: dict[str, str] = field(default_factory=dict)
    times: list[_Times] = field(default_factory=list)
    turns: int = 0
    torn: int = 0
    files: int = 0
    newest: str = ""

    def turns_after(self, stamp: str) -> int:
        """Recorded turns later than `stamp` (an ISO time like the store's)."""
        key = stamp.encode()
        return sum(t.after(key) for t in self.times)


def _fast(data: bytes, n: int, scan: Scan, blobs: list[bytes]) -> bool:
    """Count a block whose n lines are all well formed and of one version; False (nothing
    counted) when one is not."""
    version = data[:1]
    period = _PERIOD.get(version)
    # Every line then has exactly `period + 1` fields starting with the same version.
    if (
        period is None
        or len(fields := data.split(b"\t")) != period * n + 1
        or fields[0] != version
        or data.count(b"\n" + version + b"\t") != n - 1
    ):
        return False
    stamps = b"".join(fields[1::period])
    if len(stamps) != _TIME_WIDTH * n or b"\n" in stamps or b"\n" in b"".join(fields[2::period]):
        return False
    # No empty field anywhere, and only the three verdicts: checked by C loops, not one per line.
    if b"\t\t" in data or b"\t\n" in data or not set(fields[4::period]) <= _VERDICT_SET:
        return False
    used = fields[5::period]
    offered = fields[6::period] if period == 7 else ()
    if offered and b"\n" in b"".join(offered):
        return False
    # A dict, not a Counter: collections is not imported by the interpreter on 3.12+.
    combos, seen = scan.combos, scan.combos.get
    for key in map(b"\t".join, zip(fields[3::period], fields[4::period], used, strict=True)):
        combos[key] = seen(key, 0) + 1
    offers, seen = scan.offers, scan.offers.get
    for key in offered:
        offers[key] = seen(key, 0) + 1
    # The last line that used each combination of skills: its time is the skills' last use.
    for names, at in dict(zip(used, count(), strict=False)).items():
        if names == _NONE:
            continue
        stamp = stamps[at * _TIME_WIDTH : (at + 1) * _TIME_WIDTH].decode()
        for name in names.decode("utf-8", "replace").split(","):
            if stamp > scan.last_used.get(name, ""):
                scan.last_used[name] = stamp
    newest = stamps[-_TIME_WIDTH:].decode()
    scan.newest = max(scan.newest, newest)
    blobs.append(stamps)
    scan.turns += n
    return True


def _block(data: bytes, scan: Scan, blobs: list[bytes]) -> None:
    n = data.count(b"\n")
    if n == 0 or _fast(data, n, scan, blobs):
        return
    lines = data.split(b"\n")[:-1]
    good = [line for line in lines if _LINE.fullmatch(line)]
    # An empty line is no torn write: the newline an append put after a cut last line.
    scan.torn += n - len(good) - lines.count(b"")
    # Runs of one version, in file order (the times must stay in order for `_Times`).
    start = 0
    for end in range(1, len(good) + 1):
        if end == len(good) or good[end][:1] != good[start][:1]:
            _fast(b"\n".join(good[start:end]) + b"\n", end - start, scan, blobs)
            start = end


def scan(store: ExperienceStore, block: int = _BLOCK) -> Scan:
    """One pass over every turn file; torn or garbage lines are counted and skipped."""
    result = Scan()
    for path in store.files():
        result.files += 1
        blobs: list[bytes] = []
        rest = b""
        try:
            handle = open(path, "rb")  # noqa: SIM115 - read in blocks below
        except OSError:
            continue
        with handle:
            while chunk := handle.read(block):
                chunk = rest + chunk
                cut = chunk.rfind(b"\n") + 1
                rest = chunk[cut:]
                _block(chunk[:cut], result, blobs)
        if rest:  # a last line with no newline: a write that never finished
            result.torn += 1
        result.times.append(_Times(b"".join(blobs)))
    return result


def lines_of(store: ExperienceStore, sessions: set[str]) -> list[tuple[bytes, ...]]:
    """The main agent's turn lines of `sessions`, each as its fields, in the order written; a line
    that is not whole (torn, garbage, a field missing or a verdict unknown) is left out."""
    wanted = {s.encode() for s in sessions}
    found: list[tuple[bytes, ...]] = []
    if not wanted:
        return found
    for path in store.files():
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError:
            continue
        for line in data.split(b"\n")[:-1]:  # what follows the last newline is a torn write
            head = line.split(b"\t", 4)
            if len(head) < 5 or head[2] not in wanted or not head[3].startswith(b"main:"):
                continue
            parts = tuple(line.split(b"\t"))
            # Seven fields at least: a later version adds fields before the triggers, never fewer.
            whole = len(parts) >= 7 and len(parts[1]) == _TIME_WIDTH and all(parts)
            if whole and parts[4] in VERDICTS:
                found.append(parts)
    return found
