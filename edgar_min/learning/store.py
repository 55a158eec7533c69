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
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from edgar_min.atomic import append_line
from edgar_min.errors import BadInput
from edgar_min.regex import lazy

try:  # CPython's own SHA-1: hashlib loads OpenSSL, a real part of every turn's start-up
    from _sha1 import sha1
except ImportError:  # a build without it
    from hashlib import sha1

TYPE_CHECKING = False  # typing's own, without importing typing (~2 ms on every run)
if TYPE_CHECKING:
    from collections.abc import Iterator

    from edgar_min.learning.turn import Turn

__all__ = [
    "RECORD_FIELDS",
    "ExperienceStore",
    "Record",
    "check_session",
    "new_session_id",
]

MARKER_CAP = 64
RECORD_FIELDS = ("version", "time", "session", "shape", "verification", "skills", "triggers")
_VERSION = "1"
SESSION = lazy(r"[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}")
_SAFE = lazy(r"[^A-Za-z0-9._-]+")


def check_session(session: str) -> str:
    """A session id is 1-128 of letters, digits and `. _ : @ -`; anything else is refused."""
    if not SESSION.fullmatch(session):
        msg = (
            f"session id {session[:80]!r} is not usable: use 1-128 letters, digits and '._:@-', "
            "starting with a letter or digit"
        )
        raise BadInput(msg)
    return session


def new_session_id(now: float | None = None) -> str:
    """A fresh id for a caller that names no session (each CLI call is then its own session)."""
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(now))
    return f"s-{stamp}-{os.getpid()}-{os.urandom(2).hex()}"


def _slug(text: str, limit: int = 60) -> str:
    """A file name for `text`: readable part plus a short hash when it had to be changed."""
    safe = _SAFE.sub("-", text).strip("-.")[:limit] or "x"
    if safe == text:
        return safe
    return f"{safe}.{sha1(text.encode()).hexdigest()[:10]}"


def _host() -> str:
    return _slug(os.uname().nodename if hasattr(os, "uname") else "host", 40)


@dataclass(frozen=True, slots=True)
class Record:
    """One turn as the store keeps it."""

    time: str
    session: str
    shape: str
    verification: str
    skills: tuple[str, ...]
    triggers: tuple[str, ...]


@dataclass(slots=True)
class StoreHealth:
    """Counts from reading the store: well-formed records, torn lines skipped, files read."""

    records: int = 0
    torn: int = 0
    files: int = 0


class ExperienceStore:
    """Append-only turn records and per-shape session markers under one folder."""

    def __init__(self, folder: Path, host: str | None = None) -> None:
        self.folder = folder
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
        except FileNotFoundError:
            pass
        return names

    def record(
        self, turn: Turn, session: str, fired: list[str] | tuple[str, ...] = (), now: float | None = None
    ) -> None:
        """Append the turn's shape, session, verdict, loaded skills and fired triggers."""
        when = time.gmtime(now)
        shape = turn.shape
        line = "\t".join(
            (
                _VERSION,
                time.strftime("%Y-%m-%dT%H:%M:%SZ", when),
                session,
                shape,
                turn.verification,
                ",".join(turn.skills) or "-",
                ",".join(fired) or "-",
            )
        )
        append_line(os.path.join(self._turns_dir, time.strftime("%Y-%m.tsv", when)), line)
        mine = _slug(session, 100)
        markers = self._markers(shape, MARKER_CAP)
        if mine in markers or len(markers) >= MARKER_CAP:
            return
        marker = os.path.join(self._shape_dir(shape), mine)
        try:
            fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            return
        except FileNotFoundError:
            os.makedirs(os.path.dirname(marker), exist_ok=True)
            try:
                fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                return
        os.close(fd)

    def repeats(self, shape: str, exclude_session: str = "", enough: int = 0) -> int:
        """Distinct sessions other than `exclude_session` that did `shape` (at most `MARKER_CAP`)."""
        mine = _slug(exclude_session, 100) if exclude_session else None
        names = self._markers(shape, MARKER_CAP + 1)
        count = len(names) - (mine in names)
        return min(count, enough) if enough else count

    def files(self) -> list[Path]:
        """Every turn file, in a stable order."""
        turns = self.folder / "turns"
        if not turns.is_dir():
            return []
        return sorted(p for p in turns.glob("*/*.tsv") if p.is_file())

    def signature(self) -> tuple[tuple[str, int, int], ...]:
        """Name, size and mtime of every turn file: it changes whenever a turn is recorded."""
        found = []
        for path in self.files():
            try:
                st = path.stat()
            except FileNotFoundError:
                continue
            found.append((str(path), st.st_size, st.st_mtime_ns))
        return tuple(found)

    def records(self, health: StoreHealth | None = None) -> Iterator[Record]:
        """Every well-formed record; torn or garbage lines are counted in `health` and skipped."""
        for path in self.files():
            if health is not None:
                health.files += 1
            with path.open("rb") as handle:
                for raw in handle:
                    fields = raw.decode("utf-8", "replace").split("\t")
                    if len(fields) != len(RECORD_FIELDS) or fields[0] != _VERSION or not raw.endswith(b"\n"):
                        if health is not None:
                            health.torn += 1
                        continue
                    if health is not None:
                        health.records += 1
                    skills = fields[5]
                    fired = fields[6].rstrip("\n")
                    yield Record(
                        time=fields[1],
                        session=fields[2],
                        shape=fields[3],
                        verification=fields[4],
                        skills=() if skills == "-" else tuple(skills.split(",")),
                        triggers=() if fired == "-" else tuple(fired.split(",")),
                    )

    def health(self) -> StoreHealth:
        """Counts of good records and of torn or garbage lines."""
        result = StoreHealth()
        for _ in self.records(result):
            pass
        return result
