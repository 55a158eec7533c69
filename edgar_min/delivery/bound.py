"""A hook's input and its time bound: the payload read from stdin without waiting on a pipe
already written, and a wall-clock bound on the work, in the main thread or out of it.

Both are what every hook of every agent needs before it does anything of its own
(`delivery/hooks.py`); neither knows what a hook does.
"""

from __future__ import annotations

import os
import sys
import time

try:  # the C module `signal` wraps: the wrapper builds enums of every signal, on every hook
    import _signal as signal
except ImportError:  # another Python
    import signal

from edgar_min import jsoncodec
from edgar_min.errors import BadInput, EdgarError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, BinaryIO

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "Clock",
    "Expired",
    "HookTimeout",
    "bounded",
    "read_payload",
    "seconds_or_default",
]

DEFAULT_TIMEOUT_S = 20.0
# A hook payload is a JSON object; a pasted log can make a prompt large (`suggest.query_of` reads
# only the start of one).
MAX_PAYLOAD_BYTES = 16_000_000
PAYLOAD_WAIT_S = 5.0


class HookTimeout(EdgarError):
    """A hook ran out of its time: it stops where it was, and says so."""


class Expired(BaseException):
    # A BaseException, so that no `except Exception` on the way can swallow the deadline.
    pass


def _on_main_thread() -> bool:
    """Whether this is the main thread; without importing threading when nothing else has."""
    threading = sys.modules.get("threading")
    return threading is None or threading.current_thread() is threading.main_thread()


def seconds_or_default(value: float) -> float:
    """`value` when it is a usable number of seconds, else DEFAULT_TIMEOUT_S."""
    return value if isinstance(value, (int, float)) and 0 < value < float("inf") else DEFAULT_TIMEOUT_S


class Clock:
    """A wall-clock bound on the calling thread: SIGALRM in the main thread, else a watched worker."""

    def __init__(self, seconds: float) -> None:
        self.start = time.monotonic()
        self.end = self.start + seconds
        self.armed = False

    def remaining(self) -> float:
        return max(0.001, self.end - time.monotonic())

    def extend_to(self, seconds: float, started: float) -> None:
        """Move the bound to `seconds` after `started` (the config's limit, once it is read)."""
        self.end = started + seconds
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, self.remaining())


def bounded(work: Callable[[Clock], Any], seconds: float) -> Any:
    """`work(clock)` within `seconds` of wall time (movable by the clock), or `HookTimeout`."""
    clock = Clock(seconds)
    message = "the hook ran out of time ({:g} s, adapters.hook_timeout_s) and stopped where it was"
    if _on_main_thread() and hasattr(signal, "setitimer"):

        def expire(_signum: int, _frame: object) -> None:
            if clock.armed:
                raise Expired

        previous = signal.signal(signal.SIGALRM, expire)
        try:
            clock.armed = True
            signal.setitimer(signal.ITIMER_REAL, clock.remaining())
            try:
                return work(clock)
            finally:
                clock.armed = False
                signal.setitimer(signal.ITIMER_REAL, 0)
        except Expired:
            raise HookTimeout(message.format(round(clock.end - clock.start, 3))) from None
        finally:
            signal.signal(signal.SIGALRM, previous)
    # Not the main thread (a server, a test runner's worker): a daemon worker, watched.
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = work(clock)
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller below
            box["error"] = exc

    import threading

    worker = threading.Thread(target=run, name="edgar-hook", daemon=True)
    worker.start()
    while worker.is_alive() and time.monotonic() < clock.end:
        worker.join(min(0.05, clock.remaining()))
    if worker.is_alive():
        raise HookTimeout(message.format(round(clock.end - clock.start, 3)))
    if "error" in box:
        raise box["error"]
    return box.get("value")


def read_payload(stream: BinaryIO | Any) -> dict[str, Any]:
    """The hook's JSON object from stdin, or `BadInput` with a sentence."""
    raw = getattr(stream, "buffer", stream)
    try:
        fd = raw.fileno()
    except (AttributeError, OSError, ValueError):
        fd = None  # not a file (a test's buffer): read it directly
    data = raw.read(MAX_PAYLOAD_BYTES + 1) if fd is None else _read_fd(fd)
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if len(data) > MAX_PAYLOAD_BYTES:
        msg = f"the hook payload is larger than {MAX_PAYLOAD_BYTES} bytes"
        raise BadInput(msg)
    try:
        payload = jsoncodec.loads(data)
    except (ValueError, RecursionError):
        msg = "the hook payload on stdin is not JSON"
        raise BadInput(msg) from None
    if not isinstance(payload, dict):
        msg = "the hook payload on stdin is not a JSON object"
        raise BadInput(msg)
    return payload


def _read_fd(fd: int) -> bytes:
    """Stdin's bytes, up to one past the cap; `BadInput` when none arrive within PAYLOAD_WAIT_S.

    The harness has written the payload, and often closed the pipe, before the hook reads it:
    what is there is read without waiting (and without importing `select`); only a payload
    still arriving, or a terminal, is waited for.
    """
    data, whole = b"", False
    if not os.isatty(fd):  # a terminal's blocking mode is its shell's too: left alone
        data, whole = _read_now(fd, MAX_PAYLOAD_BYTES + 1)
    if whole:
        return data
    import select

    deadline = time.monotonic() + PAYLOAD_WAIT_S
    chunks = [data]
    size = len(data)
    while size <= MAX_PAYLOAD_BYTES:
        try:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        except (OSError, ValueError):
            ready = [fd]  # not selectable: read it directly
        if not ready:
            msg = f"no hook payload arrived on stdin within {PAYLOAD_WAIT_S:g} s"
            raise BadInput(msg)
        chunk = os.read(fd, MAX_PAYLOAD_BYTES + 1 - size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _read_now(fd: int, limit: int) -> tuple[bytes, bool]:
    """What `fd` holds now, up to `limit` bytes, and whether that is all of it (or the limit)."""
    chunks, size = [], 0
    try:
        blocking = os.get_blocking(fd)
        os.set_blocking(fd, False)
    except (OSError, AttributeError):  # no non-blocking mode here (Windows before 3.12): waited for
        return b"", False
    try:
        while size < limit:
            try:
                chunk = os.read(fd, limit - size)
            except BlockingIOError:  # the writer has not finished, or not begun
                return b"".join(chunks), False
            if not chunk:
                return b"".join(chunks), True
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks), True
    finally:
        os.set_blocking(fd, blocking)
