"""Append-only JSON Lines logs, and the one timestamp format every record carries.

A row is one JSON object on one line, appended with a single `O_APPEND` write
(`atomic.append_line`), so several processes may log at once without losing or
interleaving rows. Reading skips and counts what is not a whole row: a line cut
short by a crash, garbage, or a line nested too deep to decode.
"""

from __future__ import annotations

import os
import stat
import time

from edgar_min import jsoncodec
from edgar_min.atomic import append_line
from edgar_min.errors import Refused
from edgar_min.records import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, BinaryIO

# How a file that may turn out not to be plain is opened for reading: a fifo must not block the open.
READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)

__all__ = [
    "READ_FLAGS",
    "Rows",
    "append_row",
    "files_ending",
    "kind_of",
    "open_plain",
    "read_capped",
    "read_plain",
    "read_rows",
    "timestamp",
]


def timestamp(now: float | None = None, *, compact: bool = False) -> str:
    """UTC time as `2026-11-30T09:00:00Z` (`compact`: `20261130T090000Z`, for file names)."""
    return time.strftime("%Y%m%dT%H%M%SZ" if compact else "%Y-%m-%dT%H:%M:%SZ", time.gmtime(now))


def files_ending(folder: str, suffix: str) -> list[str]:
    """The paths of the entries of `folder` whose names end with `suffix`, sorted (hidden ones,
    such as a write's temp file, left out); none when the folder cannot be listed."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return [os.path.join(folder, n) for n in sorted(names) if n.endswith(suffix) and not n.startswith(".")]


def append_row(path: str, row: dict[str, Any], *, root: str | None) -> None:
    """Append `row` as one JSON line; with `root`, no link on the way to `path` is followed."""
    line = jsoncodec.dumps(row, ensure_ascii=False, separators=(",", ":"), default=str)
    if not line.isascii():
        try:
            line.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: only the escaped form is valid UTF-8
            line = jsoncodec.dumps(row, separators=(",", ":"), default=str)
    append_line(path, line, root=root)


@dataclass(slots=True)
class Rows:
    """The JSON objects of a log, oldest first, the line numbers that were not one, and whether
    the log was something other than a plain file (a fifo, `/dev/zero`: not read at all)."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    bad: list[int] = field(default_factory=list)
    not_a_file: bool = False


def read_rows(path: str) -> Rows:
    """Every whole JSON-object line of `path` (none when missing); a last line with no newline is torn."""
    result = Rows()
    try:
        handle = open_plain(path)
    except (FileNotFoundError, NotADirectoryError):
        return result
    if handle is None:
        result.not_a_file = True
        return result
    with handle:
        for number, raw in enumerate(handle, 1):
            if not raw.strip():
                continue
            row = _row(raw) if raw.endswith(b"\n") else None
            if row is None:
                result.bad.append(number)
            else:
                result.rows.append(row)
    return result


def open_plain(path: str) -> BinaryIO | None:
    """`path` opened for reading if it is a plain file; None for a device, fifo or folder.

    A checkout can link a log to `/dev/zero`: reading that would never end.
    """
    fd = os.open(path, READ_FLAGS)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    return os.fdopen(fd, "rb")


def read_capped(path: str, limit: int) -> bytes | None:
    """At most `limit` + 1 bytes of `path` if it is a plain file (a link to one is followed); None otherwise.

    The caller refuses a result longer than `limit`: nothing is read without bound.
    """
    found = read_plain(path, limit)
    return None if found is None else found[0]


def read_plain(path: str, limit: int, *, inside: str | None = None) -> tuple[bytes, os.stat_result] | None:
    """At most `limit` + 1 bytes of `path`, and its stat, if it is a plain file; None otherwise.

    A link to a plain file is followed; with `inside` (a real path), only as far as that folder:
    a file that is elsewhere once every link is resolved is `Refused`, not read.
    """
    fd = os.open(path, READ_FLAGS)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        if inside is not None:
            _check_inside(fd, info, path, inside)
        # Asked for by its size (one byte more shows a file that grew), not by the limit: a
        # buffer of `limit` bytes for every small SKILL.md was most of the time of a listing.
        left, want = limit + 1, info.st_size + 1
        parts = []
        while left > 0:
            chunk = os.read(fd, min(left, want))
            if not chunk:
                break
            parts.append(chunk)
            left, want = left - len(chunk), 1 << 16
        return b"".join(parts), info
    finally:
        os.close(fd)


def _check_inside(fd: int, info: os.stat_result, path: str, inside: str) -> None:
    """Refuse the file open at `fd` unless its real path is below `inside`."""
    try:
        # What the kernel opened, whatever was renamed since: one call where /proc is.
        real = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        real = os.path.realpath(path)
        try:
            same = os.stat(real)
        except OSError:
            same = None
        if same is None or (same.st_dev, same.st_ino) != (info.st_dev, info.st_ino):
            real = ""  # changed between the open and the look: not known to be inside
    if not real.startswith(inside.rstrip(os.sep) + os.sep):
        where = f" (to {real})" if real else ""
        msg = f"refused: {path} leads out of {inside}{where}; it was not read"
        raise Refused(msg)


def kind_of(path: str) -> str:
    """What is at `path`, for a sentence: "a folder", "a fifo", "a device", ... (a link is followed)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return "nothing readable"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a fifo (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a plain file" if stat.S_ISREG(mode) else "not a plain file"


def _row(raw: bytes) -> dict[str, Any] | None:
    try:
        data = jsoncodec.loads(raw)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None
