"""Run-time walls around a skill's code: writes, processes, sockets, and the engine budget.

An audit hook (PEP 578), installed once per process, is active only while a
skill body runs (a context variable says so). While active it refuses, with a
`PermissionError`: opening a file for writing, renaming, removing or creating
anything outside the configured writable folders; starting a process; any
socket; loading ctypes; adding another audit hook. Engine calls lift the wall
for their own duration (the engine is edgar's code, not the skill's).

A skill's own code also has a time limit (`TIME_LIMIT_S`, or `[agent] time_limit_s`),
counted only while its code runs, not while the engine answers: a body stuck in a
loop that never calls the engine is stopped with `TimeLimitExceeded`. The limit
needs a main-thread timer (SIGALRM); where there is none (another thread, Windows)
only the engine budget bounds a run.

This is defence in depth behind the static acceptance checks, not a sandbox:
Python code in the same process can always find a way round an audit hook
that a determined author looks for. Run bodies you have reviewed.
"""

from __future__ import annotations

import contextvars
import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

__all__ = ["TIME_LIMIT_S", "BudgetExceeded", "TimeLimitExceeded", "Wall", "guarded", "install", "lifted"]

# Seconds a skill's own code may run in one phase (engine calls not counted).
TIME_LIMIT_S = 10.0

_active: contextvars.ContextVar[Wall | None] = contextvars.ContextVar("edgar_wall", default=None)
_installed = False

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
_PATH_EVENTS = {
    "os.remove": (0,),
    "os.rmdir": (0,),
    "os.rename": (0, 1),
    "os.link": (0, 1),
    "os.symlink": (1,),
    "os.chmod": (0,),
    "os.chown": (0,),
    "os.truncate": (0,),
    "os.utime": (0,),
    "os.mkfifo": (0,),
    "os.mknod": (0,),
    "shutil.rmtree": (0,),
    "shutil.move": (0, 1),
}
_PROCESS_EVENTS = frozenset(
    {"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
     "os.startfile", "os.kill", "os.killpg", "pty.spawn"}
)  # fmt: skip
# Importing socket or subprocess is harmless (the stdlib `email` package imports socket);
# using them is what the socket and process events refuse. ctypes is refused outright.
_FORBIDDEN_IMPORTS = frozenset({"ctypes", "_ctypes"})


class BudgetExceeded(BaseException):
    """Raised into a skill that asks the engine for more than its budget.

    A BaseException, so `except Exception` inside a body cannot swallow it and loop on.
    """


class TimeLimitExceeded(BudgetExceeded):
    """Raised into a skill whose own code ran longer than its time limit."""


@dataclass(slots=True)
class Wall:
    """The folders a skill may write under, and every refusal made while it ran."""

    writable: tuple[str, ...]
    refused: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, folders: list[Path]) -> Wall:
        return cls(tuple(os.path.realpath(p) for p in folders))

    def allows_write(self, path: Any, mkdir: bool = False) -> bool:
        if isinstance(path, int):  # an already-open descriptor
            return True
        try:
            real = os.path.realpath(os.fsdecode(path))
        except (TypeError, ValueError):
            return False
        for folder in self.writable:
            if real == folder or real.startswith(folder + os.sep):
                return True
            # `mkdir(parents=True)` of a writable folder creates its parents first.
            if mkdir and folder.startswith(real + os.sep):
                return True
        return False

    def refuse(self, what: str) -> None:
        sentence = f"refused by the run-time wall: {what}"
        self.refused.append(sentence)
        raise PermissionError(sentence)


def _hook(event: str, args: tuple[Any, ...]) -> None:
    wall = _active.get()
    if wall is None:
        return
    if event == "open":
        path, mode, flags = args[0], args[1], args[2]
        writing = bool(flags & _WRITE_FLAGS) if isinstance(flags, int) else False
        if isinstance(mode, str) and any(c in mode for c in "wax+"):
            writing = True
        if writing and not wall.allows_write(path):
            if isinstance(path, str) and f"{os.sep}__pycache__{os.sep}" in path:
                # The import system caching bytecode for a module the skill imported:
                # refused quietly (importlib carries on without the cache).
                raise PermissionError(path)
            shown = path if isinstance(path, int) else os.fsdecode(path)
            wall.refuse(f"writing {shown} (outside the writable folders)")
    elif event == "os.mkdir":
        if not wall.allows_write(args[0], mkdir=True):
            wall.refuse(f"creating the folder {os.fsdecode(args[0])} (outside the writable folders)")
    elif event in _PATH_EVENTS:
        for i in _PATH_EVENTS[event]:
            if i < len(args) and not wall.allows_write(args[i]):
                wall.refuse(f"{event} on {args[i]!s} (outside the writable folders)")
    elif event in _PROCESS_EVENTS:
        wall.refuse(f"starting a process ({event})")
    elif event.startswith("socket."):
        wall.refuse(f"network access ({event})")
    elif event.startswith("ctypes."):
        wall.refuse(f"ctypes ({event})")
    elif event == "import" and args and str(args[0]).partition(".")[0] in _FORBIDDEN_IMPORTS:
        wall.refuse(f"importing {args[0]}")
    elif event in {"sys.addaudithook", "os.chdir", "sys.setprofile", "sys.settrace"}:
        wall.refuse(event)


def install() -> None:
    """Add the audit hook (once per process; a hook cannot be removed, so it idles when no wall is up)."""
    global _installed  # noqa: PLW0603 - one hook per process is the whole point
    if not _installed:
        sys.addaudithook(_hook)
        _installed = True


def _timer_usable() -> bool:
    import signal
    import threading

    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def guarded(wall: Wall, seconds: float | None = None) -> Iterator[Wall]:
    """Run the block with `wall` up and, when `seconds` is given, a time limit on the skill's code."""
    install()
    token = _active.set(wall)
    timed = bool(seconds) and _timer_usable()
    if timed:
        import signal

        def expired(_signum: int, _frame: object) -> None:
            msg = f"the skill's own code ran longer than {seconds:g} s (engine time not counted)"
            raise TimeLimitExceeded(msg)

        previous = signal.signal(signal.SIGALRM, expired)
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield wall
    finally:
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        _active.reset(token)


@contextmanager
def lifted() -> Iterator[None]:
    """Run the block (edgar's own code, e.g. an engine call) with no wall and the time limit paused."""
    token = _active.set(None)
    paused = 0.0
    if _timer_usable():
        import signal

        paused = signal.setitimer(signal.ITIMER_REAL, 0)[0]
    try:
        yield
    finally:
        if paused:
            signal.setitimer(signal.ITIMER_REAL, paused)
        _active.reset(token)
