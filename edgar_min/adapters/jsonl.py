"""Stream a JSONL session log one record at a time, in flat memory.

A line up to `LINE_CAP` bytes is decoded with `jsoncodec.loads`. A longer line (a
tool that printed 100 MB) is never held whole: it is parsed straight from the
file in `CHUNK`-sized pieces, and every string in it is kept only as its first
`STRING_CAP` bytes, which is all an adapter could ever take from it. Lines that
are not JSON are counted and skipped; so is a torn last line.
"""

from __future__ import annotations

from edgar_min import jsoncodec
from edgar_min.errors import BadInput
from edgar_min.logfile import kind_of, open_plain
from edgar_min.records import dataclass
from edgar_min.regex import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, BinaryIO

__all__ = ["CHUNK", "LINE_CAP", "STRING_CAP", "ReadStats", "records"]

CHUNK = 1 << 20
LINE_CAP = 1 << 20
STRING_CAP = 16_384
# Nesting and width limits for the streamed path: a session log is shallow.
MAX_DEPTH = 64
MAX_ITEMS = 100_000

_WS = lazy(rb"[ \t\r]*")
# A JSON string body up to its closing quote, escapes included; stops at a raw newline.
_STR = lazy(rb'[^"\\\n]*(?:\\[^\n][^"\\\n]*)*')
_NUM = lazy(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


@dataclass(slots=True)
class ReadStats:
    """What the reader met besides good records."""

    lines: int = 0
    garbage: int = 0  # lines that are not JSON
    torn: int = 0  # a last line cut short (no newline, not JSON)
    streamed: int = 0  # lines longer than LINE_CAP, parsed piece by piece


class _MalformedError(Exception):
    pass


def _decode(raw: bytes, truncated: bool) -> str:
    if truncated:
        # The cut may fall inside an escape or a UTF-8 sequence: drop the partial tail.
        cut = raw.rfind(b"\\", max(0, len(raw) - 6))
        if cut != -1:
            raw = raw[:cut]
        text = raw.decode("utf-8", "ignore")
    else:
        text = raw.decode("utf-8", "replace")
    try:
        return jsoncodec.loads('"' + text + '"', strict=False)
    except ValueError:
        return text


class _Reader:
    def __init__(self, handle: BinaryIO) -> None:
        self.handle = handle
        self.buf = b""
        self.pos = 0
        self.eof = False

    def _more(self) -> bool:
        """Read one more chunk; drop what was consumed. False at the end of the file."""
        if self.eof:
            return False
        data = self.handle.read(CHUNK)
        if not data:
            self.eof = True
            return False
        self.buf = self.buf[self.pos :] + data
        self.pos = 0
        return True

    def _need(self, n: int) -> bool:
        while len(self.buf) - self.pos < n:
            if not self._more():
                return False
        return True

    def records(self, stats: ReadStats) -> Iterator[Any]:
        scanned = 0
        while True:
            nl = self.buf.find(b"\n", max(self.pos, scanned))
            if nl == -1:
                if len(self.buf) - self.pos > LINE_CAP:
                    stats.lines += 1
                    stats.streamed += 1
                    scanned = 0
                    value = self._streamed(stats)
                    if value is not _BAD_VALUE:
                        yield value
                    continue
                scanned = len(self.buf)
                before = self.pos
                if self._more():
                    scanned -= before
                    continue
                rest = self.buf[self.pos :]
                self.pos = len(self.buf)
                if rest.strip():
                    stats.lines += 1
                    try:
                        value = jsoncodec.loads(rest)
                    except (ValueError, RecursionError):
                        stats.torn += 1
                    else:
                        yield value
                return
            line = self.buf[self.pos : nl]
            self.pos = nl + 1
            scanned = 0
            if not line.strip():
                continue
            stats.lines += 1
            try:
                value = jsoncodec.loads(line)
            except (ValueError, RecursionError):  # a line nested too deeply to read is garbage too
                stats.garbage += 1
                continue
            yield value

    # The streamed path: a recursive-descent parser over the chunked buffer.

    def _streamed(self, stats: ReadStats) -> Any:
        try:
            value = self._whole_line()
        except _MalformedError:
            if self.eof and self.pos >= len(self.buf):
                stats.torn += 1
            else:
                stats.garbage += 1
            self._skip_line()
            return _BAD_VALUE
        self._skip_line()
        return value

    def _whole_line(self) -> Any:
        value = self._value(0)
        self._ws()
        if self._need(1) and self.buf[self.pos] != 0x0A:
            raise _MalformedError
        return value

    def _skip_line(self) -> None:
        while True:
            nl = self.buf.find(b"\n", self.pos)
            if nl != -1:
                self.pos = nl + 1
                return
            self.pos = len(self.buf)
            if not self._more():
                return

    def _ws(self) -> None:
        while True:
            self.pos = _WS.match(self.buf, self.pos).end()  # type: ignore[union-attr]
            if self.pos < len(self.buf) or not self._more():
                return

    def _value(self, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise _MalformedError
        self._ws()
        if not self._need(1):
            raise _MalformedError
        c = self.buf[self.pos]
        if c == 0x7B:
            return self._object(depth)
        if c == 0x5B:
            return self._array(depth)
        if c == 0x22:
            return self._string()
        self._need(64)
        for literal, value in ((b"true", True), (b"false", False), (b"null", None)):
            if self.buf.startswith(literal, self.pos):
                self.pos += len(literal)
                return value
        m = _NUM.match(self.buf, self.pos)
        if m is None:
            raise _MalformedError
        self.pos = m.end()
        text = m.group()
        return float(text) if (b"." in text or b"e" in text or b"E" in text) else int(text)

    def _expect(self) -> int:
        self._ws()
        if not self._need(1):
            raise _MalformedError
        c = self.buf[self.pos]
        self.pos += 1
        return c

    def _object(self, depth: int) -> dict[str, Any]:
        self.pos += 1
        out: dict[str, Any] = {}
        self._ws()
        if self._need(1) and self.buf[self.pos] == 0x7D:
            self.pos += 1
            return out
        while True:
            self._ws()
            if not self._need(1) or self.buf[self.pos] != 0x22:
                raise _MalformedError
            key = self._string()
            if self._expect() != 0x3A:
                raise _MalformedError
            value = self._value(depth + 1)
            if len(out) < MAX_ITEMS:
                out[key] = value
            c = self._expect()
            if c == 0x2C:
                continue
            if c == 0x7D:
                return out
            raise _MalformedError

    def _array(self, depth: int) -> list[Any]:
        self.pos += 1
        out: list[Any] = []
        self._ws()
        if self._need(1) and self.buf[self.pos] == 0x5D:
            self.pos += 1
            return out
        while True:
            value = self._value(depth + 1)
            if len(out) < MAX_ITEMS:
                out.append(value)
            c = self._expect()
            if c == 0x2C:
                continue
            if c == 0x5D:
                return out
            raise _MalformedError

    def _string(self) -> str:
        self.pos += 1
        kept = bytearray()
        truncated = False
        while True:
            end = _STR.match(self.buf, self.pos).end()  # type: ignore[union-attr]
            room = STRING_CAP - len(kept)
            if room > 0:
                kept += self.buf[self.pos : min(end, self.pos + room)]
            if end - self.pos > room:
                truncated = True
            self.pos = end
            if end < len(self.buf):
                c = self.buf[end]
                if c == 0x22:
                    self.pos += 1
                    return _decode(bytes(kept), truncated)
                if c == 0x5C and end + 1 == len(self.buf):
                    # An escape split across chunks: fetch its second byte and go on.
                    if not self._need(2):
                        raise _MalformedError
                    continue
                raise _MalformedError  # a raw newline inside a string: the line ended mid-string
            if not self._more():
                raise _MalformedError


_BAD_VALUE = object()


def records(path: str, stats: ReadStats) -> Iterator[Any]:
    """Each JSON value of a JSONL file, in order; bad lines are counted in `stats` and skipped.

    Only a plain file is read: a fifo or `/dev/zero` given as a log is `BadInput`, not a hang.
    """
    handle = open_plain(path)
    if handle is None:
        msg = f"{path}: is {kind_of(path)}, not a log file; nothing was read"
        raise BadInput(msg)
    with handle:
        yield from _Reader(handle).records(stats)
