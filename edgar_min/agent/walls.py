"""The run-time wall around a skill body: what its process may write, start and reach.

A body runs in a child process of its own (`child.py`). Once the child is
forked, `install(wall)` adds an audit hook (PEP 578) that is up for the rest of
that process's life, in every thread, with no switch to turn it off: nothing in
the child ever lifts it, and its state lives in the hook's closure, not in a
module global a body could import its way to. While up it refuses, with a
`PermissionError`:

- opening a file for writing, renaming, removing, linking or creating anything
  outside the configured writable folders; a write to a relative path (with
  `dir_fd` the kernel and the hook would resolve it differently); any call
  given a `dir_fd`; fifos, device nodes and extended attributes; changing the
  mode, owner or times of an open descriptor it cannot name;
- starting a process or a thread, any socket, sqlite3, ctypes, pickle loads,
  building code objects, tracing, another audit hook, the garbage collector's object
  lists, and frame objects reached from tracebacks and generators.

This is defence in depth behind the static acceptance checks, not a sandbox:
Python code in one process can find a way round an audit hook that a
determined author looks for. What holds whatever the body does is in the
parent: the engine budget, the time limit (a SIGKILL) and the decision log.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

__all__ = ["TIME_LIMIT_S", "BudgetExceeded", "TimeLimitExceeded", "Wall", "install"]

# Seconds a skill's own code may run in one run, loading included (engine calls not counted).
TIME_LIMIT_S = 10.0

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
# event -> (indexes of path arguments, indexes of dir_fd arguments)
_PATH_EVENTS = {
    "os.remove": ((0,), (1,)),
    "os.rmdir": ((0,), (1,)),
    "os.rename": ((0, 1), (2, 3)),
    "os.link": ((0, 1), (2, 3)),
    "os.symlink": ((1,), (2,)),
    "os.truncate": ((0,), ()),
    "shutil.rmtree": ((0,), (1,)),
    "shutil.move": ((0, 1), ()),
    "shutil.copyfile": ((1,), ()),
}
# Metadata changes also work on a read-only descriptor, so an fd must be named to be allowed.
_METADATA_EVENTS = {"os.chmod": (0, 2), "os.chown": (0, 3), "os.utime": (0, 3)}
_PROCESS_EVENTS = frozenset(
    {"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
     "os.startfile", "os.kill", "os.killpg", "pty.spawn", "signal.pthread_kill"}
)  # fmt: skip
_REFUSED_EVENTS = {
    "_thread.start_new_thread": "starting a thread",
    "_thread.start_joinable_thread": "starting a thread",
    "sqlite3.connect": "opening an sqlite3 database (ATTACH can write anywhere)",
    "sqlite3.enable_load_extension": "loading an sqlite3 extension",
    "sqlite3.load_extension": "loading an sqlite3 extension",
    "os.mkfifo": "creating a fifo",
    "os.mknod": "creating a device node",
    "os.setxattr": "setting an extended attribute",
    "os.removexattr": "removing an extended attribute",
    "pickle.find_class": "loading a pickle (it runs code)",
    "code.__new__": "building a code object",
    "sys.addaudithook": "adding an audit hook",
    "sys.setprofile": "setting a profiler",
    "sys.settrace": "setting a tracer",
    "sys._current_frames": "reading other threads' frames",
    "sys._current_exceptions": "reading other threads' exceptions",
    "gc.get_objects": "listing the interpreter's objects",
    "gc.get_referrers": "listing an object's referrers",
    "gc.get_referents": "listing an object's referents",
    "os.chdir": "changing the working folder",
    "fcntl.ioctl": "an ioctl",
    "ctypes.dlopen": "ctypes",
    "ctypes.dlsym": "ctypes",
    "ctypes.cdata": "ctypes",
}
# Attributes that hand out frames (and, through them, every caller's variables).
_FRAME_ATTRS = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_back"})
# Importing socket or subprocess is harmless (the stdlib `email` package imports socket);
# using them is what the socket and process events refuse. ctypes is refused outright.
_FORBIDDEN_IMPORTS = frozenset({"ctypes", "_ctypes", "_sqlite3", "sqlite3"})


class BudgetExceeded(BaseException):
    """Raised into a skill that asks the engine for more than its budget.

    A BaseException, so `except Exception` inside a body cannot swallow it; a
    body that catches it anyway gains nothing, since the parent refuses the run.
    """


class TimeLimitExceeded(BudgetExceeded):
    """The skill's own code ran longer than its time limit."""


@dataclass(frozen=True, slots=True)
class Wall:
    """The folders a skill may write under (real paths)."""

    writable: tuple[str, ...]

    @classmethod
    def of(cls, folders: list[Path]) -> Wall:
        return cls(tuple(os.path.realpath(p) for p in folders))

    def allows_write(self, path: Any, mkdir: bool = False) -> bool:
        """Whether `path` (absolute, str or bytes) lies under a writable folder, links resolved."""
        try:
            text = os.fsdecode(path)
        except (TypeError, ValueError):
            return False
        if not os.path.isabs(text):  # noqa: PTH117 - an audit hook stays with plain str paths
            return False
        real = os.path.realpath(text)
        for folder in self.writable:
            if real == folder or real.startswith(folder + os.sep):
                return True
            # `mkdir(parents=True)` of a writable folder creates its parents first.
            if mkdir and folder.startswith(real + os.sep):
                return True
        return False


def _fd_path(fd: int) -> str | None:
    try:
        return os.readlink(f"/proc/self/fd/{fd}")  # noqa: PTH115 - as above
    except OSError:
        return None


def _has_dir_fd(args: tuple[Any, ...], indexes: tuple[int, ...]) -> bool:
    return any(i < len(args) and args[i] is not None and args[i] != -1 for i in indexes)


def _shown(path: Any) -> str:
    try:
        return os.fsdecode(path) if not isinstance(path, int) else f"descriptor {path}"
    except (TypeError, ValueError):
        return repr(path)[:200]


def _check(wall: Wall, event: str, args: tuple[Any, ...]) -> str | None:
    """The refusal sentence for `event`, or None when the wall allows it."""
    if event == "open":
        path, mode, flags = args[0], args[1], args[2]
        writing = bool(flags & _WRITE_FLAGS) if isinstance(flags, int) else False
        if isinstance(mode, str) and any(c in mode for c in "wax+"):
            writing = True
        if not writing or isinstance(path, int) or wall.allows_write(path):
            return None
        if isinstance(path, str) and f"{os.sep}__pycache__{os.sep}" in path:
            return ""  # the import system caching bytecode: refused quietly
        if not os.path.isabs(_shown(path)):  # noqa: PTH117 - as above
            return f"writing the relative path {_shown(path)} (use an absolute path in a writable folder)"
        return f"writing {_shown(path)} (outside the writable folders)"
    if event == "os.mkdir":
        if _has_dir_fd(args, (2,)):
            return f"creating the folder {_shown(args[0])} relative to a descriptor (dir_fd)"
        if not wall.allows_write(args[0], mkdir=True):
            return f"creating the folder {_shown(args[0])} (outside the writable folders)"
        return None
    if event in _PATH_EVENTS:
        paths, dir_fds = _PATH_EVENTS[event]
        if _has_dir_fd(args, dir_fds):
            return f"{event} relative to a descriptor (dir_fd)"
        for i in paths:
            if i < len(args) and not wall.allows_write(args[i]):
                return f"{event} on {_shown(args[i])} (outside the writable folders)"
        return None
    if event in _METADATA_EVENTS:
        index, dir_fd = _METADATA_EVENTS[event]
        path = args[index]
        if _has_dir_fd(args, (dir_fd,)):
            return f"{event} relative to a descriptor (dir_fd)"
        named = _fd_path(path) if isinstance(path, int) else path
        if named is None or not wall.allows_write(named):
            return f"{event} on {_shown(path)} (outside the writable folders)"
        return None
    if event in _PROCESS_EVENTS:
        return f"starting a process ({event})"
    if event.startswith("socket."):
        return f"network access ({event})"
    if event in _REFUSED_EVENTS:
        return f"{_REFUSED_EVENTS[event]} ({event})"
    if event == "object.__getattr__" and len(args) > 1 and args[1] in _FRAME_ATTRS:
        return f"reaching a frame ({args[1]})"
    if event == "import" and args and str(args[0]).partition(".")[0] in _FORBIDDEN_IMPORTS:
        return f"importing {args[0]}"
    return None


def install(wall: Wall, refused: list[str]) -> Callable[[str, tuple[Any, ...]], None]:
    """Put `wall` up for the rest of this process, in every thread; refusals are appended to `refused`.

    Only a forked child calls this: an audit hook cannot be removed, and this
    one has no off switch.
    """

    def hook(event: str, args: tuple[Any, ...]) -> None:
        sentence = _check(wall, event, args)
        if sentence is None:
            return
        if not sentence:
            raise PermissionError(event)
        sentence = f"refused by the run-time wall: {sentence}"
        refused.append(sentence)
        raise PermissionError(sentence)

    sys.addaudithook(hook)
    return hook
